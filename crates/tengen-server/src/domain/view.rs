//! What the API shows of a game: [`View`], built from a [`State`] at a moment.

use serde::Serialize;
use tengen_core::count::{Owner, area_owners, quarters_text};
use tengen_core::{Color, Phase, Point};

use crate::domain::{Clock, Opponent, State, TimeControl};

/// A game as the API shows it. Points are GTP vertices (`D4`), colours `black`/`white`.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct View {
    /// The game's id.
    pub id: String,
    /// Board size.
    pub size: usize,
    /// Rules preset.
    pub rules: String,
    /// Komi in points (7.5 = 3¾ stones).
    pub komi: f64,
    /// Komi as the Chinese rules say it: `贴 3¾ 子`.
    pub komi_zh: String,
    /// Handicap stones.
    pub handicap: usize,
    /// How the handicap stones are placed: `fixed` (star points) or `free`.
    pub placement: crate::domain::Placement,
    /// Computer (with its level) or friend.
    pub opponent: Opponent,
    /// The computer's colour, in a game against it.
    #[schema(value_type = Option<String>)]
    pub computer: Option<Color>,
    /// Black's name.
    pub black_name: String,
    /// White's name.
    pub white_name: String,
    /// Which seats accounts hold, Black's and White's: a name of a seat that none holds is a
    /// guest's (shown as such, without a rank).
    pub accounts: [bool; 2],
    /// Rated: the result changes both players' ratings.
    pub rated: bool,
    /// `placing` (free handicap stones), `playing`, `counting` (after two passes), `ended`.
    pub phase: &'static str,
    /// Whose turn it is.
    #[schema(value_type = String)]
    pub to_move: Color,
    /// Moves played so far; the next move is number `moves + 1`.
    pub moves: usize,
    /// Every move: colour and vertex or `pass`.
    pub history: Vec<Played>,
    /// The board, top row first: `X` Black, `O` White, `.` empty.
    pub board: Vec<String>,
    /// The handicap stones.
    #[schema(value_type = Vec<String>)]
    pub handicap_stones: Vec<Point>,
    /// Stones each side has captured.
    pub captures: Captures,
    /// The point the side to move may not retake at once (ko), if any.
    #[schema(value_type = Option<String>)]
    pub ko: Option<Point>,
    /// An undo request waiting for the other seat, by this colour.
    #[schema(value_type = Option<String>)]
    pub undo_request: Option<Color>,
    /// Counting phase: the stones marked dead.
    #[schema(value_type = Vec<String>)]
    pub dead: Vec<Point>,
    /// Counting phase: who accepted the marking.
    pub accepted: Accepted,
    /// Counting phase: the server's proposal of dead stones has come (against the computer,
    /// an accept waits for it).
    pub proposed: bool,
    /// Counting phase, once `proposed`: the stones the server judged dead (against the
    /// computer, its judgement, the one marking it accepts), whatever the marking is now.
    #[schema(value_type = Vec<String>)]
    pub proposal: Vec<Point>,
    /// Counting phase against the computer: the marking it last refused (its own proposal
    /// is marked now), until the marking changes.
    pub dispute: Option<crate::domain::Dispute>,
    /// The colour whose undo request the other seat refused, until that colour acts again.
    #[schema(value_type = Option<String>)]
    pub undo_refused: Option<Color>,
    /// The count (counting phase and counted games).
    pub score: Option<ScoreView>,
    /// The result, when over: `B+1.5`, `W+R`, `B+T`.
    pub result: Option<String>,
    /// The result in Chinese: `黑胜 3/4 子`, `白中盘胜`.
    pub result_zh: Option<String>,
    /// The time control.
    pub time: TimeControl,
    /// The clocks as they read now.
    pub clocks: Option<Clocks>,
    /// Whose clock runs.
    #[schema(value_type = Option<String>)]
    pub clock_running: Option<Color>,
    /// Counting phase: when the server settles it with its proposal if the players have not
    /// ended it (ms since the epoch): 5 minutes after it began, a correspondence game's days.
    pub counting_deadline_ms: Option<i64>,
    /// Colours drawn by nigiri: the creator guessed odd (`true`) or even; the stones held.
    pub nigiri: Option<NigiriView>,
    /// Imported for review: no play.
    pub imported: bool,
    /// Events in the game's log (changes with every action).
    pub events: usize,
}

/// One move of the history.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Played {
    /// Who.
    #[schema(value_type = String)]
    pub color: Color,
    /// Vertex or `pass`.
    #[serde(rename = "move")]
    #[schema(value_type = String)]
    pub mv: tengen_core::Move,
}

/// Per colour counts.
#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct Captures {
    /// Black's.
    pub black: u32,
    /// White's.
    pub white: u32,
}

/// Who accepted the marked dead stones.
#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct Accepted {
    /// Black's.
    pub black: bool,
    /// White's.
    pub white: bool,
}

/// The count by area (数子), dead stones removed.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ScoreView {
    /// Black's stones and points (shared points count a half: in half points ÷ 2).
    pub black: f64,
    /// White's.
    pub white: f64,
    /// What Black gives back for its handicap stones, in points (Chinese rules: half a stone
    /// a handicap stone, so 3 stones give 1½ stones = 3 points); 0 without handicap.
    pub handicap_bonus: f64,
    /// `黑 185 子`.
    pub black_text: String,
    /// `白 176 子`.
    pub white_text: String,
    /// `B+1.5`.
    pub result: String,
    /// `黑胜 3/4 子`.
    pub result_zh: String,
    /// Each point's owner, top row first: `X` Black, `O` White, `.` shared or nobody's.
    pub owners: Vec<String>,
}

