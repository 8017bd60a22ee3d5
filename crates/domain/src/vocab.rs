//! Closed vocabularies (reference §14) as enums.
//!
//! Every vocabulary has `parse` (exact, lowercase wire value), `as_str`, `ALL`, and
//! serde/`FromStr`/`Display` in terms of those. An unknown value is rejected with an error that
//! names the vocabulary and lists the allowed values, so the message can be shown as it is.

use crate::DomainError;

macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $name:ident, $field:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in vocabulary order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The vocabulary's name as used in field names and error messages.
            pub const FIELD: &'static str = $field;

            /// The wire value.
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }

            /// Parses an exact wire value; anything else is an error naming the allowed values.
            pub fn parse(value: &str) -> Result<Self, DomainError> {
                match value {
                    $($wire => Ok($name::$variant),)+
                    _ => Err(DomainError::UnknownValue {
                        field: $field,
                        value: value.to_owned(),
                        allowed: Self::allowed(),
                    }),
                }
            }

            /// The allowed wire values, comma-separated (for error messages and docs).
            pub fn allowed() -> String {
                [$($wire),+].join(", ")
            }
        }

        impl std::str::FromStr for $name {
            type Err = DomainError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let raw = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                Self::parse(&raw).map_err(serde::de::Error::custom)
            }
        }
    };
}

vocabulary! {
    /// Where the work happens.
    WorkMode, "work_mode" { Remote = "remote", Hybrid = "hybrid", Onsite = "onsite" }
}

vocabulary! {
    /// Hiring regions. A bare "Remote" is not `Global`: it has no region at all (filter value
    /// `none`, which is a query concept, not a region).
    Region, "regions" {
        Global = "global", NorthAmerica = "north_america", Latam = "latam", Eu = "eu", Uk = "uk",
        Mena = "mena", Africa = "africa", Apac = "apac", Cis = "cis",
    }
}

vocabulary! {
    /// Seniority grade.
    Seniority, "seniority" {
        Intern = "intern", Junior = "junior", Middle = "middle", Senior = "senior", Lead = "lead",
        Staff = "staff", Principal = "principal", CLevel = "c_level",
    }
}

vocabulary! {
    /// Kind of contract.
    EmploymentType, "employment_type" {
        FullTime = "full_time", PartTime = "part_time", Contract = "contract",
        Internship = "internship", Fellowship = "fellowship",
    }
}

vocabulary! {
    /// The period a salary figure is quoted per.
    SalaryPeriod, "salary_period" { Year = "year", Month = "month", Day = "day", Hour = "hour" }
}

vocabulary! {
    /// Required English level (CEFR, plus none and native).
    EnglishLevel, "english_level" {
        None = "none", A1 = "a1", A2 = "a2", B1 = "b1", B2 = "b2", C1 = "c1", C2 = "c2",
        Native = "native",
    }
}

vocabulary! {
    /// Required education level.
    EducationLevel, "education_level" {
        None = "none", Bachelor = "bachelor", Master = "master", Phd = "phd",
    }
}

vocabulary! {
    /// Job category. Its tech/non-tech partition drives `is_tech` (see [`Category::is_tech`]).
    Category, "category" {
        SoftwareEngineering = "software_engineering", Backend = "backend", Frontend = "frontend",
        Fullstack = "fullstack", Mobile = "mobile", Devops = "devops", Sre = "sre",
        NetworkEngineering = "network_engineering", DataEngineering = "data_engineering",
        DataScience = "data_science", DataAnalytics = "data_analytics", MlAi = "ml_ai",
        AiEngineering = "ai_engineering", Qa = "qa", Security = "security",
        Hardware = "hardware", Embedded = "embedded", Blockchain = "blockchain",
        Architecture = "architecture", Design = "design", Creative = "creative",
        EngineeringDesign = "engineering_design",
        IndustrialEngineering = "industrial_engineering", Product = "product",
        ProjectManagement = "project_management", Management = "management",
        Marketing = "marketing", Sales = "sales", Support = "support",
        BusinessAnalysis = "business_analysis", SolutionsEngineering = "solutions_engineering",
        DeveloperRelations = "developer_relations", TechnicalWriting = "technical_writing",
        Recruiting = "recruiting", Hr = "hr", Finance = "finance", Legal = "legal",
        Operations = "operations", CustomerSuccess = "customer_success", Other = "other",
    }
}

