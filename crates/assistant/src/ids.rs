//! The session id: opaque, random, never sequential.

use std::fmt;
use std::str::FromStr;

/// A session's id (a random UUID).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct SessionId(uuid::Uuid);

impl SessionId {
    /// A new random id.
    pub fn random() -> Self {
        Self(uuid::Uuid::new_v4())
    }

    /// Wraps an id read from storage.
    pub const fn from_uuid(id: uuid::Uuid) -> Self {
        Self(id)
    }

    /// The UUID, for binding into queries.
    pub const fn as_uuid(&self) -> &uuid::Uuid {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for SessionId {
    type Err = uuid::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        uuid::Uuid::parse_str(s.trim()).map(Self)
    }
}
