//! Plans, quotas and metering decisions (reference §13), pure.
//!
//! - [`Tier`] (`free`, `pro`, `ultra`) from the account's `pro_until` / `ultra_until`
//!   ([`tier_of`]: strict comparisons, so a tier ends exactly at its expiry).
//! - [`Feature`]: the six metered features, stored by their strings.
//! - [`PlanPolicy`]: the daily allowance of every tier × feature, which features are enforced,
//!   and the tailoring turns one session covers; the §13.2 defaults, overridden by the
//!   `PLAN_*` variables ([`PlanPolicy::from_vars`]: a bad value is a warning and the default is
//!   kept).
//! - [`decide`]: the six rules of §13.3, in order, giving a [`Decision`]; [`Standing`] is what a
//!   user has left (pre-checks and the UI use [`Standing::refuses`]).
//! - Tailoring sessions (§13.4): [`session_ref`], [`session_prefix`], [`highest_slot`],
//!   [`ceilings_held`] and [`decide_turn`].
//!
//! The unit is the UTC calendar day ([`day`]); it resets at the next UTC midnight
//! ([`resets_at`]).

use std::fmt;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

/// A plan tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tier {
    /// No subscription.
    Free,
    /// The paid tier.
    Pro,
    /// The higher paid tier.
    Ultra,
}

impl Tier {
    /// Every tier, lowest first.
    pub const ALL: [Self; 3] = [Self::Free, Self::Pro, Self::Ultra];

    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::Pro => "pro",
            Self::Ultra => "ultra",
        }
    }

    /// Pro and ultra.
    pub const fn paid(self) -> bool {
        !matches!(self, Self::Free)
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The tier at `now`: ultra while `ultra_until > now`, else pro while `pro_until > now`, else
/// free. The comparisons are strict: a tier ends exactly at its expiry time.
pub fn tier_of(
    pro_until: Option<DateTime<Utc>>,
    ultra_until: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Tier {
    if ultra_until.is_some_and(|t| t > now) {
        Tier::Ultra
    } else if pro_until.is_some_and(|t| t > now) {
        Tier::Pro
    } else {
        Tier::Free
    }
}

/// A metered feature. The strings are stored in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// CV tailoring sessions.
    Tailor,
    /// Fit analyses.
    Match,
    /// Assistant turns.
    Assistant,
    /// Dictation (out of scope; the string is kept).
    Dictation,
    /// Cover letters.
    CoverLetter,
    /// Automatic applications (out of scope; the string and its real ceiling are kept).
    AutoApply,
}

impl Feature {
    /// Every feature.
    pub const ALL: [Self; 6] = [
        Self::Tailor,
        Self::Match,
        Self::Assistant,
        Self::Dictation,
        Self::CoverLetter,
        Self::AutoApply,
    ];

    /// The features a usage report lists (the reference's `AllFeatures()`: all but
    /// `auto-apply`).
    pub const REPORTED: [Self; 5] =
        [Self::Tailor, Self::Match, Self::Assistant, Self::Dictation, Self::CoverLetter];

    /// The stored spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Tailor => "tailor",
            Self::Match => "match",
            Self::Assistant => "assistant",
            Self::Dictation => "dictation",
            Self::CoverLetter => "cover-letter",
            Self::AutoApply => "auto-apply",
        }
    }

    /// Parses the exact stored spelling.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == s)
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One tier's daily allowance of one feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    /// The daily limit; for an unlimited allowance, the fair-use guard behind it.
    pub limit: i64,
    /// Unlimited (behind the fair-use guard).
    pub unlimited: bool,
}

impl Allowance {
    /// Nothing at all.
    pub const NONE: Self = Self { limit: 0, unlimited: false };

    const fn capped(limit: i64) -> Self {
        Self { limit, unlimited: false }
    }

    const fn fair_use(limit: i64) -> Self {
        Self { limit, unlimited: true }
    }
}

