//! `tengen model install` and the network it installs: from a local file and from PyPI's
//! KaTrain wheel (the package registry, which CI reaches; the test fails without it), the
//! default of `gtp` afterwards, `--no-model`, and the errors (a corrupt file, a file that is
//! not the network its name says, a missing source, an installed network gone).
//!
//! Each case installs into a data directory of its own (`TENGEN_DATA_DIR`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The network `scripts/test` fetches from KaTrain's wheel.
fn model() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz");
    assert!(path.exists(), "{} is missing: scripts/test fetches it", path.display());
    path
}

/// A fresh data directory under target/.
fn data_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/model-test").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `tengen ARGS` with `data` as its data directory: (exit code, stdout, stderr).
fn tengen(data: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .env("TENGEN_DATA_DIR", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Which search answered a `genmove` under `gtp -v`: its report line's prefix.
fn searcher(data: &Path, extra: &[&str]) -> String {
    let mut args = vec!["gtp", "-v", "--playouts", "8", "--threads", "1"];
    args.extend_from_slice(extra);
    let (code, out, err) = tengen(data, &args, "boardsize 9\nclear_board\ngenmove b\nquit\n");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("= "), "{out}");
    err.lines().find_map(|l| l.split(':').next().filter(|p| p.starts_with("tengen"))).unwrap_or_default().to_owned()
}

#[test]
fn a_local_network_is_installed_checked_and_used_by_default() {
    let data = data_dir("local");
    assert_eq!(searcher(&data, &[]), "tengen", "no network installed: the playout search");

    let (code, out, err) = tengen(&data, &["model", "install", model().to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("installed b10c384h6nbttflrs (KataGo model version 15, the known network's SHA-256 0ba27e"),
        "{out}"
    );
    let installed = data.join("models/b10c384h6nbttflrs.bin.gz");
    assert_eq!(std::fs::read(&installed).unwrap(), std::fs::read(model()).unwrap());
    let (_, list, _) = tengen(&data, &["model", "list"], "");
    assert_eq!(list.trim(), format!("* {}", installed.display()));

    assert_eq!(searcher(&data, &[]), "tengen-nn", "the installed network is the default");
    assert_eq!(searcher(&data, &["--no-model"]), "tengen", "--no-model searches without it");
    // `tengen score --dead auto` judges with it too, as `gtp` answers `final_status_list`.
    let record = data.join("lone-stone.sgf");
    std::fs::write(
        &record,
        "(;GM[1]FF[4]SZ[7]KM[0]AB[ca][cb][cc][cd][ce][cf][cg]AW[da][db][dc][dd][de][df][dg][be];B[];W[])",
    )
    .unwrap();
    let record = record.to_str().unwrap();
    for (extra, judge) in [(None, "network"), (Some("--no-model"), "playouts")] {
        let mut args = vec!["score", record, "--dead", "auto", "--json"];
        args.extend(extra);
        let (code, out, err) = tengen(&data, &args, "");
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["dead_judged_by"], judge, "{out}");
        assert_eq!(v["dead"], serde_json::json!(["B3"]), "{out}");
    }
    let (code, _, err) = tengen(&data, &["gtp", "--no-model", "--model", "x"], "");
    assert_eq!(code, 2, "{err}");

    // A network gone from under the record is one clear line, not a silent fallback.
    std::fs::remove_file(&installed).unwrap();
    let (code, _, err) = tengen(&data, &["gtp"], "quit\n");
    assert_eq!(code, 1);
    assert!(err.contains("the installed network") && err.contains("is gone"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn bad_sources_are_refused_in_one_line_and_install_nothing() {
    let data = data_dir("bad");
    let scratch = data.join("files");
    std::fs::create_dir_all(&scratch).unwrap();
    // A truncated network.
    let bytes = std::fs::read(model()).unwrap();
    let truncated = scratch.join("cut.bin.gz");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    // Another file under the known network's name.
    let impostor = scratch.join("b10c384h6nbttflrs.bin.gz");
    std::fs::write(&impostor, b"not a network").unwrap();
    let missing = scratch.join("nothing-here.bin.gz");
    for (source, expect) in [
        (truncated.to_str().unwrap(), "is not a KataGo network"),
        (impostor.to_str().unwrap(), "this is not the network b10c384h6nbttflrs"),
        (missing.to_str().unwrap(), "no such file, and not a URL nor a known network"),
        ("https://127.0.0.1:9/none.bin.gz", "cannot fetch https://127.0.0.1:9/none.bin.gz"),
    ] {
        let (code, out, err) = tengen(&data, &["model", "install", source], "");
        assert_eq!(code, 1, "{source}: {out}{err}");
        assert!(err.contains(expect), "{source}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{source}: {err}");
    }
    let left: Vec<_> = std::fs::read_dir(data.join("models")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "nothing installed, no scratch left: {left:?}");
    assert_eq!(searcher(&data, &[]), "tengen");
}

#[test]
fn the_known_network_comes_from_pypi() {
    let data = data_dir("pypi");
    let (code, out, err) = tengen(&data, &["model", "install"], "");
    assert_eq!(code, 0, "PyPI must be reachable for this test: {err}");
    assert!(err.contains("fetching katrain 1.20.0 from https://"), "{err}");
    assert!(
        out.starts_with("installed b10c384h6nbttflrs (KataGo model version 15, the known network's SHA-256"),
        "{out}"
    );
    assert_eq!(
        std::fs::read(data.join("models/b10c384h6nbttflrs.bin.gz")).unwrap(),
        std::fs::read(model()).unwrap(),
        "the network taken out of the wheel is the one scripts/test fetched"
    );
    assert_eq!(searcher(&data, &[]), "tengen-nn");
}
