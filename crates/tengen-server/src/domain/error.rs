//! Why the game refuses a configuration or an action, in sentences and stable codes.

use tengen_core::game::PlayError;
use tengen_core::handicap::HandicapError;
use tengen_core::{Color, Point, SetupError};

use super::{MAX_MOVES, NameError};

/// Why the game refuses a configuration or an action: every variant reads as a sentence.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The board size is outside 2 to 25.
    #[error("the board size must be 2 to 25, not {0}")]
    Size(usize),
    /// Komi not a multiple of ½ point within ±361 points ([`komi_points`](super::komi_points)).
    #[error("komi must be a multiple of ½ point from -361 to 361, not {0}")]
    Komi(f64),
    /// The computer's level is outside 1 to 10.
    #[error("the computer's level must be 1 to 10, not {0}")]
    Level(u8),
    /// Handicap stones on a board too small for any.
    #[error("a {0}×{0} board takes no handicap stones (7×7 or larger)")]
    NoHandicap(usize),
    /// More handicap stones than the board takes, or one.
    #[error("the handicap on a {size}×{size} board is 0 or 2 to {max} stones, not {asked} (让先 is 0 with komi 0)")]
    HandicapCount {
        /// The board size.
        size: usize,
        /// The stones asked for.
        asked: usize,
        /// The most the board takes.
        max: usize,
    },
    /// A player's name breaks the rule for names.
    #[error("{what}: {why}")]
    Name {
        /// Which name (`black_name`, `PB` …).
        what: String,
        /// What is wrong with it.
        why: NameError,
    },
    /// A time control out of range.
    #[error("time control: {0}")]
    Time(&'static str),
    /// Rules the server does not play.
    #[error("the server plays the rules chinese, chinese-simple-ko and tromp-taylor, not {0:?}")]
    Rules(String),
    /// The rules core refuses a move or a mark.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The rules core refuses handicap stones.
    #[error(transparent)]
    Handicap(#[from] HandicapError),
    /// The rules core refuses to set the board up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// An imported game takes no action.
    #[error("an imported game is for review only")]
    ReviewOnly,
    /// A player acts after the flag fell.
    #[error("{0}'s time ran out")]
    TimeRanOut(Color),
    /// The server saw a flag fall that had not.
    #[error("{0}'s time has not run out")]
    TimeLeft(Color),
    /// Handicap stones when none are to be placed.
    #[error("there are no handicap stones to place")]
    NoHandicapToPlace,
    /// The wrong number of free handicap stones.
    #[error("{expected} handicap stones are to be placed, not {given}")]
    HandicapStones {
        /// The game's handicap.
        expected: usize,
        /// The stones given.
        given: usize,
    },
    /// A move before Black placed the free handicap stones.
    #[error("Black places the handicap stones first")]
    PlaceStonesFirst,
    /// A move while an undo request waits.
    #[error("an undo request waits for an answer")]
    UndoWaits,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// Correspondence days the server does not offer.
    #[error("time control: {0}")]
    Correspondence(&'static str),
    /// An abort after the game's first moves.
    #[error("a game can be aborted only before its 10th move: resign instead")]
    TooLateToAbort,
    /// The seat is held by another account.
    #[error("this seat is held by another account")]
    SeatHeld,
    /// One account on both seats of a rated game.
    #[error("a rated game is between two accounts: this account holds the other seat")]
    BothSeats,
    /// A seat held by an account is named after it.
    #[error("this seat is named after its account")]
    AccountName,
    /// An undo outside play.
    #[error("undo is for games in play")]
    UndoNotInPlay,
    /// An undo by a player without a move.
    #[error("{0} has no move to take back")]
    NothingToTakeBack(Color),
    /// An answer without an undo request.
    #[error("there is no undo request to answer")]
    NoUndoRequest,
    /// The asker answers their own undo request.
    #[error("the other player answers an undo request")]
    OwnUndoRequest,
    /// Dead stones are marked in the counting phase only.
    #[error("dead stones are marked after two passes end play")]
    NotCounting,
    /// A mark on an empty point.
    #[error("there is no stone at {0}")]
    NoStone(Point),
    /// An accept of a marking that is not the one in force (`now`, the stones marked dead).
    #[error("the marking changed since it was seen: the stones marked dead now are {}", vertices(.now))]
    MarkingChanged {
        /// The stones marked dead now.
        now: Vec<Point>,
    },
    /// An accept before the computer has judged the dead stones.
    #[error("the computer is still judging the dead stones: accept its proposal when it shows")]
    NotProposed,
    /// The game has as many moves as the server allows.
    #[error(
        "the game has reached {MAX_MOVES} moves, the most a game may have on this server: pass to end play, or resign"
    )]
    TooLong,
    /// An action by someone who may not take it (a player proposing for the server, the
    /// server resigning for a player).
    #[error("{0}")]
    NotYours(&'static str),
    /// A stored log that does not replay.
    #[error("event {event} of the log does not replay: {cause}")]
    Log {
        /// 1-based.
        event: usize,
        /// Why.
        cause: Box<GameError>,
    },
}

/// Points as a person reads them: `D4 E5`, or `no stone`.
fn vertices(points: &[Point]) -> String {
    if points.is_empty() {
        return "no stone".to_owned();
    }
    points.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// What a refusal is, for a client that words it in its own language: a stable code and the
/// point or colour the sentence names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    /// `occupied`, `ko`, `not_your_turn` … (see [`GameError::reason`]).
    pub code: &'static str,
    /// The point the refusal names.
    pub point: Option<Point>,
    /// The colour it names.
    pub color: Option<Color>,
}

impl GameError {
    /// The refusal's code: one per sentence, stable across versions.
    #[must_use]
    pub fn reason(&self) -> Reason {
        use tengen_core::IllegalMove as I;
        let (code, point, color) = match self {
            GameError::Size(_) => ("size", None, None),
            GameError::Komi(_) => ("komi", None, None),
            GameError::Level(_) => ("level", None, None),
            GameError::NoHandicap(_) => ("no_handicap", None, None),
            GameError::HandicapCount { .. } => ("handicap_count", None, None),
            GameError::Name { why, .. } => (
                match why {
                    NameError::Empty => "name_empty",
                    NameError::Long => "name_long",
                    NameError::Unprintable => "name_unprintable",
                },
                None,
                None,
            ),
            GameError::Time(_) => ("time", None, None),
            GameError::Rules(_) => ("rules", None, None),
            GameError::Play(PlayError::Illegal(m)) => match *m {
                I::OffBoard(p) => ("off_board", Some(p), None),
                I::Occupied(p) => ("occupied", Some(p), None),
                I::Suicide(p) => ("suicide", Some(p), None),
                I::Ko(p) => ("ko", Some(p), None),
                I::Superko(p) => ("superko", Some(p), None),
            },
            GameError::Play(PlayError::NotYourTurn(c)) => ("not_your_turn", None, Some(*c)),
            GameError::Play(PlayError::NotPlaying) => ("not_playing", None, None),
            GameError::Play(PlayError::NotCounting) | GameError::NotCounting => ("not_counting", None, None),
            GameError::Play(PlayError::NothingToUndo) => ("nothing_to_undo", None, None),
            GameError::Handicap(_) | GameError::Setup(_) | GameError::HandicapStones { .. } => {
                ("handicap_stones", None, None)
            }
            GameError::ReviewOnly => ("review_only", None, None),
            GameError::TimeRanOut(c) => ("time_ran_out", None, Some(*c)),
            GameError::TimeLeft(c) => ("time_left", None, Some(*c)),
            GameError::NoHandicapToPlace => ("no_handicap_to_place", None, None),
            GameError::PlaceStonesFirst => ("place_stones_first", None, None),
            GameError::UndoWaits => ("undo_waits", None, None),
            GameError::Over => ("over", None, None),
            GameError::TooLateToAbort => ("too_late_to_abort", None, None),
            GameError::Correspondence(_) => ("correspondence_days", None, None),
            GameError::SeatHeld => ("seat_held", None, None),
            GameError::BothSeats => ("both_seats", None, None),
            GameError::AccountName => ("account_name", None, None),
            GameError::UndoNotInPlay => ("undo_not_in_play", None, None),
            GameError::NothingToTakeBack(c) => ("nothing_to_take_back", None, Some(*c)),
            GameError::NoUndoRequest => ("no_undo_request", None, None),
            GameError::OwnUndoRequest => ("own_undo_request", None, None),
            GameError::NoStone(p) => ("no_stone", Some(*p), None),
            GameError::MarkingChanged { .. } => ("marking_changed", None, None),
            GameError::NotProposed => ("not_proposed", None, None),
            GameError::TooLong => ("too_long", None, None),
            GameError::NotYours(_) => ("not_yours", None, None),
            GameError::Log { .. } => ("log", None, None),
        };
        Reason { code, point, color }
    }
}
