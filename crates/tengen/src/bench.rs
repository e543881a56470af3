//! `tengen bench`: machine-readable speed measurements.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_pcg::Pcg32;
use tengen_core::{Board, Color};

/// What to measure.
#[derive(Subcommand)]
pub enum Bench {
    /// Light playouts from the empty board: uniform random moves that fill no own eye and
    /// commit no suicide, until two passes. Prints one line:
    /// `playouts size=9 threads=1 seconds=5.0 playouts=… per_second=… moves_per_playout=…`.
    Playouts(PlayoutArgs),
    /// Simulations per second inside the tree search, from the empty board. Prints one line:
    /// `search size=9 threads=1 seconds=5.0 playouts=… per_second=…`.
    Search(SearchArgs),
    /// Games between two human seats driven over HTTP against a running `tengen serve`;
    /// afterwards every acknowledged move is looked up. Prints one line:
    /// `server games=200 seconds=10.0 … moves=… per_second=… p50_ms=… p99_ms=… errors=0 lost_games=0`.
    Server(crate::load::ServerArgs),
    /// A hostile client against a running `tengen serve` (deep SGF, unknown ids, big bodies,
    /// bad games, slow headers, WebSocket floods, import and computer floods, a request
    /// flood), with a real game against the computer played alongside. Prints one line:
    /// `abuse attempts=… wrongly_accepted=0 server_errors=0 crashes=0 rss_idle_mb=… rss_max_growth_mb=… game_p99_ms=… computer_max_ms=…`.
    Abuse(crate::abuse::AbuseArgs),
    /// Players in the lobby of a running `tengen serve`, each from an address of its own with
    /// the lobby's WebSocket open, and challenges posted and accepted at a steady rate: every
    /// socket must see every change. Prints one line:
    /// `lobby players=200 challenges=… events=… missed=0 p50_ms=… p99_ms=… max_ms=… refused=0 rss_start_mb=… rss_peak_mb=… rss_after_mb=…`.
    Lobby(crate::lobby::LobbyArgs),
    /// What a move and a read cost on a running `tengen serve`, against a game's length and a
    /// record's size: moves 1–20 and 281–300 of a 19 × 19 friend game, reads of a plain
    /// import and of one with 98,000 nodes of variations (medians of each run, then over the
    /// runs). Prints one line:
    /// `latency runs=5 moves_1_20_ms=… moves_281_300_ms=… move_ratio=… plain_read_ms=… big_read_ms=… big_info_ms=… big_over_plain=…`.
    Latency(crate::latency::LatencyArgs),
    /// Evaluations of a KataGo network per second on the empty board (the forward pass of
    /// crates/tengen-nn; with several threads, each evaluates positions of its own), then
    /// visits per second of the network search from the empty board for as long (threads
    /// sharing one tree). Prints one line:
    /// `nn size=9 threads=1 seconds=5.0 evaluations=… per_second=… visits=… visits_per_second=… model=…`.
    Nn(NnArgs),
    /// Points the playout search's moves lose on the positions of game records, judged by a
    /// KataGo network (the network's lead before the move minus after it, eight symmetries).
    /// Prints one line: `loss positions=… playouts=… policy=… mean_loss=… se=… blunders=… …`.
    Loss(crate::judge::LossArgs),
}

/// Options of `tengen bench nn`.
#[derive(Args)]
pub struct NnArgs {
    #[command(flatten)]
    span: Span,
    /// The KataGo model file (`.bin.gz`).
    #[arg(long)]
    model: std::path::PathBuf,
    /// Threads, each evaluating on its own.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Positions a forward pass evaluates together, and the search's leaves gathered for one
    /// (0: the search's default for the board size).
    #[arg(long, default_value_t = 1)]
    batch: usize,
    /// Print where the time of one thread's evaluations goes, by kind of layer (time,
    /// share, GFLOP/s achieved), and measure nothing else.
    #[arg(long)]
    profile: bool,
}

/// What every benchmark takes: the board and how long to measure.
#[derive(Args)]
pub struct Span {
    /// Board size (2 to 25).
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// How long to measure, in seconds.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
}

impl Span {
    fn duration(&self) -> Result<Duration> {
        if !(self.seconds.is_finite() && self.seconds > 0.0 && self.seconds <= 86_400.0) {
            bail!("--seconds must be a positive number of seconds up to a day, not {}", self.seconds);
        }
        Ok(Duration::from_secs_f64(self.seconds))
    }
}

/// Options of `tengen bench search`.
#[derive(Args)]
pub struct SearchArgs {
    #[command(flatten)]
    span: Span,
    /// Threads of the search, sharing one tree.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Playout policy: heavy, light, or a list of capture, escape, patterns, self-atari, ladders, nakade, two-liberties, anywhere, races, lone-atari (with heavy: added to it).
    #[arg(long, default_value = "heavy")]
    policy: tengen_core::Policy,
}

