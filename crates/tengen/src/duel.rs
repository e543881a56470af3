//! `tengen match`: referee games between two GTP engines.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tengen_core::{Color, Game, Komi, Move, Phase, Point, Rules};
use tengen_gtp::client::{Client, ClientError};
use tengen_sgf::{GameInfo, write_annotated};

/// Options of `tengen match`.
#[derive(Args)]
pub struct MatchArgs {
    /// Engine A (a shell command speaking GTP); Black in the first game.
    #[arg(long)]
    black: String,
    /// Engine B; White in the first game. Colours alternate from game to game.
    #[arg(long)]
    white: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Komi in points.
    #[arg(long, default_value_t = 7.5)]
    komi: f64,
    /// Seconds per move (sent as byo-yomi of one stone); an engine silent for three times as
    /// long plus five seconds is stopped and loses on time.
    #[arg(long, default_value_t = 1.0)]
    time: f64,
    /// Openings: one per line, GTP vertices played alternately from Black; each pair of games
    /// (colours swapped) uses the next line.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Engine whose `final_status_list dead` decides dead stones (else both players are asked
    /// and disagreements flagged).
    #[arg(long)]
    referee: Option<String>,
    /// Folder for the games' SGF files.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Moves after which a game is stopped and counted (default 3 × size²).
    #[arg(long)]
    max_moves: Option<usize>,
}

/// How one game went, seen from engine A.
#[derive(Default)]
struct Record {
    /// 1 for an A win, 0 for a B win, 0.5 for a draw, `None` for no result.
    a_score: Option<f64>,
    a_black: bool,
    error: Option<String>,
    /// The two engines' dead stones, when they named different ones.
    disagreement: Option<Disagreement>,
    /// The game ended by counting (both engines asked for their dead stones), not by a
    /// resignation, time or an error.
    counted: bool,
}

/// Dead stones that Black's and White's engines did not agree on, and what each list makes
/// of the game.
struct Disagreement {
    black: Vec<Point>,
    white: Vec<Point>,
    /// The result counted with Black's list and with White's.
    results: [String; 2],
}

impl Disagreement {
    /// One line: both lists, the results they give and whether those differ.
    fn describe(&self) -> String {
        let list = |dead: &[Point]| {
            if dead.is_empty() {
                "none".to_owned()
            } else {
                dead.iter().map(Point::to_string).collect::<Vec<_>>().join(" ")
            }
        };
        let winner = |r: &str| r.chars().next();
        format!(
            "dead stones by Black's engine: {}; by White's: {}; counted with Black's {}, with White's {}{}",
            list(&self.black),
            list(&self.white),
            self.results[0],
            self.results[1],
            if winner(&self.results[0]) == winner(&self.results[1]) { "" } else { " (the winner changes)" }
        )
    }
}

#[derive(Default)]
struct Clocks {
    seconds: [f64; 2],
    moves: [u32; 2],
}

fn openings(path: Option<&PathBuf>, size: usize) -> Result<Vec<Vec<Point>>> {
    let Some(path) = path else { return Ok(vec![Vec::new()]) };
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut all = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves = line
            .split_whitespace()
            .map(|v| v.parse::<Point>().ok().filter(|p| p.is_on(size as u8)))
            .collect::<Option<Vec<_>>>()
            .with_context(|| format!("{}:{}: not vertices of a {size}×{size} board", path.display(), i + 1))?;
        all.push(moves);
    }
    if all.is_empty() {
        bail!("{}: no openings", path.display());
    }
    Ok(all)
}

