//! A game's state from what the store holds: its event log replayed, or its imported record
//! read; and the games held in memory ([`Games`]), so that a read costs a query for the
//! events since, not the whole log again. Below the application and the handlers, above the
//! domain and the store.

use std::collections::HashMap;
use std::sync::Arc;

use crate::domain::{Event, State};
use crate::error::ApiError;
use crate::store::StoredGame;

/// A stored game's state: its log replayed, or its imported record.
///
/// # Errors
/// 500 when the log or the record does not replay.
pub fn state_of(stored: &StoredGame, events: &[Event]) -> Result<State, ApiError> {
    if stored.config.imported {
        let text = stored.sgf.as_deref().unwrap_or("");
        // The main line alone: the variations are not parsed (only the record's download
        // and its variations need them, `game_record`).
        let (record, _) = tengen_sgf::Record::read_main_line(text).map_err(|e| ApiError::internal(&e))?;
        // As the import replayed it (records imported before it refused a move that cannot be
        // replayed leave such moves out).
        let replay = record
            .replay_under(tengen_core::Rules::chinese(), tengen_sgf::IllegalMoves::Skip)
            .map_err(|e| ApiError::internal(&e))?;
        Ok(State::imported(stored.config.clone(), replay.game, stored.created_ms))
    } else {
        Ok(State::replay(stored.config.clone(), stored.created_ms, events)?)
    }
}

/// Runs `parse`, the read of a large record, off the async threads, then gives the memory it
/// freed back to the system (`tengen_server::set_memory_trim`).
///
/// # Errors
/// `parse`'s error; 500 when it panicked.
pub async fn parse_off_thread<T: Send + 'static>(
    parse: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || {
        let parsed = parse();
        crate::util::trim_memory();
        parsed
    })
    .await
    .map_err(|e| ApiError::internal(&e))?
}

/// A game's record: an imported game's own (comments and variations kept), a played game's
/// written from its moves.
pub fn game_record(stored: &StoredGame, state: &State) -> Result<tengen_sgf::Record, ApiError> {
    if let (Some(sgf), true) = (&stored.sgf, stored.config.imported) {
        return tengen_sgf::Record::read(sgf).map_err(|e| ApiError::internal(&e));
    }
    Ok(tengen_sgf::write_game(&state.game, &record_info(state)))
}

/// A game's record with its chat as comments: each message on the node of the last move
/// played when it was written (before the first move: the root), as `NAME (ROLE): TEXT`.
#[must_use]
pub fn record_with_chat(state: &State, chat: &[crate::service::chat::ChatMessage]) -> tengen_sgf::Record {
    let moves = state.game.moves().len();
    let mut root = String::new();
    let mut notes = vec![tengen_sgf::Note::default(); moves];
    for m in chat {
        let line = format!("{} ({}): {}", m.name, m.role, m.text);
        let at = usize::try_from(m.moves).unwrap_or(0).min(moves);
        let comment = if at == 0 { &mut root } else { &mut notes[at - 1].comment };
        if !comment.is_empty() {
            comment.push('\n');
        }
        comment.push_str(&line);
    }
    tengen_sgf::write_annotated(&state.game, &record_info(state), &root, &notes)
}

/// The record information of a game played on the server.
fn record_info(state: &State) -> tengen_sgf::GameInfo {
    tengen_sgf::GameInfo {
        black: Some(state.config.black_name.clone()).filter(|n| !n.is_empty()),
        white: Some(state.config.white_name.clone()).filter(|n| !n.is_empty()),
        result: state.game.outcome().map(|o| o.result_points()),
        size: state.config.size,
        komi: Some(state.game.rules().komi),
        handicap: state.game.handicap(),
        rules: Some("Chinese".into()),
        ..tengen_sgf::GameInfo::default()
    }
}