/// Both clocks.
#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct Clocks {
    /// Black's.
    pub black: ClockView,
    /// White's.
    pub white: ClockView,
}

/// One clock as it reads.
#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct ClockView {
    /// The clock's state.
    #[serde(flatten)]
    pub clock: Clock,
    /// Until its flag falls, in milliseconds.
    pub remaining_ms: Option<i64>,
    /// In its last byo-yomi period.
    pub last_period: bool,
}

/// The nigiri.
#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct NigiriView {
    /// The creator's guess: odd (one stone shown) or even (two).
    pub guess_odd: bool,
    /// Stones in the holder's hand.
    pub handful: u8,
}

/// The phase's name, as the view shows it and the database keeps it.
pub fn phase_of(state: &State) -> &'static str {
    match state.game.phase() {
        Phase::Playing if state.placing => "placing",
        Phase::Playing => "playing",
        Phase::Counting => "counting",
        Phase::Ended(_) => "ended",
    }
}

fn rows(size: usize, f: impl Fn(Point) -> char) -> Vec<String> {
    (0..size as u8)
        .rev()
        .map(|row| (0..size as u8).map(|col| f(Point::new(col, row).expect("on the board"))).collect())
        .collect()
}

impl View {
    /// The game `id` as it stands at `now_ms`.
    #[must_use]
    pub fn of(id: &str, state: &State, now_ms: i64) -> View {
        let game = &state.game;
        let board = game.board();
        let size = board.size();
        let config = &state.config;
        let dead = state.dead_stones();
        let score = match game.phase() {
            Phase::Counting => Some(game.score(&dead)),
            Phase::Ended(tengen_core::Outcome::Counted(s)) => Some(s),
            _ => None,
        }
        .map(|s| {
            let owners = area_owners(board, &dead);
            ScoreView {
                black: f64::from(s.black) / 2.0,
                white: f64::from(s.white) / 2.0,
                handicap_bonus: f64::from(s.handicap_bonus) / 2.0,
                black_text: format!("黑 {} 子", s.count_text(Color::Black)),
                white_text: format!("白 {} 子", s.count_text(Color::White)),
                result: s.result_points(),
                result_zh: s.result_zh(),
                owners: rows(size, |p| match owners.owner(p) {
                    Owner::Black => 'X',
                    Owner::White => 'O',
                    Owner::Shared | Owner::Neutral => '.',
                }),
            }
        });
        let (clocks, _) = state.clocks_at(now_ms);
        let clock_view = |c: Color| {
            let clock = clocks[c.index()];
            ClockView {
                clock,
                remaining_ms: clock.remaining_ms(&config.time).map(|r| r.max(0)),
                last_period: matches!(config.time, TimeControl::Byoyomi { .. }) && clock.overtime && clock.periods == 1,
            }
        };
        let outcome = game.outcome();
        let handicap_stones: Vec<Point> =
            game.start().points().filter(|&p| game.start().get(p) == Some(Color::Black)).collect();
        View {
            id: id.to_owned(),
            size,
            rules: config.rules.clone(),
            komi: game.rules().komi.points(),
            komi_zh: format!("贴 {} 子", quarters_text(game.rules().komi.half_points(), false)),
            // While Black places free handicap stones, the number still to place.
            handicap: if state.placing { config.handicap } else { game.handicap() },
            placement: config.placement,
            opponent: config.opponent,
            computer: config.computer,
            black_name: config.black_name.clone(),
            white_name: config.white_name.clone(),
            accounts: config.accounts.clone().map(|a| a.is_some()),
            rated: config.rated,
            phase: phase_of(state),
            to_move: if state.placing { Color::Black } else { game.to_move() },
            moves: game.moves().len(),
            history: game.moves().iter().map(|&(color, mv)| Played { color, mv }).collect(),
            board: rows(size, |p| match board.get(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            }),
            handicap_stones,
            captures: Captures { black: board.captures(Color::Black), white: board.captures(Color::White) },
            ko: board.ko().map(|(p, _)| p),
            undo_request: state.undo_request,
            dead,
            accepted: Accepted { black: state.accepted[0], white: state.accepted[1] },
            dispute: state.dispute.clone(),
            proposed: state.proposed,
            proposal: if game.phase() == Phase::Counting {
                state.proposal.iter().copied().collect()
            } else {
                Vec::new()
            },
            undo_refused: state.undo_refused,
            score,
            result: outcome.map(|o| o.result_points()),
            result_zh: outcome.map(|o| o.result_zh()),
            time: config.time,
            clocks: (config.time != TimeControl::None {})
                .then(|| Clocks { black: clock_view(Color::Black), white: clock_view(Color::White) }),
            clock_running: state.clock_runs(),
            counting_deadline_ms: state.counting_deadline_ms(),
            nigiri: config.nigiri.map(|(guess_odd, handful)| NigiriView { guess_odd, handful }),
            imported: config.imported,
            events: state.events,
        }
    }
}
