//! The API through the router (no socket), the WebSocket through a real one, and the
//! database (SQLite) across a restart.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{call, drop_postgres, postgres, wait_for};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tengen_server::guard::Limits;
use tengen_server::{AppState, Settings, Store};

mod common;
use tower::ServiceExt;

/// Each test runs on SQLite (in memory, or a file when it restarts) and on PostgreSQL.
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    let dir = std::env::temp_dir()
                        .join(format!("tengen-server-{}-{}", std::process::id(), stringify!($name)));
                    let _ = std::fs::remove_dir_all(&dir);
                    std::fs::create_dir_all(&dir).unwrap();
                    super::$name(&format!("sqlite://{}", dir.join("games.db").display())).await;
                    let _ = std::fs::remove_dir_all(&dir);
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let db = super::postgres().await;
                    super::$name(&db).await;
                    super::drop_postgres(&db).await;
                }
            )*
        }
    };
}

on_both_databases!(
    friends_play_and_every_bad_request_changes_nothing,
    two_passes_proposal_toggle_and_agreement,
    the_computer_answers_and_undo_takes_back_both_moves,
    handicap_and_rang_xian,
    games_survive_a_restart_and_records_travel_as_sgf,
    clocks_run_out,
    the_openapi_document_lists_the_api,
    watchers_see_every_move_live,
    downtime_is_not_charged,
    the_commentary_names_every_move,
    seats_name_themselves_and_refusals_carry_codes,
    the_computer_judges_the_marking_it_is_asked_to_accept,
    reviews_are_queued_worked_once_and_served,
    review_leases_run_out_and_pass_to_another_worker,
    reviews_are_cancelled_by_who_asked_queued_or_running,
    the_computers_moves_go_through_the_database_when_shared,
);

async fn state(db: &str) -> AppState {
    let settings = Settings {
        searches: 2,
        max_think: Duration::from_millis(200),
        network: None,
        limits: common::roomy(),
        review_workers: 0,
        shared_moves: false,
    };
    AppState::new(Store::open(db).await.unwrap(), settings)
}

async fn create(app: &AppState, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/games", None, Some(body)).await
}

async fn friend_game(app: &AppState) -> (String, String, String) {
    let (status, created) =
        call(app, "POST", "/api/games", None, Some(json!({"size": 9, "opponent": "friend", "color": "black"}))).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    (id, created["token"].as_str().unwrap().to_owned(), created["friend_token"].as_str().unwrap().to_owned())
}

async fn play(app: &AppState, id: &str, token: &str, mv: &str, number: u64) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/games/{id}/move"), Some(token), Some(json!({"move": mv, "number": number}))).await
}

async fn friends_play_and_every_bad_request_changes_nothing(db: &str) {
    let app = state(db).await;
    let (id, black, white) = friend_game(&app).await;
    assert_eq!(play(&app, &id, &black, "E5", 1).await.0, StatusCode::OK);
    let (_, before) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    for (token, body, status, says) in [
        (Some(black.as_str()), json!({"move": "D4", "number": 2}), StatusCode::UNPROCESSABLE_ENTITY, "turn"),
        (Some(white.as_str()), json!({"move": "E5", "number": 2}), StatusCode::UNPROCESSABLE_ENTITY, "occupied"),
        (Some(white.as_str()), json!({"move": "D4", "number": 1}), StatusCode::CONFLICT, "stale"),
        (Some(white.as_str()), json!({"move": "I5", "number": 2}), StatusCode::BAD_REQUEST, "invalid"),
        (Some(white.as_str()), json!({"move": "Z9", "number": 2}), StatusCode::UNPROCESSABLE_ENTITY, "board"),
        (Some(white.as_str()), json!({"move": "J10", "number": 2}), StatusCode::UNPROCESSABLE_ENTITY, "board"),
        (Some(white.as_str()), json!({"move": "D4", "number": 2, "x": 1}), StatusCode::BAD_REQUEST, "unknown field"),
        (Some("0123"), json!({"move": "D4", "number": 2}), StatusCode::FORBIDDEN, "not a seat"),
        (None, json!({"move": "D4", "number": 2}), StatusCode::UNAUTHORIZED, "seat token"),
    ] {
        let (s, v) = call(&app, "POST", &format!("/api/games/{id}/move"), token, Some(body.clone())).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(v["detail"].as_str().unwrap().contains(says), "{body}: {v}");
        assert!(v["error"].is_string());
    }
    let (_, after) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(before, after, "refused requests change nothing");
    // A huge body is refused before it is read.
    let huge = json!({"move": "D4", "number": 2, "pad": "x".repeat(100_000)});
    let (s, v) = call(&app, "POST", &format!("/api/games/{id}/move"), Some(&white), Some(huge)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert_eq!(v["detail"], "the body is larger than 65536 bytes, the most this address takes");
    assert_eq!(call(&app, "GET", "/api/games/nope", None, None).await.0, StatusCode::NOT_FOUND);
    // Undo between friends: a request, then an answer from the other seat.
    assert_eq!(play(&app, &id, &white, "C3", 2).await.0, StatusCode::OK);
    let (s, v) = call(&app, "POST", &format!("/api/games/{id}/undo"), Some(&white), None).await;
    assert_eq!((s, v["undo_request"].as_str()), (StatusCode::OK, Some("white")));
    let (s, _) = call(&app, "POST", &format!("/api/games/{id}/undo/accept"), Some(&white), None).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "not one's own request");
    let (s, v) = call(&app, "POST", &format!("/api/games/{id}/undo/accept"), Some(&black), None).await;
    assert_eq!((s, v["moves"].as_u64(), v["to_move"].as_str()), (StatusCode::OK, Some(1), Some("white")));
    // The recent list shows it.
    let (_, list) = call(&app, "GET", "/api/games?limit=5", None, None).await;
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(call(&app, "GET", "/api/games?limit=0", None, None).await.0, StatusCode::BAD_REQUEST);
}

