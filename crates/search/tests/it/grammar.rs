//! The grammar rule by rule, as tables: query string → rendered filter, → error, → ignored
//! parameters.

use freehire_search::{Endpoint, Facet, JobQuery, QField};

use crate::{filter, now, parse};

// scenario: Empty fragments
#[test]
fn filters() {
    let posted_30 = now().timestamp() - 30 * 86_400;
    let open_1 = now().timestamp() - 86_400;
    let cases: Vec<(&str, String)> = vec![
        // Every string facet and its attribute.
        ("source=greenhouse", r#"source = "greenhouse""#.into()),
        ("company_slug=acme-labs", r#"company_slug = "acme-labs""#.into()),
        ("work_mode=remote", r#"work_mode = "remote""#.into()),
        ("employment_type=full_time", r#"enrichment.employment_type = "full_time""#.into()),
        ("education_level=phd", r#"enrichment.education_level = "phd""#.into()),
        ("category=backend", r#"enrichment.category = "backend""#.into()),
        ("domains=fintech", r#"enrichment.domains = "fintech""#.into()),
        ("cities=Berlin", r#"cities = "Berlin""#.into()),
        ("company_type=startup", r#"enrichment.company_type = "startup""#.into()),
        ("company_size=1000%2B", r#"enrichment.company_size = "1000+""#.into()),
        ("salary_currency=eur", r#"enrichment.salary_currency = "EUR""#.into()),
        ("salary_period=year", r#"enrichment.salary_period = "year""#.into()),
        ("is_tech=non_tech", r#"is_tech = "non_tech""#.into()),
        ("ai_archetype=agent_builder", r#"ai_archetype = "agent_builder""#.into()),
        ("role_type=people_manager", r#"role_type = "people_manager""#.into()),
        ("reality=likely-evergreen", r#"reality.class = "likely-evergreen""#.into()),
        ("collections=yc", r#"collections = "yc""#.into()),
        ("relocation=supported", r#"enrichment.relocation = "supported""#.into()),
        ("english_level=b2", r#"enrichment.english_level = "b2""#.into()),
        ("posting_language=de", r#"enrichment.posting_language = "de""#.into()),
        // Values: trimmed, empty fragments dropped, repeats removed, canonical case.
        ("skills=%20go%20,,rust,", r#"(skills = "go" OR skills = "rust")"#.into()),
        ("skills=go&skills=go", r#"skills = "go""#.into()),
        ("skills=,,", String::new()),
        ("countries=DE,fr", r#"(countries = "de" OR countries = "fr")"#.into()),
        // AND across facets, in table order whatever the parameter order.
        (
            "skills=go&seniority=senior,lead",
            r#"(enrichment.seniority = "senior" OR enrichment.seniority = "lead") AND skills = "go""#
                .into(),
        ),
        // _mode=and: one group per value; other mode values leave OR.
        (
            "domains=ai,fintech&domains_mode=and",
            r#"enrichment.domains = "ai" AND enrichment.domains = "fintech""#.into(),
        ),
        ("skills=go,rust&skills_mode=or", r#"(skills = "go" OR skills = "rust")"#.into()),
        ("skills=go,rust&skills_mode=", r#"(skills = "go" OR skills = "rust")"#.into()),
        ("skills_mode=and", String::new()),
        // Excludes: one AND group per value, every facet.
        (
            "skills_exclude=php,perl",
            r#"skills != "php" AND skills != "perl""#.into(),
        ),
        ("is_tech_exclude=tech", r#"is_tech != "tech""#.into()),
        // Geography: one OR group across regions, countries, cities; _mode ignored; excludes ANDed.
        (
            "cities=Berlin&countries=de&regions=eu,none",
            r#"(regions = "eu" OR regions IS EMPTY OR countries = "de" OR cities = "Berlin")"#
                .into(),
        ),
        (
            "countries=de,at&countries_mode=or",
            r#"(countries = "de" OR countries = "at")"#.into(),
        ),
        (
            "countries=de&countries_exclude=at&cities_exclude=Wien",
            r#"countries = "de" AND countries != "at" AND cities != "Wien""#.into(),
        ),
        // Clearance: a true-or-absent flag.
        ("requires_clearance_exclude=true", "NOT requires_clearance = true".into()),
        ("requires_clearance_exclude=false", "requires_clearance = true".into()),
        (
            "requires_clearance=true,false",
            "(requires_clearance = true OR NOT requires_clearance = true)".into(),
        ),
        // Scalars, in fixed order after the facets; first usable value wins.
        (
            "salary_max=90000&salary_min=50000&skills=go",
            r#"skills = "go" AND enrichment.salary_min >= 50000 AND enrichment.salary_max <= 90000"#
                .into(),
        ),
        ("experience_years_min=2", "enrichment.experience_years_min >= 2".into()),
        ("experience_years_max=0", "enrichment.experience_years_min <= 0".into()),
        ("salary_min=&salary_min=10", "enrichment.salary_min >= 10".into()),
        ("visa_sponsorship=", String::new()),
        ("visa_sponsorship=false&visa_sponsorship=true", "enrichment.visa_sponsorship = false".into()),
        ("posted_within_days=30", format!("posted_ts >= {posted_30}")),
        ("posted_within_days=36500", format!("posted_ts >= {}", now().timestamp() - 36_500 * 86_400)),
        ("open_within_days=1", format!("created_ts >= {open_1}")),
        // Non-filter parameters add nothing.
        ("q=rust&sort=posted_at&order=asc&limit=5&offset=5&q_fields=title", String::new()),
    ];
    for (qs, want) in cases {
        assert_eq!(filter(qs), want, "{qs}");
    }
}

#[test]
fn errors_name_the_parameter_and_allowed_values() {
    let cases = [
        (
            "seniority=guru",
            "seniority",
            r#"invalid seniority "guru": allowed values are intern, junior"#,
        ),
        ("seniority_exclude=Senior", "seniority_exclude", "allowed values are intern"),
        ("work_mode=office", "work_mode", "allowed values are remote, hybrid, onsite"),
        (
            "regions=mars",
            "regions",
            "global, north_america, latam, eu, uk, mena, africa, apac, cis, none",
        ),
        ("category=chef", "category", "software_engineering"),
        ("employment_type=gig", "employment_type", "full_time, part_time"),
        ("education_level=college", "education_level", "none, bachelor, master, phd"),
        ("english_level=fluent", "english_level", "a1, a2"),
        ("salary_period=week", "salary_period", "year, month, day, hour"),
        ("is_tech=true", "is_tech", "tech, non_tech"),
        ("requires_clearance=yes", "requires_clearance", "true, false"),
        ("domains=banking", "domains", "fintech, crypto"),
        ("company_type=big", "company_type", "product, startup"),
        ("company_size=5", "company_size", "1-10, 11-50"),
        ("relocation=maybe", "relocation", "not_supported, supported, required"),
        ("role_type=ic", "role_type", "people_manager"),
        ("reality=old", "reality", "fresh, stale, likely-evergreen"),
        ("ai_archetype=wizard", "ai_archetype", "rag_app_builder"),
        ("countries=germany", "countries", "ISO 3166-1 alpha-2"),
        ("salary_currency=euro", "salary_currency", "ISO 4217"),
        ("source=Green%20House", "source", "lowercase letters"),
        ("company_slug=Acme%20Labs", "company_slug", "lowercase letters"),
        ("limit=ten", "limit", "must be an integer"),
        ("offset=-1", "offset", "must be 0 or more"),
        ("offset=10000", "offset", "offset + limit must be at most 10000"),
        ("skills=go&seniority=x&work_mode=y", "seniority", "seniority"),
    ];
    for (qs, param, message) in cases {
        let err = parse(qs).expect_err(qs);
        assert_eq!(err.param(), param, "{qs}");
        assert!(err.to_string().contains(message), "{qs}: {err}");
    }
}

#[test]
fn ignored_params() {
    type Expected = &'static [(&'static str, Option<&'static str>)];
    let cases: &[(&str, Expected)] = &[
        ("country=de", &[("country", Some("countries"))]),
        ("city=Berlin&region=eu", &[("city", Some("cities")), ("region", Some("regions"))]),
        ("categories=backend", &[("categories", Some("category"))]),
        ("skill_mode=and", &[("skill_mode", Some("skills_mode"))]),
        // A facet whose own name ends like the `_mode` form.
        ("work_modes=remote", &[("work_modes", Some("work_mode"))]),
        ("work_modes_mode=and", &[("work_modes_mode", Some("work_mode_mode"))]),
        ("seniorities_exclude=junior", &[("seniorities_exclude", Some("seniority_exclude"))]),
        ("bogus=1&bogus=2", &[("bogus", None)]),
        // Blank values of known parameters are the same as none.
        ("salary_min=&visa_sponsorship=+&sort=&order=&skills_mode=&q_fields=", &[]),
        // The facets endpoint's own parameters are unknown to search.
        ("facets=skills&disjunctive=true", &[("disjunctive", None), ("facets", None)]),
        ("description_format=text", &[("description_format", None)]),
        ("=x&&skills=go", &[]),
    ];
    for (qs, want) in cases {
        let got: Vec<(String, Option<String>)> = parse(qs)
            .unwrap()
            .ignored_params
            .into_iter()
            .map(|p| (p.param, p.did_you_mean))
            .collect();
        let want: Vec<(String, Option<String>)> =
            want.iter().map(|(p, d)| ((*p).to_owned(), d.map(str::to_owned))).collect();
        assert_eq!(got, want, "{qs}");
    }
}

#[test]
fn endpoints_know_their_own_parameters() {
    let q =
        JobQuery::from_query_str("description_format=text&limit=5", Endpoint::AgentSearch).unwrap();
    assert!(q.ignored_params.is_empty());
    assert_eq!(q.page.limit, 5);
    let q =
        JobQuery::from_query_str("limit=5&sort=posted_at&facets=skills", Endpoint::Facets).unwrap();
    let names: Vec<&str> = q.ignored_params.iter().map(|p| p.param.as_str()).collect();
    assert_eq!(names, ["limit", "sort"]);
    assert_eq!(q.page.limit, 20);
    assert_eq!(q.sort, None);
    // An out-of-window page on the facets endpoint is not its concern.
    assert!(JobQuery::from_query_str("offset=999999", Endpoint::Facets).is_ok());
}

#[test]
fn text_and_fields() {
    let q = parse("q=%20rust%20engineer%20&q=ignored&q_fields=description,title&q_fields=title")
        .unwrap();
    assert_eq!(q.q.as_deref(), Some("rust engineer"));
    assert_eq!(q.q_fields, [QField::Description, QField::Title]);
    assert_eq!(q.attributes_to_search_on(), Some(vec!["description", "title"]));
    assert_eq!(parse("q=go").unwrap().attributes_to_search_on(), None);
    assert_eq!(parse("q=").unwrap().q, None);
}

#[test]
fn first_sort_and_order_win() {
    let q = parse("sort=view_count&sort=posted_at&order=asc&order=desc").unwrap();
    assert_eq!(q.sort_directives(), ["view_count:asc"]);
}

#[test]
fn active_filter_params_and_disjunctive_view() {
    let q = parse(
        "skills=go,rust&skills_mode=and&regions=eu&countries_exclude=de&salary_min=1&sort=posted_at&q=x",
    )
    .unwrap();
    assert_eq!(
        q.active_filter_params(),
        ["countries_exclude", "regions", "salary_min", "skills", "skills_mode"]
    );
    let without = q.without_selection_of(Facet::Skills);
    assert_eq!(
        without.filter(crate::now()).to_string(),
        r#"regions = "eu" AND countries != "de" AND enrichment.salary_min >= 1"#
    );
    let without = q.without_selection_of(Facet::Regions);
    assert_eq!(
        without.filter(crate::now()).to_string(),
        r#"countries != "de" AND skills = "go" AND skills = "rust" AND enrichment.salary_min >= 1"#
    );
}

#[test]
fn raw_pairs_and_query_strings_agree() {
    let pairs: Vec<(String, String)> = [("skills", "c++"), ("cities", "São Paulo"), ("q", "a&b")]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let from_pairs = JobQuery::parse(&pairs, Endpoint::Search).unwrap();
    let from_str = parse("skills=c%2B%2B&cities=S%C3%A3o+Paulo&q=a%26b").unwrap();
    assert_eq!(from_pairs, from_str);
    assert_eq!(from_str.filter(now()).to_string(), r#"cities = "São Paulo" AND skills = "c++""#);
}

// scenario: Long facet value
#[test]
fn a_facet_value_past_the_bound_is_refused_naming_the_parameter() {
    use freehire_search::{MAX_VALUE_CHARS, SearchError};
    let long = "x".repeat(1_000);
    for name in [
        "skills",
        "skills_exclude",
        "cities",
        "cities_exclude",
        "collections",
        "collections_exclude",
        "posting_language",
        "posting_language_exclude",
        "seniority",
        "company_slug",
        "salary_min",
        "visa_sponsorship",
        "sort",
        "order",
        "q_fields",
    ] {
        let e = parse(&format!("{name}={long}")).unwrap_err();
        assert_eq!(
            e,
            SearchError::TooLong {
                param: name.into(),
                actual: 1_000,
                max: MAX_VALUE_CHARS,
                unit: "characters"
            },
            "{name}"
        );
        assert_eq!(e.to_string(), format!("{name} is too long: 1000 characters (at most 200)"));
    }
    // The bound counts characters, not bytes; it is per comma-separated value.
    assert!(parse(&format!("cities={}", "é".repeat(200))).is_ok());
    assert!(parse(&format!("skills={0},{0}", "a".repeat(200))).is_ok());
    assert_eq!(parse(&format!("cities={}", "é".repeat(201))).unwrap_err().param(), "cities");
    let e = freehire_search::FacetsRequest::from_query_str(&format!("facets={long}")).unwrap_err();
    assert_eq!(e.param(), "facets");
    let e =
        freehire_search::AgentSearchRequest::from_query_str(&format!("description_format={long}"))
            .unwrap_err();
    assert_eq!(e.param(), "description_format");
}

// scenario: Too many values
#[test]
fn a_facet_past_the_value_count_is_refused() {
    let values = |n: usize| (0..n).map(|i| format!("s{i}")).collect::<Vec<_>>().join(",");
    assert_eq!(parse(&format!("skills={}", values(100))).unwrap().facets.len(), 1);
    let e = parse(&format!("skills_exclude={}", values(101))).unwrap_err();
    assert_eq!(e.to_string(), "skills_exclude is too long: 101 values (at most 100)");
    // Repeats are one value.
    assert!(parse(&format!("skills={}", vec!["go"; 500].join(","))).is_ok());
}

// scenario: Long text query
// scenario: Too many words
#[test]
fn q_is_capped_in_bytes_and_words() {
    use freehire_search::{MAX_Q_BYTES, MAX_Q_WORDS};
    assert_eq!((MAX_Q_BYTES, MAX_Q_WORDS), (512, 32));
    let words = |n: usize| vec!["rust"; n].join("+");
    assert!(parse(&format!("q={}", words(32))).is_ok());
    let e = parse(&format!("q={}", words(33))).unwrap_err();
    assert_eq!(e.to_string(), "q is too long: 33 words (at most 32)");
    assert_eq!(e.param(), "q");
    // Words are runs of letters and digits, as the engines split text.
    assert_eq!(parse(&format!("q={}", vec!["a"; 33].join("-"))).unwrap_err().param(), "q");
    assert!(parse(&format!("q=+{}+", "a".repeat(512))).is_ok(), "trimmed first");
    let e = parse(&format!("q={}", "a".repeat(513))).unwrap_err();
    assert_eq!(e.to_string(), "q is too long: 513 bytes (at most 512)");
    // Every q is checked, not only the first that wins.
    assert_eq!(parse(&format!("q=go&q={}", words(6_000))).unwrap_err().param(), "q");
}

// scenario: Offset quoted as sent
#[test]
fn an_offset_error_quotes_the_value_sent() {
    let e = parse("offset=99999999999").unwrap_err();
    assert_eq!(
        e.to_string(),
        "offset + limit must be at most 10000 (offset 99999999999 + limit 20)"
    );
    assert_eq!(e.param(), "offset");
    let e = parse("offset=-5").unwrap_err();
    assert_eq!(e.to_string(), r#"invalid offset "-5": must be 0 or more"#);
}
