//! The lobby: challenges posted, withdrawn, declined, expired and accepted (an accepted one
//! becomes a game between the two accounts), each change told to the lobby's WebSockets in
//! this process (and, through PostgreSQL, in the others); live challenges kept while their
//! owners are in the lobby; blocks between players.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tengen_core::Color;
use tokio::sync::broadcast;
use utoipa::ToSchema;

use super::AppState;
use super::accounts::{Account, name_key};
use crate::domain::challenge::{
    CORRESPONDENCE_DIRECT_MS, CORRESPONDENCE_OPEN_MS, ColorRule, Handicap, LIVE_DIRECT_MS, LIVE_OPEN_MS, Setup,
    StoneCount, Terms, rank_text,
};
use crate::domain::rating::rank_label;
use crate::domain::{Config, Opponent, Placement, State, TimeControl};
use crate::error::ApiError;
use crate::guard::Client;
use crate::store::{Acceptance, AccountRow, ChallengeRow, NewChallenge, StoredGame};
use crate::util::{count_down, lock, now_ms, random_token};

/// A challenge as the lobby shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChallengeView {
    /// The challenge's id.
    pub id: String,
    /// The challenger's name.
    pub challenger: String,
    /// The challenger's rank on the board's size (`6k?` for a newcomer there).
    pub challenger_rank: String,
    /// The player challenged (a direct challenge), or none (open to all in the lobby).
    pub to: Option<String>,
    /// Board size.
    pub size: usize,
    /// The time control.
    pub time: TimeControl,
    /// Rated.
    pub rated: bool,
    /// Handicap stones, or `auto` (from the ranks).
    pub handicap: Handicap,
    /// Colours: `auto` (the weaker takes Black; equal ranks draw), `nigiri`, or the
    /// challenger's `black` or `white`.
    pub color: ColorRule,
    /// The weakest rank that may accept.
    pub rank_min: Option<String>,
    /// The strongest rank that may accept.
    pub rank_max: Option<String>,
    /// A live game (not correspondence): withdrawn when the challenger leaves the lobby.
    pub live: bool,
    /// `open`, `accepted`, `cancelled`, `declined` or `expired`.
    pub state: String,
    /// When it was posted (ms since the epoch).
    pub created_ms: i64,
    /// When it expires if nobody takes it.
    pub expires_ms: i64,
    /// The game it became, once accepted.
    pub game: Option<String>,
}

impl ChallengeView {
    fn of(row: &ChallengeRow) -> ChallengeView {
        let rating = row.owner_rating.unwrap_or_default();
        ChallengeView {
            id: row.id.clone(),
            challenger: row.owner_name.clone(),
            challenger_rank: rank_label(&rating),
            to: row.to.as_ref().map(|(_, name)| name.clone()),
            size: row.terms.size,
            time: row.terms.time,
            rated: row.terms.rated,
            handicap: row.terms.handicap,
            color: row.terms.color,
            rank_min: row.terms.rank_min.map(rank_text),
            rank_max: row.terms.rank_max.map(rank_text),
            live: row.live,
            state: row.state.clone(),
            created_ms: row.created_ms,
            expires_ms: row.expires_ms,
            game: row.game_id.clone(),
        }
    }
}

/// Who a challenge concerns: its challenger, the player challenged, the player who accepted.
#[derive(Debug)]
pub struct Audience {
    /// The challenger.
    pub owner: String,
    /// The player challenged, for a direct challenge.
    pub to: Option<String>,
    /// The player who accepted it.
    pub acceptor: Option<String>,
    /// Still open.
    pub open: bool,
}

impl Audience {
    fn of(row: &ChallengeRow) -> Audience {
        Audience {
            owner: row.owner_id.clone(),
            to: row.to.as_ref().map(|(id, _)| id.clone()),
            acceptor: row.acceptor_id.clone(),
            open: row.state == "open",
        }
    }

