//! `tengen gtp`: the Go Text Protocol on standard input and output.

use anyhow::Result;
use clap::Args;
use tengen_core::Rules;
use tengen_gtp::{RandomEngine, Session};

/// Options of `tengen gtp`.
#[derive(Args)]
pub struct GtpArgs {
    /// Rules preset: chinese, chinese-simple-ko, tromp-taylor, japanese.
    #[arg(long, default_value = "chinese")]
    rules: String,
    /// Seed of the engine's random generator (until the search engine exists, moves are
    /// random legal moves that fill no own eye).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Answers GTP commands until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> Result<()> {
    let rules = Rules::preset(&args.rules)?;
    let mut session = Session::with_rules(RandomEngine::new(args.seed), rules);
    let stdin = std::io::stdin();
    session.run(stdin.lock(), std::io::stdout().lock())?;
    Ok(())
}
