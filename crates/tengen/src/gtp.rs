//! `tengen gtp`: the Go Text Protocol on standard input and output.

use anyhow::Result;
use clap::Args;
use std::time::Duration;
use tengen_core::Rules;

use tengen_engine::{Limit, Mcts, NetSearch, NetworkParams, PlayoutParams, RaveSchedule, SearchParams};
use tengen_gtp::{RandomEngine, Session};

/// Options of `tengen gtp`.
#[derive(Args)]
pub struct GtpArgs {
    /// Rules preset: chinese, chinese-simple-ko, tromp-taylor, japanese.
    #[arg(long, default_value = "chinese")]
    rules: String,
    /// Seed of the engine's random generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Strength from 1 (a beginner can win) to 10; overrides --playouts.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: Option<u8>,
    /// Simulations of the tree search per move (default 10,000; with `--model`, network
    /// visits, default 400). Given (or with `--level`), it limits every move — the playout
    /// search goes on to twice as many while the choice is unsettled (`--close-extension`),
    /// a level never —; left out, a move with a clock (`time_settings`) searches for its
    /// share of the time instead.
    #[arg(long)]
    playouts: Option<u32>,
    /// A KataGo network (`.bin.gz`, model versions 8 to 15): search with it (PUCT) instead
    /// of playouts. `--level` 1 to 5 keep the playout search. Without it, the network
    /// `tengen model install` installed, if any.
    #[arg(long, conflicts_with = "no_model")]
    model: Option<std::path::PathBuf>,
    /// Without a network, even where one is installed.
    #[arg(long)]
    no_model: bool,
    /// Seconds per move at most (the search stops at whichever limit comes first).
    #[arg(long)]
    time: Option<f64>,
    /// Threads of the search, sharing one tree.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Play random legal moves instead of searching (for tests).
    #[arg(long)]
    random: bool,
    /// Start every search afresh instead of keeping the tree under the moves played.
    #[arg(long)]
    no_reuse: bool,
    /// Drop the etiquette of the first move (as Black, the first stone in its own
    /// upper-right corner): open wherever the search likes.
    #[arg(long)]
    no_etiquette: bool,
    /// After each move, a line on stderr: win rate, simulations, principal variation.
    #[arg(long, short)]
    verbose: bool,
    /// `loadsgf` adopts the rules a record names in `RU` (by default the rules set here or
    /// over GTP stay in force, and only the record's komi is taken).
    #[arg(long)]
    sgf_rules: bool,
    #[command(flatten)]
    tuning: Tuning,
}

