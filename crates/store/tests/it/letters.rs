//! Cover letters: `CoverLetterRepo` on both backends. One letter per owner and vacancy,
//! replaced in place (id and `created_at` kept); listed newest first; another user's letter is
//! not found and cannot be deleted; letters go with their job.

use freehire_cv::letter::{Band, Letter, Paragraph};
use freehire_domain::{AtomId, JobId};
use freehire_store::{Store, testing};

use crate::fixtures::{posting, t};

fn letter(text: &str) -> Letter {
    Letter {
        greeting: "Dear team,".into(),
        paragraphs: vec![Paragraph {
            text: text.into(),
            evidence_ids: vec![AtomId::new(7).unwrap()],
        }],
        closing: "Kind regards,".into(),
        signature: "Ada".into(),
    }
}

async fn jobs(s: &dyn Store) -> (JobId, JobId) {
    let written = s
        .upsert_jobs(
            &[posting("greenhouse", "1", "Rust"), posting("greenhouse", "2", "Go")],
            t(1, 9),
        )
        .await
        .unwrap();
    (written[0].id, written[1].id)
}

// scenario: A cover letter is kept once per vacancy and replaced in place
pub async fn a_letter_is_kept_once_per_vacancy_and_replaced_in_place(s: &dyn Store) {
    let ada = testing::user(s, "ada@example.com", t(1, 9)).await;
    let grace = testing::user(s, "grace@example.com", t(1, 9)).await;
    let (rust, go) = jobs(s).await;
    let first =
        s.save_cover_letter(ada.id, rust, Band::Short, &letter("one"), t(2, 9)).await.unwrap();
    assert_eq!((first.band, first.letter.paragraphs[0].text.as_str()), (Band::Short, "one"));
    let again =
        s.save_cover_letter(ada.id, rust, Band::Standard, &letter("two"), t(3, 9)).await.unwrap();
    assert_eq!(again.id, first.id, "replaced in place");
    assert_eq!((again.created_at, again.updated_at), (t(2, 9), t(3, 9)));
    assert_eq!(again.band, Band::Standard);
    let other = s.save_cover_letter(ada.id, go, Band::Short, &letter("go"), t(4, 9)).await.unwrap();
    let list = s.list_cover_letters(ada.id).await.unwrap();
    assert_eq!(list.iter().map(|l| l.id).collect::<Vec<_>>(), [other.id, first.id], "newest first");
    assert_eq!(s.cover_letter_for_job(ada.id, rust).await.unwrap(), Some(again.clone()));
    assert_eq!(s.cover_letter(ada.id, again.id).await.unwrap(), Some(again.clone()));

    // Grace sees none of Ada's and cannot delete them; her own letter for the same job is hers.
    assert_eq!(s.cover_letter(grace.id, again.id).await.unwrap(), None);
    assert_eq!(s.cover_letter_for_job(grace.id, rust).await.unwrap(), None);
    assert!(s.list_cover_letters(grace.id).await.unwrap().is_empty());
    assert!(!s.delete_cover_letter(grace.id, again.id).await.unwrap());
    let hers =
        s.save_cover_letter(grace.id, rust, Band::Short, &letter("g"), t(5, 9)).await.unwrap();
    assert_ne!(hers.id, again.id);
    assert!(s.delete_cover_letter(ada.id, again.id).await.unwrap());
    assert!(!s.delete_cover_letter(ada.id, again.id).await.unwrap());
    assert_eq!(s.list_cover_letters(ada.id).await.unwrap().len(), 1);
    assert_eq!(s.cover_letter(grace.id, hers.id).await.unwrap().unwrap().letter, letter("g"));
}
