//! Board import files: CSV with the columns `provider,board,company` (any order; an optional
//! `region` column; other columns ignored). Each row becomes a typed [`BoardRow`] or an
//! [`IngestError::Csv`] naming the line and the column.
//!
//! Catalogue files ([`parse_catalogue_csv`]): CSV with the columns `name,url`, each URL read
//! by board recognition ([`crate::recognize()`]); a row it refuses is an error for that row only.

use std::io::Read;

use freehire_domain::{BoardKey, Provider};

use crate::{IngestError, provider_keys, validate_board};

/// One valid import row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRow {
    /// 1-based line number in the file.
    pub line: u64,
    /// Provider, board and region.
    pub key: BoardKey,
    /// The company's display name.
    pub company: String,
}

/// Line numbers from byte offsets. The csv reader's own line count is one short in CRLF files
/// (a record there starts at the `\n` of the line before it), so both parsers count lines from
/// the record's byte offset instead.
struct LineIndex<'a> {
    bytes: &'a [u8],
    newlines: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        let newlines = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i);
        Self { bytes, newlines: newlines.collect() }
    }

    /// The 1-based line a record starting at `byte` is on.
    fn line_at(&self, byte: u64) -> u64 {
        let mut end = usize::try_from(byte).unwrap_or(usize::MAX).min(self.bytes.len());
        while self.bytes.get(end).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            end += 1;
        }
        self.newlines.partition_point(|&at| at < end) as u64 + 1
    }

    /// The line of a csv position (0 when there is none).
    fn of(&self, position: Option<&csv::Position>) -> u64 {
        position.map_or(0, |p| self.line_at(p.byte()))
    }
}

fn csv_error(line: u64, column: &str, message: impl Into<String>) -> IngestError {
    IngestError::Csv { line, column: column.to_owned(), message: message.into() }
}

/// Parses a board import file. A missing required header is one error for line 1; otherwise
/// there is one result per data row, in file order. Blank lines are skipped. Line numbers are
/// right in LF and CRLF files alike.
pub fn parse_board_csv(mut input: impl Read) -> Vec<Result<BoardRow, IngestError>> {
    let mut bytes = Vec::new();
    if let Err(e) = input.read_to_end(&mut bytes) {
        return vec![Err(csv_error(1, "-", e.to_string()))];
    }
    let lines = LineIndex::new(&bytes);
    let mut reader =
        csv::ReaderBuilder::new().trim(csv::Trim::All).flexible(false).from_reader(&bytes[..]);
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return vec![Err(csv_error(1, "-", e.to_string()))],
    };
    let find = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let (Some(p_col), Some(b_col), Some(c_col)) =
        (find("provider"), find("board"), find("company"))
    else {
        return vec![Err(csv_error(
            1,
            "-",
            "the header must name the columns provider, board, company",
        ))];
    };
    let r_col = find("region");
    let mut out = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                out.push(Err(csv_error(lines.of(e.position()), "-", e.to_string())));
                continue;
            }
        };
        let line = lines.of(record.position());
        let field = |i: usize| record.get(i).unwrap_or_default();
        out.push(row(
            line,
            field(p_col),
            field(b_col),
            r_col.map(field).unwrap_or_default(),
            field(c_col),
        ));
    }
    out
}

fn row(
    line: u64,
    provider: &str,
    board: &str,
    region: &str,
    company: &str,
) -> Result<BoardRow, IngestError> {
    let provider =
        Provider::parse(provider).map_err(|e| csv_error(line, "provider", e.to_string()))?;
    let known = provider_keys();
    if !known.contains(&provider.as_str()) {
        return Err(csv_error(
            line,
            "provider",
            format!("unknown provider {provider:?}; known: {}", known.join(", ")),
        ));
    }
    let key = BoardKey::new(provider, board, region).map_err(|e| {
        let column = if e.to_string().contains("region") { "region" } else { "board" };
        csv_error(line, column, e.to_string())
    })?;
    validate_board(&key).map_err(|e| csv_error(line, "board", e.to_string()))?;
    if company.is_empty() {
        return Err(csv_error(line, "company", "must not be empty"));
    }
    Ok(BoardRow { line, key, company: company.to_owned() })
}

/// One recognised catalogue row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueRow {
    /// 1-based line number in the file.
    pub line: u64,
    /// The board the URL names.
    pub key: BoardKey,
    /// The company's display name (the `name` column).
    pub company: String,
    /// The board's canonical careers URL.
    pub url: String,
}

