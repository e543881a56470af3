//! The hostile client against a real server in a child process (`tengen serve`, driven by
//! `tengen bench abuse`): a crash fails this test instead of killing the test runner. The
//! server must answer every phase, accept nothing it must refuse, never answer 5xx, and keep
//! a real game played alongside fast (p99 under 100 ms) with the computer's moves on time.

use std::process::{Command, Stdio};

mod common;

fn field(line: &str, name: &str) -> f64 {
    line.split(&format!(" {name}="))
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} in {line}"))
}

/// Runs `tengen bench BENCH --url http://ADDR ARGS…` against a `tengen serve SERVE_ARGS…` of its
/// own (`args` may name the server's process id as `{pid}`): the bench's last line, its
/// standard error, and whether the server was still alive at the end.
fn bench_against_a_server(name: &str, serve_args: &[&str], bench: &str, args: &[&str]) -> (String, String, bool) {
    let dir = std::env::temp_dir().join(format!("tengen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (mut server, addr) = common::serve(&dir, serve_args, Stdio::null());
    let pid = server.id().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["bench", bench, "--url", &format!("http://{addr}")])
        .args(args.iter().map(|a| if *a == "{pid}" { pid.as_str() } else { a }))
        .output()
        .unwrap();
    let alive = server.try_wait().unwrap().is_none();
    server.kill().unwrap();
    server.wait().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
    (stdout.lines().last().unwrap_or_default().to_owned(), stderr, alive)
}

#[test]
fn the_server_survives_a_hostile_client() {
    let serve = ["--max-think", "0.5", "--header-timeout", "2", "--ping-every", "2"];
    let bench = ["--header-timeout", "2", "--ping-every", "2", "--pid", "{pid}"];
    let (line, stderr, alive) = bench_against_a_server("abuse", &serve, "abuse", &bench);
    let line = line.as_str();
    assert!(alive, "the server process ended during the abuse:\n{stderr}");
    println!("{line}\n{stderr}");
    assert!(line.contains(" wrongly_accepted=0 server_errors=0 crashes=0 "), "{line}\n{stderr}");
    assert!(field(line, "attempts") > 3_000.0, "{line}");
    assert!(field(line, "game_requests") > 50.0, "the real game went on: {line}");
    assert!(field(line, "game_p99_ms") < 100.0, "{line}");
    // The computer thinks 0.5 s at most here; its reply, polled ten times a second, comes within 2 s.
    assert!(field(line, "computer_max_ms") < 2_000.0, "{line}");
    // Memory: after each phase the server is back within 20 MB of idle (src/malloc.rs keeps
    // large buffers out of glibc's heap).
    assert!(field(line, "rss_max_growth_mb") < 20.0, "{line}");
}

/// `tengen bench latency` against a real server: a move late in a 19 × 19 game costs about
/// what an early one does (the game is held in memory, advanced by each event), and a record
/// with 98,000 nodes of variations reads about as fast as a plain one (parsed once, its row
/// shared, not copied). The margins are wide: this guards against a read or a move whose cost
/// grows with the record (70 × when each read parsed the record again), not a speed figure.
#[test]
fn a_long_game_and_a_big_record_cost_what_short_ones_do() {
    let roomy = ["--rate", "100000", "--burst", "100000", "--games-per-hour", "100000"];
    let (line, _, _) = bench_against_a_server("latency", &roomy, "latency", &["--runs", "3"]);
    let line = line.as_str();
    println!("{line}");
    assert!(line.starts_with("latency runs=3 "), "{line}");
    assert!(field(line, "move_ratio") < 3.0, "{line}");
    assert!(field(line, "big_over_plain") < 5.0, "{line}");
}
