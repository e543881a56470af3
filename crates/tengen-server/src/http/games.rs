//! Games: the list of recent games, a new game, a game as it stands, and its live updates.

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State as AxumState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use tengen_core::{Color, Komi, Nigiri, Parity, Rules};
use utoipa::ToSchema;

use crate::domain::challenge::StoneCount;
use crate::domain::view::View;
use crate::domain::{Config, GameError, Opponent, Placement, State, TimeControl, check_name};
use crate::error::ApiError;
use crate::guard::Client;
use crate::http::connections::ConnectionSlot;
use crate::http::extract::{Body, ErrorBody, GameId};
use crate::http::ws::{Heartbeat, WATCHER_MESSAGE, Watching, websocket};
use crate::service::study::{play_line, position_at, studied};
use crate::service::{AppState, now_ms, token_hash};
use crate::store::{StoredGame, Summary};
use crate::util::random_token;

/// The game list, a new game, a game and its live updates.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(recent).post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/live", get(live))
        .route("/api/games/{id}/presence", get(presence))
}

/// A new game.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct NewGame {
    /// Board size, 2 to 25 (19).
    #[schema(minimum = 2, maximum = 25)]
    size: Option<usize>,
    /// `{"computer": {"level": 5}}` (the default) or `"friend"`.
    opponent: Option<Opponent>,
    /// The rules: `chinese` (the default), `chinese-simple-ko` or `tromp-taylor`.
    rules: Option<RulesName>,
    /// Komi in points, a multiple of ½ (7.5 = 贴 3¾ 子 by default; 0 with handicap or 让先).
    #[schema(minimum = -361, maximum = 361, multiple_of = 0.5)]
    pub(super) komi: Option<f64>,
    /// Handicap stones: 0 (the default) or 2 to 9, as many as the board takes (refused with
    /// 422 beyond); or `"auto"` (a logged-in player against a level rated on the size): the
    /// weaker takes Black and the stones, 让先 or an even game follow the rank difference.
    pub(super) handicap: Option<HandicapChoice>,
    /// `fixed` (star points, the default) or `free`.
    pub(super) placement: Option<Placement>,
    /// 让先: Black plays first without komi (no handicap stones then).
    pub(super) rang_xian: Option<bool>,
    /// The creator's colour: `black`, `white` or `nigiri` (the default).
    pub(super) color: Option<ColorChoice>,
    /// For nigiri: the creator guesses `odd` (the default) or `even`.
    guess: Option<Guess>,
    /// Time control: `{"kind": "none"}` (default), `absolute`, `byoyomi`, `canadian`, `fischer`.
    time: Option<TimeControl>,
    /// The creator's name, whichever colour the creator gets: 1 to 40 printable characters
    /// (refused with 422 otherwise). Each seat may set or change its own later (`POST
    /// /api/games/{id}/name`).
    #[schema(min_length = 1, max_length = 40)]
    name: Option<String>,
    /// Rated (false): the result changes both players' ratings. Needs a login (the creator's
    /// seat is held by the account), a friend who takes the other seat logged in, and a board
    /// of 9, 13 or 19 lines.
    rated: Option<bool>,
    /// Black's name, as `name` (a friend's seat left unnamed until the friend names it).
    #[schema(min_length = 1, max_length = 40)]
    black_name: Option<String>,
    /// White's name, as Black's.
    #[schema(min_length = 1, max_length = 40)]
    white_name: Option<String>,
}

/// The rules a game may be played under: area scoring only.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RulesName {
    /// The Chinese rules: positional superko, no suicide, komi 3¾ stones.
    Chinese,
    /// The Chinese rules with the simple ko rule.
    ChineseSimpleKo,
    /// Tromp–Taylor: positional superko, suicide allowed.
    TrompTaylor,
}

impl RulesName {
    fn as_str(self) -> &'static str {
        match self {
            RulesName::Chinese => "chinese",
            RulesName::ChineseSimpleKo => "chinese-simple-ko",
            RulesName::TrompTaylor => "tromp-taylor",
        }
    }
}

