//! Evergreen wording (reference search-ingest §5.10, one of the reality signals): a posting
//! that says it is a standing advert rather than a vacancy (a talent pool, a general or
//! speculative application, "we are always looking"), in English, German or French. Read
//! from the title and the visible text of the description.

use crate::text::visible_text;

/// Phrases of a standing advert, lowercase.
const PHRASES: &[&str] = &[
    "talent pool",
    "talent community",
    "talent network",
    "evergreen",
    "general application",
    "open application",
    "speculative application",
    "spontaneous application",
    "unsolicited application",
    "always looking for",
    "always on the lookout",
    "always hiring",
    "future opportunities",
    "future openings",
    "future vacancies",
    "no current opening",
    "initiativbewerbung",
    "talentpool",
    "blindbewerbung",
    "candidature spontanée",
    "candidature spontanee",
    "vivier de talents",
];

/// Whether the title or the description (HTML) reads as a standing advert.
pub fn evergreen_text(title: &str, description_html: &str) -> bool {
    let text = format!("{} {}", title, visible_text(description_html)).to_lowercase();
    PHRASES.iter().any(|p| text.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standing_adverts_in_three_languages() {
        assert!(evergreen_text("Software Engineer - Talent Pool", ""));
        assert!(evergreen_text("General Application", "<p>Tell us about you.</p>"));
        assert!(evergreen_text("Engineer", "<p>We are <b>always looking for</b> engineers.</p>"));
        assert!(evergreen_text("Initiativbewerbung", ""));
        assert!(evergreen_text("Candidature spontanée", ""));
        assert!(!evergreen_text("Backend Engineer", "<p>Join our payments team now.</p>"));
    }
}
