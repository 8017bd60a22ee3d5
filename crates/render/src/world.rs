//! The compiler's view of one render: the standard library, the embedded fonts, the template
//! as the main source, the blocks both templates share (`common.typ`) and the CV's JSON.
//! Nothing else exists: any other path, a package import included, is "not found".

use std::{
    sync::{Arc, LazyLock},
    time::{SystemTime, UNIX_EPOCH},
};

use freehire_cv::TemplateId;
use typst::{
    Library, LibraryExt, World,
    diag::{FileError, FileResult},
    foundations::{Bytes, Datetime, Duration},
    syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot},
    text::{Font, FontBook},
    utils::LazyHash,
};

/// The path the template reads the CV from (`json("/cv.json")`).
pub(crate) const DATA_PATH: &str = "/cv.json";

/// A template's source and the path it is compiled as.
struct Template {
    path: &'static str,
    text: &'static str,
}

const CLASSIC: Template =
    Template { path: "/classic.typ", text: include_str!("../templates/classic.typ") };
const SIDEBAR: Template =
    Template { path: "/sidebar.typ", text: include_str!("../templates/sidebar.typ") };
/// What both templates import (`#import "common.typ": *`).
const COMMON: Template =
    Template { path: "/common.typ", text: include_str!("../templates/common.typ") };

const fn template(id: TemplateId) -> &'static Template {
    match id {
        TemplateId::Classic => &CLASSIC,
        TemplateId::Sidebar => &SIDEBAR,
    }
}

/// An interned id for a project path. Paths are interned for the process's life (Typst keeps
/// at most 2^16), so only the fixed paths above are ever interned: one each.
fn file_id(path: &str) -> FileId {
    // The paths are constants above: a malformed one fails every render test.
    let vpath = VirtualPath::new(path).expect("a valid constant virtual path");
    RootedPath::new(VirtualRoot::Project, vpath).intern()
}

static DATA_ID: LazyLock<FileId> = LazyLock::new(|| file_id(DATA_PATH));

/// What every render shares, built once per [`crate::Renderer`]: the standard library, the
/// parsed embedded fonts and their book, and the templates' sources (their shared part too).
pub(crate) struct Assets {
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
    classic: Source,
    sidebar: Source,
    common: Source,
}

impl std::fmt::Debug for Assets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Assets").field("fonts", &self.fonts.len()).finish_non_exhaustive()
    }
}

impl Assets {
    /// The fonts compiled into the binary by `typst-assets`: no system font is ever read.
    pub(crate) fn embedded() -> Self {
        let fonts: Vec<Font> =
            typst_assets::fonts().flat_map(|data| Font::iter(Bytes::new(data))).collect();
        let source = |t: &Template| Source::new(file_id(t.path), t.text.to_owned());
        Self {
            library: LazyHash::new(Library::default()),
            book: LazyHash::new(FontBook::from_fonts(&fonts)),
            classic: source(template(TemplateId::Classic)),
            sidebar: source(template(TemplateId::Sidebar)),
            common: source(&COMMON),
            fonts,
        }
    }

    fn source(&self, id: TemplateId) -> &Source {
        match id {
            TemplateId::Classic => &self.classic,
            TemplateId::Sidebar => &self.sidebar,
        }
    }
}

/// One render's world: the shared assets, the template, the CV's JSON.
pub(crate) struct CvWorld {
    shared: Arc<Assets>,
    template: TemplateId,
    data: Bytes,
}

impl CvWorld {
    pub(crate) fn new(shared: Arc<Assets>, template: TemplateId, data: Vec<u8>) -> Self {
        Self { shared, template, data: Bytes::new(data) }
    }

    fn not_found(id: FileId) -> FileError {
        FileError::NotFound(id.vpath().get_without_slash().into())
    }
}

impl World for CvWorld {
    fn library(&self) -> &LazyHash<Library> {
        &self.shared.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &self.shared.book
    }

    fn main(&self) -> FileId {
        self.shared.source(self.template).id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        [self.shared.source(self.template), &self.shared.common]
            .into_iter()
            .find(|s| s.id() == id)
            .cloned()
            .ok_or_else(|| Self::not_found(id))
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == *DATA_ID { Ok(self.data.clone()) } else { self.source(id).map(Bytes::from_string) }
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.shared.fonts.get(index).cloned()
    }

    fn today(&self, offset: Option<Duration>) -> Option<Datetime> {
        let secs = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_secs();
        let offset_days = offset.map_or(0, |d| (d.seconds() / 86_400.0).floor() as i64);
        let days = i64::try_from(secs / 86_400).ok()? + offset_days;
        let (year, month, day) = civil_from_days(days);
        Datetime::from_ymd(year, month, day)
    }
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i32, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        i32::try_from(year).unwrap_or(i32::MAX),
        u8::try_from(month).unwrap_or(1),
        u8::try_from(day).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn templates_are_at_their_paths() {
        for id in TemplateId::ALL {
            assert!(template(id).path.ends_with(&format!("{}.typ", id.as_str())));
        }
    }
}