/// Handicap stones (0, or 2 to 9), or `auto`.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub(crate) enum HandicapChoice {
    /// 0, or 2 to 9 stones.
    Stones(#[schema(inline)] StoneCount),
    /// From the ranks.
    Auto(AutoWord),
}

/// The word `auto`.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum AutoWord {
    /// From the ranks.
    Auto,
}

/// The creator's colour.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ColorChoice {
    /// Black.
    Black,
    /// White.
    White,
    /// Drawn by nigiri (猜先).
    Nigiri,
}

/// The nigiri guess.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Guess {
    /// An odd number of stones in the hand.
    Odd,
    /// An even number.
    Even,
}

/// A created game: its view and the seat tokens (shown once; keep them).
#[derive(Serialize, ToSchema)]
pub(crate) struct Created {
    /// The game's id (read and watch with it).
    id: String,
    /// The creator's colour.
    #[schema(value_type = String)]
    color: Color,
    /// The creator's seat token.
    token: String,
    /// The other seat's token, for the friend (none against the computer).
    friend_token: Option<String>,
    /// The game.
    game: View,
}

/// Which games a list holds.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ListState {
    /// The games in play between players, and the rated ones.
    Playing,
}

/// Recent games, newest first; with `state=playing`, the games in play between players (both
/// seats held by accounts) and the rated ones, most recently changed first, with the players'
/// ranks.
#[utoipa::path(get, tag = "games", path = "/api/games", params(("limit" = Option<i64>, Query, minimum = 1, maximum = 500, description = "at most this many (50)"),
        ("state" = Option<ListState>, Query, description = "`playing`: the games in play")),
    responses((status = 200, body = Vec<Summary>), (status = 400, body = ErrorBody, description = "a limit or state that does not read")))]
async fn recent(
    AxumState(app): AxumState<AppState>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Result<Json<Vec<Summary>>, ApiError> {
    let limit = match q.get("limit") {
        Some(l) => l
            .parse::<i64>()
            .ok()
            .filter(|l| (1..=500).contains(l))
            .ok_or_else(|| ApiError::bad_request("limit must be 1 to 500"))?,
        None => 50,
    };
    match q.get("state").map(String::as_str) {
        None => Ok(Json(app.store().recent(limit).await?)),
        Some("playing") => Ok(Json(app.store().playing(limit).await?)),
        Some(other) => {
            let shown: String = other.chars().take(40).collect();
            Err(ApiError::bad_request(format!("state: `playing` or none, not {shown:?}")))
        }
    }
}

/// Creates a game.
#[utoipa::path(post, tag = "games", path = "/api/games", request_body = Option<NewGame>,
    responses((status = 201, body = Created),
        (status = 401, body = ErrorBody, description = "a rated game asked for without a login"),
        (status = 422, body = ErrorBody, description = "refused: handicap stones the board cannot take, a name that breaks the rule for names, a rated game against the computer or on another size"),
        (status = 429, body = ErrorBody, description = "too many games created from this address, or the computer already busy with its games")))]
