//! The commentator from the command line: `tengen explain` (JSON lines) and `tengen review`
//! (names and judgements of every move, the biggest mistakes, the graph, the annotated SGF).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;
use tengen_sgf::{IllegalMoves, Record};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-commentary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn game_file() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/gnugo-regression/games/9x9-1.sgf");
    assert!(path.exists(), "the shared test material is missing: {}", path.display());
    path
}

#[test]
fn explain_answers_each_line_and_survives_bad_ones() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("explain")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let requests = [
        r#"{"size":19,"black":[],"white":["D4"],"to_play":"B","move":"C6"}"#,
        "this is not JSON",
        r#"{"size":9,"black":["C1","C2","D2","E2","F2","G2","G1"],"white":[],"region":"D1"}"#,
        r#"{"eval":{"loss":8.5,"prior":0.02},"terms":[]}"#,
        "",
        r#"{"size":9,"black":["D2","F2","E3"],"white":[],"point":"E2","color":"W"}"#,
    ];
    child.stdin.take().unwrap().write_all(requests.join("\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 5, "one answer per non-empty line: {lines:?}");
    let zh = |v: &serde_json::Value| -> Vec<String> {
        v["terms"].as_array().unwrap().iter().map(|t| t["zh"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(zh(&lines[0]), ["小飞挂", "挂", "边"]);
    assert!(lines[1]["error"].as_str().unwrap().contains("bad request"));
    assert_eq!(lines[2]["shape"]["zh"], "直三");
    assert_eq!(lines[2]["vital"][0], "E1");
    assert_eq!(zh(&lines[3]), ["恶手"]);
    // Three Black stones around an empty point: a tiger's mouth for White, not forbidden.
    assert_eq!(lines[4]["properties"].as_array().unwrap().len(), 1);
    assert_eq!(lines[4]["properties"][0]["zh"], "虎口");
}

/// The review's JSON, read strictly: an unknown or missing field fails the test.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Review {
    file: String,
    size: usize,
    komi: f64,
    black: String,
    white: String,
    result: String,
    playouts: u32,
    start_winrate_black: f64,
    moves: Vec<MoveReview>,
    mistakes: Vec<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MoveReview {
    number: usize,
    color: String,
    #[serde(rename = "move")]
    mv: String,
    terms: Vec<TermOut>,
    judgement: Vec<TermOut>,
    eval: tengen_terms::Eval,
    best: String,
    pv: Vec<String>,
    winrate_black_before: f64,
    score_lead_black_before: f64,
    winrate_black: f64,
    score_lead_black: f64,
    winrate_loss: f64,
    loss_noise: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TermOut {
    zh: String,
    pinyin: String,
    en: String,
}

#[test]
fn review_names_judges_and_annotates_a_game() {
    let game = game_file();
    let (sgf_out, svg_out) = (tmp("review.sgf"), tmp("review.svg"));
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["review", game.to_str().unwrap(), "--json", "--playouts", "300", "--out"])
        .arg(&sgf_out)
        .arg("--graph")
        .arg(&svg_out)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let review: Review = serde_json::from_slice(&out.stdout).unwrap();
    let record = Record::read(&std::fs::read_to_string(&game).unwrap()).unwrap();
    let played = record.replay(IllegalMoves::Stop).unwrap().game;
    assert_eq!(review.moves.len(), played.moves().len());
    assert_eq!((review.size, review.playouts), (9, 300));
    for (i, m) in review.moves.iter().enumerate() {
        assert_eq!(m.number, i + 1);
        assert!((0.0..=1.0).contains(&m.winrate_black) && (0.0..=1.0).contains(&m.winrate_loss), "move {}", m.number);
        assert!((0.0..=1.0).contains(&m.winrate_black_before), "move {}", m.number);
        assert!(m.eval.loss >= 0.0);
        // The best move's line starts with it.
        assert_eq!(m.pv.first(), Some(&m.best), "move {}", m.number);
        if m.mv != "pass" {
            let last = m.terms.last().map(|t| t.zh.as_str());
            assert!(matches!(last, Some("角" | "边" | "中腹")), "move {}: {:?}", m.number, last);
        }
        // The judgement follows from the record by the thresholds of terms.md §15.
        // A loss within the search's noise is judged as none.
        let bad = m.judgement.iter().any(|t| t.zh == "恶手");
        let told = m.eval.loss >= m.loss_noise;
        assert_eq!(bad, told && m.eval.loss >= 6.0, "move {}: loss {} ± {}", m.number, m.eval.loss, m.loss_noise);
    }
    let losses: Vec<f64> = review.mistakes.iter().map(|&n| review.moves[n - 1].eval.loss).collect();
    assert!(losses.windows(2).all(|w| w[0] >= w[1]) && losses.iter().all(|&l| l >= 1.5), "{losses:?}");
    assert!(review.mistakes.iter().all(|&n| review.moves[n - 1].eval.loss >= review.moves[n - 1].loss_noise));
    assert!(review.mistakes.len() <= 10);

    // The annotated record: the same moves, a comment on each, mistakes marked.
    let text = std::fs::read_to_string(&sgf_out).unwrap();
    let annotated = Record::read(&text).unwrap();
    assert_eq!(annotated.replay(IllegalMoves::Stop).unwrap().game.moves(), played.moves());
    let nodes: Vec<_> = annotated.main_line().skip(1).collect();
    assert!(nodes.iter().all(|n| n.properties().any(|p| matches!(p, sgf_parse::go::Prop::C(_)))));
    for &n in &review.mistakes {
        let marked =
            nodes[n - 1].properties().any(|p| matches!(p, sgf_parse::go::Prop::BM(_) | sgf_parse::go::Prop::DO));
        assert!(marked, "mistake {n} is marked");
    }
    // The graph is an SVG a renderer reads.
    let svg = std::fs::read_to_string(&svg_out).unwrap();
    resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    assert_eq!(svg.matches("<circle").count(), review.mistakes.len());

    // The text report: the sparklines and the list of mistakes.
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["review", game.to_str().unwrap(), "--playouts", "100"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("win rate (Black) ") && text.contains("biggest mistakes:"), "{text}");
    assert!(text.lines().nth(2).unwrap().chars().any(|c| ('▁'..='█').contains(&c)));

    // Errors are one line.
    let out = Command::new(env!("CARGO_BIN_EXE_tengen")).args(["review", "/nonexistent.sgf"]).output().unwrap();
    assert!(!out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn review_with_a_network_judges_by_its_policy() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz");
    assert!(model.exists(), "{} is missing: scripts/test fetches it", model.display());
    let game = tmp("short.sgf");
    // A sound opening, then Black's 5th move on the first line.
    std::fs::write(&game, "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese];B[ee];W[gc];B[cg];W[ge];B[ad])").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["review", game.to_str().unwrap(), "--json", "--playouts", "16", "--model", model.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let review: Review = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((review.moves.len(), review.playouts), (5, 16));
    for m in &review.moves {
        let e = &m.eval;
        for p in [e.prior, e.trap_prior, e.opp_best_prior] {
            assert!(p.is_some_and(|p| (0.0..=1.0).contains(&p)), "move {}: {e:?}", m.number);
        }
    }
    // The network's policy: the centre is likely, the first-line move is not.
    assert!(review.moves[0].eval.prior.unwrap() > 0.1, "{:?}", review.moves[0].eval);
    assert!(review.moves[4].eval.prior.unwrap() < 0.01, "{:?}", review.moves[4].eval);
    assert!(review.moves[4].eval.loss >= 1.5, "{:?}", review.moves[4].eval);
    assert!(review.mistakes.contains(&5), "{:?}", review.mistakes);
}
