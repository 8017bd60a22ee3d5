//! Passwords: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane), stored as PHC
//! strings so the parameters can change: a login whose stored hash used other parameters is
//! re-hashed ([`PasswordHasher::needs_rehash`]).
//!
//! Hashing costs tens of milliseconds of CPU, so it runs on the blocking pool, at most one
//! hash per core at a time (more would only queue inside the CPU and starve the request
//! handlers). A login for an unknown email verifies the password against a fixed dummy hash
//! made with the same parameters, so it costs what a wrong password costs.

use std::sync::{Arc, OnceLock};

use argon2::password_hash::{PasswordHash, PasswordVerifier, SaltString, rand_core::OsRng};
use argon2::{Algorithm, Argon2, Params, PasswordHasher as _, Version};
use freehire_domain::Password;
use tokio::sync::Semaphore;

use super::AccountError;

/// OWASP's argon2id recommendation: memory in KiB.
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
/// OWASP's argon2id recommendation: passes.
pub const ARGON2_PASSES: u32 = 2;
/// OWASP's argon2id recommendation: lanes.
pub const ARGON2_LANES: u32 = 1;

/// Hashes and verifies passwords with one parameter set.
#[derive(Clone)]
pub struct PasswordHasher {
    params: Params,
    permits: Arc<Semaphore>,
    dummy: Arc<OnceLock<String>>,
}

impl std::fmt::Debug for PasswordHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PasswordHasher").field("params", &self.params).finish_non_exhaustive()
    }
}

impl Default for PasswordHasher {
    fn default() -> Self {
        Self::owasp()
    }
}

impl PasswordHasher {
    /// The OWASP parameters.
    pub fn owasp() -> Self {
        #[allow(clippy::expect_used)] // constant, valid parameters
        let params = Params::new(ARGON2_MEMORY_KIB, ARGON2_PASSES, ARGON2_LANES, None)
            .expect("OWASP argon2 parameters are valid");
        Self::with_params(params)
    }

    /// Other parameters (tests use cheap ones to show re-hashing).
    pub fn with_params(params: Params) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self { params, permits: Arc::new(Semaphore::new(cores)), dummy: Arc::default() }
    }

    fn argon2(&self) -> Argon2<'static> {
        Argon2::new(Algorithm::Argon2id, Version::V0x13, self.params.clone())
    }

    /// The PHC string of a fresh salted hash.
    pub async fn hash(&self, password: &Password) -> Result<String, AccountError> {
        let password = password.clone();
        let this = self.clone();
        self.blocking(move || this.hash_now(password.expose())).await?
    }

    fn hash_now(&self, password: &str) -> Result<String, AccountError> {
        let salt = SaltString::generate(&mut OsRng);
        self.argon2()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AccountError::Hashing(e.to_string()))
    }

    /// Whether `password` matches the PHC string `stored` (constant time, by argon2); `None`
    /// (no account, or an account without a password) is checked against the dummy hash and
    /// is never a match.
    pub async fn verify(
        &self,
        password: &Password,
        stored: Option<&str>,
    ) -> Result<bool, AccountError> {
        let password = password.clone();
        let stored = stored.map(str::to_owned);
        let this = self.clone();
        self.blocking(move || {
            let (phc, real) = match &stored {
                Some(phc) => (phc.clone(), true),
                None => (this.dummy()?.to_owned(), false),
            };
            let Ok(parsed) = PasswordHash::new(&phc) else {
                // A stored value that is not a PHC string never matches.
                return Ok(false);
            };
            let ok = this.argon2().verify_password(password.expose().as_bytes(), &parsed).is_ok();
            Ok(ok && real)
        })
        .await?
    }

    /// Whether a stored PHC string used other parameters than these (or another algorithm).
    pub fn needs_rehash(&self, stored: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(stored) else {
            return true;
        };
        let Ok(params) = Params::try_from(&parsed) else {
            return true;
        };
        parsed.algorithm.as_str() != "argon2id"
            || params.m_cost() != self.params.m_cost()
            || params.t_cost() != self.params.t_cost()
            || params.p_cost() != self.params.p_cost()
    }

    /// The dummy hash (made once, with these parameters).
    fn dummy(&self) -> Result<&str, AccountError> {
        if let Some(hash) = self.dummy.get() {
            return Ok(hash);
        }
        let hash = self.hash_now("freehire dummy password: never matches an input")?;
        Ok(self.dummy.get_or_init(|| hash))
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AccountError> {
        let _permit =
            self.permits.acquire().await.map_err(|_| AccountError::Hashing("closed".into()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| AccountError::Hashing(format!("hashing task failed: {e}")))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn cheap() -> PasswordHasher {
        PasswordHasher::with_params(Params::new(1024, 1, 1, None).unwrap())
    }

    #[tokio::test]
    async fn hashes_verify_and_unknown_accounts_never_match() {
        let hasher = cheap();
        let pw = Password::parse("correct horse battery").unwrap();
        let phc = hasher.hash(&pw).await.unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=1024,t=1,p=1$"), "{phc}");
        assert!(hasher.verify(&pw, Some(&phc)).await.unwrap());
        let wrong = Password::parse("correct horse battery!").unwrap();
        assert!(!hasher.verify(&wrong, Some(&phc)).await.unwrap());
        assert!(!hasher.verify(&pw, None).await.unwrap());
        assert!(!hasher.verify(&pw, Some("not a phc string")).await.unwrap());
        assert_ne!(phc, hasher.hash(&pw).await.unwrap(), "salted");
    }

    #[tokio::test]
    async fn other_parameters_need_a_rehash() {
        let old = cheap();
        let pw = Password::parse("correct horse battery").unwrap();
        let phc = old.hash(&pw).await.unwrap();
        assert!(!old.needs_rehash(&phc));
        let owasp = PasswordHasher::owasp();
        assert!(owasp.needs_rehash(&phc));
        assert!(owasp.verify(&pw, Some(&phc)).await.unwrap(), "old hashes still verify");
        assert!(owasp.needs_rehash("$2b$12$bcrypt-hash"));
        let new = owasp.hash(&pw).await.unwrap();
        assert!(new.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{new}");
        assert!(!owasp.needs_rehash(&new));
    }
}
