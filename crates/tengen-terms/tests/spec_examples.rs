//! Every example diagram of terms.md, checked in all 8 orientations of the board and with
//! the colours swapped: the move examples give exactly the listed names in order; the eye
//! space, eye and point examples give the listed shape, vital point, eye and properties.
//!
//! The spec lives in the shared material beside the project (`../shared/docs/terms.md`).

use std::path::Path;

use serde_json::{Value, json};
use tengen_terms::answer;

fn spec() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/docs/terms.md");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the shared material must sit beside the project)", path.display()))
}

/// One example of the spec.
#[derive(Debug, Clone)]
struct Example {
    line: usize,
    size: i32,
    header: String,
    /// (x, y, 'B' | 'W')
    stones: Vec<(i32, i32, char)>,
    /// The `*` point, the marked points `a`/`v`/`e`/`p` …
    marks: Vec<(i32, i32, char)>,
    /// Text after `=>`, or the `shape:` / `eye:` / `properties:` line.
    expect: String,
}

const LETTERS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

fn coord(s: &str) -> (i32, i32) {
    let col = LETTERS.find(s[..1].to_ascii_uppercase().as_str()).expect("column letter") as i32;
    (col, s[1..].parse::<i32>().unwrap_or_else(|_| panic!("row of {s:?}")) - 1)
}

fn examples(text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim().starts_with("```") || i + 1 >= lines.len() {
            i += 1;
            continue;
        }
        let start = i + 1;
        let end = (start..lines.len()).find(|&j| lines[j].trim().starts_with("```")).expect("closed fence");
        i = end + 1;
        let header = lines[start].trim().to_owned();
        let Some((size_text, _)) = header.split_once(", ") else { continue };
        let Some((n, _)) = size_text.split_once('x') else { continue };
        let Ok(size) = n.parse::<i32>() else { continue };
        let mut stones = Vec::new();
        let mut marks = Vec::new();
        let mut rows: Vec<(i32, Vec<String>)> = Vec::new();
        let mut columns: Vec<i32> = Vec::new();
        let mut answer_line: Option<String> = None;
        for &l in &lines[start + 1..end] {
            let t = l.trim();
            if let Some(rest) = t.strip_prefix("(off the fragment:") {
                for item in rest.trim_end_matches(')').split(',') {
                    let mut w = item.split_whitespace();
                    let (c, p) = (w.next().expect("colour"), w.next().expect("point"));
                    let (x, y) = coord(p);
                    stones.push((x, y, if c == "Black" { 'B' } else { 'W' }));
                }
                continue;
            }
            if ["shape:", "eye:", "properties:", "status:"].iter().any(|k| t.starts_with(k)) {
                answer_line = Some(t.to_owned());
                continue;
            }
            let toks: Vec<String> = t.split_whitespace().map(str::to_owned).collect();
            if toks.is_empty() {
                continue;
            }
            if let Ok(row) = toks[0].parse::<i32>() {
                rows.push((row, toks[1..].to_vec()));
            } else {
                columns = toks.iter().map(|c| coord(&format!("{c}1")).0).collect();
            }
        }
        for (row, cells) in rows {
            for (k, cell) in cells.iter().enumerate() {
                let (x, y) = (columns[k], row - 1);
                match cell.as_str() {
                    "X" => stones.push((x, y, 'B')),
                    "O" => stones.push((x, y, 'W')),
                    "." => {}
                    m => marks.push((x, y, m.chars().next().expect("mark"))),
                }
            }
        }
        let expect = if let Some((_, e)) = header.split_once("=>") {
            e.trim().to_owned()
        } else {
            answer_line.unwrap_or_default()
        };
        out.push(Example { line: start, size, header, stones, marks, expect });
    }
    out
}

/// Transforms a point by symmetry `t` (0–7) of an `n`-board.
fn sym(t: u8, n: i32, (x, y): (i32, i32)) -> (i32, i32) {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    (if t & 1 != 0 { n - 1 - x } else { x }, if t & 2 != 0 { n - 1 - y } else { y })
}

fn name((x, y): (i32, i32)) -> String {
    format!("{}{}", &LETTERS[x as usize..x as usize + 1], y + 1)
}

fn swap(c: char, swapped: bool) -> char {
    match (c, swapped) {
        ('B', true) => 'W',
        ('W', true) => 'B',
        (c, _) => c,
    }
}

/// The names of a move answer, space separated.
fn move_names(v: &Value) -> String {
    v["terms"].as_array().map_or_else(
        || format!("no terms: {v}"),
        |a| a.iter().map(|t| t["zh"].as_str().unwrap_or("?")).collect::<Vec<_>>().join(" "),
    )
}