/// Options of `tengen bench playouts`.
#[derive(Args)]
pub struct PlayoutArgs {
    #[command(flatten)]
    span: Span,
    /// Threads, each with its own board and random generator.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random generators (thread k uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs a benchmark and prints its line on stdout.
pub fn run(bench: &Bench) -> Result<()> {
    match bench {
        Bench::Playouts(args) => playouts(args),
        Bench::Search(args) => search(args),
        Bench::Server(args) => crate::load::run(args),
        Bench::Abuse(args) => crate::abuse::run(args),
        Bench::Lobby(args) => crate::lobby::run(args),
        Bench::Latency(args) => crate::latency::run(args),
        Bench::Nn(args) => nn(args),
        Bench::Loss(args) => crate::judge::run(args),
    }
}

fn search(args: &SearchArgs) -> Result<()> {
    let duration = args.span.duration()?;
    if !(1..=256).contains(&args.threads) {
        bail!("--threads must be 1 to 256, not {}", args.threads);
    }
    let game = tengen_core::Game::new(args.span.size, tengen_core::Rules::chinese()).context("bench search")?;
    let params = tengen_engine::SearchParams {
        playouts: tengen_engine::Limit::Unlimited,
        time: Some(duration),
        threads: args.threads,
        playout: tengen_engine::PlayoutParams { policy: args.policy, ..tengen_engine::PlayoutParams::default() },
        ..tengen_engine::SearchParams::default()
    };
    let bar = progress(duration);
    let began = Instant::now();
    let result = tengen_engine::Mcts::new(params).search(&game, Color::Black);
    let elapsed = began.elapsed().as_secs_f64();
    bar.finish_and_clear();
    println!(
        "search size={} threads={} policy={} seconds={:.1} playouts={} per_second={:.0} best={} win_rate={:.3}",
        args.span.size,
        args.threads,
        args.policy,
        elapsed,
        result.playouts,
        f64::from(result.playouts) / elapsed,
        result.best,
        result.win_rate
    );
    Ok(())
}

fn playouts(args: &PlayoutArgs) -> Result<()> {
    let start = Board::new(args.span.size).context("bench playouts")?;
    let duration = args.span.duration()?;
    if !(1..=256).contains(&args.threads) {
        bail!("--threads must be 1 to 256, not {}", args.threads);
    }
    let bar = progress(duration);
    let began = Instant::now();
    let results: Vec<(u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads)
            .map(|k| {
                let start = &start;
                let bar = &bar;
                scope
                    .spawn(move || playout_loop(start, args.seed + k as u64, began + duration, (k == 0).then_some(bar)))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("bench thread panicked")).collect()
    });
    let elapsed = began.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let playouts: u64 = results.iter().map(|r| r.0).sum();
    let moves: u64 = results.iter().map(|r| r.1).sum();
    println!(
        "playouts size={} threads={} seconds={:.1} playouts={} per_second={:.0} moves_per_playout={:.1}",
        args.span.size,
        args.threads,
        elapsed,
        playouts,
        playouts as f64 / elapsed,
        moves as f64 / playouts.max(1) as f64
    );
    Ok(())
}

/// Runs playouts until `deadline`; returns (playouts, stones placed).
fn playout_loop(start: &Board, seed: u64, deadline: Instant, bar: Option<&ProgressBar>) -> (u64, u64) {
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut board = start.clone();
    let max_moves = 3 * (start.size() * start.size()) as u32;
    let (mut playouts, mut moves) = (0u64, 0u64);
    loop {
        // Look at the clock every 64 playouts only.
        for _ in 0..64 {
            board.copy_from(start);
            moves += u64::from(board.playout(Color::Black, &mut rng, max_moves).moves);
        }
        playouts += 64;
        let now = Instant::now();
        if let Some(bar) = bar {
            let left = deadline.saturating_duration_since(now).as_millis();
            bar.set_position(bar.length().unwrap_or(0).saturating_sub(left.try_into().unwrap_or(u64::MAX)));
        }
        if now >= deadline {
            return (playouts, moves);
        }
    }
}

/// A bar on a terminal, nothing when piped.
fn progress(duration: Duration) -> ProgressBar {
    let bar = ProgressBar::new(duration.as_millis().try_into().unwrap_or(u64::MAX));
    bar.set_style(
        ProgressStyle::with_template("{spinner} bench {elapsed}/{duration} {wide_bar}").expect("valid template"),
    );
    bar
}

