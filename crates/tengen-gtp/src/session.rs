//! A GTP session: the state between commands, line handling and framing.

use std::io::{self, BufRead, Write};

use tengen_core::{Game, Rules};

use crate::commands::COMMANDS;
use tengen_engine::Engine;

/// The longest line kept; the rest of a longer line is read and dropped.
const MAX_LINE: usize = 65_536;

/// Reads one line (without its newline) into `line`, keeping at most `cap` bytes of it.
/// `false` at the end of the input.
fn read_line_capped<R: BufRead>(input: &mut R, line: &mut Vec<u8>, cap: usize) -> io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(any);
        }
        any = true;
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], Some(i + 1)),
            None => (buffer, None),
        };
        let room = cap.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buffer.len());
        input.consume(used);
        if done.is_some() {
            return Ok(true);
        }
    }
}

/// A name as it may be echoed in an error: at most 40 characters.
fn shorten(name: &str) -> String {
    if name.chars().count() > 40 {
        format!("{}…", name.chars().take(40).collect::<String>())
    } else {
        name.to_owned()
    }
}

/// Time settings as GTP gives them (`time_settings`, `kgs-time_settings`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Clock {
    /// Main time in seconds.
    pub main: f64,
    /// Byo-yomi period in seconds (0: none).
    pub period: f64,
    /// Stones per period (Canadian) or periods (Japanese byo-yomi).
    pub stones: u32,
    /// Last `time_left` per colour: seconds, stones.
    pub left: [Option<(f64, u32)>; 2],
}

/// One GTP session: a game, the engine, and what GTP says between games.
pub struct Session {
    pub(crate) game: Game,
    pub(crate) engine: Box<dyn Engine + Send>,
    /// Rules for the next `clear_board` (komi included).
    pub(crate) rules: Rules,
    pub(crate) size: usize,
    pub(crate) clock: Clock,
    /// KataGo's `friendlyPassOk`, kept only to report it back.
    pub(crate) friendly_pass_ok: bool,
    pub(crate) quit: bool,
}

impl Session {
    /// A session on an empty 19 × 19 board with the Chinese rules.
    pub fn new(engine: impl Engine + Send + 'static) -> Session {
        Session::with_rules(engine, Rules::chinese())
    }

    /// A session with the given rules.
    pub fn with_rules(engine: impl Engine + Send + 'static, rules: Rules) -> Session {
        Session {
            game: Game::new(19, rules).expect("19 is a board size"),
            engine: Box::new(engine),
            rules,
            size: 19,
            clock: Clock::default(),
            friendly_pass_ok: true,
            quit: false,
        }
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Starts a new game on an empty board of the current size and rules.
    pub(crate) fn new_game(&mut self) {
        self.game = Game::new(self.size, self.rules).expect("the size was checked when set");
        self.engine.clear();
    }

    /// Answers commands from `input` until `quit` or the end of the input.
    ///
    /// # Errors
    /// Only I/O errors; bad commands are answered with `?`.
    pub fn run<R: BufRead, W: Write>(&mut self, mut input: R, mut output: W) -> io::Result<()> {
        let mut raw = Vec::new();
        while !self.quit {
            // Lines are read as bytes and cut at 64 KiB: binary garbage or a huge line is an
            // error response, never a crash nor a memory hog.
            if !read_line_capped(&mut input, &mut raw, MAX_LINE)? {
                break;
            }
            let line = String::from_utf8_lossy(&raw);
            if let Some(response) = self.execute(&line) {
                output.write_all(response.as_bytes())?;
                output.flush()?;
            }
        }
        Ok(())
    }

    /// Answers one line: `None` for an empty or comment line, else the framed response.
    pub fn execute(&mut self, line: &str) -> Option<String> {
        // GTP §2.2: drop control characters but tabs, tabs become spaces, `#` starts a comment.
        let cleaned: String =
            line.chars().filter(|&c| !c.is_control() || c == '\t').map(|c| if c == '\t' { ' ' } else { c }).collect();
        let text = cleaned.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            return None;
        }
        let mut words = text.split_whitespace();
        let first = words.next()?;
        let (id, name) = match first.parse::<u64>() {
            Ok(id) => (Some(id), words.next()),
            Err(_) => (None, Some(first)),
        };
        let id = id.map(|n| n.to_string()).unwrap_or_default();
        let Some(name) = name else {
            return Some(format!("?{id} missing command\n\n"));
        };
        let args: Vec<&str> = words.collect();
        // Command names are matched without regard to case, like vertices and colours.
        let lower = name.to_ascii_lowercase();
        let result = match COMMANDS.binary_search_by(|(n, _)| (*n).cmp(lower.as_str())) {
            Ok(i) => (COMMANDS[i].1)(self, &args),
            Err(_) => Err(format!("unknown command: {}", shorten(name))),
        };
        // As GNU Go frames it: `=id ` then the result (possibly empty), then an empty line.
        Some(match result {
            Ok(body) => format!("={id} {body}\n\n"),
            Err(message) => format!("?{id} {message}\n\n"),
        })
    }
}
