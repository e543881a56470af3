//! `tengen explain`: the commentator's exact interface (terms.md §3). Reads one JSON request
//! per line on standard input, writes one JSON answer per line on standard output; a bad
//! line gets `{"error": …}` and the next line is read as usual.

use std::io::{BufRead, Write};

use clap::Args;

/// Arguments of `tengen explain` (none: requests come on standard input).
#[derive(Args)]
#[command(after_help = "Requests (one JSON object per line):
  {\"size\":19,\"black\":[],\"white\":[\"D4\"],\"to_play\":\"B\",\"move\":\"C6\"}      names of a move
  {\"size\":9,\"black\":[…],\"white\":[…],\"region\":\"G1\"}                 eye space and its shape
  {\"size\":9,\"black\":[…],\"white\":[…],\"eye_point\":\"C5\"}              true or false eye
  {\"size\":9,\"black\":[…],\"white\":[…],\"point\":\"E1\",\"color\":\"W\"}      forbidden point, tiger's mouth
  {\"size\":9,\"black\":[…],\"white\":[…],\"chain_point\":\"C3\"}            seki
  {\"eval\":{\"loss\":8.5,\"prior\":0.02},\"terms\":[]}                     evaluative names
A move request may carry \"prelude\": [[\"B\",\"D4\"],[\"W\",\"Q16\"],…] (played first, with full
legality) and \"eval\" (the engine's record: loss, prior, gap2, tenuki_loss …).")]
pub struct ExplainArgs {}

/// Answers every request line of standard input.
pub fn run(_args: &ExplainArgs) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(stdout, "{}", tengen_terms::answer(&line))?;
        stdout.flush()?;
    }
    Ok(())
}
