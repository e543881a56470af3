//! `tengen learn shapes`: counts the 3 × 3 shapes of the moves played in game records — the
//! table the playout search's priors read (`crates/tengen-engine/data/shapes.txt`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use tengen_core::{Move, Phase};
use tengen_engine::shapes::ShapeTable;

/// What to learn.
#[derive(Subcommand)]
pub enum Learn {
    /// Count how often each 3 × 3 shape is available and how often it is the move played, over
    /// the moves of SGF game records (files, or folders searched for `*.sgf`).
    Shapes(ShapesArgs),
}

#[derive(Args)]
pub struct ShapesArgs {
    /// Where to write the table (standard output if not given).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep only shapes available at least this many times.
    #[arg(long, default_value_t = 20)]
    min_seen: u64,
    /// Skip boards smaller than this.
    #[arg(long, default_value_t = 7)]
    min_size: usize,
    /// SGF files or folders.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Runs a `tengen learn` command.
pub fn run(learn: &Learn) -> Result<()> {
    match learn {
        Learn::Shapes(args) => shapes(args),
    }
}

fn sgf_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()?;
        entries.sort();
        for entry in entries {
            if entry.is_dir() || entry.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                sgf_files(&entry, out)?;
            }
        }
    } else if path.exists() {
        out.push(path.to_owned());
    } else {
        bail!("no such file or folder: {}", path.display());
    }
    Ok(())
}

fn shapes(args: &ShapesArgs) -> Result<()> {
    let mut files = Vec::new();
    for path in &args.paths {
        sgf_files(path, &mut files)?;
    }
    let mut table = ShapeTable::default();
    let (mut used, mut skipped) = (0usize, 0usize);
    for file in &files {
        // Records that do not load or replay (puzzles with illegal moves, broken files) are
        // skipped: the table is statistics, not a check of the records.
        let Ok(replay) = crate::records::replay_file(file, "learned from") else {
            skipped += 1;
            continue;
        };
        if replay.game.board().size() < args.min_size || replay.game.moves().is_empty() {
            skipped += 1;
            continue;
        }
        used += 1;
        let moves = replay.game.moves().to_vec();
        let mut game = replay.game.truncated(0);
        for (color, mv) in moves {
            if game.phase() != Phase::Playing {
                break;
            }
            if let Move::Play(p) = mv {
                let board = game.board();
                let legal = board.empty_points().filter(|&q| board.is_legal(q, color));
                table.record(board, color, p, legal);
            }
            if game.play_as(color, mv).is_err() {
                break;
            }
        }
    }
    if table.is_empty() {
        bail!("no moves found in {} file(s)", files.len());
    }
    let text = table.to_text(args.min_seen);
    match &args.out {
        Some(out) => std::fs::write(out, &text).with_context(|| format!("cannot write {}", out.display()))?,
        None => print!("{text}"),
    }
    eprintln!(
        "tengen learn shapes: {used} records ({skipped} skipped), {} moves, {} shapes, {} kept (seen at least {} times)",
        table.positions(),
        table.len(),
        text.lines().count() - 1,
        args.min_seen
    );
    Ok(())
}
