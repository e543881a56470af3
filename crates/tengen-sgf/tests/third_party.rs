//! SGF written by tengen reads the same in two other programs' readers: `sgfmill` (PyPI) and
//! `@sabaki/sgf` (npm). The test writes varied games and a manifest of what each file holds,
//! installs the readers when missing, and runs `tests/third_party/check_*`. Python 3 and
//! Node.js must be there: their absence is a failure, never a skip.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::random_game;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use tengen_core::{Color, Move, Point};
use tengen_sgf::{GameInfo, write_game};

fn sgf_point(p: Point, size: usize) -> String {
    format!("{}{}", char::from(b'a' + p.col()), char::from(b'a' + (size - 1 - usize::from(p.row())) as u8))
}

/// Writes the games and returns the manifest's path.
fn write_games(dir: &Path) -> PathBuf {
    let mut rng = SmallRng::seed_from_u64(42);
    let mut manifest = Vec::new();
    for i in 0..40 {
        let size = [7usize, 9, 13, 19][i % 4];
        let handicap = [0usize, 0, 2, 4, 9][i % 5];
        let handicap = if size < 9 && handicap > 4 { 4 } else { handicap };
        let moves = rng.random_range(0..150);
        let mut game = random_game(size, rng.random(), moves, handicap, rng.random_range(-3..16));
        match i % 3 {
            0 => {
                game.resign(if i % 2 == 0 { Color::White } else { Color::Black });
            }
            1 => {
                while game.phase() == tengen_core::Phase::Playing {
                    game.play(Move::Pass).unwrap();
                }
                game.finish(&[]).unwrap();
            }
            _ => {}
        }
        let info = GameInfo {
            black: Some(format!("黑方 {i}")),
            white: Some(format!("White [{i}] \\ o")),
            ..GameInfo::default()
        };
        let file = format!("game{i:02}.sgf");
        std::fs::write(dir.join(&file), write_game(&game, &info).to_sgf()).unwrap();
        let start = game.start();
        let setup = |c: Color| -> Vec<String> {
            start.points().filter(|&p| start.get(p) == Some(c)).map(|p| sgf_point(p, size)).collect()
        };
        let moves: Vec<[String; 2]> = game
            .moves()
            .iter()
            .map(|&(c, m)| {
                let v = match m {
                    Move::Pass => String::new(),
                    Move::Play(p) => sgf_point(p, size),
                };
                [c.letter().to_string(), v]
            })
            .collect();
        manifest.push(json!({
            "file": file,
            "size": size,
            "komi": game.rules().komi.points(),
            "handicap": game.handicap(),
            "result": game.outcome().map(|o| o.result_points()),
            "black": info.black,
            "white": info.white,
            "black_setup": setup(Color::Black),
            "white_setup": setup(Color::White),
            "moves": moves,
        }));
    }
    let path = dir.join("manifest.json");
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    path
}

fn run(cmd: &mut Command) -> (bool, String) {
    match cmd.output() {
        Ok(out) => (
            out.status.success(),
            format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        ),
        Err(e) => (false, format!("cannot run {cmd:?}: {e}")),
    }
}

#[test]
fn sgfmill_reads_what_tengen_writes() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("third-party-sgfmill");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = write_games(&dir);
    let (present, _) = run(Command::new("python3").args(["-c", "import sgfmill"]));
    if !present {
        let (ok, out) = run(Command::new("python3").args(["-m", "pip", "install", "--quiet", "sgfmill==1.1.1"]));
        assert!(ok, "python3 and sgfmill are required (pip install sgfmill): {out}");
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/third_party/check_sgfmill.py");
    let (ok, out) = run(Command::new("python3").arg(script).arg(&manifest));
    assert!(ok && out.contains("40 passed, 0 failed"), "{out}");
}

#[test]
fn sabaki_reads_what_tengen_writes() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("third-party-sabaki");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = write_games(&dir);
    let modules = Path::new(env!("CARGO_TARGET_TMPDIR")).join("node");
    if !modules.join("node_modules/@sabaki/sgf").exists() {
        let (ok, out) = run(Command::new("npm")
            .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
            .arg(&modules)
            .arg("@sabaki/sgf@3.4.7"));
        assert!(ok, "Node.js, npm and @sabaki/sgf are required (npm install @sabaki/sgf): {out}");
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/third_party/check_sabaki.js");
    let (ok, out) = run(Command::new("node").arg(script).arg(&manifest).env("NODE_PATH", modules.join("node_modules")));
    assert!(ok && out.contains("40 passed, 0 failed"), "{out}");
}