/// The §13.2 defaults: `[tier][feature]`.
const DEFAULTS: [[Allowance; 6]; 3] = [
    // free: tailor, match, assistant, dictation, cover-letter, auto-apply
    [
        Allowance::capped(2),
        Allowance::capped(3),
        Allowance::capped(DEFAULT_FREE_ASSISTANT),
        Allowance::capped(10),
        Allowance::capped(3),
        Allowance::capped(0),
    ],
    // pro
    [
        Allowance::fair_use(40),
        Allowance::fair_use(60),
        Allowance::fair_use(200),
        Allowance::fair_use(200),
        Allowance::fair_use(60),
        Allowance::capped(3),
    ],
    // ultra
    [
        Allowance::fair_use(120),
        Allowance::fair_use(180),
        Allowance::fair_use(600),
        Allowance::fair_use(600),
        Allowance::fair_use(180),
        Allowance::fair_use(100),
    ],
];

/// The assistant turns a free account gets per day unless `PLAN_FREE_DAILY_ASSISTANT` says
/// otherwise.
pub const DEFAULT_FREE_ASSISTANT: i64 = 10;

/// The tailoring turns one session ceiling covers unless `PLAN_TAILOR_TURNS_PER_SESSION` says
/// otherwise.
pub const DEFAULT_TAILOR_TURNS_PER_SESSION: i64 = 15;

/// Allowances, enforcement and the tailoring session size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanPolicy {
    allowances: [[Allowance; 6]; 3],
    enforced: [bool; 6],
    tailor_turns_per_session: i64,
}

impl Default for PlanPolicy {
    /// The §13.2 table; only `auto-apply` is enforced (everything else is shadow-metered).
    fn default() -> Self {
        let mut enforced = [false; 6];
        enforced[Feature::AutoApply.index()] = true;
        Self {
            allowances: DEFAULTS,
            enforced,
            tailor_turns_per_session: DEFAULT_TAILOR_TURNS_PER_SESSION,
        }
    }
}

/// Parses a variable's value: a positive integer, or `0` when `zero_ok`.
fn count(value: &str, zero_ok: bool) -> Option<i64> {
    match value.trim().parse::<i64>() {
        Ok(n) if n > 0 || (zero_ok && n == 0) => Some(n),
        _ => None,
    }
}

