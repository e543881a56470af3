//! `tengen review GAME.sgf`: the command line of the review pipeline ([`tengen_review`]): every
//! move of a game named with the Go terms and judged by the search, the biggest mistakes
//! listed, a win-rate and score graph (a sparkline in the terminal, SVG on request) and an
//! annotated SGF.

use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use tengen_engine::{Limit, Mcts, SearchParams};
use tengen_review::{Searcher, annotations, review, svg, text};
use tengen_sgf::write_annotated;

/// Options of `tengen review`.
#[derive(Args)]
pub struct ReviewArgs {
    /// The game record (SGF).
    game: PathBuf,
    /// Print the review as JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Strength of the analysis, 1 to 10: the simulations of the engine's level of that number
    /// for every position (level 5: 1,000).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// Simulations per position (instead of the level's).
    #[arg(long)]
    playouts: Option<u32>,
    /// Write the annotated record here: names and judgements in each move's comment, mistakes
    /// marked (BM, DO), good moves marked (TE).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the win-rate and score graph here (SVG).
    #[arg(long)]
    graph: Option<PathBuf>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A KataGo network (`.bin.gz`): search every position with it (`--playouts` then counts
    /// its visits, default 24), and judge with its policy too — the played move's prior, the
    /// opponent's most likely reply (a trap) and best reply's priors. Without it, the network
    /// `tengen model install` installed, if any.
    #[arg(long, conflicts_with = "no_model")]
    model: Option<PathBuf>,
    /// Without a network, even where one is installed.
    #[arg(long)]
    no_model: bool,
}

/// Runs the review.
pub fn run(args: &ReviewArgs) -> Result<()> {
    let replay = crate::records::replay_file(&args.game, "reviewed")?;
    let game = replay.game;
    if game.moves().is_empty() {
        bail!("{}: the record has no moves to review", args.game.display());
    }
    let network = crate::network::choose(args.model.as_deref(), args.no_model)?;
    let default = match network {
        Some(_) => 24,
        None => SearchParams::level(args.level).playouts.simulations().unwrap_or(1),
    };
    let simulations = args.playouts.unwrap_or(default).max(1);
    let params = SearchParams {
        playouts: Limit::Simulations(simulations),
        time: None,
        temperature: 0.0,
        threads: args.threads.max(1),
        seed: args.seed,
        ..if network.is_some() { SearchParams::network() } else { SearchParams::level(10) }
    };
    let evaluated = |n: &Option<std::sync::Arc<tengen_nn::CachedModel>>| n.as_ref().map_or(0, |n| n.stats().1);
    let before = evaluated(&network);
    let began = std::time::Instant::now();
    let mut searcher = match network.clone() {
        Some(network) => Searcher::network(network, params.clone()),
        None => Searcher::Playouts(Box::new(Mcts::new(params.clone()))),
    };
    let file = args.game.display().to_string();
    let review = review(&game, &mut searcher, simulations, &file, &replay.info, &mut |p| {
        if let tengen_review::Progress::Quick(moves) = p {
            eprintln!(
                "tengen review: quick pass, {} positions in {:.1} s",
                moves.len() + 1,
                began.elapsed().as_secs_f64()
            );
        }
        ControlFlow::Continue(())
    })
    .with_context(|| format!("{file}: cannot review"))?;
    if network.is_some() {
        let evaluations = evaluated(&network) - before;
        eprintln!(
            "tengen review: {} moves, {evaluations} network evaluations ({:.1} a move), {:.1} s",
            game.moves().len(),
            evaluations as f64 / game.moves().len() as f64,
            began.elapsed().as_secs_f64()
        );
    }
    if let Some(out) = &args.out {
        let (comment, notes) = annotations(&review);
        let sgf = write_annotated(&game, &replay.info, &comment, &notes).to_sgf();
        std::fs::write(out, sgf).with_context(|| format!("cannot write {}", out.display()))?;
    }
    if let Some(graph) = &args.graph {
        std::fs::write(graph, svg(&review)).with_context(|| format!("cannot write {}", graph.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&review)?);
    } else {
        print!("{}", text(&review));
    }
    Ok(())
}
