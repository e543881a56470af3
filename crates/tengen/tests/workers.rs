//! Review workers that scale out: one `tengen serve` and two `tengen worker` processes on one
//! PostgreSQL database (`TENGEN_TEST_POSTGRES`; the test fails without it), ten review jobs,
//! one worker killed with SIGKILL while it holds a job: every job is done, and each exactly once;
//! the same for the computer's moves of games against it (`tengen serve --shared-moves`).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{admin, database};

/// One HTTP/1.1 request: the status and the body.
fn http(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_owned();
    (status, body)
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A `tengen serve` on `db` without review workers, roomy rate limits and the options `more`:
/// the process and its address.
fn serve(db: &str, more: &[&str]) -> (Child, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--review-workers", "0"])
        .args(["--rate", "100000", "--burst", "100000", "--games-per-hour", "1000000"])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(server.stdout.take().unwrap()), &mut line).unwrap();
    let addr =
        line.split("http://").nth(1).and_then(|s| s.split('/').next()).unwrap_or_else(|| panic!("{line}")).to_owned();
    (server, addr)
}

/// A `tengen worker` on `db` with a lease of 2 s and the options `more`, its log in `log`.
fn worker(db: &str, log: &Path, more: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["worker", "--db", db, "--lease", "2"])
        .args(more)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap()
}

/// The games a worker's log says it claimed and finished.
fn logged(log: &Path, what: &str) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.contains(what))
        .filter_map(|l| l.split("game=").nth(1).and_then(|g| g.split_whitespace().next()).map(str::to_owned))
        .collect()
}

