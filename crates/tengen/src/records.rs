//! Reading a game record from a file, for the subcommands that work on one.

use std::path::Path;

use anyhow::{Context, Result, bail};
use tengen_sgf::{IllegalMoves, Record, Replay};

/// The first game of the SGF file at `path` (any character set), its main line replayed.
/// `purpose` completes the error when a move cannot be replayed: "counted", "drawn past it".
pub fn replay_file(path: &Path, purpose: &str) -> Result<Replay> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (records, _) = Record::read_bytes(&bytes).with_context(|| path.display().to_string())?;
    let record = records.into_iter().next().context("the file holds no game")?;
    let replay = record.replay(IllegalMoves::Stop).with_context(|| path.display().to_string())?;
    if let Some(p) = replay.problems.first() {
        bail!(
            "{}: move {} (node {}) cannot be replayed: {}; the game cannot be {purpose}",
            path.display(),
            p.move_number,
            p.node,
            p.message
        );
    }
    Ok(replay)
}