async fn create(
    AxumState(app): AxumState<AppState>,
    client: Client,
    headers: axum::http::HeaderMap,
    Body(new): Body<NewGame>,
) -> Result<Response, ApiError> {
    let size = new.size.unwrap_or(19);
    let opponent = new.opponent.unwrap_or(Opponent::Computer { level: 5 });
    // A logged-in creator's seat is held by the account, and named after it.
    let account = super::accounts::logged_in(&app, &headers).await?;
    let rated = new.rated.unwrap_or(false);
    let auto = matches!(new.handicap, Some(HandicapChoice::Auto(_)));
    let level_rating = super::rated::check(&app, &new, size, opponent, account.as_ref(), rated, auto)?;
    let computer_rating = level_rating.filter(|_| rated);
    // "auto": the colours, stones and komi from the ranks.
    let (auto_color, new) = match level_rating.filter(|_| auto) {
        Some(level) => super::rated::auto_setup(&app, new, size, account.as_ref(), level).await?,
        None => (None, new),
    };
    let rules_name = new.rules.unwrap_or(RulesName::Chinese).as_str().to_owned();
    let handicap = match new.handicap {
        Some(HandicapChoice::Stones(StoneCount(n))) => n as usize,
        _ => 0,
    };
    let rang_xian = new.rang_xian.unwrap_or(false);
    if rang_xian && handicap > 0 {
        return Err(
            ApiError::refused("让先 (rang_xian) is a game without handicap stones").because("rang_xian_handicap")
        );
    }
    let rules = Rules::preset(&rules_name).map_err(|_| GameError::Rules(rules_name.clone()))?;
    let komi = match new.komi {
        Some(k) => crate::domain::komi_points(k)?,
        None if handicap > 0 || rang_xian => Komi::ZERO,
        None => rules.komi,
    };
    let (color, nigiri) = match auto_color.or(new.color).unwrap_or(ColorChoice::Nigiri) {
        ColorChoice::Nigiri => {
            let guess = match new.guess.unwrap_or(Guess::Odd) {
                Guess::Odd => Parity::Odd,
                Guess::Even => Parity::Even,
            };
            let n = Nigiri::draw(&mut rand::rng(), guess);
            (n.guesser_color(), Some((guess == Parity::Odd, n.handful)))
        }
        ColorChoice::Black => (Color::Black, None),
        ColorChoice::White => (Color::White, None),
    };
    let computer = matches!(opponent, Opponent::Computer { .. }).then_some(!color);
    // Every name given is checked (and trimmed) here; a seat nobody named stays empty (the
    // page shows the colour), the computer's seat is named after its level.
    let checked = |what: &str, given: Option<String>| {
        given.map(|n| check_name(&n).map_err(|why| GameError::Name { what: what.into(), why })).transpose()
    };
    let creator = checked("name", new.name)?;
    let given = [checked("black_name", new.black_name)?, checked("white_name", new.white_name)?];
    let name = |c: Color| {
        given[c.index()].clone().or_else(|| creator.clone().filter(|_| c == color)).unwrap_or_else(|| {
            match (computer, opponent) {
                (Some(cc), Opponent::Computer { level }) if cc == c => format!("tengen (level {level})"),
                _ => String::new(),
            }
        })
    };
    let config = Config {
        size,
        rules: rules_name,
        komi_half_points: komi.half_points(),
        handicap,
        placement: new.placement.unwrap_or_default(),
        opponent,
        computer,
        time: new.time.unwrap_or_default(),
        black_name: name(Color::Black),
        white_name: name(Color::White),
        nigiri,
        imported: false,
        rated,
        accounts: [Color::Black, Color::White].map(|c| account.as_ref().filter(|_| c == color).map(|a| a.id.clone())),
        computer_rating,
    };
    let mut config = config;
    if let Some(a) = &account {
        match color {
            Color::Black => config.black_name.clone_from(&a.name),
            Color::White => config.white_name.clone_from(&a.name),
        }
    }
    let created = now_ms();
    let state = State::new(config, created)?;
    app.quotas().new_game(client)?;
    // The computer moves (or places its stones) first: a place in the client's share, held
    // until the game is stored and its job queued.
    let _room = if computer == Some(Color::Black) { Some(app.computer_room(client).await?) } else { None };
    let id = random_token(8);
    let token = random_token(16);
    let friend_token = computer.is_none().then(|| random_token(16));
    let mut tokens = [None, None];
    tokens[color.index()] = Some(token_hash(&token));
    tokens[(!color).index()] = friend_token.as_deref().map(token_hash);
    let stored = StoredGame { id: id.clone(), created_ms: created, config: state.config.clone(), tokens, sgf: None };
    app.create(&stored, &state, client).await?;
    let game = View::of(&id, &state, now_ms());
    Ok((StatusCode::CREATED, Json(Created { id, color, token, friend_token, game })).into_response())
}

