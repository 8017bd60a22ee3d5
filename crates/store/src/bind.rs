//! Values that each backend stores in its own way, as sqlx types with one encoding per
//! database, so a statement and its binds read the same on both:
//!
//! - [`Stamp`]: a timestamp. SQLite stores RFC 3339 UTC text with microseconds, fixed width
//!   (`2026-11-05T08:09:10.123456Z`), so text order is time order; the bytes are exactly those
//!   the store has always written, so existing databases stay readable and ordered.
//!   PostgreSQL stores `timestamptz`.
//! - [`List`]: a list (of text values or of row ids) bound as one parameter. SQLite gets JSON text
//!   (read with `json_each`, stored as the JSON array columns); PostgreSQL an array (`text[]`,
//!   `bigint[]`, read with `= ANY` / `UNNEST`).
//! - [`Uid`]: a UUID. SQLite stores its hyphenated lower-case text (so text order is the
//!   UUID's byte order), PostgreSQL `uuid`.
//! - [`JsonText`] and [`RawJson`]: JSON text written and read as it is, without a parse
//!   (SQLite text, PostgreSQL `jsonb`: what the server keeps is its own normal form, read back
//!   as text).
//! - [`StoredList`] and [`StoredJson`]: list and JSON columns as read. Decoding keeps the raw
//!   value and parses it later, so a stored value that no longer parses is
//!   [`StoreError::Corrupt`] naming its column, not a driver error.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Serialize, de::DeserializeOwned};
use sqlx::{
    Decode, Encode, Postgres, Sqlite, Type,
    encode::IsNull,
    error::BoxDynError,
    postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueRef},
    sqlite::{SqliteArgumentValue, SqliteTypeInfo, SqliteValueRef},
};

use crate::{Result, StoreError};

/// A point in time as the store keeps it (see the module docs for each backend's form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Stamp(pub DateTime<Utc>);

impl Stamp {
    /// The fixed-width text SQLite stores and JSON batches carry.
    pub fn text(self) -> String {
        self.0.to_rfc3339_opts(SecondsFormat::Micros, true)
    }

    /// Wraps an optional time.
    pub fn opt(t: Option<DateTime<Utc>>) -> Option<Self> {
        t.map(Self)
    }
}

impl From<Stamp> for DateTime<Utc> {
    fn from(s: Stamp) -> Self {
        s.0
    }
}

impl Serialize for Stamp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

impl Type<Sqlite> for Stamp {
    fn type_info() -> SqliteTypeInfo {
        <DateTime<Utc> as Type<Sqlite>>::type_info()
    }

    fn compatible(ty: &SqliteTypeInfo) -> bool {
        <DateTime<Utc> as Type<Sqlite>>::compatible(ty)
    }
}

impl<'q> Encode<'q, Sqlite> for Stamp {
    fn encode_by_ref(
        &self,
        args: &mut Vec<SqliteArgumentValue<'q>>,
    ) -> Result<IsNull, BoxDynError> {
        Encode::<Sqlite>::encode(self.text(), args)
    }
}

impl<'r> Decode<'r, Sqlite> for Stamp {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self(<DateTime<Utc> as Decode<Sqlite>>::decode(value)?))
    }
}

impl Type<Postgres> for Stamp {
    fn type_info() -> PgTypeInfo {
        <DateTime<Utc> as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <DateTime<Utc> as Type<Postgres>>::compatible(ty)
    }
}

impl Encode<'_, Postgres> for Stamp {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        Encode::<Postgres>::encode_by_ref(&self.0, buf)
    }
}

impl<'r> Decode<'r, Postgres> for Stamp {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self(<DateTime<Utc> as Decode<Postgres>>::decode(value)?))
    }
}

/// A list bound as one parameter: JSON text on SQLite, an array on PostgreSQL.
#[derive(Clone, Copy, Debug)]
pub(crate) struct List<'a, T>(pub &'a [T]);

impl<T> Type<Sqlite> for List<'_, T> {
    fn type_info() -> SqliteTypeInfo {
        <String as Type<Sqlite>>::type_info()
    }
}

impl<'q, T: Serialize> Encode<'q, Sqlite> for List<'_, T> {
    fn encode_by_ref(
        &self,
        args: &mut Vec<SqliteArgumentValue<'q>>,
    ) -> Result<IsNull, BoxDynError> {
        Encode::<Sqlite>::encode(serde_json::to_string(self.0)?, args)
    }
}

impl<T: PgHasArrayType> Type<Postgres> for List<'_, T> {
    fn type_info() -> PgTypeInfo {
        T::array_type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        T::array_compatible(ty)
    }
}

impl<'q, T> Encode<'q, Postgres> for List<'_, T>
where
    T: Encode<'q, Postgres> + Type<Postgres>,
{
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        Encode::<Postgres>::encode_by_ref(&self.0, buf)
    }
}

/// A UUID as the store keeps it (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Uid(pub uuid::Uuid);

impl Type<Sqlite> for Uid {
    fn type_info() -> SqliteTypeInfo {
        <String as Type<Sqlite>>::type_info()
    }
}

impl<'q> Encode<'q, Sqlite> for Uid {
    fn encode_by_ref(
        &self,
        args: &mut Vec<SqliteArgumentValue<'q>>,
    ) -> Result<IsNull, BoxDynError> {
        Encode::<Sqlite>::encode(self.0.hyphenated().to_string(), args)
    }
}

impl<'r> Decode<'r, Sqlite> for Uid {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self(uuid::Uuid::parse_str(<&str as Decode<Sqlite>>::decode(value)?)?))
    }
}

impl Type<Postgres> for Uid {
    fn type_info() -> PgTypeInfo {
        <uuid::Uuid as Type<Postgres>>::type_info()
    }
}

