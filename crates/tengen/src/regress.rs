//! `tengen regress`: run GTP regression files (GNU Go's `.tst` format).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{Context, Result, bail};
use clap::Args;
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

/// Another program speaking GTP on its standard input and output.
struct Program {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Program {
    fn start(command: &str) -> Result<Program> {
        let mut child = Command::new("sh")
            .args(["-c", &format!("exec {command}")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {command}"))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(Program { child, stdin, stdout })
    }
}

impl Peer for Program {
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush()).map_err(|e| format!("engine: {e}"))?;
        let mut text = String::new();
        loop {
            let mut line = String::new();
            match self.stdout.read_line(&mut line) {
                Ok(0) => return Err("engine closed its output".into()),
                Ok(_) if line.trim().is_empty() && !text.is_empty() => break,
                Ok(_) if line.trim().is_empty() => {}
                Ok(_) => text.push_str(&line),
                Err(e) => return Err(format!("engine: {e}")),
            }
        }
        let body =
            text.trim_end().split_once(|c: char| c.is_whitespace()).map_or("", |(_, r)| r).trim_start().to_owned();
        if text.starts_with('=') { Ok(body) } else { Err(body) }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs every file and prints what passed and what did not.
pub fn run(args: &RegressArgs) -> Result<()> {
    let (mut passed, mut failed, mut expected, mut surprising) = (0, 0, 0, 0);
    for file in &args.files {
        let mut program;
        let mut session;
        let peer: &mut dyn Peer = match &args.engine {
            Some(command) => {
                program = Program::start(command)?;
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