/// Runs one example in one orientation; `Err` with a message when it disagrees.
fn check(e: &Example, t: u8, swapped: bool) -> Result<(), String> {
    let n = e.size;
    let stones = |c: char| -> Vec<String> {
        e.stones.iter().filter(|s| swap(s.2, swapped) == c).map(|s| name(sym(t, n, (s.0, s.1)))).collect()
    };
    let mark = |m: char| e.marks.iter().find(|k| k.2 == m).map(|k| name(sym(t, n, (k.0, k.1))));
    let words: Vec<&str> = e.header.split_whitespace().collect();
    let ask = |req: Value| -> Value { serde_json::from_str(&answer(&req.to_string())).expect("an answer is JSON") };
    if e.header.contains(" * ") {
        let mover = swap(if words[1] == "Black" { 'B' } else { 'W' }, swapped);
        let expected: String =
            e.expect.split("  ").next().unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ");
        let req = json!({"size": n, "black": stones('B'), "white": stones('W'), "to_play": mover.to_string(), "move": mark('*').expect("a move")});
        let got = move_names(&ask(req));
        return if got == expected { Ok(()) } else { Err(format!("expected `{expected}`, got `{got}`")) };
    }
    if e.header.contains("eye space") {
        let q = e.header.split("query point ").nth(1).expect("query point").trim_end_matches(')');
        let q = name(sym(t, n, coord(q)));
        let a = ask(json!({"size": n, "black": stones('B'), "white": stones('W'), "region": q}));
        let shape = a["shape"]["zh"].as_str().unwrap_or("none").to_owned();
        let want_shape = e.expect.trim_start_matches("shape:").split_whitespace().next().unwrap_or_default().to_owned();
        if shape != want_shape {
            return Err(format!("shape: expected {want_shape}, got {shape} ({a})"));
        }
        if let Some(v) = mark('v') {
            let vital = a["vital"][0].as_str().unwrap_or("none");
            if vital != v {
                return Err(format!("vital point: expected {v}, got {vital}"));
            }
        }
        return Ok(());
    }
    if e.header.contains("point e =") {
        let a = ask(json!({"size": n, "black": stones('B'), "white": stones('W'), "eye_point": mark('e').expect("e")}));
        let got = a["eye"]["zh"].as_str().unwrap_or("none");
        let want = e.expect.trim_start_matches("eye:").trim();
        return if got == want { Ok(()) } else { Err(format!("eye: expected {want}, got {got}")) };
    }
    if e.header.contains("point p =") {
        let c = swap(if e.header.ends_with("Black") { 'B' } else { 'W' }, swapped);
        let a = ask(
            json!({"size": n, "black": stones('B'), "white": stones('W'), "point": mark('p').expect("p"), "color": c.to_string()}),
        );
        let got: Vec<&str> =
            a["properties"].as_array().map(|v| v.iter().filter_map(|t| t["zh"].as_str()).collect()).unwrap_or_default();
        let want = e.expect.trim_start_matches("properties:").trim().replace("none", "");
        return if got.join(" ") == want {
            Ok(())
        } else {
            Err(format!("properties: expected {want}, got {got:?} ({a})"))
        };
    }
    if e.header.contains("chain c (query point") {
        let q = e.header.split("query point ").nth(1).expect("query point").trim_end_matches(')');
        let q = name(sym(t, n, coord(q)));
        let a = ask(json!({"size": n, "black": stones('B'), "white": stones('W'), "chain_point": q}));
        let got = a["status"]["zh"].as_str().unwrap_or("none");
        let want = e.expect.trim_start_matches("status:").trim();
        return if got == want { Ok(()) } else { Err(format!("status: expected {want}, got {got} ({a})")) };
    }
    Err("unrecognised example".into())
}

#[test]
fn every_example_in_every_orientation_and_both_colours() {
    let all = examples(&spec());
    assert!(all.len() >= 90, "only {} examples found in terms.md", all.len());
    check_all("terms.md", &all);
}

#[test]
fn near_misses_do_not_get_the_name() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/near_misses.md");
    let all = examples(&std::fs::read_to_string(path).unwrap());
    assert!(all.len() >= 25, "only {} near misses", all.len());
    check_all("near_misses.md", &all);
}

#[test]
fn extra_examples_for_terms_without_a_diagram() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/extra_examples.md");
    let all = examples(&std::fs::read_to_string(path).unwrap());
    assert!(all.len() >= 20, "only {} extra examples", all.len());
    check_all("extra_examples.md", &all);
}

/// The names an example expects.
fn expected_names(e: &Example) -> Vec<String> {
    let text = e.expect.split("  ").next().unwrap_or_default();
    let text =
        ["shape:", "eye:", "properties:", "status:"].iter().fold(text.trim(), |t, k| t.trim_start_matches(k).trim());
    text.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn every_board_term_has_an_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut all = examples(&spec());
    for file in ["near_misses.md", "extra_examples.md"] {
        all.extend(examples(&std::fs::read_to_string(dir.join(file)).unwrap()));
    }
    let mut seen: std::collections::HashSet<String> = all.iter().flat_map(expected_names).collect();
    // The history examples (tests/history.rs) give these.
    seen.extend(["滚打", "找劫", "劫材", "应劫"].map(String::from));
    let missing: Vec<&str> = tengen_terms::all_names()
        .filter(|n| tengen_terms::Term::named(n).is_some_and(|t| t.kind != tengen_terms::Kind::Evaluation))
        .filter(|n| !seen.contains(*n))
        .collect();
    assert!(missing.is_empty(), "terms without an example: {missing:?}");
}

fn check_all(file: &str, all: &[Example]) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in all {
        if e.header.contains(" after ") {
            continue; // history examples: tests/history.rs gives their preludes
        }
        for t in 0..8 {
            for swapped in [false, true] {
                checked += 1;
                if let Err(msg) = check(e, t, swapped) {
                    failures.push(format!(
                        "{file}:{} `{}` (symmetry {t}, colours swapped {swapped}): {msg}",
                        e.line, e.header
                    ));
                    break;
                }
            }
        }
    }
    eprintln!("{} examples, {checked} checks, {} failures", all.len(), failures.len());
    let mut seen = std::collections::HashSet::new();
    failures.retain(|f| seen.insert(f.split(" (symmetry").next().unwrap_or_default().to_owned()));
    assert!(
        failures.is_empty(),
        "{} of {} examples disagree ({checked} checks):\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
