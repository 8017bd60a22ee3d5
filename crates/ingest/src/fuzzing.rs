//! Entry points for the fuzz targets (`crates/ingest/fuzz`, built with nightly only, outside
//! the default suite): every registered platform's pure parsers of untrusted bytes, by name.
//! Not part of the crate's API: only the fuzz harness and its smoke test call it.

use crate::adapters::PLATFORMS;

/// A named parser: `("oracle.listing", parse)`.
pub type Parser = (&'static str, fn(&[u8]));

/// Every parser of every platform, in platform order.
pub fn parsers() -> Vec<Parser> {
    PLATFORMS.iter().flat_map(|p| p.parsers.iter().copied()).collect()
}

/// Runs the parser `index` (modulo their number) on `bytes`: what one fuzz input does.
pub fn run(index: usize, bytes: &[u8]) {
    let parsers = parsers();
    if let Some((_, parse)) = parsers.get(index % parsers.len().max(1)) {
        parse(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A smoke run of every parser on inputs that must not panic: empty, not JSON, truncated
    /// JSON, HTML, XML and invalid UTF-8.
    #[test]
    fn every_parser_survives_garbage() {
        let inputs: [&[u8]; 7] = [
            b"",
            b"not json",
            b"{\"jobs\": [",
            b"<html><body><a href='/jobs/1'>x</a></body></html>",
            b"<?xml version='1.0'?><urlset><url><loc>https://x/jobs/1</loc></url></urlset>",
            b"\xff\xfe\x00garbage",
            b"{\"items\": null, \"totalCount\": -1}",
        ];
        let parsers = parsers();
        let mut names: Vec<&str> = parsers.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        assert!(names.windows(2).all(|w| w[0] != w[1]), "parser names are unique: {names:?}");
        for (name, parse) in parsers {
            for input in inputs {
                let outcome = std::panic::catch_unwind(|| parse(input));
                assert!(outcome.is_ok(), "{name} panicked on {input:?}");
            }
        }
    }
}