    /// Whether the account `account` (none: a guest), which does not see the accounts
    /// `hidden`, sees the challenge: an open challenge to all unless a block stands between
    /// them, a direct one only between its two players; a closed one's end everyone who may
    /// have seen it.
    #[must_use]
    pub fn sees(&self, account: Option<&str>, hidden: &HashSet<String>) -> bool {
        let involved = account
            .is_some_and(|a| a == self.owner || Some(a) == self.to.as_deref() || Some(a) == self.acceptor.as_deref());
        match &self.to {
            Some(_) => involved,
            None => involved || !self.open || !hidden.contains(&self.owner),
        }
    }
}

/// A change of a challenge, for the lobby's WebSockets: who may see it, and the message.
#[derive(Debug)]
pub struct LobbyChange {
    /// Who may see it.
    pub audience: Audience,
    /// `{"challenge": ChallengeView}` (empty for a change of blocks).
    pub json: Arc<str>,
    /// A block between these accounts was made or lifted: their sockets read the lobby again
    /// (who they see changed).
    pub blocks: Option<[String; 2]>,
}

/// The lobby's share of the server's state.
pub struct Lobby {
    changes: broadcast::Sender<Arc<LobbyChange>>,
    /// Lobby sockets open in this process, by account.
    present: Mutex<HashMap<String, usize>>,
    /// Counts the changes of blocks seen here, so that a socket knows when to read its reader's
    /// blocks again (a game's chat).
    blocks_epoch: std::sync::atomic::AtomicU64,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby { changes: broadcast::channel(4096).0, present: Mutex::default(), blocks_epoch: Default::default() }
    }
}

/// A lobby socket's place: the account counted present while it stays.
pub struct InLobby {
    app: AppState,
    account: Option<String>,
}

impl Drop for InLobby {
    fn drop(&mut self) {
        if let Some(a) = &self.account {
            count_down(&mut lock(&self.app.0.lobby.present), a);
        }
    }
}

/// 404: no challenge `id` (for the caller).
pub(crate) fn no_challenge(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::refused(format!("no challenge {shown}"))
        .because("no_challenge")
        .with_status(axum::http::StatusCode::NOT_FOUND)
}

fn closed(row: &ChallengeRow) -> ApiError {
    ApiError::in_conflict(format!("the challenge is {} already", row.state)).because("challenge_closed")
}

impl AppState {
    /// The lobby's changes, from now on.
    #[must_use]
    pub fn lobby_changes(&self) -> broadcast::Receiver<Arc<LobbyChange>> {
        self.0.lobby.changes.subscribe()
    }

    /// Counts a lobby socket of `account` present until the returned place is dropped.
    #[must_use]
    pub fn enter_lobby(&self, account: Option<&Account>) -> InLobby {
        let account = account.map(|a| a.id.clone());
        if let Some(a) = &account {
            *lock(&self.0.lobby.present).entry(a.clone()).or_default() += 1;
        }
        InLobby { app: self.clone(), account }
    }

    /// `account` blocks `blocked` (`block`) or lifts the block: stored, and the sockets of
    /// both, here and on every node, see the lobby and chats as it now is.
    ///
    /// # Errors
    /// 422 `own_block` for oneself; a database error.
    pub async fn set_block(&self, account: &Account, blocked: &AccountRow, block: bool) -> Result<(), ApiError> {
        if blocked.id == account.id {
            return Err(ApiError::refused("a player cannot block themselves").because("own_block"));
        }
        if block {
            self.store().block(&account.id, &blocked.id, now_ms()).await?;
        } else {
            self.store().unblock(&account.id, &blocked.id).await?;
        }
        self.store().notify_blocks(&account.id, &blocked.id).await?;
        self.blocks_changed(&account.id, &blocked.id);
        Ok(())
    }

    /// A block between `a` and `b` was made or lifted (here or on another node): their lobby
    /// sockets here read the lobby again, every socket its reader's blocks.
    pub fn blocks_changed(&self, a: &str, b: &str) {
        self.0.lobby.blocks_epoch.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let change = LobbyChange {
            audience: Audience { owner: a.to_owned(), to: Some(b.to_owned()), acceptor: None, open: false },
            json: Arc::from(""),
            blocks: Some([a.to_owned(), b.to_owned()]),
        };
        let _ = self.0.lobby.changes.send(Arc::new(change));
    }

