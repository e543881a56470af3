//! Differential test against a second implementation of the rules: GNU Go 3.8 over GTP
//! (`gnugo --mode gtp --chinese-rules --positional-superko`).
//!
//! Random games biased toward captures, ataris and ko recaptures, garbage moves included, on
//! 9×9, 13×13 and 19×19. After every move both programs must hold the same stones; a move one
//! refuses the other must refuse; at sampled positions (every few moves, and after every
//! single-stone capture) the legality of every point must agree.
//!
//! `TENGEN_GNUGO_GAMES` sets the number of games (default 300, split over the sizes);
//! `TENGEN_GNUGO` the binary (default `gnugo` on the PATH, then `/usr/games/gnugo`). GNU Go
//! missing is a failure, never a skip: `.ci/run` installs it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tengen_core::{Color, Game, Move, Point, Rules};

struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start() -> Gtp {
        let candidates = match std::env::var("TENGEN_GNUGO") {
            Ok(p) => vec![p],
            Err(_) => vec!["gnugo".to_owned(), "/usr/games/gnugo".to_owned()],
        };
        for program in &candidates {
            let spawned = Command::new(program)
                .args(["--mode", "gtp", "--chinese-rules", "--positional-superko", "--komi", "7.5"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn();
            if let Ok(mut child) = spawned {
                let stdin = child.stdin.take().unwrap();
                let stdout = BufReader::new(child.stdout.take().unwrap());
                return Gtp { child, stdin, stdout };
            }
        }
        panic!(
            "GNU Go is required for the differential rules test and was not found (tried {candidates:?}). \
             Install it: apt-get install -y gnugo"
        );
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
    }

    /// Reads one response: Ok(text) for `=`, Err(text) for `?`.
    fn read(&mut self) -> Result<String, String> {
        let mut text = String::new();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "GNU Go closed its output");
            if line.trim().is_empty() && !text.is_empty() {
                break;
            }
            text.push_str(&line);
        }
        let body = text[1..].trim().to_owned();
        if text.starts_with('=') { Ok(body) } else { Err(body) }
    }

    fn ask(&mut self, command: &str) -> Result<String, String> {
        self.send(command);
        self.stdin.flush().unwrap();
        self.read()
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

fn gtp_color(c: Color) -> &'static str {
    if c == Color::Black { "black" } else { "white" }
}

fn stones(game: &Game, color: Color) -> Vec<String> {
    let mut v: Vec<String> =
        game.board().points().filter(|&p| game.board().get(p) == Some(color)).map(|p| p.to_string()).collect();
    v.sort();
    v
}

fn gnugo_stones(gtp: &mut Gtp, color: Color) -> Vec<String> {
    let text = gtp.ask(&format!("list_stones {}", gtp_color(color))).unwrap();
    let mut v: Vec<String> = text.split_whitespace().map(str::to_uppercase).collect();
    v.sort();
    v
}

/// Counters of one run.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    moves: usize,
    refused: usize,
    captures: usize,
    ko_captures: usize,
    legality_checks: usize,
}

/// Picks the next move: biased toward captures, ataris, ko recaptures; sometimes garbage.
fn pick(game: &Game, rng: &mut SmallRng) -> Move {
    let board = game.board();
    let me = game.to_move();
    let size = board.size() as u8;
    let targets = |libs: usize| -> Vec<Point> {
        board
            .points()
            .filter(|&p| board.get(p) == Some(!me) && board.liberties(p) == libs)
            .flat_map(|p| board.liberty_points(p))
            .collect()
    };
    let random_point = |rng: &mut SmallRng| Point::new(rng.random_range(0..size), rng.random_range(0..size)).unwrap();
    match rng.random_range(0..100) {
        0..2 => Move::Pass,
        2..12 => Move::Play(random_point(rng)),
        12..20 => match board.ko() {
            Some((p, c)) if c == me => Move::Play(p),
            _ => Move::Play(random_point(rng)),
        },
        20..55 => {
            let v = targets(1);
            if v.is_empty() { Move::Play(random_point(rng)) } else { Move::Play(v[rng.random_range(0..v.len())]) }
        }
        55..70 => {
            let v = targets(2);
            if v.is_empty() { Move::Play(random_point(rng)) } else { Move::Play(v[rng.random_range(0..v.len())]) }
        }
        _ => board.random_playout_move(me, rng).map_or(Move::Pass, Move::Play),
    }
}

