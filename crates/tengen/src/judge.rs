//! `tengen bench loss`: how many points the playout search's moves lose, judged by a network.
//!
//! A match against GNU Go needs hundreds of games to tell a change of a few per cent from
//! noise; this measures the same thing on positions instead. Every position of the given
//! records (within `--from`…`--to`) is searched afresh by the playout search with the given
//! tunables; the network then judges the move it chose: the loss is the network's lead for the
//! player to move before the move minus their lead after it (both from the network's output,
//! averaged over the eight symmetries). A perfect move loses about nothing; the network's own
//! errors are the same for every configuration measured, so differences in the mean are the
//! search's. The line gives the mean's standard error (`se`) with it: the same search with
//! another seed moves the mean by about that much.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use tengen_core::{Color, Game, Move, Phase};
use tengen_engine::{Limit, Mcts, SearchParams};
use tengen_nn::{Model, input_features};

use crate::gtp::Tuning;

/// Options of `tengen bench loss`.
#[derive(Args)]
pub struct LossArgs {
    /// The game records (SGF) whose positions are searched.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The KataGo network that judges (`.bin.gz`).
    #[arg(long)]
    model: PathBuf,
    /// First position of each record (the one before move number `from`, 1 for the start).
    #[arg(long, default_value_t = 1)]
    from: usize,
    /// Last position of each record (the one before move number `to`).
    #[arg(long, default_value_t = 40)]
    to: usize,
    /// Simulations per position (the default search's 10,000).
    #[arg(long, default_value_t = 10_000)]
    playouts: u32,
    /// Seconds per position instead of a number of simulations.
    #[arg(long)]
    seconds: Option<f64>,
    /// Seed of the searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Losses from this many points on count as blunders.
    #[arg(long, default_value_t = 3.0)]
    blunder: f64,
    /// Judge the moves of the records instead of searching (the players' own loss; with
    /// `--player`, only the moves of the side whose SGF name contains it).
    #[arg(long)]
    recorded: bool,
    /// With `--recorded`, judge only the moves of the player whose name (PB, PW) contains this.
    #[arg(long, requires = "recorded")]
    player: Option<String>,
    /// Print every position's line: record, move number, the move chosen, its loss.
    #[arg(long, short)]
    verbose: bool,
    #[command(flatten)]
    tuning: Tuning,
}

/// The network's lead for the player to move in `game`, averaged over the symmetries.
fn lead(model: &Model, game: &Game) -> Result<f64> {
    let input = input_features(game).map_err(|e| anyhow::anyhow!(e))?;
    let mut sum = 0.0;
    for symmetry in 0..8 {
        let raw = model.forward_symmetric(&input, symmetry);
        sum += f64::from(model.post_process(&raw, None, 0.0).lead);
    }
    Ok(sum / 8.0)
}

/// A position to judge: the record, the move number, the game before it, who moves, and the
/// move the record has there.
struct Position {
    file: String,
    number: usize,
    game: Game,
    color: Color,
    recorded: Move,
}

/// The positions of one record: the game before each move in `from..=to` (only those of the
/// player named like `player`, if given).
fn positions(path: &std::path::Path, from: usize, to: usize, player: Option<&str>) -> Result<Vec<Position>> {
    let replay = crate::records::replay_file(path, "searched")?;
    let named = |c: Color| {
        let name = if c == Color::Black { replay.info.black.as_deref() } else { replay.info.white.as_deref() };
        player.is_none_or(|p| name.is_some_and(|n| n.contains(p)))
    };
    let moves = replay.game.moves().to_vec();
    let mut g = replay.game.truncated(0);
    let mut out = Vec::new();
    for (i, &(color, mv)) in moves.iter().enumerate() {
        let number = i + 1;
        if number > to {
            break;
        }
        if number >= from && g.phase() == Phase::Playing && named(color) {
            let file = path.display().to_string();
            out.push(Position { file, number, game: g.clone(), color, recorded: mv });
        }
        if g.phase() == Phase::Counting {
            g.resume().context("resuming after two passes")?;
        }
        g.play_as(color, mv).with_context(|| format!("{}: replaying move {number}", path.display()))?;
    }
    Ok(out)
}

