#![doc = include_str!("../README.md")]

mod decode;
mod info;
mod limits;
mod lines;
mod main_line;
mod record;
mod replay;
mod strict;
mod write;

pub use decode::{CharsetSource, Decoded, decode};
pub use info::{GameInfo, InfoError, komi_from_sgf};
pub use limits::{Limit, Limits, Shape, TooLarge, measure};
pub use lines::Line;
pub use record::{ReadError, Record};
pub use replay::{IllegalMoves, Problem, Replay, ReplayError};
pub use strict::{Diagnostic, Position, check_strict};
pub use write::{Mark, NoSuchMove, Note, write_annotated, write_game};
