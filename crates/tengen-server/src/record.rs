//! A game on the server: how it was set up ([`Config`]), what happened since ([`Event`], the
//! log kept in the database), and the state both give ([`State`], rebuilt by replaying the
//! log — clocks included, since every event carries its time).
//!
//! Everything here is synchronous and pure: the API checks an action against the state, and
//! only an action that [`State::apply`] accepts is stored.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use tengen_core::game::PlayError;
use tengen_core::handicap::HandicapError;
use tengen_core::{Color, Game, Komi, Move, Phase, Point, Rules, SetupError};

/// The most moves a game may have on the server (passes included), as real servers cap a
/// game's length: three times the points of the largest board, far beyond any real game.
pub const MAX_MOVES: usize = 1_200;

/// The longest player name, in characters.
pub const NAME_CHARS: usize = 40;

/// The one check of a komi given in points, wherever a request gives one: a multiple of ½
/// point from −361 to 361.
///
/// # Errors
/// [`GameError::Komi`] naming the value.
pub fn komi_points(points: f64) -> Result<Komi, GameError> {
    match Komi::from_points(points) {
        Ok(komi) if points.abs() <= 361.0 => Ok(komi),
        _ => Err(GameError::Komi(points)),
    }
}

/// Why the game refuses a configuration or an action: every variant reads as a sentence.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The board size is outside 2 to 25.
    #[error("the board size must be 2 to 25, not {0}")]
    Size(usize),
    /// Komi not a multiple of ½ point within ±361 points ([`komi_points`]).
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

/// What is wrong with a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing but spaces.
    #[error("a name cannot be empty")]
    Empty,
    /// Longer than [`NAME_CHARS`].
    #[error("a name is at most {NAME_CHARS} characters")]
    Long,
    /// A control, format (bidirectional overrides, zero-width), separator or other invisible
    /// character.
    #[error("a name is of printable characters only (no control, bidirectional or zero-width characters)")]
    Unprintable,
}

/// Characters that show nothing, or change how the text around them shows: format characters
/// (Unicode category Cf: zero-width spaces and joiners, bidirectional overrides, the BOM …),
/// line and paragraph separators, and the tag block.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFFB}' | '\u{0600}'..='\u{0605}' | '\u{06DD}' | '\u{070F}' | '\u{08E2}'
        | '\u{110BD}' | '\u{E0000}'..='\u{E0FFF}')
        || c.is_control()
        || (c.is_whitespace() && c != ' ')
}

/// The one rule for every player name, given or imported: spaces trimmed at both ends, 1 to
/// [`NAME_CHARS`] characters, all printable.
///
/// # Errors
/// [`NameError`] for a name that breaks it.
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.trim_matches(' ');
    if name.chars().any(invisible) {
        return Err(NameError::Unprintable);
    }
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.chars().count() > NAME_CHARS {
        return Err(NameError::Long);
    }
    Ok(name.to_owned())
}

/// The most handicap stones a board of `size` takes with `placement`: none below 7×7; on
/// the star points as many as there are (4 or 9); placed freely, 9.
#[must_use]
pub fn max_handicap(size: usize, placement: Placement) -> usize {
    match placement {
        _ if size < 7 => 0,
        Placement::Fixed => tengen_core::handicap::max_fixed(size),
        Placement::Free => 9,
    }
}

/// Who plays the other seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Opponent {
    /// The computer, at a level from 1 to 10.
    Computer {
        /// 1 (a beginner can win) to 10.
        #[schema(minimum = 1, maximum = 10)]
        level: u8,
    },
    /// Another person, who gets the other seat's link.
    Friend,
}

/// How handicap stones are placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// On the star points, in the usual order.
    #[default]
    Fixed,
    /// Black chooses the points (the computer, when it is Black, takes the fixed ones).
    Free,
}

/// A time control. Seconds throughout.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// No clock. (A variant with fields, empty, so that serde refuses unknown fields in it too.)
    None {},
    /// Main time only: when it runs out, the game is lost.
    Absolute {
        /// Main time, more than 0, at most 30 days.
        #[schema(exclusive_minimum = 0, maximum = 2_592_000)]
        main: f64,
    },
    /// Main time, then `periods` periods of `period` seconds (读秒): a move within a period
    /// keeps it; a period used up is lost.
    Byoyomi {
        /// Main time, at most 30 days.
        #[schema(minimum = 0, maximum = 2_592_000)]
        main: f64,
        /// Length of a period: 1 second to 30 days.
        #[schema(minimum = 1, maximum = 2_592_000)]
        period: f64,
        /// Number of periods, 1 to 100.
        #[schema(minimum = 1, maximum = 100)]
        periods: u32,
    },
    /// Main time, then `stones` moves in every `period` seconds.
    Canadian {
        /// Main time, at most 30 days.
        #[schema(minimum = 0, maximum = 2_592_000)]
        main: f64,
        /// Length of a period: 1 second to 30 days.
        #[schema(minimum = 1, maximum = 2_592_000)]
        period: f64,
        /// Moves to play in each period, 1 to 1000.
        #[schema(minimum = 1, maximum = 1000)]
        stones: u32,
    },
    /// Main time, and `increment` seconds added after each move.
    Fischer {
        /// Main time, more than 0, at most 30 days.
        #[schema(exclusive_minimum = 0, maximum = 2_592_000)]
        main: f64,
        /// Added after each move, at most 30 days.
        #[schema(minimum = 0, maximum = 2_592_000)]
        increment: f64,
    },
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl::None {}
    }
}

impl TimeControl {
    fn check(&self) -> Result<(), GameError> {
        let ok = |x: f64| x.is_finite() && (0.0..=86_400.0 * 30.0).contains(&x);
        let refuse = |why| Err(GameError::Time(why));
        let main = match *self {
            TimeControl::None {} => return Ok(()),
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } if !(ok(main) && main > 0.0) => {
                return refuse("main time must be more than 0 and at most 30 days (in seconds)");
            }
            TimeControl::Absolute { main }
            | TimeControl::Fischer { main, .. }
            | TimeControl::Byoyomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        };
        if !ok(main) {
            return refuse("main time must be 0 to 30 days (in seconds)");
        }
        match *self {
            TimeControl::Byoyomi { period, periods, .. } => {
                if !(ok(period) && period >= 1.0) {
                    return refuse("a byo-yomi period must be 1 second to 30 days");
                }
                if !(1..=100).contains(&periods) {
                    return refuse("byo-yomi has 1 to 100 periods");
                }
            }
            TimeControl::Canadian { period, stones, .. } => {
                if !(ok(period) && period >= 1.0) {
                    return refuse("a Canadian period must be 1 second to 30 days");
                }
                if !(1..=1000).contains(&stones) {
                    return refuse("a Canadian period is for 1 to 1000 stones");
                }
            }
            TimeControl::Fischer { increment, .. } if !ok(increment) => {
                return refuse("the Fischer increment must be 0 to 30 days (in seconds)");
            }
            _ => {}
        }
        Ok(())
    }
}

