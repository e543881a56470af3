//! `tengen worker`: review jobs from a database shared with `tengen serve` nodes, on a machine
//! of its own, without HTTP ([`tengen_server::reviews::Worker`]).

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
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    workers: u16,
    /// A KataGo network (`.bin.gz`): this worker also takes the jobs that ask its visits (the
    /// servers must load the same network).
    #[arg(long)]
    model: Option<std::path::PathBuf>,
    /// Seconds a claimed job stays this worker's without renewal (it renews twice a second
    /// while it works): a job of a worker that died waits this long for another.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(2..=3600))]
    lease: u64,
    /// The log on standard error: `text` lines or `json` objects (`RUST_LOG` filters it).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

/// Works until Ctrl-C.
pub fn run(args: &WorkerArgs) -> Result<()> {
    let network = args.model.as_deref().map(crate::network::load).transpose()?;
    install_log(args.log_format);
    let workers = usize::from(args.workers);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(workers + 1)
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let store =
            tengen_server::Store::open(&args.db).await.with_context(|| format!("opening the database {}", args.db))?;
        for _ in 0..workers {
            let worker = tengen_server::reviews::Worker::new(store.clone(), network.clone())
                .with_lease(std::time::Duration::from_secs(args.lease));
            tokio::spawn(worker.run());
        }
        println!("tengen worker: {workers} review workers on {}", args.db);
        tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")?;
        Ok(())
    })
}
