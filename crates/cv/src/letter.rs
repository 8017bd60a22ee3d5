//! Cover letters (reference assistant.md §10.6 `cover_letter_draft`): what a model's draft
//! must satisfy before it is the candidate's letter. Pure: the service asks the model, this
//! module decides what of the answer may stand.
//!
//! The model is shown the vacancy and a list of the candidate's **publishable** achievements
//! ([`Evidence`]) and answers with JSON ([`parse_draft`]): a greeting, paragraphs each citing
//! the evidence ids it rests on, a closing. [`gate`] keeps a paragraph only when
//!
//! - it cites at least one id, and every id it cites is on the list it was shown (so the
//!   candidate's own, publishable achievement: the list is built from nothing else);
//! - every number in it appears in the evidence it cites (a letter never invents a metric);
//!
//! and keeps at most the band's paragraph count ([`Band::paragraphs`]). A greeting or closing
//! that carries a number (a claim in disguise) is replaced by a neutral one. No paragraph left
//! is [`LetterError::NothingBacked`]: no letter is better than an unbacked one. What was
//! dropped is counted in [`Gated::dropped`], so the caller can report it.
//!
//! The candidate's name is never shown to the model: [`Letter::text`] signs with it.

use freehire_domain::AtomId;
use serde::{Deserialize, Serialize};

/// The most characters of one paragraph.
pub const MAX_PARAGRAPH_CHARS: usize = 1_200;
/// The most characters of the greeting or the closing.
pub const MAX_LINE_CHARS: usize = 200;
/// The most achievements a draft is shown.
pub const MAX_EVIDENCE: usize = 10;
/// The greeting used when the model's is unusable.
pub const DEFAULT_GREETING: &str = "Dear hiring team,";
/// The closing used when the model's is unusable.
pub const DEFAULT_CLOSING: &str = "Thank you for considering my application. Kind regards,";

/// How long a letter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// Two paragraphs, about 150 words.
    Short,
    /// Three paragraphs, about 300 words.
    #[default]
    Standard,
}

impl Band {
    /// `short` or `standard`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Short => "short",
            Self::Standard => "standard",
        }
    }

    /// The band for a raw value: anything but `short` is `standard` (the reference's rule).
    pub fn lenient(raw: Option<&str>) -> Self {
        match raw.map(str::trim) {
            Some(b) if b.eq_ignore_ascii_case("short") => Self::Short,
            _ => Self::Standard,
        }
    }

    /// The most body paragraphs.
    pub fn paragraphs(self) -> usize {
        match self {
            Self::Short => 2,
            Self::Standard => 3,
        }
    }

    /// The most words of the body, as the model is told.
    pub fn words(self) -> usize {
        match self {
            Self::Short => 150,
            Self::Standard => 300,
        }
    }
}

/// One achievement a draft may cite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// Its id.
    pub id: AtomId,
    /// The claim.
    pub claim: String,
    /// Its context.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub context: String,
    /// Its figures.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<String>,
}

/// The model's answer as it was parsed, nothing checked yet.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RawDraft {
    /// "Dear …".
    pub greeting: String,
    /// The body.
    pub paragraphs: Vec<RawParagraph>,
    /// The last sentence and the sign-off words.
    pub closing: String,
}

/// One paragraph as the model wrote it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RawParagraph {
    /// Its text.
    pub text: String,
    /// The ids it rests on (strings or numbers).
    pub evidence_ids: Vec<serde_json::Value>,
}

/// A paragraph that passed the gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paragraph {
    /// Its text.
    pub text: String,
    /// The achievements it rests on.
    pub evidence_ids: Vec<AtomId>,
}

/// A letter: what is stored and shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Letter {
    /// "Dear …".
    pub greeting: String,
    /// The body, each paragraph with its evidence.
    pub paragraphs: Vec<Paragraph>,
    /// The last sentence and the sign-off words.
    pub closing: String,
    /// The name it is signed with (the candidate's, never shown to the model); may be empty.
    pub signature: String,
}

impl Letter {
    /// The letter as plain text: greeting, paragraphs, closing and signature, blank lines
    /// between.
    pub fn text(&self) -> String {
        let mut parts = vec![self.greeting.clone()];
        parts.extend(self.paragraphs.iter().map(|p| p.text.clone()));
        let mut end = self.closing.clone();
        if !self.signature.is_empty() {
            end.push('\n');
            end.push_str(&self.signature);
        }
        parts.push(end);
        parts.join("\n\n")
    }

    /// Its body's words.
    pub fn words(&self) -> usize {
        self.paragraphs.iter().map(|p| p.text.split_whitespace().count()).sum()
    }
}

/// What the gate kept, and how much it dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gated {
    /// The letter (signature empty: the caller signs).
    pub letter: Letter,
    /// Paragraphs dropped: uncited, citing an id not offered, or with a number its evidence
    /// does not state, or past the band's count.
    pub dropped: usize,
}

