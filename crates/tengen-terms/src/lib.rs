//! # tengen-terms — the commentator's vocabulary
//!
//! Names every move, eye space, eye and empty point of a Go position with the terms (术语)
//! of the project's terms specification (`docs/terms.md` of the shared material), in
//! Chinese with pinyin, English and Japanese: 星, 小目, 小飞挂, 尖, 扳, 打吃, 征, 倒扑, 打劫,
//! 直三, 刀把五, 真眼, 假眼, 恶手, 妙手 …
//!
//! Everything here is a pure function of `tengen-core` types, without I/O:
//!
//! - [`name_move`] / [`Commentary::name`]: the ordered names of a move (terms.md §§5–12),
//!   most specific first, with the suppression, implication and order rules of §4;
//! - [`eye_space`], [`eye`], [`point_names`], [`seki_partners`]: empty points (§13, §14);
//! - [`evaluative_names`]: judgements from an engine's evaluation record (§15);
//! - [`answer`]: the JSON request/answer interface of §3 (`tengen explain`).
//!
//! ```
//! use tengen_terms::answer;
//!
//! let out = answer(r#"{"size":19,"black":["D4"],"white":[],"to_play":"W","move":"C6"}"#);
//! assert!(out.contains(r#""zh":"小飞挂""#));
//! ```
//!
//! Where this crate reads terms.md differently from the letter of the spec, the project's
//! `docs/terms-readings.md` says so.

mod commentary;
mod evaluation;
mod geometry;
mod json;
mod moves;
mod reader;
mod space;
mod term;

pub use commentary::Commentary;
pub use evaluation::{Eval, evaluative_names};
pub use json::answer;
pub use moves::{Adjacent, Earlier, MoveNames, Recent, name_move};
pub use space::{EyeSpace, eye, eye_space, point_names, seki_partners};
pub use term::{Kind, Term, all_names};
