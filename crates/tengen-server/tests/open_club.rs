//! What a hostile client found in the players' room, one test each: each failed before its
//! fix. The floods that need a real socket run against a real server in a child process
//! (`crates/tengen/tests/abuse.rs`).

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;
use tengen_server::{AppState, Settings, Store};

mod common;
use common::{Send, ask, own, roomy};

async fn server(url: &str, limits: tengen_server::guard::Limits) -> AppState {
    let settings = Settings { limits, review_workers: 0, ..Settings::default() };
    AppState::new(Store::open(url).await.unwrap(), settings)
}

/// Signs up `name` from `from` and returns the session token.
async fn player_from(app: &AppState, name: &str, from: &str) -> String {
    let send = Send { from: Some(from), ..Send::default() };
    let a = ask(app, "POST", "/api/accounts", send, Some(json!({"name": name, "password": "a long password"}))).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    a.token()
}

/// A counter of `/metrics`.
fn metric(app: &AppState, name: &str) -> u64 {
    let text = app.metrics().render(&[]);
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.trim().parse().ok()))
        .unwrap_or_else(|| panic!("{name} not in the metrics"))
}

/// Finding 10: a rank that is not ASCII panicked in `parse_rank` (a byte index inside a
/// character) and the panic was missing from the log and the metrics.
#[tokio::test]
async fn a_rank_of_any_text_is_a_422_never_a_panic() {
    let app = server("sqlite::memory:", roomy()).await;
    let alice = player_from(&app, "Alice", "10.1.0.1").await;
    for rank in ["€", "1é", "１ｋ", "é", "k", "+1k", "1\u{301}k", "99999999999999999999k"] {
        for field in ["rank_min", "rank_max"] {
            let a = ask(&app, "POST", "/api/challenges", own(&alice), Some(json!({"size": 9, field: rank}))).await;
            assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{field} {rank:?}: {}", a.body);
            assert_eq!(a.body["reason"], "rank", "{field} {rank:?}: {}", a.body);
        }
    }
    assert_eq!(metric(&app, "tengen_panics_total"), 0);
}

const TEN: [&str; 10] = ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4"];

/// A 9×9 game between accounts, `black` (the creator) against `white` who sat with the friend's
/// link: the game's id.
async fn friend_game(app: &AppState, black: &str, white: &str, rated: bool) -> String {
    let setup = json!({"size": 9, "opponent": "friend", "color": "black", "rated": rated});
    let made = ask(app, "POST", "/api/games", own(black), Some(setup)).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let id = made.body["id"].as_str().unwrap().to_owned();
    let friend = made.body["friend_token"].as_str().unwrap();
    let sat = ask(app, "POST", &format!("/api/games/{id}/sit"), Send { token: Some(friend), ..own(white) }, None).await;
    assert_eq!(sat.status, StatusCode::OK, "{}", sat.body);
    id
}

/// A rated 9×9 game of `black` (the creator) against `white`, played to the move before the
/// end on `app`: the game's id.
async fn rated_game_to_its_end(app: &AppState, black: &str, white: &str, moves: &[&str]) -> String {
    let id = friend_game(app, black, white, true).await;
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { black } else { white };
        let body = json!({"move": mv, "number": i + 1});
        let a = ask(app, "POST", &format!("/api/games/{id}/move"), own(who), Some(body)).await;
        assert_eq!(a.status, StatusCode::OK, "move {} {mv}: {}", i + 1, a.body);
    }
    id
}

/// Finding 2: on PostgreSQL the rating row was read `FOR UPDATE`, then deleted and inserted:
/// a game of the same player ending meanwhile found no row and rated from the start, or
/// failed with a duplicate key. Eight rated games of one player end at once on two nodes:
/// every end succeeds, the player has eight games, and replaying them gives the same table.
#[tokio::test]
async fn rated_games_of_one_player_ending_at_once_on_two_nodes_keep_every_change() {
    let db = common::postgres().await;
    let (a, b) = (server(&db, roomy()).await, server(&db, roomy()).await);
    let alice = player_from(&a, "Alice", "10.2.0.1").await;
    const GAMES: usize = 8;
    let mut games = Vec::new();
    for i in 0..GAMES {
        let node = if i % 2 == 0 { &a } else { &b };
        let opponent = player_from(node, &format!("Opponent{i}"), &format!("10.2.1.{i}")).await;
        let id = rated_game_to_its_end(node, &alice, &opponent, &TEN).await;
        games.push((node.clone(), id, opponent));
    }
    // Each opponent resigns at once, half of them on each node.
    let ends = games.iter().map(|(node, id, opponent)| {
        let (node, id, opponent) = (node.clone(), id.clone(), opponent.clone());
        tokio::spawn(async move {
            let a = ask(&node, "POST", &format!("/api/games/{id}/resign"), own(&opponent), None).await;
            (a.status, a.body)
        })
    });
    for end in futures_util::future::join_all(ends).await {
        let (status, body) = end.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["phase"], "ended", "{body}");
    }
    let mine = ask(&b, "GET", "/api/players/alice", Send::default(), None).await.body;
    let nine = mine["ratings"].as_array().unwrap().iter().find(|r| r["size"] == 9).unwrap().clone();
    assert_eq!((nine["games"].as_i64(), nine["wins"].as_i64()), (Some(GAMES as i64), Some(GAMES as i64)), "{nine}");
    for (_, id, _) in &games {
        assert_eq!(a.store().rating_changes_of(id).await.unwrap(), 2, "{id}");
    }
    // Each change starts where the one before it ended.
    let history = ask(&a, "GET", "/api/players/alice/ratings", Send::default(), None).await.body;
    let history = history.as_array().unwrap();
    assert_eq!(history.len(), GAMES);
    for pair in history.windows(2) {
        assert_eq!(pair[0]["after"], pair[1]["before"], "{pair:?}");
    }
    assert_eq!(a.store().recompute_ratings().await.unwrap(), (GAMES, 0), "the table is the replay of its games");
    common::drop_postgres(&db).await;
}

