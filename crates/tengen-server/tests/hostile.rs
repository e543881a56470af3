//! The findings of a hostile client, one test each, through the router (no socket; the cases
//! that could crash the process run against a real server in a child process:
//! `crates/tengen/tests/abuse.rs`).

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tengen_server::AppState;
use tengen_server::guard::Limits;
use tower::ServiceExt;

mod common;

async fn server(limits: Limits) -> AppState {
    common::memory_server(limits, 1, Duration::from_millis(50)).await
}

/// One request with any body and headers; the status, the headers and the body as text.
async fn send(
    app: &AppState,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: impl Into<Body>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let mut req = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let response = tengen_server::app(app.clone()).oneshot(req.body(body.into()).unwrap()).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&bytes).into_owned())
}

async fn import(app: &AppState, sgf: impl Into<Body>) -> (StatusCode, Value) {
    let (status, _, body) = send(app, "POST", "/api/games/import", &[], sgf).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::String(body)))
}

#[tokio::test]
async fn deep_and_long_records_are_refused_naming_the_limit() {
    let app = server(common::roomy()).await;
    let cases = [
        format!("(;GM[1]SZ[19]{})", ";".repeat(20_000)),
        format!("(;GM[1]SZ[19]{}{})", "(;".repeat(20_000), ")".repeat(20_000)),
        format!("(;GM[1]SZ[19]{})", ";B[aa];W[bb]".repeat(50_000)),
    ];
    for sgf in cases {
        let (status, v) = import(&app, sgf).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
        let detail = v["detail"].as_str().unwrap();
        assert!(detail.contains("nodes deep; the limit is 10000 nodes deep") || detail.contains("bytes"), "{detail}");
    }
    // Past the byte limit, before reading: 413 with the limit.
    let big = format!("(;GM[1]C[{}])", "x".repeat(1_100_000));
    let (status, v) = import(&app, big.clone()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert_eq!(v["detail"], "the body is larger than 1048576 bytes, the most this address takes");
    // JSON bodies that carry SGF (analysis, variations) take the SGF limit, and say it.
    let json_sgf = serde_json::to_string(&json!({"sgf": big})).unwrap();
    let (status, _, text) =
        send(&app, "POST", "/api/analysis", &[("content-type", "application/json")], json_sgf).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{text}");
    assert!(text.contains("larger than 1048576 bytes"), "{text}");
    let medium = serde_json::to_string(&json!({"sgf": format!("(;GM[1]SZ[9]C[{}])", "x".repeat(100_000))})).unwrap();
    let (status, _, text) = send(&app, "POST", "/api/analysis", &[("content-type", "application/json")], medium).await;
    assert_ne!(status, StatusCode::PAYLOAD_TOO_LARGE, "{text}");
    // A game longer than a game may be on the server.
    let long: String = (0..1_300).map(|i| if i % 2 == 0 { ";B[]" } else { ";W[]" }).collect();
    let (status, v) = import(&app, format!("(;GM[1]SZ[9]{long})")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["detail"].as_str().unwrap().contains("1300 moves, more than the 1200"), "{v}");
}

/// An import says what the lenient reader recovered or dropped: a file cut short, a comment
/// closed early by an unescaped `]`; a clean file gets no warning.
#[tokio::test]
async fn imports_say_what_they_recovered_or_dropped() {
    let app = server(common::roomy()).await;
    let (status, clean) = import(&app, "(;GM[1]FF[4]SZ[19];B[qd];W[dc];B[pq])").await;
    assert_eq!((status, clean["warnings"].as_array().map(Vec::len)), (StatusCode::CREATED, Some(0)), "{clean}");
    assert_eq!(clean["moves"], 3, "{clean}");
    let cases = [
        // Cut short: one move of two is left.
        "(;GM[1]FF[4]SZ[19];B[qd];W[dc",
        // An unescaped `]` in a comment ends it early: the rest of the comment is read as nodes.
        "(;GM[1]FF[4]SZ[19];B[qd]C[see [this] move];W[dc];B[pq];W[dp])",
    ];
    for sgf in cases {
        let (status, v) = import(&app, sgf).await;
        assert_eq!(status, StatusCode::CREATED, "{sgf}: {v}");
        let warnings = v["warnings"].as_array().unwrap();
        assert!(!warnings.is_empty(), "{sgf}: no warning for {} moves: {v}", v["moves"]);
        assert!(warnings.iter().all(|w| w.as_str().unwrap().starts_with("line 1, column ")), "{sgf}: {v}");
    }
}

#[tokio::test]
async fn imports_follow_the_one_rule_for_names_and_sizes() {
    let app = server(common::roomy()).await;
    for (sgf, status, says) in [
        (
            "(;GM[1]SZ[9]PB[a\u{0}b\u{1b}[31mRED\u{7}];B[ee])",
            StatusCode::UNPROCESSABLE_ENTITY,
            "(PB): a name is of printable",
        ),
        ("(;GM[1]SZ[9]PW[\u{202e}x];B[ee])", StatusCode::UNPROCESSABLE_ENTITY, "(PW): a name is of printable"),
        ("(;GM[1]SZ[1000];B[aa])", StatusCode::UNPROCESSABLE_ENTITY, "SZ[1000] is not supported"),
        ("(;GM[1]SZ[-1];B[aa])", StatusCode::UNPROCESSABLE_ENTITY, "SZ[-1] is not supported"),
        ("(;GM[1]SZ[9])", StatusCode::UNPROCESSABLE_ENTITY, "nothing to import"),
    ] {
        let (s, v) = import(&app, sgf).await;
        assert_eq!(s, status, "{sgf}: {v}");
        assert!(v["detail"].as_str().unwrap().contains(says), "{sgf}: {v}");
    }
    // A megabyte of random bytes, which the lenient reader takes for an empty game.
    let mut noise = vec![0u8; 1_000_000];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for b in &mut noise {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = (x >> 24) as u8;
    }
    noise[1000..1002].copy_from_slice(b"(;");
    let (s, v) = import(&app, noise).await;
    assert!(s == StatusCode::UNPROCESSABLE_ENTITY || s == StatusCode::BAD_REQUEST, "{s}: {v}");
    // A good name, trimmed, is kept.
    let (s, v) = import(&app, "(;GM[1]SZ[9]PB[ 柯洁 ]PW[Lee Sedol];B[ee])").await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!((v["black_name"].as_str(), v["white_name"].as_str()), (Some("柯洁"), Some("Lee Sedol")));
}

#[tokio::test]
async fn unknown_ids_leave_nothing_behind() {
    let app = server(common::roomy()).await;
    let long = "x".repeat(60_000);
    for i in 0..300 {
        let id = if i % 2 == 0 { long.clone() } else { format!("nosuchgame{i}") };
        let move_body = r#"{"move": "D4", "number": 1}"#;
        let (s, _, body) = send(&app, "POST", &format!("/api/games/{id}/move"), &[], move_body).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{body}");
        let (s, _, _) = send(&app, "GET", &format!("/api/games/{id}/live"), &[], Body::empty()).await;
        assert!(s == StatusCode::NOT_FOUND || s == StatusCode::BAD_REQUEST, "{s}");
    }
    // A real game's lock goes when its request is done.
    let (_, v) = common::call(&app, "POST", "/api/games", None, Some(json!({"size": 9, "opponent": "friend"}))).await;
    let (id, token) = (v["id"].as_str().unwrap(), v["token"].as_str().unwrap());
    let color = v["color"].as_str().unwrap();
    let other = v["friend_token"].as_str().unwrap();
    let black = if color == "black" { token } else { other };
    let (s, _) = common::call(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(black),
        Some(json!({"move": "E5", "number": 1})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(app.table_sizes()[..2], [0, 0], "per-game locks and watcher channels");
}

#[tokio::test]
async fn the_scoring_phase_refuses_stale_accepts_and_retried_toggles_are_idempotent() {
    let app = server(common::roomy()).await;
    let (_, v) = common::call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"size": 9, "opponent": "friend", "color": "black"})),
    )
    .await;
    let (id, black, white) =
        (v["id"].as_str().unwrap(), v["token"].as_str().unwrap(), v["friend_token"].as_str().unwrap());
    for (n, (token, mv)) in [(black, "E5"), (white, "A1"), (black, "pass"), (white, "pass")].iter().enumerate() {
        let body = json!({"move": mv, "number": n + 1});
        assert_eq!(
            common::call(&app, "POST", &format!("/api/games/{id}/move"), Some(token), Some(body)).await.0,
            StatusCode::OK
        );
    }
    common::wait_for(&app, id, |v| v["phase"] == "counting" && v["events"].as_u64() == Some(5)).await;
    let toggle = |dead: bool| json!({"point": "A1", "dead": dead});
    for _ in 0..3 {
        let (s, v) =
            common::call(&app, "POST", &format!("/api/games/{id}/toggle"), Some(black), Some(toggle(true))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["dead"], json!(["A1"]), "a retry changes nothing");
        // The server's proposal marks A1 already: nothing is added to the log.
        assert_eq!(v["events"], 5, "{v}");
    }
    let (_, v) = common::call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["events"], 5, "{v}");
    // A retried toggle is still checked: no stone there, refused.
    let empty = json!({"point": "J9", "dead": false});
    let (s, _) = common::call(&app, "POST", &format!("/api/games/{id}/toggle"), Some(black), Some(empty)).await;
    assert!(s.is_client_error(), "{s}");
    // White saw the marking before the toggle: refused, and the game goes on being counted.
    let (s, v) =
        common::call(&app, "POST", &format!("/api/games/{id}/accept"), Some(white), Some(json!({"dead": []}))).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["detail"], "the marking changed since it was seen: the stones marked dead now are A1");
    // Without the marking seen: a bad request, not an accept.
    let (s, _) = common::call(&app, "POST", &format!("/api/games/{id}/accept"), Some(white), None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) =
        common::call(&app, "POST", &format!("/api/games/{id}/toggle"), Some(white), Some(json!({"point": "A1"}))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "the state wanted is said");
    for token in [white, black] {
        let (s, v) =
            common::call(&app, "POST", &format!("/api/games/{id}/accept"), Some(token), Some(json!({"dead": ["A1"]})))
                .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, v) = common::call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["result"], "B+73.5");
}