impl PlanPolicy {
    /// The defaults overridden by the `PLAN_*` variables among `vars` (others are ignored):
    ///
    /// - `PLAN_ENFORCE`: comma-separated feature names, or `all`, enforced in addition to the
    ///   default (`auto-apply`); unknown names are warned about and ignored;
    /// - `PLAN_FREE_DAILY_<F>` (a positive integer, or `0`: not in the free tier),
    ///   `PLAN_PRO_DAILY_<F>` (the legacy `PLAN_FAIR_USE_<F>` is read when it is unset),
    ///   `PLAN_ULTRA_DAILY_<F>` (positive integers; a paid override moves the limit or the
    ///   fair-use guard and keeps whether the allowance is unlimited);
    /// - `PLAN_TAILOR_TURNS_PER_SESSION` (a positive integer).
    ///
    /// `<F>` is the feature string in upper case, hyphen kept (`COVER-LETTER`). A bad value is
    /// a warning (returned, for the caller to log) and the default is kept. Ultra is never
    /// given less than pro: an override that would is raised to pro's allowance, with a
    /// warning.
    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> (Self, Vec<String>) {
        let mut policy = Self::default();
        let mut warnings = Vec::new();
        let mut legacy_pro = Vec::new();
        let mut pro_set = [false; 6];
        for (name, value) in vars {
            let Some(rest) = name.strip_prefix("PLAN_") else { continue };
            if rest == "ENFORCE" {
                policy.read_enforce(&value, &mut warnings);
                continue;
            }
            if rest == "TAILOR_TURNS_PER_SESSION" {
                match count(&value, false) {
                    Some(n) => policy.tailor_turns_per_session = n,
                    None => warnings.push(bad(&name, &value, "a positive integer")),
                }
                continue;
            }
            let (tier, feature_name, legacy) = if let Some(f) = rest.strip_prefix("FREE_DAILY_") {
                (Tier::Free, f, false)
            } else if let Some(f) = rest.strip_prefix("PRO_DAILY_") {
                (Tier::Pro, f, false)
            } else if let Some(f) = rest.strip_prefix("FAIR_USE_") {
                (Tier::Pro, f, true)
            } else if let Some(f) = rest.strip_prefix("ULTRA_DAILY_") {
                (Tier::Ultra, f, false)
            } else {
                warnings.push(format!("{name}: not a plan setting; ignored"));
                continue;
            };
            let Some(feature) = Feature::parse(&feature_name.to_ascii_lowercase()) else {
                warnings.push(format!("{name}: unknown feature {feature_name:?}; ignored"));
                continue;
            };
            let zero_ok = tier == Tier::Free;
            let Some(n) = count(&value, zero_ok) else {
                let want = if zero_ok { "a non-negative integer" } else { "a positive integer" };
                warnings.push(bad(&name, &value, want));
                continue;
            };
            if legacy {
                legacy_pro.push((feature, n));
                continue;
            }
            if tier == Tier::Pro {
                pro_set[feature.index()] = true;
            }
            policy.allowances[tier.index()][feature.index()].limit = n;
        }
        for (feature, n) in legacy_pro {
            if !pro_set[feature.index()] {
                policy.allowances[Tier::Pro.index()][feature.index()].limit = n;
            }
        }
        for feature in Feature::ALL {
            let pro = policy.allowance(Tier::Pro, feature);
            let ultra = &mut policy.allowances[Tier::Ultra.index()][feature.index()];
            if ultra.limit < pro.limit || (pro.unlimited && !ultra.unlimited) {
                warnings.push(format!(
                    "PLAN_ULTRA_DAILY_{}: ultra would get less {feature} than pro; raised to pro's {}",
                    feature.as_str().to_ascii_uppercase(),
                    pro.limit
                ));
                ultra.limit = ultra.limit.max(pro.limit);
                ultra.unlimited |= pro.unlimited;
            }
        }
        (policy, warnings)
    }

    fn read_enforce(&mut self, value: &str, warnings: &mut Vec<String>) {
        for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name.eq_ignore_ascii_case("all") {
                self.enforced = [true; 6];
            } else if let Some(feature) = Feature::parse(&name.to_ascii_lowercase()) {
                self.enforced[feature.index()] = true;
            } else {
                warnings.push(format!("PLAN_ENFORCE: unknown feature {name:?}; ignored"));
            }
        }
    }

    /// `tier`'s daily allowance of `feature`.
    pub fn allowance(&self, tier: Tier, feature: Feature) -> Allowance {
        self.allowances[tier.index()][feature.index()]
    }

    /// The allowance of a feature named by its string: nothing at all for an unknown name,
    /// on every tier.
    pub fn allowance_named(&self, tier: Tier, feature: &str) -> Allowance {
        Feature::parse(feature).map_or(Allowance::NONE, |f| self.allowance(tier, f))
    }

    /// Whether going over `feature`'s allowance is refused (else it is shadow-metered).
    pub fn enforced(&self, feature: Feature) -> bool {
        self.enforced[feature.index()]
    }

    /// The tailoring turns one session ceiling covers.
    pub fn tailor_turns_per_session(&self) -> i64 {
        self.tailor_turns_per_session
    }

    /// The same policy with `features` enforced too (tests, embedders).
    #[must_use]
    pub fn enforcing(mut self, features: &[Feature]) -> Self {
        for f in features {
            self.enforced[f.index()] = true;
        }
        self
    }

    /// The same policy with `tier`'s allowance of `feature` replaced (tests, embedders).
    #[must_use]
    pub fn with_allowance(mut self, tier: Tier, feature: Feature, allowance: Allowance) -> Self {
        self.allowances[tier.index()][feature.index()] = allowance;
        self
    }

    /// The same policy with another tailoring session size (tests, embedders).
    #[must_use]
    pub fn with_tailor_turns_per_session(mut self, turns: i64) -> Self {
        self.tailor_turns_per_session = turns;
        self
    }
}

