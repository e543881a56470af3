//! The crash test: `tengen serve` is killed with SIGKILL at random moments while 50 games are
//! driven over HTTP (`tengen bench server --patient`), and started again on the same SQLite
//! file; afterwards every acknowledged move must be stored and the games must have gone on.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn tengen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
}

/// Starts the server and waits for its first line; returns it with that line.
fn start(dir: &std::path::Path, addr: &str) -> (Child, String) {
    let started = Instant::now();
    loop {
        let mut child = tengen()
            .args(["serve", "--addr", addr, "--db", "sqlite://games.db"])
            // One client drives 50 games at 400 moves a second: far past the limits for one
            // address, which this test is not about.
            .args(["--rate", "100000", "--burst", "100000", "--games-per-hour", "1000000"])
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        if line.starts_with("tengen serves") {
            return (child, line);
        }
        // The port may still be held by the killed process for a moment.
        let _ = child.wait();
        assert!(started.elapsed() < Duration::from_secs(20), "the server does not start again");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn acknowledged_moves_survive_sigkill() {
    let dir = std::env::temp_dir().join(format!("tengen-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let addr = {
        let probe = TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().to_string()
    };
    let (mut server, _) = start(&dir, &addr);
    let driver = tengen()
        .args(["bench", "server", "--url", &format!("http://{addr}"), "--games", "50", "--seconds", "12"])
        .args(["--size", "9", "--rate", "400", "--patient"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut resumed = Vec::new();
    for pause_ms in [1_700, 2_300, 1_900] {
        std::thread::sleep(Duration::from_millis(pause_ms));
        server.kill().unwrap(); // SIGKILL
        server.wait().unwrap();
        let (restarted, line) = start(&dir, &addr);
        server = restarted;
        resumed.push(line);
    }
    let out = driver.wait_with_output().unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let line = stdout.lines().last().unwrap_or_default();
    println!("{line}");
    assert!(line.contains("lost_games=0"), "{line}\n{stderr}");
    let moves: u64 = line.split(" moves=").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(moves > 1_000, "the games went on across the restarts: {line}");
    for l in &resumed {
        let n: usize = l.split("; ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(n > 0, "every restart resumes the unfinished games: {l}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
