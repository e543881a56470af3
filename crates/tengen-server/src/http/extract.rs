//! The API's extractors: JSON bodies read strictly (no duplicate keys, integral numbers,
//! the size limit told truly), game ids, and the error body they answer with.

use axum::extract::{FromRequestParts, Path};
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::service::AppState;

/// The body of every error.
#[derive(Serialize, ToSchema)]
pub(crate) struct ErrorBody {
    /// A short code: bad_request, unauthorized, forbidden, not_found, stale, refused, internal.
    error: String,
    /// What went wrong, in English.
    detail: String,
    /// A refusal of the game's (400, 409, 422): a stable code for clients that word it
    /// themselves — `occupied`, `suicide`, `ko`, `superko`, `not_your_turn`, `undo_waits`,
    /// `over`, `name_long` … — with the point or colour the sentence names.
    reason: Option<String>,
    /// The point the refusal names (`D4`).
    point: Option<String>,
    /// The colour it names (`black`, `white`).
    color: Option<String>,
    /// A record that does not replay (`sgf_replay`): the number of the move refused.
    #[schema(minimum = 1)]
    number: Option<usize>,
    /// Why the rules refused that move: `occupied`, `suicide`, `ko`, `superko`, `off_board`.
    cause: Option<String>,
}

/// JSON bodies: a body that does not read is a 400 with serde's words.
pub(crate) struct Body<T>(pub(crate) T);

/// The byte limit of a route's body where it is not `--body-limit` (the SGF routes take
/// `--sgf-limit`): set beside the route's `DefaultBodyLimit`, so that a refusal names the
/// limit that applied.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyLimit(pub(crate) usize);

impl<T: serde::de::DeserializeOwned> axum::extract::FromRequest<AppState> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, state: &AppState) -> Result<Self, ApiError> {
        let limit = req.extensions().get::<BodyLimit>().map_or(state.limits().body_bytes, |l| l.0);
        let bytes = axum::body::Bytes::from_request(req, state).await.map_err(|e| body_error(&e, limit))?;
        let invalid = |e: serde_json::Error| ApiError::bad_request(format!("invalid JSON body: {e}"));
        // No body at all. A body of whitespace only is no JSON text: refused like any other
        // (schemathesis counts it as invalid syntax).
        let mut value = if bytes.is_empty() {
            serde_json::Value::Null
        } else {
            no_duplicate_keys(&bytes).map_err(invalid)?;
            serde_json::from_slice(&bytes).map_err(invalid)?
        };
        // No body, or `null`: no options given.
        if value.is_null() {
            value = serde_json::Value::Object(serde_json::Map::new());
        }
        if !value.is_object() {
            return Err(ApiError::bad_request("invalid JSON body: an object is expected"));
        }
        integral_numbers(&mut value);
        // The field is named: `at opponent.computer.level: …`.
        serde_path_to_error::deserialize(value).map(Body).map_err(|e| {
            let path = e.path().to_string();
            let e = e.into_inner();
            if path == "." { invalid(e) } else { ApiError::bad_request(format!("invalid JSON body at {path}: {e}")) }
        })
    }
}

/// Refuses a JSON text with a key twice in one object, at any depth: serde_json keeps the last
/// one silently, so `{"size": 9, "size": 19}` would be read as whatever came last.
fn no_duplicate_keys(bytes: &[u8]) -> Result<(), serde_json::Error> {
    use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
    struct Check;
    impl<'de> DeserializeSeed<'de> for Check {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(Check)
        }
    }
    impl<'de> Visitor<'de> for Check {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Check)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut keys = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !keys.insert(key.clone()) {
                    return Err(A::Error::custom(format!("the key {key:?} is given twice")));
                }
                map.next_value_seed(Check)?;
            }
            Ok(())
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    Check.deserialize(&mut deserializer)?;
    deserializer.end()
}

/// Writes every whole number given with a fraction (`19.0`) as an integer, as JSON Schema
/// counts it: an integer field takes it, a fractional one reads it the same.
fn integral_numbers(value: &mut serde_json::Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::Array(items) => stack.extend(items.iter_mut()),
            serde_json::Value::Object(fields) => stack.extend(fields.values_mut()),
            serde_json::Value::Number(n) if n.is_f64() => {
                let x = n.as_f64().unwrap_or(f64::NAN);
                if x.fract() == 0.0 && x.abs() < 9.0e15 {
                    *value = serde_json::Value::from(x as i64);
                }
            }
            _ => {}
        }
    }
}

/// A body that could not be read: 413 past `limit` bytes, else 400.
pub(crate) fn body_error(e: &axum::extract::rejection::BytesRejection, limit: usize) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::too_large(format!("the body is larger than {limit} bytes, the most this address takes"))
    } else {
        ApiError::bad_request(format!("the body cannot be read: {}", e.body_text()))
    }
}

/// The longest game id taken: ids are 16 hexadecimal digits; anything longer names no game
/// and is refused before any lookup.
const ID_CHARS: usize = 32;

/// The game id of the path; one that does not decode is a 400 in the API's own form, one
/// that cannot be an id a 404 (before the database or any table of the server sees it).
pub(crate) struct GameId(pub(crate) String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, ApiError> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::bad_request(format!("invalid game id in the path: {}", e.body_text())))?;
        if !could_be_id(&id) {
            return Err(ApiError::not_found(&id));
        }
        Ok(GameId(id))
    }
}

/// Whether `id` could name a game (or an analysis): 1 to [`ID_CHARS`] letters and digits.
pub(crate) fn could_be_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= ID_CHARS && id.bytes().all(|b| b.is_ascii_alphanumeric())
}
