//! `tengen ratings --recompute`: replays every rated game of the database in the order it was
//! rated, with today's rating math, and says whether the table came out the same.

use anyhow::{Context, Result};
use clap::Args;

/// Options of `tengen ratings`.
#[derive(Args)]
pub struct RatingsArgs {
    /// The server's database (as `tengen serve --db`).
    #[arg(long, default_value = "sqlite://tengen.db")]
    db: String,
    /// Replay every rated game from the starting ratings and rewrite the table.
    #[arg(long)]
    recompute: bool,
}

/// Runs the command.
pub fn run(args: &RatingsArgs) -> Result<()> {
    if !args.recompute {
        anyhow::bail!("nothing to do: --recompute replays every rated game");
    }
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the async runtime")?;
    runtime.block_on(async {
        let store =
            tengen_server::Store::open(&args.db).await.with_context(|| format!("opening the database {}", args.db))?;
        let (games, moved) = store.recompute_ratings().await.context("recomputing the ratings")?;
        if moved == 0 {
            println!("{games} rated games replayed: the ratings are as they were");
        } else {
            println!("{games} rated games replayed: {moved} ratings changed");
        }
        Ok(())
    })
}