impl Category {
    /// What the category says about `is_tech`: `Some(false)` for the non-tech subset,
    /// `None` for `other` (it settles nothing), `Some(true)` for the rest.
    pub const fn is_tech(self) -> Option<bool> {
        use Category::*;
        match self {
            Marketing
            | Sales
            | Support
            | Management
            | Recruiting
            | Hr
            | Finance
            | Legal
            | Operations
            | CustomerSuccess
            | EngineeringDesign
            | IndustrialEngineering => Some(false),
            Other => None,
            _ => Some(true),
        }
    }
}

vocabulary! {
    /// Curation status of a board.
    BoardStatus, "board status" {
        /// Crawled but unproven.
        Pending = "pending",
        /// Its first crawl without a board-level error succeeded.
        Active = "active",
        /// Failed validation; kept with a reason.
        Rejected = "rejected",
        /// Set by a curator. Boards are never deleted.
        Retired = "retired",
    }
}

vocabulary! {
    /// What kind of failure stopped a board's crawl: what an operator reads first to know
    /// whether the board moved, the network failed, the platform blocked us or its answer
    /// changed shape.
    FailureClass, "error_class" {
        /// The host name did not resolve.
        Dns = "dns",
        /// The connection was refused, reset or unreachable.
        Connect = "connect",
        /// The TLS handshake failed (certificate, protocol).
        Tls = "tls",
        /// No answer within the client's timeout.
        Timeout = "timeout",
        /// The connection broke mid-answer.
        Network = "network",
        /// A non-2xx answer after retries (the message names the status).
        HttpStatus = "http_status",
        /// The platform says the board does not exist (404/410 on the listing, or moved).
        Gone = "gone",
        /// An HTML page where JSON or XML was expected: a block, login or challenge page.
        BlockPage = "block_page",
        /// The answer did not have the expected shape (the message names the field).
        Parse = "parse",
        /// The answer was larger than the body cap.
        TooLarge = "too_large",
        /// The SSRF guard refused the address the host resolved to.
        Refused = "refused",
        /// The listing could not be proven complete (a page cap, a cursor that never ends).
        Incomplete = "incomplete",
        /// The board value is not one this provider can crawl.
        InvalidBoard = "invalid_board",
        /// The listing was read but storing it failed.
        Storage = "storage",
        /// Anything else (the message says what).
        Other = "other",
    }
}

vocabulary! {
    /// Why a job was closed (soft close; `closed_at` is set alongside).
    ClosedReason, "closed_reason" {
        /// The unseen sweep: not seen within the provider's grace.
        Unseen = "unseen",
        /// A fully listed board no longer lists it.
        BoardUnseen = "board_unseen",
        /// A full-catalogue source no longer lists it.
        SourceUnseen = "source_unseen",
        /// A stream said it was removed.
        Removed = "removed",
        /// The liveness probe read it as expired.
        Expired = "expired",
        /// Its board has been failing for a week.
        BoardFailing = "board_failing",
        /// Pruned or moderated.
        Moderated = "moderated",
    }
}

vocabulary! {
    /// How real a posting looks from its age and its role's history (reference §5.10).
    RealityClass, "reality" {
        /// Posted within 14 days, no evergreen wording.
        Fresh = "fresh",
        /// Neither fresh nor showing two evergreen signals.
        Stale = "stale",
        /// Two or more signals of a standing advert: old, reposted, mass-posted, evergreen
        /// wording.
        LikelyEvergreen = "likely-evergreen",
    }
}