/// What the record information of a game shows (`GET /api/games/ID/info`), kept instead of
/// the record's tree: a parsed record of 98,000 nodes takes some 160 MB.
#[derive(Debug)]
pub struct RecordSummary {
    /// The root's game information.
    pub info: tengen_sgf::GameInfo,
    /// The comments along the main line, by the number of moves before them.
    pub comments: Vec<(usize, String)>,
    /// Branch points (variations besides the main line).
    pub branch_points: usize,
    /// The variations as lines of moves from the main line (an imported record's, when it is
    /// small enough to read whole: [`LINES_FROM_NODES`]), at most [`MAX_LINES`].
    pub lines: Vec<tengen_sgf::Line>,
}

/// The most nodes of a record whose variations are read into lines (the whole tree parsed:
/// some 1.6 KB a node).
pub const LINES_FROM_NODES: usize = 5_000;

/// The most variation lines of a record shown.
pub const MAX_LINES: usize = 200;

impl RecordSummary {
    /// The summary of `record`.
    ///
    /// # Errors
    /// 500 when its game information does not read.
    pub fn of(record: &tengen_sgf::Record) -> Result<RecordSummary, ApiError> {
        RecordSummary::with(record, record.branch_points())
    }

    /// The summary of `record` (its main line at least), whose whole tree has `branch_points`.
    fn with(record: &tengen_sgf::Record, branch_points: usize) -> Result<RecordSummary, ApiError> {
        Ok(RecordSummary {
            info: record.info().map_err(|e| ApiError::internal(&e))?,
            comments: record.comments(),
            branch_points,
            lines: Vec::new(),
        })
    }

    /// The summary of an imported record's text, read without parsing its variations.
    ///
    /// # Errors
    /// 500 when the record or its game information does not read.
    pub fn of_import(text: &str) -> Result<RecordSummary, ApiError> {
        // A small record is read whole, once, for its variations too.
        let small = tengen_sgf::Limits { nodes: LINES_FROM_NODES, ..tengen_sgf::Limits::default() };
        if tengen_sgf::measure(text, &small).is_ok()
            && let Ok(whole) = tengen_sgf::Record::read(text)
        {
            let mut summary = RecordSummary::of(&whole)?;
            summary.lines = whole.variation_lines(summary.info.size, MAX_LINES);
            return Ok(summary);
        }
        let (record, branch_points) = tengen_sgf::Record::read_main_line(text).map_err(|e| ApiError::internal(&e))?;
        RecordSummary::with(&record, branch_points)
    }

    /// Its estimated bytes.
    fn bytes(&self) -> usize {
        512 + self.comments.iter().map(|(_, c)| 32 + c.len()).sum::<usize>()
            + self.lines.iter().map(|l| 48 + 8 * l.moves.len()).sum::<usize>()
    }
}

/// The most games held in memory.
const MAX_GAMES: usize = 1_024;

/// The most bytes (estimated: imported records, moves) the games held in memory take.
const MAX_BYTES: usize = 64 << 20;

/// Games held in memory, least recently used first out, bounded in number and in bytes. The
/// event log stays the truth: a game taken from here is brought up to its log before use
/// (`AppState::load`), so that another server's moves are never missed.
#[derive(Default)]
pub struct Games {
    entries: HashMap<String, Held>,
    /// Uses so far: each entry's last use orders the evictions.
    uses: u64,
    /// The estimated bytes of all entries.
    bytes: usize,
}

struct Held {
    stored: Arc<StoredGame>,
    state: State,
    /// An imported game's record information, once read.
    summary: Option<Arc<RecordSummary>>,
    used: u64,
    bytes: usize,
}

impl Games {
    /// A copy of game `id` as last held, if it is.
    pub fn get(&mut self, id: &str) -> Option<(Arc<StoredGame>, State)> {
        let held = self.used(id)?;
        Some((Arc::clone(&held.stored), held.state.clone()))
    }

