//! Dates on a CV line: "Mar 2021 – Present", "2017 - 2019", "03/2018 – 06/2020",
//! "2019-03 to now", "September 2016 — June 2018", "since 2020", a lone "2016".
//!
//! [`find_range`] finds the first range on a line (a lone date when there is no range) and the
//! byte span it covers, so the caller can cut it out of an entry's heading.

/// A month and year, or a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatePoint {
    /// The year (1900–2100).
    pub year: i32,
    /// The month (1–12) when the line says it.
    pub month: Option<u8>,
}

impl DatePoint {
    /// As a CV shows it: "Mar 2021", or "2021".
    pub fn display(self) -> String {
        match self.month {
            Some(m) => format!("{} {}", MONTHS[usize::from(m) - 1].1, self.year),
            None => self.year.to_string(),
        }
    }
}

/// How a range ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// On this date.
    At(DatePoint),
    /// It has not ended ("Present", "now", "since 2020").
    Present,
    /// The line gives one date only.
    Unsaid,
}

/// A range found on a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    /// Its start.
    pub start: DatePoint,
    /// Its end.
    pub end: End,
    /// The byte span of the line it covers.
    pub span: (usize, usize),
}

const MONTHS: [(&str, &str); 12] = [
    ("jan", "Jan"),
    ("feb", "Feb"),
    ("mar", "Mar"),
    ("apr", "Apr"),
    ("may", "May"),
    ("jun", "Jun"),
    ("jul", "Jul"),
    ("aug", "Aug"),
    ("sep", "Sep"),
    ("oct", "Oct"),
    ("nov", "Nov"),
    ("dec", "Dec"),
];

const FULL_MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

const PRESENT: &[&str] =
    &["present", "current", "currently", "now", "today", "ongoing", "date", "heute", "aujourd'hui"];
const TO: &[&str] = &["-", "–", "—", "−", "to", "until", "till", "through", "->", "→", "bis"];
const SINCE: &[&str] = &["since", "from", "seit"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Month(u8),
    Year(i32),
    Point(DatePoint),
    To,
    Present,
    Since,
    Other,
}

fn month_of(word: &str) -> Option<u8> {
    let w = word.trim_end_matches('.').to_lowercase();
    if w.len() < 3 {
        return None;
    }
    if let Some(i) = FULL_MONTHS.iter().position(|m| *m == w) {
        return Some(i as u8 + 1);
    }
    if w == "sept" {
        return Some(9);
    }
    MONTHS.iter().position(|(short, _)| *short == w).map(|i| i as u8 + 1)
}

fn year_of(s: &str) -> Option<i32> {
    if s.len() != 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: i32 = s.parse().ok()?;
    (1900..=2100).contains(&y).then_some(y)
}

fn numeric_point(s: &str) -> Option<DatePoint> {
    let (a, b) = s.split_once(['/', '.', '-'])?;
    let month = |m: &str| -> Option<u8> {
        let m: u8 = (m.len() <= 2).then(|| m.parse().ok()).flatten()?;
        (1..=12).contains(&m).then_some(m)
    };
    if let (Some(m), Some(y)) = (month(a), year_of(b)) {
        return Some(DatePoint { year: y, month: Some(m) });
    }
    if let (Some(y), Some(m)) = (year_of(a), month(b)) {
        return Some(DatePoint { year: y, month: Some(m) });
    }
    None
}

fn classify(word: &str) -> Tok {
    let w = word.trim_matches(|c: char| matches!(c, ',' | ';' | '(' | ')' | '[' | ']' | '|'));
    let lower = w.to_lowercase();
    if TO.contains(&lower.as_str()) {
        return Tok::To;
    }
    if PRESENT.contains(&lower.trim_end_matches('.')) {
        return Tok::Present;
    }
    if SINCE.contains(&lower.as_str()) {
        return Tok::Since;
    }
    if let Some(y) = year_of(w) {
        return Tok::Year(y);
    }
    // "'21" after a month name is too loose to trust; only four-digit years count.
    if let Some(p) = numeric_point(w) {
        return Tok::Point(p);
    }
    if let Some(m) = month_of(w) {
        return Tok::Month(m);
    }
    Tok::Other
}

/// Splits `line` into words with their byte spans; dashes become words of their own, except
/// inside a numeric date ("2019-03", "03-2019").
fn words(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let is_dash = |c: char| matches!(c, '–' | '—' | '−');
    for (i, c) in line.char_indices() {
        if c.is_whitespace() || is_dash(c) {
            if let Some(s) = start.take() {
                out.push((s, i));
            }
            if is_dash(c) {
                out.push((i, i + c.len_utf8()));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, line.len()));
    }
    // Brackets and commas around a word are not part of it.
    let edge = |c: u8| matches!(c, b'(' | b')' | b'[' | b']' | b',' | b';' | b'|');
    let out: Vec<(usize, usize)> = out
        .into_iter()
        .filter_map(|(mut s, mut e)| {
            let b = line.as_bytes();
            while s < e && edge(b[s]) {
                s += 1;
            }
            while e > s && edge(b[e - 1]) {
                e -= 1;
            }
            (s < e).then_some((s, e))
        })
        .collect();
    // A hyphen joining two parts that are not one numeric date ("2017-2019", "2019-Present")
    // separates them.
    let mut split = Vec::with_capacity(out.len());
    for (s, e) in out {
        let w = &line[s..e];
        match w.find('-') {
            Some(at) if at > 0 && at + 1 < w.len() && numeric_point(w).is_none() => {
                let (left, right) = (&w[..at], &w[at + 1..]);
                if classify(left) != Tok::Other || classify(right) != Tok::Other {
                    split.push((s, s + at));
                    split.push((s + at, s + at + 1));
                    split.push((s + at + 1, e));
                    continue;
                }
                split.push((s, e));
            }
            _ => split.push((s, e)),
        }
    }
    split
}