fn setup(client: &mut Client, args: &MatchArgs, deadline: Duration) -> Result<(), ClientError> {
    client.send(&format!("boardsize {}", args.size), Some(deadline))?;
    client.send("clear_board", Some(deadline))?;
    client.send(&format!("komi {}", args.komi), Some(deadline))?;
    // Not every engine knows time_settings; a refusal is no error.
    match client.send(&format!("time_settings 0 {} 1", args.time.max(0.01)), Some(deadline)) {
        Ok(_) | Err(ClientError::Failure(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// An engine's dead stones, sorted (engines list them in their own orders).
fn dead_from(client: &mut Client, deadline: Duration) -> Option<Vec<Point>> {
    let text = client.send("final_status_list dead", Some(deadline)).ok()?;
    let mut dead: Vec<Point> = text.split_whitespace().map(|v| v.parse::<Point>().ok()).collect::<Option<_>>()?;
    dead.sort();
    dead.dedup();
    Some(dead)
}

/// Plays one game; returns the record and writes the SGF.
fn play_game(args: &MatchArgs, index: usize, opening: &[Point], clocks: &mut Clocks) -> Result<Record> {
    let a_black = index.is_multiple_of(2);
    let commands = if a_black { [&args.black, &args.white] } else { [&args.white, &args.black] };
    let answer = Duration::from_secs(30);
    let deadline = Duration::from_secs_f64(args.time * 3.0 + 5.0);
    let mut record = Record { a_black, ..Record::default() };
    let komi = Komi::from_points(args.komi).context("--komi must be a multiple of 0.5")?;
    let mut game = Game::new(args.size, Rules { komi, ..Rules::chinese() })?;
    let mut engines = [Client::start(commands[0])?, Client::start(commands[1])?];
    for (c, engine) in Color::ALL.into_iter().zip(engines.iter_mut()) {
        if let Err(e) = setup(engine, args, answer) {
            record.error = Some(format!("{} could not set up the game: {e}", engine.command()));
            game.forfeit(c);
        }
    }
    for &p in opening {
        if game.phase() != Phase::Playing {
            break;
        }
        let c = game.to_move();
        if game.play(Move::Play(p)).is_err() {
            bail!("opening move {p} is illegal");
        }
        for engine in &mut engines {
            let _ = engine.send(&format!("play {c} {p}"), Some(answer));
        }
    }
    let max_moves = args.max_moves.unwrap_or(3 * args.size * args.size);
    let a_side = |c: Color| usize::from((c == Color::Black) != a_black); // 0 = A, 1 = B
    while game.phase() == Phase::Playing && game.moves().len() < max_moves {
        let c = game.to_move();
        let started = Instant::now();
        let reply = engines[c.index()].send(&format!("genmove {c}"), Some(deadline));
        clocks.seconds[a_side(c)] += started.elapsed().as_secs_f64();
        clocks.moves[a_side(c)] += 1;
        let name = engines[c.index()].command().to_owned();
        let text = match reply {
            Ok(text) => text,
            Err(ClientError::Timeout(d)) => {
                record.error = Some(format!("{name} gave no move within {d:?}"));
                game.lose_on_time(c);
                break;
            }
            Err(e) => {
                record.error = Some(format!("{name} failed: {e}"));
                game.forfeit(c);
                break;
            }
        };
        if text.eq_ignore_ascii_case("resign") {
            game.resign(c);
            break;
        }
        let mv = match text
            .parse::<Move>()
            .map_err(|e| e.to_string())
            .and_then(|m| game.play(m).map(|()| m).map_err(|e| e.to_string()))
        {
            Ok(m) => m,
            Err(e) => {
                record.error = Some(format!("{name} played {text:?}: {e}"));
                game.forfeit(c);
                break;
            }
        };
        if let Err(e) = engines[(!c).index()].send(&format!("play {c} {mv}"), Some(answer)) {
            record.error = Some(format!("{} refused {c} {mv}: {e}", engines[(!c).index()].command()));
            game.forfeit(!c);
            break;
        }
    }

    // Counting: after two passes, or when the game reached the move cap.
    let mut result_text = None;
    if game.outcome().is_none() {
        record.counted = true;
        let dead = match &args.referee {
            Some(command) => {
                let mut referee = Client::start(command)?;
                setup(&mut referee, args, answer).map_err(|e| anyhow::anyhow!("referee: {e}"))?;
                for &(c, m) in game.moves() {
                    referee
                        .send(&format!("play {c} {m}"), Some(answer))
                        .map_err(|e| anyhow::anyhow!("referee: {e}"))?;
                }
                dead_from(&mut referee, deadline).unwrap_or_default()
            }
            None => {
                let black = dead_from(&mut engines[0], deadline);
                let white = dead_from(&mut engines[1], deadline);
                match (black, white) {
                    (Some(b), Some(w)) if b == w => b,
                    (Some(b), Some(w)) => {
                        let results = [game.score(&b).result_points(), game.score(&w).result_points()];
                        let common = b.iter().copied().filter(|p| w.contains(p)).collect();
                        record.disagreement = Some(Disagreement { black: b, white: w, results });
                        common
                    }
                    (b, w) => b.or(w).unwrap_or_default(),
                }
            }
        };
        if game.phase() == Phase::Counting {
            game.finish(&dead)?;
        } else {
            let score = game.score(&dead);
            result_text = Some(score.result_points());
        }
    }
    let result = game.outcome().map(|o| o.result_points()).or(result_text).unwrap_or_default();
    let black_won = result.starts_with('B');
    record.a_score = if result == "0" {
        Some(0.5)
    } else if result.starts_with('B') || result.starts_with('W') {
        Some(if black_won == a_black { 1.0 } else { 0.0 })
    } else {
        None
    };
    if let Some(dir) = &args.out {
        let info = GameInfo {
            black: Some(commands[0].clone()),
            white: Some(commands[1].clone()),
            event: Some("tengen match".into()),
            round: Some((index + 1).to_string()),
            result: Some(result.clone()),
            ..GameInfo::default()
        };
        let path = dir.join(format!("game-{:03}.sgf", index + 1));
        // A disagreement about dead stones goes into the record's root comment, so that the
        // game can be judged afterwards (`tengen score GAME.sgf --dead …` with either list).
        let comment = record.disagreement.as_ref().map(|d| format!("tengen match: {}", d.describe()));
        std::fs::write(&path, write_annotated(&game, &info, comment.as_deref().unwrap_or(""), &[]).to_sgf())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(record)
}

/// The Wilson score interval (95%) of a proportion.
fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let p = wins / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference for a score rate, kept finite at 0 and 1.
fn elo(rate: f64, n: f64) -> f64 {
    let p = rate.clamp(0.5 / n.max(1.0), 1.0 - 0.5 / n.max(1.0));
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Plays the match and prints the summary.
pub fn run(args: &MatchArgs) -> Result<()> {
    if args.games == 0 || !(2..=25).contains(&args.size) || !(args.time > 0.0 && args.time.is_finite()) {
        bail!("--games must be at least 1, --size 2 to 25, --time positive");
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let openings = openings(args.openings.as_ref(), args.size)?;
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} games, {msg}").expect("valid template"));
    let mut clocks = Clocks::default();
    let mut records = Vec::new();
    for g in 0..args.games {
        let record = play_game(args, g, &openings[(g / 2) % openings.len()], &mut clocks)?;
        records.push(record);
        let a: f64 = records.iter().filter_map(|r| r.a_score).sum();
        bar.set_message(format!(
            "A {a} – B {}",
            records.iter().filter_map(|r| r.a_score.map(|s| 1.0 - s)).sum::<f64>()
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();

    let scored: Vec<&Record> = records.iter().filter(|r| r.a_score.is_some()).collect();
    let n = scored.len() as f64;
    let a_points: f64 = scored.iter().filter_map(|r| r.a_score).sum();
    let (lo, hi) = wilson(a_points, n);
    let by = |a_black: bool, a: bool| {
        let games: Vec<_> = scored.iter().filter(|r| r.a_black == a_black).collect();
        let won: f64 = games.iter().filter_map(|r| r.a_score).map(|s| if a { s } else { 1.0 - s }).sum();
        format!("{won}/{}", games.len())
    };
    let mean = |i: usize| if clocks.moves[i] == 0 { 0.0 } else { clocks.seconds[i] / f64::from(clocks.moves[i]) };
    let errors: Vec<&String> = records.iter().filter_map(|r| r.error.as_ref()).collect();
    println!(
        "match: A = {:?}, B = {:?}; {} games on {}×{}, komi {}, {} s per move",
        args.black, args.white, args.games, args.size, args.size, args.komi, args.time
    );
    println!(
        "A scored {a_points} of {n} ({:.1}%), 95% interval {:.1}%–{:.1}% (Wilson); Elo difference A − B {:+.0}",
        100.0 * a_points / n.max(1.0),
        100.0 * lo,
        100.0 * hi,
        elo(a_points / n.max(1.0), n)
    );
    println!(
        "as Black: A {}, B {}; as White: A {}, B {}",
        by(true, true),
        by(false, false),
        by(false, true),
        by(true, false)
    );
    println!("mean seconds per move: A {:.3}, B {:.3}", mean(0), mean(1));
    println!(
        "errors: {}; dead-stone disagreements: {} of {} counted games; games without result: {}",
        errors.len(),
        records.iter().filter(|r| r.disagreement.is_some()).count(),
        records.iter().filter(|r| r.counted).count(),
        records.len() - scored.len()
    );
    for e in errors {
        println!("  {e}");
    }
    for (i, r) in records.iter().enumerate() {
        if let Some(d) = &r.disagreement {
            println!("  game {} (A {}): {}", i + 1, if r.a_black { "Black" } else { "White" }, d.describe());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_and_elo() {
        let (lo, hi) = wilson(45.0, 50.0);
        assert!((lo - 0.786).abs() < 0.01 && (hi - 0.957).abs() < 0.01, "{lo} {hi}");
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
        assert!(elo(0.5, 10.0).abs() < 1e-9);
        assert!((elo(0.75, 100.0) - 190.8).abs() < 0.5);
        assert!(elo(1.0, 10.0).is_finite() && elo(1.0, 10.0) > 400.0);
    }
}
