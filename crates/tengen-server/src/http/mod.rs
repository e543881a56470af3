//! The HTTP layer's shared parts: extractors, WebSocket upgrades and SGF in and out, used by
//! the API's handlers ([`crate::api`], [`crate::study`]).

pub mod extract;
pub mod sgf;
pub mod ws;