    /// Game `id`, if held, marked as used now.
    fn used(&mut self, id: &str) -> Option<&mut Held> {
        self.uses += 1;
        let held = self.entries.get_mut(id)?;
        held.used = self.uses;
        Some(held)
    }

    /// Holds `state` of `stored`, unless a state further along is held already; then drops
    /// the least recently used games while over the bounds.
    pub fn put(&mut self, stored: Arc<StoredGame>, state: State) {
        if self.entries.get(&stored.id).is_some_and(|held| held.state.events > state.events) {
            return;
        }
        self.uses += 1;
        let bytes = 4_096 + stored.sgf.as_ref().map_or(0, String::len) + 256 * state.game.moves().len();
        let id = stored.id.clone();
        let summary = self.entries.get(&id).and_then(|held| held.summary.clone());
        let bytes = bytes + summary.as_ref().map_or(0, |s| s.bytes());
        if let Some(old) = self.entries.insert(id, Held { stored, state, summary, used: self.uses, bytes }) {
            self.bytes -= old.bytes;
        }
        self.bytes += bytes;
        self.evict();
    }

    /// The record information of imported game `id`, if read before and still held.
    pub fn summary(&mut self, id: &str) -> Option<Arc<RecordSummary>> {
        self.used(id)?.summary.clone()
    }

    /// Keeps the record information read of imported game `id`, if the game is held.
    pub fn keep_summary(&mut self, id: &str, summary: Arc<RecordSummary>) {
        let Some(held) = self.entries.get_mut(id) else { return };
        if held.summary.is_none() {
            let more = summary.bytes();
            held.summary = Some(summary);
            held.bytes += more;
            self.bytes += more;
            self.evict();
        }
    }

    /// Drops the least recently used games while over the bounds.
    fn evict(&mut self) {
        while self.entries.len() > MAX_GAMES || (self.bytes > MAX_BYTES && self.entries.len() > 1) {
            let Some(oldest) = self.entries.iter().min_by_key(|(_, h)| h.used).map(|(id, _)| id.clone()) else {
                break;
            };
            if let Some(old) = self.entries.remove(&oldest) {
                self.bytes -= old.bytes;
            }
        }
    }

    /// Games held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Config, Opponent, Placement, TimeControl};

    fn game(id: &str, sgf: Option<usize>) -> (Arc<StoredGame>, State) {
        let config = Config {
            size: 9,
            rules: "chinese".into(),
            komi_half_points: 15,
            handicap: 0,
            placement: Placement::Fixed,
            opponent: Opponent::Friend,
            computer: None,
            time: TimeControl::default(),
            black_name: String::new(),
            white_name: String::new(),
            nigiri: None,
            imported: false,
            rated: false,
            accounts: [None, None],
            computer_rating: None,
        };
        let state = State::new(config.clone(), 0).unwrap();
        let stored =
            StoredGame { id: id.into(), created_ms: 0, config, tokens: [None, None], sgf: sgf.map(|n| "x".repeat(n)) };
        (Arc::new(stored), state)
    }

    #[test]
    fn games_held_are_bounded_in_bytes_and_the_least_used_go_first() {
        let mut games = Games::default();
        for i in 0..3 {
            let (stored, state) = game(&format!("g{i}"), Some(20 << 20));
            games.put(stored, state);
        }
        assert_eq!(games.len(), 3);
        assert!(games.get("g0").is_some(), "g0 used again: g1 is now the least recently used");
        let (stored, state) = game("g3", Some(20 << 20));
        games.put(stored, state);
        assert_eq!(games.len(), 3, "64 MB hold three records of 20 MB");
        assert!(games.get("g1").is_none());
        assert!(games.get("g0").is_some() && games.get("g3").is_some());
        // A state behind the one held does not replace it.
        let (stored, mut ahead) = game("g3", None);
        ahead.events = 5;
        games.put(Arc::clone(&stored), ahead);
        games.put(stored, game("g3", None).1);
        assert_eq!(games.get("g3").unwrap().1.events, 5);
    }
}
