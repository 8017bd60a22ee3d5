//! Board URL recognition: careers and API URLs of the registered platforms; everything else is an
//! error, never a guess.

use freehire_ingest::{IngestError, board_identity, recognize, validate_board};

fn rec(url: &str) -> (String, String, String, String) {
    let r = recognize(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    validate_board(&r.key().unwrap()).unwrap_or_else(|e| panic!("{url}: {e}"));
    (r.provider.to_string(), r.board, r.region, r.canonical_url)
}

fn four(p: &str, b: &str, r: &str, c: &str) -> (String, String, String, String) {
    (p.into(), b.into(), r.into(), c.into())
}

// scenario: Careers URL with a locale
#[test]
fn careers_urls() {
    let cases = [
        (
            "https://job-boards.greenhouse.io/amplitude/jobs/8636903002",
            four("greenhouse", "amplitude", "", "https://job-boards.greenhouse.io/amplitude"),
        ),
        (
            "boards.greenhouse.io/embed/job_board?for=acme",
            four("greenhouse", "acme", "", "https://job-boards.greenhouse.io/acme"),
        ),
        (
            "https://jobs.lever.co/idealistconsulting/a24ec4e5-5caa-473d-abd4-b71f09a8167b",
            four("lever", "idealistconsulting", "", "https://jobs.lever.co/idealistconsulting"),
        ),
        (
            "https://jobs.eu.lever.co/acme",
            four("lever", "acme", "eu", "https://jobs.eu.lever.co/acme"),
        ),
        (
            "https://jobs.ashbyhq.com/HighlightTA/90fb3621-899e-4b59-925d-25080ec91e18",
            four("ashby", "HighlightTA", "", "https://jobs.ashbyhq.com/HighlightTA"),
        ),
        (
            "https://jobs.ashbyhq.com/mobbin.com",
            four("ashby", "mobbin.com", "", "https://jobs.ashbyhq.com/mobbin.com"),
        ),
        (
            "https://salesforce.wd12.myworkdayjobs.com/en-US/External_Career_Site/job/x_JR1",
            four(
                "workday",
                "salesforce.wd12.myworkdayjobs.com/External_Career_Site",
                "",
                "https://salesforce.wd12.myworkdayjobs.com/External_Career_Site",
            ),
        ),
        (
            "https://salesforce.wd12.myworkdayjobs.com/External_Career_Site",
            four(
                "workday",
                "salesforce.wd12.myworkdayjobs.com/External_Career_Site",
                "",
                "https://salesforce.wd12.myworkdayjobs.com/External_Career_Site",
            ),
        ),
        (
            "https://wd5.myworkdaysite.com/en-US/recruiting/acme/Careers",
            four(
                "workday",
                "wd5.myworkdaysite.com/acme/Careers",
                "",
                "https://wd5.myworkdaysite.com/recruiting/acme/Careers",
            ),
        ),
        (
            "https://jobs.smartrecruiters.com/Knight/743999671674844-cna",
            four("smartrecruiters", "Knight", "", "https://jobs.smartrecruiters.com/Knight"),
        ),
        (
            "https://jobs.smartrecruiters.com/oneclick-ui/company/Knight/publication/abc",
            four("smartrecruiters", "Knight", "", "https://jobs.smartrecruiters.com/Knight"),
        ),
        (
            "https://apply.workable.com/zaelab/j/DD136DD7E7/",
            four("workable", "zaelab", "", "https://apply.workable.com/zaelab"),
        ),
        (
            "https://zaelab.workable.com",
            four("workable", "zaelab", "", "https://apply.workable.com/zaelab"),
        ),
        (
            "https://acme.recruitee.com/o/some-offer",
            four("recruitee", "acme", "", "https://acme.recruitee.com"),
        ),
        (
            "https://acme.jobs.personio.de/job/1834171?language=de",
            four("personio", "acme", "", "https://acme.jobs.personio.com"),
        ),
        (
            "https://acme.jobs.personio.com",
            four("personio", "acme", "", "https://acme.jobs.personio.com"),
        ),
        (
            "https://career.teamtailor.com/jobs/7167985-account-executive",
            four("teamtailor", "career.teamtailor.com", "", "https://career.teamtailor.com/jobs"),
        ),
        (
            "https://acme.bamboohr.com/careers/86",
            four("bamboohr", "acme", "", "https://acme.bamboohr.com/careers"),
        ),
        (
            "https://acme.pinpointhq.com/en/postings/post-001",
            four("pinpoint", "acme", "", "https://acme.pinpointhq.com"),
        ),
        (
            "https://ats.rippling.com/en-GB/acme/jobs/2f0674e6",
            four("rippling", "acme", "", "https://ats.rippling.com/acme/jobs"),
        ),
        (
            "https://ats.rippling.com/acme/jobs",
            four("rippling", "acme", "", "https://ats.rippling.com/acme/jobs"),
        ),
    ];
    for (url, want) in cases {
        assert_eq!(rec(url), want, "{url}");
    }
}

#[test]
fn api_urls() {
    assert_eq!(
        rec("https://api.ashbyhq.com/posting-api/job-board/cartesia?includeCompensation=true").1,
        "cartesia"
    );
    assert_eq!(
        rec("https://boards-api.greenhouse.io/v1/boards/amplitude/jobs?content=true").1,
        "amplitude"
    );
    assert_eq!(rec("https://api.lever.co/v0/postings/acme?mode=json").1, "acme");
    assert_eq!(rec("https://api.eu.lever.co/v0/postings/acme").2, "eu");
    assert_eq!(rec("https://api.smartrecruiters.com/v1/companies/Knight/postings").1, "Knight");
    assert_eq!(
        rec("https://apply.workable.com/api/v1/widget/accounts/zaelab?details=true").1,
        "zaelab"
    );
    assert_eq!(rec("https://ats.rippling.com/api/v1/board/acme/jobs").1, "acme");
    assert_eq!(rec("https://salesforce.wd12.myworkdayjobs.com/wday/cxs/salesforce/External_Career_Site/jobs").1, "salesforce.wd12.myworkdayjobs.com/External_Career_Site");
}

// scenario: Platform page
#[test]
fn unrecognised_urls_are_errors() {
    for url in [
        "https://www.recruitee.com/",
        "https://app.recruitee.com/",
        "https://help.bamboohr.com/hc/en-us",
        "https://www.bamboohr.com/careers",
        "https://api.pinpointhq.com/",
        "https://www.teamtailor.com/en/pricing",
        "https://jobs.lever.co/",
        "https://jobs.ashbyhq.com/",
        "https://apply.workable.com/j/DD136DD7E7",
        // Workable's own paths are no account, whichever URL form names them.
        "https://j.workable.com/",
        "https://apply.workable.com/api/v3/accounts/careers/jobs",
        "https://www.workday.com/en-us/company/careers.html",
        "https://example.com/careers",
        "https://greenhouse.io/",
        "ftp://jobs.lever.co/acme",
        "not a url at all",
        "https://evil.com/?u=jobs.lever.co/acme",
        "https://jobs.lever.co.evil.com/acme",
        "https://ats.rippling.com/en-GB",
    ] {
        let err = recognize(url).unwrap_err();
        assert!(matches!(err, IngestError::Unrecognised { .. }), "{url}: {err}");
    }
}

#[test]
fn recognised_duplicates_fold_to_one_identity() {
    let a = recognize("https://acme.jobs.personio.de/").unwrap().key().unwrap();
    let b = recognize("https://ACME.jobs.personio.com/job/1").unwrap().key().unwrap();
    assert_eq!(board_identity(&a), board_identity(&b));
    let c = recognize("https://jobs.ashbyhq.com/Windsurf").unwrap().key().unwrap();
    let d =
        recognize("https://api.ashbyhq.com/posting-api/job-board/windsurf").unwrap().key().unwrap();
    assert_eq!(board_identity(&c), board_identity(&d));
}

mod properties {
    use freehire_ingest::{recognize, validate_board};
    use proptest::prelude::*;

    fn platform_url() -> impl Strategy<Value = String> {
        let hosts = prop::sample::select(vec![
            "job-boards.greenhouse.io",
            "boards-api.greenhouse.io/v1/boards",
            "jobs.lever.co",
            "jobs.eu.lever.co",
            "jobs.ashbyhq.com",
            "jobs.smartrecruiters.com",
            "apply.workable.com",
            "ats.rippling.com",
            "ats.rippling.com/en-GB",
            "acme.wd1.myworkdayjobs.com",
            "acme.wd1.myworkdayjobs.com/en-US",
            "wd5.myworkdaysite.com/recruiting/acme",
        ]);
        let subdomain = prop::sample::select(vec![
            "recruitee.com",
            "jobs.personio.com",
            "jobs.personio.de",
            "teamtailor.com",
            "bamboohr.com",
            "pinpointhq.com",
            "workable.com",
        ]);
        prop_oneof![
            (hosts, "[A-Za-z0-9._~%/?=&-]{0,30}").prop_map(|(h, p)| format!("https://{h}/{p}")),
            ("[a-z0-9.-]{0,20}", subdomain, "[A-Za-z0-9/._-]{0,20}")
                .prop_map(|(t, s, p)| format!("https://{t}.{s}/{p}")),
            ".{0,60}",
        ]
    }

    proptest! {
        /// Recognition never panics; whatever it recognises is a valid board whose canonical
        /// URL is recognised as the same board.
        #[test]
        fn recognised_boards_round_trip(url in platform_url()) {
            if let Ok(r) = recognize(&url) {
                let key = r.key().unwrap();
                prop_assert!(validate_board(&key).is_ok(), "{url} -> {r:?}");
                let again = recognize(&r.canonical_url).unwrap();
                prop_assert_eq!((&again.provider, &again.board, &again.region), (&r.provider, &r.board, &r.region));
            }
        }
    }
}
