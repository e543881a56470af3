//! The lobby as players and an attacker use it: open and direct challenges over the API,
//! their refusals, blocks, limits and races; the lobby's WebSocket live (guests and players);
//! live challenges withdrawn when their owner leaves; challenges seen and accepted across the
//! nodes of one PostgreSQL database.

use std::net::SocketAddr;
use std::time::Duration;

use axum::http::StatusCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tengen_server::{AppState, Settings, Store};
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::{Send, ask, drop_postgres, own, postgres, roomy};

async fn server(url: &str, limits: tengen_server::guard::Limits) -> AppState {
    let settings = Settings { limits, review_workers: 0, ..Settings::default() };
    AppState::new(Store::open(url).await.unwrap(), settings)
}

/// Signs up `name` (from an address of its own) and returns the session token.
async fn player(app: &AppState, name: &str) -> String {
    let from = format!("10.1.{}.{}", name.len(), name.bytes().map(u32::from).sum::<u32>() % 250);
    let send = Send { from: Some(&from), ..Send::default() };
    let a = ask(app, "POST", "/api/accounts", send, Some(json!({"name": name, "password": "a long password"}))).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    a.token()
}

async fn post(app: &AppState, who: &str, body: Value) -> common::Answer {
    ask(app, "POST", "/api/challenges", own(who), Some(body)).await
}

async fn visible(app: &AppState, who: Option<&str>) -> Vec<String> {
    let send = who.map_or_else(Send::default, own);
    let a = ask(app, "GET", "/api/challenges", send, None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body.as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect()
}

fn id(a: &common::Answer) -> String {
    assert!(a.status.is_success(), "{}: {}", a.status, a.body);
    a.body["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_open_challenge_is_seen_accepted_once_and_becomes_a_game_of_two_accounts() {
    let app = server("sqlite::memory:", roomy()).await;
    let (alice, bob, carol) = (player(&app, "Alice").await, player(&app, "Bob").await, player(&app, "Carol").await);
    let made = post(
        &app,
        &alice,
        json!({"size": 9, "rated": true, "handicap": "auto",
        "time": {"kind": "byoyomi", "main": 600, "period": 30, "periods": 3}}),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let c = made.body.clone();
    assert_eq!((c["challenger"].as_str(), c["challenger_rank"].as_str()), (Some("Alice"), Some("6k?")));
    assert_eq!(
        (c["state"].as_str(), c["handicap"].as_str(), c["color"].as_str()),
        (Some("open"), Some("auto"), Some("auto"))
    );
    assert_eq!(c["to"], Value::Null);
    let cid = id(&made);
    // Guests see the lobby; to accept, log in.
    assert_eq!(visible(&app, None).await, [cid.as_str()]);
    let guest = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), Send::default(), None).await;
    assert_eq!(guest.status, StatusCode::UNAUTHORIZED);
    let own_accept = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&alice), None).await;
    assert_eq!(own_accept.body["reason"], "own_challenge");
    // A request from another site's page under Bob's login is refused.
    let forged = Send { cookie: Some(&bob), origin: Some("https://evil.example"), ..Send::default() };
    assert_eq!(
        ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), forged, None).await.status,
        StatusCode::FORBIDDEN
    );

    let took = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&bob), None).await;
    assert_eq!(took.status, StatusCode::CREATED, "{}", took.body);
    let game = took.body["game"].as_str().unwrap().to_owned();
    let bob_color = took.body["color"].as_str().unwrap().to_owned();
    let late = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&carol), None).await;
    assert_eq!((late.status, late.body["reason"].as_str()), (StatusCode::CONFLICT, Some("challenge_closed")));
    assert!(visible(&app, None).await.is_empty(), "accepted: out of the lobby");

    // The game: both seats held by the accounts, named after them, rated, the clock as asked.
    let view = ask(&app, "GET", &format!("/api/games/{game}"), Send::default(), None).await.body;
    assert_eq!(view["accounts"], json!([true, true]));
    assert_eq!(view["rated"], true);
    assert_eq!(view["size"], 9);
    let (bob_name, alice_name) =
        if bob_color == "black" { ("black_name", "white_name") } else { ("white_name", "black_name") };
    assert_eq!((view[bob_name].as_str(), view[alice_name].as_str()), (Some("Bob"), Some("Alice")));
    // Two newcomers are of equal rank: an even game, komi 7.5, colours drawn by nigiri.
    assert_eq!((view["handicap"].as_u64(), view["komi"].as_f64()), (Some(0), Some(7.5)), "{view}");
    assert!(view["nigiri"].is_object(), "{view}");
    // Each plays by the login, without a token, and only their own colour.
    let (first, second) = if bob_color == "black" { (&bob, &alice) } else { (&alice, &bob) };
    let mv = |who: &str, m: &str, n: u64| {
        let who = who.to_owned();
        let (m, game) = (m.to_owned(), game.clone());
        let app = app.clone();
        async move {
            ask(&app, "POST", &format!("/api/games/{game}/move"), own(&who), Some(json!({"move": m, "number": n})))
                .await
        }
    };
    assert_eq!(mv(second, "E5", 1).await.body["reason"], "not_your_turn");
    assert_eq!(mv(first, "E5", 1).await.status, StatusCode::OK);
    assert_eq!(mv(&carol, "C3", 2).await.status, StatusCode::FORBIDDEN, "not Carol's game");
    assert_eq!(mv(second, "C3", 2).await.status, StatusCode::OK);
    // Both find it among their games.
    for who in [&alice, &bob] {
        let mine = ask(&app, "GET", "/api/me/games", own(who), None).await.body;
        assert_eq!(mine[0]["id"].as_str(), Some(game.as_str()));
    }
}