/// How a game was set up: everything needed to replay its log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Board size.
    pub size: usize,
    /// Rules preset (`chinese`, `chinese-simple-ko`, `tromp-taylor`).
    pub rules: String,
    /// Komi in half points.
    pub komi_half_points: i32,
    /// Handicap stones (0, or 2 to 9; 让先 is 0 stones with komi 0).
    pub handicap: usize,
    /// Fixed or free placement.
    pub placement: Placement,
    /// Computer or friend.
    pub opponent: Opponent,
    /// The computer's colour in a game against it.
    pub computer: Option<Color>,
    /// The time control.
    pub time: TimeControl,
    /// Black's name as the game began (empty: not named); [`Action::Name`] changes it.
    pub black_name: String,
    /// White's name, likewise.
    pub white_name: String,
    /// The nigiri, when colours were drawn: (the guess was odd, stones in the handful).
    pub nigiri: Option<(bool, u8)>,
    /// Imported from SGF for review: no seats, no play.
    pub imported: bool,
}

impl Config {
    /// The rules of this game, komi included.
    ///
    /// # Errors
    /// [`GameError::Rules`] for rules the server does not play.
    pub fn game_rules(&self) -> Result<Rules, GameError> {
        let rules = Rules::preset(&self.rules).map_err(|_| GameError::Rules(self.rules.clone()))?;
        if rules.scoring != tengen_core::Scoring::Area {
            return Err(GameError::Rules(self.rules.clone()));
        }
        Ok(Rules { komi: Komi::from_half_points(self.komi_half_points), ..rules })
    }

    /// Checks the parts that are not checked by building the game.
    ///
    /// # Errors
    /// The first part out of range.
    pub fn check(&self) -> Result<(), GameError> {
        if !(2..=25).contains(&self.size) {
            return Err(GameError::Size(self.size));
        }
        if self.komi_half_points.abs() > 2 * 361 {
            return Err(GameError::Komi(f64::from(self.komi_half_points) / 2.0));
        }
        if let Opponent::Computer { level } = self.opponent
            && !(1..=10).contains(&level)
        {
            return Err(GameError::Level(level));
        }
        let max = max_handicap(self.size, self.placement);
        if self.handicap == 1 || self.handicap > max {
            return Err(match max {
                0 => GameError::NoHandicap(self.size),
                _ => GameError::HandicapCount { size: self.size, asked: self.handicap, max },
            });
        }
        // An empty name is a seat nobody named yet.
        for (what, name) in [("black_name", &self.black_name), ("white_name", &self.white_name)] {
            if !name.is_empty() {
                check_name(name).map_err(|why| GameError::Name { what: what.into(), why })?;
            }
        }
        self.time.check()?;
        self.game_rules().map(|_| ())
    }

    /// The empty game (fixed handicap stones placed).
    ///
    /// # Errors
    /// What the rules core refuses.
    pub fn new_game(&self) -> Result<Game, GameError> {
        let rules = self.game_rules()?;
        if self.handicap >= 2 && self.placement == Placement::Fixed {
            Ok(Game::with_fixed_handicap(self.size, rules, self.handicap)?)
        } else {
            Ok(Game::new(self.size, rules)?)
        }
    }

    /// Black must place the handicap stones before play.
    pub fn places_stones(&self) -> bool {
        self.handicap >= 2 && self.placement == Placement::Free
    }
}

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
        /// ([`State::dispute`]). Logs from before the computer judged (`false`) keep their
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
        /// 1 to 40 printable characters ([`check_name`]).
        name: String,
    },
    /// The player disagrees: play resumes.
    Resume,
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

/// One player's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Clock {
    /// Main time left, in milliseconds.
    pub main_ms: i64,
    /// Byo-yomi: periods left (the last one is `periods == 1`). Canadian: 1 while in overtime.
    pub periods: u32,
    /// Time left in the current period (byo-yomi, Canadian), in milliseconds.
    pub period_ms: i64,
    /// Canadian: moves still to play in this period.
    pub stones: u32,
    /// In overtime (byo-yomi or Canadian periods).
    pub overtime: bool,
}

impl Clock {
    fn start(time: &TimeControl) -> Clock {
        let ms = |s: f64| (s * 1000.0).round() as i64;
        match *time {
            TimeControl::None {} => Clock::default(),
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => {
                Clock { main_ms: ms(main), ..Clock::default() }
            }
            TimeControl::Byoyomi { main, period, periods } => {
                Clock { main_ms: ms(main), periods, period_ms: ms(period), stones: 0, overtime: main <= 0.0 }
            }
            TimeControl::Canadian { main, period, stones } => {
                Clock { main_ms: ms(main), periods: 1, period_ms: ms(period), stones, overtime: main <= 0.0 }
            }
        }
    }

    /// The time this clock can still run before its flag falls, in milliseconds.
    pub fn remaining_ms(&self, time: &TimeControl) -> Option<i64> {
        match time {
            TimeControl::None {} => None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => Some(self.main_ms),
            TimeControl::Byoyomi { period, .. } => {
                let later = i64::from(self.periods.saturating_sub(1)) * (period * 1000.0).round() as i64;
                Some(if self.overtime { self.period_ms + later } else { self.main_ms + self.period_ms + later })
            }
            TimeControl::Canadian { .. } => {
                Some(if self.overtime { self.period_ms } else { self.main_ms + self.period_ms })
            }
        }
    }

    /// Spends main time first: `None` while it lasts, else what is left of `elapsed` for the
    /// overtime periods (entered from then on).
    fn spend_main(&mut self, elapsed: i64) -> Option<i64> {
        if self.overtime {
            return Some(elapsed);
        }
        if elapsed <= self.main_ms {
            self.main_ms -= elapsed;
            return None;
        }
        let rest = elapsed - self.main_ms;
        self.main_ms = 0;
        self.overtime = true;
        Some(rest)
    }

