//! The counting phase against the computer, end to end: a `tengen serve` process, whole 9 × 9
//! games played through its HTTP API against the computer, the player's moves chosen by GNU Go
//! 3.8 (`gnugo --mode gtp`, which the test needs: it fails without it). In the counting phase
//! the computer must refuse a marking that calls one of its living chains dead — even one that
//! counts no worse for it —, refuse one that leaves a chain it judges dead alive, and accept
//! its own judgement, which ends the game with the count in stones.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tengen_gtp::client::Client;

const LETTERS: &[u8] = b"ABCDEFGHJ";

/// One HTTP/1.1 request with an optional bearer token: the status and the JSON body.
fn http(addr: &str, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut stream = TcpStream::connect(addr).unwrap();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let text = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(text).unwrap_or(Value::Null))
}

/// The game's view once `done` holds (polled; the computer thinks on the server).
fn wait(addr: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (status, view) = http(addr, "GET", &format!("/api/games/{id}"), None, None);
        assert_eq!(status, 200, "{view}");
        if done(&view) {
            return view;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "the game stalled: {view}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The stones of `colour` (`'X'` or `'O'`) on the view's board, as vertices.
fn stones(view: &Value, colour: char) -> Vec<String> {
    let rows = view["board"].as_array().unwrap();
    let n = rows.len();
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for (c, s) in row.as_str().unwrap().chars().enumerate() {
            if s == colour {
                out.push(format!("{}{}", LETTERS[c] as char, n - i));
            }
        }
    }
    out
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect()
}

/// Plays one game as White against the computer (Black, `level`), GNU Go choosing White's
/// moves, to the counting phase with the computer's judgement in: the server's address, the
/// game's id, White's token, the view and GNU Go with the game's moves. `None` when the game
/// ended otherwise (resigned).
fn play_to_counting(addr: &str, level: u8, komi: f64) -> Option<(String, String, Value, Client)> {
    let body = json!({"size": 9, "opponent": {"computer": {"level": level}}, "color": "white", "komi": komi});
    let (status, created) = http(addr, "POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let gnugo = if std::path::Path::new("/usr/games/gnugo").exists() { "/usr/games/gnugo" } else { "gnugo" };
    let mut gtp = Client::start(&format!("{gnugo} --mode gtp --chinese-rules --level 1 --komi {komi}"))
        .expect("GNU Go is needed for this test (scripts/test installs it)");
    gtp.send("boardsize 9", None).unwrap();
    gtp.send("clear_board", None).unwrap();
    let mut told = 0;
    loop {
        let view = wait(addr, &id, |v| v["phase"] != "playing" || v["to_move"] == "white");
        let history = view["history"].as_array().unwrap();
        for played in &history[told..] {
            let colour = played["color"].as_str().unwrap();
            gtp.send(&format!("play {colour} {}", played["move"].as_str().unwrap()), None).unwrap();
        }
        told = history.len();
        match view["phase"].as_str().unwrap() {
            "counting" => {
                let view = wait(addr, &id, |v| v["proposed"] == true);
                return Some((id, token, view, gtp));
            }
            "ended" => return None,
            _ => {}
        }
        let mv = gtp.send("genmove white", None).unwrap();
        let mv = if mv.eq_ignore_ascii_case("resign") { "pass".to_owned() } else { mv };
        // The move GNU Go chose is in its own record already: not told again.
        told += 1;
        let number = view["moves"].as_u64().unwrap() + 1;
        let (status, answer) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(&token),
            Some(json!({"move": mv, "number": number})),
        );
        assert_eq!(status, 200, "{mv}: {answer}");
    }
}

/// Marks the chain at `vertex` dead or alive, then accepts the marking: the answer's view.
fn mark_and_accept(addr: &str, id: &str, token: &str, vertex: &str, dead: bool) -> Value {
    let (status, view) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/toggle"),
        Some(token),
        Some(json!({"point": vertex, "dead": dead})),
    );
    assert_eq!(status, 200, "{view}");
    let (status, view) =
        http(addr, "POST", &format!("/api/games/{id}/accept"), Some(token), Some(json!({"dead": view["dead"]})));
    assert_eq!(status, 200, "{view}");
    view
}

