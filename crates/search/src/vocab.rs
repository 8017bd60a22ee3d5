//! Closed vocabularies of reference §14 that only the enrichment fills and that
//! `freehire-domain` does not model yet (domains, company type and size, relocation, role type,
//! reality class, AI archetype). They are checked here exactly like the domain enums: exact
//! lowercase wire values, an unknown one is an error listing the allowed ones.

/// A closed list of wire values.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Closed {
    /// Every allowed value, in vocabulary order.
    pub(crate) values: &'static [&'static str],
}

impl Closed {
    /// The canonical value when `raw` is one of the allowed values.
    pub(crate) fn find(&self, raw: &str) -> Option<&'static str> {
        self.values.iter().copied().find(|v| *v == raw)
    }

    /// The allowed values, comma-separated.
    pub(crate) fn allowed(&self) -> String {
        self.values.join(", ")
    }
}

/// `domains`.
pub(crate) const DOMAINS: Closed = Closed {
    values: &[
        "fintech",
        "crypto",
        "ecommerce",
        "gambling",
        "gamedev",
        "media",
        "travel",
        "healthcare",
        "edtech",
        "govtech",
        "devtools",
        "cybersecurity",
        "ai",
        "hrtech",
        "adtech",
        "proptech",
        "logistics",
        "mobility",
        "climatetech",
        "other",
    ],
};

/// `company_type`.
pub(crate) const COMPANY_TYPE: Closed = Closed {
    values: &["product", "startup", "outsource", "outstaff", "agency", "inhouse", "government"],
};

/// `company_size`.
pub(crate) const COMPANY_SIZE: Closed =
    Closed { values: &["1-10", "11-50", "51-200", "201-500", "501-1000", "1000+"] };

/// `relocation`.
pub(crate) const RELOCATION: Closed =
    Closed { values: &["not_supported", "supported", "required"] };

/// `role_type`.
pub(crate) const ROLE_TYPE: Closed = Closed { values: &["people_manager"] };

/// `reality` (the document's `reality.class`).
pub(crate) const REALITY: Closed = Closed { values: &["fresh", "stale", "likely-evergreen"] };

/// `ai_archetype`.
pub(crate) const AI_ARCHETYPE: Closed = Closed {
    values: &[
        "rag_app_builder",
        "agent_builder",
        "cloud_ml_platform_engineer",
        "ml_trainer_researcher",
        "fullstack_ai_engineer",
        "devops_infra_engineer",
    ],
};

/// `requires_clearance`: a flag that is true or absent in the index.
pub(crate) const CLEARANCE: Closed = Closed { values: &["true", "false"] };
