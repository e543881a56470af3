//! `tengen serve`: the game server.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

/// Options of `tengen serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database: an SQLite file (`sqlite://tengen.db`, the default, created in the working
    /// directory) or `postgres://USER:PASSWORD@HOST/DATABASE`.
    #[arg(long, default_value = "sqlite://tengen.db")]
    db: String,
    /// Computer searches running at once; more games wait their turn. By default one fewer
    /// than the machine's cores (at least one): a core stays free to answer requests.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    searches: Option<u16>,
    /// The longest the computer thinks about one move, in seconds.
    #[arg(long, default_value_t = 5.0)]
    max_think: f64,
    /// A KataGo network (`.bin.gz`, model versions 10 to 15): the computer of levels 6 to 10
    /// searches with it, and it proposes the dead stones.
    #[arg(long)]
    model: Option<std::path::PathBuf>,
}

/// Serves until Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<()> {
    if !(args.max_think.is_finite() && args.max_think > 0.0 && args.max_think <= 600.0) {
        anyhow::bail!("--max-think must be more than 0 and at most 600 seconds");
    }
    let settings = tengen_server::Settings {
        searches: args.searches.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            usize::from,
        ),
        max_think: Duration::from_secs_f64(args.max_think),
        network: args.model.as_deref().map(crate::network::load).transpose()?,
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime
        .block_on(tengen_server::serve(args.addr, &args.db, settings))
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("serving on {} with {}", args.addr, args.db))
}