    /// Changes of blocks seen here so far: a socket reads its reader's blocks again when it
    /// moved.
    #[must_use]
    pub fn blocks_epoch(&self) -> u64 {
        self.0.lobby.blocks_epoch.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Accounts with a lobby socket in this process (for the abuse test: it goes back down).
    #[must_use]
    pub fn lobby_present(&self) -> usize {
        lock(&self.0.lobby.present).len()
    }

    /// The accounts `account` does not see in the lobby: blocked either way.
    ///
    /// # Errors
    /// A database error.
    pub async fn hidden_from(&self, account: Option<&str>) -> Result<HashSet<String>, ApiError> {
        Ok(match account {
            Some(a) => self.store().blocked_either_way(a).await?.into_iter().collect(),
            None => HashSet::new(),
        })
    }

    /// The open challenges the account `account` (none: a guest) sees, oldest first.
    ///
    /// # Errors
    /// A database error.
    pub async fn visible_challenges(&self, account: Option<&str>) -> Result<Vec<ChallengeView>, ApiError> {
        let hidden = self.hidden_from(account).await?;
        let rows = self.store().open_challenges(now_ms()).await?;
        Ok(rows.iter().filter(|row| Audience::of(row).sees(account, &hidden)).map(ChallengeView::of).collect())
    }

    /// Posts a challenge of `owner`: open to all, or to the player named `to`.
    ///
    /// # Errors
    /// 422 for terms that cannot be (the reason says which), a player challenged who does
    /// not exist, is deleted, is the challenger, or blocks or is blocked; 429 past the open
    /// challenges a player may have.
    pub async fn post_challenge(
        &self,
        owner: &Account,
        terms: Terms,
        to: Option<&str>,
    ) -> Result<ChallengeView, ApiError> {
        terms.check().map_err(|r| ApiError::refused(r.detail).because(r.reason))?;
        // The game the terms make must be one the server plays: its size, clock and stones.
        let stones = match terms.handicap {
            Handicap::Stones(StoneCount(n)) => n as usize,
            Handicap::Auto(_) => 0,
        };
        let setup = Setup { owner_color: Color::Black, stones, komi: 0.0, rang_xian: false, nigiri: None };
        let seat = (owner.id.as_str(), owner.name.as_str());
        State::new(game_config(&terms, &setup, [seat, seat]), now_ms())?;
        let to = match to {
            Some(name) => Some(self.challenged(owner, name).await?),
            None => None,
        };
        let most = self.limits().challenges_per_player;
        if self.store().open_challenges_of(&owner.id).await? >= most as i64 {
            return Err(too_many_challenges(most));
        }
        let now = now_ms();
        let id = random_token(8);
        // A correspondence challenge stays while its owner is away, until it expires.
        let live = terms.time.correspondence().is_none();
        let wait = match (live, to.is_some()) {
            (true, true) => LIVE_DIRECT_MS,
            (true, false) => LIVE_OPEN_MS,
            (false, true) => CORRESPONDENCE_DIRECT_MS,
            (false, false) => CORRESPONDENCE_OPEN_MS,
        };
        let expires_ms = now + wait;
        let new = NewChallenge {
            id: &id,
            owner_id: &owner.id,
            to_id: to.as_ref().map(|t| t.id.as_str()),
            terms: &terms,
            live,
            now_ms: now,
            expires_ms,
        };
        if !self.store().insert_challenge(&new, most).await? {
            return Err(too_many_challenges(most));
        }
        self.challenge_changed(&id).await.ok_or_else(|| ApiError::internal(&"the challenge stored is not found"))
    }

    /// The account challenged directly by `owner`.
    async fn challenged(&self, owner: &Account, name: &str) -> Result<AccountRow, ApiError> {
        let row = self.store().account_by_key(&name_key(name.trim_matches(' '))).await?;
        let shown: String = name.chars().take(40).collect();
        let row = row
            .filter(|r| r.deleted_ms.is_none())
            .ok_or_else(|| ApiError::refused(format!("no player {shown:?}")).because("no_player"))?;
        if row.id == owner.id {
            return Err(ApiError::refused("a player cannot challenge themselves").because("own_challenge"));
        }
        if self.store().blocked_between(&owner.id, &row.id).await? {
            return Err(ApiError::refused(format!("{} takes no challenges from you", row.name)).because("blocked"));
        }
        Ok(row)
    }

    /// Withdraws `account`'s challenge `id` (`cancelled`), or declines a challenge to it
    /// (`declined`).
    ///
    /// # Errors
    /// 404 for a challenge unknown or not the account's to withdraw or decline; 409 when it
    /// is no longer open.
    pub async fn close_challenge(&self, account: &Account, id: &str, decline: bool) -> Result<(), ApiError> {
        let row = self.store().challenge(id).await?.ok_or_else(|| no_challenge(id))?;
        let allowed =
            if decline { row.to.as_ref().is_some_and(|(to, _)| *to == account.id) } else { row.owner_id == account.id };
        if !allowed {
            let whose = if decline { "challenges to this account" } else { "this account's own" };
            return Err(ApiError::not_yours(format!(
                "only {whose} can be {}",
                if decline { "declined" } else { "withdrawn" }
            ))
            .because("not_your_challenge"));
        }
        let state = if decline { "declined" } else { "cancelled" };
        if !self.store().close_challenge(id, state, now_ms()).await? {
            return Err(closed(&row));
        }
        self.challenge_changed(id).await;
        Ok(())
    }

    /// `acceptor` accepts challenge `id`: the game is made, both seats held by the accounts.
    /// Its id and the acceptor's colour.
    ///
    /// # Errors
    /// 404 unknown (or a direct challenge to someone else, or a blocked challenger's); 409
    /// taken, withdrawn or expired; 422 the challenger's own, or a rank outside the range;
    /// 429 past the games a player may have in play.
    pub async fn accept_challenge(&self, acceptor: &Account, id: &str) -> Result<(String, Color), ApiError> {
        let row = self.store().challenge(id).await?.ok_or_else(|| no_challenge(id))?;
        let direct_to_other = row.to.as_ref().is_some_and(|(to, _)| *to != acceptor.id);
        if direct_to_other || self.store().blocked_between(&row.owner_id, &acceptor.id).await? {
            return Err(no_challenge(id));
        }
        if row.state != "open" || row.expires_ms <= now_ms() {
            return Err(closed(&row));
        }
        if row.owner_id == acceptor.id {
            return Err(ApiError::refused("this is your own challenge").because("own_challenge"));
        }
        let acceptor_rating = self.store().rating_on(&acceptor.id, row.terms.size).await?.unwrap_or_default();
        if !row.terms.admits(&acceptor_rating) {
            return Err(ApiError::refused(format!(
                "the challenge is for ranks {} to {}: yours is {}",
                row.terms.rank_min.map_or("30k".into(), rank_text),
                row.terms.rank_max.map_or("9d".into(), rank_text),
                rank_label(&acceptor_rating)
            ))
            .because("rank_range"));
        }
        let most = self.limits().games_per_player;
        let too_many =
            |who: &str| ApiError::too_many(format!("{who} {most} games in play already"), 60).because("too_many_games");
        for (who, account) in [("you have", &acceptor.id), ("the challenger has", &row.owner_id)] {
            if self.store().games_in_play_of(account).await? >= most as i64 {
                return Err(too_many(who));
            }
        }
        let owner_rating = row.owner_rating.unwrap_or_default();
        let setup = row.terms.setup(&owner_rating, &acceptor_rating, &mut rand::rng());
        let (owner, taker) =
            ((row.owner_id.as_str(), row.owner_name.as_str()), (acceptor.id.as_str(), acceptor.name.as_str()));
        let seats = match setup.owner_color {
            Color::Black => [owner, taker],
            Color::White => [taker, owner],
        };
        let config = game_config(&row.terms, &setup, seats);
        let created = now_ms();
        let state = State::new(config, created)?;
        let game_id = random_token(8);
        let stored = StoredGame {
            id: game_id.clone(),
            created_ms: created,
            config: state.config.clone(),
            tokens: [None, None],
            sgf: None,
        };
        match self.store().accept_challenge(id, &acceptor.id, &stored, &super::derived(&state), most).await? {
            Acceptance::Made => {}
            Acceptance::Closed => {
                let row = self.store().challenge(id).await?.unwrap_or(row);
                return Err(closed(&row));
            }
            Acceptance::AcceptorFull => return Err(too_many("you have")),
            Acceptance::OwnerFull => return Err(too_many("the challenger has")),
        }
        self.changed(&game_id, &state, Client::SERVER);
        self.challenge_changed(id).await;
        Ok((game_id, !setup.owner_color))
    }

    /// Withdraws the open challenges of an account that is deleted, and tells the lobby.
    ///
    /// # Errors
    /// A database error.
    pub async fn withdraw_all(&self, account_id: &str) -> Result<(), ApiError> {
        for id in self.store().withdraw_challenges_of(account_id, now_ms()).await? {
            self.challenge_changed(&id).await;
        }
        Ok(())
    }

    /// Tells this process's lobby sockets that challenge `id` changed (read again from the
    /// database); its view.
    pub async fn challenge_changed(&self, id: &str) -> Option<ChallengeView> {
        let row = match self.store().challenge(id).await {
            Ok(Some(row)) => row,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!("challenge {id}: {e}");
                return None;
            }
        };
        let change = change_of(&row);
        let _ = self.0.lobby.changes.send(Arc::new(change));
        Some(ChallengeView::of(&row))
    }