/// Why a draft is not a letter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LetterError {
    /// The answer is not the JSON asked for.
    #[error("the draft was not in the expected form: {0}")]
    Unreadable(String),
    /// No paragraph was backed by the candidate's achievements.
    #[error(
        "no paragraph of the draft was backed by the candidate's own achievements, so no letter \
         was saved"
    )]
    NothingBacked,
}

/// Parses the model's answer (JSON, possibly in a Markdown code fence).
pub fn parse_draft(answer: &str) -> Result<RawDraft, LetterError> {
    let trimmed = answer.trim();
    let body = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|rest| rest.trim_end().strip_suffix("```"))
        .unwrap_or(trimmed);
    let start = body.find('{');
    let end = body.rfind('}');
    let json = match (start, end) {
        (Some(s), Some(e)) if s < e => &body[s..=e],
        _ => return Err(LetterError::Unreadable("no JSON object in the answer".to_owned())),
    };
    serde_json::from_str(json).map_err(|e| LetterError::Unreadable(e.to_string()))
}

/// The number tokens of `text`: runs of digits, with `.`/`,` inside them dropped (`1,200` and
/// `1200` are one number).
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_digit() {
            current.push(*c);
        } else if matches!(c, '.' | ',')
            && !current.is_empty()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit)
        {
            continue;
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Whitespace collapsed, control characters dropped, cut to `max` characters.
fn clean(text: &str, max: usize) -> String {
    let collapsed: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    match collapsed.char_indices().nth(max) {
        Some((end, _)) => collapsed[..end].trim_end().to_owned(),
        None => collapsed,
    }
}

/// The id a model wrote, if it is one of `offered`.
fn offered_id(raw: &serde_json::Value, offered: &[Evidence]) -> Option<AtomId> {
    let text = match raw {
        serde_json::Value::String(s) => s.trim().to_owned(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => return None,
    };
    offered.iter().map(|e| e.id).find(|id| id.to_string() == text)
}

/// A paragraph kept, or `None` when it may not stand (see the module docs).
fn check_paragraph(p: &RawParagraph, offered: &[Evidence]) -> Option<Paragraph> {
    let text = clean(&p.text, MAX_PARAGRAPH_CHARS);
    if text.is_empty() || p.evidence_ids.is_empty() {
        return None;
    }
    let mut ids = Vec::new();
    for raw in &p.evidence_ids {
        let id = offered_id(raw, offered)?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let backing: String = offered
        .iter()
        .filter(|e| ids.contains(&e.id))
        .flat_map(|e| [e.claim.clone(), e.context.clone(), e.metrics.join(" ")])
        .collect::<Vec<_>>()
        .join(" ");
    let stated = numbers(&backing);
    if numbers(&text).iter().any(|n| !stated.contains(n)) {
        return None;
    }
    Some(Paragraph { text, evidence_ids: ids })
}

/// A greeting or closing, or `fallback` when it is empty or carries a number.
fn line_or(raw: &str, fallback: &str) -> String {
    let line = clean(raw, MAX_LINE_CHARS);
    if line.is_empty() || !numbers(&line).is_empty() { fallback.to_owned() } else { line }
}

/// What of `draft` may stand, given the evidence it was `offered` (see the module docs).
pub fn gate(draft: &RawDraft, offered: &[Evidence], band: Band) -> Result<Gated, LetterError> {
    let mut kept = Vec::new();
    let mut dropped = 0;
    for p in &draft.paragraphs {
        match check_paragraph(p, offered) {
            Some(p) if kept.len() < band.paragraphs() => kept.push(p),
            _ => dropped += 1,
        }
    }
    if kept.is_empty() {
        return Err(LetterError::NothingBacked);
    }
    Ok(Gated {
        letter: Letter {
            greeting: line_or(&draft.greeting, DEFAULT_GREETING),
            paragraphs: kept,
            closing: line_or(&draft.closing, DEFAULT_CLOSING),
            signature: String::new(),
        },
        dropped,
    })
}

/// The instructions of a draft in `band`.
pub fn system_prompt(band: Band) -> String {
    format!(
        "You write a cover letter for a job candidate, for one vacancy, using only the \
         candidate's own achievements listed in the request.\n\n\
         Answer with one JSON object and nothing else: {{\"greeting\": string, \"paragraphs\": \
         [{{\"text\": string, \"evidence_ids\": [string]}}], \"closing\": string}}.\n\n\
         Rules:\n\
         - Write {paragraphs} body paragraphs, at most {words} words in all, in the vacancy's \
         language.\n\
         - Every paragraph cites in `evidence_ids` the ids of the achievements it rests on, and \
         says only what those achievements say. A paragraph without a citation is deleted.\n\
         - Never invent an employer, a title, a year, a number, a skill or a result. Use a \
         number only exactly as the cited achievement states it.\n\
         - Connect the achievements to what the vacancy asks for; do not restate the vacancy.\n\
         - The greeting and the closing make no claims and contain no numbers. Do not sign \
         the letter: the candidate's name is added afterwards.",
        paragraphs = band.paragraphs(),
        words = band.words(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(id: i64, claim: &str, metrics: &[&str]) -> Evidence {
        Evidence {
            id: AtomId::new(id).unwrap(),
            claim: claim.to_owned(),
            context: String::new(),
            metrics: metrics.iter().map(|m| (*m).to_owned()).collect(),
        }
    }

    fn offered() -> Vec<Evidence> {
        vec![
            ev(11, "Led the migration of twelve services to Kubernetes", &["deploys 40 → 6 min"]),
            ev(12, "Cut p99 latency of the ledger API from 900 ms to 120 ms", &[]),
        ]
    }

    fn draft(json: serde_json::Value) -> RawDraft {
        parse_draft(&json.to_string()).unwrap()
    }

    #[test]
    fn a_backed_draft_stands_and_reads_as_text() {
        let d = draft(serde_json::json!({
            "greeting": "Dear Acme team,",
            "paragraphs": [
                {"text": "I led the migration of twelve services to Kubernetes, taking deploys from 40 to 6 minutes.", "evidence_ids": ["11"]},
                {"text": "I cut the ledger API's p99 from 900 ms to 120 ms.", "evidence_ids": [12]},
            ],
            "closing": "I would welcome a conversation. Kind regards,",
        }));
        let mut gated = gate(&d, &offered(), Band::Standard).unwrap();
        assert_eq!(gated.dropped, 0);
        assert_eq!(gated.letter.paragraphs.len(), 2);
        gated.letter.signature = "Ada Lovelace".into();
        let text = gated.letter.text();
        assert!(text.starts_with("Dear Acme team,\n\nI led"), "{text}");
        assert!(text.ends_with("Kind regards,\nAda Lovelace"), "{text}");
    }

    #[test]
    fn unbacked_paragraphs_are_dropped() {
        let d = draft(serde_json::json!({
            "greeting": "Dear team,",
            "paragraphs": [
                {"text": "I have managed a team of 60 engineers.", "evidence_ids": ["11"]},
                {"text": "I am a natural leader.", "evidence_ids": []},
                {"text": "I built the payments platform.", "evidence_ids": ["999"]},
                {"text": "I built it.", "evidence_ids": ["11", "forged"]},
                {"text": "I cut p99 from 900 ms to 120 ms.", "evidence_ids": ["12"]},
            ],
            "closing": "Best,",
        }));
        let gated = gate(&d, &offered(), Band::Standard).unwrap();
        assert_eq!(
            gated.dropped, 4,
            "an invented number, no citation, an id not offered, a forged id"
        );
        assert_eq!(gated.letter.paragraphs[0].evidence_ids, vec![AtomId::new(12).unwrap()]);
    }

    #[test]
    fn nothing_backed_is_no_letter_and_numbers_leave_the_greeting() {
        let d = draft(serde_json::json!({
            "greeting": "After 15 years in the field,",
            "paragraphs": [{"text": "I led 300 people.", "evidence_ids": ["11"]}],
        }));
        assert_eq!(gate(&d, &offered(), Band::Short), Err(LetterError::NothingBacked));
        let d = draft(serde_json::json!({
            "greeting": "After 15 years in the field,",
            "paragraphs": [{"text": "I moved twelve services to Kubernetes.", "evidence_ids": ["11"]}],
            "closing": "",
        }));
        let gated = gate(&d, &offered(), Band::Short).unwrap();
        assert_eq!(gated.letter.greeting, DEFAULT_GREETING);
        assert_eq!(gated.letter.closing, DEFAULT_CLOSING);
    }

    #[test]
    fn the_band_caps_the_paragraphs() {
        let p = serde_json::json!({"text": "I moved twelve services to Kubernetes.", "evidence_ids": ["11"]});
        let d = draft(serde_json::json!({"paragraphs": [p, p, p, p]}));
        let short = gate(&d, &offered(), Band::Short).unwrap();
        assert_eq!((short.letter.paragraphs.len(), short.dropped), (2, 2));
        assert_eq!(gate(&d, &offered(), Band::Standard).unwrap().letter.paragraphs.len(), 3);
        assert_eq!(Band::lenient(Some("SHORT")), Band::Short);
        assert_eq!(Band::lenient(Some("long")), Band::Standard);
        assert_eq!(Band::lenient(None), Band::Standard);
    }

    #[test]
    fn answers_in_a_fence_parse_and_garbage_does_not() {
        let fenced = "```json\n{\"paragraphs\": []}\n```";
        assert!(parse_draft(fenced).unwrap().paragraphs.is_empty());
        assert!(matches!(parse_draft("I cannot help"), Err(LetterError::Unreadable(_))));
        assert_eq!(numbers("from 1,200 ms to 3.5 s, v2"), ["1200", "35", "2"]);
    }
}
