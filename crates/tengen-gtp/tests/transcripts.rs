//! Golden transcripts: each `tests/data/*.gtp` script, run through a session, must print
//! exactly the matching `.out` file (framing included). `TENGEN_BLESS=1` writes the `.out`
//! files instead — then read every difference before committing it.

use std::path::Path;

use tengen_gtp::{RandomEngine, Session};

#[test]
fn transcripts_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let bless = std::env::var_os("TENGEN_BLESS").is_some();
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gtp"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 5, "transcripts missing in {}", dir.display());
    let mut failures = Vec::new();
    for script in &scripts {
        let input = std::fs::read(script).unwrap();
        let mut output = Vec::new();
        Session::new(RandomEngine::new(7)).run(std::io::Cursor::new(input), &mut output).unwrap();
        let expected_path = script.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &output).unwrap();
            continue;
        }
        let expected = std::fs::read(&expected_path).unwrap_or_default();
        if expected != output {
            failures.push(format!(
                "{}:\n--- expected\n{}\n--- got\n{}",
                script.display(),
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&output)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
