//! The server with a KataGo network (`target/models/b10c384h6nbttflrs.bin.gz`, fetched by
//! `scripts/test`; `TENGEN_KATAGO_MODEL` names another): the computer of levels 6 to 10
//! answers with the network search, and the dead stones proposed after two passes come from
//! the network's ownership. SQLite only: the database plays no part here.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use common::{call, wait_for};
use serde_json::json;
use tengen_nn::{CachedModel, Model};
use tengen_server::{AppState, Settings, Store};

mod common;

async fn state(name: &str) -> (AppState, Arc<CachedModel>) {
    state_with(name, common::roomy()).await
}

async fn state_with(name: &str, limits: tengen_server::guard::Limits) -> (AppState, Arc<CachedModel>) {
    let path = std::env::var_os("TENGEN_KATAGO_MODEL").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz"),
        PathBuf::from,
    );
    assert!(path.exists(), "{} is missing: run scripts/test or set TENGEN_KATAGO_MODEL", path.display());
    let network = Arc::new(CachedModel::new(Model::load(&path).unwrap(), 256));
    let dir = std::env::temp_dir().join(format!("tengen-server-net-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("games.db").display());
    let settings = Settings {
        searches: 1,
        max_think: Duration::from_millis(500),
        network: Some(Arc::clone(&network)),
        limits,
        review_workers: 0,
        shared_moves: false,
    };
    (AppState::new(Store::open(&db).await.unwrap(), settings), network)
}

async fn play(app: &AppState, id: &str, token: &str, mv: &str, number: u64) -> StatusCode {
    call(app, "POST", &format!("/api/games/{id}/move"), Some(token), Some(json!({"move": mv, "number": number})))
        .await
        .0
}

#[tokio::test]
async fn the_computer_answers_with_the_network() {
    let (app, network) = state("answers").await;
    // Levels 6 to 10 are the network's, 1 to 5 the playout search's.
    let (_, levels) = call(&app, "GET", "/api/levels", None, None).await;
    let searches: Vec<&str> = levels.as_array().unwrap().iter().map(|l| l["search"].as_str().unwrap()).collect();
    assert_eq!(searches, [["playout"; 5], ["network"; 5]].concat());
    assert_eq!(levels[5]["budget"], "8 network evaluations a move");
    let (s, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"size": 9, "opponent": {"computer": {"level": 8}}, "color": "black"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    // A 3-3 invasion of nothing: the network answers on the board, next to the centre.
    assert_eq!(play(&app, id, token, "C3", 1).await, StatusCode::OK);
    let view = wait_for(&app, id, |v| v["moves"] == 2).await;
    let reply = view["history"][1]["move"].as_str().unwrap().to_owned();
    assert_ne!(reply, "pass", "{view}");
    let col = reply.as_bytes()[0];
    let row: u8 = reply[1..].parse().unwrap();
    assert!((b'C'..=b'G').contains(&col) && (3..=7).contains(&row), "{reply}");
    // The network, not the playout search, chose it.
    assert!(network.stats().1 > 0);
    // Level 5 and below keep the playout search.
    let (_, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"size": 9, "opponent": {"computer": {"level": 5}}, "color": "white"})),
    )
    .await;
    let evaluations = network.stats();
    wait_for(&app, created["id"].as_str().unwrap(), |v| v["moves"] == 1).await;
    assert_eq!(network.stats(), evaluations);
}

#[tokio::test]
async fn dead_stones_are_proposed_from_the_network() {
    let (app, network) = state("dead").await;
    let (_, created) =
        call(&app, "POST", "/api/games", None, Some(json!({"size": 9, "opponent": "friend", "color": "black"}))).await;
    let id = created["id"].as_str().unwrap();
    let (black, white) = (created["token"].as_str().unwrap(), created["friend_token"].as_str().unwrap());
    // Black's wall on the E column; White's lone stone at A1 is dead, and nothing else is.
    let mut n = 0;
    for (b, w) in [("E1", "A1"), ("E2", "pass"), ("E3", "pass"), ("E4", "pass"), ("E5", "pass"), ("E6", "pass")] {
        n += 1;
        assert_eq!(play(&app, id, black, b, n).await, StatusCode::OK);
        n += 1;
        assert_eq!(play(&app, id, white, w, n).await, StatusCode::OK);
    }
    n += 1;
    assert_eq!(play(&app, id, black, "pass", n).await, StatusCode::OK);
    // Thirteen moves, then the proposal as an event of its own.
    let view = wait_for(&app, id, |v| v["phase"] == "counting" && v["events"].as_u64() == Some(14)).await;
    let dead: Vec<String> = serde_json::from_value(view["dead"].clone()).unwrap();
    // Sixteen evaluations: the eight symmetries of the final position with each colour to
    // move (a chain's ownership is asked with its owner to move).
    assert_eq!(network.stats().0 + network.stats().1, 16);
    assert_eq!(dead, vec!["A1".to_owned()], "{view}");
}