    /// Runs the clock for `elapsed` ms; `false` when its flag fell.
    fn run(&mut self, time: &TimeControl, elapsed: i64) -> bool {
        let ms = |s: f64| (s * 1000.0).round() as i64;
        match *time {
            TimeControl::None {} => true,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {
                self.main_ms -= elapsed;
                self.main_ms >= 0
            }
            TimeControl::Byoyomi { period, .. } => {
                let Some(mut elapsed) = self.spend_main(elapsed) else { return true };
                // Each period used up is lost; the move made within a period resets it.
                while elapsed > self.period_ms {
                    elapsed -= self.period_ms;
                    self.periods = self.periods.saturating_sub(1);
                    if self.periods == 0 {
                        return false;
                    }
                    self.period_ms = ms(period);
                }
                self.period_ms -= elapsed;
                true
            }
            TimeControl::Canadian { .. } => {
                let Some(elapsed) = self.spend_main(elapsed) else { return true };
                self.period_ms -= elapsed;
                self.period_ms >= 0
            }
        }
    }

    /// A move was made (after `run`): byo-yomi resets the period, Canadian counts the stone,
    /// Fischer adds the increment.
    fn moved(&mut self, time: &TimeControl) {
        let ms = |s: f64| (s * 1000.0).round() as i64;
        match *time {
            TimeControl::Byoyomi { period, .. } if self.overtime => self.period_ms = ms(period),
            TimeControl::Canadian { period, stones, .. } if self.overtime => {
                self.stones = self.stones.saturating_sub(1);
                if self.stones == 0 {
                    self.stones = stones;
                    self.period_ms = ms(period);
                }
            }
            TimeControl::Fischer { increment, .. } => self.main_ms += ms(increment),
            _ => {}
        }
    }
}

/// Where the computer disagrees with a marking it was asked to accept: one stone of each
/// chain it judges otherwise.
#[derive(Clone, Debug, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Dispute {
    /// Chains marked dead that the computer judges alive.
    #[schema(value_type = Vec<String>)]
    pub alive: Vec<Point>,
    /// Chains left alive that the computer judges dead.
    #[schema(value_type = Vec<String>)]
    pub dead: Vec<Point>,
}

/// Where a game stands after its log.
#[derive(Clone, Debug)]
pub struct State {
    /// The configuration.
    pub config: Config,
    /// The game of the rules core.
    pub game: Game,
    /// Black has still to place free handicap stones.
    pub placing: bool,
    /// Dead stones marked in the counting phase.
    pub dead: BTreeSet<Point>,
    /// The server proposed dead stones since play last stopped.
    pub proposed: bool,
    /// Who accepted the marked stones (reset by any toggle).
    pub accepted: [bool; 2],
    /// The server's proposal of dead stones since play last stopped (the engine's judgement).
    pub proposal: BTreeSet<Point>,
    /// Against the computer: the marking it last refused, and why, until the marking changes.
    pub dispute: Option<Dispute>,
    /// An undo asked for by this colour and not yet answered.
    pub undo_request: Option<Color>,
    /// The colour whose undo request the other seat refused, until that colour acts again.
    pub undo_refused: Option<Color>,
    /// The two clocks, as of `clock_since`.
    pub clocks: [Clock; 2],
    /// When the running clock (of the side to move, while playing) last started.
    pub clock_since: i64,
    /// Events applied.
    pub events: usize,
    /// When the game was created.
    pub created_ms: i64,
    /// Whether a stone has been played or placed: a friend game's clocks wait for it (the
    /// friend may not have opened the link yet).
    pub started: bool,
}

impl State {
    /// A new game as configured, created at `at_ms`.
    ///
    /// # Errors
    /// A configuration out of range.
    pub fn new(config: Config, at_ms: i64) -> Result<State, GameError> {
        config.check()?;
        let game = config.new_game()?;
        let clock = Clock::start(&config.time);
        Ok(State {
            placing: config.places_stones(),
            config,
            game,
            dead: BTreeSet::new(),
            proposed: false,
            accepted: [false; 2],
            proposal: BTreeSet::new(),
            dispute: None,
            undo_request: None,
            undo_refused: None,
            clocks: [clock; 2],
            clock_since: at_ms,
            events: 0,
            created_ms: at_ms,
            started: false,
        })
    }

    /// A game imported from a record, for review: its moves as played, no seats, no clock.
    pub fn imported(config: Config, game: Game, at_ms: i64) -> State {
        State {
            placing: false,
            config,
            game,
            dead: BTreeSet::new(),
            proposed: true,
            accepted: [false; 2],
            proposal: BTreeSet::new(),
            dispute: None,
            undo_request: None,
            undo_refused: None,
            clocks: [Clock::default(); 2],
            clock_since: at_ms,
            events: 0,
            created_ms: at_ms,
            started: true,
        }
    }

    /// Replays a log.
    ///
    /// # Errors
    /// [`GameError::Log`] for an event that does not replay.
    pub fn replay(config: Config, created_ms: i64, events: &[Event]) -> Result<State, GameError> {
        let mut state = State::new(config, created_ms)?;
        // In place: a failed event fails the whole replay, so no event needs the copy that
        // `apply` makes to stay unchanged on refusal (a copy per event would make replaying
        // quadratic in the game's length).
        for (i, e) in events.iter().enumerate() {
            state.apply_in_place(e).map_err(|cause| GameError::Log { event: i + 1, cause: Box::new(cause) })?;
            state.events += 1;
        }
        Ok(state)
    }

    /// Whose clock runs: the side to move while playing (or Black while placing stones) —
    /// between friends only from the first stone played or placed, as both may not be there
    /// when the game is created.
    pub fn clock_runs(&self) -> Option<Color> {
        if matches!(self.config.time, TimeControl::None {}) || self.config.imported {
            return None;
        }
        if self.config.computer.is_none() && !self.started {
            return None;
        }
        match self.game.phase() {
            Phase::Playing if self.placing => Some(Color::Black),
            Phase::Playing => Some(self.game.to_move()),
            _ => None,
        }
    }

