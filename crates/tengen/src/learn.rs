//! `tengen learn shapes`: counts the 3 × 3 shapes of the moves played in game records — the
//! table the playout search's priors and playouts read (`crates/tengen-engine/data/shapes.txt`).
//! `tengen learn predictor`: fits the move predictor of the playout search's priors
//! (`crates/tengen-engine/data/predictor.txt`) to a network's policy over records' positions.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use tengen_core::{Color, Game, Move, Phase, Point};
use tengen_engine::predictor::{Candidate, Features, Predictor};
use tengen_engine::shapes::{Shape, ShapeTable};
use tengen_nn::{Model, input_features, katago_index};

/// What to learn.
#[derive(Subcommand)]
pub enum Learn {
    /// Count how often each 3 × 3 shape is available and how often it is the move played, over
    /// the moves of SGF game records (files, or folders searched for `*.sgf`).
    Shapes(ShapesArgs),
    /// Fit the move predictor (shapes, distances to the last two moves, line, captures,
    /// escapes, ataris, self-ataris) to a KataGo network's policy over every position of SGF
    /// game records.
    Predictor(PredictorArgs),
}

#[derive(Args)]
pub struct PredictorArgs {
    /// The KataGo network (`.bin.gz`) whose policy is learned.
    #[arg(long)]
    model: PathBuf,
    /// Where to write the weights (standard output if not given).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep the network's policies in this file: read from it when it holds as many positions
    /// as the records (the network takes minutes), else computed and written to it.
    #[arg(long)]
    policies: Option<PathBuf>,
    /// Rounds of gradient descent.
    #[arg(long, default_value_t = 1000)]
    rounds: usize,
    /// L2 penalty per weight (in positions' worth of cross-entropy).
    #[arg(long, default_value_t = 1.0)]
    l2: f64,
    /// Give a weight only to shapes available at least this many times.
    #[arg(long, default_value_t = 20)]
    min_seen: u32,
    /// Every this many positions one is held out of the fit and measured (0: none).
    #[arg(long, default_value_t = 10)]
    hold_out: usize,
    /// Skip boards smaller than this.
    #[arg(long, default_value_t = 7)]
    min_size: usize,
    /// SGF files or folders.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

#[derive(Args)]
pub struct ShapesArgs {
    /// Where to write the table (standard output if not given).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep only shapes available at least this many times.
    #[arg(long, default_value_t = 20)]
    min_seen: u64,
    /// Learn from this KataGo network's policy (`.bin.gz`) instead of the moves played: every
    /// position of the records counts each legal point with the probability the network gives
    /// it (the pass left out), so that a position teaches about all its points, not one.
    #[arg(long)]
    model: Option<PathBuf>,
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
        Learn::Predictor(args) => predictor(args),
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

/// A position of a record: the game before a move, and who made it.
struct Position {
    game: Game,
    color: Color,
}

/// Every position before a move on the board of the records under `paths` (boards of at
/// least `min_size`), with the records used and skipped. Kept in memory: for the network's
/// use (a 9 × 9 record's positions take little; counting shapes alone visits them instead).
fn record_positions(paths: &[PathBuf], min_size: usize) -> Result<(Vec<Position>, usize, usize)> {
    let mut positions = Vec::new();
    let (used, skipped) = visit_positions(paths, min_size, |game, color, _| {
        positions.push(Position { game: game.clone(), color });
    })?;
    Ok((positions, used, skipped))
}

/// Calls `visit` with every position before a move on the board of the records under
/// `paths` (boards of at least `min_size`): the game, the player, the move. Returns the records
/// used and skipped.
fn visit_positions(
    paths: &[PathBuf],
    min_size: usize,
    mut visit: impl FnMut(&Game, Color, Point),
) -> Result<(usize, usize)> {
    let mut files = Vec::new();
    for path in paths {
        sgf_files(path, &mut files)?;
    }
    let mut moves_seen = 0usize;
    let (mut used, mut skipped) = (0usize, 0usize);
    for file in &files {
        // Records that do not load or replay (puzzles with illegal moves, broken files) are
        // skipped: the table is statistics, not a check of the records.
        let Ok(replay) = crate::records::replay_file(file, "learned from") else {
            skipped += 1;
            continue;
        };
        if replay.game.board().size() < min_size || replay.game.moves().is_empty() {
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
            if let Move::Play(played) = mv {
                visit(&game, color, played);
                moves_seen += 1;
            }
            if game.play_as(color, mv).is_err() {
                break;
            }
        }
    }
    if moves_seen == 0 {
        bail!("no moves found in {} file(s)", files.len());
    }
    Ok((used, skipped))
}

fn load_model(path: &Path) -> Result<Model> {
    let model = Model::load(path).with_context(|| format!("cannot load {}", path.display()))?;
    crate::network::check(&model, path)?;
    Ok(model)
}

/// The network's policy over the legal points of each position ([`policy_weights`]), on
/// every core; one symmetry a position, turning with the positions.
fn policies(model: &Model, positions: &[Position]) -> Vec<Vec<(Point, f64)>> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let chunk = positions.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = positions
            .chunks(chunk)
            .enumerate()
            .map(|(k, part)| {
                scope.spawn(move || {
                    part.iter()
                        .enumerate()
                        .map(|(i, pos)| policy_weights(model, &pos.game, pos.color, ((k * chunk + i) % 8) as u8))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a policy thread panicked")).collect()
    })
}

fn shapes(args: &ShapesArgs) -> Result<()> {
    let mut table = ShapeTable::default();
    let (used, skipped) = match &args.model {
        None => visit_positions(&args.paths, args.min_size, |game, color, played| {
            let board = game.board();
            table.record(board, color, played, board.empty_points().filter(|&q| board.is_legal(q, color)));
        })?,
        Some(path) => {
            let model = load_model(path)?;
            let (positions, used, skipped) = record_positions(&args.paths, args.min_size)?;
            for (pos, weights) in positions.iter().zip(policies(&model, &positions)) {
                table.record_weighted(pos.game.board(), pos.color, weights.into_iter());
            }
            (used, skipped)
        }
    };
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

/// The network's policy for `color` to play in `game`, over the points legal for the shape
/// table (`Board::is_legal`), renormalised without the pass; under symmetry `symmetry`.
/// Empty for a record's move out of turn (the network answers for the player to move).
fn policy_weights(model: &Model, game: &Game, color: Color, symmetry: u8) -> Vec<(Point, f64)> {
    let board = game.board();
    let size = board.size();
    let points: Vec<Point> = board.empty_points().filter(|&q| board.is_legal(q, color)).collect();
    if game.to_move() != color {
        return Vec::new();
    }
    let Ok(input) = input_features(game) else {
        return Vec::new();
    };
    let mut legal = vec![false; size * size];
    for &p in &points {
        legal[katago_index(p, size)] = true;
    }
    let raw = model.forward_symmetric(&input, symmetry);
    let eval = model.post_process(&raw, Some(&legal), 0.0);
    let total: f64 = points.iter().map(|&p| f64::from(eval.policy[katago_index(p, size)])).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    points.iter().map(|&p| (p, f64::from(eval.policy[katago_index(p, size)]) / total)).collect()
}

/// The policies of `positions`, from the file `cache` when it holds one line per position,
/// else from the network (and then written to `cache`). A line: `point:weight` per point.
fn cached_policies(model: &Path, positions: &[Position], cache: Option<&Path>) -> Result<Vec<Vec<(Point, f64)>>> {
    if let Some(text) = cache.and_then(|c| std::fs::read_to_string(c).ok())
        && text.lines().count() == positions.len()
    {
        let read = |line: &str| -> Option<Vec<(Point, f64)>> {
            line.split_whitespace()
                .map(|pair| {
                    let (p, w) = pair.split_once(':')?;
                    Some((p.parse().ok()?, w.parse().ok()?))
                })
                .collect()
        };
        let cache = cache.expect("read from it").display();
        return text
            .lines()
            .enumerate()
            .map(|(i, line)| read(line).with_context(|| format!("{cache}: line {} is not point:weight pairs", i + 1)))
            .collect();
    }
    // To the five decimals of the file, so that a run from the file fits the same weights.
    let mut computed = policies(&load_model(model)?, positions);
    computed.iter_mut().flatten().for_each(|(_, w)| *w = (*w * 1e5).round() / 1e5);
    if let Some(cache) = cache {
        let mut text = String::new();
        for weights in &computed {
            let pairs: Vec<String> = weights.iter().map(|(p, w)| format!("{p}:{w:.5}")).collect();
            text.push_str(&pairs.join(" "));
            text.push('\n');
        }
        std::fs::write(cache, text).with_context(|| format!("cannot write {}", cache.display()))?;
    }
    Ok(computed)
}

/// The opponent's last move and the player's own move before it, when those were stones.
fn recent_moves(game: &Game, color: Color) -> (Option<Point>, Option<Point>) {
    let moves = game.moves();
    let stone = |k: usize, c: Color| match moves.len().checked_sub(k).map(|i| moves[i]) {
        Some((by, Move::Play(p))) if by == c => Some(p),
        _ => None,
    };
    (stone(1, !color), stone(2, color))
}

fn predictor(args: &PredictorArgs) -> Result<()> {
    let (positions, used, skipped) = record_positions(&args.paths, args.min_size)?;
    let weights = cached_policies(&args.model, &positions, args.policies.as_deref())?;
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (i, (pos, weights)) in positions.iter().zip(weights).enumerate() {
        let board = pos.game.board();
        let (last, previous) = recent_moves(&pos.game, pos.color);
        let candidates: Vec<Candidate> = weights
            .into_iter()
            .map(|(p, w)| Candidate {
                shape: Shape::of(board, p, pos.color),
                features: Features::of(board, p, pos.color, last, previous),
                target: w as f32,
            })
            .collect();
        if args.hold_out > 0 && i % args.hold_out == args.hold_out - 1 {
            held.push(candidates);
        } else {
            fit.push(candidates);
        }
    }
    let even = Predictor::even();
    let trained = Predictor::train(&fit, args.rounds, args.l2, args.min_seen);
    let report = |name: &str, set: &[Vec<Candidate>]| {
        let (before, after) = (even.fit(set), trained.fit(set));
        format!(
            "{name} {} positions: cross-entropy {:.3} (even {:.3}), top move {:.1}%",
            set.len(),
            after.cross_entropy,
            before.cross_entropy,
            100.0 * after.top_one
        )
    };
    let summary = format!(
        "{used} records ({skipped} skipped); {}; {}",
        report("fitted on", &fit),
        if held.is_empty() { "none held out".to_string() } else { report("held out", &held) }
    );
    let header = format!(
        "tengen learn predictor --rounds {} --l2 {} --min-seen {} --hold-out {}: {summary}",
        args.rounds, args.l2, args.min_seen, args.hold_out
    );
    let text = trained.to_text(&header);
    match &args.out {
        Some(out) => std::fs::write(out, &text).with_context(|| format!("cannot write {}", out.display()))?,
        None => print!("{text}"),
    }
    eprintln!("tengen learn predictor: {summary}");
    Ok(())
}