#[tokio::test]
async fn terms_that_cannot_be_are_refused_and_change_nothing() {
    let app = server("sqlite::memory:", roomy()).await;
    let alice = player(&app, "Alice").await;
    for (body, status, reason) in [
        (json!({"size": 7, "rated": true}), 422, "rated_size"),
        (json!({"size": 11, "handicap": "auto"}), 422, "rated_size"),
        (json!({"handicap": "auto", "color": "black"}), 422, "auto_handicap_given"),
        (json!({"handicap": 1}), 422, "handicap_stones"),
        (json!({"size": 9, "handicap": 10}), 422, "handicap_stones"),
        (json!({"rank_min": "31k"}), 422, "rank"),
        (json!({"rank_min": "1d", "rank_max": "5k"}), 422, "rank_range"),
        (json!({"size": 1}), 400, "size"),
        (json!({"time": {"kind": "absolute", "main": -5}}), 400, "time"),
        (json!({"to": "Nobody"}), 422, "no_player"),
        (json!({"to": "alice"}), 422, "own_challenge"),
    ] {
        let a = post(&app, &alice, body.clone()).await;
        assert_eq!((a.status.as_u16(), a.body["reason"].as_str()), (status, Some(reason)), "{body}: {}", a.body);
    }
    for body in
        [json!({"size": "big"}), json!({"handicap": "many"}), json!({"colour": "black"}), json!({"color": "red"})]
    {
        assert_eq!(post(&app, &alice, body.clone()).await.status, StatusCode::BAD_REQUEST, "{body}");
    }
    let guest = ask(&app, "POST", "/api/challenges", Send::default(), Some(json!({}))).await;
    assert_eq!(guest.status, StatusCode::UNAUTHORIZED);
    assert!(visible(&app, None).await.is_empty());
    // Unknown challenges, and ids that are no ids.
    for path in ["/api/challenges/0123abcd/accept", "/api/challenges/..%2f/accept", "/api/challenges/x/decline"] {
        let a = ask(&app, "POST", path, own(&alice), None).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}: {}", a.body);
    }
}