/// Imports `sgf`, answering the game's id.
async fn import(app: &AppState, sgf: &str) -> String {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let req = axum::http::Request::post("/api/games/import").body(axum::body::Body::from(sgf.to_owned())).unwrap();
    let response = tengen_server::app(app.clone()).oneshot(req).await.unwrap();
    let body: serde_json::Value =
        serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    body["id"].as_str().unwrap().to_owned()
}

/// The page's "Review the game" asks no strength: on a server with a network the review is the
/// network's at the server's default visits, the view says so, and its win rate at a position
/// agrees with an analysis of that position at the same visits.
#[tokio::test]
async fn a_review_that_asks_no_strength_is_the_networks() {
    let visits = 16;
    let limits = tengen_server::guard::Limits { review_default_visits: visits, ..common::roomy() };
    let (app, network) = state_with("review", limits).await;
    let id = import(&app, "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gc];W[gg];B[cg];W[dd])").await;
    let review = format!("/api/games/{id}/review");
    let (s, asked) = call(&app, "POST", &review, None, None).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{asked}");
    assert_eq!((asked["engine"].as_str(), asked["strength"].as_i64()), (Some("network:b10c384h6nbttflrs"), Some(16)));
    // Two search threads, as `tengen serve --review-threads 2` runs it.
    let worker = tengen_server::service::reviews::Worker::new(app.store().clone(), Some(network)).with_threads(2);
    assert!(worker.work_once().await.unwrap());
    let (_, done) = call(&app, "GET", &review, None, None).await;
    assert_eq!((done["state"].as_str(), done["engine"].as_str()), (Some("done"), Some("network:b10c384h6nbttflrs")));
    assert_eq!(done["moves"].as_array().unwrap().len(), 6, "{done}");
    // The position after four moves, by the review (before move 5) and by an analysis.
    let reviewed = done["moves"][4]["winrate_black_before"].as_f64().unwrap();
    let (s, started) =
        call(&app, "POST", "/api/analysis", None, Some(json!({"game": id, "at": 4, "seconds": 30, "visits": visits})))
            .await;
    assert_eq!(s, StatusCode::CREATED, "{started}");
    let path = format!("/api/analysis/{}", started["id"].as_str().unwrap());
    let mut analysed = started;
    for _ in 0..300 {
        if analysed["done"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        analysed = call(&app, "GET", &path, None, None).await.1;
    }
    assert_eq!(analysed["done"], true, "{analysed}");
    let seen = analysed["visits"].as_u64().unwrap();
    assert!(seen >= u64::from(visits) && seen < 30 * u64::from(visits), "stopped by its visits: {seen}");
    let winrate = analysed["winrate_black"].as_f64().unwrap();
    println!("Black's win rate after 4 moves: the review {reviewed:.3}, the analysis {winrate:.3} ({seen} visits)");
    assert!((winrate - reviewed).abs() < 0.1, "the review says {reviewed}, the analysis {winrate} ({seen} visits)");
    // Asked of the playout search, the review is the playout search's.
    let (s, quick) = call(&app, "DELETE", &review, None, None).await;
    assert_eq!((s, quick["reason"].as_str()), (StatusCode::CONFLICT, Some("no_review")), "nothing to cancel: {quick}");
    let (s, quick) = call(&app, "POST", &review, None, Some(json!({"playouts": 100}))).await;
    assert_eq!(
        (s, quick["engine"].as_str(), quick["strength"].as_i64()),
        (StatusCode::ACCEPTED, Some("playouts"), Some(100))
    );
}

/// A network's review shows its quick pass first: every move at once, provisional, with the
/// network's own values (one evaluation a position, the positions shared by the threads),
/// then each move as it is judged; the server's view tells the pass and the moves judged.
#[tokio::test]
async fn a_network_review_shows_the_quick_pass_first() {
    use std::ops::ControlFlow;
    use tengen_review::{Progress, Searcher, review};
    let (app, network) = state("quick-pass").await;
    let mut game = tengen_core::Game::new(9, tengen_core::Rules::chinese()).unwrap();
    for mv in ["E5", "C7", "G7", "G3", "C3", "D6", "F6", "E7"] {
        game.play(tengen_core::Move::Play(mv.parse().unwrap())).unwrap();
    }
    let params = tengen_engine::SearchParams {
        playouts: tengen_engine::Limit::Simulations(8),
        threads: 2,
        ..tengen_engine::SearchParams::network()
    };
    let mut searcher = Searcher::network(Arc::clone(&network), params);
    let mut events: Vec<(&str, Vec<tengen_review::MoveReview>)> = Vec::new();
    let done = review(&game, &mut searcher, 8, "t", &tengen_sgf::GameInfo::default(), &mut |p| {
        match p {
            Progress::Quick(m) => events.push(("quick", m.to_vec())),
            Progress::Judged(m) => events.push(("judged", vec![m.clone()])),
            Progress::Searched { .. } => {}
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    let (kind, quick) = &events[0];
    assert_eq!((*kind, quick.len()), ("quick", 8), "the quick pass comes first, every move at once");
    assert!(quick.iter().all(|m| m.provisional && m.judgement.is_empty()));
    for pair in quick.windows(2) {
        // One evaluation a position: after one move is before the next.
        assert_eq!(pair[0].winrate_black, pair[1].winrate_black_before);
        assert_eq!(pair[0].score_lead_black, pair[1].score_lead_black_before);
    }
    // The empty board's value and most likely move, as the network gives them.
    let empty = tengen_core::Game::new(9, tengen_core::Rules::chinese()).unwrap();
    let eval =
        network.model().post_process(&network.evaluate(&tengen_nn::input_features(&empty).unwrap(), 0), None, 0.0);
    assert!((quick[0].winrate_black_before - f64::from(eval.win + 0.5 * eval.no_result)).abs() < 1e-6);
    assert!((quick[0].score_lead_black_before - f64::from(eval.lead)).abs() < 1e-4);
    let top = (0..81).max_by(|&a, &b| eval.policy[a].total_cmp(&eval.policy[b])).unwrap();
    assert_eq!(quick[0].best, format!("{}{}", "ABCDEFGHJ".as_bytes()[top % 9] as char, 9 - top / 9));
    // Then the moves judged, in order, none provisional: the review's own.
    let judged: Vec<&tengen_review::MoveReview> = events[1..]
        .iter()
        .map(|(k, m)| {
            assert_eq!(*k, "judged");
            &m[0]
        })
        .collect();
    assert_eq!(judged.len(), 8);
    assert!(judged.iter().enumerate().all(|(i, m)| m.number == i + 1 && !m.provisional));
    assert!(done.moves.iter().all(|m| !m.provisional));
    // The server's view of a running job with three moves judged and five provisional.
    let mut shown: Vec<tengen_review::MoveReview> = quick.clone();
    shown[..3].clone_from_slice(&done.moves[..3]);
    let row = tengen_server::store::ReviewRow {
        game_id: "g".into(),
        state: "running".into(),
        engine: "network:b10c384h6nbttflrs".into(),
        strength: 8,
        client: "c".into(),
        requested_ms: 0,
        updated_ms: 0,
        progress: 0.6,
        lease_owner: Some("w".into()),
        lease_until_ms: Some(1),
        attempts: 1,
        partial: Some(serde_json::to_string(&shown).unwrap()),
        result: None,
        error: None,
    };
    let view = tengen_server::service::reviews::ReviewView::of(&row).unwrap();
    assert_eq!((view.pass.as_str(), view.judged, view.moves.len()), ("deep", 3, 8));
    assert!(view.moves[3..].iter().all(|m| m.provisional) && !view.moves[2].provisional);
    let quick_view = tengen_server::service::reviews::ReviewView::of(&tengen_server::store::ReviewRow {
        partial: None,
        ..row.clone()
    })
    .unwrap();
    assert_eq!((quick_view.pass.as_str(), quick_view.judged), ("quick", 0));
    let done_view = tengen_server::service::reviews::ReviewView::of(&tengen_server::store::ReviewRow {
        state: "done".into(),
        result: Some(serde_json::to_string(&done).unwrap()),
        ..row
    })
    .unwrap();
    assert_eq!((done_view.pass.as_str(), done_view.judged), ("", 8));
    drop(app);
}
