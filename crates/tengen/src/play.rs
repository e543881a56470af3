//! `tengen play`: a game against the engine in the terminal, usable by a person and
//! scriptable from standard input.

use std::io::{BufRead, Write};

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use rand::SeedableRng;
use tengen_core::{Color, Game, Komi, Move, Nigiri, Outcome, Parity, Phase, Rules};
use tengen_engine::{Decision, SearchParams, engine_at_level};

/// Which colour the player takes.
#[derive(Clone, Copy, ValueEnum)]
pub enum Side {
    /// Play Black.
    Black,
    /// Play White.
    White,
    /// Choose by nigiri (猜先): guess odd or even.
    Nigiri,
}

/// Options of `tengen play`.
#[derive(Args)]
pub struct PlayArgs {
    /// Board size.
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Your colour.
    #[arg(long, value_enum, default_value = "black")]
    color: Side,
    /// Handicap stones for Black (2 to 9; komi is then 0).
    #[arg(long, default_value_t = 0)]
    handicap: usize,
    /// The engine's strength, 1 to 10.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// Seed for the engine and the nigiri.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A KataGo network (`.bin.gz`): levels 6 to 10 search with it (8 to 1,600 visits a
    /// move), and it judges the dead stones. Without it, the network `tengen model install`
    /// installed, if any.
    #[arg(long, conflicts_with = "no_model")]
    model: Option<std::path::PathBuf>,
    /// Without a network, even where one is installed.
    #[arg(long)]
    no_model: bool,
}

const HELP: &str =
    "moves: a vertex such as D4, or pass; also undo (takes back your move and the engine's), score, resign, quit";

fn show(game: &Game, out: &mut impl Write) -> std::io::Result<()> {
    let mut text = game.board().to_string();
    // Mark the last stone with brackets: ` X ` becomes `(X)` in its row.
    if let Some(&(_, Move::Play(p))) = game.moves().last() {
        let size = game.board().size();
        let line = size - usize::from(p.row()); // line 0 holds the column letters
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let at = 3 + 2 * usize::from(p.col());
        if let Some(l) = lines.get_mut(line)
            && l.len() > at + 2
        {
            l.replace_range(at..at + 3, &format!("({})", &l[at + 1..at + 2]));
        }
        text = lines.join("\n") + "\n";
    }
    write!(out, "{text}")?;
    writeln!(
        out,
        "captures: Black {}, White {}; komi {}; move {}",
        game.board().captures(Color::Black),
        game.board().captures(Color::White),
        game.rules().komi,
        game.moves().len()
    )
}

/// Plays a game on standard input and output.
pub fn run(args: &PlayArgs) -> Result<()> {
    let stdin = std::io::stdin();
    run_with(args, stdin.lock(), std::io::stdout().lock())
}

fn run_with(args: &PlayArgs, mut input: impl BufRead, mut out: impl Write) -> Result<()> {
    if !(2..=25).contains(&args.size) {
        bail!("--size must be 2 to 25");
    }
    let mut rules = Rules::chinese();
    let mut game = if args.handicap >= 2 {
        rules.komi = Komi::ZERO;
        Game::with_fixed_handicap(args.size, rules, args.handicap)?
    } else if args.handicap == 1 {
        bail!("--handicap 1 is no handicap; for 让先 play Black with --handicap 0");
    } else {
        Game::new(args.size, rules)?
    };
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
        Side::Nigiri => {
            writeln!(out, "Nigiri (猜先): guess odd or even [odd]:")?;
            let mut line = String::new();
            input.read_line(&mut line)?;
            let guess = if line.trim().eq_ignore_ascii_case("even") { Parity::Even } else { Parity::Odd };
            let nigiri = Nigiri::draw(&mut rand::rngs::StdRng::seed_from_u64(args.seed), guess);
            let you = nigiri.guesser_color();
            writeln!(out, "The handful held {} stones: you play {you}.", nigiri.handful)?;
            you
        }
    };
    let network = crate::network::choose(args.model.as_deref(), args.no_model)?;
    let with = match &network {
        Some(n) if SearchParams::network_level(args.level).is_some() => format!(" (network {})", n.model().name),
        _ => String::new(),
    };
    let mut engine = engine_at_level(args.level, network, args.seed);
    writeln!(out, "tengen {}×{}, level {}{with}; you are {human}. {HELP}", args.size, args.size, args.level)?;
    loop {
        match game.phase() {
            Phase::Ended(o) => {
                writeln!(out, "Game over: {}", describe(&o))?;
                return Ok(());
            }
            Phase::Counting => {
                let dead = engine.dead_stones(&game).unwrap_or_default();
                let outcome = game.finish(&dead)?;
                show(&game, &mut out)?;
                if !dead.is_empty() {
                    let names: Vec<String> = dead.iter().map(ToString::to_string).collect();
                    writeln!(out, "Dead: {}", names.join(" "))?;
                }
                let s = game.score(&dead);
                writeln!(
                    out,
                    "Black {} stones, White {} stones",
                    s.count_text(Color::Black),
                    s.count_text(Color::White)
                )?;
                writeln!(out, "Game over: {}", describe(&outcome))?;
                return Ok(());
            }
            Phase::Playing => {}
        }
        if game.to_move() != human {
            let c = game.to_move();
            match engine.decide(&game, c, None) {
                Decision::Resign => {
                    game.resign(c);
                    writeln!(out, "{c} resigns.")?;
                }
                Decision::Play(m) => {
                    game.play(m)?;
                    writeln!(out, "{c} plays {m}.")?;
                }
            }
            continue;
        }
        show(&game, &mut out)?;
        write!(out, "{human} to play> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "resign" => {
                game.resign(human);
            }
            "score" => {
                let dead = engine.dead_stones(&game).unwrap_or_default();
                writeln!(out, "If the game ended now: {}", game.score(&dead))?;
            }
            "undo" => {
                // Take back the engine's reply and the player's move.
                let mut taken = 0;
                while taken < 2 && game.undo().is_ok() {
                    taken += 1;
                }
                if taken == 0 {
                    writeln!(out, "Nothing to undo.")?;
                }
                while game.to_move() != human && game.undo().is_ok() {}
            }
            _ => match word.parse::<Move>() {
                Ok(m) => {
                    if let Err(e) = game.play(m) {
                        writeln!(out, "Not possible: {e}")?;
                    }
                }
                Err(e) => writeln!(out, "{e}. {HELP}")?,
            },
        }
    }
}