fn bad(name: &str, value: &str, want: &str) -> String {
    format!("{name}={value:?} is not {want}; the default is kept")
}

/// The UTC day `at` falls in (the counter's key).
pub fn day(at: DateTime<Utc>) -> NaiveDate {
    at.date_naive()
}

/// The next UTC midnight after `at`, when the day's allowance resets.
pub fn resets_at(at: DateTime<Utc>) -> DateTime<Utc> {
    let next = day(at) + Duration::days(1);
    next.and_time(NaiveTime::MIN).and_utc()
}

/// The outcome of one metering decision (§13.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The action may go ahead.
    pub allowed: bool,
    /// The tier it was judged on.
    pub tier: Tier,
    /// The feature.
    pub feature: Feature,
    /// The day's count after this decision (before it when nothing is charged).
    pub used: i64,
    /// The day's limit (for an unlimited allowance, the fair-use guard).
    pub limit: i64,
    /// Unlimited behind the fair-use guard.
    pub unlimited: bool,
    /// When the day's count resets (the next UTC midnight).
    pub resets_at: DateTime<Utc>,
    /// What this decision charges: 0 or 1.
    pub charge: i64,
    /// Allowed over the limit because the feature is not enforced (shadow mode).
    pub shadowed: bool,
    /// Refused by the fair-use guard of an unlimited allowance.
    pub fair_use: bool,
    /// Whether the feature is enforced.
    pub enforced: bool,
}

impl Decision {
    /// The same figures as a [`Standing`].
    pub fn standing(&self) -> Standing {
        Standing {
            tier: self.tier,
            feature: self.feature,
            used: self.used,
            limit: self.limit,
            unlimited: self.unlimited,
            resets_at: self.resets_at,
            enforced: self.enforced,
        }
    }
}

/// Decides one action of `feature` by a `tier` account that has `used` of it today, applying
/// the rules in order:
///
/// 1. a reference already charged is allowed, charging nothing;
/// 2. an unconfigured allowance (limit 0, not unlimited) is refused, even in shadow mode;
/// 3. an unlimited allowance at its fair-use guard is refused (`fair_use`), even in shadow
///    mode;
/// 4. unlimited or under the limit: allowed, charging 1;
/// 5. over the limit of a feature not enforced: allowed, charging 1, `shadowed`;
/// 6. otherwise refused.
pub fn decide(
    policy: &PlanPolicy,
    tier: Tier,
    feature: Feature,
    used: i64,
    already_charged: bool,
    now: DateTime<Utc>,
) -> Decision {
    let s = Standing::of(policy, tier, feature, used, now);
    let mut d = Decision {
        allowed: false,
        tier,
        feature,
        used,
        limit: s.limit,
        unlimited: s.unlimited,
        resets_at: s.resets_at,
        charge: 0,
        shadowed: false,
        fair_use: false,
        enforced: s.enforced,
    };
    if already_charged {
        d.allowed = true;
    } else if s.limit <= 0 && !s.unlimited {
        // Refused: not included in this tier.
    } else if s.unlimited && used >= s.limit {
        d.fair_use = true;
    } else if s.unlimited || used < s.limit {
        d.allowed = true;
        d.charge = 1;
        d.used = used + 1;
    } else if !s.enforced {
        d.allowed = true;
        d.charge = 1;
        d.used = used + 1;
        d.shadowed = true;
    }
    d
}

