//! The page's files as the issue of the modules asks: every module of `web/js` served from the
//! table, none over 400 lines, no function over 80, no classic script.

use super::{FILES, INDEX};
use std::path::Path;

fn modules_on_disk() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/js");
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| format!("js/{}", e.unwrap().file_name().to_string_lossy())).collect();
    names.sort();
    names
}

#[test]
fn every_module_is_served_and_nothing_else() {
    let mut served: Vec<String> =
        FILES.iter().filter(|(path, _, _)| path.starts_with("js/")).map(|(path, _, _)| path.to_string()).collect();
    served.sort();
    assert_eq!(served, modules_on_disk());
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("web/app.js").exists(), "the classic script is gone");
}

#[test]
fn the_page_loads_modules_only() {
    let scripts: Vec<&str> =
        INDEX.match_indices("<script").map(|(at, _)| &INDEX[at..at + INDEX[at..].find('>').unwrap()]).collect();
    assert_eq!(scripts, ["<script type=\"module\" src=\"/static/js/main.js\""]);
    for (path, _, text) in FILES.iter().filter(|(path, _, _)| path.ends_with(".js")) {
        for line in text.lines().filter(|l| l.starts_with("import ")) {
            let target = line.rsplit(" from '").next().unwrap().trim_end_matches("';");
            let name = target.strip_prefix("./").unwrap_or_else(|| panic!("{path}: {line}"));
            assert!(
                FILES.iter().any(|(p, _, _)| *p == format!("js/{name}")),
                "{path} imports {name}, which is not served"
            );
        }
    }
}

/// The top-level functions of a module (declared at the start of a line, an arrow function
/// assigned at the start of a line) with their length in lines, up to the closing line at the
/// same indentation.
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let head = line.trim_start_matches("export ").trim_start_matches("async ");
        let is_function = head.starts_with("function ")
            || (head.starts_with("const ") && line.contains("=>") && line.trim_end().ends_with('{'));
        if !is_function || !line.trim_end().ends_with('{') {
            continue;
        }
        let end = lines[i + 1..].iter().position(|l| l.starts_with('}')).map(|j| i + 1 + j).expect("a closing line");
        out.push((line.to_string(), end - i + 1));
    }
    out
}

#[test]
fn no_module_over_400_lines_and_no_function_over_80() {
    for (path, _, text) in FILES.iter().filter(|(path, _, _)| path.ends_with(".js")) {
        let lines = text.lines().count();
        assert!(lines <= 400, "{path}: {lines} lines");
        for (head, length) in functions(text) {
            assert!(length <= 80, "{path}: `{head}` is {length} lines");
        }
    }
    let long = "function f() {\n".to_owned() + &"  x();\n".repeat(80) + "}\n";
    assert_eq!(functions(&long), [("function f() {".to_owned(), 82)], "the measure itself");
}
