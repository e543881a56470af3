//! The two colours of stones.

use std::fmt;
use std::str::FromStr;

/// The colour of a stone or of a player: Black (黑) or White (白).
///
/// An empty point is not a colour: the board says `Option<Color>` for a point's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Black, who moves first in an even game.
    Black = 0,
    /// White.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SGF and GTP letter: `B` or `W`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The Chinese name: 黑 or 白.
    #[must_use]
    pub const fn zh(self) -> &'static str {
        match self {
            Color::Black => "黑",
            Color::White => "白",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// The text was not a colour (`b`, `black`, `w`, `white`, any case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a colour: {0:?} (expected black, white, b or w)")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseColorError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_flip() {
        assert_eq!("B".parse::<Color>(), Ok(Color::Black));
        assert_eq!("white".parse::<Color>(), Ok(Color::White));
        assert!("x".parse::<Color>().is_err());
        assert_eq!(!Color::Black, Color::White);
        assert_eq!(Color::White.opponent(), Color::Black);
    }
}