vocabulary! {
    /// Why one company slug was merged into another (reference §4.1 `company_slug_aliases`).
    AliasReason, "alias reason" {
        /// The names differ only in a legal form (`Acme Inc.` and `Acme GmbH`).
        LegalForm = "legal_form",
        /// The names are spellings of one company (`Wal-Mart` and `Walmart`).
        Spelling = "spelling",
    }
}

vocabulary! {
    /// How likely a posting is a ghost job (reference §5.10).
    GhostLevel, "ghost level" {
        /// Fewer than two criteria: nothing to say.
        None = "none",
        /// Two or more criteria, outcome evidence from fewer than two people.
        Possible = "possible",
        /// Two or more criteria and outcome evidence from at least two people.
        Likely = "likely",
    }
}

vocabulary! {
    /// A ghost-job criterion (reference §5.10).
    GhostCriterion, "ghost criterion" {
        /// The reality signals say `likely-evergreen`.
        EvergreenPosting = "evergreen_posting",
        /// An aggregator posting missing from the employer's own board.
        AtsAbsent = "ats_absent",
        /// Applications to it went silent past their stage's threshold.
        SilentApplications = "silent_applications",
        /// Applicants reported it as a ghost job.
        UserReports = "user_reports",
    }
}

vocabulary! {
    /// The wire form of the tri-state `is_tech` flag.
    TechFlag, "is_tech" { Tech = "tech", NonTech = "non_tech" }
}

impl TechFlag {
    /// The wire form of an `is_tech` value (`None` stays unknown).
    pub const fn from_bool(is_tech: Option<bool>) -> Option<Self> {
        match is_tech {
            Some(true) => Some(TechFlag::Tech),
            Some(false) => Some(TechFlag::NonTech),
            None => None,
        }
    }
}

vocabulary! {
    /// What an account may do beyond its own data.
    Role, "role" {
        /// A job seeker.
        User = "user",
        /// May curate the catalogue as well.
        Moderator = "moderator",
    }
}

vocabulary! {
    /// What an API key reaches (reference §6.2): `full` is everything the account reaches but
    /// key management, password change and account deletion (cookie only); `cv` only
    /// `/auth/me` and the CV surfaces.
    ApiKeyScope, "scope" {
        /// Every route a signed-in caller reaches, but the cookie-only ones.
        Full = "full",
        /// `/auth/me` and the CV surfaces only.
        Cv = "cv",
    }
}

