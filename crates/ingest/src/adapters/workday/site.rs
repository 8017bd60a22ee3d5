//! A Workday board: `host/site` or `host/tenant/site`, its CXS URLs, and its recognition from
//! careers and CXS URLs of `<tenant>.wdN.myworkdayjobs.com` and `wdN.myworkdaysite.com`.

use crate::IngestError;
use crate::adapters::common::{build_url, invalid_board, is_dns_label, is_path_segment};
use crate::recognize::{BoardMatch, BoardUrl, is_locale, path_board, tenant_label};

/// A parsed Workday board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Site {
    pub(crate) host: String,
    pub(crate) tenant: String,
    pub(crate) site: String,
}

impl Site {
    pub(crate) fn parse(board: &str) -> Result<Self, IngestError> {
        let bad = |why: &str| invalid_board("workday", board, why);
        let parts: Vec<&str> = board.trim().split('/').collect();
        let host = parts.first().map(|h| h.to_ascii_lowercase()).unwrap_or_default();
        let host_ok = host.split('.').all(is_dns_label)
            && (host.ends_with(".myworkdayjobs.com") || host.ends_with(".myworkdaysite.com"));
        if !host_ok {
            return Err(bad("host must be a *.myworkdayjobs.com or *.myworkdaysite.com host"));
        }
        let (tenant, site) = match parts.as_slice() {
            [_, site] if host.ends_with(".myworkdayjobs.com") => {
                (host.split('.').next().unwrap_or_default().to_owned(), (*site).to_owned())
            }
            [_, tenant, site] => ((*tenant).to_owned(), (*site).to_owned()),
            _ => return Err(bad("must be host/site or host/tenant/site")),
        };
        if !is_path_segment(&tenant) || !is_path_segment(&site) {
            return Err(bad(
                "tenant and site must each be one URL path segment (letters, digits, '-', '_', \
                 '.', '~'; no '..')",
            ));
        }
        Ok(Self { host, tenant, site })
    }

    /// The detail URL of an `externalPath`, kept as Workday wrote it (it may already be
    /// percent-encoded). A path that could leave the site's CXS prefix is refused.
    pub(crate) fn detail_url(&self, external_path: &str) -> Result<url::Url, IngestError> {
        let safe = external_path.starts_with('/')
            && !external_path.starts_with("//")
            && !external_path.split('/').any(|seg| seg == ".." || seg == ".")
            && !external_path.contains(['?', '#', '\\'])
            && !external_path.chars().any(|c| c.is_whitespace() || c.is_control());
        if !safe {
            return Err(invalid_board("workday", external_path, "unsafe externalPath"));
        }
        let base = self.cxs(&[])?;
        let raw = format!("{}{external_path}", base.as_str().trim_end_matches('/'));
        url::Url::parse(&raw).map_err(|e| invalid_board("workday", external_path, &e.to_string()))
    }

    /// The board a careers or CXS URL names.
    pub(crate) fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let (host, segs) = (url.host(), url.segments());
        if !host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.') {
            return None;
        }
        if let Some(rest) = host.strip_suffix(".myworkdayjobs.com") {
            let mut labels = rest.split('.');
            let (Some(tenant), Some(dc), None) = (labels.next(), labels.next(), labels.next())
            else {
                return None;
            };
            tenant_label(tenant)?;
            if !dc.starts_with("wd") {
                return None;
            }
            let site = match segs {
                ["wday", "cxs", t, site, ..] if t.eq_ignore_ascii_case(tenant) => path_board(site)?,
                [loc, site, ..] if is_locale(loc) => path_board(site)?,
                [site, ..] if !is_locale(site) => path_board(site)?,
                _ => return None,
            };
            return Some(BoardMatch::new(
                format!("{host}/{site}"),
                format!("https://{host}/{site}"),
            ));
        }
        let dc = host.strip_suffix(".myworkdaysite.com")?;
        if !dc.starts_with("wd") || dc.contains('.') {
            return None;
        }
        let rest = match segs {
            [loc, rest @ ..] if is_locale(loc) => rest,
            rest => rest,
        };
        let (tenant, site) = match rest {
            ["recruiting", t, s, ..] | ["wday", "cxs", t, s, ..] => (*t, *s),
            _ => return None,
        };
        let tenant = tenant_label(tenant)?;
        let site = path_board(site)?;
        Some(BoardMatch::new(
            format!("{host}/{tenant}/{site}"),
            format!("https://{host}/recruiting/{tenant}/{site}"),
        ))
    }

    pub(crate) fn cxs(&self, tail: &[&str]) -> Result<url::Url, IngestError> {
        let mut segs = vec!["wday", "cxs", self.tenant.as_str(), self.site.as_str()];
        segs.extend_from_slice(tail);
        build_url(&self.host, &segs, &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detail_urls_keep_encoded_paths() {
        let s = Site::parse("acme.wd1.myworkdayjobs.com/Careers").unwrap();
        assert_eq!(
            s.detail_url("/job/New-York%2C-NY/Engineer_R1").unwrap().as_str(),
            "https://acme.wd1.myworkdayjobs.com/wday/cxs/acme/Careers/job/New-York%2C-NY/Engineer_R1"
        );
        for bad in ["job/x", "//evil.com/x", "/job/../../x", "/job/x?y", "/job/a b"] {
            assert!(s.detail_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sites() {
        let s = Site::parse("salesforce.wd12.myworkdayjobs.com/External_Career_Site").unwrap();
        assert_eq!((s.tenant.as_str(), s.site.as_str()), ("salesforce", "External_Career_Site"));
        let s = Site::parse("wd5.myworkdaysite.com/acme/Careers").unwrap();
        assert_eq!((s.host.as_str(), s.tenant.as_str()), ("wd5.myworkdaysite.com", "acme"));
        assert!(Site::parse("evil.com/x").is_err());
        assert!(Site::parse("acme.wd1.myworkdayjobs.com").is_err());
        for bad in [
            "acme.wd1.myworkdayjobs.com/..",
            "acme.wd1.myworkdayjobs.com/a%2Fb",
            "wd5.myworkdaysite.com/../Careers",
            "acme..wd1.myworkdayjobs.com/Careers",
            "acme.wd1.myworkdayjobs.com/Careers/",
            "acme.wd1.myworkdayjobs.com/Car?eers",
        ] {
            assert!(Site::parse(bad).is_err(), "{bad}");
        }
    }
}
