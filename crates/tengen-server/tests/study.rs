//! The study endpoints: live analysis (its stream, its limits, its refusals), variations on a
//! reviewed position, the SGF with variations, and the record information of imports.

mod common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::call;
use futures_util::StreamExt;
use serde_json::{Value, json};
use tengen_server::AppState;
use tengen_server::guard::Limits;

async fn server(limits: Limits) -> AppState {
    common::memory_server(limits, 2, Duration::from_millis(200)).await
}

async fn friend_game(app: &AppState) -> (String, String, String) {
    let (s, v) =
        call(app, "POST", "/api/games", None, Some(json!({"size": 9, "opponent": "friend", "color": "black"}))).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    (v["id"].as_str().unwrap().into(), v["token"].as_str().unwrap().into(), v["friend_token"].as_str().unwrap().into())
}

/// A friend game of five moves (E5 C3 G7 J1 D4); resigned by White unless `resign` is false.
async fn five_moves(app: &AppState, resign: bool) -> String {
    let (id, black, white) = friend_game(app).await;
    for (n, (token, mv)) in
        [(&black, "E5"), (&white, "C3"), (&black, "G7"), (&white, "J1"), (&black, "D4")].iter().enumerate()
    {
        let (s, v) = call(
            app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(token),
            Some(json!({"move": mv, "number": n + 1})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    if resign {
        assert_eq!(call(app, "POST", &format!("/api/games/{id}/resign"), Some(&white), None).await.0, StatusCode::OK);
    }
    id
}

/// Imports an SGF record: its game id.
async fn import(app: &AppState, sgf: &str) -> String {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let req = axum::http::Request::post("/api/games/import").body(axum::body::Body::from(sgf.to_owned())).unwrap();
    let response = tengen_server::app(app.clone()).oneshot(req).await.unwrap();
    let status = response.status();
    let body: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn analysis_is_refused_where_it_must_be() {
    let app = server(common::roomy()).await;
    let playing = five_moves(&app, false).await;
    let ended = five_moves(&app, true).await;
    for (body, status, reason) in [
        (json!({"game": playing}), StatusCode::CONFLICT, Some("in_play")),
        (json!({"game": ended, "rules": "japanese"}), StatusCode::UNPROCESSABLE_ENTITY, Some("rules")),
        (json!({"game": ended, "seconds": 61}), StatusCode::UNPROCESSABLE_ENTITY, Some("seconds")),
        (json!({"game": ended, "seconds": 0}), StatusCode::UNPROCESSABLE_ENTITY, Some("seconds")),
        (json!({"game": ended, "at": 6}), StatusCode::UNPROCESSABLE_ENTITY, Some("at")),
        (json!({"game": ended, "at": 2, "then": ["E5"]}), StatusCode::UNPROCESSABLE_ENTITY, Some("occupied")),
        (json!({"game": ended, "then": ["Z9"]}), StatusCode::UNPROCESSABLE_ENTITY, Some("off_board")),
        (json!({"game": ended, "then": ["E55"]}), StatusCode::UNPROCESSABLE_ENTITY, Some("move")),
        (json!({"game": "0123456789abcdef"}), StatusCode::NOT_FOUND, None),
        (json!({"game": ended, "size": 9}), StatusCode::UNPROCESSABLE_ENTITY, Some("position")),
        (json!({"size": 30}), StatusCode::BAD_REQUEST, Some("size")),
        (json!({"size": 9, "moves": ["E5", "E5"]}), StatusCode::UNPROCESSABLE_ENTITY, Some("occupied")),
        (json!({"sgf": "(;SZ[9];B[ee];W[ee])"}), StatusCode::UNPROCESSABLE_ENTITY, Some("sgf_replay")),
        (json!({"sgf": "not sgf"}), StatusCode::BAD_REQUEST, Some("sgf_none")),
        (json!({"sgf": "(;SZ[x];B[ee])"}), StatusCode::UNPROCESSABLE_ENTITY, Some("sgf_replay")),
        (json!({"size": 9, "komi": 7.3}), StatusCode::BAD_REQUEST, Some("komi")),
        (json!({"size": 9, "visits": 0}), StatusCode::UNPROCESSABLE_ENTITY, Some("visits")),
        (json!({"size": 9, "visits": 100_001}), StatusCode::UNPROCESSABLE_ENTITY, Some("visits")),
        (json!({"size": 9, "playouts": 3}), StatusCode::BAD_REQUEST, None),
    ] {
        let (s, v) = call(&app, "POST", "/api/analysis", None, Some(body.clone())).await;
        assert_eq!((s, v["reason"].as_str()), (status, reason), "{body}: {v}");
    }
    // A komi the API document allows the range of but not the step of is told so: one check,
    // the same sentence as a new game's.
    let (s, v) = call(&app, "POST", "/api/analysis", None, Some(json!({"size": 9, "komi": 7.25}))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["detail"], "komi must be a multiple of ½ point from -361 to 361, not 7.25", "{v}");
    // A record that does not replay names the move, its point and colour, and the rules' cause.
    let (_, v) = call(&app, "POST", "/api/analysis", None, Some(json!({"sgf": "(;SZ[9];B[ee];W[ee])"}))).await;
    assert_eq!(
        (v["number"].as_u64(), v["cause"].as_str(), v["point"].as_str(), v["color"].as_str()),
        (Some(2), Some("occupied"), Some("E5"), Some("white")),
        "{v}"
    );
    // The sentence of the rules names the move of the line.
    let (_, v) = call(&app, "POST", "/api/analysis", None, Some(json!({"game": ended, "at": 2, "then": ["E5"]}))).await;
    assert!(v["detail"].as_str().unwrap().contains("then: move 1 (black E5)"), "{v}");
    assert_eq!(call(&app, "GET", "/api/analysis/0123456789abcdef", None, None).await.0, StatusCode::NOT_FOUND);
    assert!(app.analyses().is_empty(), "no refusal leaves an analysis behind");
}

#[tokio::test]
async fn each_address_and_the_server_run_a_bounded_number() {
    let app = server(Limits { analyses_per_client: 2, analyses: 3, ..common::roomy() }).await;
    let start = || call(&app, "POST", "/api/analysis", None, Some(json!({"size": 9, "seconds": 20})));
    let (a, b) = (start().await, start().await);
    let second = b.1["id"].as_str().unwrap().to_owned();
    assert_eq!((a.0, b.0), (StatusCode::CREATED, StatusCode::CREATED), "{} {}", a.1, b.1);
    let (s, v) = start().await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    // Stopped, it no longer counts.
    let id = a.1["id"].as_str().unwrap();
    assert_eq!(call(&app, "POST", &format!("/api/analysis/{id}/stop"), None, None).await.0, StatusCode::OK);
    let started = Instant::now();
    loop {
        let (_, v) = call(&app, "GET", &format!("/api/analysis/{id}"), None, None).await;
        if v["done"] == true {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the stop was not heard: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (s, c) = start().await;
    assert_eq!(s, StatusCode::CREATED);
    let busy = server(Limits { analyses_per_client: 5, analyses: 1, ..common::roomy() }).await;
    let one = call(&busy, "POST", "/api/analysis", None, Some(json!({"size": 9}))).await;
    assert_eq!(one.0, StatusCode::CREATED);
    let (s, v) = call(&busy, "POST", "/api/analysis", None, Some(json!({"size": 9}))).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    for (app, id) in
        [(&app, second.as_str()), (&app, c["id"].as_str().unwrap()), (&busy, one.1["id"].as_str().unwrap())]
    {
        assert_eq!(call(app, "POST", &format!("/api/analysis/{id}/stop"), None, None).await.0, StatusCode::OK);
    }
}

#[tokio::test]
async fn the_stream_shows_candidates_within_a_second_and_updates_often() {
    let app = server(common::roomy()).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = tengen_server::app(app.clone());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let id = five_moves(&app, true).await;

    let asked = Instant::now();
    let (s, first) =
        call(&app, "POST", "/api/analysis", None, Some(json!({"game": id, "at": 3, "then": ["C7"], "seconds": 3})))
            .await;
    assert_eq!(s, StatusCode::CREATED, "{first}");
    assert_eq!((first["done"].as_bool(), first["to_move"].as_str()), (Some(false), Some("black")), "{first}");
    let aid = first["id"].as_str().unwrap().to_owned();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/analysis/{aid}/live")).await.unwrap();
    let mut candidates_at = None;
    let mut updates = Vec::new();
    let mut last = Value::Null;
    while let Some(Ok(msg)) = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap() {
        if !msg.is_text() {
            continue;
        }
        let snapshot: Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
        if candidates_at.is_none() && snapshot["candidates"].as_array().is_some_and(|c| !c.is_empty()) {
            candidates_at = Some(asked.elapsed());
        }
        updates.push(asked.elapsed());
        last = snapshot;
    }
    let candidates_at = candidates_at.expect("candidates came");
    // Over the search's 3 s: snapshots about every quarter second.
    let running: Vec<_> = updates.iter().filter(|t| **t > candidates_at).collect();
    let per_second = running.len() as f64 / (updates.last().unwrap().as_secs_f64() - candidates_at.as_secs_f64());
    // The figures for the measurement log; the bars (1 s, twice a second) are not asserted
    // here, where other tests share the machine: only that the stream runs and keeps coming.
    println!("first candidates after {candidates_at:?}; {per_second:.1} updates a second");
    assert!(candidates_at < Duration::from_secs(3), "first candidates after {candidates_at:?}");
    assert!(running.len() >= 3, "{} snapshots after the first candidates", running.len());
    assert_eq!(last["done"], true, "{last}");
    let best = &last["candidates"][0];
    assert!(best["visits"].as_u64().unwrap() > 100, "{best}");
    let wr = best["winrate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&wr), "{best}");
    assert_eq!(best["pv"][0], best["move"], "{best}");
    // Candidates are points left empty by E5 C3 G7 and C7.
    for c in last["candidates"].as_array().unwrap() {
        assert!(!["E5", "C3", "G7", "C7"].contains(&c["move"].as_str().unwrap()), "{c}");
    }
    // Ownership: nine rows of nine, Black's stones leaning Black's way (E5 is row 4 from the top).
    let own = last["ownership"].as_array().unwrap();
    assert_eq!((own.len(), own[0].as_array().unwrap().len()), (9, 9));
    assert!(own[4][4].as_f64().unwrap() > 0.3, "E5 is Black's: {}", own[4][4]);
    assert!(own[6][2].as_f64().unwrap() < -0.3, "C3 is White's: {}", own[6][2]);
}

#[tokio::test]
async fn variations_are_played_refused_and_written_into_the_sgf() {
    let app = server(common::roomy()).await;
    let id = five_moves(&app, true).await;
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}?at=3&then=C7,D7"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], 5);
    assert_eq!(v["history"][3]["move"], "C7");
    assert_eq!(v["history"][4]["color"], "black");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}?at=3&then=C7,E5"), None, None).await;
    assert_eq!(
        (s, v["reason"].as_str(), v["point"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("occupied"), Some("E5"))
    );
    // Without `at`: from the last position (the resigned game plays on in the variation).
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}?then=C7"), None, None).await;
    assert_eq!((s, &v["moves"], &v["history"][5]["move"]), (StatusCode::OK, &json!(6), &json!("C7")), "{v}");
    let playing = five_moves(&app, false).await;
    let (s, v) = call(&app, "GET", &format!("/api/games/{playing}?at=3&then=C7"), None, None).await;
    assert_eq!((s, v["reason"].as_str()), (StatusCode::CONFLICT, Some("in_play")));
    // Nor are variations written into the record of a game in play; its record alone is served.
    let line = json!({"variations": [{"at": 3, "moves": ["C7"]}]});
    let (s, v) = call(&app, "POST", &format!("/api/games/{playing}/sgf"), None, Some(line)).await;
    assert_eq!((s, v["reason"].as_str()), (StatusCode::CONFLICT, Some("in_play")), "{v}");
    let (s, v) = call(&app, "POST", &format!("/api/games/{playing}/sgf"), None, Some(json!({}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");

    let lines = json!({"variations": [
        {"at": 3, "moves": ["C7", "D7"]},
        {"at": 3, "moves": ["C7", "B7"]},
        {"at": 0, "moves": ["D5"]},
    ]});
    let (s, sgf) = call(&app, "POST", &format!("/api/games/{id}/sgf"), None, Some(lines)).await;
    assert_eq!(s, StatusCode::OK, "{sgf}");
    let sgf = sgf.as_str().unwrap();
    assert!(sgf.contains("(;W[cc](;B[dc])(;B[bc]))"), "{sgf}");
    assert!(sgf.contains("(;B[de])"), "{sgf}");
    let record = tengen_sgf::Record::read(sgf).unwrap();
    assert_eq!(record.main_line().count(), 6, "{sgf}");
    // A variation from the last position branches one move earlier, repeating the last move:
    // the main line keeps the game's five moves.
    let lines = json!({"variations": [{"at": 5, "moves": ["C7"]}]});
    let (s, sgf) = call(&app, "POST", &format!("/api/games/{id}/sgf"), None, Some(lines)).await;
    assert_eq!(s, StatusCode::OK, "{sgf}");
    let record = tengen_sgf::Record::read(sgf.as_str().unwrap()).unwrap();
    assert_eq!(record.main_line().count(), 6, "{sgf}");
    assert_eq!(record.variation_lines(9, 10).len(), 1, "{sgf}");
    assert_eq!(record.variation_lines(9, 10)[0].at, 4, "{sgf}");
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/sgf"),
        None,
        Some(json!({"variations": [{"at": 1, "moves": ["E5"]}]})),
    )
    .await;
    assert_eq!((s, v["reason"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("occupied")), "{v}");
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/sgf"),
        None,
        Some(json!({"variations": [{"at": 9, "moves": []}]})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn imported_records_show_their_information_comments_and_rules() {
    let app = server(common::roomy()).await;
    let sgf = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Honinbo]BR[9p]PW[Meijin]WR[8p]DT[1846-09-11]\
               EV[Castle game]RO[1]RE[B+2]C[A famous game];B[ee]C[the centre];W[cc](;B[gg]C[solid])(;B[gc]))";
    let id = import(&app, sgf).await;
    let (s, info) = call(&app, "GET", &format!("/api/games/{id}/info"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{info}");
    assert_eq!(info["rules"], "Japanese");
    assert_eq!(info["result"], "B+2");
    assert_eq!((info["black"].as_str(), info["black_rank"].as_str()), (Some("Honinbo"), Some("9p")));
    assert_eq!((info["white"].as_str(), info["white_rank"].as_str()), (Some("Meijin"), Some("8p")));
    assert_eq!(
        (info["date"].as_str(), info["event"].as_str(), info["round"].as_str()),
        (Some("1846-09-11"), Some("Castle game"), Some("1"))
    );
    assert_eq!(info["komi"], 6.5);
    assert_eq!(info["variations"], 1);
    assert_eq!(info["lines"], json!([{"at": 2, "moves": ["G7"]}]), "the record's variation as a line");
    assert_eq!(
        info["comments"],
        json!([{"number": 0, "text": "A famous game"}, {"number": 1, "text": "the centre"}, {"number": 3, "text": "solid"}])
    );
    // Record information is served as printable text: a bidirectional override, a bell and a
    // line break in an imported record do not reach a page.
    let sgf = "(;GM[1]FF[4]SZ[9]EV[Cup\u{202E}reversed\u{7}]RO[1\n2]BR[ \u{200B} ];B[ee])";
    let odd = import(&app, sgf).await;
    let (s, info) = call(&app, "GET", &format!("/api/games/{odd}/info"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{info}");
    assert_eq!((info["event"].as_str(), info["round"].as_str()), (Some("Cupreversed"), Some("1 2")), "{info}");
    assert_eq!(info["black_rank"], Value::Null, "{info}");
    // A played game says its own.
    let played = five_moves(&app, true).await;
    let (_, info) = call(&app, "GET", &format!("/api/games/{played}/info"), None, None).await;
    assert_eq!(
        (info["rules"].as_str(), info["result"].as_str(), info["imported"].as_bool()),
        (Some("Chinese"), Some("B+R"), Some(false))
    );
    // The record's variations stay in its SGF, and new ones join them.
    let (s, out) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/sgf"),
        None,
        Some(json!({"variations": [{"at": 2, "moves": ["D6"]}]})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let out = out.as_str().unwrap();
    assert!(out.contains("W[cc](;B[gg]C[solid])(;B[gc])(;B[dd]))"), "{out}");
}