#[tokio::test]
async fn direct_challenges_blocks_and_limits() {
    let app = server("sqlite::memory:", roomy()).await;
    let (alice, bob, carol) = (player(&app, "Alice").await, player(&app, "Bob").await, player(&app, "Carol").await);
    let direct = id(&post(&app, &alice, json!({"to": "BOB", "size": 13})).await);
    // Only the two see it; a third cannot take it.
    assert_eq!(visible(&app, Some(&bob)).await, [direct.as_str()]);
    assert_eq!(visible(&app, Some(&alice)).await, [direct.as_str()]);
    assert!(visible(&app, Some(&carol)).await.is_empty());
    assert!(visible(&app, None).await.is_empty());
    let stolen = ask(&app, "POST", &format!("/api/challenges/{direct}/accept"), own(&carol), None).await;
    assert_eq!(stolen.status, StatusCode::NOT_FOUND);
    // Only the challenged declines it; only the challenger withdraws it.
    let a = ask(&app, "POST", &format!("/api/challenges/{direct}/decline"), own(&alice), None).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let a = ask(&app, "DELETE", &format!("/api/challenges/{direct}"), own(&bob), None).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let a = ask(&app, "POST", &format!("/api/challenges/{direct}/decline"), own(&bob), None).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT, "{}", a.body);
    let a = ask(&app, "POST", &format!("/api/challenges/{direct}/accept"), own(&bob), None).await;
    assert_eq!((a.status, a.body["reason"].as_str()), (StatusCode::CONFLICT, Some("challenge_closed")));
    assert!(visible(&app, Some(&alice)).await.is_empty());

    // Bob blocks Alice: no direct challenge, no sight of her open ones either way, no accepting.
    assert_eq!(ask(&app, "PUT", "/api/me/blocks/alice", own(&bob), None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(ask(&app, "PUT", "/api/me/blocks/alice", own(&bob), None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(ask(&app, "GET", "/api/me/blocks", own(&bob), None).await.body, json!([{"name": "Alice"}]));
    assert_eq!(ask(&app, "PUT", "/api/me/blocks/bob", own(&bob), None).await.body["reason"], "own_block");
    assert_eq!(ask(&app, "PUT", "/api/me/blocks/nobody", own(&bob), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(post(&app, &alice, json!({"to": "Bob"})).await.body["reason"], "blocked");
    let open = id(&post(&app, &alice, json!({})).await);
    assert!(visible(&app, Some(&bob)).await.is_empty());
    assert_eq!(visible(&app, Some(&carol)).await, [open.as_str()]);
    let a = ask(&app, "POST", &format!("/api/challenges/{open}/accept"), own(&bob), None).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let bobs = id(&post(&app, &bob, json!({})).await);
    assert_eq!(visible(&app, Some(&alice)).await, [open.as_str()], "nor does Alice see Bob's");
    assert_eq!(ask(&app, "DELETE", "/api/me/blocks/Alice", own(&bob), None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(visible(&app, Some(&bob)).await, [open.clone(), bobs.clone()]);

    // At most 5 open challenges a player; withdrawing one makes room.
    for _ in 0..4 {
        id(&post(&app, &alice, json!({})).await);
    }
    let sixth = post(&app, &alice, json!({})).await;
    assert_eq!(
        (sixth.status, sixth.body["reason"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("too_many_challenges"))
    );
    assert_eq!(
        ask(&app, "DELETE", &format!("/api/challenges/{open}"), own(&alice), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        ask(&app, "DELETE", &format!("/api/challenges/{open}"), own(&alice), None).await.status,
        StatusCode::CONFLICT
    );
    id(&post(&app, &alice, json!({})).await);

    // A rank range: a newcomer (6k?) may not take a dan players' challenge.
    let dans = id(&post(&app, &bob, json!({"rank_min": "1d"})).await);
    let a = ask(&app, "POST", &format!("/api/challenges/{dans}/accept"), own(&carol), None).await;
    assert_eq!((a.status.as_u16(), a.body["reason"].as_str()), (422, Some("rank_range")), "{}", a.body);
}

#[tokio::test]
async fn two_players_accepting_at_once_make_one_game() {
    let app = server("sqlite::memory:", roomy()).await;
    let alice = player(&app, "Alice").await;
    let takers = [player(&app, "Bob").await, player(&app, "Carol").await, player(&app, "Dave").await];
    for _ in 0..5 {
        let cid = id(&post(&app, &alice, json!({"size": 9})).await);
        let path = format!("/api/challenges/{cid}/accept");
        let tries = takers.iter().map(|t| ask(&app, "POST", &path, own(t), None));
        let statuses: Vec<StatusCode> =
            futures_util::future::join_all(tries).await.into_iter().map(|a| a.status).collect();
        assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CREATED).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == StatusCode::CREATED || *s == StatusCode::CONFLICT), "{statuses:?}");
    }
    let games = ask(&app, "GET", "/api/me/games", own(&alice), None).await.body;
    assert_eq!(games.as_array().unwrap().len(), 5);
}

/// The handicap from real ratings: a 5 kyu challenger, a 9 kyu who accepts: the weaker takes
/// Black and 4 stones on 19×19, komi ½ (上手 gives 子); one rank apart, 让先.
#[tokio::test]
async fn the_automatic_handicap_follows_the_two_ranks() {
    let file = std::env::temp_dir().join(format!("tengen-lobby-{:08x}.db", rand::random::<u32>()));
    let url = format!("sqlite://{}", file.display());
    let app = server(&url, roomy()).await;
    let (alice, bob, carol) = (player(&app, "Alice").await, player(&app, "Bob").await, player(&app, "Carol").await);
    let pool = sqlx::sqlite::SqlitePoolOptions::new().connect(&url).await.unwrap();
    // Ranks 25 (5k), 21 (9k) and 24 (6k): ratings half a rank above each.
    for (name, rank) in [("alice", 25.5), ("bob", 21.5), ("carol", 24.5)] {
        let rating = 525.0 * (rank / 23.15f64).exp();
        sqlx::query(
            "INSERT INTO ratings (account_id, size, rating, deviation, volatility, games, wins, losses, updated_ms) \
             SELECT id, 19, $1, 70, 0.06, 20, 10, 10, 0 FROM accounts WHERE name_key = $2",
        )
        .bind(rating)
        .bind(name)
        .execute(&pool)
        .await
        .unwrap();
    }
    let made = post(&app, &alice, json!({"handicap": "auto", "rated": true})).await;
    assert_eq!(made.body["challenger_rank"], "5k");
    let cid = id(&made);
    let took = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&bob), None).await;
    assert_eq!(took.body["color"], "black", "{}", took.body);
    let game = took.body["game"].as_str().unwrap();
    let view = ask(&app, "GET", &format!("/api/games/{game}"), Send::default(), None).await.body;
    assert_eq!((view["handicap"].as_u64(), view["komi"].as_f64()), (Some(4), Some(0.5)), "{view}");
    assert_eq!((view["black_name"].as_str(), view["white_name"].as_str()), (Some("Bob"), Some("Alice")));
    // One rank apart: 让先 (Black without komi), the weaker Black.
    let cid = id(&post(&app, &carol, json!({"handicap": "auto"})).await);
    let took = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&alice), None).await;
    assert_eq!(took.body["color"], "white", "{}", took.body);
    let view = ask(&app, "GET", &format!("/api/games/{}", took.body["game"].as_str().unwrap()), Send::default(), None)
        .await
        .body;
    assert_eq!((view["handicap"].as_u64(), view["komi"].as_f64()), (Some(0), Some(0.0)), "{view}");
    // Colour "auto" in an even game between different ranks: the weaker Black, komi 7.5.
    let cid = id(&post(&app, &bob, json!({})).await);
    let took = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&carol), None).await;
    assert_eq!(took.body["color"], "white", "{}", took.body);
    pool.close().await;
    drop(app);
    let _ = std::fs::remove_file(&file);
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn serve(app: &AppState) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = tengen_server::app(app.clone()).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    addr
}

/// The lobby's socket, as a guest or under a login.
async fn lobby(addr: SocketAddr, session: Option<&str>) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/lobby/live").into_client_request().unwrap();
    if let Some(s) = session {
        req.headers_mut().insert("cookie", format!("tengen_session={s}").parse().unwrap());
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let first = next(&mut ws).await;
    assert!(first["challenges"].is_array(), "{first}");
    ws
}