fn compare_legality(game: &Game, gtp: &mut Gtp, tally: &mut Tally, context: &str) {
    let me = game.to_move();
    let points: Vec<Point> = game.board().points().collect();
    for p in &points {
        gtp.send(&format!("is_legal {} {p}", gtp_color(me)));
    }
    gtp.stdin.flush().unwrap();
    for &p in &points {
        let theirs = gtp.read().unwrap() == "1";
        let ours = game.check(me, Move::Play(p)).is_ok();
        assert_eq!(ours, theirs, "{context}: legality of {me} {p}: tengen {ours}, GNU Go {theirs}\n{}", game.board());
        tally.legality_checks += 1;
    }
}

fn play_games(size: usize, games: usize, seed: u64) -> Tally {
    let mut gtp = Gtp::start();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    // GNU Go keeps at most 500 moves of history for superko; stay below it.
    let max_moves = (size * size * 2).min(450);
    for g in 0..games {
        gtp.ask(&format!("boardsize {size}")).unwrap();
        gtp.ask("clear_board").unwrap();
        let mut game = Game::new(size, Rules::chinese()).unwrap();
        let mut attempts = 0;
        while game.moves().len() < max_moves && attempts < max_moves * 3 {
            attempts += 1;
            let color = game.to_move();
            let mv = pick(&game, &mut rng);
            let context = format!("{size}x{size} game {g} (seed {seed}) move {}", game.moves().len() + 1);
            let captures_before = game.board().captures(color);
            let ours = game.play(mv);
            let theirs = gtp.ask(&format!("play {} {mv}", gtp_color(color)));
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok(),
                "{context}: {color} {mv}: tengen {ours:?}, GNU Go {theirs:?}\n{}",
                game.board()
            );
            if ours.is_err() {
                tally.refused += 1;
                continue;
            }
            tally.moves += 1;
            let captured = game.board().captures(color) - captures_before;
            if captured > 0 {
                tally.captures += 1;
            }
            if captured == 1 && game.board().ko().is_some() {
                tally.ko_captures += 1;
            }
            for c in Color::ALL {
                assert_eq!(
                    stones(&game, c),
                    gnugo_stones(&mut gtp, c),
                    "{context}: {c} stones differ after {color} {mv}"
                );
            }
            if game.phase() != tengen_core::Phase::Playing {
                break;
            }
            if game.moves().len().is_multiple_of(10) || captured == 1 {
                compare_legality(&game, &mut gtp, &mut tally, &context);
            }
        }
        tally.games += 1;
    }
    tally
}

#[test]
fn agrees_with_gnugo_on_stones_and_legality() {
    let total: usize = std::env::var("TENGEN_GNUGO_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let seed: u64 = std::env::var("TENGEN_GNUGO_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(2026);
    // Two thirds of the games on 9×9, the rest split between 13×13 and 19×19.
    let plan = [(9, total * 2 / 3), (13, total / 6), (19, total - total * 2 / 3 - total / 6)];
    let handles: Vec<_> = plan
        .into_iter()
        .enumerate()
        .map(|(k, (size, games))| std::thread::spawn(move || (size, play_games(size, games, seed + k as u64))))
        .collect();
    let mut sum = Tally::default();
    for h in handles {
        let (size, t) = h.join().unwrap();
        eprintln!("gnugo differential {size}x{size}: {t:?}");
        sum.games += t.games;
        sum.moves += t.moves;
        sum.refused += t.refused;
        sum.captures += t.captures;
        sum.ko_captures += t.ko_captures;
        sum.legality_checks += t.legality_checks;
    }
    eprintln!("gnugo differential total: {sum:?}");
    assert_eq!(sum.games, total);
    // The bias must really reach captures, kos and refused moves, or the test proves little.
    assert!(sum.captures > sum.games, "too few captures: {sum:?}");
    assert!(sum.ko_captures > sum.games / 10, "too few ko captures: {sum:?}");
    assert!(sum.refused > sum.games, "too few refused moves: {sum:?}");
}
