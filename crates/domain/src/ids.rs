//! Opaque numeric identifiers. Internal ids never leave the server: jobs are addressed by
//! their [`PublicSlug`](crate::PublicSlug) on the wire.

use crate::DomainError;

macro_rules! numeric_id {
    ($(#[$meta:meta])* $name:ident, $field:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(i64);

        impl $name {
            /// Wraps a positive id as stored by the database.
            pub fn new(raw: i64) -> Result<Self, DomainError> {
                if raw > 0 {
                    Ok(Self(raw))
                } else {
                    Err(DomainError::invalid($field, raw.to_string(), "must be a positive integer"))
                }
            }

            /// The raw value, for binding into queries.
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl std::str::FromStr for $name {
            type Err = DomainError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let raw: i64 = s
                    .trim()
                    .parse()
                    .map_err(|_| DomainError::invalid($field, s, "must be a positive integer"))?;
                Self::new(raw)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

numeric_id! {
    /// A user account. Tools receive the session owner's `UserId`, never a credential.
    UserId, "user_id"
}

numeric_id! {
    /// A minted API key: addresses it under `/me/api-keys/{id}`, always with its owner.
    ApiKeyId, "api_key_id"
}

numeric_id! {
    /// A row in `jobs`. Internal: never exposed over HTTP.
    JobId, "job_id"
}

numeric_id! {
    /// A row in `boards`. Internal.
    BoardId, "board_id"
}

numeric_id! {
    /// An application record: addresses it under `/me/applications/{id}` (always with its
    /// owner), for applications whose posting was pruned.
    ApplicationId, "application_id"
}

numeric_id! {
    /// A saved search, under `/me/saved-searches/{id}`, always with its owner.
    SavedSearchId, "saved_search_id"
}

numeric_id! {
    /// A saved search's subscription (one channel), under `/me/subscriptions/{id}`.
    SubscriptionId, "subscription_id"
}

numeric_id! {
    /// An entry of the notification history, under `/me/notifications/{id}`.
    NotificationId, "notification_id"
}

numeric_id! {
    /// An employment (job or project) of the experience bank, always with its owner.
    EmploymentId, "employment_id"
}

numeric_id! {
    /// An achievement ("atom") of the experience bank: what a CV bullet cites as its evidence.
    AtomId, "atom_id"
}

numeric_id! {
    /// A CV document (a base CV or a tailored copy), always with its owner.
    CvId, "cv_id"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_positive() {
        assert_eq!(UserId::new(7).map(UserId::get), Ok(7));
        assert!(UserId::new(0).is_err());
        assert!("-3".parse::<JobId>().is_err());
        assert!("abc".parse::<JobId>().unwrap_err().to_string().contains("job_id"));
        assert_eq!(" 42 ".parse::<JobId>().map(JobId::get), Ok(42));
    }
}