#[tokio::test]
async fn a_client_past_its_share_gets_429_with_retry_after() {
    let limits = Limits { requests_per_second: 1, request_burst: 5, games_per_hour: 30, ..Limits::default() };
    let app = server(limits).await;
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let (s, headers, _) = send(&app, "GET", "/api/games", &[], Body::empty()).await;
        statuses.push(s.as_u16());
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert!(headers.get("retry-after").is_some());
        }
    }
    assert_eq!(statuses[..5], [200; 5]);
    assert!(statuses[5..].iter().all(|&s| s == 429), "{statuses:?}");
    // The page's files do not count (a page load asks for all its modules at once), and they
    // give the client no more requests of the API.
    for _ in 0..40 {
        assert_eq!(send(&app, "GET", "/static/js/main.js", &[], Body::empty()).await.0, StatusCode::OK);
    }
    assert_eq!(send(&app, "GET", "/api/games", &[], Body::empty()).await.0, StatusCode::TOO_MANY_REQUESTS);
    // Games: 30 an hour, 3 at once.
    let app = server(Limits { games_per_hour: 30, ..common::roomy() }).await;
    let mut created = 0;
    for _ in 0..6 {
        let (s, headers, body) =
            send(&app, "POST", "/api/games", &[], json!({"size": 9, "opponent": "friend"}).to_string()).await;
        match s {
            StatusCode::CREATED => created += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                let wait: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
                assert!((100..=120).contains(&wait), "{wait}");
                assert!(body.contains("too many new games"), "{body}");
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(created, 3);
}

/// A flood of refused requests and of made-up methods (a client chooses the method's text)
/// leaves the metrics as they were: refusals are one counter, unknown methods one label.
#[tokio::test]
async fn floods_and_made_up_methods_do_not_grow_the_metrics() {
    let limits = Limits { requests_per_second: 1, request_burst: 3, ..Limits::default() };
    let app = server(limits).await;
    for _ in 0..50 {
        send(&app, "GET", "/api/games", &[], Body::empty()).await;
    }
    let long = "M".repeat(4_000);
    for method in [long.as_str(), "PROPFIND", "BREW"] {
        let (s, _, _) = send(&app, method, "/api/games", &[], Body::empty()).await;
        assert!(s.is_client_error(), "{s}");
    }
    let metrics = app.metrics().render(&[]);
    assert!(!metrics.contains("status=\"429\""), "no series per refused request:\n{metrics}");
    assert!(!metrics.contains("PROPFIND") && !metrics.contains(&long[..100]), "{metrics}");
    let series = metrics.lines().filter(|l| l.starts_with("tengen_http_requests_total{")).count();
    assert!(series <= 3, "{series} series:\n{metrics}");
    assert!(metrics.contains("tengen_rate_limited_total"), "{metrics}");
}

#[tokio::test]
async fn the_computer_serves_clients_in_turn_and_caps_each() {
    let app = server(Limits { computer_moves: 2, ..common::roomy() }).await;
    // Computer-first games (the computer is Black): each queues a move.
    let computer_first = json!({"size": 19, "opponent": {"computer": {"level": 1}}, "color": "white"});
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let (s, headers, _) = send(&app, "POST", "/api/games", &[], computer_first.to_string()).await;
        statuses.push(s.as_u16());
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert!(headers.get("retry-after").is_some());
        }
    }
    // The first runs at once (one search) and the second waits: with two held, the next is
    // refused (if the first search has ended meanwhile, the fourth is).
    assert_eq!(statuses[..2], [201, 201]);
    assert!(statuses[2..].contains(&429), "{statuses:?}");
}