    /// The clocks as they read at `now_ms`, and the colour whose flag has fallen, if any.
    pub fn clocks_at(&self, now_ms: i64) -> ([Clock; 2], Option<Color>) {
        let mut clocks = self.clocks;
        let mut fallen = None;
        if let Some(c) = self.clock_runs() {
            let elapsed = (now_ms - self.clock_since).max(0);
            if !clocks[c.index()].run(&self.config.time, elapsed) {
                fallen = Some(c);
            }
        }
        (clocks, fallen)
    }

    /// The moment the running clock's flag falls, if one runs.
    pub fn deadline_ms(&self) -> Option<i64> {
        let c = self.clock_runs()?;
        self.clocks[c.index()].remaining_ms(&self.config.time).map(|left| self.clock_since + left.max(0))
    }

    /// Whether `action` would leave the game as it is (a toggle to the state the chain is
    /// already in): the server checks it like any action but appends nothing.
    #[must_use]
    pub fn unchanged_by(&self, action: &Action) -> bool {
        match action {
            Action::Toggle { point, dead: Some(dead) } => {
                self.game.phase() == Phase::Counting
                    && self.game.board().contains(*point)
                    && self.game.board().get(*point).is_some()
                    && self.dead.contains(point) == *dead
            }
            _ => false,
        }
    }

    /// Checks `event` and applies it; on error the state is unchanged.
    ///
    /// # Errors
    /// What the rules or the game's state refuse.
    pub fn apply(&mut self, event: &Event) -> Result<(), GameError> {
        let mut next = self.clone();
        next.apply_in_place(event)?;
        next.events += 1;
        *self = next;
        Ok(())
    }

    fn apply_in_place(&mut self, event: &Event) -> Result<(), GameError> {
        if self.config.imported {
            return Err(GameError::ReviewOnly);
        }
        let at = event.at_ms;
        // The clock of the side to move runs up to this event.
        let mut fallen = None;
        let charged_until = match event.action {
            Action::Restart { down_since_ms } => at.min(down_since_ms.max(self.clock_since)),
            _ => at,
        };
        if let Some(c) = self.clock_runs() {
            let elapsed = (charged_until - self.clock_since).max(0);
            let time = self.config.time;
            if !self.clocks[c.index()].run(&time, elapsed) {
                fallen = Some(c);
            }
        }
        self.clock_since = at;
        if let Some(c) = fallen
            && event.action != Action::Timeout
        {
            return Err(GameError::TimeRanOut(c));
        }
        match (&event.action, event.color) {
            (Action::Timeout, Some(c)) => {
                if fallen != Some(c) {
                    return Err(GameError::TimeLeft(c));
                }
                self.game.lose_on_time(c);
            }
            (Action::Restart { .. }, None) => {}
            (Action::Handicap { points }, Some(Color::Black)) => {
                if !self.placing {
                    return Err(GameError::NoHandicapToPlace);
                }
                if points.len() != self.config.handicap {
                    return Err(GameError::HandicapStones { expected: self.config.handicap, given: points.len() });
                }
                self.game.set_handicap(points)?;
                self.placing = false;
                self.started = true;
            }
            (Action::Move { mv }, Some(c)) => {
                if self.placing {
                    return Err(GameError::PlaceStonesFirst);
                }
                if self.undo_request.is_some() {
                    return Err(GameError::UndoWaits);
                }
                // At the cap, only passes: play can still end and be counted.
                let moves = self.game.moves().len();
                if moves >= MAX_MOVES + 2 || (moves >= MAX_MOVES && *mv != Move::Pass) {
                    return Err(GameError::TooLong);
                }
                if c != self.game.to_move() && self.game.phase() == Phase::Playing {
                    return Err(PlayError::NotYourTurn(self.game.to_move()).into());
                }
                self.game.play_as(c, *mv)?;
                self.clocks[c.index()].moved(&self.config.time);
                self.started = true;
                self.undo_refused = None;
            }
            (Action::Resign, Some(c)) => {
                if matches!(self.game.phase(), Phase::Ended(_)) {
                    return Err(GameError::Over);
                }
                self.game.resign(c);
            }
            (Action::UndoRequest, Some(c)) => {
                if self.game.phase() != Phase::Playing {
                    return Err(GameError::UndoNotInPlay);
                }
                if !self.game.moves().iter().any(|(mc, _)| *mc == c) {
                    return Err(GameError::NothingToTakeBack(c));
                }
                if self.undo_request.is_some() {
                    return Err(GameError::UndoWaits);
                }
                self.undo_refused = None;
                if self.config.computer.is_some() {
                    self.take_back(c)?;
                } else {
                    self.undo_request = Some(c);
                }
            }
            (Action::UndoAccept | Action::UndoReject, Some(c)) => {
                let Some(asker) = self.undo_request else { return Err(GameError::NoUndoRequest) };
                if asker == c {
                    return Err(GameError::OwnUndoRequest);
                }
                self.undo_request = None;
                if event.action == Action::UndoAccept {
                    self.take_back(asker)?;
                } else {
                    self.undo_refused = Some(asker);
                }
            }
            (Action::Propose { dead }, None) => {
                if self.game.phase() != Phase::Counting {
                    return Err(GameError::NotCounting);
                }
                self.dead = dead.iter().copied().collect();
                self.proposal = self.dead.clone();
                self.proposed = true;
                self.accepted = [false; 2];
                self.dispute = None;
            }
            (Action::Toggle { point, dead }, Some(_)) => {
                if self.game.phase() != Phase::Counting {
                    return Err(GameError::NotCounting);
                }
                let board = self.game.board();
                if !board.contains(*point) || board.get(*point).is_none() {
                    return Err(GameError::NoStone(*point));
                }
                let chain: Vec<Point> = board.chain(*point).collect();
                // The intended state, when given (a retried request changes nothing more);
                // logs written before it flip the chain.
                let now_dead = self.dead.contains(point);
                if *dead == Some(now_dead) {
                    return Ok(());
                }
                if now_dead {
                    chain.iter().for_each(|p| {
                        self.dead.remove(p);
                    });
                } else {
                    self.dead.extend(chain);
                }
                self.accepted = [false; 2];
                self.dispute = None;
            }
            (Action::Accept { dead, judged, exact }, Some(c)) => {
                if self.game.phase() != Phase::Counting {
                    return Err(GameError::NotCounting);
                }
                if let Some(seen) = dead {
                    let seen: BTreeSet<Point> = seen.iter().copied().collect();
                    if seen != self.dead {
                        return Err(GameError::MarkingChanged { now: self.dead_stones() });
                    }
                }
                if *judged && self.config.computer.is_some() && !self.proposed {
                    return Err(GameError::NotProposed);
                }
                self.accepted[c.index()] = true;
                if let Some(computer) = self.config.computer {
                    if *judged && let Some(dispute) = self.judge(computer, *exact) {
                        // The computer answers with its own proposal; the player accepts
                        // that, or resumes play to settle the stones on the board.
                        self.dead = self.proposal.clone();
                        self.accepted = [false; 2];
                        self.dispute = Some(dispute);
                        return Ok(());
                    }
                    self.accepted[computer.index()] = true;
                }
                if self.accepted == [true, true] {
                    let dead: Vec<Point> = self.dead.iter().copied().collect();
                    self.game.finish(&dead)?;
                }
            }
            (Action::Name { name }, Some(c)) => {
                let name = check_name(name).map_err(|why| GameError::Name { what: "name".into(), why })?;
                match c {
                    Color::Black => self.config.black_name = name,
                    Color::White => self.config.white_name = name,
                }
            }
            (Action::Resume, Some(_)) => {
                if self.game.moves().len() >= MAX_MOVES {
                    return Err(GameError::TooLong);
                }
                self.game.resume()?;
                self.proposed = false;
                self.dead.clear();
                self.proposal.clear();
                self.dispute = None;
                self.accepted = [false; 2];
            }
            (Action::Timeout | Action::Restart { .. } | Action::Propose { .. }, _) => {
                return Err(GameError::NotYours(
                    "only the server ends a game on time, restarts or proposes dead stones",
                ));
            }
            (Action::Handicap { .. }, _) => return Err(GameError::NotYours("Black places the handicap stones")),
            (_, None) => return Err(GameError::NotYours("only a player takes this action")),
        }
        Ok(())
    }