/// A game as it stands, or as it was after `at` moves (for review).
#[utoipa::path(get, tag = "games", path = "/api/games/{id}", params(("id" = String, Path),
        ("at" = Option<usize>, Query, minimum = 0, description = "the position after this many moves"),
        ("then" = Option<String>, Query, description = "a variation from that position (the last without `at`): moves separated by commas (`D4,E5,pass`), colours alternating")),
    responses((status = 200, body = View),
        (status = 409, body = ErrorBody, description = "a variation of a game still in play (`in_play`)"),
        (status = 422, body = ErrorBody, description = "the game has fewer moves; a move of the variation is unreadable or illegal (the rules' sentence and `reason`)")))]
async fn read(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Result<Json<View>, ApiError> {
    let (stored, mut state) = app.load(&id).await?;
    let at = match q.get("at") {
        None => None,
        // A number of any length is a move number: past the game's moves, whatever its size.
        Some(at) => Some(match at.parse() {
            Ok(at) => at,
            Err(_) if !at.is_empty() && at.bytes().all(|b| b.is_ascii_digit()) => usize::MAX,
            Err(_) => return Err(ApiError::bad_request(format!("at: a move number, not {at:?}"))),
        }),
    };
    let then = q.get("then").filter(|t| !t.trim().is_empty());
    if then.is_some() && !studied(&stored, &state) {
        return Err(ApiError::in_conflict("the game is still in play: variations are played once it has ended")
            .because("in_play"));
    }
    if at.is_some() || then.is_some() {
        // The position after `at` moves (the last without it), without the counting phase's
        // marks; a variation plays on from there.
        state.game = position_at(&state.game, at)?;
        state.dead.clear();
        state.undo_request = None;
    }
    if let Some(then) = then {
        let line: Vec<String> = then.split(',').map(str::to_owned).collect();
        play_line(&mut state.game, &line, "then")?;
    }
    Ok(Json(View::of(&id, &state, now_ms())))
}

/// Live updates: a WebSocket that receives the game's view now and after every change.
#[utoipa::path(get, tag = "games", path = "/api/games/{id}/live", params(("id" = String, Path)),
    responses((status = 101, description = "WebSocket: one View (JSON text) per change of the game, `{\"review\": ReviewView}` per change of its review, and `{\"chat\": ChatMessage}` per message of its chat. A player's page says its seat by the login's cookie or by a first message `{\"seat\": TOKEN}`: the player counts as at the board while the socket stays"),
        (status = 400, body = ErrorBody, description = "not a WebSocket request"),
        (status = 403, body = ErrorBody, description = "a page of another site"), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "too many watchers from this address")))]
async fn live(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = websocket(&app, &headers, ws)?;
    // The game first: an unknown id leaves nothing behind.
    let (stored, state) = app.load(&id).await?;
    // A seat's player at the board: by the login that holds the seat, or by the seat's token
    // sent as the socket's first message (`{"seat": TOKEN}`: never in a URL).
    let account = super::accounts::logged_in(&app, &headers).await?;
    let seated = account.as_ref().and_then(|a| AppState::seat_of_account(&state, &a.id).ok());
    let reader = account.map(|a| a.id);
    let slot = super::ws::hold(slot)?;
    app.watcher_opens(client)?;
    // Subscribe, then read: a change between the two reaches the watcher twice (the second
    // view is whole anyway), never zero times.
    let mut watching = Watching { held: Some(app.subscribe(&id)), app: app.clone(), client, id: id.clone(), slot };
    let (_, state) = app.load(&id).await?;
    let first = serde_json::to_string(&View::of(&id, &state, now_ms())).map_err(|e| ApiError::internal(&e))?;
    Ok(ws
        .max_message_size(WATCHER_MESSAGE)
        .max_frame_size(WATCHER_MESSAGE)
        .read_buffer_size(WATCHER_MESSAGE)
        .on_upgrade(move |socket| async move {
            if let Some(changes) = watching.held.as_mut() {
                let board = Board { app: app.clone(), stored, seated, at: None, reader, blocked: None };
                watch(socket, first, changes, board).await;
            }
        }))
}