async fn log_in(app: &AppState, name: &str, password: &str, from: &str) -> common::Answer {
    let send = Send { from: Some(from), ..Send::default() };
    ask(app, "POST", "/api/session", send, Some(json!({"name": name, "password": password}))).await
}

/// `n` requests at once: each `make(i)` is one, its status counted.
async fn at_once<F>(n: usize, make: impl Fn(usize) -> F) -> std::collections::BTreeMap<u16, usize>
where
    F: std::future::Future<Output = common::Answer> + std::marker::Send + 'static,
{
    let tasks: Vec<_> = (0..n).map(|i| tokio::spawn(make(i))).collect();
    let mut statuses = std::collections::BTreeMap::new();
    for t in tasks {
        *statuses.entry(t.await.unwrap().status.as_u16()).or_default() += 1;
    }
    statuses
}

/// Finding 3: presence counted only a game socket, so the player to move claimed a win
/// against an opponent who had moved over HTTP a moment before. A claim needs the opponent to
/// be the one to move, on move and away past the grace; never in the counting phase.
#[tokio::test]
async fn a_claim_needs_the_opponent_on_move_and_away() {
    let grace = Duration::from_millis(1000);
    let app = server("sqlite::memory:", tengen_server::guard::Limits { claim_grace: grace, ..roomy() }).await;
    let (alice, bob) = (player_from(&app, "Alice", "10.3.0.1").await, player_from(&app, "Bob", "10.3.0.2").await);
    let id = friend_game(&app, &alice, &bob, false).await;
    let (claim, play) = (format!("/api/games/{id}/claim"), format!("/api/games/{id}/move"));
    // Neither has a socket open; both are past the grace by that measure.
    tokio::time::sleep(grace + Duration::from_millis(300)).await;
    let moved = ask(&app, "POST", &play, own(&alice), Some(json!({"move": "E5", "number": 1}))).await;
    assert_eq!(moved.status, StatusCode::OK);
    // Bob, to move, claims against Alice who moved a moment ago: refused.
    let a = ask(&app, "POST", &claim, own(&bob), None).await;
    assert_eq!(
        (a.status, a.body["reason"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("your_move")),
        "{}",
        a.body
    );
    // Alice claims against Bob, on move for a moment only: refused.
    let a = ask(&app, "POST", &claim, own(&alice), None).await;
    assert_eq!(a.body["reason"], "opponent_here", "{}", a.body);
    // Bob moves over HTTP: he is at the board for the grace, socket or not.
    let moved = ask(&app, "POST", &play, own(&bob), Some(json!({"move": "C3", "number": 2}))).await;
    assert_eq!(moved.status, StatusCode::OK);
    let p = ask(&app, "GET", &format!("/api/games/{id}/presence"), Send::default(), None).await.body;
    assert_eq!(p["white"]["here"], true, "{p}");
    // Alice, now on move, goes quiet: past the grace, Bob may claim.
    tokio::time::sleep(grace + Duration::from_millis(300)).await;
    let a = ask(&app, "POST", &claim, own(&bob), None).await;
    assert_eq!((a.status, a.body["result"].as_str()), (StatusCode::OK, Some("W+F")), "{}", a.body);

    // The counting phase is settled by its deadline, never by a claim.
    let id = friend_game(&app, &alice, &bob, false).await;
    for (n, who) in [(1, &alice), (2, &bob)] {
        let body = json!({"move": "pass", "number": n});
        let a = ask(&app, "POST", &format!("/api/games/{id}/move"), own(who), Some(body)).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    }
    tokio::time::sleep(grace + Duration::from_millis(300)).await;
    for who in [&alice, &bob] {
        let a = ask(&app, "POST", &format!("/api/games/{id}/claim"), own(who), None).await;
        assert_eq!(a.body["reason"], "counting", "{}", a.body);
    }
}

/// Finding 4: the count of failed logins was read before the hash check and written after
/// it, so guesses sent at once were all checked. Now each is recorded before it is checked:
/// of 60 at once from one address, at most 20 are checked (the rest 429); over two nodes of
/// one PostgreSQL database alike.
#[tokio::test]
async fn guesses_sent_at_once_pass_no_more_than_the_limit() {
    let app = server("sqlite::memory:", roomy()).await;
    player_from(&app, "Genan", "10.4.0.1").await;
    let statuses = at_once(60, |_| {
        let app = app.clone();
        async move { log_in(&app, "Genan", "a wrong guess", "10.4.1.1").await }
    })
    .await;
    assert_eq!(statuses.get(&401), Some(&20), "{statuses:?}");
    assert_eq!(statuses.get(&429), Some(&40), "{statuses:?}");

    let db = common::postgres().await;
    let (a, b) = (server(&db, roomy()).await, server(&db, roomy()).await);
    player_from(&a, "Inseki", "10.4.0.2").await;
    let statuses = at_once(60, |i| {
        let node = if i % 2 == 0 { a.clone() } else { b.clone() };
        async move { log_in(&node, "Inseki", "a wrong guess", "10.4.2.1").await }
    })
    .await;
    assert_eq!(statuses.get(&401), Some(&20), "two nodes: {statuses:?}");
    common::drop_postgres(&db).await;
}

/// Finding 4, the other limits: open challenges (5), sign-ups an hour (15) and games in play
/// (here 3) posted at once.
#[tokio::test]
async fn challenges_sign_ups_and_games_made_at_once_keep_their_limits() {
    let limits = tengen_server::guard::Limits { games_per_player: 3, ..roomy() };
    let app = server("sqlite::memory:", limits.clone()).await;
    let alice = player_from(&app, "Alice", "10.5.0.1").await;
    let statuses = at_once(16, |_| {
        let (app, alice) = (app.clone(), alice.clone());
        async move { ask(&app, "POST", "/api/challenges", own(&alice), Some(json!({"size": 9}))).await }
    })
    .await;
    assert_eq!((statuses.get(&201), statuses.get(&429)), (Some(&5), Some(&11)), "{statuses:?}");

    let statuses = at_once(35, |i| {
        let app = app.clone();
        async move {
            let send = Send { from: Some("10.5.1.1"), ..Send::default() };
            let body = json!({"name": format!("newcomer {i}"), "password": "a long password"});
            ask(&app, "POST", "/api/accounts", send, Some(body)).await
        }
    })
    .await;
    assert_eq!((statuses.get(&201), statuses.get(&429)), (Some(&15), Some(&20)), "{statuses:?}");

    // Six players' challenges, accepted by Bob at once, on two nodes: three games at most.
    let db = common::postgres().await;
    let (a, b) = (server(&db, limits.clone()).await, server(&db, limits).await);
    let bob = player_from(&a, "Bob", "10.5.2.1").await;
    let mut challenges = Vec::new();
    for i in 0..6 {
        let owner = player_from(&a, &format!("Owner{i}"), &format!("10.5.3.{i}")).await;
        let c = ask(&a, "POST", "/api/challenges", own(&owner), Some(json!({"size": 9}))).await;
        assert_eq!(c.status, StatusCode::CREATED, "{}", c.body);
        challenges.push(c.body["id"].as_str().unwrap().to_owned());
    }
    let statuses = at_once(6, |i| {
        let node = if i % 2 == 0 { a.clone() } else { b.clone() };
        let (bob, c) = (bob.clone(), challenges[i].clone());
        async move { ask(&node, "POST", &format!("/api/challenges/{c}/accept"), own(&bob), None).await }
    })
    .await;
    assert_eq!((statuses.get(&201), statuses.get(&429)), (Some(&3), Some(&3)), "{statuses:?}");
    common::drop_postgres(&db).await;
}

/// Finding 5: 20 wrong passwords from anywhere closed the account to its owner for ten
/// minutes. Now the owner, from an address of their own, logs in; an address that failed on
/// the account several times is refused once it has many failures.
#[tokio::test]
async fn nobody_locks_the_owner_out_of_an_account() {
    let app = server("sqlite::memory:", roomy()).await;
    player_from(&app, "Chitoku", "10.6.0.1").await;
    // 25 guesses from five addresses in five networks: once the account has 20 failures, the
    // addresses that failed on it three times are refused.
    for i in 0..25 {
        let a = log_in(&app, "Chitoku", "a guess", &format!("10.6.{}.{}", 10 + i % 5, i % 5)).await;
        let expected = if i < 20 { StatusCode::UNAUTHORIZED } else { StatusCode::TOO_MANY_REQUESTS };
        assert_eq!(a.status, expected, "guess {i}: {}", a.body);
    }
    // The owner, from home: in at once.
    let owner = log_in(&app, "Chitoku", "a long password", "10.6.0.1").await;
    assert!(owner.status.is_success(), "{}: {}", owner.status, owner.body);
    // A guesser that failed five times on the account: refused while it has many failures;
    // a new address may still try (and fail).
    let a = log_in(&app, "Chitoku", "a guess", "10.6.10.0").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    assert_eq!(log_in(&app, "Chitoku", "a guess", "10.6.20.1").await.status, StatusCode::UNAUTHORIZED);
}

/// Finding 7: successful logins were not limited, each ran a hash and added a 30-day session.
/// Logins from one address are limited (60 in ten minutes, 240 from its network), and an
/// account keeps its 20 latest sessions.
#[tokio::test]
async fn logins_are_limited_and_sessions_capped() {
    let app = server("sqlite::memory:", roomy()).await;
    let first = player_from(&app, "Sakata", "10.7.0.1").await;
    let mut statuses = Vec::new();
    for _ in 0..62 {
        statuses.push(log_in(&app, "Sakata", "a long password", "10.7.1.1").await.status.as_u16());
    }
    assert!(statuses[..60].iter().all(|&s| s == 204), "{statuses:?}");
    assert!(statuses[60..].iter().all(|&s| s == 429), "{statuses:?}");
    // The account's first session (its sign-up's) ended long ago: 20 are kept.
    let me = ask(&app, "GET", "/api/me", Send { cookie: Some(&first), ..Send::default() }, None).await;
    assert_eq!(me.status, StatusCode::UNAUTHORIZED);
    let row = app.store().account_by_key("sakata").await.unwrap().unwrap();
    assert_eq!(app.store().sessions_of(&row.id).await.unwrap(), 20);
    // The network's share: four addresses of one /24 log in 60 times each, the fifth is refused.
    let mut refused = 0;
    for host in 2..=6 {
        for _ in 0..60 {
            let a = log_in(&app, "Sakata", "a long password", &format!("10.7.2.{host}")).await;
            refused += usize::from(a.status == StatusCode::TOO_MANY_REQUESTS);
        }
    }
    assert_eq!(refused, 60, "the fifth address of the network");
}

/// Finding 12: the operator's one-time password logged in twice and allowed play without a
/// change. It logs in once, and its session may change the password and nothing else.
#[tokio::test]
async fn a_one_time_password_logs_in_once_and_only_to_be_changed() {
    let app = server("sqlite::memory:", roomy()).await;
    let bob = player_from(&app, "Bob", "10.8.0.1").await;
    player_from(&app, "Shuwa", "10.8.0.2").await;
    let one_time = app.reset_password("shuwa").await.unwrap();
    let first = log_in(&app, "Shuwa", &one_time, "10.8.0.2").await;
    assert_eq!(first.status, StatusCode::NO_CONTENT, "{}", first.body);
    let again = log_in(&app, "Shuwa", &one_time, "10.8.0.3").await;
    assert_eq!((again.status, again.body["reason"].as_str()), (StatusCode::FORBIDDEN, Some("one_time_password_used")));
    let session = first.token();
    let me = ask(&app, "GET", "/api/me", own(&session), None).await;
    assert_eq!(me.body["must_change_password"], true);
    for (method, path, body) in [
        ("POST", "/api/games", Some(json!({"size": 9, "opponent": "friend"}))),
        ("POST", "/api/challenges", Some(json!({"size": 9}))),
        ("GET", "/api/me/games", None),
    ] {
        let a = ask(&app, method, path, own(&session), body).await;
        assert_eq!(
            (a.status, a.body["reason"].as_str()),
            (StatusCode::FORBIDDEN, Some("must_change_password")),
            "{path}"
        );
    }
    // Nor a seat's action under the login.
    let setup = json!({"size": 9, "opponent": "friend", "color": "white"});
    let made = ask(&app, "POST", "/api/games", own(&bob), Some(setup)).await;
    let id = made.body["id"].as_str().unwrap();
    let friend = made.body["friend_token"].as_str().unwrap();
    let sat =
        ask(&app, "POST", &format!("/api/games/{id}/sit"), Send { token: Some(friend), ..own(&session) }, None).await;
    assert_eq!(sat.body["reason"], "must_change_password", "{}", sat.body);
    let change = json!({"old": one_time, "new": "my own password"});
    let changed = ask(&app, "PUT", "/api/me/password", own(&session), Some(change)).await;
    assert_eq!(changed.status, StatusCode::NO_CONTENT);
    let a = ask(&app, "POST", "/api/challenges", own(&changed.token()), Some(json!({"size": 9}))).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
}

/// A TCP connection to `server` from the loopback address `from`.
async fn connect_from(from: &str, server: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    socket.connect(server).await
}

/// One plain request from `from` over a new connection: the status, or `None` when the
/// connection was closed or the answer did not come within two seconds.
async fn plain_request(from: &str, server: std::net::SocketAddr, path: &str) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let ask = async {
        let mut stream = connect_from(from, server).await.ok()?;
        let request = format!("GET {path} HTTP/1.1\r\nHost: {server}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.ok()?;
        let text = String::from_utf8_lossy(&answer);
        text.split(' ').nth(1)?.parse().ok()
    };
    tokio::time::timeout(Duration::from_secs(2), ask).await.ok().flatten()
}

/// A lobby WebSocket from `from` that is never read: no pong ever answers the server's pings.
async fn lobby_socket_never_read(
    from: &str,
    server: std::net::SocketAddr,
) -> Option<tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>> {
    let stream = connect_from(from, server).await.ok()?;
    let url = format!("ws://{server}/api/lobby/live");
    let (ws, _) =
        tokio::time::timeout(Duration::from_secs(2), tokio_tungstenite::client_async(url, stream)).await.ok()?.ok()?;
    Some(ws)
}

/// Finding 1: lobby WebSockets that never read, and idle connections, from many addresses
/// filled the connection cap and every other client was reset. Now sockets hold at most
/// their share (room is kept for plain requests), a socket that answers no ping is closed,
/// an idle connection makes room for a new one, and a network's addresses share one share.
#[tokio::test]
async fn floods_of_sockets_and_idle_connections_leave_the_server_open() {
    let limits = tengen_server::guard::Limits {
        connections: 48,
        connections_per_address: 8,
        websockets: 32,
        watchers_per_client: 8,
        ping_every: Duration::from_millis(300),
        header_timeout: Duration::from_secs(30),
        ..roomy()
    };
    let app = server("sqlite::memory:", limits).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(tengen_server::serve_on(app.clone(), listener, std::future::pending()));

    // Sockets from 6 networks (127.1.N.1), 8 each: 32 are let in, the rest refused.
    let mut sockets = Vec::new();
    for n in 0..6 {
        for _ in 0..8 {
            if let Some(ws) = lobby_socket_never_read(&format!("127.1.{n}.1"), addr).await {
                sockets.push(ws);
            }
        }
    }
    assert_eq!(sockets.len(), 32, "the sockets' share of the places");
    // Plain requests are still answered meanwhile.
    for _ in 0..5 {
        assert_eq!(plain_request("127.0.0.1", addr, "/healthz").await, Some(200));
    }
    // Never read, they answer no ping: closed within a few intervals; a player's lobby
    // socket is let in again.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(app.metrics().render(&[]).contains("tengen_connections 0"), "{}", app.metrics().render(&[]));
    let player = lobby_socket_never_read("127.0.0.1", addr).await;
    assert!(player.is_some(), "a lobby socket after the flood");
    drop((sockets, player));

    // Idle connections from 7 networks, 8 each: more than every place. Each new one pushes an
    // idle one out; a player's request is answered every time.
    let mut idle = Vec::new();
    for n in 0..7 {
        for _ in 0..8 {
            if let Ok(stream) = connect_from(&format!("127.2.{n}.1"), addr).await {
                idle.push(stream);
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..10 {
        assert_eq!(plain_request("127.0.0.1", addr, "/healthz").await, Some(200));
    }
    let metrics = app.metrics().render(&[]);
    let evicted = metrics.lines().find_map(|l| l.strip_prefix("tengen_connections_evicted_total ")).unwrap();
    // The 8 past the cap, and one for the first request (the next ones take its place back).
    assert!(evicted.parse::<u64>().unwrap() >= 9, "{metrics}");

    // A network's addresses share four addresses' places: a fifth address of 127.3.0.0/24
    // is refused while the four hold theirs.
    drop(idle);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut held = Vec::new();
    for host in 1..=4 {
        for _ in 0..8 {
            held.push(connect_from(&format!("127.3.0.{host}"), addr).await.unwrap());
        }
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(plain_request("127.3.0.5", addr, "/healthz").await, None);
    assert_eq!(plain_request("127.3.1.5", addr, "/healthz").await, Some(200));
}

/// The levels docs/usage.md says are rated on each size, from its sentence "Rated levels: on
/// 9×9 levels 1–9; on 13×13 levels 5 and 7; …".
fn rated_levels_in_the_usage() -> Vec<(u64, Vec<u64>)> {
    let usage = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/usage.md")).unwrap();
    let text = usage.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = text.find("Rated levels: ").expect("docs/usage.md names the rated levels") + "Rated levels: ".len();
    let sentence = &text[start..start + text[start..].find(" (on a server with a network").unwrap()];
    sentence
        .split("; ")
        .map(|part| {
            let rest = part.strip_prefix("on ").unwrap();
            let (size, levels) = rest.split_once("×").unwrap();
            let levels = levels.split_once(" levels ").unwrap().1;
            let mut list = Vec::new();
            for item in levels.replace(" and ", ", ").split(", ") {
                match item.split_once('–') {
                    Some((a, b)) => list.extend(a.parse::<u64>().unwrap()..=b.parse().unwrap()),
                    None => list.push(item.parse().unwrap()),
                }
            }
            (size.parse().unwrap(), list)
        })
        .collect()
}

/// Finding 13: docs/usage.md said no level is rated on 13×13 or 19×19, while the server rates
/// several. `GET /api/levels` says which per size, and the usage says the same.
#[tokio::test]
async fn the_usage_names_the_levels_the_server_rates() {
    let app = server("sqlite::memory:", roomy()).await;
    let levels = ask(&app, "GET", "/api/levels", Send::default(), None).await.body;
    let mut served: Vec<(u64, Vec<u64>)> = Vec::new();
    for size in [9, 13, 19] {
        let rated = levels
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["strengths"].as_array().unwrap().iter().any(|s| s["size"] == size && s["rated"] == true))
            .map(|l| l["level"].as_u64().unwrap())
            .collect();
        served.push((size, rated));
    }
    assert_eq!(rated_levels_in_the_usage(), served);
    assert!(served.iter().all(|(_, l)| !l.is_empty()));
    // A server that rates no game against the computer says so.
    let unrated = server("sqlite::memory:", tengen_server::guard::Limits { rated_computer: false, ..roomy() }).await;
    let levels = ask(&unrated, "GET", "/api/levels", Send::default(), None).await.body;
    assert!(
        levels.as_array().unwrap().iter().flat_map(|l| l["strengths"].as_array().unwrap()).all(|s| s["rated"] == false)
    );
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket at `path` under a login.
async fn socket(addr: std::net::SocketAddr, path: &str, session: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    req.headers_mut().insert("cookie", format!("tengen_session={session}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The next text message of `ws` within `wait`, as JSON.
async fn next_within(ws: &mut Socket, wait: Duration) -> Option<serde_json::Value> {
    use futures_util::StreamExt;
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next()).await.ok()??.ok()?;
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            return serde_json::from_str(&t).ok();
        }
    }
}

/// Finding 12: a block made while the blocked player's lobby socket was open did not reach
/// that socket, and a blocked author's chat still reached the blocker's game socket. Both
/// sockets now follow the block at once.
#[tokio::test]
async fn a_block_reaches_open_lobby_and_game_sockets() {
    let app = server("sqlite::memory:", roomy()).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(tengen_server::serve_on(app.clone(), listener, std::future::pending()));
    let (alice, bob) = (player_from(&app, "Alice", "10.9.0.1").await, player_from(&app, "Bob", "10.9.0.2").await);
    let carol = player_from(&app, "Carol", "10.9.0.3").await;
    let challenge = ask(&app, "POST", "/api/challenges", own(&alice), Some(json!({"size": 9}))).await;
    let cid = challenge.body["id"].as_str().unwrap().to_owned();
    // Bob's lobby socket sees Alice's challenge; Alice blocks him: it disappears from his
    // socket at once (a new list without it).
    let mut b_lobby = socket(addr, "/api/lobby/live", &bob).await;
    let first = next_within(&mut b_lobby, Duration::from_secs(5)).await.unwrap();
    assert_eq!(first["challenges"][0]["id"], cid.as_str(), "{first}");
    let blocked = ask(&app, "PUT", "/api/me/blocks/bob", own(&alice), None).await;
    assert_eq!(blocked.status, StatusCode::NO_CONTENT);
    let list = next_within(&mut b_lobby, Duration::from_secs(5)).await.expect("the lobby again");
    assert_eq!(list["challenges"], json!([]), "{list}");

    // A game Alice and Carol watch; Bob writes in its chat: Carol's socket has it, Alice's not.
    let made = ask(&app, "POST", "/api/games", own(&carol), Some(json!({"size": 9, "opponent": "friend"}))).await;
    let gid = made.body["id"].as_str().unwrap().to_owned();
    let live = format!("/api/games/{gid}/live");
    let (mut a_game, mut c_game) = (socket(addr, &live, &alice).await, socket(addr, &live, &carol).await);
    for ws in [&mut a_game, &mut c_game] {
        assert!(next_within(ws, Duration::from_secs(5)).await.unwrap()["moves"].is_number());
    }
    for text in ["hello from Bob", "and again"] {
        let said = ask(&app, "POST", &format!("/api/games/{gid}/chat"), own(&bob), Some(json!({"text": text}))).await;
        assert_eq!(said.status, StatusCode::CREATED, "{}", said.body);
        let seen = next_within(&mut c_game, Duration::from_secs(5)).await.unwrap();
        assert_eq!(seen["chat"]["text"], text, "{seen}");
    }
    let said =
        ask(&app, "POST", &format!("/api/games/{gid}/chat"), own(&carol), Some(json!({"text": "Carol here"}))).await;
    assert_eq!(said.status, StatusCode::CREATED);
    let seen = next_within(&mut a_game, Duration::from_secs(5)).await.unwrap();
    assert_eq!(seen["chat"]["text"], "Carol here", "Bob's two messages never reached Alice: {seen}");
    // Lifted: his next message reaches her.
    assert_eq!(ask(&app, "DELETE", "/api/me/blocks/bob", own(&alice), None).await.status, StatusCode::NO_CONTENT);
    let said =
        ask(&app, "POST", &format!("/api/games/{gid}/chat"), own(&bob), Some(json!({"text": "friends again"}))).await;
    assert_eq!(said.status, StatusCode::CREATED);
    let seen = next_within(&mut a_game, Duration::from_secs(5)).await.unwrap();
    assert_eq!(seen["chat"]["text"], "friends again", "{seen}");
}

/// Twenty moves of a 9×9 game, nothing captured.
const TWENTY: [&str; 20] = [
    "C3", "B2", "C5", "D2", "C7", "F2", "E3", "H2", "E5", "B8", "E7", "D8", "G3", "F8", "G5", "H8", "G7", "A5", "J9",
    "J5",
];

/// Finding 9: forty rated 10-move games against new accounts took a player from 6k? to 3d in
/// seconds. A rated game is rated only with enough moves (20 on 9×9 by default) and at most
/// three a day between two accounts.
#[tokio::test]
async fn short_games_and_many_games_of_one_pair_are_not_rated() {
    let defaults = tengen_server::guard::Limits::default();
    assert_eq!((defaults.rated_min_moves, defaults.rated_per_pair), ([20, 30, 50], 3));
    let limits = tengen_server::guard::Limits {
        rated_min_moves: defaults.rated_min_moves,
        rated_per_pair: defaults.rated_per_pair,
        ..roomy()
    };
    let app = server("sqlite::memory:", limits).await;
    let (alice, bob) = (player_from(&app, "Alice", "10.10.0.1").await, player_from(&app, "Bob", "10.10.0.2").await);
    let end = |id: String| {
        let (app, bob) = (app.clone(), bob.clone());
        async move {
            let a = ask(&app, "POST", &format!("/api/games/{id}/resign"), own(&bob), None).await;
            assert_eq!(a.body["phase"], "ended", "{}", a.body);
            app.store().rating_changes_of(&id).await.unwrap()
        }
    };
    let short = rated_game_to_its_end(&app, &alice, &bob, &TEN).await;
    assert_eq!(end(short).await, 0, "10 moves on 9×9: not rated");
    let mut rated = Vec::new();
    for _ in 0..4 {
        let long = rated_game_to_its_end(&app, &alice, &bob, &TWENTY).await;
        rated.push(end(long).await);
    }
    assert_eq!(rated, [2, 2, 2, 0], "three a day between two accounts");
    // Another opponent is rated again.
    let carol = player_from(&app, "Carol", "10.10.0.3").await;
    let id = rated_game_to_its_end(&app, &alice, &carol, &TWENTY).await;
    let a = ask(&app, "POST", &format!("/api/games/{id}/resign"), own(&carol), None).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(app.store().rating_changes_of(&id).await.unwrap(), 2);
}

/// Finding 8: watchers filled a game's chat cap in seconds and the players got `chat_full`;
/// more than the cap were stored (count and insert apart); a full chat was a 4 MB answer to
/// every read. Players and watchers each have their share, counted in the insert, and the
/// chat is read in pages.
#[tokio::test]
async fn watchers_cannot_silence_the_players_and_the_chat_reads_in_pages() {
    use tengen_server::service::chat::CHAT_SHARE;
    let app = server("sqlite::memory:", roomy()).await;
    let (alice, bob) = (player_from(&app, "Alice", "10.11.0.1").await, player_from(&app, "Bob", "10.11.0.2").await);
    let id = rated_game_to_its_end(&app, &alice, &bob, &[]).await;
    // The watchers' share all but full.
    for i in 0..CHAT_SHARE - 2 {
        let row = tengen_server::store::ChatRow {
            seq: 0,
            account_id: None,
            name: format!("watcher {i}"),
            role: "watcher".into(),
            body: format!("message {i}"),
            moves: 0,
            at_ms: 1,
        };
        assert!(app.store().add_chat(&id, &row, CHAT_SHARE).await.unwrap().is_some());
    }
    let mut watchers = Vec::new();
    for i in 0..10 {
        watchers.push(player_from(&app, &format!("Watcher{i}"), &format!("10.11.1.{i}")).await);
    }
    let statuses = at_once(10, |i| {
        let (app, id, who) = (app.clone(), id.clone(), watchers[i].clone());
        async move { ask(&app, "POST", &format!("/api/games/{id}/chat"), own(&who), Some(json!({"text": "hi"}))).await }
    })
    .await;
    assert_eq!((statuses.get(&201), statuses.get(&429)), (Some(&2), Some(&8)), "{statuses:?}");
    // The players still speak.
    let said =
        ask(&app, "POST", &format!("/api/games/{id}/chat"), own(&alice), Some(json!({"text": "good luck"}))).await;
    assert_eq!(said.status, StatusCode::CREATED, "{}", said.body);
    // Pages: the latest 200; the first 500 from the start; never more than 500.
    let page = |query: &str| {
        let (app, uri) = (app.clone(), format!("/api/games/{id}/chat{query}"));
        async move { ask(&app, "GET", &uri, Send::default(), None).await.body }
    };
    let latest = page("").await;
    let latest = latest.as_array().unwrap();
    assert_eq!(latest.len(), 200);
    assert_eq!(latest.last().unwrap()["text"], "good luck");
    let first = page("?after=0&limit=500").await;
    assert_eq!((first.as_array().unwrap().len(), first[0]["seq"].as_i64()), (500, Some(1)));
    let next = page("?after=500&limit=3").await;
    assert_eq!(
        next.as_array().unwrap().iter().map(|m| m["seq"].as_i64().unwrap()).collect::<Vec<_>>(),
        [501, 502, 503]
    );
    let refused = ask(&app, "GET", &format!("/api/games/{id}/chat?limit=9999"), Send::default(), None).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
}

/// Finding 11: invisible and unassigned characters were accepted in names (`vic\u{1D173}tim`
/// beside `victim`), and look-alikes (Cyrillic о, Greek ο) gave distinct names. Names are of
/// the characters Unicode allows in identifiers, unique by their confusable skeleton.
#[tokio::test]
async fn names_that_look_alike_or_hide_characters_are_refused() {
    let app = server("sqlite::memory:", roomy()).await;
    player_from(&app, "victim", "10.12.0.1").await;
    player_from(&app, "Honinbo Shusaku", "10.12.0.1").await;
    let sign_up = |name: &'static str| {
        let app = app.clone();
        async move {
            let send = Send { from: Some("10.12.1.1"), ..Send::default() };
            let a =
                ask(&app, "POST", "/api/accounts", send, Some(json!({"name": name, "password": "a long password"})));
            let a = a.await;
            (a.status.as_u16(), a.body["reason"].as_str().unwrap_or_default().to_owned())
        }
    };
    for bad in [
        "vic\u{1D173}tim",
        "vic\u{E0041}tim",
        "\u{2800}\u{2800}",
        "\u{301}",
        "a \u{301}b",
        "nobody\u{FFFE}",
        "unassigned\u{0378}",
        "\u{115F}x",
    ] {
        assert_eq!(sign_up(bad).await, (422, "bad_name".to_owned()), "{bad:?}");
    }
    // Cyrillic і, о; Greek ο; case; full width; a zero for an o.
    for alike in [
        "v\u{0456}ctim",
        "H\u{043E}ninbo Shusaku",
        "Honinb\u{03BF} Shusaku",
        "VICTIM",
        "ｖｉｃｔｉｍ",
        "H0ninbo Shusaku",
    ] {
        assert_eq!(sign_up(alike).await, (409, "name_taken".to_owned()), "{alike:?}");
    }
    for fine in ["Lee Sedol", "柯洁", "이세돌", "Cho U", "O'Meien", "go-player_9", "Café", "井山裕太"] {
        assert_eq!(sign_up(fine).await.0, 201, "{fine:?}");
    }
}

/// Finding 6, analyses: two addresses held every analysis place. A client that runs one never
/// takes the last place, so a newcomer finds it.
#[tokio::test]
async fn a_newcomer_always_finds_an_analysis_place() {
    let limits = tengen_server::guard::Limits { analyses: 4, analyses_per_client: 2, ..roomy() };
    let app = server("sqlite::memory:", limits).await;
    let start = |from: &'static str| {
        let app = app.clone();
        async move {
            let send = Send { from: Some(from), ..Send::default() };
            let body = json!({"size": 9, "moves": [], "seconds": 60});
            ask(&app, "POST", "/api/analysis", send, Some(body)).await.status.as_u16()
        }
    };
    assert_eq!([start("10.13.0.1").await, start("10.13.0.1").await], [201, 201]);
    assert_eq!(start("10.13.1.1").await, 201);
    assert_eq!(start("10.13.1.1").await, 429, "the last place is kept for a newcomer");
    assert_eq!(start("10.13.2.1").await, 201, "the newcomer");
    assert_eq!(start("10.13.3.1").await, 503, "all four taken");
}

/// Finding 6, reviews: one review of 190 moves at 400 visits held the review queue for about
/// 75 minutes. A network visit counts as 200 playouts on 19×19 in a review's work.
#[test]
fn a_network_review_is_bounded_by_its_time() {
    use tengen_server::service::reviews::review_work;
    let most = tengen_server::guard::Limits::default().review_work;
    assert!(review_work(true, 19, 190, 400) > most, "the hour-long review is refused");
    assert!(review_work(true, 19, 190, 32) <= most, "the page's review (32 visits) is not");
    assert!(review_work(false, 19, 190, 10_000) <= most, "playouts as before");
    assert!(review_work(true, 9, 60, 400) <= most, "a 9×9 review at the most visits");
}
