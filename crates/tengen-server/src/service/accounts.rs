//! Players' accounts: sign-up, login and sessions, password change and reset, deletion, and
//! the limits on login and sign-up attempts. Passwords are kept only as Argon2id hashes,
//! computed off the async threads in a bounded pool; a failed login costs one hash check
//! whether or not the name exists, so that its time does not tell.
//!
//! Each attempt is recorded and counted before its password is checked ([`crate::store::Store::record_attempt`]),
//! so that guesses sent at once cannot all pass the count. An address or its network that
//! fails too often is refused; an account is never closed to its owner by others' failures:
//! once it has many, only the addresses that failed on it several times are refused.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::Rng;
use unicode_normalization::UnicodeNormalization;

use crate::domain::{NAME_CHARS, check_account_name, name_skeleton};
use crate::error::ApiError;
use crate::guard::Client;
use crate::store::AccountRow;
use crate::util::{now_ms, random_token, token_hash};

use super::AppState;

/// The shortest password.
pub const PASSWORD_MIN_CHARS: usize = 8;
/// The longest password (a bound on the work a request can ask of the hash).
pub const PASSWORD_MAX_BYTES: usize = 1024;
/// How long a session lasts.
pub const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;
/// Failed logins from one address within [`LOGIN_WINDOW_MS`] before further attempts from it
/// are refused (429); from one network (IPv4 /24, IPv6 /64), four times as many.
pub const LOGIN_FAILURES: i64 = 20;
/// The window of the login limits.
pub const LOGIN_WINDOW_MS: i64 = 10 * 60 * 1000;
/// Logins, right or wrong, from one address within [`LOGIN_WINDOW_MS`] (each costs a hash);
/// from one network, four times as many.
pub const LOGINS: i64 = 60;
/// Failed logins on one account within [`LOGIN_WINDOW_MS`], from anywhere, past which an
/// address that failed on it [`PAIR_FAILURES`] times already is refused (429): the owner,
/// from an address of their own, still logs in.
pub const ACCOUNT_FAILURES: i64 = 20;
/// See [`ACCOUNT_FAILURES`].
pub const PAIR_FAILURES: i64 = 3;
/// Sessions an account keeps: a login past them ends the oldest.
pub const SESSIONS_PER_ACCOUNT: usize = 20;
/// Password hashes waiting for the pool at once: past them, 503.
pub const HASH_QUEUE: usize = 64;
/// Sign-ups from one address within [`SIGNUP_WINDOW_MS`]; from one network, four times as
/// many.
pub const SIGNUPS: i64 = 15;
/// The window of [`SIGNUPS`].
pub const SIGNUP_WINDOW_MS: i64 = 3600 * 1000;

/// A logged-in player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The account's id.
    pub id: String,
    /// The name as the player wrote it.
    pub name: String,
    /// When it was created.
    pub created_ms: i64,
    /// The password is a one-time password from the operator: the player should change it.
    pub must_change: bool,
}

impl From<AccountRow> for Account {
    fn from(row: AccountRow) -> Account {
        Account { id: row.id, name: row.name, created_ms: row.created_ms, must_change: row.must_change }
    }
}

/// A new session's token (for the cookie) and its account.
#[derive(Clone, Debug)]
pub struct Session {
    /// The token; the database keeps only its SHA-256.
    pub token: String,
    /// Whose.
    pub account: Account,
}

/// The key under which a name is unique: NFKC (full-width letters are letters), then lower
/// case.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.nfkc().collect::<String>().to_lowercase()
}

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

fn hash_now(password: &str) -> Result<String, ApiError> {
    let salt: [u8; 16] = rand::rng().random();
    let salt = SaltString::encode_b64(&salt).map_err(|e| ApiError::internal(&e))?;
    argon2().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| ApiError::internal(&e))
}

fn verify_now(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash of no one's password, checked when the name is unknown.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_now(&random_token(16)).expect("hashing a random password"))
}

/// The process's password hashing: one core less than the machine has (at least one), so
/// that a flood of logins leaves a core to the games; at most [`HASH_QUEUE`] waiting.
struct HashPool {
    permits: tokio::sync::Semaphore,
    waiting: AtomicUsize,
}

