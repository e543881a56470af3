//! A game on the server: how it was set up ([`Config`]), what happened since ([`Event`], the
//! log kept in the database), and the state both give ([`State`], rebuilt by replaying the
//! log — clocks included, since every event carries its time).
//!
//! Everything here is synchronous and pure: the API checks an action against the state, and
//! only an action that [`State::apply`] accepts is stored.

mod action;
pub mod challenge;
mod clock;
mod config;
mod error;
mod name;
pub mod rating;
mod state;
#[cfg(test)]
mod tests;
pub mod view;

pub use action::{Action, Event};
pub use clock::Clock;
pub use config::{CORRESPONDENCE_DAYS, Config, DAY_MS, Opponent, Placement, TimeControl, komi_points, max_handicap};
pub use error::{GameError, Reason};
pub use name::{
    AccountNameError, CHAT_CHARS, NameError, check_account_name, check_chat, check_name, name_skeleton, printable_line,
};
pub use state::{ABORT_MOVES, COUNTING_MS, Dispute, State};

/// The most moves a game may have on the server (passes included), as real servers cap a
/// game's length: three times the points of the largest board, far beyond any real game.
pub const MAX_MOVES: usize = 1_200;

/// The longest player name, in characters.
pub const NAME_CHARS: usize = 40;
