//! The rules as one plain value, with the presets players know.

use std::fmt;
use std::str::FromStr;

/// How whole-board repetition is prevented (禁止全局同形再现).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// No move may recreate any earlier board position (the Chinese rules' default).
    Positional,
    /// No move may recreate an earlier position with the same player to move.
    Situational,
    /// Only the immediate recapture of a single-stone ko is banned; a position that repeats
    /// three times with no pass between ends the game without result (无胜负).
    Simple,
}

/// How the game is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Area counting (数子法): stones on the board plus surrounded points, in stones.
    Area,
    /// Territory counting (填空比目法): surrounded points plus prisoners, in points (目).
    Territory,
}

/// What White receives for Black's handicap stones under area counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapBonus {
    /// N points for N stones: Black gives back N/2 stones (the Chinese rules).
    N,
    /// N − 1 points for N stones.
    NMinusOne,
    /// Nothing.
    Zero,
}

impl HandicapBonus {
    /// The bonus in points for `stones` handicap stones.
    #[must_use]
    pub fn points(self, stones: usize) -> usize {
        match self {
            HandicapBonus::N => stones,
            HandicapBonus::NMinusOne => stones.saturating_sub(1),
            HandicapBonus::Zero => 0,
        }
    }
}

/// Komi (贴目), kept in half points — which are quarter stones (贴子): 7.5 points = 3¾ stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Komi(i32);

/// The text is not a komi: a number that is a multiple of ½ point.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a komi: {0:?} (a number of points that is a multiple of 0.5, e.g. 7.5)")]
pub struct ParseKomiError(pub String);

impl Komi {
    /// No komi.
    pub const ZERO: Komi = Komi(0);
    /// 7.5 points = 3¾ stones, the Chinese rules' komi.
    pub const CHINESE: Komi = Komi(15);
    /// 6.5 points, usual with territory counting.
    pub const JAPANESE: Komi = Komi(13);

    /// Komi of `half_points` half points (= quarter stones).
    #[must_use]
    pub const fn from_half_points(half_points: i32) -> Komi {
        Komi(half_points)
    }

    /// Komi in half points (= quarter stones).
    #[must_use]
    pub const fn half_points(self) -> i32 {
        self.0
    }

    /// Komi in points, e.g. 7.5.
    #[must_use]
    pub fn points(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// Komi in points, if `points` is a finite multiple of ½ within ±10000.
    ///
    /// # Errors
    /// [`ParseKomiError`] for any other number.
    pub fn from_points(points: f64) -> Result<Komi, ParseKomiError> {
        let half = points * 2.0;
        if points.is_finite() && half.fract() == 0.0 && half.abs() <= 20_000.0 {
            Ok(Komi(half as i32))
        } else {
            Err(ParseKomiError(points.to_string()))
        }
    }

    /// Komi in stones as players say it: `3¾`, `0`, `-½`.
    #[must_use]
    pub fn stones_text(self) -> String {
        crate::count::quarters_text(self.0, false)
    }
}

impl fmt::Display for Komi {
    /// In points, as SGF and GTP write it: `7.5`, `0`, `-3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::count::half_points_text(self.0))
    }
}

impl FromStr for Komi {
    type Err = ParseKomiError;
    fn from_str(s: &str) -> Result<Komi, ParseKomiError> {
        let points: f64 = s.trim().parse().map_err(|_| ParseKomiError(s.to_owned()))?;
        Komi::from_points(points).map_err(|_| ParseKomiError(s.to_owned()))
    }
}

/// The rules of a game: one value, every field independent.
///
/// ```
/// use tengen_core::{KoRule, Rules, Scoring};
///
/// let rules = Rules::chinese();
/// assert_eq!(rules.ko, KoRule::Positional);
/// assert_eq!(rules.scoring, Scoring::Area);
/// assert_eq!(rules.komi.to_string(), "7.5");
/// assert_eq!(rules.komi.stones_text(), "3¾");
/// assert_eq!("japanese".parse::<Rules>().unwrap(), Rules::japanese());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// How repetition is prevented.
    pub ko: KoRule,
    /// Whether a move that leaves its own chain without liberties is allowed (it then removes
    /// that chain). Forbidden by the Chinese rules (禁着点).
    pub suicide: bool,
    /// Area or territory counting.
    pub scoring: Scoring,
    /// Komi for White.
    pub komi: Komi,
    /// What White receives for handicap stones under area counting.
    pub handicap_bonus: HandicapBonus,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::chinese()
    }
}

