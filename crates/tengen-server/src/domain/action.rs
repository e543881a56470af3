//! What a player or the server does to a game, and the event that records it.

use serde::{Deserialize, Serialize};
use tengen_core::{Color, Move, Point};

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Black's free handicap stones.
    Handicap {
        /// The points.
        points: Vec<Point>,
    },
    /// A stone or a pass.
    Move {
        /// The move.
        mv: Move,
    },
    /// The player resigns.
    Resign,
    /// A player calls the game off before its tenth move: no result, not rated.
    Abort,
    /// A player claims the game: the opponent has left the board for longer than the grace
    /// (the server checked) and forfeits.
    Claim,
    /// The counting phase outlasted its deadline: the server counts its proposal of dead
    /// stones (or the marking, where it made none), so that nobody stalls the end.
    Settle,
    /// The player ran out of time (the server's clock saw it).
    Timeout,
    /// The server starts again after nobody kept the clocks since `down_since_ms`: the
    /// running clock is charged up to then only, not for the downtime.
    Restart {
        /// The last moment a server was known alive.
        down_since_ms: i64,
    },
    /// Take back moves: against the computer at once (the player's last move and the reply);
    /// between friends, a request the other seat answers.
    UndoRequest,
    /// The other seat agrees: the requester's last move (and any reply) is taken back.
    UndoAccept,
    /// The other seat refuses.
    UndoReject,
    /// The dead stones proposed when two passes end play (the engine's judgement).
    Propose {
        /// One stone of each dead chain, or every dead stone.
        dead: Vec<Point>,
    },
    /// Mark the chain through this point dead, or alive again.
    Toggle {
        /// A stone of the chain.
        point: Point,
        /// The state intended: dead or alive. `None` (logs from before it was asked for)
        /// flips the chain.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dead: Option<bool>,
    },
    /// The player accepts the dead stones as marked.
    Accept {
        /// The marking the player saw: refused when it is no longer the one in force. `None`
        /// in logs from before it was asked for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dead: Option<Vec<Point>>,
        /// Against the computer: it judges the marking, else it answers with its own proposal
        /// ([`State::dispute`](super::State::dispute)). Logs from before the computer judged (`false`) keep their
        /// ending: it accepted any.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        judged: bool,
        /// With `judged`: the computer accepts only its own judgement, chain by chain — every
        /// chain marked dead is one it judges dead and every chain it judges dead is marked.
        /// Logs from before (`false`) keep their ending: it accepted any marking that counted
        /// no worse for it than its proposal.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        exact: bool,
    },
    /// A seat sets the name shown for it (and written to the record).
    Name {
        /// 1 to 40 printable characters ([`check_name`](super::check_name)).
        name: String,
    },
    /// The player disagrees: play resumes.
    Resume,
    /// A logged-in player takes the seat (by its link): the seat is held by the account, and
    /// named after it.
    Sit {
        /// The account's id.
        account: String,
        /// The account's name.
        name: String,
    },
}

/// An action with who took it and when (milliseconds since the Unix epoch).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The action.
    pub action: Action,
    /// Who (`None` for the server itself, e.g. the proposal of dead stones).
    pub color: Option<Color>,
    /// When, in milliseconds since the epoch.
    pub at_ms: i64,
}
