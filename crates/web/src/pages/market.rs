//! `/market?skills=rust,go&countries=de…`: how much of the market a set of skills reaches
//! (reference search-ingest §5.12), the computation `POST /api/v1/market/coverage` and the
//! assistant's `market_fit` run ([`freehire_app::market::coverage`]). The form takes the skills
//! (comma-separated slugs) and a few filters; the answer is the covered share of the matching
//! jobs, each skill's count and share, the gaps and the most listed skills, each a link to the
//! search it stands for. A bad value is the form again with the reason (400).

use askama::Template;
use axum::{
    extract::{RawQuery, State},
    http::StatusCode,
    response::Response,
};
use freehire_app::market::{self, Coverage};
use freehire_search::{Endpoint, JobQuery};

use crate::{WebState, error::render, layout::Ctx, layout::Layout};

/// The filters the form offers (beside the skills), as the search grammar names them.
const FILTERS: [&str; 5] = ["q", "countries", "work_mode", "seniority", "category"];

/// The market page.
#[derive(Template)]
#[template(path = "market.html")]
pub struct MarketPage {
    /// The layout.
    pub layout: Layout,
    /// The skills as typed.
    pub skills: String,
    /// The filters as typed, in [`FILTERS`]' order.
    pub filters: Vec<(&'static str, String)>,
    /// The coverage, once asked.
    pub coverage: Option<Coverage>,
    /// Why nothing was measured.
    pub problem: Option<String>,
}

impl MarketPage {
    /// The value typed for `name`.
    pub fn value(&self, name: &str) -> &str {
        self.filters.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v.as_str())
    }

    /// The search page's address for the jobs matching the filter and listing `skill`.
    pub fn search_link(&self, skill: &str) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in self.filters.iter().filter(|(_, v)| !v.is_empty()) {
            query.append_pair(name, value);
        }
        query.append_pair("skills", skill);
        format!("/jobs?{}", query.finish())
    }
}

/// `GET /market`.
pub async fn page(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let pairs: Vec<(String, String)> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
            .map(|(k, v)| (k.into_owned(), v.trim().to_owned()))
            .collect();
    let typed = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let mut page = MarketPage {
        layout: ctx.layout("Market fit"),
        skills: typed("skills").unwrap_or_default(),
        filters: FILTERS.iter().map(|f| (*f, typed(f).unwrap_or_default())).collect(),
        coverage: None,
        problem: None,
    };
    let skills: Vec<String> =
        page.skills.split(',').map(|s| s.trim().to_lowercase()).filter(|s| !s.is_empty()).collect();
    if skills.is_empty() {
        return ctx.page(&page);
    }
    if skills.len() > market::MAX_COVERAGE_SKILLS {
        page.problem =
            Some(format!("Measure at most {} skills at once.", market::MAX_COVERAGE_SKILLS));
        return render(StatusCode::BAD_REQUEST, &page);
    }
    let filter: Vec<(String, String)> = page
        .filters
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    if let Err(e) = JobQuery::parse(&filter, Endpoint::Search) {
        page.problem = Some(e.to_string());
        return render(StatusCode::BAD_REQUEST, &page);
    }
    let index = match state.search.get().await {
        Ok(index) => index,
        Err(_) => {
            page.problem = Some("Search is not available yet: the index is being built.".into());
            return render(StatusCode::SERVICE_UNAVAILABLE, &page);
        }
    };
    match market::coverage(index.as_ref(), &filter, &skills, (state.clock)()).await {
        Ok(coverage) => {
            page.coverage = Some(coverage);
            ctx.page(&page)
        }
        Err(e) => ctx.error(e),
    }
}
