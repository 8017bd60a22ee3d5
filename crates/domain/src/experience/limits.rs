//! The field limits of the experience bank (reference assistant.md §12.1). Strings are clipped
//! to them by runes (Unicode scalar values) when a draft is sanitised, never rejected.

/// An atom's claim.
pub const MAX_CLAIM_CHARS: usize = 400;
/// An atom's context.
pub const MAX_CONTEXT_CHARS: usize = 1200;
/// An employment's summary.
pub const MAX_SUMMARY_CHARS: usize = 600;
/// Company, role, location, source ref, each metric, link.
pub const MAX_SHORT_CHARS: usize = 200;
/// Metrics per atom.
pub const MAX_METRICS: usize = 10;
/// Skills per atom, and the stack of an employment.
pub const MAX_SKILLS: usize = 40;

/// Trims `s` and keeps at most `max` chars of it.
pub fn clip(s: &str, max: usize) -> String {
    let t = s.trim();
    match t.char_indices().nth(max) {
        Some((cut, _)) => t[..cut].trim_end().to_owned(),
        None => t.to_owned(),
    }
}

/// Canonicalises skills with `canon` (unknown ones are dropped), removes repeats keeping the
/// first, and keeps at most [`MAX_SKILLS`].
pub fn canonical_skills<S: AsRef<str>>(
    skills: &[S],
    canon: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in skills {
        if out.len() == MAX_SKILLS {
            break;
        }
        if let Some(slug) = canon(s.as_ref().trim())
            && !out.contains(&slug)
        {
            out.push(slug);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_counts_runes_and_trims() {
        assert_eq!(clip("  héllo  ", 3), "hél");
        assert_eq!(clip("ab", 5), "ab");
        assert_eq!(clip("ab cd", 3), "ab");
    }

    #[test]
    fn skills_are_canonical_unique_and_bounded() {
        let canon = |s: &str| (s != "nonsense").then(|| s.to_lowercase());
        let many: Vec<String> = (0..60).map(|i| format!("s{i}")).collect();
        assert_eq!(canonical_skills(&["Rust", "rust", "nonsense", "Go"], &canon), ["rust", "go"]);
        assert_eq!(canonical_skills(&many, &canon).len(), MAX_SKILLS);
    }
}
