//! Reference §16.2 (query translation, unknown parameters) and §16.3 (search request), one
//! test per row, and the query-model scenarios of openspec/specs/search/spec.md those rows do
//! not state exactly. Each test names the scenarios it proves (`// scenario: …`).

use freehire_search::{FacetsRequest, IgnoredParam, SearchError};

use crate::{filter, now, parse};

fn ignored(param: &str, did_you_mean: Option<&str>) -> IgnoredParam {
    IgnoredParam { param: param.into(), did_you_mean: did_you_mean.map(Into::into) }
}

/// Asserts that `qs` is refused naming `param`, with exactly `message`.
fn assert_refused(qs: &str, param: &str, message: &str) {
    let e = parse(qs).unwrap_err();
    assert_eq!((e.param(), e.to_string().as_str()), (param, message), "{qs}");
}

// scenario: Repeated and comma-joined values
#[test]
fn repeated_and_comma_joined_values_are_the_same_or_group() {
    let joined = parse("skills=go,rust").unwrap();
    let repeated = parse("skills=go&skills=rust").unwrap();
    assert_eq!(joined, repeated);
    let f = joined.filter(now());
    assert_eq!(f.groups(), &[vec![r#"skills = "go""#.to_owned(), r#"skills = "rust""#.to_owned()]]);
    assert_eq!(f.to_string(), r#"(skills = "go" OR skills = "rust")"#);
}

// scenario: AND mode
#[test]
fn mode_and_gives_one_group_per_value() {
    let f = parse("skills=go,rust&skills_mode=and").unwrap().filter(now());
    assert_eq!(f.groups().len(), 2);
    assert_eq!(f.to_string(), r#"skills = "go" AND skills = "rust""#);
}

// scenario: Countries and regions
#[test]
fn geography_is_one_widening_or_group() {
    let f = parse("countries=de&regions=eu").unwrap().filter(now());
    assert_eq!(f.groups().len(), 1);
    assert_eq!(f.to_string(), r#"(regions = "eu" OR countries = "de")"#);
}

// scenario: Mode refused for geography
#[test]
fn regions_mode_and_is_refused() {
    for qs in ["regions_mode=and", "regions=eu,uk&countries_mode=and", "cities_mode=xor"] {
        let e = parse(qs).unwrap_err();
        assert!(e.param().ends_with("_mode"), "{qs}: {e}");
        assert!(e.to_string().contains("allowed values are or"), "{qs}: {e}");
    }
    assert_eq!(filter("regions=eu,uk&regions_mode=or"), r#"(regions = "eu" OR regions = "uk")"#);
    let e = parse("skills_mode=AND").unwrap_err();
    assert_eq!(e.to_string(), r#"invalid skills_mode "AND": allowed values are and, or"#);
}

// scenario: No region filter
#[test]
fn regions_none_is_empty_and_its_exclusion_not_empty() {
    assert_eq!(filter("regions=none"), "regions IS EMPTY");
    assert_eq!(filter("regions_exclude=none"), "regions IS NOT EMPTY");
}

// scenario: Exclusion
#[test]
fn exclusion_is_its_own_and_group() {
    assert_eq!(filter("seniority_exclude=junior"), r#"enrichment.seniority != "junior""#);
    let f = parse("seniority=senior&seniority_exclude=junior").unwrap().filter(now());
    assert_eq!(
        f.groups(),
        &[
            vec![r#"enrichment.seniority = "senior""#.to_owned()],
            vec![r#"enrichment.seniority != "junior""#.to_owned()]
        ]
    );
}

// scenario: Not cleared
#[test]
fn clearance_false_is_not_true() {
    assert_eq!(filter("requires_clearance=false"), "NOT requires_clearance = true");
    assert_eq!(filter("requires_clearance=true"), "requires_clearance = true");
}

// scenario: Visa
#[test]
fn visa_sponsorship_takes_true_or_false() {
    assert_eq!(filter("visa_sponsorship=false"), "enrichment.visa_sponsorship = false");
    assert_eq!(filter("visa_sponsorship=true"), "enrichment.visa_sponsorship = true");
    for qs in [
        "visa_sponsorship=maybe",
        "visa_sponsorship=yes",
        "visa_sponsorship=true&visa_sponsorship=TRUE",
    ] {
        let e = parse(qs).unwrap_err();
        assert_eq!(e.param(), "visa_sponsorship", "{qs}");
        assert!(e.to_string().ends_with("allowed values are true, false"), "{qs}: {e}");
    }
}

// scenario: Experience ceiling
#[test]
fn experience_years_max_bounds_the_minimum() {
    assert_eq!(filter("experience_years_max=3"), "enrichment.experience_years_min <= 3");
}

// scenario: Posted window
#[test]
fn posted_within_days_is_relative_to_now() {
    let expected = now().timestamp() - 604_800;
    assert_eq!(filter("posted_within_days=7"), format!("posted_ts >= {expected}"));
}

// scenario: Window out of range
#[test]
fn out_of_range_or_malformed_within_days_are_refused() {
    for v in ["0", "36501", "abc", "-1", "1.5"] {
        let e = parse(&format!("posted_within_days={v}")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("invalid posted_within_days {v:?}: must be an integer from 1 to 36500")
        );
    }
    let e = parse("salary_min=lots").unwrap_err();
    assert_eq!(e.to_string(), r#"invalid salary_min "lots": must be an integer"#);
    let e = parse("experience_years_max=-1").unwrap_err();
    assert_eq!(e.to_string(), r#"invalid experience_years_max "-1": must be 0 or more"#);
    assert_eq!(parse("open_within_days=99999").unwrap_err().param(), "open_within_days");
}

// scenario: Quote in a value
#[test]
fn quotes_and_backslashes_are_escaped_inside_quotes() {
    assert_eq!(filter(r#"skills=a"b"#), r#"skills = "a\"b""#);
    assert_eq!(filter(r"skills=a\b"), r#"skills = "a\\b""#);
    assert_eq!(filter(r#"cities=x"%20OR%20source%20=%20"y"#), r#"cities = "x\" OR source = \"y""#);
}

// scenario: No parameters
#[test]
fn no_parameters_no_filter_and_no_narrowing() {
    let q = parse("").unwrap();
    assert!(q.filter(now()).is_empty());
    assert!(!q.narrows());
    assert!(parse("q=go").unwrap().narrows());
    assert!(!parse("q=%20%20").unwrap().narrows());
    assert!(parse("skills=go").unwrap().narrows());
}

// scenario: Singular country
#[test]
fn singular_country_suggests_countries() {
    assert_eq!(
        parse("country=de").unwrap().ignored_params,
        vec![ignored("country", Some("countries"))]
    );
}

// scenario: Singular skill exclusion
#[test]
fn skill_exclude_suggests_skills_exclude() {
    assert_eq!(
        parse("skill_exclude=x").unwrap().ignored_params,
        vec![ignored("skill_exclude", Some("skills_exclude"))]
    );
}

// scenario: Many unknowns
#[test]
fn twelve_unknown_parameters_report_ten_sorted() {
    let qs: Vec<String> = (0..12).rev().map(|i| format!("zz{i:02}=1")).collect();
    let q = parse(&qs.join("&")).unwrap();
    let names: Vec<&str> = q.ignored_params.iter().map(|p| p.param.as_str()).collect();
    let expected: Vec<String> = (0..10).map(|i| format!("zz{i:02}")).collect();
    assert_eq!(names, expected);
}

#[test]
fn no_unknown_parameters_no_ignored_params_key() {
    let q = parse("skills=go&q=rust&limit=5").unwrap();
    assert!(q.ignored_params.is_empty());
    let one = serde_json::to_value(ignored("country", None)).unwrap();
    assert_eq!(one, serde_json::json!({"param": "country"}), "did_you_mean omitted when none");
}

// scenario: Clamped search limit
// scenario: Too deep
// scenario: Deepest page
#[test]
fn limit_default_clamp_and_window() {
    assert_eq!(parse("").unwrap().page.limit, 20);
    assert_eq!(parse("limit=500").unwrap().page.limit, 100);
    assert_eq!(parse("limit=0").unwrap().page.limit, 1);
    assert_eq!(
        parse("offset=9990&limit=20"),
        Err(SearchError::WindowTooDeep { offset: "9990".into(), limit: 20 })
    );
    let ok = parse("offset=9980&limit=20").unwrap();
    assert_eq!((ok.page.offset, ok.page.limit), (9980, 20));
}

// scenario: Bogus sort without text
// scenario: Bogus sort with text
// scenario: Salary sort with a bad order
#[test]
fn sort_and_order_are_checked() {
    let allowed = "allowed values are created_at, posted_at, view_count, salary_min, salary_max";
    for qs in ["sort=bogus", "sort=bogus&q=go", "sort=nosuch", "sort=posted_at&sort=bogus"] {
        let e = parse(qs).unwrap_err();
        assert_eq!(e.param(), "sort", "{qs}");
        assert!(e.to_string().ends_with(allowed), "{qs}: {e}");
    }
    assert_eq!(parse("sort=").unwrap().sort_directives(), vec!["posted_at:desc"], "blank");
    assert!(parse("sort=&q=go").unwrap().sort_directives().is_empty(), "relevance");
    for qs in ["sort=salary_min&order=sideways", "sort=created_at&order=ASC", "order=up"] {
        let e = parse(qs).unwrap_err();
        assert_eq!(e.param(), "order", "{qs}");
        assert!(e.to_string().ends_with("allowed values are asc, desc"), "{qs}: {e}");
    }
    assert_eq!(
        parse("sort=created_at&order=desc").unwrap().sort_directives(),
        vec!["created_at:desc"]
    );
    assert_eq!(
        parse("sort=salary_min").unwrap().sort_directives(),
        vec!["enrichment.salary_min:desc"]
    );
    assert_eq!(
        parse("sort=salary_max&order=asc&q=go").unwrap().sort_directives(),
        vec!["enrichment.salary_max:asc"]
    );
}

/// `sort=match` (profile ranking) is not built: refused like any other unknown sort.
#[test]
fn sort_match_is_refused() {
    assert_eq!(parse("sort=match").unwrap_err().param(), "sort");
}

// scenario: Unknown facet
// scenario: Restriction with disjunctive
#[test]
fn facets_bogus_and_facets_with_disjunctive_are_refused() {
    let e = FacetsRequest::from_query_str("facets=bogus").unwrap_err();
    assert_eq!(e.param(), "facets");
    assert!(
        e.to_string()
            .starts_with(r#"invalid facets "bogus": allowed values are source, company_slug"#)
    );
    // The company distribution is not counted by default, and is when named.
    let default = FacetsRequest::from_query_str("").unwrap();
    assert!(!default.facets.contains(&freehire_search::Facet::CompanySlug));
    assert!(default.facets.contains(&freehire_search::Facet::Skills));
    let named = FacetsRequest::from_query_str("facets=company_slug,skills").unwrap();
    assert_eq!(named.facets, [freehire_search::Facet::CompanySlug, freehire_search::Facet::Skills]);
    let e = FacetsRequest::from_query_str("facets=skills&disjunctive=true").unwrap_err();
    assert_eq!(e, SearchError::FacetsWithDisjunctive);
}

// scenario: Unknown vocabulary value
#[test]
fn an_unknown_vocabulary_value_lists_the_allowed_values() {
    assert_refused(
        "seniority=guru",
        "seniority",
        r#"invalid seniority "guru": allowed values are intern, junior, middle, senior, lead, staff, principal, c_level"#,
    );
}

// scenario: Excluded value checked too
#[test]
fn an_excluded_value_is_checked_too() {
    assert_refused(
        "regions_exclude=mars",
        "regions_exclude",
        r#"invalid regions_exclude "mars": allowed values are global, north_america, latam, eu, uk, mena, africa, apac, cis, none"#,
    );
}

// scenario: Scoped text
#[test]
fn scoped_text_searches_the_named_fields_only() {
    let q = parse("q=rust&q_fields=title").unwrap();
    assert_eq!(q.attributes_to_search_on(), Some(vec!["title"]));
    let e = parse("q=rust&q_fields=title,bogus").unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"invalid q_fields "bogus": allowed values are title, company, description, location"#
    );
}

// scenario: Active parameters
#[test]
fn active_filter_parameters_are_those_that_filter() {
    let q = parse("skills=go&countries_exclude=de&salary_min=1&q=x").unwrap();
    assert_eq!(q.active_filter_params(), ["countries_exclude", "salary_min", "skills"]);
}