    /// The computer's (`computer`'s) answer to the marking in force: `None` when it agrees,
    /// else the chains on which the marking and its proposal differ. It agrees when the two
    /// mark the same chains dead (`exact`), or, in logs from before that rule, when the
    /// marking counts no worse for it than its proposal.
    fn judge(&self, computer: Color, exact: bool) -> Option<Dispute> {
        let board = self.game.board();
        // A chain is marked dead when one of its stones is (markings are by chains; a
        // proposal names every stone of its chains).
        let marked = |set: &BTreeSet<Point>, p: Point| board.chain(p).any(|s| set.contains(&s));
        let mut dispute = Dispute::default();
        let mut seen = BTreeSet::new();
        for p in board.points().filter(|&p| board.get(p).is_some()) {
            if !seen.insert(board.chain(p).min().expect("a stone")) {
                continue;
            }
            match (marked(&self.dead, p), marked(&self.proposal, p)) {
                (true, false) => dispute.alive.push(p),
                (false, true) => dispute.dead.push(p),
                _ => {}
            }
        }
        if dispute == Dispute::default() {
            return None;
        }
        if !exact {
            let for_computer = |dead: &BTreeSet<Point>| {
                let margin = self.game.score(&dead.iter().copied().collect::<Vec<_>>()).margin();
                if computer == Color::Black { margin } else { -margin }
            };
            if for_computer(&self.dead) >= for_computer(&self.proposal) {
                return None;
            }
        }
        Some(dispute)
    }

    /// Takes back `color`'s last move and everything after it.
    fn take_back(&mut self, color: Color) -> Result<(), GameError> {
        let moves = self.game.moves();
        let last = moves.iter().rposition(|(c, _)| *c == color).ok_or(GameError::NothingToTakeBack(color))?;
        self.game = self.game.truncated(last);
        Ok(())
    }

