//! Who is at the board: a player's seat counts as present while one of its game sockets is
//! open on some server (each server writes `games.*_seen_ms` for the seats it holds, three
//! times within the grace and when a socket closes). The opponent of a player away longer than the grace
//! (`Limits::claim_grace`) may claim the game; the clock runs either way.

use serde::Serialize;
use tengen_core::Color;
use utoipa::ToSchema;

use super::AppState;
use crate::domain::State;
use crate::error::ApiError;
use crate::util::{count_down, lock, now_ms};

/// A seat's socket, counted present until dropped.
pub struct AtTheBoard {
    app: AppState,
    id: String,
    color: Color,
}

impl Drop for AtTheBoard {
    fn drop(&mut self) {
        let gone = count_down(&mut lock(&self.app.0.present), &(self.id.clone(), self.color));
        if gone {
            // The moment they left: written off the socket's task.
            let (app, id, color) = (self.app.clone(), self.id.clone(), self.color);
            tokio::spawn(async move {
                if let Err(e) = app.0.store.seat_seen(&id, color, now_ms()).await {
                    tracing::warn!("game {id}: presence: {e}");
                }
            });
        }
    }
}

/// A seat's presence as the page shows it.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct SeatPresence {
    /// A socket of the seat's player is open on some server (seen within the grace).
    pub here: bool,
    /// How long the player has been away (ms), when away.
    pub away_ms: Option<i64>,
    /// The opponent may claim the game against this player now: away and on move past the
    /// grace ([`claimable`]).
    pub claimable: bool,
}

/// Both seats' presence, and the grace after which an absent player's game may be claimed.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct Presence {
    /// Black's player.
    pub black: SeatPresence,
    /// White's player.
    pub white: SeatPresence,
    /// Away this long (ms), a player's game may be claimed by the opponent.
    pub claim_after_ms: i64,
}

impl AppState {
    /// Counts `color`'s player at game `id`'s board while the returned place is held.
    pub async fn at_the_board(&self, id: &str, color: Color) -> AtTheBoard {
        *lock(&self.0.present).entry((id.to_owned(), color)).or_default() += 1;
        if let Err(e) = self.0.store.seat_seen(id, color, now_ms()).await {
            tracing::warn!("game {id}: presence: {e}");
        }
        AtTheBoard { app: self.clone(), id: id.to_owned(), color }
    }

    /// Writes that the players at this server's boards are still there (every few seconds).
    pub async fn still_at_the_boards(&self) {
        let present: Vec<(String, Color)> = lock(&self.0.present).keys().cloned().collect();
        let now = now_ms();
        for (id, color) in present {
            if let Err(e) = self.0.store.seat_seen(&id, color, now).await {
                tracing::warn!("game {id}: presence: {e}");
            }
        }
    }

    /// Both seats' presence in game `id`.
    ///
    /// # Errors
    /// 404; a database error.
    pub async fn presence(&self, id: &str) -> Result<Presence, ApiError> {
        let (_, state) = self.load(id).await?;
        let seen = self.0.store.seats_seen(id).await?;
        let now = now_ms();
        let grace = self.claim_grace_ms();
        // The server holding a seat's socket writes it at least three times within the grace
        // ([`AppState::presence_every_ms`]): seen within the grace is at the board.
        let seat = |c: Color| {
            let local = lock(&self.0.present).contains_key(&(id.to_owned(), c));
            let last = seen[c.index()].unwrap_or(state.created_ms);
            let here = local || (seen[c.index()].is_some() && now - last < grace);
            SeatPresence { here, away_ms: (!here).then_some((now - last).max(0)), claimable: false }
        };
        let mut presence = Presence { black: seat(Color::Black), white: seat(Color::White), claim_after_ms: grace };
        let ended = matches!(state.game.phase(), tengen_core::Phase::Ended(_));
        presence.black.claimable = !ended && claimable(&state, Color::White, &presence, now).is_ok();
        presence.white.claimable = !ended && claimable(&state, Color::Black, &presence, now).is_ok();
        Ok(presence)
    }

    fn claim_grace_ms(&self) -> i64 {
        i64::try_from(self.limits().claim_grace.as_millis()).unwrap_or(i64::MAX)
    }

    /// How often this server writes that the players at its boards are still there: a third
    /// of the claim's grace, between half a second and [`super::PRESENCE_EVERY_MS`].
    #[must_use]
    pub fn presence_every_ms(&self) -> i64 {
        (self.claim_grace_ms() / 3).clamp(500, super::PRESENCE_EVERY_MS)
    }
}

/// Whether `color` may claim the game in `state` at `now` with the players' `presence`: the
/// opponent is the one to move, has been for longer than the grace, and has been away from
/// the board (no socket, no action) as long. The seat's claim is then applied like any action
/// of it (the opponent forfeits). Checked on the state under the game's lock, so that a move
/// the opponent sent a moment before is seen.
///
/// # Errors
/// 422 `computer_game` against the computer, `correspondence_game` (its clock of days
/// decides), `counting` in the counting phase (its own deadline settles it), `your_move` when
/// the claimer is the one to move, `opponent_here` while the opponent is at the board or away
/// (or to move) for less than the grace (the seconds left said).
pub fn claimable(state: &State, color: Color, presence: &Presence, now: i64) -> Result<(), ApiError> {
    if state.config.computer.is_some() {
        return Err(ApiError::refused("the computer never leaves: resign or play on").because("computer_game"));
    }
    if state.config.time.correspondence().is_some() {
        return Err(ApiError::refused("a correspondence game is decided by its clock of days, not by presence")
            .because("correspondence_game"));
    }
    if matches!(state.game.phase(), tengen_core::Phase::Ended(_)) {
        // The action says the game is over.
        return Ok(());
    }
    if state.game.phase() == tengen_core::Phase::Counting {
        return Err(
            ApiError::refused("the counting phase is settled by its own deadline, not by a claim").because("counting")
        );
    }
    if state.game.phase() == tengen_core::Phase::Playing && state.game.to_move() == color {
        return Err(ApiError::refused("it is your move: your opponent is not keeping you waiting").because("your_move"));
    }
    let opponent = if color == Color::Black { presence.white } else { presence.black };
    let grace = presence.claim_after_ms;
    // Away as long as both: from the board, and on move.
    let away = opponent.away_ms.map(|away| away.min(now - state.clock_since));
    match away {
        Some(away) if away >= grace => Ok(()),
        away => {
            let wait = ((grace - away.unwrap_or(0)).max(0) + 999) / 1000;
            let why = if opponent.here {
                "your opponent is at the board".to_owned()
            } else {
                format!("your opponent has been away less than {} s: wait {wait} s more", grace / 1000)
            };
            Err(ApiError::refused(why).because("opponent_here"))
        }
    }
}