impl Encode<'_, Postgres> for Uid {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        Encode::<Postgres>::encode_by_ref(&self.0, buf)
    }
}

impl<'r> Decode<'r, Postgres> for Uid {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self(<uuid::Uuid as Decode<Postgres>>::decode(value)?))
    }
}

/// JSON text bound as it is: text on SQLite, `jsonb` on PostgreSQL (sent in the binary
/// format, version 1 followed by the text, which the server parses).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonText<'a>(pub &'a str);

impl Type<Sqlite> for JsonText<'_> {
    fn type_info() -> SqliteTypeInfo {
        <String as Type<Sqlite>>::type_info()
    }
}

impl<'q> Encode<'q, Sqlite> for JsonText<'_> {
    fn encode_by_ref(
        &self,
        args: &mut Vec<SqliteArgumentValue<'q>>,
    ) -> Result<IsNull, BoxDynError> {
        Encode::<Sqlite>::encode(self.0.to_owned(), args)
    }
}

impl Type<Postgres> for JsonText<'_> {
    fn type_info() -> PgTypeInfo {
        <sqlx::types::Json<()> as Type<Postgres>>::type_info()
    }
}

impl Encode<'_, Postgres> for JsonText<'_> {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        // The jsonb binary format: a version byte, then the text.
        buf.push(1);
        buf.extend_from_slice(self.0.as_bytes());
        Ok(IsNull::No)
    }
}

/// A JSON column read as its text, unparsed: the stored text on SQLite, the server's text
/// form of the `jsonb` value on PostgreSQL.
#[derive(Debug)]
pub(crate) struct RawJson(pub String);

impl Type<Sqlite> for RawJson {
    fn type_info() -> SqliteTypeInfo {
        <String as Type<Sqlite>>::type_info()
    }
}

impl<'r> Decode<'r, Sqlite> for RawJson {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self(<String as Decode<Sqlite>>::decode(value)?))
    }
}

impl Type<Postgres> for RawJson {
    fn type_info() -> PgTypeInfo {
        <sqlx::types::Json<()> as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <sqlx::types::Json<()> as Type<Postgres>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Postgres> for RawJson {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        let raw =
            <sqlx::types::Json<Box<serde_json::value::RawValue>> as Decode<Postgres>>::decode(
                value,
            )?;
        Ok(Self(raw.0.get().to_owned()))
    }
}

/// A text-list column as read: JSON text from SQLite, an array from PostgreSQL.
#[derive(Debug)]
pub(crate) enum StoredList {
    Json(String),
    Array(Vec<String>),
}

impl StoredList {
    /// The values; JSON that no longer parses is corrupt `column`.
    pub fn parse(self, column: &'static str) -> Result<Vec<String>> {
        match self {
            Self::Json(raw) => {
                serde_json::from_str(&raw).map_err(|e| StoreError::corrupt(column, e))
            }
            Self::Array(values) => Ok(values),
        }
    }
}

impl Type<Sqlite> for StoredList {
    fn type_info() -> SqliteTypeInfo {
        <String as Type<Sqlite>>::type_info()
    }
}

impl<'r> Decode<'r, Sqlite> for StoredList {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self::Json(<String as Decode<Sqlite>>::decode(value)?))
    }
}

impl Type<Postgres> for StoredList {
    fn type_info() -> PgTypeInfo {
        <Vec<String> as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <Vec<String> as Type<Postgres>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Postgres> for StoredList {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self::Array(<Vec<String> as Decode<Postgres>>::decode(value)?))
    }
}

/// A JSON column as read: text from SQLite, `jsonb` from PostgreSQL.
#[derive(Debug)]
pub(crate) enum StoredJson {
    Text(String),
    Value(serde_json::Value),
}

impl StoredJson {
    /// The value; JSON that no longer parses as `T` is corrupt `column`.
    pub fn parse<T: DeserializeOwned>(self, column: &'static str) -> Result<T> {
        match self {
            Self::Text(raw) => serde_json::from_str(&raw),
            Self::Value(value) => serde_json::from_value(value),
        }
        .map_err(|e| StoreError::corrupt(column, e))
    }
}

impl Type<Sqlite> for StoredJson {
    fn type_info() -> SqliteTypeInfo {
        <String as Type<Sqlite>>::type_info()
    }
}

impl<'r> Decode<'r, Sqlite> for StoredJson {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self::Text(<String as Decode<Sqlite>>::decode(value)?))
    }
}

impl Type<Postgres> for StoredJson {
    fn type_info() -> PgTypeInfo {
        <serde_json::Value as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <serde_json::Value as Type<Postgres>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Postgres> for StoredJson {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self::Value(<serde_json::Value as Decode<Postgres>>::decode(value)?))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::TimeZone;

    use super::*;

    #[test]
    fn sqlite_text_is_the_fixed_width_form_the_store_always_wrote() {
        let t = Utc.with_ymd_and_hms(2026, 11, 5, 8, 9, 10).unwrap();
        assert_eq!(Stamp(t).text(), "2026-11-05T08:09:10.000000Z");
        let t = t + chrono::Duration::microseconds(123_456);
        assert_eq!(Stamp(t).text(), "2026-11-05T08:09:10.123456Z");
        assert_eq!(serde_json::to_string(&Stamp(t)).unwrap(), "\"2026-11-05T08:09:10.123456Z\"");
    }

    #[test]
    fn a_list_that_no_longer_parses_is_corrupt() {
        let err = StoredList::Json("[1".into()).parse("skills");
        assert!(matches!(err, Err(StoreError::Corrupt { column: "skills", .. })));
        let ok = StoredList::Json(r#"["rust"]"#.into()).parse("skills").unwrap();
        assert_eq!(ok, ["rust"]);
    }
}