    /// The stones of the chains marked dead, for counting.
    pub fn dead_stones(&self) -> Vec<Point> {
        self.dead.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(opponent: Opponent, time: TimeControl) -> Config {
        Config {
            size: 9,
            rules: "chinese".into(),
            komi_half_points: 15,
            handicap: 0,
            placement: Placement::Fixed,
            opponent,
            computer: match opponent {
                Opponent::Computer { .. } => Some(Color::White),
                Opponent::Friend => None,
            },
            time,
            black_name: "B".into(),
            white_name: "W".into(),
            nigiri: None,
            imported: false,
        }
    }

    fn ev(action: Action, color: Option<Color>, at_ms: i64) -> Event {
        Event { action, color, at_ms }
    }

    fn mv(s: &str) -> Action {
        Action::Move { mv: s.parse().unwrap() }
    }

    #[test]
    fn moves_turns_and_refusals_leave_the_state_alone() {
        let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
        s.apply(&ev(mv("E5"), Some(Color::Black), 1)).unwrap();
        let before = s.game.moves().len();
        for (action, color) in [
            (mv("D4"), Color::Black),
            (mv("E5"), Color::White),
            (mv("Z9"), Color::White),
            (Action::Accept { dead: None, judged: false, exact: false }, Color::White),
        ] {
            assert!(s.apply(&ev(action, Some(color), 2)).is_err());
        }
        assert_eq!(s.game.moves().len(), before);
        assert_eq!(s.events, 1);
    }

    #[test]
    fn undo_between_friends_is_a_request() {
        let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
        for (m, c) in [("E5", Color::Black), ("C3", Color::White), ("G7", Color::Black)] {
            s.apply(&ev(mv(m), Some(c), 1)).unwrap();
        }
        // White asks to take back C3: G7 goes too, and it is White's turn again.
        s.apply(&ev(Action::UndoRequest, Some(Color::White), 2)).unwrap();
        assert!(s.apply(&ev(mv("D4"), Some(Color::White), 3)).is_err(), "no play while a request waits");
        assert!(s.apply(&ev(Action::UndoAccept, Some(Color::White), 3)).is_err(), "not one's own request");
        s.apply(&ev(Action::UndoAccept, Some(Color::Black), 3)).unwrap();
        assert_eq!(s.game.moves().len(), 1);
        assert_eq!(s.game.to_move(), Color::White);
        // Refused: nothing changes.
        s.apply(&ev(Action::UndoRequest, Some(Color::Black), 4)).unwrap();
        s.apply(&ev(Action::UndoReject, Some(Color::White), 5)).unwrap();
        assert_eq!(s.game.moves().len(), 1);
    }

    #[test]
    fn undo_against_the_computer_takes_back_both_moves() {
        let mut s = State::new(config(Opponent::Computer { level: 1 }, TimeControl::None {}), 0).unwrap();
        s.apply(&ev(mv("E5"), Some(Color::Black), 1)).unwrap();
        s.apply(&ev(mv("C3"), Some(Color::White), 2)).unwrap();
        s.apply(&ev(Action::UndoRequest, Some(Color::Black), 3)).unwrap();
        assert_eq!(s.game.moves().len(), 0);
        assert_eq!(s.undo_request, None);
    }

    #[test]
    fn the_computer_accepts_only_its_own_judgement() {
        // Black (the player) E5, White (the computer) D4 and F6: White's stones live.
        let mut s = State::new(config(Opponent::Computer { level: 3 }, TimeControl::None {}), 0).unwrap();
        for (m, c) in [("E5", Color::Black), ("D4", Color::White), ("C7", Color::Black), ("F6", Color::White)] {
            s.apply(&ev(mv(m), Some(c), 1)).unwrap();
        }
        for (m, c) in [("pass", Color::Black), ("pass", Color::White)] {
            s.apply(&ev(mv(m), Some(c), 1)).unwrap();
        }
        let judged = |dead: Vec<Point>| Action::Accept { dead: Some(dead), judged: true, exact: true };
        let p = |v: &str| -> Point { v.parse().unwrap() };
        // Before the computer has judged, an accept is refused.
        assert_eq!(s.apply(&ev(judged(vec![]), Some(Color::Black), 2)), Err(GameError::NotProposed));
        s.apply(&ev(Action::Propose { dead: vec![] }, None, 2)).unwrap();
        // The player marks the computer's D4 dead: refused, with the computer's proposal back
        // in force and the chain named.
        s.apply(&ev(Action::Toggle { point: p("D4"), dead: Some(true) }, Some(Color::Black), 3)).unwrap();
        s.apply(&ev(judged(vec![p("D4")]), Some(Color::Black), 4)).unwrap();
        assert_eq!(s.game.phase(), Phase::Counting);
        assert_eq!(s.dispute, Some(Dispute { alive: vec![p("D4")], dead: vec![] }));
        assert!(s.dead.is_empty() && s.accepted == [false, false]);
        // A marking that counts better for the computer (the player's living C7 given up) is
        // refused all the same: the computer agrees to its judgement only.
        s.apply(&ev(Action::Toggle { point: p("C7"), dead: Some(true) }, Some(Color::Black), 5)).unwrap();
        assert_eq!(s.dispute, None, "a change of the marking clears the dispute");
        s.apply(&ev(judged(vec![p("C7")]), Some(Color::Black), 6)).unwrap();
        assert_eq!(s.game.phase(), Phase::Counting);
        assert_eq!(s.dispute, Some(Dispute { alive: vec![p("C7")], dead: vec![] }));
        // Its own judgement it accepts.
        s.apply(&ev(judged(vec![]), Some(Color::Black), 7)).unwrap();
        let Phase::Ended(outcome) = s.game.phase() else { panic!("counted") };
        assert!(outcome.result_points().starts_with("W+"), "{}", outcome.result_points());

        // A stone the computer judges dead and the player leaves alive: refused, and named.
        let mut s = State::new(config(Opponent::Computer { level: 3 }, TimeControl::None {}), 0).unwrap();
        for (m, c) in [("E5", Color::Black), ("D4", Color::White), ("pass", Color::Black), ("pass", Color::White)] {
            s.apply(&ev(mv(m), Some(c), 1)).unwrap();
        }
        s.apply(&ev(Action::Propose { dead: vec![p("E5")] }, None, 2)).unwrap();
        s.apply(&ev(Action::Toggle { point: p("E5"), dead: Some(false) }, Some(Color::Black), 3)).unwrap();
        s.apply(&ev(judged(vec![]), Some(Color::Black), 4)).unwrap();
        assert_eq!(s.dispute, Some(Dispute { alive: vec![], dead: vec![p("E5")] }));
        assert_eq!(s.dead_stones(), [p("E5")], "its proposal is back in force");

        // Logs from before keep their endings: with `judged` alone the computer accepted a
        // marking no worse for it, and before that any marking.
        for (judged, exact) in [(true, false), (false, false)] {
            let mut old = State::new(config(Opponent::Computer { level: 3 }, TimeControl::None {}), 0).unwrap();
            for (m, c) in [("E5", Color::Black), ("D4", Color::White), ("pass", Color::Black), ("pass", Color::White)] {
                old.apply(&ev(mv(m), Some(c), 1)).unwrap();
            }
            old.apply(&ev(Action::Propose { dead: vec![] }, None, 2)).unwrap();
            let given_up = if judged { "E5" } else { "D4" };
            old.apply(&ev(Action::Toggle { point: p(given_up), dead: Some(true) }, Some(Color::Black), 3)).unwrap();
            old.apply(&ev(Action::Accept { dead: Some(vec![p(given_up)]), judged, exact }, Some(Color::Black), 4))
                .unwrap();
            assert!(matches!(old.game.phase(), Phase::Ended(_)), "judged {judged}");
        }
    }

    #[test]
    fn each_seat_names_itself_and_a_refused_undo_is_told() {
        let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
        s.apply(&ev(Action::Name { name: "  Ke Jie ".into() }, Some(Color::White), 1)).unwrap();
        assert_eq!((s.config.black_name.as_str(), s.config.white_name.as_str()), ("B", "Ke Jie"));
        let long = s.apply(&ev(Action::Name { name: "x".repeat(41) }, Some(Color::Black), 2)).unwrap_err();
        assert_eq!(long.reason().code, "name_long");
        assert_eq!(s.config.black_name, "B");
        s.apply(&ev(mv("E5"), Some(Color::Black), 3)).unwrap();
        s.apply(&ev(Action::UndoRequest, Some(Color::Black), 4)).unwrap();
        s.apply(&ev(Action::UndoReject, Some(Color::White), 5)).unwrap();
        assert_eq!(s.undo_refused, Some(Color::Black));
        s.apply(&ev(mv("D4"), Some(Color::White), 6)).unwrap();
        assert_eq!(s.undo_refused, None, "the next move makes it old news");
    }

    #[test]
    fn refusals_carry_a_code_and_what_they_name() {
        let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
        s.apply(&ev(mv("E5"), Some(Color::Black), 1)).unwrap();
        let occupied = s.apply(&ev(mv("E5"), Some(Color::White), 2)).unwrap_err().reason();
        assert_eq!((occupied.code, occupied.point), ("occupied", Some("E5".parse().unwrap())));
        let turn = s.apply(&ev(mv("D4"), Some(Color::Black), 2)).unwrap_err().reason();
        assert_eq!((turn.code, turn.color), ("not_your_turn", Some(Color::White)));
    }

    #[test]
    fn counting_toggles_and_agreement() {
        let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
        for (m, c) in [("E5", Color::Black), ("A1", Color::White), ("pass", Color::Black), ("pass", Color::White)] {
            s.apply(&ev(mv(m), Some(c), 1)).unwrap();
        }
        assert_eq!(s.game.phase(), Phase::Counting);
        s.apply(&ev(Action::Propose { dead: vec![] }, None, 2)).unwrap();
        let a1: Point = "A1".parse().unwrap();
        // A log from before toggles said their state: each flips the chain.
        s.apply(&ev(Action::Toggle { point: a1, dead: None }, Some(Color::Black), 3)).unwrap();
        s.apply(&ev(Action::Accept { dead: None, judged: false, exact: false }, Some(Color::White), 4)).unwrap();
        // A toggle after an acceptance asks both again.
        s.apply(&ev(Action::Toggle { point: a1, dead: None }, Some(Color::Black), 5)).unwrap();
        s.apply(&ev(Action::Toggle { point: a1, dead: None }, Some(Color::Black), 6)).unwrap();
        assert_eq!(s.accepted, [false, false]);
        // Saying the state: a retry changes nothing.
        for at in [7, 8] {
            s.apply(&ev(Action::Toggle { point: a1, dead: Some(true) }, Some(Color::Black), at)).unwrap();
            assert_eq!(s.dead.iter().copied().collect::<Vec<_>>(), [a1]);
        }
        // An accept of a marking that is no longer the one in force is refused.
        let stale = s
            .apply(&ev(Action::Accept { dead: Some(vec![]), judged: false, exact: false }, Some(Color::White), 9))
            .unwrap_err();
        assert_eq!(stale.to_string(), "the marking changed since it was seen: the stones marked dead now are A1");
        assert_eq!(s.accepted, [false, false]);
        s.apply(&ev(Action::Accept { dead: Some(vec![a1]), judged: false, exact: false }, Some(Color::White), 9))
            .unwrap();
        s.apply(&ev(Action::Accept { dead: Some(vec![a1]), judged: false, exact: false }, Some(Color::Black), 10))
            .unwrap();
        let Phase::Ended(outcome) = s.game.phase() else { panic!("counted") };
        assert_eq!(outcome.result_points(), "B+73.5");
        assert!(s.apply(&ev(Action::Resume, Some(Color::White), 9)).is_err());
    }

    #[test]
    fn a_friend_games_clocks_wait_for_the_first_stone() {
        let time = TimeControl::Absolute { main: 60.0 };
        let mut s = State::new(config(Opponent::Friend, time), 0).unwrap();
        // An hour before the friend comes: no clock runs, no flag falls, no deadline.
        assert_eq!(s.clock_runs(), None);
        assert_eq!((s.clocks_at(3_600_000).1, s.deadline_ms()), (None, None));
        // Black's first move is free; White's clock runs from it.
        s.apply(&ev(mv("E5"), Some(Color::Black), 3_600_000)).unwrap();
        assert_eq!(s.clocks[0].main_ms, 60_000);
        assert_eq!(s.clock_runs(), Some(Color::White));
        assert_eq!(s.clocks_at(3_610_000).0[1].main_ms, 50_000);
        // Against the computer the player is there from the start: Black's clock runs at once.
        let s = State::new(config(Opponent::Computer { level: 1 }, time), 0).unwrap();
        assert_eq!(s.clock_runs(), Some(Color::Black));
        assert_eq!(s.clocks_at(10_000).0[0].main_ms, 50_000);
    }

    #[test]
    fn byoyomi_clock_from_the_log() {
        let time = TimeControl::Byoyomi { main: 10.0, period: 5.0, periods: 2 };
        let mut s = State::new(config(Opponent::Computer { level: 1 }, time), 0).unwrap();
        // Black thinks 12 s: main time gone, 2 s into the first period; the period resets.
        s.apply(&ev(mv("E5"), Some(Color::Black), 12_000)).unwrap();
        let black = s.clocks[0];
        assert!(black.overtime && black.periods == 2 && black.period_ms == 5_000, "{black:?}");
        // White's clock runs now; at 12 s + 10 s + 4.9 s its last period is nearly out.
        let (clocks, fallen) = s.clocks_at(12_000 + 10_000 + 5_000 + 4_900);
        assert_eq!(fallen, None, "{:?}", clocks[1]);
        assert_eq!(clocks[1].periods, 1, "one period lost");
        let (_, fallen) = s.clocks_at(12_000 + 10_000 + 5_000 + 5_001);
        assert_eq!(fallen, Some(Color::White));
        assert_eq!(s.deadline_ms(), Some(12_000 + 20_000));
        // A move after the flag fell is refused; the timeout is accepted.
        assert!(s.apply(&ev(mv("C3"), Some(Color::White), 40_000)).is_err());
        s.apply(&ev(Action::Timeout, Some(Color::White), 40_000)).unwrap();
        assert_eq!(s.game.outcome().unwrap().result_points(), "B+T");
    }

    #[test]
    fn a_restart_does_not_charge_the_downtime() {
        let time = TimeControl::Absolute { main: 60.0 };
        let mut s = State::new(config(Opponent::Friend, time), 0).unwrap();
        s.apply(&ev(mv("E5"), Some(Color::Black), 10_000)).unwrap();
        // White thinks 5 s, then the server is down for an hour, then back.
        s.apply(&ev(Action::Restart { down_since_ms: 15_000 }, None, 3_615_000)).unwrap();
        assert_eq!(s.clocks[1].main_ms, 55_000);
        assert_eq!(s.clock_runs(), Some(Color::White));
        s.apply(&ev(mv("C3"), Some(Color::White), 3_617_000)).unwrap();
        assert_eq!(s.clocks[1].main_ms, 53_000);
        // A flag that fell before the downtime stays fallen: no restart then, a timeout.
        let mut s = State::new(config(Opponent::Computer { level: 1 }, time), 0).unwrap();
        assert!(s.apply(&ev(Action::Restart { down_since_ms: 61_000 }, None, 100_000)).is_err());
        s.apply(&ev(Action::Timeout, Some(Color::Black), 100_000)).unwrap();
    }

    #[test]
    fn canadian_and_fischer_clocks() {
        let mut c = Clock::start(&TimeControl::Canadian { main: 0.0, period: 10.0, stones: 2 });
        let t = TimeControl::Canadian { main: 0.0, period: 10.0, stones: 2 };
        assert!(c.run(&t, 4_000));
        c.moved(&t);
        assert!(c.run(&t, 4_000));
        c.moved(&t);
        assert_eq!((c.period_ms, c.stones), (10_000, 2), "a new period after two stones");
        assert!(!c.run(&t, 10_001));
        let f = TimeControl::Fischer { main: 5.0, increment: 2.0 };
        let mut c = Clock::start(&f);
        assert!(c.run(&f, 4_000));
        c.moved(&f);
        assert_eq!(c.main_ms, 3_000);
        assert!(!Clock::start(&TimeControl::Absolute { main: 1.0 }).run(&TimeControl::Absolute { main: 1.0 }, 1_001));
    }

    #[test]
    fn free_handicap_then_play() {
        let mut cfg = config(Opponent::Friend, TimeControl::None {});
        cfg.handicap = 2;
        cfg.placement = Placement::Free;
        cfg.komi_half_points = 0;
        let mut s = State::new(cfg, 0).unwrap();
        assert!(s.apply(&ev(mv("E5"), Some(Color::Black), 1)).is_err());
        let points = vec!["C3".parse().unwrap(), "G7".parse().unwrap()];
        s.apply(&ev(Action::Handicap { points }, Some(Color::Black), 1)).unwrap();
        assert_eq!(s.game.to_move(), Color::White);
        assert_eq!(s.game.handicap(), 2);
    }

    #[test]
    fn bad_configurations() {
        let good = config(Opponent::Friend, TimeControl::None {});
        for (change, says) in [
            (Config { size: 1, ..good.clone() }, "board size"),
            (Config { handicap: 1, ..good.clone() }, "handicap"),
            (Config { opponent: Opponent::Computer { level: 11 }, ..good.clone() }, "level"),
            (
                Config { rules: "japanese".into(), ..good.clone() },
                "chinese-simple-ko and tromp-taylor, not \"japanese\"",
            ),
            (Config { rules: "ing".into(), ..good.clone() }, "not \"ing\""),
            (Config { time: TimeControl::Absolute { main: -1.0 }, ..good.clone() }, "time control: main time"),
            (Config { black_name: "x".repeat(41), ..good.clone() }, "black_name: a name is at most 40"),
            (Config { white_name: "a\u{202e}b".into(), ..good.clone() }, "white_name: a name is of printable"),
            (Config { size: 2, handicap: 9, placement: Placement::Free, ..good.clone() }, "takes no handicap"),
            (Config { size: 8, handicap: 5, ..good.clone() }, "0 or 2 to 4 stones, not 5"),
        ] {
            let e = State::new(change, 0).unwrap_err().to_string();
            assert!(e.contains(says), "{says}: {e}");
            assert!(!e.contains('{') && !e.contains("Some("), "a sentence, not debug output: {e}");
        }
    }

    #[test]
    fn one_rule_for_names() {
        assert_eq!(check_name("  Lee Sedol ").as_deref(), Ok("Lee Sedol"));
        assert_eq!(check_name("柯洁").as_deref(), Ok("柯洁"));
        for bad in ["a\u{0}b", "\u{1b}[31mRED\u{7}", "\u{202e}evil", &"\u{200b}".repeat(40), "a\tb", "\u{feff}x"] {
            assert_eq!(check_name(bad), Err(NameError::Unprintable), "{bad:?}");
        }
        assert_eq!(check_name("   "), Err(NameError::Empty));
        assert_eq!(check_name(&"囲".repeat(41)), Err(NameError::Long));
        assert!(check_name(&"囲".repeat(40)).is_ok());
    }

    #[test]
    fn a_game_stops_at_the_move_limit_but_can_still_end() {
        let mut s = State::new(Config { size: 19, ..config(Opponent::Friend, TimeControl::None {}) }, 0).unwrap();
        // Stones, then passes alternating with resumptions, up to one move short of the cap.
        let mut color = Color::Black;
        for m in ["D4", "Q16"] {
            s.apply(&ev(mv(m), Some(color), 1)).unwrap();
            color = !color;
        }
        while s.game.moves().len() < MAX_MOVES - 1 {
            if s.game.phase() == Phase::Counting {
                s.apply(&ev(Action::Resume, Some(color), 1)).unwrap();
            }
            s.apply(&ev(mv("pass"), Some(color), 1)).unwrap();
            color = !color;
        }
        if s.game.phase() == Phase::Counting {
            s.apply(&ev(Action::Resume, Some(color), 1)).unwrap();
        }
        s.apply(&ev(mv("C3"), Some(color), 1)).unwrap();
        color = !color;
        // At the cap: no more stones, no resumption.
        let e = s.apply(&ev(mv("D16"), Some(color), 2)).unwrap_err();
        assert_eq!(e, GameError::TooLong);
        assert!(e.to_string().contains("1200 moves"), "{e}");
        // Two passes still end play, and the game is counted.
        s.apply(&ev(mv("pass"), Some(color), 3)).unwrap();
        s.apply(&ev(mv("pass"), Some(!color), 4)).unwrap();
        assert_eq!(s.game.phase(), Phase::Counting);
        assert_eq!(s.apply(&ev(Action::Resume, Some(color), 5)).unwrap_err(), GameError::TooLong);
        s.apply(&ev(Action::Accept { dead: Some(vec![]), judged: false, exact: false }, Some(Color::White), 6))
            .unwrap();
        s.apply(&ev(Action::Accept { dead: Some(vec![]), judged: false, exact: false }, Some(Color::Black), 7))
            .unwrap();
        assert!(matches!(s.game.phase(), Phase::Ended(_)));
    }
}
