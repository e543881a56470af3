//! Random requests against the API (a property test): no answer is a 5xx, every error has
//! the JSON error body, and a refused request leaves the game exactly as it was.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use proptest::prelude::*;
use serde_json::{Value, json};
use tengen_server::{AppState, Settings, Store};
use tower::ServiceExt;

mod common;

/// Where a request goes (the game's id is put in for `{id}`).
const PATHS: &[&str] = &[
    "/api/games",
    "/api/games/import",
    "/api/games/{id}",
    "/api/games/{id}/sgf",
    "/api/games/{id}/move",
    "/api/games/{id}/handicap",
    "/api/games/{id}/resign",
    "/api/games/{id}/undo",
    "/api/games/{id}/undo/accept",
    "/api/games/{id}/undo/reject",
    "/api/games/{id}/toggle",
    "/api/games/{id}/accept",
    "/api/games/{id}/resume",
    "/api/games/nope/move",
    "/api/games/%00%ff/move",
    "/api/games/{id}/move/extra",
];

/// JSON values shaped like the API's bodies, and not.
fn json_value() -> impl Strategy<Value = Value> {
    let vertex =
        prop_oneof!["[A-HJ-T][1-9]", "[A-Za-z][0-9]{1,3}", Just("pass".to_owned()), Just("PASS".to_owned()), ".{0,8}",];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (0u64..400).prop_map(|n| json!(n)),
        any::<f64>().prop_map(|x| json!(x)),
        vertex.clone().prop_map(Value::String),
    ];
    let key = prop_oneof![
        Just("move"),
        Just("number"),
        Just("point"),
        Just("points"),
        Just("size"),
        Just("opponent"),
        Just("handicap"),
        Just("placement"),
        Just("komi"),
        Just("color"),
        Just("time"),
        Just("kind"),
        Just("main"),
        Just("period"),
        Just("periods"),
        Just("level"),
        Just("computer"),
        Just("x"),
    ];
    leaf.prop_recursive(3, 24, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

#[derive(Clone, Debug)]
enum Payload {
    Json(Value),
    Bytes(Vec<u8>),
    Empty,
}

fn payload() -> impl Strategy<Value = Payload> {
    prop_oneof![
        4 => json_value().prop_map(Payload::Json),
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(Payload::Bytes),
        1 => Just(Payload::Empty),
    ]
}

#[derive(Clone, Copy, Debug)]
enum Who {
    Black,
    White,
    Stranger,
    Nobody,
}

fn request() -> impl Strategy<Value = (bool, usize, Who, Payload)> {
    (
        any::<bool>(),
        0..PATHS.len(),
        prop_oneof![Just(Who::Black), Just(Who::White), Just(Who::Stranger), Just(Who::Nobody)],
        payload(),
    )
}

async fn send(app: &AppState, post: bool, path: &str, token: Option<&str>, body: &Payload) -> (StatusCode, Vec<u8>) {
    let mut req = Request::builder().method(if post { "POST" } else { "GET" }).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = match body {
        Payload::Json(v) => Body::from(v.to_string()),
        Payload::Bytes(b) => Body::from(b.clone()),
        Payload::Empty => Body::empty(),
    };
    let Ok(req) = req.body(body) else { return (StatusCode::BAD_REQUEST, Vec::new()) };
    let response = tengen_server::app(app.clone()).oneshot(req).await.unwrap();
    let status = response.status();
    (status, response.into_body().collect().await.unwrap().to_bytes().to_vec())
}

async fn view(app: &AppState, id: &str) -> Value {
    let (_, body) = send(app, false, &format!("/api/games/{id}"), None, &Payload::Empty).await;
    serde_json::from_slice(&body).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_requests(requests in prop::collection::vec(request(), 1..30)) {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        runtime.block_on(async {
            // Rate limits far away: this test is of answers, not of quotas.
            let limits = common::roomy();
            let settings = Settings { searches: 1, max_think: Duration::from_millis(20), network: None, limits, review_workers: 0, shared_moves: false };
            let app = AppState::new(Store::open("sqlite::memory:").await.unwrap(), settings);
            let body = json!({"size": 5, "opponent": "friend", "color": "black"});
            let (_, created) = send(&app, true, "/api/games", None, &Payload::Json(body)).await;
            let created: Value = serde_json::from_slice(&created).unwrap();
            let id = created["id"].as_str().unwrap().to_owned();
            let tokens = [created["token"].as_str().unwrap().to_owned(), created["friend_token"].as_str().unwrap().to_owned()];
            for (post, path, who, payload) in requests {
                let path = PATHS[path].replace("{id}", &id);
                let token = match who {
                    Who::Black => Some(tokens[0].as_str()),
                    Who::White => Some(tokens[1].as_str()),
                    Who::Stranger => Some("00112233445566778899aabbccddeeff"),
                    Who::Nobody => None,
                };
                let before = view(&app, &id).await;
                let (status, body) = send(&app, post, &path, token, &payload).await;
                assert!(!status.is_server_error(), "{status} for {path} {payload:?}: {}", String::from_utf8_lossy(&body));
                if !status.is_success() {
                    let after = view(&app, &id).await;
                    // The server's own follow-up (a dead-stone proposal) may land meanwhile.
                    if before["phase"] != "counting" || before["events"] == after["events"] {
                        assert_eq!(before, after, "{status} for {path} changed the game");
                    }
                    // Every error, the router's own included, is the API's JSON error body.
                    let error: Value = serde_json::from_slice(&body)
                        .unwrap_or_else(|_| panic!("{status} {path}: {}", String::from_utf8_lossy(&body)));
                    assert!(error["error"].is_string() && error["detail"].is_string(), "{status} {path}: {error}");
                }
            }
        });
    }
}
