//! The server's layers, read from its sources: imports run one way — `http` above `service`,
//! `service` above `domain` and `store`, `store` above `domain` — with no circle between the
//! modules, and no source file over 600 lines (tests apart).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path (`service::computer`; `lib` for the crate's root).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The code of a file without its comments and its test module.
fn code(text: &str) -> String {
    let before_tests = text.split("#[cfg(test)]").next().unwrap_or_default();
    before_tests.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The modules a file's code names by `crate::` paths (the longest path that is a module).
fn imports(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let path: String =
            code[i + 7..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
        let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        for n in (1..=segments.len()).rev() {
            let candidate = segments[..n].join("::");
            if modules.contains(&candidate) {
                found.insert(candidate);
                break;
            }
        }
    }
    found
}

/// The layer of a module: its first segment.
fn layer(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

#[test]
fn imports_run_one_way_and_files_stay_small() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let module = module_of(&src, file);
        if !module.ends_with("tests") {
            let lines = text.lines().count();
            assert!(lines <= 600, "{} has {lines} lines (at most 600)", file.display());
        }
        let mut named = imports(&code(&text), &modules);
        named.retain(|m| m != &module && !module.starts_with(&format!("{m}::")));
        graph.insert(module, named);
    }

    // The layers' order: a lower layer never names a higher one.
    let rank = |l: &str| match l {
        "http" | "page" | "lib" => 3,
        "service" => 2,
        "store" => 1,
        "domain" => 0,
        _ => -1, // leaves: error, guard, util, levels
    };
    for (module, named) in &graph {
        for other in named {
            let (from, to) = (rank(layer(module)), rank(layer(other)));
            // A leaf names other leaves, the domain or the store at most.
            let allowed = if from >= 0 { to <= from } else { to <= 1 };
            assert!(allowed, "{module} names {other}: imports run http → service → store → domain");
        }
    }

    // No circle between the modules (a child naming its parent is the same module's code).
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) {
        state.insert(module.to_owned(), 1);
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => panic!("an import circle: {} → {next}", path.join(" → ")),
                Some(_) => {}
                None => visit(next, graph, state, path),
            }
        }
        path.pop();
        state.insert(module.to_owned(), 2);
    }
    let mut state = BTreeMap::new();
    for module in graph.keys() {
        if !state.contains_key(module.as_str()) {
            visit(module, &graph, &mut state, &mut Vec::new());
        }
    }
    assert!(graph.len() > 30, "{} modules read", graph.len());
}
