//! End-to-end derivation scenarios: precedence, the negative cases, rederive, posting assembly.

use freehire_domain::{
    Category, CountryCode, EducationLevel, EmploymentType, EnglishLevel, Provider, Region,
    SalaryPeriod, Seniority, WorkMode, company_key, company_slug, job_slug, slugify,
};
use freehire_normalize::{
    Draft, SalaryParts, Structured, derive, posting, rederive, role_fingerprint, role_key,
};

fn draft(title: &str, location: &str, description: &str) -> Draft {
    Draft {
        title: title.into(),
        company: "Acme".into(),
        location: location.into(),
        description: description.into(),
        ..Draft::default()
    }
}

fn codes(d: &Draft) -> Vec<String> {
    derive(d).countries.iter().map(|c| c.as_str().to_owned()).collect()
}

#[test]
fn full_posting() {
    let d = draft(
        "Senior Backend Engineer (Go)",
        "Berlin, Germany (Hybrid)",
        "<h2>About the role</h2><p>You will build services in Go, PostgreSQL and Kafka on \
         Kubernetes.</p><ul><li>5+ years of experience with backend systems</li><li>Bachelor's \
         degree in CS</li><li>Fluent English</li></ul><p>This is a full-time position.</p>",
    );
    let f = derive(&d);
    assert_eq!(f.countries, [CountryCode::parse("de").unwrap()]);
    assert_eq!(f.regions, [Region::Eu]);
    assert_eq!(f.cities, ["Berlin"]);
    assert_eq!(f.work_mode, Some(WorkMode::Hybrid));
    assert_eq!(f.seniority, Some(Seniority::Senior));
    assert_eq!(f.category, Some(Category::Backend));
    assert_eq!(f.is_tech, Some(true));
    assert_eq!(f.skills, ["go", "kafka", "kubernetes", "postgresql"]);
    assert_eq!(f.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(f.experience_years_min, Some(5));
    assert_eq!(f.education_level, Some(EducationLevel::Bachelor));
    assert_eq!(f.english_level, Some(EnglishLevel::C1));
    assert_eq!(f.requires_clearance, None);
    assert_eq!(f.posting_language.as_deref(), Some("en"));
}

// scenario: Structured value wins
// scenario: Remote flag
// scenario: Structured countries
#[test]
fn structured_values_win() {
    let mut d = draft("Senior Engineer", "Berlin, Germany", "This is a remote position.");
    d.structured = Structured {
        countries: vec![CountryCode::parse("US").unwrap(), CountryCode::parse("ca").unwrap()],
        work_mode: Some(WorkMode::Onsite),
        seniority: Some(Seniority::Lead),
        category: Some(Category::Sales),
        skills: vec!["k8s".into(), "Golang".into()],
        employment_type: Some(EmploymentType::Contract),
        experience_years_min: Some(99),
        ..Structured::default()
    };
    let f = derive(&d);
    let c: Vec<&str> = f.countries.iter().map(CountryCode::as_str).collect();
    assert_eq!(c, ["ca", "us"]);
    assert_eq!(f.regions, [Region::NorthAmerica], "structured countries pull their regions");
    assert_eq!(f.cities, ["Berlin"], "cities still come from the location");
    assert_eq!(f.work_mode, Some(WorkMode::Onsite));
    assert_eq!(f.seniority, Some(Seniority::Lead));
    assert_eq!(f.category, Some(Category::Sales));
    assert_eq!(f.is_tech, Some(false));
    assert_eq!(f.skills, ["go", "kubernetes"], "structured skills are canonicalised");
    assert_eq!(f.employment_type, Some(EmploymentType::Contract));
    assert_eq!(f.experience_years_min, Some(30), "clamped");

    let mut replaced = draft("Engineer", "Berlin, Germany", "");
    replaced.structured.regions = vec![Region::Global];
    replaced.structured.cities = vec!["Potsdam".into()];
    let f = derive(&replaced);
    assert_eq!(
        (f.regions.as_slice(), f.cities.as_slice()),
        ([Region::Global].as_slice(), ["Potsdam".to_owned()].as_slice())
    );
    assert_eq!(f.countries, [CountryCode::parse("de").unwrap()], "derived countries stay");

    let mut remote_flag = draft("Engineer", "United States", "");
    remote_flag.remote = true;
    assert_eq!(derive(&remote_flag).work_mode, None, "a flag on a located posting");
    remote_flag.location = String::new();
    assert_eq!(derive(&remote_flag).work_mode, Some(WorkMode::Remote), "the source's remote flag");
    // On an office's location the flag is the company's default, not the role's.
    let mut office = draft("Engineer", "Tel Aviv Office", "");
    office.remote = true;
    assert_eq!(derive(&office).work_mode, None);
}

// scenario: Title is not evidence
#[test]
fn negative_cases() {
    // A bare "Remote" is not global.
    let f = derive(&draft("Engineer", "Remote", "We build things."));
    assert!(f.regions.is_empty() && f.countries.is_empty());
    assert_eq!(f.work_mode, Some(WorkMode::Remote));
    // Worldwide words are.
    assert_eq!(derive(&draft("Engineer", "Remote - Worldwide", "")).regions, [Region::Global]);
    // No "go" from go-to-market, and no Rust/Swift from English prose.
    let f = derive(&draft(
        "Marketing Manager",
        "London, UK",
        "Own our go-to-market with HubSpot. Go to market fast. We love a swift rust-free launch.",
    ));
    assert_eq!(f.skills, ["hubspot"]);
    // Georgia alone is neither the country nor the US state.
    assert!(codes(&draft("Account Executive", "Georgia", "")).is_empty());
    assert_eq!(codes(&draft("Account Executive", "Atlanta, Georgia", "")), ["us"]);
    assert_eq!(codes(&draft("Account Executive", "Tbilisi, Georgia", "")), ["ge"]);
    // Remote is never inferred from the title.
    assert_eq!(derive(&draft("Remote Support Agent", "Austin, TX", "")).work_mode, None);
    // Grade-blind titles.
    for title in
        ["Member of Technical Staff", "Lead Generation Specialist", "Sales Director, Middle East"]
    {
        assert_eq!(derive(&draft(title, "", "")).seniority, None, "{title}");
    }
    // No clearance from a negation.
    assert_eq!(
        derive(&draft("Engineer", "", "No security clearance required.")).requires_clearance,
        None
    );
}

// scenario: Title suffix
// scenario: Eligibility phrase
// scenario: Pinned postings are left alone
#[test]
fn unpinned_postings_are_pinned_by_evidence() {
    let title = derive(&draft("Support Engineer [Remote-US]", "Remote", ""));
    assert_eq!(title.countries, [CountryCode::parse("us").unwrap()]);
    let eligibility = derive(&draft(
        "Engineer",
        "Remote",
        "You must be authorized to work in the United Kingdom.",
    ));
    assert_eq!(eligibility.countries, [CountryCode::parse("gb").unwrap()]);
    assert_eq!(eligibility.regions, [Region::Uk]);
    let clearance = derive(&draft("Analyst", "Anywhere", "Active TS/SCI clearance required."));
    assert_eq!(clearance.countries, [CountryCode::parse("us").unwrap()]);
    assert_eq!(clearance.requires_clearance, Some(true));
    // A pinned posting keeps its location's answer.
    let pinned =
        derive(&draft("Engineer - Remote Europe", "Toronto, Canada", "Right to work in the UK."));
    assert_eq!(pinned.countries, [CountryCode::parse("ca").unwrap()]);
}

// scenario: Dictionary change
#[test]
fn rederive_reports_changes() {
    let d =
        draft("Senior Go Developer", "Berlin, Germany", "<p>We use Go and Docker and Kafka.</p>");
    let stored = posting(&d, Provider::parse("manual").unwrap(), "42", "https://example.com/42");
    let same = rederive(&stored, &Structured::default());
    assert!(!same.changed);
    assert_eq!(same.facets, stored.facets);

    let mut stale = stored.clone();
    stale.facets.skills = vec!["cobol".into()];
    let again = rederive(&stale, &Structured::default());
    assert!(again.changed);
    assert_eq!(again.facets, stored.facets);
    assert_ne!(stale.content_hash(), stored.content_hash(), "content hash follows the facets");
}

#[test]
fn posting_assembly() {
    let mut d = draft("Senior Go Developer", "Berlin", "<p>Go</p>");
    d.salary = SalaryParts {
        min: Some(70_000),
        max: Some(90_000),
        currency: Some("eur".into()),
        period: Some("year".into()),
    };
    d.posted_at = Some("1784217332000".into());
    let p = posting(&d, Provider::parse("manual").unwrap(), "42", "https://example.com/42");
    assert_eq!(p.public_slug().as_str(), "senior-go-developer-acme-t35nijto");
    let salary = p.salary.clone().unwrap();
    assert_eq!((salary.currency.as_str(), salary.period), ("EUR", SalaryPeriod::Year));
    assert_eq!(p.posted_at.map(|t| t.timestamp()), Some(1_784_217_332));
    assert_eq!(p.role_fingerprint, role_fingerprint("Senior Go Developer", "Acme", "<p>Go</p>"));
    assert!(p.validate().is_ok());

    d.salary.period = Some("week".into());
    assert_eq!(posting(&d, Provider::parse("manual").unwrap(), "42", "u").salary, None);
}

#[test]
fn slugs_and_keys_are_the_domain_ones() {
    assert_eq!(
        job_slug("Senior Go Developer", "Acme", "manual", "42").as_str(),
        "senior-go-developer-acme-t35nijto"
    );
    assert_eq!(slugify("Яндекс"), "iandeks");
    assert_eq!(company_slug("Acme GmbH"), "acme");
    assert_eq!(company_key("Foo Bar Inc."), "foobar");
    assert_eq!(role_key("Acme GmbH", "Engineer (Backend)"), role_key("ACME", "engineer backend"));
}

// scenario: Nothing recognisable
#[test]
fn nothing_recognisable_stays_empty() {
    let f = derive(&draft("Evals Lead", "Remote", ""));
    assert!(f.countries.is_empty() && f.regions.is_empty() && f.cities.is_empty());
    assert!(f.skills.is_empty());
    assert_eq!((f.category, f.is_tech, f.posting_language), (None, None, None));
    assert_eq!(f.work_mode, Some(WorkMode::Remote));
    assert_eq!(f.seniority, Some(Seniority::Lead));
}

/// A small deterministic fuzz: odd strings built from a pool of tricky pieces (multi-byte
/// characters, tag and entity fragments, separators, numbers, dictionary words) never panic and
/// always give canonical facets, the same ones every time.
// scenario: Same input, same output
#[test]
fn odd_input_never_panics() {
    const POOL: &[&str] = &[
        "<",
        ">",
        "&",
        "&amp;",
        "&#x2F;",
        "</",
        "<script>",
        "</style>",
        "(",
        ")",
        "[",
        "]",
        ",",
        ";",
        "/",
        " - ",
        "–",
        "—",
        "\u{2011}",
        "\u{200b}",
        "\u{a0}",
        "é",
        "ü",
        "ß",
        "İ",
        "Ж",
        "日本",
        "🦖",
        "5+",
        "3-5",
        "years",
        "yrs",
        "experience",
        "Go",
        "go-to",
        "R",
        "C",
        "C++",
        ".NET",
        "Remote",
        "Hybrid",
        "Georgia",
        "LA",
        "US-NY-",
        "Senior",
        "Staff",
        "Lead Generation",
        "TS/SCI",
        "about Acme",
        "The Role",
        "Benefits",
        " ",
        "\n",
        "Berlin",
        "Worldwide",
        "(52.5,",
        "13.4)",
        "B2",
        "English",
        "Bachelor's",
        "NSW",
        "DC",
        "D.C.",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    for _ in 0..1000 {
        let len = 1 + next() % 40;
        let mut pick = |n: usize| (0..n).map(|_| POOL[next() % POOL.len()]).collect::<String>();
        let d = Draft {
            title: pick(1 + len % 6),
            company: pick(1 + len % 3),
            location: pick(1 + len % 8),
            description: pick(len),
            remote: len % 2 == 0,
            ..Draft::default()
        };
        let f = derive(&d);
        assert_eq!(derive(&d), f, "the same draft derives the same facets: {d:?}");
        let mut again = f.clone();
        again.canonicalize();
        assert_eq!(f, again, "derive returns canonical facets for {d:?}");
        let _ = rederive(
            &posting(&d, Provider::parse("manual").unwrap(), "x", "u"),
            &Structured::default(),
        );
        let _ = role_key(&d.company, &d.title);
    }
}

// The defect classes seen on real postings (issue 18), each as the job seeker reads it.

// scenario: A team suffix after a bar keeps the grade
#[test]
fn a_team_suffix_after_a_bar_keeps_the_grade() {
    let f = derive(&draft("Senior Software Engineer | Backend", "Berlin", ""));
    assert_eq!(f.seniority, Some(Seniority::Senior));
    assert_eq!(f.category, Some(Category::Backend));
}

// scenario: Grade alternatives written with spaces give the higher grade
#[test]
fn grade_alternatives_with_spaces_give_the_higher_grade() {
    assert_eq!(
        derive(&draft("Senior / Staff SRE", "Remote", "")).seniority,
        Some(Seniority::Staff)
    );
    assert_eq!(
        derive(&draft("Staff / Principal Engineer", "Remote", "")).seniority,
        Some(Seniority::Principal)
    );
    // Alternatives that are whole titles with different grades still settle nothing.
    assert_eq!(
        derive(&draft("Solution Architect / Senior Solution Architect", "Remote", "")).seniority,
        None
    );
}

// scenario: Skills are read when the category is unknown
#[test]
fn skills_are_read_when_the_category_is_unknown() {
    let d = draft(
        "Member of Technical Staff, Post-Training",
        "San Francisco",
        "<p>You will run post-training experiments.</p><h3>Requirements</h3><ul><li>Experience \
         with PyTorch and distributed training</li><li>Comfortable operating jobs on \
         Kubernetes</li></ul>",
    );
    let f = derive(&d);
    assert!(f.skills.iter().any(|s| s == "pytorch"), "{:?}", f.skills);
    assert!(f.skills.iter().any(|s| s == "kubernetes"), "{:?}", f.skills);
}

// scenario: A compound title's head names the role
#[test]
fn a_compound_titles_head_names_the_role() {
    let backend = derive(&draft("Backend Engineer-Sales Customer Care team", "Berlin", ""));
    assert_eq!(backend.category, Some(Category::Backend));
    let seo = draft("Staff Software Engineer, Full-Stack Front-end (SEO Engineering)", "US", "");
    assert_eq!(derive(&seo).category, Some(Category::Frontend));
    // The head's family holds: a marketing role about developer tools stays marketing.
    let marketing = derive(&draft("Marketing Manager - Developer Tools", "Berlin", ""));
    assert_eq!(marketing.category, Some(Category::Marketing));
}

// scenario: An intern is an intern whoever they work for
#[test]
fn an_intern_is_an_intern_whoever_they_work_for() {
    let f = derive(&draft("CEO Founder Associate Intern", "New York", ""));
    assert_eq!(f.seniority, Some(Seniority::Intern));
}

// scenario: The text is more specific than a remote flag
#[test]
fn the_text_is_more_specific_than_a_remote_flag() {
    let mut d = draft(
        "Financial Controller",
        "",
        "<p>This position will be hybrid based out of our Lehi, UT HQ.</p>",
    );
    d.remote = true;
    assert_eq!(derive(&d).work_mode, Some(WorkMode::Hybrid));
}