/// A date starting at word `i`: the point and the index of its last word.
fn point_at(toks: &[Tok], i: usize) -> Option<(DatePoint, usize)> {
    match toks.get(i)? {
        Tok::Year(y) => Some((DatePoint { year: *y, month: None }, i)),
        Tok::Point(p) => Some((*p, i)),
        Tok::Month(m) => match toks.get(i + 1)? {
            Tok::Year(y) => Some((DatePoint { year: *y, month: Some(*m) }, i + 1)),
            _ => None,
        },
        _ => None,
    }
}

/// The first date range on `line`, else its first lone date.
pub fn find_range(line: &str) -> Option<Range> {
    let spans = words(line);
    let toks: Vec<Tok> = spans.iter().map(|&(s, e)| classify(&line[s..e])).collect();
    let mut lone: Option<Range> = None;
    let mut i = 0;
    while i < toks.len() {
        let since = toks[i] == Tok::Since;
        let from = if since { i + 1 } else { i };
        let Some((start, last)) = point_at(&toks, from) else {
            i += 1;
            continue;
        };
        let span_to = |j: usize| (spans[i].0, spans[j].1);
        if since {
            return Some(Range { start, end: End::Present, span: span_to(last) });
        }
        if toks.get(last + 1) == Some(&Tok::To) {
            match toks.get(last + 2) {
                Some(Tok::Present) => {
                    return Some(Range { start, end: End::Present, span: span_to(last + 2) });
                }
                _ => {
                    if let Some((end, end_last)) = point_at(&toks, last + 2) {
                        let end = if end.year > start.year
                            || (end.year == start.year
                                && end.month.unwrap_or(12) >= start.month.unwrap_or(1))
                        {
                            End::At(end)
                        } else {
                            End::Unsaid
                        };
                        return Some(Range { start, end, span: span_to(end_last) });
                    }
                }
            }
        }
        if lone.is_none() {
            lone = Some(Range { start, end: End::Unsaid, span: span_to(last) });
        }
        i = last + 1;
    }
    lone
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(year: i32, month: Option<u8>) -> DatePoint {
        DatePoint { year, month }
    }

    #[test]
    fn ranges_in_the_usual_spellings() {
        let cases: &[(&str, DatePoint, End, &str)] = &[
            ("Mar 2021 – Present", p(2021, Some(3)), End::Present, "Mar 2021 – Present"),
            ("2017 - 2019", p(2017, None), End::At(p(2019, None)), "2017 - 2019"),
            ("2017-2019", p(2017, None), End::At(p(2019, None)), "2017-2019"),
            ("03/2018 – 06/2020", p(2018, Some(3)), End::At(p(2020, Some(6))), "03/2018 – 06/2020"),
            ("2019-03 to now", p(2019, Some(3)), End::Present, "2019-03 to now"),
            (
                "Acme (September 2016 — June 2018)",
                p(2016, Some(9)),
                End::At(p(2018, Some(6))),
                "September 2016 — June 2018",
            ),
            ("Since 2020", p(2020, None), End::Present, "Since 2020"),
            (
                "Jan. 2015–Dec. 2016",
                p(2015, Some(1)),
                End::At(p(2016, Some(12))),
                "Jan. 2015–Dec. 2016",
            ),
            ("Sept 2019 - Current", p(2019, Some(9)), End::Present, "Sept 2019 - Current"),
            ("BSc, Leeds, 2016", p(2016, None), End::Unsaid, "2016"),
        ];
        for (line, start, end, text) in cases {
            let r = find_range(line).unwrap_or_else(|| panic!("{line}: no range"));
            assert_eq!((r.start, r.end), (*start, *end), "{line}");
            assert_eq!(&line[r.span.0..r.span.1], *text, "{line}");
        }
    }

    #[test]
    fn no_dates_no_range_and_backwards_ends_are_dropped() {
        assert_eq!(find_range("Senior Engineer at Acme"), None);
        assert_eq!(find_range("May the best one win"), None);
        assert_eq!(find_range("Cut costs by 2500 dollars"), None);
        let r = find_range("2020 - 2018").unwrap();
        assert_eq!(r.end, End::Unsaid);
        assert_eq!(p(2021, Some(3)).display(), "Mar 2021");
        assert_eq!(p(2021, None).display(), "2021");
    }
}