fn hash_pool() -> &'static HashPool {
    static POOL: OnceLock<HashPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        HashPool { permits: tokio::sync::Semaphore::new(cores.saturating_sub(1).max(1)), waiting: AtomicUsize::new(0) }
    })
}

/// A place in the hash pool's queue, given back however the wait ends.
struct Waiting(&'static HashPool);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Runs `work` (a hash) in the pool, off the async threads.
async fn in_hash_pool<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    let pool = hash_pool();
    if pool.waiting.fetch_add(1, Ordering::Relaxed) >= HASH_QUEUE {
        pool.waiting.fetch_sub(1, Ordering::Relaxed);
        return Err(ApiError::unavailable("the server is busy checking passwords: try again in a moment", 1));
    }
    let waiting = Waiting(pool);
    let _permit = pool.permits.acquire().await.map_err(|e| ApiError::internal(&e))?;
    drop(waiting);
    tokio::task::spawn_blocking(work).await.map_err(|e| ApiError::internal(&e))
}

/// Hashes `password` in the hash pool.
async fn hash(password: &str) -> Result<String, ApiError> {
    let password = password.to_owned();
    in_hash_pool(move || hash_now(&password)).await?
}

/// Checks `password` against `hash` (or against the decoy when there is none) in the hash
/// pool.
async fn verify(password: &str, hash: Option<String>) -> Result<bool, ApiError> {
    let password = password.to_owned();
    in_hash_pool(move || match hash {
        Some(h) => verify_now(&password, &h),
        None => {
            let _ = verify_now(&password, decoy_hash());
            false
        }
    })
    .await
}

/// The rule for a new password.
fn check_password(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < PASSWORD_MIN_CHARS {
        return Err(ApiError::refused(format!("a password has at least {PASSWORD_MIN_CHARS} characters"))
            .because("weak_password"));
    }
    if password.len() > PASSWORD_MAX_BYTES {
        return Err(
            ApiError::refused(format!("a password has at most {PASSWORD_MAX_BYTES} bytes")).because("long_password")
        );
    }
    Ok(())
}

impl AppState {
    /// Records attempt `id` under each key of `limits` unless one has reached its most
    /// (see [`crate::store::Store::record_attempt`]): the counts with this one, or 429.
    async fn attempt(&self, id: &str, limits: &[Limit], window_ms: i64) -> Result<Vec<i64>, ApiError> {
        let now = now_ms();
        let keys: Vec<(&str, Option<i64>)> = limits.iter().map(|l| (l.key.as_str(), l.most.map(|m| m.0))).collect();
        let forget_before = now - LOGIN_WINDOW_MS.max(SIGNUP_WINDOW_MS);
        match self.store().record_attempt(id, &keys, now, now - window_ms, forget_before).await? {
            Ok(counts) => Ok(counts),
            Err((i, oldest)) => {
                let what = limits[i].most.map_or("attempts", |m| m.1);
                Err(too_many(what, oldest, now, window_ms))
            }
        }
    }

    async fn new_session(&self, account: Account) -> Result<Session, ApiError> {
        let token = random_token(32);
        let now = now_ms();
        self.store()
            .create_session(&token_hash(&token), &account.id, now, now + SESSION_MS, SESSIONS_PER_ACCOUNT)
            .await?;
        Ok(Session { token, account })
    }

    /// Creates an account and logs it in.
    ///
    /// # Errors
    /// 422 for a name or password that breaks the rules, 409 for a name taken (without
    /// regard to case), 429 past the sign-ups of an address.
    pub async fn sign_up(&self, client: Client, name: &str, password: &str) -> Result<Session, ApiError> {
        let name = check_account_name(name).map_err(|e| ApiError::refused(e.to_string()).because("bad_name"))?;
        check_password(password)?;
        let limits = [
            Limit::most(format!("signup-address:{}", client.0), SIGNUPS, "sign-ups from this address"),
            Limit::most(format!("signup-network:{}", client.network()), SIGNUPS * 4, "sign-ups from this network"),
        ];
        self.attempt(&random_token(8), &limits, SIGNUP_WINDOW_MS).await?;
        let row = AccountRow {
            id: random_token(8),
            name: name.clone(),
            password_hash: Some(hash(password).await?),
            must_change: false,
            created_ms: now_ms(),
            deleted_ms: None,
        };
        if !self.store().create_account(&row, &name_key(&name), &name_skeleton(&name)).await? {
            return Err(ApiError::in_conflict(format!("the name {name:?} is taken, or one that looks like it"))
                .because("name_taken"));
        }
        self.new_session(row.into()).await
    }