    /// The lobby's clock (every second): live challenges of the players in the lobby here are
    /// kept, challenges past their deadline or of players away longer than the grace expire.
    pub async fn lobby_tick(&self) {
        let now = now_ms();
        let result = async {
            let present: Vec<String> = lock(&self.0.lobby.present).keys().cloned().collect();
            if !present.is_empty() {
                let present: HashSet<String> = present.into_iter().collect();
                for owner in self.store().live_challengers().await? {
                    if present.contains(&owner) {
                        self.store().challenger_seen(&owner, now).await?;
                    }
                }
            }
            let grace = i64::try_from(self.limits().lobby_grace.as_millis()).unwrap_or(i64::MAX);
            let expired = self.store().expire_challenges(now, now.saturating_sub(grace)).await?;
            Ok::<_, ApiError>(expired)
        }
        .await;
        match result {
            Ok(expired) => {
                for id in expired {
                    self.challenge_changed(&id).await;
                }
            }
            Err(e) => tracing::warn!("lobby: {}", e.detail),
        }
    }
}

/// A challenge's change as the lobby's sockets get it.
fn change_of(row: &ChallengeRow) -> LobbyChange {
    let view = ChallengeView::of(row);
    // A view is plain data: it always serialises.
    let json = serde_json::to_string(&serde_json::json!({ "challenge": view })).unwrap_or_default();
    LobbyChange { audience: Audience::of(row), json: Arc::from(json), blocks: None }
}

/// The configuration of a challenge's game between `seats`: Black's account (id, name), White's.
fn game_config(terms: &Terms, setup: &Setup, seats: [(&str, &str); 2]) -> Config {
    Config {
        size: terms.size,
        rules: "chinese".into(),
        komi_half_points: (setup.komi * 2.0).round() as i32,
        handicap: setup.stones,
        placement: Placement::Fixed,
        opponent: Opponent::Friend,
        computer: None,
        time: terms.time,
        black_name: seats[0].1.to_owned(),
        white_name: seats[1].1.to_owned(),
        nigiri: setup.nigiri,
        imported: false,
        rated: terms.rated,
        accounts: seats.map(|(id, _)| Some(id.to_owned())),
        computer_rating: None,
    }
}

/// 429: an owner with `most` open challenges.
fn too_many_challenges(most: usize) -> ApiError {
    ApiError::too_many(format!("at most {most} open challenges at once: withdraw one"), 5)
        .because("too_many_challenges")
}