async fn next(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("a lobby message within 5 s");
        if let Message::Text(t) = msg.unwrap().unwrap() {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

#[tokio::test]
async fn the_lobby_live_shows_each_change_to_whom_it_concerns() {
    let limits = tengen_server::guard::Limits { lobby_grace: Duration::from_millis(1500), ..roomy() };
    let app = server("sqlite::memory:", limits).await;
    let addr = serve(&app).await;
    let (alice, bob, carol) = (player(&app, "Alice").await, player(&app, "Bob").await, player(&app, "Carol").await);
    let mut guest = lobby(addr, None).await;
    let mut a_ws = lobby(addr, Some(&alice)).await;
    let mut b_ws = lobby(addr, Some(&bob)).await;

    let sent = std::time::Instant::now();
    let cid = id(&post(&app, &alice, json!({"size": 9})).await);
    for ws in [&mut guest, &mut a_ws, &mut b_ws] {
        let c = next(ws).await;
        assert_eq!(
            (c["challenge"]["id"].as_str(), c["challenge"]["state"].as_str()),
            (Some(cid.as_str()), Some("open"))
        );
    }
    println!("a challenge reached three lobby sockets in {:?}", sent.elapsed());
    // A direct challenge reaches its two players only: the guest's next message is the open
    // challenge posted after it.
    let direct = id(&post(&app, &carol, json!({"to": "Bob"})).await);
    assert_eq!(next(&mut b_ws).await["challenge"]["id"].as_str(), Some(direct.as_str()));
    let later = id(&post(&app, &carol, json!({})).await);
    assert_eq!(next(&mut guest).await["challenge"]["id"].as_str(), Some(later.as_str()));
    assert_eq!(next(&mut a_ws).await["challenge"]["id"].as_str(), Some(later.as_str()));
    assert_eq!(next(&mut b_ws).await["challenge"]["id"].as_str(), Some(later.as_str()));

    // Bob accepts Alice's: both players' sockets (and the guest's) learn the game.
    let took = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&bob), None).await;
    let game = took.body["game"].as_str().unwrap().to_owned();
    for ws in [&mut a_ws, &mut b_ws, &mut guest] {
        let c = next(ws).await;
        assert_eq!(
            (c["challenge"]["state"].as_str(), c["challenge"]["game"].as_str()),
            (Some("accepted"), Some(game.as_str()))
        );
    }

    // Live challenges stay while their owner is in the lobby, and go a grace after they leave.
    let stays = id(&post(&app, &alice, json!({})).await);
    assert_eq!(next(&mut guest).await["challenge"]["id"].as_str(), Some(stays.as_str()));
    let away = id(&post(&app, &carol, json!({"size": 13})).await); // Carol has no lobby socket
    assert_eq!(next(&mut guest).await["challenge"]["id"].as_str(), Some(away.as_str()));
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        app.lobby_tick().await;
    }
    let mut ended = Vec::new();
    while ended.len() < 2 {
        let c = next(&mut guest).await;
        assert_eq!(c["challenge"]["state"], "expired", "{c}");
        ended.push(c["challenge"]["id"].as_str().unwrap().to_owned());
    }
    ended.sort();
    let mut carols = vec![later.clone(), away.clone()];
    carols.sort();
    assert_eq!(ended, carols, "Carol's live challenges went; Alice's stayed");
    // A correspondence challenge stays while its owner is away, until withdrawn or expired.
    let letters = id(&post(&app, &carol, json!({"time": {"kind": "correspondence", "days": 3}})).await);
    assert_eq!(next(&mut guest).await["challenge"]["live"], false);
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        app.lobby_tick().await;
    }
    assert!(visible(&app, None).await.contains(&letters), "Carol is away, her correspondence challenge stays");
    assert_eq!(
        ask(&app, "DELETE", &format!("/api/challenges/{letters}"), own(&carol), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(next(&mut guest).await["challenge"]["state"], "cancelled");
    assert_eq!(visible(&app, None).await, [stays.as_str()]);
    a_ws.close(None).await.unwrap();
    drop(a_ws);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.lobby_present(), 1, "Bob only");
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        app.lobby_tick().await;
    }
    let c = next(&mut guest).await;
    assert_eq!(
        (c["challenge"]["id"].as_str(), c["challenge"]["state"].as_str()),
        (Some(stays.as_str()), Some("expired"))
    );
    // What a lobby socket sends is no part of the protocol: dropped, the socket stays.
    guest.send(Message::Text("{\"challenge\": \"forged\"}".into())).await.unwrap();
    let again = id(&post(&app, &bob, json!({})).await);
    assert_eq!(next(&mut guest).await["challenge"]["id"].as_str(), Some(again.as_str()));
}