/// The search's tunables on the command line (`tengen gtp`, `tengen bench loss`).
#[derive(Args)]
pub struct Tuning {
    /// Playout policy: heavy (the default), light (uniform random moves), or a list of the
    /// steps capture, escape, patterns, self-atari, ladders, nakade, two-liberties, anywhere, races, lone-atari (with heavy: added to it) — for measuring each.
    #[arg(long, default_value = "heavy")]
    policy: tengen_core::Policy,
    /// Start new tree nodes without prior knowledge (for measuring what the priors bring).
    #[arg(long)]
    no_priors: bool,
    /// Share the children of transposed positions (tuning; see `SearchParams`).
    #[arg(long)]
    transpositions: bool,
    /// Exploration constant: UCT's, or with `--model` PUCT's `cpuct` (tuning; see `SearchParams`).
    #[arg(long)]
    exploration: Option<f32>,
    /// Search every move to its simulations limit, even once the rest could not change the
    /// most visited move (tuning; see `SearchParams::stop_early`).
    #[arg(long)]
    no_stop_early: bool,
    /// The playout search's exploration constant at the root alone (`--exploration` sets both;
    /// tuning; see `PlayoutParams`).
    #[arg(long)]
    root_exploration: Option<f32>,
    /// Go on past `--playouts`, up to this many times it, while the choice between the two
    /// most visited moves is unsettled: 2 by default, 1 for exactly `--playouts` (a level's
    /// default; see `PlayoutParams::close_extension`).
    #[arg(long)]
    close_extension: Option<f32>,
    /// RAVE equivalence in simulations (tuning; see `SearchParams`).
    #[arg(long)]
    rave_equivalence: Option<f32>,
    /// How the AMAF rate's weight falls: `least-error` (the default) or `equivalence`
    /// (tuning; see `RaveSchedule`).
    #[arg(long, value_parser = rave_schedule)]
    rave_schedule: Option<RaveSchedule>,
    /// Weigh a move's AMAF update up to 1 + this by how soon it was played (3 by default), 0
    /// for even weights (tuning; see `PlayoutParams`).
    #[arg(long)]
    rave_distance: Option<f32>,
    /// New nodes' priors count in their AMAF statistics rather than their own (tuning; see
    /// `PlayoutParams::priors_in_value`).
    #[arg(long)]
    priors_in_amaf: bool,
    /// Weight of the score margin in the search's utility, 0 to 1 (tuning; see `SearchParams`).
    #[arg(long)]
    score_weight: Option<f32>,
    /// Visits before a leaf is expanded (tuning; see `SearchParams`).
    #[arg(long)]
    expand_after: Option<u32>,
    /// Simulations won of the prior for a move next to the last move's chain on the
    /// common-fate graph, 0 for nearness by lines (tuning; see `PlayoutParams`).
    #[arg(long)]
    cfg_prior: Option<f32>,
    /// Virtual simulations of prior knowledge from learned 3 × 3 shapes, 0 for none (tuning;
    /// see `SearchParams`).
    #[arg(long)]
    shape_prior: Option<f32>,
    /// Virtual simulations of prior knowledge from the learned move predictor, 0 for none
    /// (tuning; see `SearchParams`).
    #[arg(long)]
    predictor_prior: Option<f32>,
    /// Playouts without the last good reply (tuning; see `SearchParams`).
    #[arg(long)]
    no_last_good_reply: bool,
    /// Playouts without the replies to the last two moves (LGRF-2; tuning; see `SearchParams`).
    #[arg(long)]
    no_last_good_reply_2: bool,
    /// Playouts try the policy's captures and escapes before the last good reply (tuning; see
    /// `SearchParams`).
    #[arg(long)]
    urgent_first: bool,
    /// On 13 × 13 and larger, let the root search quiet moves off the empty corners and on
    /// the first and second lines in the opening too (tuning; see `SearchParams`).
    #[arg(long)]
    no_corners_first: bool,
    /// Playouts draw their shape moves by learned shapes, with this bonus for a point next to
    /// the last move; 0 for MoGo's shapes (tuning; see `SearchParams`).
    #[arg(long)]
    playout_shapes: Option<f32>,
    /// The playout policy of the quick dead-stone judgement behind the counts of games ended
    /// in the search's tree (and of `final_status_list` with `--status-simulations 0`), as
    /// `--policy` reads it; light by default (tuning; see `SearchParams`).
    #[arg(long)]
    status_policy: Option<tengen_core::Policy>,
    /// Simulations of the status search that judges dead stones (`final_status_list`, the
    /// answer to a pass, counting), 10,000 by default; 0 judges by status playouts alone
    /// (tuning; see `SearchParams`).
    #[arg(long)]
    status_simulations: Option<u32>,
    /// The mercy rule's capture lead as a share of the board's points, 0 for off (tuning; see
    /// `SearchParams`).
    #[arg(long)]
    mercy: Option<f32>,
    /// Resign when the best move's win rate stays below this, 0 for never (tuning; see
    /// `SearchParams`).
    #[arg(long)]
    resign_below: Option<f32>,
}

/// `--rave-schedule`'s value.
fn rave_schedule(text: &str) -> Result<RaveSchedule, String> {
    match text {
        "equivalence" => Ok(RaveSchedule::Equivalence),
        "least-error" => Ok(RaveSchedule::LeastError),
        _ => Err(format!("{text:?} is no RAVE schedule: equivalence or least-error")),
    }
}

