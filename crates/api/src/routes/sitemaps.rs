//! `GET /jobs/sitemap` and `GET /companies/sitemap` (reference search-ingest §5.12): sitemap
//! XML (sitemaps.org 0.9) of the open, non-duplicate jobs' and the companies' web pages, for
//! search engines. Without `page` the answer is a sitemap index naming every page; a page holds
//! [`SITEMAP_PAGE_SIZE`] addresses with their last change. Addresses are absolute, under the
//! public site (`FREEHIRE_PUBLIC_URL`). Public, keyless, in the public reads' bucket.

use axum::{
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};
use freehire_app::catalogue::sitemap_pages;
use freehire_store::{SITEMAP_PAGE_SIZE, SitemapPage};

use crate::{
    ApiError, AppState,
    extract::SitemapQuery,
    openapi::{
        Errors,
        code::{InvalidParameter, NotFound, RateLimited, Unauthorized, Unavailable},
    },
};

/// The jobs sitemap: the index of its pages, or one page of job addresses.
#[utoipa::path(
    get, path = "/jobs/sitemap", tag = "jobs", operation_id = "jobs_sitemap",
    security((), ("api_key" = [])),
    params(SitemapQuery),
    responses(
        (status = 200, description = "A sitemap index (no `page`) or a `urlset` of job pages.", content_type = "application/xml", body = String),
        Errors<(InvalidParameter, NotFound, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn jobs(
    State(state): State<AppState>,
    SitemapQuery(page): SitemapQuery,
) -> Result<Response, ApiError> {
    let at = page.unwrap_or(1);
    let found = state.catalogue().job_sitemap(at).await?;
    render(&state.public_url, "/api/v1/jobs/sitemap", "/jobs/", page, &found)
}

/// The companies sitemap: the index of its pages, or one page of company addresses.
#[utoipa::path(
    get, path = "/companies/sitemap", tag = "companies", operation_id = "companies_sitemap",
    security((), ("api_key" = [])),
    params(SitemapQuery),
    responses(
        (status = 200, description = "A sitemap index (no `page`) or a `urlset` of company pages.", content_type = "application/xml", body = String),
        Errors<(InvalidParameter, NotFound, Unavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn companies(
    State(state): State<AppState>,
    SitemapQuery(page): SitemapQuery,
) -> Result<Response, ApiError> {
    let at = page.unwrap_or(1);
    let found = state.catalogue().company_sitemap(at).await?;
    render(&state.public_url, "/api/v1/companies/sitemap", "/companies/", page, &found)
}

/// The index (no `page`) or the page's `urlset`; a page past the last is not found.
fn render(
    public: &str,
    sitemap: &str,
    pages_under: &str,
    page: Option<u32>,
    found: &SitemapPage,
) -> Result<Response, ApiError> {
    let public = public.trim_end_matches('/');
    let pages = sitemap_pages(found.total);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    match page {
        None => {
            xml.push_str("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
            for n in 1..=pages {
                let loc = escape(&format!("{public}{sitemap}?page={n}"));
                xml.push_str(&format!("<sitemap><loc>{loc}</loc></sitemap>\n"));
            }
            xml.push_str("</sitemapindex>\n");
        }
        Some(n) if u64::from(n) > pages => {
            return Err(ApiError::not_found("no such sitemap page"));
        }
        Some(_) => {
            xml.push_str("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
            for entry in &found.entries {
                let loc = escape(&format!("{public}{pages_under}{}", entry.slug));
                let lastmod = entry.last_modified.format("%Y-%m-%dT%H:%M:%SZ");
                xml.push_str(&format!("<url><loc>{loc}</loc><lastmod>{lastmod}</lastmod></url>\n"));
            }
            xml.push_str("</urlset>\n");
        }
    }
    Ok(([(header::CONTENT_TYPE, "application/xml; charset=utf-8")], xml).into_response())
}

/// `text` with XML's five special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// How many addresses one page holds (for the docs' sake, checked at compile time).
const _: () = assert!(SITEMAP_PAGE_SIZE <= 50_000, "the protocol's limit");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_is_escaped() {
        assert_eq!(
            escape("https://a.example/?x=1&y=<2>"),
            "https://a.example/?x=1&amp;y=&lt;2&gt;"
        );
    }
}
