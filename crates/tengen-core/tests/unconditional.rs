//! Benson's unconditional life against GNU Go's regression file
//! `../shared/testdata/gnugo-regression/unconditional.tst` (673 cases): the SGF positions are
//! loaded directly (with the `sgf-parse` crate) and `unconditional_status` answered by
//! [`tengen_core::Unconditional`], with the `boardsize`, `clear_board` and `play` lines between
//! cases applied. At least 95% must agree (all 673 do).

use std::path::{Path, PathBuf};

use sgf_parse::go::{Move as SgfMove, Prop, parse};
use tengen_core::{Board, Color, Game, Move, Point, Rules, Setup, Unconditional};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/gnugo-regression")
}

fn point(p: sgf_parse::go::Point, size: usize) -> Point {
    Point::new(p.x, (size - 1 - p.y as usize) as u8).unwrap()
}

/// The position at the end of the main line of an SGF file.
fn load(path: &Path) -> Board {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let root = parse(&text).unwrap().into_iter().next().unwrap();
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, _))) => *w as usize,
        _ => 19,
    };
    let mut setup = Setup::new(size);
    let mut moves = Vec::new();
    for node in root.main_variation() {
        for prop in node.properties() {
            match prop {
                Prop::AB(ps) => setup.black.extend(ps.iter().map(|&p| point(p, size))),
                Prop::AW(ps) => setup.white.extend(ps.iter().map(|&p| point(p, size))),
                Prop::B(m) => moves.push((Color::Black, *m)),
                Prop::W(m) => moves.push((Color::White, *m)),
                _ => {}
            }
        }
    }
    setup.rules = Rules::chinese();
    let mut game = Game::try_from(setup).unwrap();
    for (c, m) in moves {
        let mv = match m {
            SgfMove::Pass => Move::Pass,
            SgfMove::Move(p) => Move::Play(point(p, size)),
        };
        game.play_as(c, mv).unwrap();
    }
    game.board().clone()
}

#[test]
fn agrees_with_gnugo_unconditional_tst() {
    let dir = testdata();
    let tst = dir.join("unconditional.tst");
    let text = std::fs::read_to_string(&tst)
        .unwrap_or_else(|e| panic!("{}: {e} (the shared test data must sit beside the project)", tst.display()));
    let mut board: Option<(Board, Unconditional)> = None;
    let mut pending: Option<(String, Point)> = None;
    let (mut total, mut agree) = (0, 0);
    let mut misses = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(file) = line.strip_prefix("loadsgf ") {
            let b = load(&dir.join(file.split_whitespace().next().unwrap()));
            let u = Unconditional::new(&b);
            board = Some((b, u));
        } else if let Some(n) = line.strip_prefix("boardsize ") {
            let b = Board::new(n.trim().parse().unwrap()).unwrap();
            let u = Unconditional::new(&b);
            board = Some((b, u));
        } else if line == "clear_board" {
            let size = board.as_ref().map_or(19, |(b, _)| b.size());
            let b = Board::new(size).unwrap();
            let u = Unconditional::new(&b);
            board = Some((b, u));
        } else if let Some(rest) = line.strip_prefix("play ") {
            // Moves between cases change the position.
            let (color, vertex) = rest.split_once(' ').unwrap();
            let (b, _) = board.take().unwrap();
            let mut game = Game::try_from(Setup {
                black: b.points().filter(|&p| b.get(p) == Some(Color::Black)).collect(),
                white: b.points().filter(|&p| b.get(p) == Some(Color::White)).collect(),
                ..Setup::new(b.size())
            })
            .unwrap();
            game.play_as(color.parse().unwrap(), vertex.trim().parse().unwrap()).unwrap();
            let b = game.board().clone();
            let u = Unconditional::new(&b);
            board = Some((b, u));
        } else if let Some(expected) = line.strip_prefix("#?") {
            let Some((id, p)) = pending.take() else {
                continue;
            };
            // `[alive]`, a few written `[undecided` without the closing bracket.
            let expected = expected.trim().trim_start_matches('[').trim_end_matches(']').trim_end_matches('*');
            let (b, u) = board.as_ref().unwrap();
            let got = u.status(p).gtp_name();
            let _ = b;
            total += 1;
            if expected.split('|').any(|e| e == got) {
                agree += 1;
            } else {
                misses.push(format!("{id} {p}: expected {expected}, got {got}"));
            }
        } else if let Some((id, rest)) = line.split_once(' ')
            && let Some(v) = rest.strip_prefix("unconditional_status ")
        {
            pending = Some((id.to_owned(), v.trim().parse().unwrap()));
        }
    }
    let rate = f64::from(agree) / f64::from(total);
    eprintln!("unconditional.tst: {agree} of {total} agree ({:.1}%)", rate * 100.0);
    for m in &misses {
        eprintln!("  {m}");
    }
    assert_eq!(total, 673, "the file has 673 cases");
    assert!(rate >= 0.95, "only {agree} of {total} agree");
}