    /// The account of a name and password, counted against the login limits (see the
    /// module's header).
    ///
    /// # Errors
    /// 401 for a wrong name or password (the same answer, in the same time), 429 past the
    /// limits of the address, its network, or an account with many failures, 503 when the
    /// hash pool is full.
    async fn check_login(&self, client: Client, name: &str, password: &str) -> Result<Account, ApiError> {
        // No account has a name longer than the rule allows: such a name is counted by its
        // first characters, so that a client cannot fill the attempts table with long keys.
        let name: String = name.trim_matches(' ').chars().take(NAME_CHARS + 1).collect();
        let key = name_key(&name);
        let (address, network) = (client.0, client.network());
        let limits = [
            Limit::most(format!("login-address:{address}"), LOGIN_FAILURES, "failed logins from this address"),
            Limit::most(format!("login-network:{network}"), LOGIN_FAILURES * 4, "failed logins from this network"),
            Limit::most(format!("logins-address:{address}"), LOGINS, "logins from this address"),
            Limit::most(format!("logins-network:{network}"), LOGINS * 4, "logins from this network"),
            Limit::count(format!("login-account:{key}")),
            Limit::count(format!("login-pair:{key}@{address}")),
        ];
        let id = random_token(8);
        let counts = self.attempt(&id, &limits, LOGIN_WINDOW_MS).await?;
        // The failures are counted before the check; a login that succeeds forgets them (its
        // place among the logins stays).
        let failures: Vec<&str> = [0, 1, 4, 5].iter().map(|&i| limits[i].key.as_str()).collect();
        // Counts with this attempt: the account had ACCOUNT_FAILURES before it, this address
        // PAIR_FAILURES on it.
        if counts[4] > ACCOUNT_FAILURES && counts[5] > PAIR_FAILURES {
            let all: Vec<&str> = limits.iter().map(|l| l.key.as_str()).collect();
            self.store().forget_attempt(&id, &all).await?;
            let now = now_ms();
            let (_, oldest) = self.store().attempts_since(&limits[5].key, now - LOGIN_WINDOW_MS).await?;
            return Err(too_many("failed logins on this account from this address", oldest, now, LOGIN_WINDOW_MS));
        }
        let row = if password.len() <= PASSWORD_MAX_BYTES { self.store().account_by_key(&key).await? } else { None };
        let live = row.filter(|r| r.deleted_ms.is_none());
        let ok = verify(password, live.as_ref().and_then(|r| r.password_hash.clone())).await?;
        match live {
            Some(row) if ok => {
                self.store().forget_attempt(&id, &failures).await?;
                Ok(row.into())
            }
            _ => Err(ApiError::wrong_credentials()),
        }
    }

    /// Logs in.
    ///
    /// # Errors
    /// 401 for a wrong name or password (the same answer, in the same time), 403 for an
    /// operator's one-time password used already, 429 past the limits.
    pub async fn log_in(&self, client: Client, name: &str, password: &str) -> Result<Session, ApiError> {
        let account = self.check_login(client, name, password).await?;
        // The operator's one-time password logs in once.
        if account.must_change && !self.store().spend_one_time_password(&account.id).await? {
            return Err(ApiError::not_yours(
                "this one-time password was used already: ask the server's operator for another",
            )
            .because("one_time_password_used"));
        }
        self.new_session(account).await
    }

    /// The account of a session token, while the session lasts.
    ///
    /// # Errors
    /// A database error.
    pub async fn session_account(&self, token: &str) -> Result<Option<Account>, ApiError> {
        Ok(self.store().session_account(&token_hash(token), now_ms()).await?.map(Account::from))
    }

    /// The account of a session token that may act: one whose password is the operator's
    /// one-time password may only change it (or log out) until then.
    ///
    /// # Errors
    /// 403 `must_change_password`; a database error.
    pub async fn acting_account(&self, token: &str) -> Result<Option<Account>, ApiError> {
        match self.session_account(token).await? {
            Some(a) if a.must_change => Err(must_change_password()),
            other => Ok(other),
        }
    }

