//! Property tests: parsing never panics on arbitrary parameters, and every rendered filter
//! parses under the filter grammar with each input value as exactly one string literal (no
//! value can inject filter syntax).

use freehire_search::{
    AgentSearchRequest, Endpoint, Facet, FacetsRequest, JobQuery, SCALAR_PARAMS,
};
use proptest::prelude::*;

use crate::now;

// ---- a tiny tokenizer and parser of the filter language we emit ----

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    Word(String),
    Op(&'static str),
    Open,
    Close,
}

fn tokenize(s: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ' ' => {
                chars.next();
            }
            '(' => {
                chars.next();
                out.push(Tok::Open);
            }
            ')' => {
                chars.next();
                out.push(Tok::Close);
            }
            '"' => {
                chars.next();
                let mut lit = String::new();
                loop {
                    match chars.next() {
                        None => return Err(format!("unterminated string in {s:?}")),
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\')) => lit.push(e),
                            other => return Err(format!("bad escape {other:?} in {s:?}")),
                        },
                        Some(ch) => lit.push(ch),
                    }
                }
                out.push(Tok::Str(lit));
            }
            '=' => {
                chars.next();
                out.push(Tok::Op("="));
            }
            '!' | '>' | '<' => {
                chars.next();
                if chars.next() != Some('=') {
                    return Err(format!("bad operator in {s:?}"));
                }
                out.push(Tok::Op(match c {
                    '!' => "!=",
                    '>' => ">=",
                    _ => "<=",
                }));
            }
            c if c.is_ascii_alphanumeric() || "_.-".contains(c) => {
                let mut w = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                        w.push(c);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(Tok::Word(w));
            }
            other => return Err(format!("unexpected {other:?} outside a string in {s:?}")),
        }
    }
    Ok(out)
}

/// One term: the attribute and its string literal, if it has one.
type Term = (String, Option<String>);

/// `group (AND group)*`, group = term | `(` term (OR term)+ `)`.
fn parse_filter(toks: &[Tok]) -> Result<Vec<Vec<Term>>, String> {
    let mut i = 0;
    let mut groups = Vec::new();
    loop {
        let mut group = Vec::new();
        if toks.get(i) == Some(&Tok::Open) {
            i += 1;
            loop {
                group.push(parse_term(toks, &mut i)?);
                match toks.get(i) {
                    Some(Tok::Word(w)) if w == "OR" => i += 1,
                    Some(Tok::Close) => {
                        i += 1;
                        break;
                    }
                    t => return Err(format!("expected OR or ) at {i}, got {t:?}")),
                }
            }
            if group.len() < 2 {
                return Err("parenthesised group of one".into());
            }
        } else {
            group.push(parse_term(toks, &mut i)?);
        }
        groups.push(group);
        match toks.get(i) {
            None => return Ok(groups),
            Some(Tok::Word(w)) if w == "AND" => i += 1,
            t => return Err(format!("expected AND at {i}, got {t:?}")),
        }
    }
}

fn attribute(toks: &[Tok], i: &mut usize) -> Result<String, String> {
    match toks.get(*i) {
        Some(Tok::Word(w)) if w.starts_with(|c: char| c.is_ascii_lowercase()) => {
            *i += 1;
            Ok(w.clone())
        }
        t => Err(format!("expected an attribute at {i}, got {t:?}")),
    }
}

fn parse_term(toks: &[Tok], i: &mut usize) -> Result<Term, String> {
    let word = |i: usize, w: &str| matches!(toks.get(i), Some(Tok::Word(x)) if x == w);
    if word(*i, "NOT") {
        *i += 1;
        let attr = attribute(toks, i)?;
        if toks.get(*i) == Some(&Tok::Op("=")) && word(*i + 1, "true") {
            *i += 2;
            return Ok((attr, None));
        }
        return Err("NOT must be `NOT attr = true`".into());
    }
    let attr = attribute(toks, i)?;
    if word(*i, "IS") {
        *i += 1;
        if word(*i, "NOT") {
            *i += 1;
        }
        if word(*i, "EMPTY") {
            *i += 1;
            return Ok((attr, None));
        }
        return Err("IS must be followed by [NOT] EMPTY".into());
    }
    let op = match toks.get(*i) {
        Some(Tok::Op(op)) => *op,
        t => return Err(format!("expected an operator, got {t:?}")),
    };
    *i += 1;
    match toks.get(*i) {
        Some(Tok::Str(s)) if op == "=" || op == "!=" => {
            *i += 1;
            Ok((attr, Some(s.clone())))
        }
        Some(Tok::Word(w))
            if w == "true" || w == "false" || w.trim_start_matches('-').parse::<u64>().is_ok() =>
        {
            *i += 1;
            Ok((attr, None))
        }
        t => Err(format!("bad operand {t:?}")),
    }
}

// ---- strategies ----

fn known_names() -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for f in Facet::ALL {
        names.push(f.param().to_owned());
        names.push(format!("{}_exclude", f.param()));
        names.push(format!("{}_mode", f.param()));
    }
    names.extend(SCALAR_PARAMS.iter().map(|s| (*s).to_owned()));
    for p in ["q", "q_fields", "sort", "order", "limit", "offset", "facets", "disjunctive"] {
        names.push(p.to_owned());
    }
    names.push("description_format".to_owned());
    names
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(known_names()),
        1 => any::<String>(),
        1 => "[a-z_]{0,20}",
    ]
}

