//! Posting language (reference §3.11): ISO 639-1 code of the description's language, from the
//! `whatlang` detector, only when it is reliable.
//!
//! whatlang's cost is dominated by comparing the text with every language profile of its
//! script. Most postings are English, so a first pass compares a short sample with the eight
//! most common posting languages only; a reliable English answer there is final. Anything
//! else goes to the full detector, so no language is ever forced into a shorter list.

use std::sync::LazyLock;

use whatlang::{Detector, Lang};

/// Characters of visible text the quick pass reads.
const QUICK_SAMPLE: usize = 150;
/// Characters of visible text the full detector reads.
const SAMPLE: usize = 400;

/// The quick first pass: the languages most postings are written in.
static QUICK: LazyLock<Detector> = LazyLock::new(|| {
    use Lang::*;
    Detector::with_allowlist(vec![Eng, Deu, Fra, Spa, Por, Ita, Nld, Pol])
});

fn prefix(text: &str, chars: usize) -> &str {
    let end = text.char_indices().nth(chars).map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// The posting's language, when the detector is confident.
pub fn detect(text: &str) -> Option<&'static str> {
    let sample = prefix(text, SAMPLE);
    if sample.split_whitespace().count() < 5 {
        return None;
    }
    let quick = QUICK.detect(prefix(text, QUICK_SAMPLE));
    if quick.as_ref().is_some_and(|i| i.lang() == Lang::Eng && i.is_reliable()) {
        return Some("en");
    }
    let info = whatlang::detect(sample)?;
    if !info.is_reliable() {
        return None;
    }
    iso639_1(info.lang())
}

/// ISO 639-1 for the languages whatlang knows (all of them have one, except Esperanto's
/// being constructed is still `eo`).
fn iso639_1(lang: Lang) -> Option<&'static str> {
    use Lang::*;
    Some(match lang {
        Epo => "eo",
        Eng => "en",
        Rus => "ru",
        Cmn => "zh",
        Spa => "es",
        Por => "pt",
        Ita => "it",
        Ben => "bn",
        Fra => "fr",
        Deu => "de",
        Ukr => "uk",
        Kat => "ka",
        Ara => "ar",
        Hin => "hi",
        Jpn => "ja",
        Heb => "he",
        Yid => "yi",
        Pol => "pl",
        Amh => "am",
        Jav => "jv",
        Kor => "ko",
        Nob => "nb",
        Dan => "da",
        Swe => "sv",
        Fin => "fi",
        Tur => "tr",
        Nld => "nl",
        Hun => "hu",
        Ces => "cs",
        Ell => "el",
        Bul => "bg",
        Bel => "be",
        Mar => "mr",
        Kan => "kn",
        Ron => "ro",
        Slv => "sl",
        Hrv => "hr",
        Srp => "sr",
        Mkd => "mk",
        Lit => "lt",
        Lav => "lv",
        Est => "et",
        Tam => "ta",
        Vie => "vi",
        Urd => "ur",
        Tha => "th",
        Guj => "gu",
        Uzb => "uz",
        Pan => "pa",
        Aze => "az",
        Ind => "id",
        Tel => "te",
        Pes => "fa",
        Mal => "ml",
        Ori => "or",
        Mya => "my",
        Nep => "ne",
        Sin => "si",
        Khm => "km",
        Tuk => "tk",
        Aka => "ak",
        Zul => "zu",
        Sna => "sn",
        Afr => "af",
        Lat => "la",
        Slk => "sk",
        Cat => "ca",
        Tgl => "tl",
        Hye => "hy",
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: Languages
    #[test]
    fn detects_reliable_languages_only() {
        let en = "We are looking for a senior engineer to join our growing team and help us build \
                  the future of search for job seekers around the world.";
        let de = "Wir suchen eine erfahrene Softwareentwicklerin, die unser Team in Berlin \
                  verstärkt und gemeinsam mit uns die Zukunft der Jobsuche gestaltet.";
        assert_eq!(detect(en), Some("en"));
        assert_eq!(detect(de), Some("de"));
        assert_eq!(detect("Go, Rust"), None);
        let sv = "Vi söker en erfaren utvecklare som vill bygga framtidens jobbsökning tillsammans \
                  med oss i Stockholm och arbeta i ett litet team.";
        assert_eq!(detect(sv), Some("sv"), "a language outside the quick list still resolves");
        assert_eq!(detect(""), None);
    }
}
