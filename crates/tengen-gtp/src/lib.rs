//! The Go Text Protocol, version 2, for tengen.
//!
//! A [`Session`] owns the game and an [`Engine`]; it reads commands from any `BufRead` and
//! writes responses to any `Write`, with GTP's framing: `=id result` or `?id message`, each
//! followed by an empty line. Every command lives in one table, in alphabetical order, each
//! handler a few lines: decode the arguments, check, act, respond. Bad input of any kind is
//! an error response; the game is then unchanged and the session goes on.
//!
//! ```
//! use tengen_gtp::{RandomEngine, Session};
//!
//! let mut session = Session::new(RandomEngine::new(1));
//! let mut out = Vec::new();
//! session.run("1 boardsize 9\nplay b e5\n3 is_legal w e5\nfoo\n".as_bytes(), &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "=1 \n\n= \n\n=3 0\n\n? unknown command: foo\n\n");
//! ```

mod analyze;
pub mod client;
mod commands;
mod inbox;
mod kata;
pub mod regress;
mod session;

pub use session::Session;
pub use tengen_engine::{Decision, Engine, RandomEngine};