#[tokio::test]
async fn a_challenge_posted_on_one_node_is_seen_and_accepted_on_another() {
    let db = postgres().await;
    let (one, two) = (server(&db, roomy()).await, server(&db, roomy()).await);
    one.listen_for_other_servers().await.unwrap();
    two.listen_for_other_servers().await.unwrap();
    let (addr_one, addr_two) = (serve(&one).await, serve(&two).await);
    let alice = player(&one, "Alice").await;
    let bob = player(&two, "Bob").await;
    let mut a_ws = lobby(addr_one, Some(&alice)).await;
    let mut b_ws = lobby(addr_two, Some(&bob)).await;
    let sent = std::time::Instant::now();
    let cid = id(&post(&one, &alice, json!({"size": 19, "rated": true})).await);
    assert_eq!(next(&mut b_ws).await["challenge"]["id"].as_str(), Some(cid.as_str()));
    println!("node 2's lobby saw node 1's challenge in {:?}", sent.elapsed());
    let took = ask(&two, "POST", &format!("/api/challenges/{cid}/accept"), own(&bob), None).await;
    assert_eq!(took.status, StatusCode::CREATED, "{}", took.body);
    let game = took.body["game"].as_str().unwrap();
    let c = next(&mut a_ws).await;
    assert_eq!(c["challenge"]["id"].as_str(), Some(cid.as_str()));
    let c = if c["challenge"]["state"] == "open" { next(&mut a_ws).await } else { c };
    assert_eq!((c["challenge"]["state"].as_str(), c["challenge"]["game"].as_str()), (Some("accepted"), Some(game)));
    // The game is on both nodes; Bob's greeting on node 2 reaches a watcher on node 1.
    let view = ask(&one, "GET", &format!("/api/games/{game}"), Send::default(), None).await.body;
    assert_eq!(view["accounts"], json!([true, true]));
    let (mut watcher, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr_one}/api/games/{game}/live")).await.unwrap();
    assert!(next(&mut watcher).await["moves"].is_number());
    let sent = std::time::Instant::now();
    assert_eq!(say(&two, game, own(&bob), "请多指教").await.status, StatusCode::CREATED);
    assert_eq!(next(&mut watcher).await["chat"]["text"], "请多指教");
    println!("a message on node 2 reached node 1's watcher in {:?}", sent.elapsed());
    // Expiry runs on every node; each challenge expires once.
    let short = id(&post(&one, &alice, json!({})).await);
    drop(a_ws);
    tokio::time::sleep(Duration::from_millis(200)).await;
    sqlx_expire_now(&db, &short).await;
    tokio::join!(one.lobby_tick(), two.lobby_tick());
    let c = loop {
        let c = next(&mut b_ws).await;
        if c["challenge"]["id"].as_str() == Some(short.as_str()) && c["challenge"]["state"] != "open" {
            break c;
        }
    };
    assert_eq!(c["challenge"]["state"], "expired");
    drop_postgres(&db).await;
}

#[tokio::test]
async fn a_player_at_the_board_of_one_node_cannot_be_claimed_against_on_another() {
    let db = postgres().await;
    let limits = || tengen_server::guard::Limits { claim_grace: Duration::from_millis(1500), ..roomy() };
    let (one, two) = (server(&db, limits()).await, server(&db, limits()).await);
    let addr_one = serve(&one).await;
    let (alice, bob) = (player(&one, "Alice").await, player(&two, "Bob").await);
    let (game, black, white) = challenge_game(&one, &alice, &bob).await;
    // Alice sits at node 1's board; Bob on node 2 sees her there, past the grace too (node 1
    // keeps writing that she is).
    let ws = at_the_board(addr_one, &game, Some(&black), None).await;
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(700)).await;
        one.still_at_the_boards().await;
    }
    let a = ask(&two, "POST", &format!("/api/games/{game}/claim"), own(&white), None).await;
    assert_eq!(a.body["reason"], "opponent_here", "{}", a.body);
    let p = ask(&two, "GET", &format!("/api/games/{game}/presence"), Send::default(), None).await.body;
    assert_eq!(p["black"]["here"], true, "{p}");
    // She leaves node 1: past the grace, Bob claims on node 2.
    drop(ws);
    tokio::time::sleep(Duration::from_millis(1800)).await;
    let a = ask(&two, "POST", &format!("/api/games/{game}/claim"), own(&white), None).await;
    assert_eq!(a.body["result"], "W+F", "{}", a.body);
    drop_postgres(&db).await;
}

/// Moves a challenge's deadline to the past.
async fn sqlx_expire_now(db: &str, id: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(db).await.unwrap();
    sqlx::query("UPDATE challenges SET expires_ms = 0 WHERE id = $1").bind(id).execute(&mut conn).await.unwrap();
}

/// Alice challenges, Bob accepts: the game's id and the two sessions, Black's first.
async fn challenge_game(app: &AppState, alice: &str, bob: &str) -> (String, String, String) {
    let cid = id(&post(app, alice, json!({"size": 9, "color": "black"})).await);
    let took = ask(app, "POST", &format!("/api/challenges/{cid}/accept"), own(bob), None).await;
    assert_eq!(took.body["color"], "white");
    (took.body["game"].as_str().unwrap().to_owned(), alice.to_owned(), bob.to_owned())
}

async fn say(app: &AppState, game: &str, send: Send<'_>, text: &str) -> common::Answer {
    ask(app, "POST", &format!("/api/games/{game}/chat"), send, Some(json!({"text": text}))).await
}