fn value() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "and",
        "true",
        "false",
        "none",
        "eu",
        "de",
        "senior",
        "remote",
        "tech",
        "0",
        "7",
        "-1",
        "36500",
        "9990",
        "20",
        "asc",
        "posted_at",
        "title",
        "skills",
    ]);
    prop_oneof![
        2 => words.prop_map(str::to_owned),
        2 => any::<String>(),
        1 => "[\"\\\\ ,()=a-zA-Z0-9!<>]{0,24}",
    ]
}

/// A value with no comma and no surrounding whitespace, rich in filter syntax.
fn literal() -> impl Strategy<Value = String> {
    prop_oneof!["[\"\\\\ ()=!<>ORAND a-z]{1,16}", "[^,]{1,16}",]
        .prop_map(|s| s.trim().to_owned())
        .prop_filter("non-empty after trimming", |s| !s.is_empty())
}

fn free_text_facet() -> impl Strategy<Value = Facet> {
    prop::sample::select(vec![
        Facet::Skills,
        Facet::Cities,
        Facet::Collections,
        Facet::PostingLanguage,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parsing_never_panics_and_renders_well_formed_filters(
        params in prop::collection::vec((name(), value()), 0..12)
    ) {
        for endpoint in [Endpoint::Search, Endpoint::AgentSearch, Endpoint::Facets] {
            if let Ok(q) = JobQuery::parse(&params, endpoint) {
                prop_assert!(q.ignored_params.len() <= 10);
                prop_assert!(q.ignored_params.windows(2).all(|w| w[0].param < w[1].param));
                prop_assert!((1..=100).contains(&q.page.limit));
                prop_assert!(q.page.offset + q.page.limit <= 10_000);
                let _ = q.sort_directives();
                let _ = q.active_filter_params();
                let f = q.filter(now());
                prop_assert_eq!(f.is_empty(), !q.has_filter());
                if let Some(expr) = f.expression() {
                    let toks = tokenize(&expr).map_err(TestCaseError::fail)?;
                    let groups = parse_filter(&toks).map_err(TestCaseError::fail)?;
                    prop_assert_eq!(groups.len(), f.groups().len());
                }
            }
        }
        let _ = FacetsRequest::parse(&params);
        let _ = AgentSearchRequest::parse(&params);
    }

    #[test]
    fn raw_query_strings_never_panic(raw in any::<String>()) {
        let _ = JobQuery::from_query_str(&raw, Endpoint::Search);
        let _ = FacetsRequest::from_query_str(&raw);
    }

    #[test]
    fn every_value_is_exactly_one_quoted_literal(
        picks in prop::collection::vec((free_text_facet(), any::<bool>(), literal()), 1..8),
        and_mode in any::<bool>(),
    ) {
        let mut params: Vec<(String, String)> = picks
            .iter()
            .map(|(f, exclude, v)| {
                let name = if *exclude { format!("{}_exclude", f.param()) } else { f.param().to_owned() };
                (name, v.clone())
            })
            .collect();
        if and_mode {
            params.push(("skills_mode".into(), "and".into()));
        }
        let q = JobQuery::parse(&params, Endpoint::Search).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let expr = q.filter(now()).expression().unwrap_or_default();
        let toks = tokenize(&expr).map_err(TestCaseError::fail)?;
        let groups = parse_filter(&toks).map_err(TestCaseError::fail)?;

        let mut got: Vec<(String, String)> = groups
            .into_iter()
            .flatten()
            .map(|(attr, lit)| (attr, lit.unwrap_or_default()))
            .collect();
        let mut want: Vec<(String, String)> =
            picks.iter().map(|(f, _, v)| (f.attribute().to_owned(), v.clone())).collect();
        got.sort();
        want.sort();
        want.dedup();
        got.dedup();
        prop_assert_eq!(got, want);
    }
}

proptest! {
    #[test]
    fn comma_joined_and_repeated_values_are_equivalent(
        facet in free_text_facet(),
        values in prop::collection::vec("[a-z0-9 +#.]{1,8}", 1..6),
        exclude in any::<bool>(),
    ) {
        let name = if exclude { format!("{}_exclude", facet.param()) } else { facet.param().to_owned() };
        let joined = vec![(name.clone(), values.join(","))];
        let repeated: Vec<(String, String)> = values.iter().map(|v| (name.clone(), v.clone())).collect();
        let a = JobQuery::parse(&joined, Endpoint::Search).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let b = JobQuery::parse(&repeated, Endpoint::Search).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(a.filter(now()), b.filter(now()));
        prop_assert_eq!(a, b);
    }

    #[test]
    fn disjunctive_views_never_add_groups(
        params in prop::collection::vec((name(), value()), 0..12)
    ) {
        if let Ok(q) = JobQuery::parse(&params, Endpoint::Facets) {
            let all = q.filter(now()).groups().len();
            for facet in Facet::ALL {
                let without = q.without_selection_of(*facet);
                prop_assert!(without.filter(now()).groups().len() <= all);
                prop_assert!(without.facets.get(facet).is_none_or(|s| s.include.is_empty()));
            }
        }
    }
}
