//! `tengen regress`: run GTP regression files (GNU Go's `.tst` format).

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use tengen_gtp::client::Client;
use tengen_gtp::regress::{Peer, Verdict, run_file};
use tengen_gtp::{RandomEngine, Session};

/// Options of `tengen regress`.
#[derive(Args)]
pub struct RegressArgs {
    /// Regression files (`.tst`): numbered GTP commands, each followed by `#? [pattern]`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Run the files against this GTP engine (a shell command, e.g. "gnugo --mode gtp")
    /// instead of tengen itself.
    #[arg(long)]
    engine: Option<String>,
}

/// Runs every file and prints what passed and what did not.
pub fn run(args: &RegressArgs) -> Result<()> {
    let (mut passed, mut failed, mut expected, mut surprising) = (0, 0, 0, 0);
    for file in &args.files {
        let mut program;
        let mut session;
        let peer: &mut dyn Peer = match &args.engine {
            Some(command) => {
                program = Client::start(command)?;
                &mut program
            }
            None => {
                session = Session::new(RandomEngine::new(1));
                &mut session
            }
        };
        let cases = run_file(file, peer).map_err(anyhow::Error::msg)?;
        let count = |v: Verdict| cases.iter().filter(|c| c.verdict == v).count();
        let (p, f, x, u) =
            (count(Verdict::Pass), count(Verdict::Fail), count(Verdict::ExpectedFail), count(Verdict::UnexpectedPass));
        println!(
            "{}: {p} passed, {f} failed, {x} known failures, {u} unexpected passes ({:.1}% of {} as expected)",
            file.display(),
            100.0 * (p + x) as f64 / cases.len().max(1) as f64,
            cases.len()
        );
        for c in cases.iter().filter(|c| matches!(c.verdict, Verdict::Fail | Verdict::UnexpectedPass)) {
            let what = if c.verdict == Verdict::Fail { "FAILED" } else { "unexpected pass" };
            println!("  {} {}: {what}: got {:?}, expected [{}]", c.id, c.command, c.got, c.expected);
        }
        (passed, failed, expected, surprising) = (passed + p, failed + f, expected + x, surprising + u);
    }
    println!("total: {passed} passed, {failed} failed, {expected} known failures, {surprising} unexpected passes");
    if failed > 0 {
        bail!("{failed} unexpected failure(s)");
    }
    Ok(())
}