#[tokio::test]
async fn players_and_watchers_chat_kept_with_the_game_limited_and_blockable() {
    let app = server("sqlite::memory:", roomy()).await;
    let addr = serve(&app).await;
    let (alice, bob, carol) = (player(&app, "Alice").await, player(&app, "Bob").await, player(&app, "Carol").await);
    let (game, black, white) = challenge_game(&app, &alice, &bob).await;
    let (mut watcher, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{game}/live")).await.unwrap();
    assert!(next(&mut watcher).await["moves"].is_number(), "the view first");

    let greeting = say(&app, &game, own(&black), "请多指教").await;
    assert_eq!(greeting.status, StatusCode::CREATED, "{}", greeting.body);
    assert_eq!(
        (greeting.body["name"].as_str(), greeting.body["role"].as_str(), greeting.body["moves"].as_u64()),
        (Some("Alice"), Some("black"), Some(0))
    );
    assert_eq!(next(&mut watcher).await["chat"]["text"], "请多指教", "the watcher gets it live");
    let played =
        ask(&app, "POST", &format!("/api/games/{game}/move"), own(&black), Some(json!({"move": "E5", "number": 1})))
            .await;
    assert_eq!(played.status, StatusCode::OK);
    assert_eq!(next(&mut watcher).await["moves"], 1);
    assert_eq!(say(&app, &game, own(&white), "Have a nice game").await.body["role"], "white");
    // A watcher writes as a watcher, under the login; text is kept as text.
    let script = "<img src=x onerror=alert(1)> & \"quotes\"";
    let w = say(&app, &game, own(&carol), script).await;
    assert_eq!(
        (w.body["role"].as_str(), w.body["text"].as_str(), w.body["moves"].as_u64()),
        (Some("watcher"), Some(script), Some(1))
    );
    // Refused: a guest without a seat, empty, long, multi-line or invisible text; a flood.
    assert_eq!(say(&app, &game, Send::default(), "hello").await.status, StatusCode::UNAUTHORIZED);
    for text in ["   ", &"长".repeat(501), "two\nlines", "bidi \u{202e}txet", "zero\u{200b}width"] {
        let a = say(&app, &game, own(&carol), text).await;
        assert_eq!((a.status.as_u16(), a.body["reason"].as_str()), (422, Some("chat_text")), "{text:?}: {}", a.body);
    }
    assert_eq!(say(&app, &game, own(&carol), &"长".repeat(500)).await.status, StatusCode::CREATED);
    let mut statuses = Vec::new();
    for i in 0..8 {
        statuses.push(say(&app, &game, own(&carol), &format!("message {i}")).await.status.as_u16());
    }
    assert!(statuses.contains(&429), "a flood is limited: {statuses:?}");
    let allowed = statuses.iter().filter(|s| **s == 201).count();
    assert!((2..=4).contains(&allowed), "five at once, two of them used already: {statuses:?}");
    let a = ask(&app, "POST", "/api/games/nosuchgame/chat", own(&carol), Some(json!({"text": "hi"}))).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);

    // Kept with the game, in order; a reader does not see the accounts they block.
    let all = ask(&app, "GET", &format!("/api/games/{game}/chat"), Send::default(), None).await.body;
    let texts: Vec<&str> = all.as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts[..3], ["请多指教", "Have a nice game", script]);
    assert_eq!(all.as_array().unwrap().len(), 4 + allowed);
    assert_eq!(ask(&app, "PUT", "/api/me/blocks/Carol", own(&black), None).await.status, StatusCode::NO_CONTENT);
    let seen = ask(&app, "GET", &format!("/api/games/{game}/chat"), own(&black), None).await.body;
    assert_eq!(seen.as_array().unwrap().len(), 2, "{seen}");

    // The SGF carries the chat only when asked.
    let plain = ask(&app, "GET", &format!("/api/games/{game}/sgf"), Send::default(), None).await;
    assert!(!plain.body.to_string().contains("请多指教"));
    let bytes = raw_get(addr, &format!("/api/games/{game}/sgf?chat=1")).await;
    // Before the first move on the root, after it on the move's node ("\\:" is SGF's escape).
    let (root, after) = bytes.split_once(";B[ee]").unwrap();
    assert!(root.contains("C[Alice (black)\\: 请多指教]"), "{bytes}");
    assert!(after.starts_with("C[Bob (white)\\: Have a nice game\nCarol (watcher)\\: <img src=x"), "{bytes}");
    assert_eq!(
        ask(&app, "GET", &format!("/api/games/{game}/sgf?chat=yes"), Send::default(), None).await.status,
        StatusCode::BAD_REQUEST
    );

    // A guest's seat (a friend game by links) writes under the seat's name.
    let made = ask(
        &app,
        "POST",
        "/api/games",
        Send::default(),
        Some(json!({"opponent": "friend", "size": 9, "color": "black", "name": "Guest"})),
    )
    .await;
    let (fid, token) = (made.body["id"].as_str().unwrap(), made.body["token"].as_str().unwrap());
    let g = say(&app, fid, Send { token: Some(token), ..Send::default() }, "hello").await;
    assert_eq!(
        (g.body["name"].as_str(), g.body["role"].as_str(), g.body["guest"].as_bool()),
        (Some("Guest"), Some("black"), Some(true))
    );
    let other = say(&app, &game, Send { token: Some(token), ..Send::default() }, "hello").await;
    assert_eq!(other.status, StatusCode::FORBIDDEN, "a token of another game");
}

/// A GET over the socket, its body as text (for a download).
async fn raw_get(addr: SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or(text)
}

