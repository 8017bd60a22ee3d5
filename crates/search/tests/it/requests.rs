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
    let e = FacetsRequest::from_query_str("facets=company_slug").unwrap_err();
    assert_eq!(e.param(), "facets");
    assert_eq!(
        FacetsRequest::from_query_str("facets=skills&disjunctive=true"),
        Err(SearchError::FacetsWithDisjunctive)
    );
    assert!(FacetsRequest::from_query_str("facets=skills&disjunctive=false").is_ok());
    let r = FacetsRequest::from_query_str("disjunctive=true&regions=eu").unwrap();
    assert!(r.disjunctive);
}

#[test]
fn facets_request_checks_the_filter_grammar() {
    let e = FacetsRequest::from_query_str("seniority=guru").unwrap_err();
    assert_eq!(e.param(), "seniority");
}

// scenario: Unknown format
#[test]
fn description_format_falls_back_to_html() {
    let cases = [
        ("", DescriptionFormat::Html),
        ("description_format=pdf", DescriptionFormat::Html),
        ("description_format=text", DescriptionFormat::Text),
        ("description_format=markdown", DescriptionFormat::Markdown),
        ("description_format=html", DescriptionFormat::Html),
    ];
    for (qs, want) in cases {
        let r = AgentSearchRequest::from_query_str(qs).unwrap();
        assert_eq!(r.description_format, want, "{qs}");
        assert!(r.query.ignored_params.is_empty(), "{qs}");
    }
}
