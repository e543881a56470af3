//! The page in Debian's Chromium, driven by `playwright-core` (`tests/browser/page_test.js`):
//! a game against the computer by clicks and keys to a counted result and its SGF, a game
//! between friends in two browsers (one a phone) seeing each other's moves live; accounts
//! (`tests/browser/accounts_test.js`: sign-up, a rated game, ranks); the lobby
//! (`tests/browser/lobby_test.js`: a challenge, chat, a watcher), again on two servers of one
//! PostgreSQL database (`TENGEN_TEST_POSTGRES`); then, on a second
//! server with KataGo's network (`tests/browser/network_test.js`), the network's review. Screenshots
//! land in `target/tmp/screenshots/`. Needs `/usr/bin/chromium` (`scripts/test` installs it)
//! and npm (the test installs `playwright-core` under `target/tmp/`).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

mod common;

#[test]
fn the_page_in_chromium() {
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "/usr/bin/chromium is missing: scripts/test installs it (apt-get install chromium)"
    );
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let modules = tmp.join("node");
    if !modules.join("node_modules/playwright-core").exists() {
        let out = Command::new("npm")
            .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
            .arg(&modules)
            .arg("playwright-core@1")
            .output()
            .expect("npm is needed to install playwright-core");
        assert!(out.status.success(), "npm install playwright-core: {}", String::from_utf8_lossy(&out.stderr));
    }
    let dir = tmp.join(format!("browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (mut server, url) = page_server(&dir, "sqlite://games.db");
    // sgfmill reads back the SGF the page downloads (scripts/test installs it).
    let python = std::env::var("TENGEN_SGFMILL_PYTHON").unwrap_or_else(|_| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/venv/sgfmill/bin/python").display().to_string()
    });
    assert!(Path::new(&python).exists(), "{python} is missing: scripts/test installs sgfmill in target/venv/sgfmill");
    // A script against the server at `urls[0]` (the lobby test takes a second server: its
    // second and third players' pages go there).
    let node = |script: &str, urls: &[&str]| {
        Command::new("node")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser").join(script))
            .arg(urls[0])
            .arg(tmp.join("screenshots"))
            .args(&urls[1..])
            .env("NODE_PATH", modules.join("node_modules"))
            .env("TENGEN_BIN", env!("CARGO_BIN_EXE_tengen"))
            .env("TENGEN_SGFMILL_PYTHON", &python)
            .output()
            .expect("node is needed")
    };
    let out = node("page_test.js", &[&url]);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // What the script measured (the first analysis marks' delay …), shown with --nocapture.
    println!("{}", String::from_utf8_lossy(&out.stdout));
    assert!(out.status.success() && text.contains("page test passed"), "{text}");
    // Accounts on the same server: sign-up, a rated game by clicks, ranks, both languages.
    let out = node("accounts_test.js", &[&url]);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("accounts test passed"), "{text}");
    // The lobby: a challenge posted, seen live and accepted; chat; a watcher (three contexts).
    let out = node("lobby_test.js", &[&url]);
    server.kill().unwrap();
    server.wait().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{}", String::from_utf8_lossy(&out.stdout));
    assert!(out.status.success() && text.contains("lobby test passed"), "{text}");
    // The same flow on two servers of one PostgreSQL database: Ann on the first, Ben and the
    // watcher on the second.
    let (db, name) = common::database("lobby");
    let mut nodes = [page_server(&dir, &db), page_server(&dir, &db)];
    let out = node("lobby_test.js", &[&nodes[0].1, &nodes[1].1]);
    for (node, _) in &mut nodes {
        node.kill().unwrap();
        node.wait().unwrap();
    }
    common::admin(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{}", String::from_utf8_lossy(&out.stdout));
    assert!(out.status.success() && text.contains("lobby test passed"), "two nodes: {text}");

    // A server with KataGo's network: the page's review is the network's (at 4 visits here).
    let model = std::env::var_os("TENGEN_KATAGO_MODEL").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz"),
        std::path::PathBuf::from,
    );
    assert!(model.exists(), "{} is missing: run scripts/test or set TENGEN_KATAGO_MODEL", model.display());
    let mut server = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", "sqlite://network.db", "--review-default-visits", "4"])
        .arg("--model")
        .arg(&model)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let url = address(&mut server);
    let out = node("network_test.js", &[&url]);
    server.kill().unwrap();
    server.wait().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("network test passed"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server for the page's tests on `db`, started in `dir`: the process and its address. The
/// page test makes some 30 games from one address in a minute, more than a player's quota
/// allows at once (the quotas have tests of their own); the lobby test's three players share
/// one address; its claim waits 3 s, not 30.
fn page_server(dir: &Path, db: &str) -> (std::process::Child, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--max-think", "0.3"])
        .args(["--games-per-hour", "10000", "--rate", "100", "--burst", "300", "--claim-grace", "3"])
        // The page's rated games are ten moves long.
        .args(["--rated-min-moves", "10"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let url = address(&mut server);
    (server, url)
}

/// The address a server started with `--addr 127.0.0.1:0` says it listens on.
fn address(server: &mut std::process::Child) -> String {
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
    line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_owned()
}