#[tokio::test]
async fn the_games_in_play_with_names_ranks_size_and_moves() {
    let app = server("sqlite::memory:", roomy()).await;
    let (alice, bob) = (player(&app, "Alice").await, player(&app, "Bob").await);
    let (game, black, _) = challenge_game(&app, &alice, &bob).await;
    // A guest's game against the computer is not among them.
    let computer = ask(&app, "POST", "/api/games", Send::default(), Some(json!({"size": 9, "color": "black"}))).await;
    assert_eq!(computer.status, StatusCode::CREATED);
    ask(&app, "POST", &format!("/api/games/{game}/move"), own(&black), Some(json!({"move": "C3", "number": 1}))).await;
    let list = ask(&app, "GET", "/api/games?state=playing", Send::default(), None).await.body;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    let g = &list[0];
    assert_eq!((g["id"].as_str(), g["size"].as_u64(), g["moves"].as_u64()), (Some(game.as_str()), Some(9), Some(1)));
    assert_eq!((g["black"].as_str(), g["white"].as_str()), (Some("Alice"), Some("Bob")));
    assert_eq!((g["black_rank"].as_str(), g["white_rank"].as_str()), (Some("6k?"), Some("6k?")));
    ask(&app, "POST", &format!("/api/games/{game}/resign"), own(&black), None).await;
    let list = ask(&app, "GET", "/api/games?state=playing", Send::default(), None).await.body;
    assert_eq!(list, json!([]), "ended: no longer in play");
    assert_eq!(ask(&app, "GET", "/api/games?state=over", Send::default(), None).await.status, StatusCode::BAD_REQUEST);
    // The plain list is unchanged: no ranks there.
    let recent = ask(&app, "GET", "/api/games", Send::default(), None).await.body;
    assert!(recent[0].get("black_rank").is_none(), "{recent}");
}

#[tokio::test]
async fn an_early_abort_ends_a_rated_game_without_a_result_or_a_rating() {
    let app = server("sqlite::memory:", roomy()).await;
    let (alice, bob) = (player(&app, "Alice").await, player(&app, "Bob").await);
    let cid = id(&post(&app, &alice, json!({"size": 9, "color": "black", "rated": true})).await);
    let game = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&bob), None).await.body["game"]
        .as_str()
        .unwrap()
        .to_owned();
    ask(&app, "POST", &format!("/api/games/{game}/move"), own(&alice), Some(json!({"move": "E5", "number": 1}))).await;
    let a = ask(&app, "POST", &format!("/api/games/{game}/abort"), own(&bob), None).await;
    assert_eq!(
        (a.status, a.body["result"].as_str(), a.body["phase"].as_str()),
        (StatusCode::OK, Some("Void"), Some("ended"))
    );
    let profile = ask(&app, "GET", "/api/players/Bob", Send::default(), None).await.body;
    assert_eq!(profile["ratings"], json!([]), "not rated");
    // After ten moves: resign instead.
    let cid = id(&post(&app, &alice, json!({"size": 9, "color": "black"})).await);
    let game = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&bob), None).await.body["game"]
        .as_str()
        .unwrap()
        .to_owned();
    for (n, m) in ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4"].iter().enumerate() {
        let who = if n % 2 == 0 { &alice } else { &bob };
        let a =
            ask(&app, "POST", &format!("/api/games/{game}/move"), own(who), Some(json!({"move": m, "number": n + 1})))
                .await;
        assert_eq!(a.status, StatusCode::OK);
    }
    let a = ask(&app, "POST", &format!("/api/games/{game}/abort"), own(&alice), None).await;
    assert_eq!((a.status.as_u16(), a.body["reason"].as_str()), (422, Some("too_late_to_abort")));
}

/// The game's socket of a seat's player: under a login (cookie) or by the token sent first.
async fn at_the_board(addr: SocketAddr, game: &str, cookie: Option<&str>, token: Option<&str>) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{game}/live").into_client_request().unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert("cookie", format!("tengen_session={c}").parse().unwrap());
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    if let Some(t) = token {
        ws.send(Message::Text(json!({ "seat": t }).to_string().into())).await.unwrap();
    }
    assert!(next(&mut ws).await["moves"].is_number());
    ws
}

