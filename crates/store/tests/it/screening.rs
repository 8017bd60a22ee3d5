//! Screening answers: `ScreeningRepo` on both backends. A new account has none stated; a
//! patch sets the fields it names and leaves the rest; `null` forgets one; concurrent patches
//! of different fields both land (the merge is one statement); an unknown owner is `None`; the
//! answers go with the account.

use freehire_domain::{CountryCode, SalaryPeriod, ScreeningAnswers, ScreeningPatch, UserId};
use freehire_store::{Store, testing};

use crate::fixtures::t;

fn countries(codes: &[&str]) -> Vec<CountryCode> {
    codes.iter().map(|c| CountryCode::parse(c).unwrap()).collect()
}

// scenario: A screening patch sets what it names and null forgets
pub async fn a_patch_sets_what_it_names_and_null_forgets(s: &dyn Store) {
    let ada = testing::user(s, "ada@example.com", t(1, 9)).await;
    assert_eq!(s.screening_answers(ada.id).await.unwrap(), Some(ScreeningAnswers::default()));

    let first = ScreeningPatch {
        authorized_countries: Some(Some(countries(&["de", "fr"]))),
        desired_salary_amount: Some(Some(85_000)),
        desired_salary_currency: Some(Some("EUR".into())),
        desired_salary_period: Some(Some(SalaryPeriod::Year)),
        notice_period_days: Some(Some(90)),
        ..ScreeningPatch::default()
    };
    let after = s.patch_screening_answers(ada.id, &first).await.unwrap().unwrap();
    assert_eq!(after, ScreeningAnswers::default().patched(&first));

    // A second patch names other fields, replaces the country list and forgets the notice.
    let second = ScreeningPatch {
        authorized_countries: Some(Some(countries(&["us"]))),
        visa_sponsorship_needed: Some(Some(false)),
        notice_period_days: Some(None),
        ..ScreeningPatch::default()
    };
    let after = s.patch_screening_answers(ada.id, &second).await.unwrap().unwrap();
    assert_eq!(after.authorized_countries, Some(countries(&["us"])));
    assert_eq!(after.visa_sponsorship_needed, Some(false));
    assert_eq!(after.notice_period_days, None);
    assert_eq!(after.desired_salary_amount, Some(85_000));
    assert_eq!(after.desired_salary_period, Some(SalaryPeriod::Year));
    assert_eq!(s.screening_answers(ada.id).await.unwrap(), Some(after.clone()));

    // An empty patch changes nothing; other accounts are untouched.
    let same = s.patch_screening_answers(ada.id, &ScreeningPatch::default()).await.unwrap();
    assert_eq!(same, Some(after));
    let bob = testing::user(s, "bob@example.com", t(1, 9)).await;
    assert_eq!(s.screening_answers(bob.id).await.unwrap(), Some(ScreeningAnswers::default()));
}

// scenario: Concurrent screening patches of different fields both land
pub async fn concurrent_patches_of_different_fields_both_land(s: &dyn Store) {
    let ada = testing::user(s, "ada@example.com", t(1, 9)).await;
    let patches: Vec<ScreeningPatch> = vec![
        ScreeningPatch { visa_sponsorship_needed: Some(Some(true)), ..Default::default() },
        ScreeningPatch { willing_to_relocate: Some(Some(true)), ..Default::default() },
        ScreeningPatch { age_18_or_older: Some(Some(true)), ..Default::default() },
        ScreeningPatch { notice_period_days: Some(Some(30)), ..Default::default() },
        ScreeningPatch { desired_salary_amount: Some(Some(70_000)), ..Default::default() },
        ScreeningPatch { desired_salary_currency: Some(Some("GBP".into())), ..Default::default() },
    ];
    let writes = patches.iter().map(|p| s.patch_screening_answers(ada.id, p));
    for done in futures::future::join_all(writes).await {
        done.unwrap().unwrap();
    }
    let all = patches.iter().fold(ScreeningAnswers::default(), |a, p| a.patched(p));
    assert_eq!(s.screening_answers(ada.id).await.unwrap(), Some(all));
}

pub async fn an_unknown_owner_has_no_answers(s: &dyn Store) {
    let ghost = UserId::new(987_654).unwrap();
    assert_eq!(s.screening_answers(ghost).await.unwrap(), None);
    let patch = ScreeningPatch { age_18_or_older: Some(Some(true)), ..Default::default() };
    assert_eq!(s.patch_screening_answers(ghost, &patch).await.unwrap(), None);
}