/// Who watches through a game socket: a seat's player is counted at the board while it stays;
/// a logged-in reader is not sent the chat of the accounts they block.
struct Board {
    app: AppState,
    stored: std::sync::Arc<crate::store::StoredGame>,
    seated: Option<tengen_core::Color>,
    at: Option<crate::service::presence::AtTheBoard>,
    /// The logged-in reader's account.
    reader: Option<String>,
    /// The names the reader blocks, as of a count of the changes of blocks.
    blocked: Option<(u64, std::collections::HashSet<String>)>,
}

impl Board {
    /// Whether the reader is sent `json` (a view, or a chat message of an account the reader
    /// does not block).
    async fn sends(&mut self, json: &str) -> bool {
        let Some(reader) = &self.reader else { return true };
        if !json.starts_with("{\"chat\":") {
            return true;
        }
        let epoch = self.app.blocks_epoch();
        if self.blocked.as_ref().is_none_or(|(seen, _)| *seen != epoch) {
            let names = match self.app.store().blocks_of(reader).await {
                Ok(rows) => rows.into_iter().map(|(_, name)| name).collect(),
                Err(e) => {
                    tracing::warn!("blocks of a reader: {e}");
                    return true;
                }
            };
            self.blocked = Some((epoch, names));
        }
        let Some((_, names)) = &self.blocked else { return true };
        if names.is_empty() {
            return true;
        }
        let Ok(message) = serde_json::from_str::<serde_json::Value>(json) else { return true };
        let chat = &message["chat"];
        chat["guest"] == true || chat["name"].as_str().is_none_or(|name| !names.contains(name))
    }

    async fn sit(&mut self, color: tengen_core::Color) {
        if self.at.is_none() {
            self.at = Some(self.app.at_the_board(&self.stored.id, color).await);
        }
    }

    /// A watcher's message: `{"seat": TOKEN}` names the seat it plays; anything else is
    /// dropped.
    async fn heard(&mut self, text: &str) {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(text) else { return };
        let Some(token) = message["seat"].as_str() else { return };
        if let Ok(color) = AppState::seat(&self.stored, Some(token)) {
            self.sit(color).await;
        }
    }
}

/// Both players' presence at the board, and when an absent player's game may be claimed.
#[utoipa::path(get, tag = "games", path = "/api/games/{id}/presence", params(("id" = String, Path)),
    responses((status = 200, body = crate::service::presence::Presence), (status = 404, body = ErrorBody)))]
async fn presence(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
) -> Result<Json<crate::service::presence::Presence>, ApiError> {
    Ok(Json(app.presence(&id).await?))
}

async fn watch(
    mut socket: WebSocket,
    first: String,
    changes: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<str>>,
    mut board: Board,
) {
    if let Some(color) = board.seated {
        board.sit(color).await;
    }
    let mut heart = Heartbeat::new(&board.app);
    if !heart.send(&mut socket, Message::Text(first.into())).await {
        return;
    }
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                Ok(json) => {
                    if board.sends(&json).await && !heart.send(&mut socket, Message::Text((&*json).into())).await {
                        return;
                    }
                }
                // A slow watcher missed some: the next view carries the whole state anyway.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            () = heart.due() => if !heart.ping(&mut socket).await { return },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(Message::Text(text))) => {
                    heart.heard();
                    board.heard(&text).await;
                }
                // Anything else a watcher sends is not part of the protocol: dropped.
                Some(Ok(_)) => heart.heard(),
            },
        }
    }
}
