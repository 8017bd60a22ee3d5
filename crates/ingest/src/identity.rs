//! The duplicate-board fold: [`BoardKey::identity`] (provider, lowercase board, region) plus
//! the provider-specific spellings of one board, which each platform declares in its adapter
//! file (its `tenant_hosts`):
//!
//! - teamtailor: `acme` ≡ `acme.teamtailor.com` (the board is a career host);
//! - personio: `acme` ≡ `acme.jobs.personio.com` ≡ `acme.jobs.personio.de`;
//! - recruitee, bamboohr, pinpoint: `acme` ≡ `acme.<platform host>`;
//! - workday: a trailing `/` is not part of the site;
//! - a platform's own `fold` (iCIMS, Dayforce, UKG Ready forms), tried first.

use freehire_domain::BoardKey;

/// The fold under which two keys are the same board: `(provider, folded board, region)`.
pub fn board_identity(key: &BoardKey) -> (String, String, String) {
    let (provider, board, region) = key.identity();
    let board = board.trim_end_matches('/');
    let platform = crate::adapters::platform(&key.provider);
    if let Some(folded) = platform.and_then(|p| (p.fold)(board)) {
        return (provider, folded, region);
    }
    let suffixes = platform.map_or(&[][..], |p| p.tenant_hosts);
    let folded = suffixes
        .iter()
        .find_map(|s| board.strip_suffix(s))
        .filter(|tenant| !tenant.is_empty() && !tenant.contains('.'))
        .unwrap_or(board);
    (provider, folded.to_owned(), region)
}

#[cfg(test)]
mod tests {
    use freehire_domain::Provider;

    use super::*;

    fn key(p: &str, b: &str, r: &str) -> BoardKey {
        BoardKey::new(Provider::parse(p).unwrap(), b, r).unwrap()
    }

    #[test]
    fn folds() {
        let id = |p, b, r| board_identity(&key(p, b, r));
        assert_eq!(id("teamtailor", "Acme", ""), id("teamtailor", "acme.teamtailor.com", ""));
        assert_ne!(id("teamtailor", "acme.na.teamtailor.com", ""), id("teamtailor", "acme", ""));
        assert_eq!(id("personio", "acme.jobs.personio.de", ""), id("personio", "ACME", ""));
        assert_eq!(id("ashby", "Windsurf", ""), id("ashby", "windsurf", ""));
        assert_ne!(id("lever", "acme", "eu"), id("lever", "acme", ""));
        assert_ne!(id("greenhouse", "acme", ""), id("lever", "acme", ""));
        assert_eq!(
            id("workday", "acme.wd1.myworkdayjobs.com/Careers/", ""),
            id("workday", "ACME.wd1.myworkdayjobs.com/careers", "")
        );
    }
}