/// What a user has of one feature today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// The account's tier now.
    pub tier: Tier,
    /// The feature.
    pub feature: Feature,
    /// Used today.
    pub used: i64,
    /// The day's limit (for an unlimited allowance, the fair-use guard).
    pub limit: i64,
    /// Unlimited behind the fair-use guard.
    pub unlimited: bool,
    /// When the count resets.
    pub resets_at: DateTime<Utc>,
    /// Whether the feature is enforced.
    pub enforced: bool,
}

impl Standing {
    /// The standing of a `tier` account that has `used` of `feature` today.
    pub fn of(
        policy: &PlanPolicy,
        tier: Tier,
        feature: Feature,
        used: i64,
        now: DateTime<Utc>,
    ) -> Self {
        let allowance = policy.allowance(tier, feature);
        Self {
            tier,
            feature,
            used,
            limit: allowance.limit,
            unlimited: allowance.unlimited,
            resets_at: resets_at(now),
            enforced: policy.enforced(feature),
        }
    }

    /// The limit is reached (never for an unlimited allowance).
    pub fn exhausted(&self) -> bool {
        !self.unlimited && self.used >= self.limit
    }

    /// The next action would be refused: exhausted and enforced. Pre-checks and the UI use
    /// this, not [`Standing::exhausted`].
    pub fn refuses(&self) -> bool {
        self.exhausted() && self.enforced
    }
}

/// The reference of a tailoring session's `n`th ceiling: `"<session>#<n>"`.
pub fn session_ref(session: &str, n: i64) -> String {
    format!("{session}#{n}")
}

/// The prefix a session's ceiling references share: `"<session>#"`. The `#` matters:
/// without it `sess-1` would also match `sess-12`.
pub fn session_prefix(session: &str) -> String {
    format!("{session}#")
}

/// The highest ceiling number among a session's live references (`prefix` stripped); a
/// reference that does not parse counts as 0.
pub fn highest_slot<'a>(prefix: &str, refs: impl IntoIterator<Item = &'a str>) -> i64 {
    refs.into_iter()
        .map(|r| r.strip_prefix(prefix).and_then(|n| n.parse::<i64>().ok()).unwrap_or(0))
        .max()
        .unwrap_or(0)
}

/// The ceilings a session holds: `max(slot, 1)` (a session with no charge implicitly holds
/// its first).
pub fn ceilings_held(slot: i64) -> i64 {
    slot.max(1)
}

/// Whether a tailoring session may take another turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnDecision {
    /// The turn may run.
    pub allowed: bool,
    /// Allowed past the ceiling because `tailor` is not enforced.
    pub shadowed: bool,
    /// Paid tiers: no ceiling.
    pub unlimited: bool,
    /// The session's turns so far.
    pub turns: i64,
    /// `ceilings_held × tailor_turns_per_session` (0 when unlimited).
    pub ceiling: i64,
}

/// §13.4 `decideTurn`: paid tiers are always allowed; otherwise the ceiling is
/// `ceilings_held(highest_slot) × tailor_turns_per_session` and a turn is allowed under it,
/// allowed `shadowed` past it while `tailor` is not enforced, refused otherwise.
pub fn decide_turn(
    policy: &PlanPolicy,
    tier: Tier,
    highest_slot: i64,
    turns_so_far: i64,
) -> TurnDecision {
    if tier.paid() {
        return TurnDecision {
            allowed: true,
            shadowed: false,
            unlimited: true,
            turns: turns_so_far,
            ceiling: 0,
        };
    }
    let ceiling = ceilings_held(highest_slot).saturating_mul(policy.tailor_turns_per_session);
    let under = turns_so_far < ceiling;
    let shadowed = !under && !policy.enforced(Feature::Tailor);
    TurnDecision {
        allowed: under || shadowed,
        shadowed,
        unlimited: false,
        turns: turns_so_far,
        ceiling,
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