#[test]
fn the_computer_agrees_only_to_its_own_judgement() {
    let dir = std::env::temp_dir().join(format!("tengen-counting-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (mut server, addr) = common::serve(
        &dir,
        &["--max-think", "0.3", "--rate", "100000", "--burst", "100000", "--games-per-hour", "100000"],
        std::process::Stdio::null(),
    );
    let (mut living_refused, mut dead_refused, mut ended, mut same_count) = (0, 0, 0, 0);
    for game in 0..6 {
        let Some((id, token, view, mut gtp)) = play_to_counting(&addr, [5, 3, 7][game % 3], 7.5) else { continue };
        let proposal = strings(&view["proposal"]);
        assert_eq!(strings(&view["dead"]), proposal, "the marking starts as the computer's judgement");
        // One of the computer's living chains marked dead: refused, even where the count
        // would not change, and its judgement put back.
        if let Some(living) = stones(&view, 'X').into_iter().find(|v| !proposal.contains(v)) {
            let answer = mark_and_accept(&addr, &id, &token, &living, true);
            assert_eq!(answer["phase"], "counting", "{living} of the computer's marked dead: {answer}");
            assert_eq!(strings(&answer["dead"]), proposal, "{answer}");
            assert_eq!(strings(&answer["dispute"]["alive"]).len(), 1, "{answer}");
            living_refused += 1;
        }
        // A chain it judges dead left alive: refused.
        if let Some(dead) = proposal.first() {
            let answer = mark_and_accept(&addr, &id, &token, dead, false);
            assert_eq!(answer["phase"], "counting", "{dead} left alive: {answer}");
            assert_eq!(strings(&answer["dead"]), proposal, "{answer}");
            assert_eq!(strings(&answer["dispute"]["dead"]).len(), 1, "{answer}");
            dead_refused += 1;
        }
        // Its judgement accepted: the game ends, counted in stones with those stones off.
        let (status, answer) =
            http(&addr, "POST", &format!("/api/games/{id}/accept"), Some(&token), Some(json!({"dead": proposal})));
        assert_eq!((status, answer["phase"].as_str()), (200, Some("ended")), "{answer}");
        let result = answer["result"].as_str().unwrap();
        assert!(result.starts_with("B+") || result.starts_with("W+"), "{answer}");
        assert!(answer["result_zh"].as_str().unwrap().contains('子'), "a count in stones: {answer}");
        assert_eq!(strings(&answer["dead"]), proposal, "{answer}");
        ended += 1;
        // The count itself against GNU Go's, where GNU Go judges the same stones dead.
        let mut gnugo_dead: Vec<String> =
            gtp.send("final_status_list dead", None).unwrap().split_whitespace().map(str::to_owned).collect();
        gnugo_dead.sort_by_key(|v| (v[1..].parse::<u32>().unwrap(), v.as_bytes()[0]));
        let mut ours = proposal.clone();
        ours.sort_by_key(|v| (v[1..].parse::<u32>().unwrap(), v.as_bytes()[0]));
        if gnugo_dead == ours {
            assert_eq!(gtp.send("final_score", None).unwrap(), result, "{answer}");
            same_count += 1;
        }
        let _ = gtp.send("quit", None);
        if dead_refused > 0 && living_refused > 0 && same_count > 0 && ended >= 2 {
            break;
        }
    }
    let _ = server.kill();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "games counted {ended}, living chains refused {living_refused}, dead chains refused {dead_refused}, \
         counts checked against GNU Go's {same_count}"
    );
    assert!(
        ended >= 2 && living_refused >= 1 && dead_refused >= 1 && same_count >= 1,
        "counted {ended}, with a dead chain {dead_refused}, checked {same_count}"
    );
}