impl Tuning {
    /// These flags over `base` (a level's or a default's parameters).
    #[must_use]
    pub fn apply(&self, base: SearchParams) -> SearchParams {
        let (playout, network) = (&base.playout, &base.network);
        let playout = PlayoutParams {
            policy: self.policy,
            priors: !self.no_priors,
            transpositions: self.transpositions,
            exploration: self.exploration.unwrap_or(playout.exploration),
            root_exploration: self.root_exploration.or(self.exploration).unwrap_or(playout.root_exploration),
            rave_equivalence: self.rave_equivalence.unwrap_or(playout.rave_equivalence),
            close_extension: self.close_extension.unwrap_or(playout.close_extension).clamp(1.0, 100.0),
            rave_schedule: self.rave_schedule.unwrap_or(playout.rave_schedule),
            rave_distance: self.rave_distance.unwrap_or(playout.rave_distance).max(0.0),
            priors_in_value: playout.priors_in_value && !self.priors_in_amaf,
            expand_after: self.expand_after.unwrap_or(playout.expand_after).max(1),
            cfg_prior: self.cfg_prior.unwrap_or(playout.cfg_prior).max(0.0),
            shape_prior: self.shape_prior.unwrap_or(playout.shape_prior).max(0.0),
            predictor_prior: self.predictor_prior.unwrap_or(playout.predictor_prior).max(0.0),
            last_good_reply: playout.last_good_reply && !self.no_last_good_reply,
            last_good_reply_2: playout.last_good_reply_2 && !self.no_last_good_reply_2,
            urgent_first: playout.urgent_first || self.urgent_first,
            corners_first: playout.corners_first && !self.no_corners_first,
            playout_shapes: self.playout_shapes.unwrap_or(playout.playout_shapes).max(0.0),
            status_policy: self.status_policy.unwrap_or(playout.status_policy),
            status_simulations: self.status_simulations.unwrap_or(playout.status_simulations),
            mercy: self.mercy.unwrap_or(playout.mercy).max(0.0),
            ..playout.clone()
        };
        let network = NetworkParams { cpuct: self.exploration.unwrap_or(network.cpuct), ..network.clone() };
        SearchParams {
            score_weight: self.score_weight.unwrap_or(base.score_weight).clamp(0.0, 1.0),
            resign_below: self.resign_below.unwrap_or(base.resign_below).clamp(0.0, 1.0),
            stop_early: base.stop_early && !self.no_stop_early,
            playout,
            network,
            ..base
        }
    }
}

/// Answers GTP commands until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> Result<()> {
    let rules = Rules::preset(&args.rules)?;
    if args.time.is_some_and(|t| !(t.is_finite() && t > 0.0)) || args.playouts == Some(0) {
        anyhow::bail!("--time must be a positive number of seconds and --playouts at least 1");
    }
    let network = crate::network::choose(args.model.as_deref(), args.no_model)?;
    let network_params = match (&network, args.level) {
        (None, _) => None,
        (Some(_), None) => {
            Some(SearchParams { playouts: Limit::Simulations(args.playouts.unwrap_or(400)), ..SearchParams::network() })
        }
        (Some(_), Some(level)) => SearchParams::network_level(level),
    };
    // The flags over a level's or a default's parameters (each search reads its own).
    let flagged = |base: SearchParams| SearchParams {
        time: args.time.map(Duration::from_secs_f64),
        seed: args.seed,
        reuse_tree: !args.no_reuse,
        etiquette: !args.no_etiquette,
        threads: usize::from(args.threads),
        time_first: args.playouts.is_none() && args.level.is_none(),
        ..args.tuning.apply(base)
    };
    let mut session = if args.random {
        Session::with_rules(RandomEngine::new(args.seed), rules)
    } else if let (Some(network), Some(base)) = (network, network_params) {
        Session::with_rules(NetSearch::new(network, flagged(base)), rules)
    } else {
        let base = args.level.map_or(
            SearchParams { playouts: Limit::Simulations(args.playouts.unwrap_or(10_000)), ..SearchParams::default() },
            SearchParams::level,
        );
        Session::with_rules(Mcts::new(flagged(base)), rules)
    };
    session = session.sgf_rules(args.sgf_rules);
    if args.verbose {
        session = session.log_searches(|report| eprintln!("{report}"));
    }
    // The session reads on a thread of its own (analysis ends when a line arrives).
    session.run(std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock())?;
    Ok(())
}
