//! Plan and gateway-key rows as read: the tier columns of an account and its stored key.

use chrono::{DateTime, Utc};
use freehire_domain::plan::{Tier, tier_of};
use secrecy::SecretString;

use crate::{StoredKey, bind::Stamp};

/// `pro_until`, `ultra_until` of an account.
#[derive(sqlx::FromRow)]
pub(crate) struct TierRecord {
    pro_until: Option<Stamp>,
    ultra_until: Option<Stamp>,
}

impl TierRecord {
    /// The tier at `now`; an account that does not exist is free.
    pub fn tier(row: Option<Self>, now: DateTime<Utc>) -> Tier {
        row.map_or(Tier::Free, |r| {
            tier_of(r.pro_until.map(Into::into), r.ultra_until.map(Into::into), now)
        })
    }
}

/// A charge's reads ([`CHARGE_READS`](crate::sql::plans::CHARGE_READS)): the reference's
/// standing charges and the account's tier columns.
#[derive(sqlx::FromRow)]
pub(crate) struct ChargeRecord {
    charged: i64,
    #[sqlx(flatten)]
    tier: TierRecord,
}

impl ChargeRecord {
    /// The standing charges (0 without a row) and the tier columns (none without a row: an
    /// account that does not exist is free).
    pub fn split(row: Option<Self>) -> (i64, Option<TierRecord>) {
        row.map_or((0, None), |r| (r.charged, Some(r.tier)))
    }
}

/// [`CHARGE_SNAPSHOT`](crate::sql::plans::CHARGE_SNAPSHOT)'s row: the day's count and a
/// [`ChargeRecord`].
#[derive(sqlx::FromRow)]
pub(crate) struct ChargeSnapshot {
    pub used: i64,
    #[sqlx(flatten)]
    pub reads: ChargeRecord,
}

impl ChargeSnapshot {
    /// The day's count, the standing charges and the tier columns (see
    /// [`ChargeRecord::split`]).
    pub fn split(row: Option<Self>) -> (i64, i64, Option<TierRecord>) {
        match row {
            Some(r) => {
                let (charged, tier) = ChargeRecord::split(Some(r.reads));
                (r.used, charged, tier)
            }
            None => (0, 0, None),
        }
    }
}

/// `llm_key`, `llm_key_id` of an account.
#[derive(sqlx::FromRow)]
pub(crate) struct KeyRecord {
    llm_key: Option<String>,
    llm_key_id: Option<String>,
}

impl KeyRecord {
    /// The stored key, if any (an empty secret reads as none).
    pub fn into_key(self) -> Option<StoredKey> {
        let secret = self.llm_key.filter(|s| !s.is_empty())?;
        Some(StoredKey {
            secret: SecretString::from(secret),
            id: self.llm_key_id.filter(|s| !s.is_empty()),
        })
    }
}
