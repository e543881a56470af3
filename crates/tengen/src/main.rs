//! `tengen`: the command line. Each subcommand parses its arguments and calls the libraries;
//! errors are one line on stderr and a non-zero exit.

mod abuse;
mod accounts;
mod bench;
mod diagram;
mod duel;
mod explain;
mod gtp;
mod judge;
mod latency;
mod learn;
mod load;
mod lobby;
mod malloc;
mod model;
mod network;
mod play;
mod ratings;
mod records;
mod regress;
mod review;
mod score;
mod serve;
mod worker;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// tengen (天元): Go under the Chinese rules.
#[derive(Parser)]
#[command(name = "tengen", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Work on players' accounts: reset a forgotten password.
    Accounts(accounts::AccountsArgs),
    /// Measure the speed of the board and the search.
    #[command(subcommand)]
    Bench(bench::Bench),
    /// Draw a game record as a diagram (棋谱): numbered stones, notes for moves on occupied
    /// points, SVG or PNG.
    Diagram(diagram::DiagramArgs),
    /// Name moves, eye spaces, eyes and points with the Go terms (术语): JSON requests on
    /// standard input, one answer per line on standard output.
    Explain(explain::ExplainArgs),
    /// Speak the Go Text Protocol on standard input and output (for GUIs, servers, match
    /// tools).
    Gtp(gtp::GtpArgs),
    /// Learn from game records: the 3 × 3 shapes the search's priors read.
    #[command(subcommand)]
    Learn(learn::Learn),
    /// Install a KataGo network once (`tengen model install`): `serve`, `gtp`, `review` and
    /// `play` then use it without `--model`.
    #[command(subcommand)]
    Model(model::ModelCommand),
    /// Referee games between two GTP engines: alternate colours, count by the Chinese rules,
    /// write SGFs, print the win rate with its confidence interval.
    Match(duel::MatchArgs),
    /// Play a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Replay every rated game of a server's database and rebuild its ratings
    /// (`--recompute`).
    Ratings(ratings::RatingsArgs),
    /// Run GTP regression files (GNU Go's `.tst` format) against tengen or another engine.
    Regress(regress::RegressArgs),
    /// Review a game record: every move named with the Go terms and judged by the search,
    /// the biggest mistakes, a win-rate graph, an annotated SGF.
    Review(review::ReviewArgs),
    /// Serve the web app and its API (games against the computer or a friend), storing every
    /// game in an SQLite file (default) or PostgreSQL.
    Serve(serve::ServeArgs),
    /// Count a finished game from its SGF record: both counts in stones, the result in stones
    /// and in points.
    Score(score::ScoreArgs),
    /// Work on the review jobs of a database shared with `tengen serve` nodes (no HTTP).
    Worker(worker::WorkerArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Accounts(a) => accounts::run(&a),
        Command::Bench(b) => bench::run(&b),
        Command::Score(s) => score::run(&s),
        Command::Diagram(d) => diagram::run(&d),
        Command::Explain(e) => explain::run(&e),
        Command::Gtp(g) => gtp::run(&g),
        Command::Ratings(r) => ratings::run(&r),
        Command::Regress(r) => regress::run(&r),
        Command::Review(r) => review::run(&r),
        Command::Learn(l) => learn::run(&l),
        Command::Match(m) => duel::run(&m),
        Command::Model(m) => model::run(&m),
        Command::Play(p) => play::run(&p),
        Command::Serve(s) => serve::run(&s),
        Command::Worker(w) => worker::run(&w),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tengen: {e:#}");
            ExitCode::FAILURE
        }
    }
}