impl Rules {
    /// The preset names [`Rules::preset`] accepts.
    pub const PRESETS: [&'static str; 4] = ["chinese", "chinese-simple-ko", "tromp-taylor", "japanese"];

    /// The Chinese rules: positional superko, no suicide, area counting, komi 3¾ stones, and
    /// White receives N points for N handicap stones.
    #[must_use]
    pub const fn chinese() -> Rules {
        Rules {
            ko: KoRule::Positional,
            suicide: false,
            scoring: Scoring::Area,
            komi: Komi::CHINESE,
            handicap_bonus: HandicapBonus::N,
        }
    }

    /// The Chinese rules with simple ko, where a triple ko ends the game without result.
    #[must_use]
    pub const fn chinese_simple_ko() -> Rules {
        Rules { ko: KoRule::Simple, ..Rules::chinese() }
    }

    /// Tromp-Taylor: positional superko, suicide allowed, area counting, no handicap bonus.
    #[must_use]
    pub const fn tromp_taylor() -> Rules {
        Rules { suicide: true, handicap_bonus: HandicapBonus::Zero, ..Rules::chinese() }
    }

    /// Japanese-style: simple ko, no suicide, territory counting with prisoners, komi 6.5.
    #[must_use]
    pub const fn japanese() -> Rules {
        Rules {
            ko: KoRule::Simple,
            suicide: false,
            scoring: Scoring::Territory,
            komi: Komi::JAPANESE,
            handicap_bonus: HandicapBonus::Zero,
        }
    }

    /// The preset of that name (see [`Rules::PRESETS`]), case-insensitive.
    ///
    /// # Errors
    /// [`UnknownRules`] for any other name.
    pub fn preset(name: &str) -> Result<Rules, UnknownRules> {
        match name.to_ascii_lowercase().as_str() {
            "chinese" => Ok(Rules::chinese()),
            "chinese-simple-ko" => Ok(Rules::chinese_simple_ko()),
            "tromp-taylor" | "tromptaylor" => Ok(Rules::tromp_taylor()),
            "japanese" => Ok(Rules::japanese()),
            _ => Err(UnknownRules(name.to_owned())),
        }
    }
}

/// The name is not a rules preset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?} (known: chinese, chinese-simple-ko, tromp-taylor, japanese)")]
pub struct UnknownRules(pub String);

impl FromStr for Rules {
    type Err = UnknownRules;
    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        Rules::preset(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_in_points_and_stones() {
        assert_eq!("7.5".parse::<Komi>().unwrap(), Komi::CHINESE);
        assert_eq!(Komi::CHINESE.stones_text(), "3¾");
        assert_eq!(Komi::from_points(-0.5).unwrap().to_string(), "-0.5");
        assert_eq!(Komi::from_points(0.5).unwrap().stones_text(), "¼");
        assert_eq!(Komi::ZERO.to_string(), "0");
        assert!("7.25".parse::<Komi>().is_err());
        assert!("nan".parse::<Komi>().is_err());
        assert!("1e9".parse::<Komi>().is_err());
    }

    #[test]
    fn presets() {
        for name in Rules::PRESETS {
            assert!(Rules::preset(name).is_ok(), "{name}");
        }
        assert!(Rules::tromp_taylor().suicide);
        assert_eq!(Rules::chinese_simple_ko().ko, KoRule::Simple);
        assert!(Rules::preset("ing").is_err());
        assert_eq!(HandicapBonus::N.points(4), 4);
        assert_eq!(HandicapBonus::NMinusOne.points(4), 3);
    }
}
