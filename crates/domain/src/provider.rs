//! Source and board identity: [`Provider`], [`BoardKey`], and [`CountryCode`].

use crate::DomainError;

/// A provider (ATS platform or other source) key such as `greenhouse`, `lever` or `manual`:
/// 1–40 characters of lowercase ASCII letters, digits, `_` and `-`, starting with a letter.
/// The shape is validated before a key ever becomes a query value, an argv element or a path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct Provider(String);

impl Provider {
    /// The source of jobs added by hand.
    pub const MANUAL: &'static str = "manual";

    /// Parses a provider key.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let ok = (1..=40).contains(&raw.len())
            && raw.starts_with(|c: char| c.is_ascii_lowercase())
            && raw
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
        if ok {
            Ok(Self(raw.to_owned()))
        } else {
            Err(DomainError::invalid(
                "provider",
                raw,
                "must be 1-40 lowercase letters, digits, '_' or '-', starting with a letter",
            ))
        }
    }

    /// The key text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is the hand-entered source.
    pub fn is_manual(&self) -> bool {
        self.0 == Self::MANUAL
    }
}

impl std::str::FromStr for Provider {
    type Err = DomainError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A board's identity: provider, the board's key on that provider, and the provider region
/// (e.g. Lever's `eu`; empty when the provider has one region).
///
/// Two keys name the same board when provider and region are equal and the boards are equal
/// ignoring ASCII case ([`BoardKey::identity`]), mirroring the unique index
/// `(provider, lower(board), region)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct BoardKey {
    /// The platform.
    pub provider: Provider,
    /// The board's key on the platform (a slug, a tenant, `host/site` for Workday, …).
    pub board: String,
    /// The provider region, or empty.
    pub region: String,
}

impl BoardKey {
    /// Longest board key accepted.
    pub const MAX_BOARD_LEN: usize = 300;

    /// Builds a key, trimming the board and region; an empty board or one with whitespace or
    /// control characters inside is rejected.
    pub fn new(provider: Provider, board: &str, region: &str) -> Result<Self, DomainError> {
        let board = board.trim();
        if board.is_empty() {
            return Err(DomainError::invalid("board", board, "must not be empty"));
        }
        if board.len() > Self::MAX_BOARD_LEN {
            return Err(DomainError::invalid("board", board, "is longer than 300 characters"));
        }
        if board.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(DomainError::invalid(
                "board",
                board,
                "must not contain spaces or control characters",
            ));
        }
        let region = region.trim();
        if !region
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        {
            return Err(DomainError::invalid(
                "region",
                region,
                "must be lowercase letters, digits, '_' or '-'",
            ));
        }
        Ok(Self { provider, board: board.to_owned(), region: region.to_owned() })
    }

    /// The fold under which two spellings are the same board: `(provider, lowercase board, region)`.
    pub fn identity(&self) -> (String, String, String) {
        (self.provider.0.clone(), self.board.to_ascii_lowercase(), self.region.clone())
    }

    /// The prefix of the namespaced external ids of this board's jobs: `<board>:`.
    pub fn external_id_prefix(&self) -> String {
        format!("{}:", self.board)
    }
}

impl std::fmt::Display for BoardKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.region.is_empty() {
            write!(f, "{}/{}", self.provider, self.board)
        } else {
            write!(f, "{}/{}@{}", self.provider, self.board, self.region)
        }
    }
}

/// An ISO 3166-1 alpha-2 country code, stored lowercase (`de`, `us`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct CountryCode(String);

impl CountryCode {
    /// Parses two ASCII letters, any case.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let raw = raw.trim();
        if raw.len() == 2 && raw.bytes().all(|b| b.is_ascii_alphabetic()) {
            Ok(Self(raw.to_ascii_lowercase()))
        } else {
            Err(DomainError::invalid(
                "countries",
                raw,
                "must be an ISO 3166-1 alpha-2 code such as \"de\"",
            ))
        }
    }

    /// The lowercase code.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> serde::Deserialize<'de> for CountryCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Self::parse(&raw).map_err(serde::de::Error::custom)
    }
}

impl<'de> serde::Deserialize<'de> for Provider {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Self::parse(&raw).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_shape() {
        assert!(Provider::parse("greenhouse").is_ok());
        assert!(Provider::parse("oracle_orc").is_ok());
        for bad in ["", "Greenhouse", "1abc", "a b", "a/b", "x;rm -rf"] {
            assert!(Provider::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn board_identity_folds_case() {
        let p = Provider::parse("ashby").unwrap();
        let a = BoardKey::new(p.clone(), " Windsurf ", "").unwrap();
        let b = BoardKey::new(p, "windsurf", "").unwrap();
        assert_eq!(a.board, "Windsurf");
        assert_eq!(a.identity(), b.identity());
        assert_eq!(a.external_id_prefix(), "Windsurf:");
    }

    #[test]
    fn board_rejects_empty_and_spaces() {
        let p = Provider::parse("lever").unwrap();
        assert!(BoardKey::new(p.clone(), "  ", "").is_err());
        assert!(BoardKey::new(p.clone(), "a b", "").is_err());
        assert!(BoardKey::new(p, "acme", "EU").is_err());
    }

    #[test]
    fn country_codes() {
        assert_eq!(CountryCode::parse("DE").unwrap().as_str(), "de");
        assert!(CountryCode::parse("deu").is_err());
        assert!(CountryCode::parse("d1").is_err());
    }
}