/// The standard error of the mean of `n` losses with this `mean` and sum of `squares`: the
/// sample's standard deviation over √n (`None` below two losses). Two measurements whose means
/// differ by less than about twice the root of their squared errors' sum are not told apart:
/// the search is random and a few blunders of tens of points weigh heavily in the mean.
fn standard_error(n: usize, mean: f64, squares: f64) -> Option<f64> {
    (n >= 2).then(|| {
        let n = n as f64;
        let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
        (variance / n).sqrt()
    })
}

/// Runs the measurement and prints its line.
pub fn run(args: &LossArgs) -> Result<()> {
    if args.from == 0 || args.to < args.from {
        bail!("--from must be at least 1 and --to at least --from");
    }
    if args.playouts == 0 || args.seconds.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
        bail!("--playouts must be at least 1 and --seconds a positive number");
    }
    let model = Model::load(&args.model).with_context(|| format!("cannot load {}", args.model.display()))?;
    crate::network::check(&model, &args.model)?;
    let mut all = Vec::new();
    for path in &args.games {
        all.extend(positions(path, args.from, args.to, args.player.as_deref())?);
    }
    if all.is_empty() {
        bail!("no position of the records lies between moves {} and {}", args.from, args.to);
    }
    let params = SearchParams {
        playouts: if args.seconds.is_some() { Limit::Unlimited } else { Limit::Simulations(args.playouts) },
        time: args.seconds.map(Duration::from_secs_f64),
        seed: args.seed,
        reuse_tree: false,
        temperature: 0.0,
        ..args.tuning.apply(SearchParams::default())
    };
    let started = Instant::now();
    let (mut total, mut squares, mut blunders, mut simulations) = (0.0, 0.0, 0usize, 0u64);
    for Position { file, number, game, color, recorded } in &all {
        let (chosen, win_rate) = if args.recorded {
            (*recorded, None)
        } else {
            let result = Mcts::new(params.clone()).search(game, *color);
            simulations += u64::from(result.playouts);
            (result.best, Some(result.win_rate))
        };
        let mut after = game.clone();
        after.play_as(*color, chosen).with_context(|| format!("{file}: move {number}: {chosen}"))?;
        let before = lead(&model, game)?;
        // After a pass that ends play the count stands: the network still judges the board.
        if after.phase() == Phase::Counting {
            after.resume().context("resuming after two passes")?;
        }
        let loss = before + lead(&model, &after)?;
        total += loss;
        squares += loss * loss;
        if loss >= args.blunder {
            blunders += 1;
        }
        if args.verbose {
            let mv = match chosen {
                Move::Pass => "pass".to_string(),
                m => m.to_string(),
            };
            let win_rate = win_rate.map_or(String::new(), |w| format!(" win_rate={w:.3}"));
            eprintln!("{file} {number} {color:?} {mv} loss={loss:+.2}{win_rate}");
        }
    }
    let n = all.len();
    let mean = total / n as f64;
    println!(
        "loss positions={n} playouts={} policy={} mean_loss={mean:.3} se={} blunders={blunders} blunder_rate={:.3} \
         simulations_per_position={:.0} seconds={:.1}",
        if args.recorded {
            "recorded".to_string()
        } else if args.seconds.is_some() {
            "time".to_string()
        } else {
            args.playouts.to_string()
        },
        params.playout.policy,
        standard_error(n, mean, squares).map_or_else(|| "undefined".to_string(), |se| format!("{se:.3}")),
        blunders as f64 / n as f64,
        simulations as f64 / n as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::standard_error;

    #[test]
    fn the_standard_error_is_the_samples_deviation_over_root_n() {
        // Losses 1, 2, 3, 6: mean 3, squares 50, sample variance (50 − 36) / 3 = 14 / 3, over
        // 4 → 7 / 6.
        let se = standard_error(4, 3.0, 50.0).unwrap();
        assert!((se - (7.0f64 / 6.0).sqrt()).abs() < 1e-12, "{se}");
        // Equal losses vary not at all; one loss has no spread to measure.
        assert_eq!(standard_error(3, 2.0, 12.0), Some(0.0));
        assert_eq!(standard_error(1, 5.0, 25.0), None);
    }
}
