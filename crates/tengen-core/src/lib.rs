#![doc = include_str!("../README.md")]

pub mod benson;
pub mod board;
pub mod color;
pub mod count;
pub mod game;
pub mod handicap;
pub mod nigiri;
pub mod playout;
pub mod point;
pub mod policy;
pub mod rules;
pub mod seki;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod setup;
#[cfg(test)]
mod test_support;
pub mod unconditional;
mod zobrist;

pub use benson::{PassAlive, pass_alive};
pub use board::{Board, BoardSizeError, IllegalMove, Played};
pub use color::Color;
pub use count::{Owner, OwnerMap, Score};
pub use game::{Game, Outcome, Phase, PlayError};
pub use handicap::HandicapError;
pub use nigiri::{Nigiri, Parity};
pub use playout::Playout;
pub use point::{MAX_SIZE, MIN_SIZE, Move, Point};
pub use policy::{Policy, ShapeWeights};
pub use rules::{HandicapBonus, KoRule, Komi, Rules, Scoring};
pub use seki::{nakade_sacrifice, seki_partners};
pub use setup::{Setup, SetupError};
pub use unconditional::{Status, Unconditional};
