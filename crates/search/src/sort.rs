//! Sorting (reference §5.6): `sort` ∈ created_at, posted_at, view_count, salary_min,
//! salary_max; `order` ∈ asc, desc (default desc). Any other value of either is refused (the
//! grammar names the parameter and lists these). Without a sort an empty `q` is ordered by
//! `posted_at:desc` and a non-empty `q` by relevance.

/// A sortable attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortField {
    /// First seen.
    CreatedAt,
    /// Effective posted date.
    PostedAt,
    /// View counter.
    ViewCount,
    /// `enrichment.salary_min`.
    SalaryMin,
    /// `enrichment.salary_max`.
    SalaryMax,
}

impl SortField {
    /// Every sortable field.
    pub const ALL: &'static [SortField] = &[
        SortField::CreatedAt,
        SortField::PostedAt,
        SortField::ViewCount,
        SortField::SalaryMin,
        SortField::SalaryMax,
    ];

    /// The `sort=` value.
    pub const fn as_str(self) -> &'static str {
        match self {
            SortField::CreatedAt => "created_at",
            SortField::PostedAt => "posted_at",
            SortField::ViewCount => "view_count",
            SortField::SalaryMin => "salary_min",
            SortField::SalaryMax => "salary_max",
        }
    }

    /// The index attribute (salary values map to the enrichment dot paths).
    pub const fn attribute(self) -> &'static str {
        match self {
            SortField::SalaryMin => "enrichment.salary_min",
            SortField::SalaryMax => "enrichment.salary_max",
            other => other.as_str(),
        }
    }

    /// The field named by a `sort=` value; unknown values (including `match`, whose profile
    /// ranking is not built) give `None`.
    pub fn parse(raw: &str) -> Option<Self> {
        SortField::ALL.iter().copied().find(|f| f.as_str() == raw)
    }

    /// The allowed `sort` values, comma-separated.
    pub fn allowed() -> String {
        SortField::ALL.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// Sort direction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    /// Ascending.
    Asc,
    /// Descending (the default).
    #[default]
    Desc,
}

impl Order {
    /// `asc` or `desc`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Order::Asc => "asc",
            Order::Desc => "desc",
        }
    }

    /// `asc` or `desc`; anything else is `None`.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "asc" => Some(Order::Asc),
            "desc" => Some(Order::Desc),
            _ => None,
        }
    }

    /// The allowed `order` values, comma-separated.
    pub fn allowed() -> &'static str {
        "asc, desc"
    }
}

/// An explicit sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    /// What to sort by.
    pub field: SortField,
    /// Which way.
    pub order: Order,
}

impl Sort {
    /// The Meilisearch sort directive, e.g. `enrichment.salary_min:asc`.
    pub fn directive(self) -> String {
        format!("{}:{}", self.field.attribute(), self.order.as_str())
    }
}
