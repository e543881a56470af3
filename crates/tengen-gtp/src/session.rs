//! A GTP session: the state between commands, line handling and framing.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use tengen_core::{Game, Rules};

use crate::analyze;
use crate::commands::COMMANDS;
use crate::inbox::Inbox;
use std::time::Duration;
use tengen_engine::{Budget, Engine, SearchReport};

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
    /// Japanese byo-yomi (`stones` counts periods, each move gets a period) rather than
    /// Canadian (`stones` moves per period).
    pub japanese: bool,
    /// Fischer: seconds added to the clock after each move (no byo-yomi then).
    pub increment: f64,
}

impl Clock {
    /// The time `color` may spend on its next move — a target and, where the clock lets time
    /// saved on easy moves go to hard ones, a maximum (see [`Budget`]) — or `None` without
    /// time settings. Main time is spread over the moves likely left (a third of the empty
    /// points, at least 15), with up to three times that share for a hard move (never more
    /// than a quarter of what is left); Fischer adds most of the increment to it, never
    /// spending more than half of what is on the clock; in byo-yomi a Japanese period (use it
    /// or lose it: no more, no less), or a Canadian period divided by the stones left (up to
    /// twice that for a hard move while stones remain). A twentieth and 30 ms are kept back for
    /// transmission and the clock's own rounding (the search looks at the clock every few
    /// milliseconds).
    pub(crate) fn budget(&self, color: tengen_core::Color, empty_points: usize) -> Option<Budget> {
        if self.main <= 0.0 && self.period <= 0.0 && self.increment <= 0.0 {
            return None;
        }
        let (left, stones) = self.left[color.index()].unwrap_or((self.main, 0));
        let moves_left = (empty_points / 3).max(15) as f64;
        let per_period = |stones: u32| if self.japanese { self.period } else { self.period / f64::from(stones.max(1)) };
        let (target, max) = if self.increment > 0.0 {
            let target = (left / moves_left + 0.8 * self.increment).min(left / 2.0);
            (target, (3.0 * target).min(left / 2.0))
        } else if left > 0.0 && stones == 0 {
            // Main time, then byo-yomi still to come.
            let share = left / moves_left;
            let target = share.max(if self.period > 0.0 { per_period(self.stones) * 0.5 } else { 0.0 });
            (target, (3.0 * share).min(left / 4.0))
        } else if stones > 0 {
            if self.japanese {
                let t = left.min(self.period).max(left / 2.0);
                (t, t)
            } else {
                let t = left / f64::from(stones);
                (t, if stones > 1 { (2.0 * t).min(left / 2.0) } else { t })
            }
        } else {
            let t = per_period(self.stones);
            (t, t)
        };
        let margin = |s: f64| Duration::from_secs_f64((s * 0.95 - 0.03).max(0.02));
        Some(Budget::new(margin(target), margin(max)))
    }
}