vocabulary! {
    /// What a mailed one-time code proves.
    CodePurpose, "purpose" {
        /// That the account holder reads the account's mailbox (email verification).
        Verify = "verify",
        /// The same, to set a new password without the old one.
        Reset = "reset",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_value() {
        for v in Category::ALL {
            assert_eq!(Category::parse(v.as_str()), Ok(*v));
        }
        for v in Region::ALL {
            assert_eq!(v.as_str().parse::<Region>(), Ok(*v));
        }
        assert_eq!(Category::ALL.len(), 40);
    }

    #[test]
    fn unknown_value_names_field_and_allowed_values() {
        let err = WorkMode::parse("office").unwrap_err().to_string();
        assert_eq!(err, r#"invalid work_mode "office": allowed values are remote, hybrid, onsite"#);
        assert!(Seniority::parse("Senior").is_err(), "parsing is exact, not case-folded");
    }

    #[test]
    fn serde_uses_wire_values() {
        assert_eq!(serde_json::to_string(&EmploymentType::FullTime).unwrap(), r#""full_time""#);
        let e: Result<SalaryPeriod, _> = serde_json::from_str(r#""week""#);
        assert!(e.unwrap_err().to_string().contains("year, month, day, hour"));
    }

    #[test]
    fn category_partition() {
        assert_eq!(Category::Backend.is_tech(), Some(true));
        assert_eq!(Category::Sales.is_tech(), Some(false));
        assert_eq!(Category::EngineeringDesign.is_tech(), Some(false));
        assert_eq!(Category::Other.is_tech(), None);
        let non_tech = Category::ALL.iter().filter(|c| c.is_tech() == Some(false)).count();
        assert_eq!(non_tech, 12);
    }
}

vocabulary! {
    /// An application's stage (reference §7.2), in pipeline order. [`Stage::group`] gives its
    /// board column, [`Stage::rank`] its forward order, [`Stage::is_terminal`] whether it is
    /// settled.
    Stage, "stage" {
        Preparing = "preparing", Applied = "applied", Screening = "screening",
        Responded = "responded", Interview = "interview", Offer = "offer",
        Accepted = "accepted", Rejected = "rejected", Withdrawn = "withdrawn",
        Expired = "expired",
    }
}

vocabulary! {
    /// A tracking board column (reference §7.2): the stages it holds are [`StageGroup::stages`].
    StageGroup, "group" {
        Preparing = "preparing", Applied = "applied", Interview = "interview", Offer = "offer",
        Closed = "closed",
    }
}

vocabulary! {
    /// What an `application_events` row records (reference §7.1).
    EventKind, "kind" {
        Viewed = "viewed", Saved = "saved", Unsaved = "unsaved", Dismissed = "dismissed",
        Undismissed = "undismissed", Applied = "applied", StageSet = "stage_set",
        StageCleared = "stage_cleared", Note = "note", FollowedUp = "followed_up",
        TrackCleared = "track_cleared",
    }
}

vocabulary! {
    /// Who or what recorded an event.
    EventSource, "source" { User = "user", Import = "import", Mail = "mail", Assistant = "assistant" }
}

vocabulary! {
    /// How a subscription's digests are delivered.
    Channel, "channel" { Email = "email", Webhook = "webhook" }
}

vocabulary! {
    /// How often saved-search digests go out: as soon as the worker matches (`instant`), once a
    /// day at the digest hour, or once a week (Mondays) at the digest hour.
    DigestFrequency, "digest_frequency" { Instant = "instant", Daily = "daily", Weekly = "weekly" }
}

vocabulary! {
    /// What a notification in the history is.
    NotificationKind, "kind" {
        Digest = "digest", Reminder = "reminder", NudgeSilent = "nudge_silent",
        NudgeInterview = "nudge_interview",
    }
}

vocabulary! {
    /// What an entry of the experience bank is (reference assistant.md §12.1): a job at a
    /// company, or a project (with a name and a link).
    EmploymentKind, "kind" { Job = "job", Project = "project" }
}

vocabulary! {
    /// Where a banked achievement came from (reference assistant.md §12.1). Only the first
    /// three are [publishable](Provenance::publishable): an `agent_inferred` atom is the
    /// assistant's own reading and can never be cited in a CV until the candidate confirms it.
    Provenance, "provenance" {
        /// Imported from a CV the candidate uploaded or pasted.
        CvImport = "cv_import",
        /// Backed by a verbatim quote of the candidate, checked by [`user_said`](crate::user_said).
        StatedInChat = "stated_in_chat",
        /// Typed by the candidate in the UI, the API or the CLI.
        Manual = "manual",
        /// The assistant's own reading: not citable.
        AgentInferred = "agent_inferred",
    }
}

impl Provenance {
    /// Whether an atom of this provenance may be cited in a CV (`can_write_cv`).
    pub const fn publishable(self) -> bool {
        !matches!(self, Provenance::AgentInferred)
    }
}

vocabulary! {
    /// Who wrote an atom's text (reference assistant.md §12.2); the store derives the
    /// provenance from it with [`provenance_for`](crate::provenance_for) and ignores any
    /// provenance a caller sends.
    Author, "author" {
        /// The candidate, through the UI, the API or the CLI: `manual`.
        Candidate = "candidate",
        /// The assistant with a quote [`user_said`](crate::user_said) verified:
        /// `stated_in_chat`. The only way an atom's standing can rise.
        Quoted = "quoted",
        /// The assistant rewording an existing atom: keeps the existing provenance.
        Rewrite = "rewrite",
        /// The assistant's own reading: `agent_inferred`.
        Agent = "agent",
        /// The CV importer (not a choice offered to the model): `cv_import`.
        Import = "import",
    }
}
