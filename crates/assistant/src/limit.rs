//! [`StepLimit`] and [`HistoryLimit`]: the runner's bounds as types, built once from whatever
//! number a configuration holds.
//!
//! Zero or negative means the default, never "unbounded": a misread or missing setting can
//! only make a turn behave as configured by default, not run away on a metered gateway. The
//! defaults are 8 model calls with tools per turn (then one wrap-up without tools) and 60
//! replayed transcript messages (see [`history`](crate::history) for how the window moves).

use std::fmt;
use std::num::NonZeroUsize;

/// A positive bound whose zero-or-negative input means `DEFAULT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Limit<const DEFAULT: usize>(NonZeroUsize);

/// Model calls with tools per turn before the wrap-up call without tools (default 8).
pub type StepLimit = Limit<8>;

/// Transcript messages replayed per model call (default 60).
pub type HistoryLimit = Limit<60>;

/// Tool calls run per model reply (default 16); the rest are answered without running.
pub type ToolCallLimit = Limit<16>;

impl<const DEFAULT: usize> Limit<DEFAULT> {
    /// The default bound.
    pub const DEFAULT: Self = Self::new(0);

    /// `value` when positive, else the default. A value beyond `usize` saturates.
    pub const fn new(value: i64) -> Self {
        let n = if value <= 0 {
            DEFAULT
        } else if value as u64 > usize::MAX as u64 {
            usize::MAX
        } else {
            value as usize
        };
        match NonZeroUsize::new(n) {
            Some(n) => Self(n),
            // Only reachable with a zero DEFAULT, which no alias uses.
            None => Self(NonZeroUsize::MIN),
        }
    }

    /// `value` when positive, `None` otherwise: for settings where "unset" means "someone
    /// else's bound" (a turn's own step cap falls back to the runner's).
    pub const fn positive(value: i64) -> Option<Self> {
        if value > 0 { Some(Self::new(value)) } else { None }
    }

    /// The bound.
    pub const fn get(self) -> usize {
        self.0.get()
    }
}

impl<const DEFAULT: usize> Default for Limit<DEFAULT> {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl<const DEFAULT: usize> fmt::Display for Limit<DEFAULT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_or_negative_is_the_default_never_unbounded() {
        for v in [0, -1, i64::MIN] {
            assert_eq!(StepLimit::new(v).get(), 8, "{v}");
            assert_eq!(HistoryLimit::new(v).get(), 60, "{v}");
            assert_eq!(StepLimit::positive(v), None, "{v}");
        }
        assert_eq!(StepLimit::new(3).get(), 3);
        assert_eq!(StepLimit::positive(16), Some(StepLimit::new(16)));
        assert_eq!(HistoryLimit::default(), HistoryLimit::new(60));
        assert_eq!(StepLimit::new(i64::MAX).get(), usize::try_from(i64::MAX).unwrap_or(usize::MAX));
    }
}