/// Told what the search behind a decision found ([`Session::log_searches`]).
pub(crate) type SearchLog = Box<dyn FnMut(&SearchReport) + Send>;

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
    /// `loadsgf` adopts the record's `RU` (otherwise the rules set over GTP stay).
    pub(crate) sgf_rules: bool,
    /// Told what the search behind each `genmove` found.
    pub(crate) log: Option<SearchLog>,
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
            sgf_rules: false,
            log: None,
            quit: false,
        }
    }

    /// Calls `log` with what the engine's search found after each `genmove` and
    /// `reg_genmove` (where the engine reports it: [`Engine::last_search`]).
    #[must_use]
    pub fn log_searches(mut self, log: impl FnMut(&SearchReport) + Send + 'static) -> Session {
        self.log = Some(Box::new(log));
        self
    }

    /// Whether `loadsgf` adopts the rules a record names in `RU` (by default the rules set
    /// over GTP or on the command line stay in force, as in GNU Go; only `KM` is taken).
    #[must_use]
    pub fn sgf_rules(mut self, adopt: bool) -> Session {
        self.sgf_rules = adopt;
        self
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
    /// The input is read on a thread of its own, so that a line arriving during a streaming
    /// analysis (`lz-analyze`, `kata-analyze`) ends it, as GUIs expect; the thread is left to
    /// end with its input.
    ///
    /// # Errors
    /// Only I/O errors; bad commands are answered with `?`.
    pub fn run<R: BufRead + Send + 'static, W: Write>(&mut self, mut input: R, mut output: W) -> io::Result<()> {
        let inbox = Arc::new(Inbox::new(64));
        let reader = Arc::clone(&inbox);
        std::thread::spawn(move || {
            loop {
                // Lines are read as bytes and cut at 64 KiB: binary garbage or a huge line is
                // an error response, never a crash nor a memory hog.
                let mut raw = Vec::new();
                match read_line_capped(&mut input, &mut raw, MAX_LINE) {
                    Ok(true) => reader.push(Ok(raw)),
                    Ok(false) => break,
                    Err(e) => {
                        reader.push(Err(e));
                        break;
                    }
                }
            }
            reader.close();
        });
        while !self.quit {
            let Some(next) = inbox.take() else { break };
            let raw = next?;
            let Some(parsed) = Parsed::of(&String::from_utf8_lossy(&raw)) else { continue };
            let format = parsed.name.as_deref().and_then(|n| analyze::Format::of(&n.to_ascii_lowercase()));
            if let Some(format) = format {
                self.stream_analysis(&parsed, format, &mut output, &inbox)?;
            } else {
                output.write_all(self.respond(&parsed).as_bytes())?;
                output.flush()?;
            }
        }
        Ok(())
    }

    /// Answers one line: `None` for an empty or comment line, else the framed response. The
    /// streaming analysis commands answer only in [`Session::run`].
    pub fn execute(&mut self, line: &str) -> Option<String> {
        Parsed::of(line).map(|parsed| self.respond(&parsed))
    }

    fn respond(&mut self, parsed: &Parsed) -> String {
        let id = &parsed.id;
        let Some(name) = &parsed.name else {
            return format!("?{id} missing command\n\n");
        };
        let args: Vec<&str> = parsed.args.iter().map(String::as_str).collect();
        // Command names are matched without regard to case, like vertices and colours.
        let lower = name.to_ascii_lowercase();
        let result = match COMMANDS.binary_search_by(|(n, _)| (*n).cmp(lower.as_str())) {
            Ok(i) => (COMMANDS[i].1)(self, &args),
            Err(_) => Err(format!("unknown command: {}", shorten(name))),
        };
        // As GNU Go frames it: `=id ` then the result (possibly empty), then an empty line.
        match result {
            Ok(body) => format!("={id} {body}\n\n"),
            Err(message) => format!("?{id} {message}\n\n"),
        }
    }

    /// `lz-analyze` / `kata-analyze`: `=id`, then a line of analysis every interval until a
    /// line arrives on the input or the input ends (the inbox's flag is set) — that line is then
    /// answered as usual. With a line already waiting the search stops at once; it still tells
    /// whether the engine analyses at all.
    fn stream_analysis<W: Write>(
        &mut self,
        parsed: &Parsed,
        format: analyze::Format,
        output: &mut W,
        inbox: &Inbox,
    ) -> io::Result<()> {
        let id = &parsed.id;
        let args: Vec<&str> = parsed.args.iter().map(String::as_str).collect();
        let request = match analyze::parse(format, &args) {
            Ok(r) => r,
            Err(message) => {
                output.write_all(format!("?{id} {message}\n\n").as_bytes())?;
                return output.flush();
            }
        };
        let color = request.color.unwrap_or_else(|| self.game.to_move());
        let game = self.game.clone();
        let board = game.board().clone();
        let mut started = false;
        let mut failed = None;
        let analysed = self.engine.analyze(&game, color, request.interval, inbox.waiting(), &mut |analysis| {
            if analysis.moves.is_empty() || failed.is_some() {
                return;
            }
            let mut text = if started { String::new() } else { format!("={id}\n") };
            started = true;
            text.push_str(&analyze::line(format, &request, analysis, &board, color));
            text.push('\n');
            if let Err(e) = output.write_all(text.as_bytes()).and_then(|()| output.flush()) {
                failed = Some(e);
                // The output is gone and the session ends with this error: its input is over
                // too, which stops the search.
                inbox.close();
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        let end = match (analysed, started) {
            (false, _) => format!("?{id} this engine does not analyse positions\n\n"),
            (true, false) => format!("={id}\n\n"),
            (true, true) => "\n".to_owned(),
        };
        output.write_all(end.as_bytes())?;
        output.flush()
    }
}

/// A command line split into its id (empty when none), name and arguments.
struct Parsed {
    id: String,
    name: Option<String>,
    args: Vec<String>,
}

impl Parsed {
    /// `None` for an empty or comment line.
    fn of(line: &str) -> Option<Parsed> {
        // GTP §2.2: drop control characters but tabs, tabs become spaces, `#` starts a comment.
        let cleaned: String =
            line.chars().filter(|&c| !c.is_control() || c == '\t').map(|c| if c == '\t' { ' ' } else { c }).collect();
        let text = cleaned.split('#').next().unwrap_or("").trim();
        let words: Vec<&str> = text.split_whitespace().collect();
        let first = words.first()?;
        let (id, rest) = match first.parse::<u64>() {
            Ok(id) => (id.to_string(), &words[1..]),
            Err(_) => (String::new(), &words[..]),
        };
        Some(Parsed {
            id,
            name: rest.first().map(|w| (*w).to_owned()),
            args: rest.iter().skip(1).map(|w| (*w).to_owned()).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Clock;
    use tengen_core::Color;

    fn secs(c: &Clock, color: Color, empty: usize) -> f64 {
        c.budget(color, empty).map_or(-1.0, |d| d.target.as_secs_f64())
    }

    #[test]
    fn budgets_follow_the_clock() {
        assert_eq!(Clock::default().budget(Color::Black, 81), None);
        // 1 s per move (time_settings 0 1 1): 95%, less 30 ms.
        let per_move = Clock { period: 1.0, stones: 1, ..Clock::default() };
        assert!((secs(&per_move, Color::Black, 81) - 0.92).abs() < 1e-9);
        // 10 minutes of main time on an empty 19×19: 600 / 120 moves, less the margin.
        let absolute = Clock { main: 600.0, ..Clock::default() };
        assert!((secs(&absolute, Color::White, 361) - (5.0 * 0.95 - 0.03)).abs() < 1e-9);
        // Canadian: 300 s for 25 stones, 100 s left for 10 stones.
        let mut canadian = Clock { main: 600.0, period: 300.0, stones: 25, ..Clock::default() };
        canadian.left[0] = Some((100.0, 10));
        assert!((secs(&canadian, Color::Black, 200) - (10.0 * 0.95 - 0.03)).abs() < 1e-9);
        // Japanese byo-yomi, 30 s periods, 25 s left in the period.
        let mut japanese = Clock { main: 600.0, period: 30.0, stones: 5, japanese: true, ..Clock::default() };
        japanese.left[1] = Some((25.0, 3));
        assert!((secs(&japanese, Color::White, 200) - (25.0 * 0.95 - 0.03)).abs() < 1e-9);
        // Room for hard moves: three shares of main time, twice a Canadian stone's share while
        // stones remain; none in a Japanese period or on a period's last stone.
        let most = |c: &Clock, color: Color, empty: usize| c.budget(color, empty).unwrap().max.as_secs_f64();
        assert!((most(&absolute, Color::White, 361) - (15.0 * 0.95 - 0.03)).abs() < 1e-9);
        assert!((most(&canadian, Color::Black, 200) - (20.0 * 0.95 - 0.03)).abs() < 1e-9);
        assert!((most(&japanese, Color::White, 200) - (25.0 * 0.95 - 0.03)).abs() < 1e-9);
        assert!((most(&per_move, Color::Black, 81) - 0.92).abs() < 1e-9);
        // Fischer, 60 s and 5 s a move, 40 s left on 9×9's empty board: 40 / 27 + 4 = 5.48 s
        // aimed at, up to three times that (16.4 s, below half of the 40).
        let mut fischer = Clock { main: 60.0, increment: 5.0, ..Clock::default() };
        fischer.left[0] = Some((40.0, 0));
        assert!((secs(&fischer, Color::Black, 81) - ((40.0 / 27.0 + 4.0) * 0.95 - 0.03)).abs() < 1e-9);
        assert!((most(&fischer, Color::Black, 81) - (3.0 * (40.0 / 27.0 + 4.0) * 0.95 - 0.03)).abs() < 1e-9);
        // With little left, never more than half of it, however big the increment.
        fischer.left[0] = Some((2.0, 0));
        assert!((most(&fischer, Color::Black, 81) - (1.0 * 0.95 - 0.03)).abs() < 1e-9);
        // Never less than 20 ms.
        let mut nearly_out = per_move;
        nearly_out.left[0] = Some((0.01, 1));
        assert!((secs(&nearly_out, Color::Black, 10) - 0.02).abs() < 1e-9);
    }
}
