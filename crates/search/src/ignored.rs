//! `meta.ignored_params` (reference §5.5 `UnknownParams`): parameters the endpoint does not
//! know, with a did-you-mean only for singular/plural variants, sorted by name, capped at 10.

/// Most entries reported in `ignored_params`.
pub const MAX_IGNORED: usize = 10;

/// One ignored parameter.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct IgnoredParam {
    /// The parameter as given (for a `q_fields` value: `q_fields=<value>`).
    pub param: String,
    /// The known parameter it is the singular or plural of; omitted when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub did_you_mean: Option<String>,
}

/// The singular or plural variant of `name` that `known` accepts, if any. A `_exclude` or
/// `_mode` suffix is kept: `skill_exclude` → `skills_exclude`, `country` → `countries`.
pub fn did_you_mean(name: &str, known: impl Fn(&str) -> bool) -> Option<String> {
    let (base, suffix) = ["_exclude", "_mode"]
        .iter()
        .find_map(|s| name.strip_suffix(s).map(|b| (b, *s)))
        .unwrap_or((name, ""));
    if base.is_empty() {
        return None;
    }
    number_variants(base)
        .into_iter()
        .map(|b| format!("{b}{suffix}"))
        .find(|candidate| candidate != name && known(candidate))
}

/// Plural forms of a singular and singular forms of a plural, most likely first.
fn number_variants(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(stem) = word.strip_suffix("ies") {
        out.push(format!("{stem}y"));
    }
    if let Some(stem) = word.strip_suffix("es") {
        out.push(stem.to_owned());
    }
    if let Some(stem) = word.strip_suffix('s') {
        out.push(stem.to_owned());
    }
    if let Some(stem) = word.strip_suffix('y') {
        out.push(format!("{stem}ies"));
    }
    out.push(format!("{word}s"));
    out.push(format!("{word}es"));
    out
}

/// Sorts by name, removes repeats and keeps the first [`MAX_IGNORED`].
pub(crate) fn finish(mut list: Vec<IgnoredParam>) -> Vec<IgnoredParam> {
    list.sort();
    list.dedup_by(|a, b| a.param == b.param);
    list.truncate(MAX_IGNORED);
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(p: &str) -> bool {
        ["countries", "skills", "skills_exclude", "category", "cities", "work_mode", "regions_mode"]
            .contains(&p)
    }

    #[test]
    fn singular_and_plural_variants() {
        let cases = [
            ("country", Some("countries")),
            ("skill", Some("skills")),
            ("skill_exclude", Some("skills_exclude")),
            ("categories", Some("category")),
            ("city", Some("cities")),
            ("work_modes", Some("work_mode")),
            ("region_mode", Some("regions_mode")),
            ("skils", None),
            ("bogus", None),
            ("_exclude", None),
            ("", None),
        ];
        for (name, want) in cases {
            assert_eq!(did_you_mean(name, known).as_deref(), want, "{name}");
        }
    }

    #[test]
    fn finish_sorts_dedups_and_caps() {
        let list = (0..12)
            .rev()
            .chain([3])
            .map(|i| IgnoredParam { param: format!("p{i:02}"), did_you_mean: None })
            .collect();
        let out = finish(list);
        assert_eq!(out.len(), 10);
        assert_eq!(out[0].param, "p00");
        assert_eq!(out[9].param, "p09");
    }
}