    /// Ends the session of `token`.
    ///
    /// # Errors
    /// A database error.
    pub async fn log_out(&self, token: &str) -> Result<(), ApiError> {
        Ok(self.store().end_session(&token_hash(token)).await?)
    }

    /// Checks the password of a logged-in account (counted as a failed login when wrong).
    async fn confirm(&self, client: Client, account: &Account, password: &str) -> Result<(), ApiError> {
        self.check_login(client, &account.name, password).await.map(|_| ())
    }

    /// Changes a password: every session of the account ends, and a new one starts for the
    /// player who changed it.
    ///
    /// # Errors
    /// 401 for a wrong current password, 422 for a new one that breaks the rule, 429 past
    /// the failures.
    pub async fn change_password(
        &self,
        client: Client,
        account: &Account,
        old: &str,
        new: &str,
    ) -> Result<Session, ApiError> {
        check_password(new)?;
        self.confirm(client, account, old).await?;
        self.store().set_password(&account.id, &hash(new).await?, false).await?;
        self.new_session(Account { must_change: false, ..account.clone() }).await
    }

    /// Deletes an account: its sessions end, its password goes; its name stays taken and its
    /// games keep it, marked deleted.
    ///
    /// # Errors
    /// 401 for a wrong password, 429 past the failures.
    pub async fn delete_account(&self, client: Client, account: &Account, password: &str) -> Result<(), ApiError> {
        self.confirm(client, account, password).await?;
        self.store().delete_account(&account.id, now_ms()).await?;
        // Nobody can take up the challenges of a player who is gone.
        self.withdraw_all(&account.id).await
    }

    /// The operator's reset of a forgotten password: a one-time password, returned to be
    /// handed to the player; every session of the account ends.
    ///
    /// # Errors
    /// 404 for no such (live) account.
    pub async fn reset_password(&self, name: &str) -> Result<String, ApiError> {
        let row = self.store().account_by_key(&name_key(name.trim_matches(' '))).await?;
        let Some(row) = row.filter(|r| r.deleted_ms.is_none()) else {
            let shown: String = name.chars().take(40).collect();
            return Err(ApiError::refused(format!("no account {shown:?}")).because("no_account"));
        };
        let password = random_token(8);
        self.store().set_password(&row.id, &hash(&password).await?, true).await?;
        Ok(password)
    }
}

/// 403: the account must change the operator's one-time password before anything else.
#[must_use]
pub fn must_change_password() -> ApiError {
    ApiError::not_yours("change the one-time password first (PUT /api/me/password)").because("must_change_password")
}

/// One key an attempt is recorded under, and the most attempts it may count within the
/// window (`None`: counted only).
struct Limit {
    key: String,
    most: Option<(i64, &'static str)>,
}

impl Limit {
    fn most(key: String, most: i64, what: &'static str) -> Limit {
        Limit { key, most: Some((most, what)) }
    }

    fn count(key: String) -> Limit {
        Limit { key, most: None }
    }
}

/// 429 for too many `what`, with the wait until the oldest counted attempt leaves the window.
fn too_many(what: &str, oldest: Option<i64>, now: i64, window_ms: i64) -> ApiError {
    let wait_ms = oldest.map_or(window_ms, |o| o + window_ms - now).max(1000);
    ApiError::too_many(
        format!("too many {what}: try again in {} minutes", (wait_ms + 59_999) / 60_000),
        u64::try_from(wait_ms / 1000).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_without_regard_to_case_or_width() {
        assert_eq!(name_key("Honinbo"), name_key("HONINBO"));
        assert_eq!(name_key("Ｈｏｎｉｎｂｏ"), name_key("honinbo"));
        assert_ne!(name_key("honinbo"), name_key("honinb0"));
    }

    #[test]
    fn a_password_is_kept_as_an_argon2id_hash_that_checks() {
        let h = hash_now("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$"), "{h}");
        assert!(verify_now("correct horse", &h));
        assert!(!verify_now("correct hors", &h));
        assert_ne!(h, hash_now("correct horse").unwrap(), "each hash has its own salt");
    }

    #[test]
    fn short_and_huge_passwords_are_refused() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password("密码密码密码密码").is_ok());
        assert!(check_password(&"x".repeat(PASSWORD_MAX_BYTES + 1)).is_err());
    }
}