fn describe(o: &Outcome) -> String {
    format!("{} ({})", o.result_zh(), o.result_points())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(args: PlayArgs, input: &str) -> String {
        let mut out = Vec::new();
        run_with(&args, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_game_against_the_network() {
        let model =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz");
        assert!(model.exists(), "{} is missing: scripts/test fetches it", model.display());
        let args = PlayArgs {
            size: 9,
            color: Side::Black,
            handicap: 0,
            level: 6,
            seed: 1,
            model: Some(model.clone()),
            no_model: false,
        };
        let out = play(args, "E5\nC3\nresign\n");
        assert!(out.contains("level 6 (network b10c384h6nbttflrs)"), "{out}");
        assert_eq!(out.matches("white plays").count(), 2, "{out}");
        assert!(!out.contains("white plays pass"), "{out}");
        // Below level 6 the playout search plays, network or not.
        let args = PlayArgs {
            size: 9,
            color: Side::Black,
            handicap: 0,
            level: 5,
            seed: 1,
            model: Some(model),
            no_model: false,
        };
        let out = play(args, "resign\n");
        assert!(out.contains("level 5; you are"), "{out}");
    }

    #[test]
    fn a_scripted_game() {
        let args =
            PlayArgs { size: 5, color: Side::Black, handicap: 0, level: 1, seed: 3, model: None, no_model: true };
        let out = play(args, "C3\nZ9\nQ\nC3\nhelp\nundo\nC3\nscore\nresign\n");
        assert!(out.contains("you are black"), "{out}");
        assert!(out.contains("white plays"), "{out}");
        assert!(out.contains("Not possible: Z9 is not on the board"), "{out}");
        assert!(out.contains("not a vertex"), "{out}");
        assert!(out.contains("Not possible: C3 is occupied"), "{out}");
        assert!(out.contains("If the game ended now:"), "{out}");
        assert!(out.contains("Game over: 白中盘胜 (W+R)"), "{out}");
        assert!(out.contains("(O)"), "the engine's last move is marked: {out}");
    }

    #[test]
    fn passing_to_the_end_counts_the_game() {
        let args =
            PlayArgs { size: 5, color: Side::White, handicap: 0, level: 1, seed: 5, model: None, no_model: true };
        let out = play(args, &"pass\n".repeat(60));
        assert!(out.contains("black plays"), "{out}");
        assert!(out.contains("Game over:"), "{out}");
        assert!(out.contains("stones, White"), "{out}");
    }

    #[test]
    fn nigiri_and_handicap() {
        let args =
            PlayArgs { size: 9, color: Side::Nigiri, handicap: 2, level: 1, seed: 9, model: None, no_model: true };
        let out = play(args, "odd\nquit\n");
        assert!(out.contains("The handful held"), "{out}");
        assert!(out.contains("komi 0"), "{out}");
    }
}
