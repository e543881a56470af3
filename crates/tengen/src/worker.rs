//! `tengen worker`: review jobs and the computer's moves from a database shared with `tengen
//! serve` nodes, on a machine of its own, without HTTP ([`tengen_server::service::reviews::Worker`],
//! [`tengen_server::AppState::work_computer_jobs`]).

use anyhow::{Context, Result};
use clap::Args;

use crate::serve::{LogFormat, install_log};

/// Options of `tengen worker`.
#[derive(Args)]
pub struct WorkerArgs {
    /// The database of the servers: `postgres://USER:PASSWORD@HOST/DATABASE` (an SQLite file
    /// works too, on the servers' machine).
    #[arg(long)]
    db: String,
    /// Review jobs worked on at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=64))]
    workers: u16,
    /// The computer's moves searched at once, for the servers that share them
    /// (`tengen serve --shared-moves`); 0: none.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=64))]
    moves: u16,
    /// The longest the computer thinks about one move, in seconds (as the servers' `--max-think`).
    #[arg(long, default_value_t = 5.0)]
    max_think: f64,
    /// A KataGo network (`.bin.gz`): this worker also takes the jobs that ask its visits (the
    /// servers must load the same network).
    #[arg(long)]
    model: Option<std::path::PathBuf>,
    /// Seconds a claimed job stays this worker's without renewal (it renews twice a second
    /// while it works): a job of a worker that died waits this long for another.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(2..=3600))]
    lease: u64,
    /// Search threads of each review (a network review's quick pass shares out its positions
    /// among them too).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    review_threads: u16,
    /// The log on standard error: `text` lines or `json` objects (`RUST_LOG` filters it).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

/// Works until Ctrl-C.
pub fn run(args: &WorkerArgs) -> Result<()> {
    let network = args.model.as_deref().map(crate::network::load).transpose()?;
    install_log(args.log_format);
    let (workers, moves) = (usize::from(args.workers), usize::from(args.moves));
    if workers + moves == 0 {
        anyhow::bail!("--workers 0 and --moves 0: nothing to work on");
    }
    let max_think = crate::serve::seconds("max-think", args.max_think, 600.0)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(crate::serve::WORKER_STACK)
        .max_blocking_threads(workers + moves + 1)
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let store =
            tengen_server::Store::open(&args.db).await.with_context(|| format!("opening the database {}", args.db))?;
        let lease = std::time::Duration::from_secs(args.lease);
        for _ in 0..workers {
            let worker = tengen_server::service::reviews::Worker::new(store.clone(), network.clone())
                .with_lease(lease)
                .with_threads(usize::from(args.review_threads));
            tokio::spawn(worker.run());
        }
        // The computer's moves: the server's own logic, without its HTTP side.
        let settings = tengen_server::Settings {
            searches: moves,
            max_think,
            network: network.clone(),
            review_workers: 0,
            shared_moves: true,
            ..tengen_server::Settings::default()
        };
        let app = tengen_server::AppState::new(store, settings);
        app.start_computer_workers(lease, false);
        println!("tengen worker: {workers} review workers, {moves} for the computer's moves on {}", args.db);
        tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")?;
        Ok(())
    })
}