/// Parses a catalogue file (`name,url`, any order, other columns ignored): one result per data
/// row, in file order; a missing header is one error for line 1. A URL recognition refuses is
/// an error naming the line, the `url` column and the reason.
pub fn parse_catalogue_csv(text: &str) -> Vec<Result<CatalogueRow, IngestError>> {
    // The bundled catalogue's files are CRLF: lines come from byte offsets ([`LineIndex`]).
    let lines = LineIndex::new(text.as_bytes());
    let mut reader =
        csv::ReaderBuilder::new().trim(csv::Trim::All).flexible(false).from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return vec![Err(csv_error(1, "-", e.to_string()))],
    };
    let find = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let (Some(n_col), Some(u_col)) = (find("name"), find("url")) else {
        return vec![Err(csv_error(1, "-", "the header must name the columns name, url"))];
    };
    reader
        .records()
        .map(|record| {
            let record =
                record.map_err(|e| csv_error(lines.of(e.position()), "-", e.to_string()))?;
            let line = lines.of(record.position());
            let company = record.get(n_col).unwrap_or_default();
            let url = record.get(u_col).unwrap_or_default();
            let recognized =
                crate::recognize(url).map_err(|e| csv_error(line, "url", reason(e)))?;
            let key = recognized.key().map_err(|e| csv_error(line, "url", e.to_string()))?;
            let company = if company.is_empty() { key.board.clone() } else { company.to_owned() };
            Ok(CatalogueRow { line, key, company, url: recognized.canonical_url })
        })
        .collect()
}

/// The reason of a recognition refusal, with the URL it names.
fn reason(e: IngestError) -> String {
    match e {
        IngestError::Unrecognised { url, reason } => format!("{url}: {reason}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: Bad import row
    #[test]
    fn rows_and_errors() {
        let file = "provider,board,company\n\
                    ashby,cartesia,Cartesia\n\
                    nosuch,x,X\n\
                    lever,acme,\n\
                    recruitee,evil.com/x,Evil\n\
                    workday,acme.wd1.myworkdayjobs.com/Careers,Acme\n";
        let rows = parse_board_csv(file.as_bytes());
        assert_eq!(rows.len(), 5);
        let ok = rows[0].as_ref().unwrap();
        assert_eq!(
            (ok.line, ok.key.board.as_str(), ok.company.as_str()),
            (2, "cartesia", "Cartesia")
        );
        let err = |i: usize| rows[i].as_ref().unwrap_err().to_string();
        assert!(err(1).starts_with("line 3, column provider"), "{}", err(1));
        assert!(err(2).starts_with("line 4, column company"), "{}", err(2));
        assert!(err(3).starts_with("line 5, column board"), "{}", err(3));
        assert_eq!(rows[4].as_ref().unwrap().key.board, "acme.wd1.myworkdayjobs.com/Careers");
        // The same file with CRLF line ends names the same lines.
        let crlf = parse_board_csv(file.replace('\n', "\r\n").as_bytes());
        let lines: Vec<String> = crlf
            .iter()
            .map(|r| match r {
                Ok(row) => row.line.to_string(),
                Err(e) => e.to_string().split(',').next().unwrap_or_default().to_owned(),
            })
            .collect();
        assert_eq!(lines, ["2", "line 3", "line 4", "line 5", "6"], "{crlf:?}");
    }

    #[test]
    fn header_and_shape_errors() {
        let rows = parse_board_csv("provider,company\nashby,X\n".as_bytes());
        assert_eq!(rows.len(), 1);
        assert!(rows[0].as_ref().unwrap_err().to_string().starts_with("line 1,"));
        let rows = parse_board_csv(
            "company,board,provider,region\nAcme,acme,lever,eu\nB,b,lever\n".as_bytes(),
        );
        assert_eq!(rows[0].as_ref().unwrap().key.region, "eu");
        assert!(rows[1].as_ref().unwrap_err().to_string().starts_with("line 3, column -"));
    }

    #[test]
    fn catalogue_rows_are_recognised_or_refused_by_line() {
        let file = "name,url\n\
                    Cartesia,https://jobs.ashbyhq.com/cartesia\n\
                    Acme,https://jobs.example.net/acme\n\
                    ,https://jobs.lever.co/nameless\n\
                    Bad,not a url at all\n";
        let rows = parse_catalogue_csv(file);
        let crlf = parse_catalogue_csv(
            "name,url\r\nA,https://jobs.example.net/a\r\nB,https://jobs.example.net/b\r\n",
        );
        let err = |i: usize| crlf[i].as_ref().unwrap_err().to_string();
        assert!(err(0).starts_with("line 2,") && err(1).starts_with("line 3,"), "{crlf:?}");
        assert_eq!(rows.len(), 4);
        let ok = rows[0].as_ref().unwrap();
        assert_eq!(
            (ok.line, ok.key.to_string(), ok.company.as_str()),
            (2, "ashby/cartesia".into(), "Cartesia")
        );
        assert_eq!(ok.url, "https://jobs.ashbyhq.com/cartesia");
        let err = rows[1].as_ref().unwrap_err().to_string();
        assert!(err.starts_with("line 3, column url") && err.contains("jobs.example.net"), "{err}");
        assert_eq!(rows[2].as_ref().unwrap().company, "nameless", "no name: the board names it");
        assert!(rows[3].as_ref().unwrap_err().to_string().starts_with("line 5, column url"));
        let rows = parse_catalogue_csv("company,board\nA,b\n");
        assert!(rows[0].as_ref().unwrap_err().to_string().starts_with("line 1,"));
    }
}
