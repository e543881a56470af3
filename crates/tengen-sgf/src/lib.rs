#![doc = include_str!("../README.md")]

mod decode;
mod info;
mod record;
mod replay;
mod write;

pub use decode::{CharsetSource, Decoded, decode};
pub use info::{GameInfo, InfoError, komi_from_sgf};
pub use record::{ReadError, Record};
pub use replay::{IllegalMoves, Problem, Replay, ReplayError};
pub use write::write_game;