#[tokio::test]
async fn a_player_away_past_the_grace_loses_the_game_on_a_claim() {
    let limits = tengen_server::guard::Limits { claim_grace: Duration::from_millis(1200), ..roomy() };
    let app = server("sqlite::memory:", limits).await;
    let addr = serve(&app).await;
    let (alice, bob) = (player(&app, "Alice").await, player(&app, "Bob").await);
    let (game, black, white) = challenge_game(&app, &alice, &bob).await;
    let claim = |who: String| {
        let (app, game) = (app.clone(), game.clone());
        async move { ask(&app, "POST", &format!("/api/games/{game}/claim"), own(&who), None).await }
    };
    let presence = || {
        let (app, game) = (app.clone(), game.clone());
        async move { ask(&app, "GET", &format!("/api/games/{game}/presence"), Send::default(), None).await.body }
    };
    // Alice (Black) is at the board under her login; Bob never came.
    let ws = at_the_board(addr, &game, Some(&black), None).await;
    let p = presence().await;
    assert_eq!((p["black"]["here"].as_bool(), p["white"]["here"].as_bool()), (Some(true), Some(false)), "{p}");
    let refused = claim(white.clone()).await;
    assert_eq!((refused.status.as_u16(), refused.body["reason"].as_str()), (422, Some("opponent_here")));
    // She leaves: not yet claimable, then claimable once the grace has passed.
    drop(ws);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let early = claim(white.clone()).await;
    assert_eq!(early.body["reason"], "opponent_here", "left 0.3 s ago: {}", early.body);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let won = claim(white.clone()).await;
    assert_eq!((won.status, won.body["result"].as_str()), (StatusCode::OK, Some("W+F")), "{}", won.body);
    assert_eq!(claim(white).await.body["reason"], "over");

    // A guest's seat says itself by its token; the computer cannot be claimed against.
    let made = ask(
        &app,
        "POST",
        "/api/games",
        Send::default(),
        Some(json!({"opponent": "friend", "size": 9, "color": "black"})),
    )
    .await;
    let (fid, token, friend) = (
        made.body["id"].as_str().unwrap().to_owned(),
        made.body["token"].as_str().unwrap().to_owned(),
        made.body["friend_token"].as_str().unwrap().to_owned(),
    );
    let _ws = at_the_board(addr, &fid, None, Some(&token)).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let send = Send { token: Some(&friend), ..Send::default() };
    let a = ask(&app, "POST", &format!("/api/games/{fid}/claim"), send, None).await;
    assert_eq!(a.body["reason"], "opponent_here", "Black's guest is at the board: {}", a.body);
    // Black claims on move: refused; Black moves (a claim needs the opponent to be the one to
    // move), and claims once White has been on move past the grace.
    let send = Send { token: Some(&token), ..Send::default() };
    let a = ask(&app, "POST", &format!("/api/games/{fid}/claim"), send.clone(), None).await;
    assert_eq!(a.body["reason"], "your_move", "{}", a.body);
    let body = json!({"move": "E5", "number": 1});
    let moved = ask(&app, "POST", &format!("/api/games/{fid}/move"), send.clone(), Some(body)).await;
    assert_eq!(moved.status, StatusCode::OK);
    let a = ask(&app, "POST", &format!("/api/games/{fid}/claim"), send.clone(), None).await;
    assert_eq!(a.body["reason"], "opponent_here", "White on move for a moment only: {}", a.body);
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let a = ask(&app, "POST", &format!("/api/games/{fid}/claim"), send, None).await;
    assert_eq!(a.body["result"], "B+F", "White never came: {}", a.body);
    let computer = ask(&app, "POST", "/api/games", Send::default(), Some(json!({"size": 9, "color": "white"}))).await;
    let (cid, ctoken) = (computer.body["id"].as_str().unwrap(), computer.body["token"].as_str().unwrap());
    let send = Send { token: Some(ctoken), ..Send::default() };
    let a = ask(&app, "POST", &format!("/api/games/{cid}/claim"), send, None).await;
    assert_eq!(a.body["reason"], "computer_game");
    // Nor a correspondence game: its clock of days decides.
    let cid =
        id(&post(&app, &alice, json!({"size": 9, "color": "black", "time": {"kind": "correspondence", "days": 1}}))
            .await);
    let took = ask(&app, "POST", &format!("/api/challenges/{cid}/accept"), own(&bob), None).await;
    let cgame = took.body["game"].as_str().unwrap();
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let a = ask(&app, "POST", &format!("/api/games/{cgame}/claim"), own(&alice), None).await;
    assert_eq!(a.body["reason"], "correspondence_game");
}

#[tokio::test]
async fn a_deleted_account_leaves_no_challenge_behind() {
    let app = server("sqlite::memory:", roomy()).await;
    let (alice, bob) = (player(&app, "Alice").await, player(&app, "Bob").await);
    let letters = id(&post(&app, &alice, json!({"time": {"kind": "correspondence", "days": 7}})).await);
    let direct = id(&post(&app, &alice, json!({"to": "Bob"})).await);
    // Both, in either order: posted within the same millisecond, they tie on their time.
    let mut seen = visible(&app, Some(&bob)).await;
    seen.sort();
    let mut posted = [letters.clone(), direct.clone()];
    posted.sort();
    assert_eq!(seen, posted);
    let gone = ask(&app, "DELETE", "/api/me", own(&alice), Some(json!({"password": "a long password"}))).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.body);
    assert!(visible(&app, Some(&bob)).await.is_empty());
    let a = ask(&app, "POST", &format!("/api/challenges/{letters}/accept"), own(&bob), None).await;
    assert_eq!((a.status, a.body["reason"].as_str()), (StatusCode::CONFLICT, Some("challenge_closed")));
}

/// Messages written at once from two servers on one SQLite file all land, numbered 1 to n
/// (a read-then-write transaction failed at once with "database is locked" when another
/// message came between).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn chat_messages_written_at_once_on_one_sqlite_file_all_land() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chat-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("games.db").display());
    let app = server(&url, roomy()).await;
    let (alice, bob) = (player(&app, "Alice").await, player(&app, "Bob").await);
    let (game, _, _) = challenge_game(&app, &alice, &bob).await;
    let stores = [Store::open(&url).await.unwrap(), Store::open(&url).await.unwrap()];
    let tasks: Vec<_> = (0..24)
        .map(|i| {
            let (store, game) = (stores[i % 2].clone(), game.clone());
            tokio::spawn(async move {
                let row = tengen_server::store::ChatRow {
                    seq: 0,
                    account_id: None,
                    name: format!("writer {i}"),
                    role: "watcher".into(),
                    body: format!("message {i}"),
                    moves: 0,
                    at_ms: 0,
                };
                store.add_chat(&game, &row, 1_000).await
            })
        })
        .collect();
    let mut numbers = Vec::new();
    for t in tasks {
        numbers.push(t.await.unwrap().expect("every message lands").expect("within the share"));
    }
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=24).collect::<Vec<i64>>());
    assert_eq!(stores[0].chat_of(&game, None, 500).await.unwrap().len(), 24);
    let _ = std::fs::remove_dir_all(&dir);
}