#[tokio::test]
async fn moves_sent_at_once_cannot_pass_the_computers_share() {
    // Twelve games against a slow computer (19 × 19, level 10, one search at a time); one move
    // in each, all sent at once: the client's share is four, checked and held in one step.
    let app = server(Limits { computer_moves: 4, ..common::roomy() }).await;
    let mut games = Vec::new();
    for _ in 0..12 {
        let (s, v) = common::call(
            &app,
            "POST",
            "/api/games",
            None,
            Some(json!({"size": 19, "opponent": {"computer": {"level": 10}}, "color": "black"})),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        games.push((v["id"].as_str().unwrap().to_owned(), v["token"].as_str().unwrap().to_owned()));
    }
    let moves = games.iter().map(|(id, token)| {
        let app = app.clone();
        async move {
            let uri = format!("/api/games/{id}/move");
            let auth = format!("Bearer {token}");
            let headers = [("content-type", "application/json"), ("authorization", auth.as_str())];
            send(&app, "POST", &uri, &headers, json!({"move": "Q16", "number": 1}).to_string()).await.0
        }
    });
    let statuses = futures_util::future::join_all(moves).await;
    let accepted = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!((accepted, refused), (4, 8), "{statuses:?}");
}

#[tokio::test]
async fn reviews_take_turns_by_client_and_each_is_bounded() {
    let app = server(Limits { reviews_per_client: 3, review_work: 1_000, ..common::roomy() }).await;
    // Six ended games of two moves (Black E5, White D4, then White resigns).
    let mut games = Vec::new();
    for _ in 0..6 {
        let new = json!({"size": 9, "opponent": "friend", "color": "black"});
        let (_, v) = common::call(&app, "POST", "/api/games", None, Some(new)).await;
        let (id, black, white) =
            (v["id"].as_str().unwrap(), v["token"].as_str().unwrap(), v["friend_token"].as_str().unwrap());
        for (n, (token, mv)) in [(black, "E5"), (white, "D4")].into_iter().enumerate() {
            let body = json!({"move": mv, "number": n + 1});
            let (s, v) = common::call(&app, "POST", &format!("/api/games/{id}/move"), Some(token), Some(body)).await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        common::call(&app, "POST", &format!("/api/games/{id}/resign"), Some(white), None).await;
        games.push(id.to_owned());
    }
    let review = |i: usize| format!("/api/games/{}/review", games[i]);
    let (a, b) = (Some(([10, 0, 0, 1], 40_000).into()), Some(([10, 0, 0, 2], 40_000).into()));
    // One review's work: 2 moves × 500 playouts is the most (1,000); 501 is refused.
    let (s, v) = common::call_from(&app, a, "POST", &review(0), None, Some(json!({"playouts": 501}))).await;
    assert_eq!((s, v["reason"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("strength")), "{v}");
    // A client has three reviews waiting at most; asking one again is no more.
    for i in 0..3 {
        let (s, v) = common::call_from(&app, a, "POST", &review(i), None, Some(json!({"playouts": 500}))).await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        // Requested in order, a few milliseconds apart.
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let (s, v) = common::call_from(&app, a, "POST", &review(0), None, Some(json!({"playouts": 500}))).await;
    assert_eq!(s, StatusCode::ACCEPTED, "the same again: {v}");
    let (s, v) = common::call_from(&app, a, "POST", &review(3), None, Some(json!({"playouts": 500}))).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    // A later client's review is not served after all of the first's: one worker, turns.
    let (s, v) = common::call_from(&app, b, "POST", &review(4), None, Some(json!({"playouts": 10}))).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let worker = tengen_server::service::reviews::Worker::new(app.store().clone(), None);
    assert!(worker.work_once().await.unwrap());
    assert!(worker.work_once().await.unwrap());
    let state = |i: usize| {
        let app = app.clone();
        let uri = review(i);
        async move { common::call(&app, "GET", &uri, None, None).await.1["state"].as_str().unwrap().to_owned() }
    };
    // Two claims: the first client's oldest, then the later client's (not the first's second).
    assert_eq!((state(0).await, state(4).await, state(1).await), ("done".into(), "done".into(), "queued".into()));
}

#[tokio::test]
async fn answers_carry_the_security_headers_and_health_and_metrics_answer() {
    let app = server(common::roomy()).await;
    for uri in ["/", "/api/games", "/api/games/nope", "/static/js/main.js", "/static/nope.js", "/healthz"] {
        let (_, headers, _) = send(&app, "GET", uri, &[], Body::empty()).await;
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{uri}: {csp}");
        assert!(!csp.contains("unsafe-inline"));
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["x-frame-options"], "DENY");
        assert_eq!(headers["referrer-policy"], "no-referrer");
    }
    assert_eq!(send(&app, "GET", "/healthz", &[], Body::empty()).await.2, "ok");
    assert_eq!(send(&app, "GET", "/readyz", &[], Body::empty()).await.2, "ready");
    let (_, v) = common::call(&app, "POST", "/api/games", None, Some(json!({"size": 9, "opponent": "friend"}))).await;
    assert!(v["id"].is_string());
    let (s, headers, text) = send(&app, "GET", "/metrics", &[], Body::empty()).await;
    assert_eq!(s, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/plain"));
    for line in [
        "tengen_http_requests_total{method=\"POST\",route=\"/api/games\",status=\"201\"} 1",
        "tengen_games_in_play 1",
        "tengen_computer_moves_waiting 0",
        "tengen_websocket_watchers 0",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
}

#[tokio::test]
async fn websockets_from_another_sites_page_are_refused() {
    let app = server(common::roomy()).await;
    let (_, v) = common::call(&app, "POST", "/api/games", None, Some(json!({"size": 9, "opponent": "friend"}))).await;
    let id = v["id"].as_str().unwrap();
    let upgrade = [
        ("host", "go.example.org"),
        ("connection", "upgrade"),
        ("upgrade", "websocket"),
        ("sec-websocket-version", "13"),
        ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    let with = |origin: &'static str| {
        let mut h = upgrade.to_vec();
        h.push(("origin", origin));
        h
    };
    let uri = format!("/api/games/{id}/live");
    let (s, _, body) = send(&app, "GET", &uri, &with("https://evil.example.com"), Body::empty()).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{body}");
    // A page whose name matches the Host is not trusted for it: under DNS rebinding the
    // attacker's own name resolves to the server and is sent as both.
    let (s, _, body) = send(&app, "GET", &uri, &with("https://go.example.org"), Body::empty()).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{body}");
    // The server's own page by its address passes the check (the upgrade itself needs a real
    // connection), and by its name when `--origin` names it.
    let mut by_address = upgrade.to_vec();
    by_address[0] = ("host", "127.0.0.1:8080");
    by_address.push(("origin", "http://127.0.0.1:8080"));
    let (s, _, body) = send(&app, "GET", &uri, &by_address, Body::empty()).await;
    assert_ne!(s, StatusCode::FORBIDDEN, "{body}");
    let named =
        server(tengen_server::guard::Limits { origins: vec!["https://go.example.org".to_owned()], ..common::roomy() })
            .await;
    let (_, v) = common::call(&named, "POST", "/api/games", None, Some(json!({"size": 9, "opponent": "friend"}))).await;
    let uri = format!("/api/games/{}/live", v["id"].as_str().unwrap());
    let (s, _, body) = send(&named, "GET", &uri, &with("https://go.example.org"), Body::empty()).await;
    assert_ne!(s, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(app.table_sizes()[1], 0, "no channel is left from refused or failed upgrades");
}

#[tokio::test]
async fn bodies_read_as_the_api_document_says() {
    let app = server(common::roomy()).await;
    let create = |body: &'static str| {
        let app = app.clone();
        async move {
            let (s, _, text) = send(&app, "POST", "/api/games", &[("content-type", "application/json")], body).await;
            (s, text)
        }
    };
    // No body, or `null`: a game with the defaults. A whole number written `9.0` is an integer.
    for body in ["", "null", r#"{"size": 9.0, "opponent": "friend", "komi": 7.0}"#] {
        assert_eq!(create(body).await.0, StatusCode::CREATED, "{body}");
    }
    // Not an object, or an unknown field at any depth (the empty time control's too): 400.
    // A body of whitespace only is no JSON text (schemathesis sent `\r` and a form feed to
    // `POST /api/games/{id}/sgf`, which took them for no body).
    for body in [
        " \t\r\n",
        "\r",
        "[null, null]",
        "[9]",
        "19",
        r#""friend""#,
        r#"{"time": {"kind": "none", "x": 1}}"#,
        r#"{"size": 9.5}"#,
        "\x0c",
        "\x0b",
        // A key twice (serde_json would keep the last one silently), at any depth.
        r#"{"size": 9, "size": 19}"#,
        r#"{"opponent": {"computer": {"level": 1, "level": 9}}}"#,
    ] {
        let (s, text) = create(body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {text}");
    }
    let (s, _, text) = send(&app, "POST", "/api/games", &[], r#"{"opponent": "friend", "size": 9}"#).await;
    assert_eq!(s, StatusCode::CREATED);
    let id = serde_json::from_str::<Value>(&text).unwrap()["id"].as_str().unwrap().to_owned();
    // A move number past the game, however long: 422; not a number: 400.
    let (s, _, _) = send(&app, "GET", &format!("/api/games/{id}?at=802903460953077542027264"), &[], "").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let (s, _, _) = send(&app, "GET", &format!("/api/games/{id}?at=-1"), &[], "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_api_document_declares_its_seats_answers_and_links() {
    let app = server(common::roomy()).await;
    let (s, _, text) = send(&app, "GET", "/api/openapi.json", &[], "").await;
    assert_eq!(s, StatusCode::OK);
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["components"]["securitySchemes"]["seat"]["scheme"], "bearer");
    let paths = doc["paths"].as_object().unwrap();
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let answers = op["responses"].as_object().unwrap();
            for status in ["400", "429", "503"] {
                assert!(answers.contains_key(status), "{method} {path} documents {status}");
            }
            if path.contains("{id}") {
                assert!(answers.contains_key("404"), "{method} {path} documents 404");
            }
            if op.get("requestBody").is_some() {
                assert!(answers.contains_key("413"), "{method} {path} documents 413");
            }
            if op.get("security").is_some() {
                assert!(answers.contains_key("401") && answers.contains_key("403"), "{method} {path}");
            }
        }
    }
    let links = &doc["paths"]["/api/games"]["post"]["responses"]["201"]["links"];
    assert_eq!(links["play"]["operationId"], "play");
    assert_eq!(links["play"]["parameters"]["id"], "$response.body#/id");
    // The request types take no unknown field, in their variants too.
    let opponent = serde_json::to_string(&doc["components"]["schemas"]["Opponent"]).unwrap();
    assert!(opponent.contains(r#""additionalProperties":false"#), "{opponent}");
}