async fn two_passes_proposal_toggle_and_agreement(db: &str) {
    let app = state(db).await;
    let (id, black, white) = friend_game(&app).await;
    for (n, (token, mv)) in [(&black, "E5"), (&white, "A1"), (&black, "pass"), (&white, "pass")].iter().enumerate() {
        assert_eq!(play(&app, &id, token, mv, n as u64 + 1).await.0, StatusCode::OK);
    }
    // The engine's proposal arrives as an event of its own.
    let view = wait_for(&app, &id, |v| v["phase"] == "counting" && v["events"].as_u64() == Some(5)).await;
    let proposed: Vec<String> = serde_json::from_value(view["dead"].clone()).unwrap();
    // Whatever it proposed, the players settle it: A1 dead.
    if !proposed.contains(&"A1".to_owned()) {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/toggle"),
            Some(&black),
            Some(json!({"point": "A1", "dead": true})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/toggle"),
        Some(&black),
        Some(json!({"point": "B2", "dead": true})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let marked = json!({"dead": ["A1"]});
    let (_, v) = call(&app, "POST", &format!("/api/games/{id}/accept"), Some(&white), Some(marked.clone())).await;
    assert_eq!(v["phase"], "counting");
    assert_eq!(v["score"]["black_text"], "黑 81 子");
    let (_, v) = call(&app, "POST", &format!("/api/games/{id}/accept"), Some(&black), Some(marked)).await;
    assert_eq!(v["phase"], "ended");
    assert_eq!(v["result"], "B+73.5");
    assert!(v["result_zh"].as_str().unwrap().starts_with("黑胜"), "{v}");
    let (_, sgf) = call(&app, "GET", &format!("/api/games/{id}/sgf"), None, None).await;
    let sgf = sgf.as_str().unwrap();
    assert!(sgf.contains("RE[B+73.5]") && sgf.contains(";B[ee]") && sgf.contains(";W[ai]"), "{sgf}");
}

async fn the_computer_answers_and_undo_takes_back_both_moves(db: &str) {
    let app = state(db).await;
    let (s, created) = create(&app, json!({"size": 9, "opponent": {"computer": {"level": 1}}, "color": "black"})).await;
    assert_eq!(s, StatusCode::CREATED);
    assert!(created["friend_token"].is_null());
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    assert_eq!(play(&app, id, token, "E5", 1).await.0, StatusCode::OK);
    let view = wait_for(&app, id, |v| v["moves"] == 2).await;
    assert_eq!(view["history"][1]["color"], "white");
    assert_eq!(view["to_move"], "black");
    let (s, v) = call(&app, "POST", &format!("/api/games/{id}/undo"), Some(token), None).await;
    assert_eq!((s, v["moves"].as_u64()), (StatusCode::OK, Some(0)), "{v}");
    // The computer as Black opens by itself.
    let (_, created) = create(&app, json!({"size": 9, "color": "white", "opponent": {"computer": {"level": 1}}})).await;
    let id = created["id"].as_str().unwrap();
    wait_for(&app, id, |v| v["moves"] == 1 && v["to_move"] == "white").await;
    // Nigiri: the guess and the handful are shown, and they decide the colour.
    let (_, created) = create(&app, json!({"size": 9, "guess": "even"})).await;
    let nigiri = &created["game"]["nigiri"];
    let even = nigiri["handful"].as_u64().unwrap() % 2 == 0;
    assert_eq!(nigiri["guess_odd"], false);
    assert_eq!(created["color"], if even { "black" } else { "white" });
    // 400: outside the API document; 422: inside it, refused by the rules.
    let (bad, refused) = (StatusCode::BAD_REQUEST, StatusCode::UNPROCESSABLE_ENTITY);
    for (body, status, says) in [
        (json!({"size": 30}), bad, "board size"),
        (json!({"handicap": 1}), refused, "handicap"),
        (json!({"handicap": 2, "rang_xian": true}), refused, "让先"),
        (
            json!({"rules": "japanese"}),
            bad,
            "unknown variant `japanese`, expected one of `chinese`, `chinese-simple-ko`, `tromp-taylor`",
        ),
        (json!({"rules": "ing"}), bad, "unknown variant `ing`"),
        (json!({"time": {"kind": "absolute", "main": 60, "extra": 1}}), bad, "unknown field `extra`"),
        (json!({"opponent": {"computer": {"level": 3, "x": 1}}}), bad, "unknown field `x`"),
        (json!({"size": 2, "handicap": 9, "placement": "free"}), refused, "takes no handicap stones"),
        (json!({"black_name": "a\u{202e}b"}), refused, "black_name: a name is of printable characters only"),
        (json!({"white_name": "\u{200b}".repeat(40)}), refused, "white_name: a name is of printable"),
        (json!({"black_name": "  "}), refused, "black_name: a name cannot be empty"),
        (json!({"color": "red"}), bad, "color"),
        (json!({"color": "Black"}), bad, "unknown variant `Black`"),
        (json!({"komi": 7.25}), bad, "komi must be a multiple of ½ point from -361 to 361, not 7.25"),
        (json!({"komi": 400}), bad, "komi must be a multiple of ½ point from -361 to 361, not 400"),
        (json!({"opponent": {"computer": {"level": 0}}}), bad, "level"),
        (
            json!({"time": {"kind": "byoyomi", "main": 0, "period": 0, "periods": 1}}),
            bad,
            "time control: a byo-yomi period",
        ),
        (json!({"sizee": 9}), bad, "unknown field"),
    ] {
        let (s, v) = create(&app, body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        let detail = v["detail"].as_str().unwrap();
        assert!(detail.contains(says), "{body}: {v}");
        assert!(!detail.contains("Some(") && !detail.contains(" { "), "a sentence, not debug output: {detail}");
    }
}

async fn the_computers_moves_go_through_the_database_when_shared(db: &str) {
    let settings = Settings {
        searches: 1,
        max_think: Duration::from_millis(200),
        network: None,
        limits: Limits { computer_moves: 1, ..common::roomy() },
        review_workers: 0,
        shared_moves: true,
    };
    let app = AppState::new(Store::open(db).await.unwrap(), settings);
    // No worker yet: the computer's opening waits in the database.
    let (_, created) = create(&app, json!({"size": 9, "color": "white", "opponent": {"computer": {"level": 1}}})).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let queued = Instant::now();
    while app.store().jobs_of(tengen_server::store::JobKind::Move, "127.0.0.1", "").await.unwrap() != 1 {
        assert!(queued.elapsed() < Duration::from_secs(5), "the opening was not queued");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The client's share of the computer's work counts the shared jobs.
    let (s, v) = create(&app, json!({"size": 9, "color": "white", "opponent": {"computer": {"level": 1}}})).await;
    assert_eq!((s, v["error"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_requests")), "{v}");
    app.start_computer_workers(Duration::from_secs(2), true);
    let view = wait_for(&app, &id, |v| v["moves"] == 1).await;
    assert_eq!(view["history"][0]["color"], "black");
    assert_eq!(play(&app, &id, &token, "C3", 2).await.0, StatusCode::OK);
    wait_for(&app, &id, |v| v["moves"] == 3 && v["to_move"] == "white").await;
    // Done jobs leave nothing behind (the metrics count every row of the jobs' table).
    let started = Instant::now();
    while app.computer_queue().await.unwrap() != (0, 0) {
        assert!(started.elapsed() < Duration::from_secs(5), "a job stayed: {:?}", app.computer_queue().await);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn handicap_and_rang_xian(db: &str) {
    let app = state(db).await;
    let (_, c) = create(&app, json!({"size": 19, "opponent": "friend", "color": "black", "handicap": 4})).await;
    let g = &c["game"];
    assert_eq!(
        (g["handicap"].as_u64(), g["komi"].as_f64(), g["to_move"].as_str()),
        (Some(4), Some(0.0), Some("white"))
    );
    assert_eq!(g["handicap_stones"].as_array().unwrap().len(), 4);
    let (_, c) = create(&app, json!({"size": 9, "opponent": "friend", "color": "black", "rang_xian": true})).await;
    assert_eq!((c["game"]["komi"].as_f64(), c["game"]["komi_zh"].as_str()), (Some(0.0), Some("贴 0 子")));
    // Free placement: Black places, then White moves.
    let (_, c) =
        create(&app, json!({"size": 9, "opponent": "friend", "color": "black", "handicap": 2, "placement": "free"}))
            .await;
    let (id, black) = (c["id"].as_str().unwrap(), c["token"].as_str().unwrap());
    assert_eq!(c["game"]["phase"], "placing");
    let (s, _) =
        call(&app, "POST", &format!("/api/games/{id}/handicap"), Some(black), Some(json!({"points": ["C3"]}))).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let (s, v) =
        call(&app, "POST", &format!("/api/games/{id}/handicap"), Some(black), Some(json!({"points": ["C3", "G7"]})))
            .await;
    assert_eq!((s, v["phase"].as_str(), v["to_move"].as_str()), (StatusCode::OK, Some("playing"), Some("white")));
}

async fn games_survive_a_restart_and_records_travel_as_sgf(db: &str) {
    let (id, black, white, before) = {
        let app = state(db).await;
        let (id, black, white) = friend_game(&app).await;
        for (n, (t, m)) in [(&black, "E5"), (&white, "E4"), (&black, "D4")].iter().enumerate() {
            assert_eq!(play(&app, &id, t, m, n as u64 + 1).await.0, StatusCode::OK);
        }
        let (_, view) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        (id, black, white, view)
    };
    // A new server on the same database: the game, its seats and its log are there.
    let app = state(db).await;
    assert_eq!(app.resume_all().await.unwrap(), 1);
    let (_, after) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(before, after);
    assert_eq!(play(&app, &id, &white, "F4", 4).await.0, StatusCode::OK);
    assert_eq!(play(&app, &id, &black, "F5", 5).await.0, StatusCode::OK);
    // Export, import: the imported game shows the same moves, for review only.
    let (_, sgf) = call(&app, "GET", &format!("/api/games/{id}/sgf"), None, None).await;
    let request = Request::post("/api/games/import").body(Body::from(sgf.as_str().unwrap().to_owned())).unwrap();
    let response = tengen_server::app(app.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let imported: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(imported["imported"], true);
    assert_eq!(imported["moves"], 5);
    let (_, original) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(imported["board"], original["board"]);
    let import_id = imported["id"].as_str().unwrap();
    let (s, v) = play(&app, import_id, &black, "A1", 6).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    let request = Request::post("/api/games/import").body(Body::from("(;GM[3])")).unwrap();
    let response = tengen_server::app(app.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // A record whose fourth move retakes a ko after two passes (a repetition under the Chinese
    // rules, whatever its RU says) is refused with the move named, not imported shorter.
    let ko = "(;GM[1]FF[4]SZ[5]KM[0.5]RU[GOE]AB[bc][ad][be]AW[cc][bd][dd][ce];B[cd];W[];B[];W[bd])";
    let request = Request::post("/api/games/import").body(Body::from(ko)).unwrap();
    let response = tengen_server::app(app.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let refusal: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let detail = refusal["detail"].as_str().unwrap();
    assert!(detail.contains("move 4") && detail.contains("superko"), "{detail}");
    // A finished 9×9 game (recorded B+0.5): C6, self-atari for Black only until C5 is filled,
    // is dame in the server's count too.
    let dame = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]AB[ga][ia][fb][gb][hb][ib][fc][gc][hc][ic][ed][fd][gd][hd][id]\
        [ge][he][ie][af][bf][hf][bg][gg][ig][ah][bh][ch][fh][gh][hh][ai][ci][fi][hi][ii]AW[aa][ca][da][ea][fa][bb][cb]\
        [db][eb][ac][cc][dc][ec][ad][bd][dd][be][de][ee][fe][df][ef][ff][gf][dg][eg][fg][dh][eh][di][ei];B[];W[])";
    let request = Request::post("/api/games/import").body(Body::from(dame)).unwrap();
    let response = tengen_server::app(app.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let view: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(view["score"]["result"], "B+0.5", "{view}");
    assert_eq!(view["score"]["black"], 44.5, "{view}");
}

async fn clocks_run_out(db: &str) {
    let app = state(db).await;
    let (_, c) = create(
        &app,
        json!({"size": 9, "opponent": "friend", "color": "black",
                    "time": {"kind": "byoyomi", "main": 0, "period": 1, "periods": 1}}),
    )
    .await;
    let (id, black) = (c["id"].as_str().unwrap(), c["token"].as_str().unwrap());
    // Between friends the clocks wait for the first stone (the friend may not be there yet).
    assert_eq!(c["game"]["clock_running"], Value::Null);
    assert_eq!(c["game"]["clocks"]["black"]["last_period"], true);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    app.check_clocks().await;
    assert_eq!(play(&app, id, black, "E5", 1).await.0, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    app.check_clocks().await;
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!((v["phase"].as_str(), v["result"].as_str()), (Some("ended"), Some("B+T")), "{v}");
}

async fn the_openapi_document_lists_the_api(db: &str) {
    let app = state(db).await;
    let (s, doc) = call(&app, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(s, StatusCode::OK);
    for path in [
        "/api/games",
        "/api/games/{id}",
        "/api/games/{id}/move",
        "/api/games/{id}/live",
        "/api/games/import",
        "/api/games/{id}/terms",
        "/api/games/{id}/name",
        "/api/levels",
    ] {
        assert!(doc["paths"][path].is_object(), "{path}");
    }
    assert!(doc["components"]["schemas"]["View"].is_object());
    // Without a network every level is the playout search, each with its measured strength.
    let (s, levels) = call(&app, "GET", "/api/levels", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), 10);
    assert!(levels.iter().all(|l| l["search"] == "playout" && l["strength"].as_str().is_some_and(|s| !s.is_empty())));
    assert_eq!(levels[0]["budget"], "16 simulations a move, the move drawn among those searched");
    assert_eq!(levels[4]["budget"], "1000 simulations a move");
}

async fn the_commentary_names_every_move(db: &str) {
    let app = state(db).await;
    let (id, black, white) = friend_game(&app).await;
    // E5 (天元), an attachment, a hane that is an atari, and a pass.
    for (n, (token, mv)) in [(&black, "E5"), (&white, "E4"), (&black, "D4"), (&white, "pass")].into_iter().enumerate() {
        assert_eq!(play(&app, &id, token, mv, n as u64 + 1).await.0, StatusCode::OK, "{mv}");
    }
    let (s, c) = call(&app, "GET", &format!("/api/games/{id}/terms"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{c}");
    let names = |i: usize| -> Vec<String> {
        c["moves"][i]["terms"].as_array().unwrap().iter().map(|t| t["zh"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(c["moves"].as_array().unwrap().len(), 4);
    assert_eq!(c["moves"][0]["number"], 1);
    assert_eq!(c["moves"][0]["color"], "black");
    assert_eq!(c["moves"][0]["move"], "E5");
    assert_eq!(names(0), ["天元", "星", "中腹"]);
    assert_eq!(names(1), ["碰", "中腹"]);
    assert_eq!(names(2), ["扳", "中腹"]);
    assert!(names(3).is_empty(), "a pass has no names");
    assert_eq!(c["moves"][0]["terms"][0]["en"], "centre point");
    assert_eq!(c["moves"][0]["terms"][0]["kind"], "position");
    assert_eq!(call(&app, "GET", "/api/games/nope/terms", None, None).await.0, StatusCode::NOT_FOUND);
}

async fn watchers_see_every_move_live(db: &str) {
    use futures_util::StreamExt;
    let app = state(db).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = tengen_server::app(app.clone());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let (id, black, white) = friend_game(&app).await;
    let (mut ws1, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/live")).await.unwrap();
    let (mut ws2, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/live")).await.unwrap();
    for ws in [&mut ws1, &mut ws2] {
        let first: Value = serde_json::from_str(ws.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
        assert_eq!(first["moves"], 0);
    }
    let mut slowest = Duration::ZERO;
    for (n, (t, m)) in [(&black, "E5"), (&white, "C3"), (&black, "G7")].iter().enumerate() {
        let sent = Instant::now();
        assert_eq!(play(&app, &id, t, m, n as u64 + 1).await.0, StatusCode::OK);
        for ws in [&mut ws1, &mut ws2] {
            let msg = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.unwrap().unwrap().unwrap();
            let view: Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
            assert_eq!(view["moves"], n as u64 + 1);
            assert_eq!(view["history"][n]["move"], *m);
            slowest = slowest.max(sent.elapsed());
        }
    }
    println!("slowest update (commit included): {slowest:?}");
    // An unknown game cannot be watched.
    assert!(tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/nope/live")).await.is_err());
}

#[tokio::test]
async fn two_servers_share_one_postgres_database() {
    use futures_util::StreamExt;
    let db = postgres().await;
    let (a, b) = (state(&db).await, state(&db).await);
    a.listen_for_other_servers().await.unwrap();
    b.listen_for_other_servers().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = tengen_server::app(a.clone());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let (id, black, white) = friend_game(&a).await;
    // A watcher on server A sees the moves made through server B.
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/live")).await.unwrap();
    ws.next().await.unwrap().unwrap();
    for (n, (server, token, mv)) in [(&b, &black, "E5"), (&a, &white, "C3"), (&b, &black, "G7")].iter().enumerate() {
        let (s, v) = play(server, &id, token, mv, n as u64 + 1).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("the update arrives")
            .unwrap()
            .unwrap();
        let view: Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
        assert_eq!(view["history"][n]["move"], *mv, "{view}");
    }
    // The same move number sent to both servers at once: exactly one is accepted.
    let (ra, rb) = tokio::join!(play(&a, &id, &white, "D4", 4), play(&b, &id, &white, "F6", 4));
    let statuses = [ra.0, rb.0];
    assert!(statuses.contains(&StatusCode::OK) && statuses.contains(&StatusCode::CONFLICT), "{ra:?} {rb:?}");
    let (_, va) = call(&a, "GET", &format!("/api/games/{id}"), None, None).await;
    let (_, vb) = call(&b, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(va, vb);
    assert_eq!(va["moves"], 4);
    drop_postgres(&db).await;
}

async fn downtime_is_not_charged(db: &str) {
    let (id, white) = {
        let app = state(db).await;
        app.resume_all().await.unwrap();
        let body = json!({"size": 9, "opponent": "friend", "color": "black", "time": {"kind": "absolute", "main": 5}});
        let (_, c) = create(&app, body).await;
        let (id, black) = (c["id"].as_str().unwrap().to_owned(), c["token"].as_str().unwrap().to_owned());
        // Black's first stone starts the clocks: White's runs.
        assert_eq!(play(&app, &id, &black, "E5", 1).await.0, StatusCode::OK);
        app.heartbeat().await.unwrap();
        (id, c["friend_token"].as_str().unwrap().to_owned())
    };
    // Nobody keeps the clocks for 3.5 s: longer than a server may stay silent.
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    let app = state(db).await;
    app.resume_all().await.unwrap();
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let left = v["clocks"]["white"]["remaining_ms"].as_i64().unwrap();
    assert!(left > 4_000, "the downtime was charged: {left} ms left of 5,000");
    assert_eq!(v["events"], 2, "the move and one restart event: {v}");
    assert_eq!(play(&app, &id, &white, "C3", 2).await.0, StatusCode::OK);
}

async fn seats_name_themselves_and_refusals_carry_codes(db: &str) {
    let app = state(db).await;
    let body = json!({"size": 9, "opponent": "friend", "color": "black", "name": " Ke Jie "});
    let (status, created) = create(&app, body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let friend: &'static str = created["friend_token"].as_str().unwrap().to_owned().leak();
    // The creator's name on the creator's colour; the friend's seat unnamed until named.
    assert_eq!(
        (created["game"]["black_name"].as_str(), created["game"]["white_name"].as_str()),
        (Some("Ke Jie"), Some(""))
    );
    let path = format!("/api/games/{id}/name");
    let name = |token: &'static str, name: Value| call(&app, "POST", &path, Some(token), Some(json!({"name": name})));
    let (s, v) = name(friend, json!("李世石")).await;
    assert_eq!((s, v["white_name"].as_str()), (StatusCode::OK, Some("李世石")), "{v}");
    for (bad, code) in
        [(json!("x".repeat(41)), "name_long"), (json!("   "), "name_empty"), (json!("a\u{202e}b"), "name_unprintable")]
    {
        let (s, v) = name(friend, bad.clone()).await;
        assert_eq!((s, v["reason"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(code)), "{bad}: {v}");
    }
    let (s, _) = call(&app, "POST", &format!("/api/games/{id}/name"), None, Some(json!({"name": "x"}))).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "a name is set by a seat");
    // The list and the record carry the names as they are now.
    let (_, list) = call(&app, "GET", "/api/games?limit=5", None, None).await;
    assert_eq!((list[0]["black"].as_str(), list[0]["white"].as_str()), (Some("Ke Jie"), Some("李世石")));
    let (_, sgf) = call(&app, "GET", &format!("/api/games/{id}/sgf"), None, None).await;
    assert!(sgf.as_str().unwrap().contains("PB[Ke Jie]") && sgf.as_str().unwrap().contains("PW[李世石]"), "{sgf}");
    // A refusal names its code and what it names, for a page that words it itself.
    let black = created["token"].as_str().unwrap();
    assert_eq!(play(&app, id, black, "E5", 1).await.0, StatusCode::OK);
    let (s, v) = play(&app, id, friend, "E5", 2).await;
    assert_eq!(
        (s, v["reason"].as_str(), v["point"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("occupied"), Some("E5"))
    );
    let (_, v) = play(&app, id, black, "D4", 2).await;
    assert_eq!((v["reason"].as_str(), v["color"].as_str()), (Some("not_your_turn"), Some("white")), "{v}");
    let (_, v) = play(&app, id, friend, "D4", 1).await;
    assert_eq!(v["reason"], "stale_move", "{v}");
    // A refused undo is told to the asker.
    assert_eq!(play(&app, id, friend, "D4", 2).await.0, StatusCode::OK);
    call(&app, "POST", &format!("/api/games/{id}/undo"), Some(friend), None).await;
    let (_, v) = call(&app, "POST", &format!("/api/games/{id}/undo/reject"), Some(black), None).await;
    assert_eq!((v["undo_request"].as_str(), v["undo_refused"].as_str()), (None, Some("white")), "{v}");
}

async fn the_computer_judges_the_marking_it_is_asked_to_accept(db: &str) {
    let app = state(db).await;
    let (s, created) = create(&app, json!({"size": 9, "opponent": {"computer": {"level": 1}}, "color": "white"})).await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    // The player passes every turn; the computer (Black) plays until the board is settled.
    let mut view = created["game"].clone();
    while view["phase"] != "counting" {
        view = wait_for(&app, id, |v| v["phase"] == "counting" || v["to_move"] == "white").await;
        if view["phase"] == "playing" {
            let (s, v) = play(&app, id, token, "pass", view["moves"].as_u64().unwrap() + 1).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            view = v;
        }
    }
    let view = wait_for(&app, id, |v| {
        v["phase"] == "counting"
            && !v["history"].as_array().unwrap().is_empty()
            && v["events"].as_u64() > view["events"].as_u64()
    })
    .await;
    let proposal = view["dead"].clone();
    // Mark one of the computer's living stones dead and accept: the computer refuses, puts
    // its own proposal back, and names the chain it judges alive.
    let row = view["board"].as_array().unwrap().iter().position(|r| r.as_str().unwrap().contains('X')).unwrap();
    let col = view["board"][row].as_str().unwrap().find('X').unwrap();
    let vertex = format!("{}{}", "ABCDEFGHJ".as_bytes()[col] as char, 9 - row);
    assert!(!proposal.as_array().unwrap().contains(&json!(vertex)), "the computer's own stone {vertex} lives");
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/toggle"),
        Some(token),
        Some(json!({"point": vertex, "dead": true})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) =
        call(&app, "POST", &format!("/api/games/{id}/accept"), Some(token), Some(json!({"dead": v["dead"]}))).await;
    assert_eq!((s, v["phase"].as_str()), (StatusCode::OK, Some("counting")), "{v}");
    assert_eq!(v["dead"], proposal, "its proposal is back in force");
    assert_eq!(v["dispute"]["alive"].as_array().unwrap().len(), 1, "{v}");
    // Its own proposal it accepts.
    let (s, v) =
        call(&app, "POST", &format!("/api/games/{id}/accept"), Some(token), Some(json!({"dead": proposal}))).await;
    assert_eq!((s, v["phase"].as_str()), (StatusCode::OK, Some("ended")), "{v}");
    assert!(v["result"].as_str().unwrap().starts_with("B+"), "{v}");
}

/// A friend game of five moves, resigned by White.
async fn ended_game(app: &AppState) -> String {
    let (id, black, white) = friend_game(app).await;
    for (n, (token, mv)) in
        [(&black, "E5"), (&white, "C3"), (&black, "G7"), (&white, "J1"), (&black, "D4")].iter().enumerate()
    {
        assert_eq!(play(app, &id, token, mv, n as u64 + 1).await.0, StatusCode::OK);
    }
    assert_eq!(call(app, "POST", &format!("/api/games/{id}/resign"), Some(&white), None).await.0, StatusCode::OK);
    id
}

async fn reviews_are_queued_worked_once_and_served(db: &str) {
    let app = state(db).await;
    let review = |id: &str| format!("/api/games/{id}/review");
    // A game in play is not reviewed: its players would see the analysis.
    let (playing, black, _) = friend_game(&app).await;
    assert_eq!(play(&app, &playing, &black, "E5", 1).await.0, StatusCode::OK);
    let (status, body) = call(&app, "POST", &review(&playing), None, None).await;
    assert_eq!((status, body["reason"].as_str()), (StatusCode::CONFLICT, Some("in_play")), "{body}");

    let id = ended_game(&app).await;
    let (status, body) = call(&app, "GET", &review(&id), None, None).await;
    assert_eq!((status, body["state"].as_str()), (StatusCode::OK, Some("none")), "{body}");
    for (ask, reason) in [
        (json!({"playouts": 0}), "strength"),
        (json!({"playouts": 10_000_000}), "strength"),
        (json!({"visits": 8}), "no_network"),
        (json!({"visits": 8, "playouts": 8}), "strength"),
    ] {
        let (status, body) = call(&app, "POST", &review(&id), None, Some(ask.clone())).await;
        assert_eq!(
            (status, body["reason"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(reason)),
            "{ask}: {body}"
        );
    }
    let (status, body) = call(&app, "POST", &review(&id), None, Some(json!({"playouts": 10, "x": 1}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    // Asked: queued, and the game's watchers hear of it.
    let mut watching = app.subscribe(&id);
    let (status, body) = call(&app, "POST", &review(&id), None, Some(json!({"playouts": 200}))).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(
        (body["state"].as_str(), body["engine"].as_str(), body["strength"].as_i64()),
        (Some("queued"), Some("playouts"), Some(200))
    );
    let heard: Value = serde_json::from_str(&watching.recv().await.unwrap()).unwrap();
    assert_eq!(heard["review"]["state"], "queued", "{heard}");

    // A worker takes it and finishes it.
    let worker = tengen_server::service::reviews::Worker::new(app.store().clone(), None);
    assert!(worker.work_once().await.unwrap());
    assert!(!worker.work_once().await.unwrap(), "one job, worked once");
    let (status, done) = call(&app, "GET", &review(&id), None, None).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!((done["state"].as_str(), done["progress"].as_f64()), (Some("done"), Some(1.0)), "{done}");
    let moves = done["moves"].as_array().unwrap();
    let played: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(played, ["E5", "C3", "G7", "J1", "D4"]);
    for m in moves {
        assert_eq!(m["pv"][0], m["best"], "{m}");
        for field in ["winrate_black", "winrate_black_before"] {
            assert!((0.0..=1.0).contains(&m[field].as_f64().unwrap()), "{field}: {m}");
        }
        assert!(m["loss"].as_f64().unwrap() >= 0.0 && m["names"].is_array() && m["judgement"].is_array(), "{m}");
    }
    // White's J1, a first-line corner stone, loses points; at 200 simulations a position the
    // playout search cannot tell it from noise. The mistakes are the moves that lost 1.5 points
    // or more beyond their noise.
    assert!(moves[3]["loss"].as_f64().unwrap() > 0.0, "{done}");
    let beyond: Vec<u64> = moves
        .iter()
        .filter(|m| m["loss"].as_f64().unwrap() >= 1.5_f64.max(m["loss_noise"].as_f64().unwrap()))
        .map(|m| m["number"].as_u64().unwrap())
        .collect();
    let mut mistakes: Vec<u64> = done["mistakes"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    mistakes.sort_unstable();
    assert_eq!(mistakes, beyond, "{done}");

    // Asked again the same: nothing more to do. Another strength: queued again.
    let (status, again) = call(&app, "POST", &review(&id), None, Some(json!({"playouts": 200}))).await;
    assert_eq!((status, again["state"].as_str()), (StatusCode::ACCEPTED, Some("done")));
    assert!(!worker.work_once().await.unwrap());
    let (_, other) = call(&app, "POST", &review(&id), None, Some(json!({"playouts": 300}))).await;
    assert_eq!(other["state"], "queued", "{other}");
}

async fn reviews_are_cancelled_by_who_asked_queued_or_running(db: &str) {
    let app = state(db).await;
    let [asker, other] = ["10.0.0.1:5000", "10.0.0.2:5000"].map(|a| Some(a.parse::<std::net::SocketAddr>().unwrap()));
    let id = ended_game(&app).await;
    let review = format!("/api/games/{id}/review");
    let (status, body) = common::call_from(&app, asker, "DELETE", &review, None, None).await;
    assert_eq!((status, body["reason"].as_str()), (StatusCode::CONFLICT, Some("no_review")), "none asked: {body}");
    let (status, body) = common::call_from(&app, asker, "POST", &review, None, Some(json!({"playouts": 50}))).await;
    assert_eq!((status, body["state"].as_str()), (StatusCode::ACCEPTED, Some("queued")), "{body}");

    // Queued: another address may not cancel it; the one that asked does, and no worker gets it.
    let (status, body) = common::call_from(&app, other, "DELETE", &review, None, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let mut watching = app.subscribe(&id);
    let (status, body) = common::call_from(&app, asker, "DELETE", &review, None, None).await;
    assert_eq!((status, body["state"].as_str()), (StatusCode::OK, Some("cancelled")), "{body}");
    let heard: Value = serde_json::from_str(&watching.recv().await.unwrap()).unwrap();
    assert_eq!(heard["review"]["state"], "cancelled", "{heard}");
    let store = app.store();
    assert!(
        store.claim_review("w", now(), now() + 15_000, "").await.unwrap().is_none(),
        "a cancelled review waits no more"
    );
    let (status, body) = common::call_from(&app, asker, "DELETE", &review, None, None).await;
    assert_eq!((status, body["reason"].as_str()), (StatusCode::CONFLICT, Some("no_review")), "twice: {body}");
    // It does not count against the address's share of reviews.
    assert_eq!(store.reviews_waiting_of("10.0.0.1", "").await.unwrap(), 0);

    // Asked again: queued afresh; a worker takes it, and a cancel stops the worker, whose
    // renewal and result are refused.
    let (status, body) = common::call_from(&app, asker, "POST", &review, None, Some(json!({"playouts": 50}))).await;
    assert_eq!((status, body["state"].as_str()), (StatusCode::ACCEPTED, Some("queued")), "{body}");
    let job = store.claim_review("w", now(), now() + 15_000, "").await.unwrap().unwrap();
    assert_eq!((job.game_id.as_str(), job.state.as_str()), (id.as_str(), "running"));
    let (status, body) = common::call_from(&app, asker, "DELETE", &review, None, None).await;
    assert_eq!((status, body["state"].as_str()), (StatusCode::OK, Some("cancelled")), "{body}");
    assert!(!store.renew_review(&id, "w", now() + 15_000, 0.5, "[]", now()).await.unwrap());
    assert!(!store.finish_review(&id, "w", Ok("{}"), now()).await.unwrap());
    let (_, body) = call(&app, "GET", &review, None, None).await;
    assert_eq!(body["state"], "cancelled", "{body}");
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

async fn review_leases_run_out_and_pass_to_another_worker(db: &str) {
    let app = state(db).await;
    let store = app.store();
    let [g1, g2, g3] = [ended_game(&app).await, ended_game(&app).await, ended_game(&app).await];
    // Client x asks two reviews, then client y one.
    store.request_review(&g1, "playouts", 100, "x", 1_000).await.unwrap();
    store.request_review(&g2, "playouts", 100, "x", 1_001).await.unwrap();
    store.request_review(&g3, "playouts", 100, "y", 1_002).await.unwrap();
    let lease = 15_000;
    let claim =
        |owner: &'static str, now: i64| async move { store.claim_review(owner, now, now + lease, "").await.unwrap() };
    // Fair order: x's first, then y's (x has one running), then x's second.
    let first = claim("a", 2_000).await.unwrap();
    let second = claim("b", 2_000).await.unwrap();
    let third = claim("c", 2_000).await.unwrap();
    assert_eq!(
        [first.game_id.as_str(), second.game_id.as_str(), third.game_id.as_str()],
        [g1.as_str(), g3.as_str(), g2.as_str()]
    );
    assert!(claim("d", 2_000).await.is_none(), "every job is held");
    // Workers a and b renew; c stops renewing and its lease runs out: d takes c's job.
    assert!(store.renew_review(&g1, "a", 10_000_000, 0.5, "[]", 3_000).await.unwrap());
    assert!(store.renew_review(&g3, "b", 2_000 + lease * 2, 0.5, "[]", 3_000).await.unwrap());
    let taken = claim("d", 2_000 + lease + 1).await.unwrap();
    assert_eq!((taken.game_id.as_str(), taken.attempts, taken.progress), (g2.as_str(), 2, 0.0));
    // c's late work is refused; d finishes it, once.
    assert!(!store.renew_review(&g2, "c", 99_000, 0.9, "[]", 20_000).await.unwrap());
    assert!(!store.finish_review(&g2, "c", Ok("{}"), 20_000).await.unwrap());
    assert!(store.finish_review(&g2, "d", Err("test: given up"), 20_000).await.unwrap());
    assert!(!store.finish_review(&g2, "d", Err("test: again"), 20_001).await.unwrap());
    let row = store.review(&g2).await.unwrap().unwrap();
    assert_eq!((row.state.as_str(), row.error.as_deref()), ("failed", Some("test: given up")));
    assert!(store.finish_review(&g3, "b", Err("test: stopped"), 20_000).await.unwrap());
    store.request_review(&g3, "playouts", 100, "y", 20_001).await.unwrap();
    // A job whose workers keep dying is given up after three claims.
    let mut now = 100_000;
    for attempt in 1..=3 {
        let job = claim("e", now).await.unwrap();
        assert_eq!((job.game_id.as_str(), job.attempts), (g3.as_str(), attempt), "claim {attempt}");
        now += lease + 1;
        // a's job, renewed far ahead, stays a's.
        assert!(store.renew_review(&g1, "a", now + 10 * lease, 0.5, "[]", now).await.unwrap());
    }
    assert!(claim("e", now).await.is_none());
    let row = store.review(&g3).await.unwrap().unwrap();
    assert_eq!(row.state, "failed", "{row:?}");
    // A failed job asked again starts afresh.
    let again = store.request_review(&g3, "playouts", 100, "y", now).await.unwrap();
    assert_eq!((again.state.as_str(), again.attempts, again.error), ("queued", 0, None));
}