#[test]
fn ten_reviews_two_workers_one_killed_each_done_once() {
    let (db, name) = database("reviews");
    let dir = std::env::temp_dir().join(format!("tengen-workers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Ten reviews from one address: more than its default share (4).
    let (mut server, addr) = serve(&db, &["--reviews-per-client", "10"]);

    // Ten finished 9×9 games of the project's records, imported, each asked for its review.
    let records = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/records/9x9-gnugo-level10");
    let mut files: Vec<_> = std::fs::read_dir(&records).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut games = Vec::new();
    for file in files.iter().take(10) {
        // Without the players' names (the engines' command lines, longer than a name may be).
        let text = std::fs::read_to_string(file).unwrap();
        let text: String = ["PB[", "PW["].iter().fold(text, |t, tag| match t.find(tag) {
            Some(at) => {
                let end = at + t[at..].find(']').unwrap() + 1;
                format!("{}{}", &t[..at], &t[end..])
            }
            None => t,
        });
        let (status, body) = http(&addr, "POST", "/api/games/import", text.as_bytes());
        assert_eq!(status, 201, "{}: {body}", file.display());
        let id = json(&body)["id"].as_str().unwrap().to_owned();
        let (status, body) = http(&addr, "POST", &format!("/api/games/{id}/review"), br#"{"playouts": 100}"#);
        assert_eq!(status, 202, "{body}");
        games.push(id);
    }

    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let mut a = worker(&db, &log_a, &[]);
    let mut b = worker(&db, &log_b, &[]);
    // Kill a while it holds a job it has not finished.
    let started = Instant::now();
    loop {
        let (claimed, finished) = (logged(&log_a, "review claimed"), logged(&log_a, "review finished"));
        if claimed.len() >= 2 && claimed.len() > finished.len() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "worker a claims nothing");
        std::thread::sleep(Duration::from_millis(50));
    }
    a.kill().unwrap(); // SIGKILL
    a.wait().unwrap();
    let done_by_a = logged(&log_a, "review finished");
    let held: Vec<String> = logged(&log_a, "review claimed").into_iter().filter(|g| !done_by_a.contains(g)).collect();
    assert_eq!(held.len(), 1, "worker a held one job when it was killed");

    // Every review is done; the one a held was done by b.
    let started = Instant::now();
    loop {
        let states: Vec<String> = games
            .iter()
            .map(|id| {
                let (status, body) = http(&addr, "GET", &format!("/api/games/{id}/review"), b"");
                assert_eq!(status, 200, "{body}");
                json(&body)["state"].as_str().unwrap().to_owned()
            })
            .collect();
        if states.iter().all(|s| s == "done") {
            break;
        }
        assert!(!states.iter().any(|s| s == "failed"), "{states:?}");
        assert!(started.elapsed() < Duration::from_secs(120), "not all done: {states:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    b.kill().unwrap();
    b.wait().unwrap();
    server.kill().unwrap();
    server.wait().unwrap();

    let mut finished = [logged(&log_a, "review finished"), logged(&log_b, "review finished")].concat();
    finished.sort();
    let mut expected = games.clone();
    expected.sort();
    assert_eq!(finished, expected, "each review finished exactly once");
    assert!(
        logged(&log_b, "review finished").contains(&held[0]),
        "the job a held when killed ({}) was b's to finish",
        held[0]
    );
    admin(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}

/// The (game, events) of the computer's jobs a worker's log says it claimed or finished.
fn jobs(log: &Path, what: &str) -> Vec<(String, String)> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.contains(what))
        .filter_map(|l| {
            let field = |name: &str| l.split(name).nth(1).and_then(|g| g.split_whitespace().next()).map(str::to_owned);
            Some((field("game=")?, field("events=")?))
        })
        .collect()
}

#[test]
fn the_computers_moves_two_workers_one_killed_each_move_once() {
    let (db, name) = database("moves");
    let dir = std::env::temp_dir().join(format!("tengen-move-workers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The server searches none of the computer's moves itself: the workers do.
    let (mut server, addr) = serve(&db, &["--shared-moves", "--searches", "0"]);
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let moves = ["--workers", "0", "--moves", "1", "--max-think", "1"];
    let mut a = worker(&db, &log_a, &moves);
    let mut b = worker(&db, &log_b, &moves);

    // Four 9×9 games against the computer (level 6: it thinks a while), the player White: the
    // computer opens, then answers each of the player's three moves.
    let mut games = Vec::new();
    for _ in 0..4 {
        let body = br#"{"size": 9, "opponent": {"computer": {"level": 6}}, "color": "white"}"#;
        let (status, body) = http(&addr, "POST", "/api/games", body);
        assert_eq!(status, 201, "{body}");
        let v = json(&body);
        games.push((v["id"].as_str().unwrap().to_owned(), v["token"].as_str().unwrap().to_owned(), 0));
    }
    let replies = 4;
    let mut killed = None;
    let started = Instant::now();
    loop {
        let mut done = 0;
        for (id, token, played) in &mut games {
            let (status, body) = http(&addr, "GET", &format!("/api/games/{id}"), b"");
            assert_eq!(status, 200, "{body}");
            let v = json(&body);
            let moves = v["moves"].as_u64().unwrap() as usize;
            if *played == replies - 1 && moves == 2 * replies - 1 {
                done += 1;
                continue;
            }
            if v["to_move"] == "white" && v["phase"] == "playing" && moves == 2 * *played + 1 && *played < replies - 1 {
                // The player's move: the first empty point of a fixed list.
                let board: Vec<String> =
                    v["board"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_owned()).collect();
                let empty = |p: &str| {
                    let col = "ABCDEFGHJ".find(&p[..1]).unwrap();
                    let row: usize = p[1..].parse().unwrap();
                    board[9 - row].as_bytes()[col] == b'.'
                };
                let point = ["C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5"].into_iter().find(|p| empty(p)).unwrap();
                let request = format!(r#"{{"move": "{point}", "number": {}}}"#, moves + 1);
                let mut stream = TcpStream::connect(&addr).unwrap();
                write!(
                    stream,
                    "POST /api/games/{id}/move HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
                     Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{request}",
                    request.len()
                )
                .unwrap();
                let mut answer = String::new();
                stream.read_to_string(&mut answer).unwrap();
                assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
                *played += 1;
            }
        }
        if done == games.len() {
            break;
        }
        // Kill a while it holds a job it has not finished (once it has finished one).
        if killed.is_none() {
            let (claimed, finished) = (jobs(&log_a, "computer job claimed"), jobs(&log_a, "computer job finished"));
            let held: Vec<_> = claimed.iter().filter(|j| !finished.contains(j)).cloned().collect();
            if !finished.is_empty() && held.len() == 1 {
                a.kill().unwrap(); // SIGKILL
                a.wait().unwrap();
                // What a held when it died (its log is complete now).
                let finished = jobs(&log_a, "computer job finished");
                killed = jobs(&log_a, "computer job claimed").into_iter().find(|j| !finished.contains(j));
            }
        }
        assert!(started.elapsed() < Duration::from_secs(150), "the games did not finish: {games:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    b.kill().unwrap();
    b.wait().unwrap();
    // Killed already if the test got this far as it should (then these do nothing).
    let _ = a.kill();
    let _ = a.wait();
    server.kill().unwrap();
    server.wait().unwrap();

    let killed = killed.expect("worker a was killed holding a job");
    // No state of a game got two results; every game got all its replies (2 × 4 − 1 moves,
    // checked above), the one a held among them, from b after a's lease ran out.
    let mut finished = [jobs(&log_a, "computer job finished"), jobs(&log_b, "computer job finished")].concat();
    let all = finished.len();
    finished.sort();
    finished.dedup();
    assert_eq!(finished.len(), all, "a state of a game was answered twice");
    assert!(all >= games.len() * replies - 1, "{all} of the computer's moves logged");
    assert!(
        jobs(&log_b, "computer job claimed").contains(&killed),
        "the job a held when killed ({killed:?}) was claimed again by b"
    );
    admin(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}
