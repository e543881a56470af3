//! How a game is set up: board, rules, komi, handicap, opponent and time control.

use serde::{Deserialize, Serialize};
use tengen_core::{Color, Game, Komi, Rules};

use super::{GameError, check_name};

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
    /// Correspondence: `days` for the first move, and `days` more after each move, the time
    /// saved kept up to a bank of `max_days`; the clock runs with nobody connected and while
    /// the server is down.
    Correspondence {
        /// Days a move: 1, 2, 3, 5, 7 or 14.
        #[schema(minimum = 1, maximum = 14)]
        days: u32,
        /// The most days a clock may hold (3 × `days` when not given): `days` to 60.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(minimum = 1, maximum = 60)]
        max_days: Option<u32>,
    },
}

/// The days a move a correspondence game may have.
pub const CORRESPONDENCE_DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl::None {}
    }
}

impl TimeControl {
    /// A correspondence game's (days a move, days a clock may hold), in milliseconds.
    #[must_use]
    pub fn correspondence(&self) -> Option<(i64, i64)> {
        match *self {
            TimeControl::Correspondence { days, max_days } => {
                let days = i64::from(days) * DAY_MS;
                Some((days, max_days.map_or(3 * days, |m| i64::from(m) * DAY_MS)))
            }
            _ => None,
        }
    }

    fn check(&self) -> Result<(), GameError> {
        let ok = |x: f64| x.is_finite() && (0.0..=86_400.0 * 30.0).contains(&x);
        let refuse = |why| Err(GameError::Time(why));
        let main = match *self {
            TimeControl::None {} => return Ok(()),
            TimeControl::Correspondence { days, max_days } => {
                // Numbers the document allows but the server does not offer: refused (422).
                if !CORRESPONDENCE_DAYS.contains(&days) {
                    return Err(GameError::Correspondence("a correspondence game has 1, 2, 3, 5, 7 or 14 days a move"));
                }
                if max_days.is_some_and(|m| m < days || m > 60) {
                    return Err(GameError::Correspondence(
                        "a correspondence bank holds from the days a move up to 60 days",
                    ));
                }
                return Ok(());
            }
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
    /// Black's name as the game began (empty: not named); [`Action::Name`](super::Action::Name) changes it.
    pub black_name: String,
    /// White's name, likewise.
    pub white_name: String,
    /// The nigiri, when colours were drawn: (the guess was odd, stones in the handful).
    pub nigiri: Option<(bool, u8)>,
    /// Imported from SGF for review: no seats, no play.
    pub imported: bool,
    /// Rated: the result changes both players' ratings (both seats held by accounts).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The accounts (ids) holding the seats, Black's and White's; [`Action::Sit`](super::Action::Sit)
    /// binds one after the game began.
    #[serde(default, skip_serializing_if = "no_accounts")]
    pub accounts: [Option<String>; 2],
    /// In a rated game against the computer: its level's fixed rating on this board size, as
    /// it stood when the game was created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer_rating: Option<super::rating::Glicko>,
}

fn no_accounts(accounts: &[Option<String>; 2]) -> bool {
    accounts.iter().all(Option::is_none)
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
