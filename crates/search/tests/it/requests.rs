//! The facets and agent-search requests.

use freehire_search::{AgentSearchRequest, DescriptionFormat, Facet, FacetsRequest, SearchError};

#[test]
fn facets_defaults_to_every_distribution_but_company_slug() {
    let r = FacetsRequest::from_query_str("q=go&skills=rust").unwrap();
    assert_eq!(r.facets.len(), Facet::ALL.len() - 1);
    assert!(!r.facets.contains(&Facet::CompanySlug));
    assert!(!r.disjunctive);
    assert_eq!(r.query.q.as_deref(), Some("go"));
    assert!(r.query.ignored_params.is_empty());
}

#[test]
fn facets_restriction_in_table_order() {
    let r = FacetsRequest::from_query_str("facets=skills,seniority&facets=skills").unwrap();
    assert_eq!(r.facets, [Facet::Seniority, Facet::Skills]);
    let r = FacetsRequest::from_query_str("facets=company_slug").unwrap();
    assert_eq!(r.facets, [Facet::CompanySlug], "companies are counted when named");
    assert_eq!(
        FacetsRequest::from_query_str("facets=skills&disjunctive=true"),
        Err(SearchError::FacetsWithDisjunctive)
    );
    assert!(FacetsRequest::from_query_str("facets=skills&disjunctive=false").is_ok());
    let r = FacetsRequest::from_query_str("disjunctive=true&regions=eu").unwrap();
    assert!(r.disjunctive);
}

// scenario: Disjunctive takes true or false
#[test]
fn disjunctive_is_checked() {
    for qs in ["disjunctive=maybe", "disjunctive=1", "disjunctive=false&disjunctive=yes"] {
        let e = FacetsRequest::from_query_str(qs).unwrap_err();
        assert_eq!(e.param(), "disjunctive", "{qs}");
        assert!(e.to_string().ends_with("allowed values are true, false"), "{qs}: {e}");
    }
    assert!(!FacetsRequest::from_query_str("disjunctive=").unwrap().disjunctive, "blank");
}

#[test]
fn facets_request_checks_the_filter_grammar() {
    let e = FacetsRequest::from_query_str("seniority=guru").unwrap_err();
    assert_eq!(e.param(), "seniority");
}

// scenario: Unknown format
#[test]
fn description_format_is_checked() {
    let e = AgentSearchRequest::from_query_str("description_format=pdf").unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"invalid description_format "pdf": allowed values are html, text, markdown"#
    );
    assert_eq!(e.param(), "description_format");
    let cases = [
        ("", DescriptionFormat::Html),
        ("description_format=+", DescriptionFormat::Html),
        ("description_format=text&description_format=", DescriptionFormat::Text),
        ("description_format=markdown", DescriptionFormat::Markdown),
        ("description_format=html", DescriptionFormat::Html),
    ];
    for (qs, want) in cases {
        let r = AgentSearchRequest::from_query_str(qs).unwrap();
        assert_eq!(r.description_format, want, "{qs}");
        assert!(r.query.ignored_params.is_empty(), "{qs}");
    }
}
