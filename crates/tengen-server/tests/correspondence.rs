//! Correspondence games: days a move with a bank, a clock that runs with nobody connected and
//! across restarts (the downtime charged), ended on time exactly once — on one SQLite server
//! restarted, and on two PostgreSQL nodes at once. The server's clock is moved forward (a test
//! clock), not waited for. One test at a time in this binary: the clock is the process's.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};
use tengen_server::{AppState, Settings, Store};

mod common;
use common::{Send, ask, drop_postgres, own, postgres, roomy};

const DAY_MS: i64 = 86_400_000;

async fn server(url: &str) -> AppState {
    let settings = Settings { limits: roomy(), review_workers: 0, ..Settings::default() };
    AppState::new(Store::open(url).await.unwrap(), settings)
}

async fn player(app: &AppState, name: &str, from: &str) -> String {
    let send = Send { from: Some(from), ..Send::default() };
    let a = ask(app, "POST", "/api/accounts", send, Some(json!({"name": name, "password": "a long password"}))).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    a.token()
}

/// Ann (Black) and Ben: a correspondence game of `days` a move; Ann's first move starts the
/// clocks. The game's id.
async fn correspondence_game(app: &AppState, ann: &str, ben: &str, days: u32) -> String {
    let made = ask(
        app,
        "POST",
        "/api/challenges",
        own(ann),
        Some(json!({"size": 9, "color": "black", "time": {"kind": "correspondence", "days": days}})),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    assert_eq!(made.body["live"], false, "a correspondence challenge");
    let cid = made.body["id"].as_str().unwrap();
    let took = ask(app, "POST", &format!("/api/challenges/{cid}/accept"), own(ben), None).await;
    assert_eq!(took.status, StatusCode::CREATED, "{}", took.body);
    let game = took.body["game"].as_str().unwrap().to_owned();
    let a =
        ask(app, "POST", &format!("/api/games/{game}/move"), own(ann), Some(json!({"move": "E5", "number": 1}))).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    game
}

async fn view(app: &AppState, game: &str) -> Value {
    ask(app, "GET", &format!("/api/games/{game}"), Send::default(), None).await.body
}

async fn timeouts(app: &AppState, game: &str) -> usize {
    let events = app.store().events_after(game, 0).await.unwrap();
    events.iter().filter(|e| e.action == tengen_server::domain::Action::Timeout).count()
}

#[tokio::test]
async fn correspondence_clocks_across_restarts_and_nodes() {
    // One SQLite server, stopped while Ben's day runs out, ends the game once restarted.
    let file = std::env::temp_dir().join(format!("tengen-corr-{:08x}.db", rand::random::<u32>()));
    let url = format!("sqlite://{}", file.display());
    let app = server(&url).await;
    let (ann, ben) = (player(&app, "Ann", "10.2.0.1").await, player(&app, "Ben", "10.2.0.2").await);
    let game = correspondence_game(&app, &ann, &ben, 1).await;
    let v = view(&app, &game).await;
    assert_eq!((v["clock_running"].as_str(), v["time"]["kind"].as_str()), (Some("white"), Some("correspondence")));
    // Ben's turn: in his list of games to move in, not in Ann's.
    let turns = |who: String| {
        let app = app.clone();
        async move { ask(&app, "GET", "/api/me/turns", own(&who), None).await.body }
    };
    assert_eq!(turns(ben.clone()).await[0]["id"].as_str(), Some(game.as_str()));
    assert_eq!(turns(ann.clone()).await, json!([]));
    app.heartbeat().await.unwrap();
    drop(app);
    // Half a day later nothing has fallen; then the server is stopped for two days.
    tengen_server::test_clock::advance(DAY_MS / 2);
    let app = server(&url).await;
    app.resume_all().await.unwrap();
    app.check_clocks().await;
    app.sweep_deadlines().await;
    assert_eq!(view(&app, &game).await["phase"], "playing");
    app.heartbeat().await.unwrap();
    drop(app);
    tengen_server::test_clock::advance(2 * DAY_MS);
    let app = server(&url).await;
    app.resume_all().await.unwrap();
    app.check_clocks().await;
    app.sweep_deadlines().await;
    let v = view(&app, &game).await;
    assert_eq!((v["phase"].as_str(), v["result"].as_str()), (Some("ended"), Some("B+T")), "{v}");
    assert_eq!(timeouts(&app, &game).await, 1);
    drop(app);
    let _ = std::fs::remove_file(&file);

    // Two nodes on one PostgreSQL: the deadline passes with both running; it ends once.
    let db = postgres().await;
    let (one, two) = (server(&db).await, server(&db).await);
    let (ann, ben) = (player(&one, "Ann", "10.2.1.1").await, player(&two, "Ben", "10.2.1.2").await);
    let game = correspondence_game(&one, &ann, &ben, 3).await;
    // Ben answers on node 2 at once: 6 days on his clock.
    let b = ask(&two, "POST", &format!("/api/games/{game}/move"), own(&ben), Some(json!({"move": "C3", "number": 2})))
        .await;
    assert_eq!(b.status, StatusCode::OK);
    tengen_server::test_clock::advance(DAY_MS);
    one.heartbeat().await.unwrap();
    two.heartbeat().await.unwrap();
    let a = ask(&one, "POST", &format!("/api/games/{game}/move"), own(&ann), Some(json!({"move": "G7", "number": 3})))
        .await;
    assert_eq!(a.status, StatusCode::OK);
    let left = a.body["clocks"]["black"]["remaining_ms"].as_i64().unwrap();
    // Ann's clock: 3 days, and 3 after her first move (6); a day spent on this one, 3 more: 8
    // (the bank holds 9).
    assert!((8 * DAY_MS - 60_000..=8 * DAY_MS).contains(&left), "{left}");
    // Ben's 6 days run out with both nodes up.
    tengen_server::test_clock::advance(7 * DAY_MS);
    one.heartbeat().await.unwrap();
    two.heartbeat().await.unwrap();
    let (_, _, _, _) =
        tokio::join!(one.check_clocks(), two.check_clocks(), one.sweep_deadlines(), two.sweep_deadlines());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let v = view(&two, &game).await;
    assert_eq!((v["phase"].as_str(), v["result"].as_str()), (Some("ended"), Some("B+T")), "{v}");
    assert_eq!(timeouts(&one, &game).await, 1, "ended exactly once");
    drop_postgres(&db).await;
}
