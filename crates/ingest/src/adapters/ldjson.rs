//! Reading the schema.org `JobPosting` from a page's `<script type="application/ld+json">`
//! blocks (top level, inside an array, or inside `@graph`).

use serde_json::Value;

/// The first `JobPosting` object among the page's ld+json blocks.
pub(crate) fn job_posting(page: &str) -> Option<Value> {
    let lower = page.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find("application/ld+json") {
        let at = from + found;
        let open_end = at + lower[at..].find('>')? + 1;
        let close = open_end + lower[open_end..].find("</script")?;
        from = close;
        let Ok(value) = serde_json::from_str::<Value>(page[open_end..close].trim()) else {
            continue;
        };
        if let Some(jp) = find(&value) {
            return Some(jp.clone());
        }
    }
    None
}

fn is_job_posting(v: &Value) -> bool {
    match v.get("@type") {
        Some(Value::String(t)) => t == "JobPosting",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "JobPosting"),
        _ => false,
    }
}

fn find(v: &Value) -> Option<&Value> {
    match v {
        Value::Array(items) => items.iter().find_map(find),
        Value::Object(o) => {
            if is_job_posting(v) {
                Some(v)
            } else {
                o.get("@graph").and_then(find)
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_job_posting() {
        let page = r#"<html><head>
            <script type="application/ld+json">{"@type": "Organization", "name": "Acme"}</script>
            <SCRIPT type="application/ld+json">{"@graph": [{"@type": "JobPosting", "title": "Engineer"}]}</SCRIPT>
            </head></html>"#;
        assert_eq!(job_posting(page).unwrap()["title"], "Engineer");
        assert!(
            job_posting("<html><script type=\"application/ld+json\">{bad</script></html>")
                .is_none()
        );
        assert!(job_posting("<html></html>").is_none());
    }
}