/// `tengen bench nn`: forward passes on the empty board for the given time.
/// `tengen bench nn --profile`: one thread's evaluations for `duration`, by kind of layer.
fn nn_profile(model: &tengen_nn::Model, input: &tengen_nn::Input, duration: Duration, batch: usize) -> Result<()> {
    let batch: Vec<(&tengen_nn::Input, u8)> = (0..batch).map(|i| (input, (i % 8) as u8)).collect();
    std::hint::black_box(model.forward_batch(&batch));
    let started = Instant::now();
    let (passes, layers) = tengen_nn::profile(|| {
        let mut passes = 0u32;
        while started.elapsed() < duration || passes == 0 {
            std::hint::black_box(model.forward_batch(&batch));
            passes += 1;
        }
        passes
    });
    // Times and flops per evaluated position; calls per forward pass.
    let n = passes * batch.len() as u32;
    let total = started.elapsed().as_secs_f64();
    let ms = |secs: f64| secs * 1e3 / f64::from(n);
    println!("{:<40} {:>7} {:>10} {:>6} {:>8}", "layer", "calls", "ms/eval", "share", "GFLOP/s");
    let mut counted = 0.0;
    for l in &layers {
        let secs = l.time.as_secs_f64();
        counted += secs;
        let rate = if l.flops > 0.0 { format!("{:.1}", l.gflops()) } else { "-".to_string() };
        println!(
            "{:<40} {:>7} {:>10.2} {:>5.1}% {:>8}",
            l.kind,
            l.calls / u64::from(passes),
            ms(secs),
            100.0 * secs / total,
            rate
        );
    }
    let flops: f64 = layers.iter().map(|l| l.flops).sum::<f64>() / f64::from(n);
    println!(
        "{:<40} {:>7} {:>10.2} {:>5.1}%",
        "other (residuals, heads' glue)",
        "",
        ms(total - counted),
        100.0 * (total - counted) / total
    );
    println!(
        "nn-profile size={} batch={} evaluations={n} ms_per_evaluation={:.2} gflop_per_evaluation={:.2} gflops={:.1} model={} \
         kernel={}",
        input.size,
        batch.len(),
        ms(total),
        flops / 1e9,
        flops * f64::from(n) / total / 1e9,
        model.name,
        model.kernel
    );
    Ok(())
}

fn nn(args: &NnArgs) -> Result<()> {
    let duration = args.span.duration()?;
    let size = args.span.size;
    if !(2..=25).contains(&size) {
        bail!("--size must be 2 to 25, not {size}");
    }
    let model = tengen_nn::Model::load(&args.model).with_context(|| format!("cannot load {}", args.model.display()))?;
    crate::network::check(&model, &args.model)?;
    let game = tengen_core::Game::new(size, tengen_core::Rules::chinese())?;
    let input = tengen_nn::input_features(&game).map_err(|e| anyhow::anyhow!(e))?;
    let threads = args.threads;
    if !(1..=256).contains(&threads) {
        bail!("--threads must be 1 to 256, not {threads}");
    }
    if args.batch > 256 {
        bail!("--batch must be 0 to 256, not {}", args.batch);
    }
    let network_params =
        tengen_engine::NetworkParams { batch: args.batch, ..tengen_engine::SearchParams::network().network };
    if args.profile {
        return nn_profile(&model, &input, duration, network_params.batch_for(size));
    }
    // The empty board through each of the eight symmetries in turn.
    let batch: Vec<(&tengen_nn::Input, u8)> =
        (0..network_params.batch_for(size)).map(|i| (&input, (i % 8) as u8)).collect();
    let started = Instant::now();
    let n: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut n = 0u64;
                    while started.elapsed() < duration || n == 0 {
                        std::hint::black_box(model.forward_batch(&batch));
                        n += batch.len() as u64;
                    }
                    n
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    let secs = started.elapsed().as_secs_f64();
    let (name, kernel) = (model.name.clone(), model.kernel);
    // The search: no cache to speak of, so that every visit is an evaluation or a counted end.
    let network = std::sync::Arc::new(tengen_nn::CachedModel::new(model, 1));
    let params = tengen_engine::SearchParams {
        playouts: tengen_engine::Limit::Unlimited,
        time: Some(duration),
        threads,
        network: network_params,
        ..tengen_engine::SearchParams::network()
    };
    let search_started = Instant::now();
    let visits = tengen_engine::NetSearch::new(network, params).search(&game, None).playouts;
    let search_secs = search_started.elapsed().as_secs_f64();
    println!(
        "nn size={size} threads={threads} batch={} seconds={secs:.1} evaluations={n} per_second={:.2} \
         visits={visits} visits_per_second={:.2} model={name} kernel={kernel}",
        batch.len(),
        n as f64 / secs,
        f64::from(visits) / search_secs,
    );
    Ok(())
}
