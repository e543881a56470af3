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
            // The rated game here is ten moves long.
            .args(["--rated-min-moves", "10"])
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

/// An empty directory for the server's database and a free address for it to listen on.
fn place(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let probe = TcpListener::bind("127.0.0.1:0").unwrap();
    (dir, probe.local_addr().unwrap().to_string())
}

#[test]
fn acknowledged_moves_survive_sigkill() {
    let (dir, addr) = place("tengen-crash");
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

/// One HTTP/1.1 request to `addr` from the server's own page (its `Origin`), with the
/// session `cookie` and the seat `token` if given: the status, the session token a
/// `Set-Cookie` gives, and the body as JSON.
fn http(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> (u16, Option<String>, serde_json::Value) {
    use std::io::{Read, Write};
    let body = body.map(ToString::to_string).unwrap_or_default();
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        request.push_str(&format!("Cookie: tengen_session={c}\r\n"));
    }
    if let Some(t) = token {
        request.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    request.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()));
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let session = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase().starts_with("set-cookie:").then(|| l["set-cookie:".len()..].trim().to_owned())
        })
        .and_then(|c| c.strip_prefix("tengen_session=").map(|v| v.split(';').next().unwrap().to_owned()));
    // A chunked body: the JSON lies between the chunk sizes.
    let json = body.find('{').and_then(|i| body.rfind('}').map(|j| &body[i..=j])).unwrap_or("null");
    (status, session, serde_json::from_str(json).unwrap_or(serde_json::Value::Null))
}

#[test]
fn a_rated_game_is_rated_once_across_a_sigkill_at_its_end() {
    use serde_json::json;
    let (dir, addr) = place("tengen-crash-rated");
    let (mut server, _) = start(&dir, &addr);
    let account = |name: &str| {
        let (status, session, body) =
            http(&addr, "POST", "/api/accounts", None, None, Some(&json!({"name": name, "password": "a password"})));
        assert_eq!(status, 201, "{body}");
        session.unwrap()
    };
    let (alice, bob) = (account("Alice"), account("Bob"));
    let setup = json!({"size": 9, "opponent": "friend", "color": "black", "rated": true});
    let (status, _, made) = http(&addr, "POST", "/api/games", Some(&alice), None, Some(&setup));
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let sat = http(&addr, "POST", &format!("/api/games/{id}/sit"), Some(&bob), made["friend_token"].as_str(), None);
    assert_eq!(sat.0, 200, "{}", sat.2);
    for (i, mv) in ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4"].iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        let (status, _, view) = http(
            &addr,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(who),
            None,
            Some(&json!({"move": mv, "number": i + 1})),
        );
        assert_eq!(status, 200, "{view}");
    }
    let (status, _, view) = http(&addr, "POST", &format!("/api/games/{id}/resign"), Some(&bob), None, None);
    assert_eq!((status, view["phase"].as_str()), (200, Some("ended")));
    // Killed at once after the last answer, started again twice: one rating change each.
    for _ in 0..2 {
        server.kill().unwrap(); // SIGKILL
        server.wait().unwrap();
        server = start(&dir, &addr).0;
        for (name, rating, wins) in [("alice", 1667.45, 1), ("bob", 1332.60, 0)] {
            let (status, _, profile) = http(&addr, "GET", &format!("/api/players/{name}"), None, None, None);
            assert_eq!(status, 200, "{profile}");
            let nine = &profile["ratings"][0];
            assert_eq!(
                (nine["size"].as_u64(), nine["games"].as_i64(), nine["wins"].as_i64()),
                (Some(9), Some(1), Some(wins))
            );
            assert!((nine["rating"].as_f64().unwrap() - rating).abs() < 0.01, "{profile}");
        }
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
