//! Recruitee: one request, `GET {b}.recruitee.com/api/offers/`. Description is
//! `description` followed by `requirements`; salary from `salary{min,max (strings),period,
//! currency}`; work mode from the `remote` / `hybrid` / `on_site` flags; the apply form
//! (`open_questions`, `options_*`) is kept verbatim.
//!
//! Board URLs: `{b}.recruitee.com`; the board is one DNS label.

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::common::{
    build_url, country, employment_type, host_label, host_label_board, id_text, number, salary,
    seniority,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    tenant_hosts: &[".recruitee.com"],
    ..Platform::of::<Recruitee>("recruitee", |base| Arc::new(Recruitee(base)))
};

pub(crate) struct Recruitee(Base);

#[derive(Deserialize)]
struct Offers {
    offers: Vec<Map<String, Value>>,
}

fn text<'a>(o: &'a Map<String, Value>, key: &str) -> &'a str {
    o.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn flag(o: &Map<String, Value>, key: &str) -> Option<bool> {
    o.get(key).and_then(Value::as_bool)
}

fn apply_form(o: &Map<String, Value>) -> Option<Value> {
    let form: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| k.as_str() == "open_questions" || k.starts_with("options_"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    (!form.is_empty()).then_some(Value::Object(form))
}

fn posting(o: &Map<String, Value>) -> Option<RawPosting> {
    let native_id = id_text(o.get("id")?)?;
    let mode = if flag(o, "remote") == Some(true) {
        Some(freehire_domain::WorkMode::Remote)
    } else if flag(o, "hybrid") == Some(true) {
        Some(freehire_domain::WorkMode::Hybrid)
    } else if flag(o, "on_site") == Some(true) {
        Some(freehire_domain::WorkMode::Onsite)
    } else {
        None
    };
    let mut countries: Vec<_> = o
        .get("locations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|l| l.get("country_code").and_then(Value::as_str).and_then(country))
        .collect();
    if countries.is_empty() {
        countries.extend(country(text(o, "country_code")));
    }
    let salary = o.get("salary").and_then(|s| {
        salary(
            s.get("min").and_then(number),
            s.get("max").and_then(number),
            s.get("currency").and_then(Value::as_str),
            s.get("period").and_then(Value::as_str),
        )
    });
    let published = [text(o, "published_at"), text(o, "created_at")]
        .into_iter()
        .find(|s| !s.trim().is_empty())
        .map(|s| RawDate::Text(s.to_owned()));
    let mut p = RawPosting {
        native_id,
        url: text(o, "careers_url").to_owned(),
        title: text(o, "title").trim().to_owned(),
        company: Some(text(o, "company_name").trim().to_owned()).filter(|c| !c.is_empty()),
        location: text(o, "location").trim().to_owned(),
        description_html: format!("{}{}", text(o, "description"), text(o, "requirements")),
        posted_at: published,
        remote: flag(o, "remote"),
        work_mode: mode,
        employment_type: employment_type(text(o, "employment_type_code")),
        seniority: seniority(text(o, "experience_code")),
        countries,
        salary,
        departments: vec![text(o, "department").trim().to_owned()],
        apply_form: apply_form(o),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

#[async_trait::async_trait]
impl Source for Recruitee {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: false }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        host_label_board(key)
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = url.tenant(".recruitee.com")?;
        let canonical = format!("https://{board}.recruitee.com");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let b = host_label(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url(&format!("{b}.recruitee.com"), &["api", "offers", ""], &[])?;
        let offers: Offers = self.0.listing(&url, b).await?;
        Ok(BoardListing {
            postings: offers.offers.iter().filter_map(posting).collect(),
            ..BoardListing::default()
        })
    }
}
