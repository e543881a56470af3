//! The seki and false seki of `tests/data/seki.txt` (its format is described at its top), each
//! in the 8 orientations of the board and with the colours swapped: the static seki rule
//! (`seki_partners`) must find every seki named and no partner for a chain named alone, and
//! the area count of a position given with its score must give it.

use std::path::Path;

use tengen_core::{Game, Komi, Point, Setup, seki_partners};

/// One case of the data file.
#[derive(Debug)]
struct Case {
    title: String,
    /// The rows, the top row first, as `(x, y)` from the bottom left: `'X'`, `'O'` or `'.'`.
    rows: Vec<Vec<char>>,
    seki: Vec<(String, String)>,
    none: Vec<String>,
    score: Option<(f64, String)>,
}

/// Every case of `tests/data/seki.txt`.
fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/seki.txt")).unwrap();
    let mut cases: Vec<Case> = Vec::new();
    let mut in_board = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            in_board = false;
            continue;
        }
        if let Some(title) = line.strip_prefix("=== ") {
            cases.push(Case { title: title.into(), rows: Vec::new(), seki: Vec::new(), none: Vec::new(), score: None });
            in_board = false;
            continue;
        }
        let case = cases.last_mut().expect("a case before its lines");
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "board" => in_board = true,
            "seki" => case.seki.push((words[1].into(), words[2].into())),
            "none" => case.none.push(words[1].into()),
            "dead" => {}
            "score" => case.score = Some((words[1].parse().unwrap(), words[2].into())),
            _ if in_board => case.rows.push(words.iter().map(|w| w.chars().next().unwrap()).collect()),
            other => panic!("{}: unknown line {other:?}", case.title),
        }
    }
    cases
}

const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// `(x, y)` of a vertex, `y` from the bottom.
fn xy(vertex: &str) -> (usize, usize) {
    let x = LETTERS.iter().position(|&l| l == vertex.as_bytes()[0]).unwrap();
    (x, vertex[1..].parse::<usize>().unwrap() - 1)
}

/// The board of `case` in orientation `o` (0–7), colours swapped if `swap`, as ASCII text, and
/// the map of a vertex to its new place.
fn oriented(case: &Case, o: usize, swap: bool) -> (String, impl Fn(&str) -> Point) {
    let n = case.rows.len();
    let map = move |(x, y): (usize, usize)| {
        let (x, y) = if o & 4 != 0 { (y, x) } else { (x, y) };
        let x = if o & 1 != 0 { n - 1 - x } else { x };
        let y = if o & 2 != 0 { n - 1 - y } else { y };
        (x, y)
    };
    let mut grid = vec![vec!['.'; n]; n];
    for (r, row) in case.rows.iter().enumerate() {
        assert_eq!(row.len(), n, "{}: a square board", case.title);
        for (x, &c) in row.iter().enumerate() {
            let (nx, ny) = map((x, n - 1 - r));
            grid[n - 1 - ny][nx] = match (c, swap) {
                ('X', true) => 'O',
                ('O', true) => 'X',
                (c, _) => c,
            };
        }
    }
    let text = grid.iter().map(|row| row.iter().map(char::to_string).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>();
    let point = move |v: &str| {
        let (x, y) = map(xy(v));
        Point::new(x as u8, y as u8).unwrap()
    };
    (text.join("\n"), point)
}

#[test]
fn the_static_rule_finds_every_seki_and_no_false_one() {
    let cases = cases();
    assert!(cases.len() >= 7, "{} cases", cases.len());
    for case in &cases {
        for o in 0..8 {
            for swap in [false, true] {
                let (text, at) = oriented(case, o, swap);
                let game = Game::try_from(Setup::from_ascii(&text).unwrap()).unwrap();
                let b = game.board();
                let lowest = |v: &str| b.chain(at(v)).min().unwrap();
                for (a, c) in &case.seki {
                    let what =
                        format!("{} (orientation {o}, swapped {swap}): {a} in seki with {c}\n{text}", case.title);
                    assert!(seki_partners(b, at(a)).contains(&lowest(c)), "{what}");
                    assert!(seki_partners(b, at(c)).contains(&lowest(a)), "{what}");
                }
                for a in &case.none {
                    let partners = seki_partners(b, at(a));
                    assert!(
                        partners.is_empty(),
                        "{} (orientation {o}): {a} in no seki, found {partners:?}\n{text}",
                        case.title
                    );
                }
            }
        }
    }
}

#[test]
fn positions_with_a_seki_count_as_given() {
    for case in cases() {
        let Some((komi, result)) = &case.score else { continue };
        let (text, _) = oriented(&case, 0, false);
        let mut setup = Setup::from_ascii(&text).unwrap();
        setup.rules.komi = Komi::from_points(*komi).unwrap();
        let game = Game::try_from(setup).unwrap();
        let score = game.score(&[]).to_string();
        assert_eq!(score.split_whitespace().next(), Some(result.as_str()), "{}: {score}", case.title);
    }
}
