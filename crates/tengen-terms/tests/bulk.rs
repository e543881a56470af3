//! The names in bulk: every move of up to 1,000 game records from the shared test material
//! (GNU Go's regression games: NNGS, KGS, 13×13 and other collections) is named, and the names
//! must be sane: every capture is 提 and only captures are; a move that leaves an adjacent
//! chain with one liberty of its two is 打吃 and every 打吃 is such a move; every move has
//! exactly one region name, last among its names; position names agree with the geometry;
//! the first stone in each corner of a 19×19 game is on a named corner point. The
//! distribution of names is written to `target/tmp/terms-distribution.txt`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tengen_core::Move;
use tengen_sgf::{IllegalMoves, Record};
use tengen_terms::{Commentary, Kind};

fn sgf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sgf_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "sgf") {
            out.push(p);
        }
    }
}

const CORNER_POINTS: [&str; 6] = ["星", "小目", "三三", "高目", "目外", "五五"];

#[test]
fn names_over_a_thousand_games_are_sane() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata");
    let mut files = Vec::new();
    sgf_files(&root, &mut files);
    files.sort();
    assert!(
        files.len() > 1000,
        "the shared test material is missing: {} SGF files under {}",
        files.len(),
        root.display()
    );

    let mut games = 0;
    let mut moves = 0usize;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let (mut corner_firsts, mut corner_named) = (0, 0);
    let mut odd_corners: Vec<String> = Vec::new();
    for path in &files {
        if games == 1000 {
            break;
        }
        let Ok(bytes) = std::fs::read(path) else { continue };
        let Ok((records, _)) = Record::read_bytes(&bytes) else { continue };
        let Some(record) = records.into_iter().next() else { continue };
        let Ok(replay) = record.replay(IllegalMoves::Stop) else { continue };
        let game = replay.game;
        let stones = game.moves().iter().filter(|m| matches!(m.1, Move::Play(_))).count();
        if !replay.problems.is_empty() || stones < 30 {
            continue;
        }
        games += 1;
        let start = game.truncated(0);
        let empty_start = start.board().empty_count() == start.board().size().pow(2);
        let size = start.board().size();
        let mut commentary = Commentary::new(&start);
        let mut corners_seen = [false; 4];
        for (i, &(color, mv)) in game.moves().iter().enumerate() {
            if let Move::Play(p) = mv {
                let where_ = format!("{}: move {} ({color:?} {p})", path.display(), i + 1);
                match commentary.name(color, p) {
                    Err(e) => failures.push(format!("{where_}: refused: {e}")),
                    Ok(n) => {
                        moves += 1;
                        let names: Vec<&str> = n.terms.iter().map(|t| t.zh.as_str()).collect();
                        for t in &names {
                            *counts.entry((*t).to_owned()).or_default() += 1;
                        }
                        if n.captured.is_empty() == names.contains(&"提") {
                            failures.push(format!("{where_}: captured {:?} but names {names:?}", n.captured));
                        }
                        let atari = n.adjacent.iter().any(|a| a.before == 2 && a.after == 1);
                        if atari != names.contains(&"打吃") {
                            failures.push(format!("{where_}: atari {atari} but names {names:?}"));
                        }
                        let regions = n.terms.iter().filter(|t| t.kind == Kind::Region).count();
                        if regions != 1 || n.terms.last().map(|t| t.kind) != Some(Kind::Region) {
                            failures.push(format!("{where_}: region names wrong in {names:?}"));
                        }
                        let mut sorted = n.terms.clone();
                        sorted.sort_by_key(tengen_terms::Term::rank);
                        sorted.dedup();
                        if sorted != n.terms {
                            failures.push(format!("{where_}: not in order or repeated: {names:?}"));
                        }
                        if size == 19 && empty_start && i < 20 {
                            let (x, y) = (usize::from(p.col()), usize::from(p.row()));
                            let q = usize::from(x >= 10) + 2 * usize::from(y >= 10);
                            let corner = names.contains(&"角");
                            if corner && !corners_seen[q] {
                                corners_seen[q] = true;
                                corner_firsts += 1;
                                if names.iter().any(|t| CORNER_POINTS.contains(t)) {
                                    corner_named += 1;
                                } else {
                                    odd_corners.push(format!("{where_}: {names:?}"));
                                }
                            }
                        }
                    }
                }
            }
            if let Err(e) = commentary.play(color, mv) {
                failures.push(format!("{}: move {}: replay refused: {e}", path.display(), i + 1));
                break;
            }
        }
    }
    let mut report = format!(
        "Names over {moves} moves of {games} games (tengen-terms, tests/bulk.rs)\n\
         first stones in a 19x19 corner on a named corner point: {corner_named} of {corner_firsts}\n\n"
    );
    let mut by_count: Vec<(&String, &usize)> = counts.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (name, n) in &by_count {
        report.push_str(&format!("{name}\t{n}\t{:.2}%\n", **n as f64 * 100.0 / moves as f64));
    }
    report.push_str("\nfirst corner stones off the named points:\n");
    for o in &odd_corners {
        report.push_str(&format!("{o}\n"));
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("terms-distribution.txt");
    std::fs::write(&out, &report).unwrap();
    eprintln!("{report}");
    assert!(games >= 1000, "only {games} usable games in the shared material");
    assert!(
        failures.is_empty(),
        "{} failures, first 20:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(corner_named * 100 >= corner_firsts * 95, "first corner stones named: {corner_named} of {corner_firsts}");
}
