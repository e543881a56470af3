//! Where a game stands after its log: one function per action.

use std::collections::BTreeSet;

use serde::Serialize;
use tengen_core::game::PlayError;
use tengen_core::{Color, Game, Move, Phase, Point};

use super::{Action, Clock, Config, Event, GameError, MAX_MOVES, TimeControl, check_name};

/// Where the computer disagrees with a marking it was asked to accept: one stone of each
/// chain it judges otherwise.
#[derive(Clone, Debug, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Dispute {
    /// Chains marked dead that the computer judges alive.
    #[schema(value_type = Vec<String>)]
    pub alive: Vec<Point>,
    /// Chains left alive that the computer judges dead.
    #[schema(value_type = Vec<String>)]
    pub dead: Vec<Point>,
}

/// Where a game stands after its log.
#[derive(Clone, Debug)]
pub struct State {
    /// The configuration.
    pub config: Config,
    /// The game of the rules core.
    pub game: Game,
    /// Black has still to place free handicap stones.
    pub placing: bool,
    /// Dead stones marked in the counting phase.
    pub dead: BTreeSet<Point>,
    /// The server proposed dead stones since play last stopped.
    pub proposed: bool,
    /// Who accepted the marked stones (reset by any toggle).
    pub accepted: [bool; 2],
    /// The server's proposal of dead stones since play last stopped (the engine's judgement).
    pub proposal: BTreeSet<Point>,
    /// Against the computer: the marking it last refused, and why, until the marking changes.
    pub dispute: Option<Dispute>,
    /// An undo asked for by this colour and not yet answered.
    pub undo_request: Option<Color>,
    /// The colour whose undo request the other seat refused, until that colour acts again.
    pub undo_refused: Option<Color>,
    /// The two clocks, as of `clock_since`.
    pub clocks: [Clock; 2],
    /// When the running clock (of the side to move, while playing) last started.
    pub clock_since: i64,
    /// Events applied.
    pub events: usize,
    /// When the game was created.
    pub created_ms: i64,
    /// Whether a stone has been played or placed: the clocks wait for it.
    pub started: bool,
    /// When the counting phase began (none outside it).
    pub counting_since: Option<i64>,
}

/// How long the counting phase of a live game may last before the server settles it.
pub const COUNTING_MS: i64 = 5 * 60 * 1000;

/// A game may be aborted (no result, not rated) before this many moves.
pub const ABORT_MOVES: usize = 10;

impl State {
    /// A new game as configured, created at `at_ms`.
    ///
    /// # Errors
    /// A configuration out of range.
    pub fn new(config: Config, at_ms: i64) -> Result<State, GameError> {
        config.check()?;
        let game = config.new_game()?;
        let clock = Clock::start(&config.time);
        Ok(State {
            placing: config.places_stones(),
            config,
            game,
            dead: BTreeSet::new(),
            proposed: false,
            accepted: [false; 2],
            proposal: BTreeSet::new(),
            dispute: None,
            undo_request: None,
            undo_refused: None,
            clocks: [clock; 2],
            clock_since: at_ms,
            events: 0,
            created_ms: at_ms,
            started: false,
            counting_since: None,
        })
    }

    /// A game imported from a record, for review: its moves as played, no seats, no clock.
    pub fn imported(config: Config, game: Game, at_ms: i64) -> State {
        State {
            placing: false,
            config,
            game,
            dead: BTreeSet::new(),
            proposed: true,
            accepted: [false; 2],
            proposal: BTreeSet::new(),
            dispute: None,
            undo_request: None,
            undo_refused: None,
            clocks: [Clock::default(); 2],
            clock_since: at_ms,
            events: 0,
            created_ms: at_ms,
            started: true,
            counting_since: None,
        }
    }

    /// Replays a log.
    ///
    /// # Errors
    /// [`GameError::Log`] for an event that does not replay.
    pub fn replay(config: Config, created_ms: i64, events: &[Event]) -> Result<State, GameError> {
        let mut state = State::new(config, created_ms)?;
        state.advance(events)?;
        Ok(state)
    }

    /// Applies the logged `events` that follow the ones applied so far (a state held in
    /// memory brought up to its log). In place: a failed event fails the whole replay, so no
    /// event needs the copy that `apply` makes to stay unchanged on refusal (a copy per event
    /// would make replaying quadratic in the game's length).
    ///
    /// # Errors
    /// [`GameError::Log`] naming the event (1-based in the log) that does not apply; the state
    /// is then partly advanced and must be dropped.
    pub fn advance(&mut self, events: &[Event]) -> Result<(), GameError> {
        for e in events {
            let number = self.events + 1;
            self.apply_in_place(e).map_err(|cause| GameError::Log { event: number, cause: Box::new(cause) })?;
            self.events += 1;
        }
        Ok(())
    }

    /// Whose clock runs: the side to move while playing (or Black while placing stones) —
    /// from the first stone played or placed, in every game (one rule: between friends the
    /// friend may not have opened the link yet, and against the computer its first move, or
    /// the player's, starts the clocks as well).
    pub fn clock_runs(&self) -> Option<Color> {
        if matches!(self.config.time, TimeControl::None {}) || self.config.imported || !self.started {
            return None;
        }
        match self.game.phase() {
            Phase::Playing if self.placing => Some(Color::Black),
            Phase::Playing => Some(self.game.to_move()),
            _ => None,
        }
    }

    /// The clocks as they read at `now_ms`, and the colour whose flag has fallen, if any.
    pub fn clocks_at(&self, now_ms: i64) -> ([Clock; 2], Option<Color>) {
        let mut clocks = self.clocks;
        let mut fallen = None;
        if let Some(c) = self.clock_runs() {
            let elapsed = (now_ms - self.clock_since).max(0);
            if !clocks[c.index()].run(&self.config.time, elapsed) {
                fallen = Some(c);
            }
        }
        (clocks, fallen)
    }

    /// The moment the running clock's flag falls, if one runs; in the counting phase, the
    /// moment the server settles it ([`State::counting_deadline_ms`]).
    pub fn deadline_ms(&self) -> Option<i64> {
        if let Some(settle) = self.counting_deadline_ms() {
            return Some(settle);
        }
        let c = self.clock_runs()?;
        self.clocks[c.index()].remaining_ms(&self.config.time).map(|left| self.clock_since + left.max(0))
    }

    /// When the counting phase is settled by the server if the players have not ended it: 5
    /// minutes after it began ([`COUNTING_MS`]), a correspondence game's days a move.
    pub fn counting_deadline_ms(&self) -> Option<i64> {
        let since = self.counting_since?;
        Some(since + self.config.time.correspondence().map_or(COUNTING_MS, |(days, _)| days))
    }

    /// Whether `action` would leave the game as it is (a toggle to the state the chain is
    /// already in): the server checks it like any action but appends nothing.
    #[must_use]
    pub fn unchanged_by(&self, action: &Action) -> bool {
        match action {
            Action::Toggle { point, dead: Some(dead) } => {
                self.game.phase() == Phase::Counting
                    && self.game.board().contains(*point)
                    && self.game.board().get(*point).is_some()
                    && self.dead.contains(point) == *dead
            }
            _ => false,
        }
    }

    /// Checks `event` and applies it; on error the state is unchanged.
    ///
    /// # Errors
    /// What the rules or the game's state refuse.
    pub fn apply(&mut self, event: &Event) -> Result<(), GameError> {
        let mut next = self.clone();
        next.apply_in_place(event)?;
        // The counting phase's deadline runs from when it began, until play resumes.
        next.counting_since = match next.game.phase() {
            Phase::Counting => next.counting_since.or(Some(event.at_ms)),
            _ => None,
        };
        next.events += 1;
        *self = next;
        Ok(())
    }

    fn apply_in_place(&mut self, event: &Event) -> Result<(), GameError> {
        if self.config.imported {
            return Err(GameError::ReviewOnly);
        }
        let at = event.at_ms;
        // The clock of the side to move runs up to this event.
        let mut fallen = None;
        // A live game's clock is not charged for the server's downtime; a correspondence
        // game's runs on, whoever keeps it.
        let charged_until = match event.action {
            Action::Restart { down_since_ms } if self.config.time.correspondence().is_none() => {
                at.min(down_since_ms.max(self.clock_since))
            }
            _ => at,
        };
        if let Some(c) = self.clock_runs() {
            let elapsed = (charged_until - self.clock_since).max(0);
            let time = self.config.time;
            if !self.clocks[c.index()].run(&time, elapsed) {
                fallen = Some(c);
            }
        }
        self.clock_since = at;
        if let Some(c) = fallen
            && event.action != Action::Timeout
        {
            return Err(GameError::TimeRanOut(c));
        }
        match (&event.action, event.color) {
            (Action::Timeout, Some(c)) => {
                if fallen != Some(c) {
                    return Err(GameError::TimeLeft(c));
                }
                self.game.lose_on_time(c);
            }
            (Action::Restart { .. }, None) => {}
            (Action::Handicap { points }, Some(Color::Black)) => {
                if !self.placing {
                    return Err(GameError::NoHandicapToPlace);
                }
                if points.len() != self.config.handicap {
                    return Err(GameError::HandicapStones { expected: self.config.handicap, given: points.len() });
                }
                self.game.set_handicap(points)?;
                self.placing = false;
                self.started = true;
            }
            (Action::Move { mv }, Some(c)) => {
                if self.placing {
                    return Err(GameError::PlaceStonesFirst);
                }
                if self.undo_request.is_some() {
                    return Err(GameError::UndoWaits);
                }
                // At the cap, only passes: play can still end and be counted.
                let moves = self.game.moves().len();
                if moves >= MAX_MOVES + 2 || (moves >= MAX_MOVES && *mv != Move::Pass) {
                    return Err(GameError::TooLong);
                }
                if c != self.game.to_move() && self.game.phase() == Phase::Playing {
                    return Err(PlayError::NotYourTurn(self.game.to_move()).into());
                }
                self.game.play_as(c, *mv)?;
                self.clocks[c.index()].moved(&self.config.time);
                self.started = true;
                self.undo_refused = None;
            }
            (Action::Resign, Some(c)) => {
                if matches!(self.game.phase(), Phase::Ended(_)) {
                    return Err(GameError::Over);
                }
                self.game.resign(c);
            }
            (Action::Abort, Some(_)) => {
                if matches!(self.game.phase(), Phase::Ended(_)) {
                    return Err(GameError::Over);
                }
                if self.game.moves().len() >= ABORT_MOVES {
                    return Err(GameError::TooLateToAbort);
                }
                self.game.abort();
            }
            (Action::Claim, Some(c)) => {
                if matches!(self.game.phase(), Phase::Ended(_)) {
                    return Err(GameError::Over);
                }
                self.game.forfeit(!c);
            }
            (Action::Settle, None) => {
                if self.game.phase() != Phase::Counting {
                    return Err(GameError::NotCounting);
                }
                if self.counting_deadline_ms().is_none_or(|d| at < d) {
                    return Err(GameError::NotYours("the counting phase is settled only after its deadline"));
                }
                let dead: Vec<Point> =
                    if self.proposed { self.proposal.iter() } else { self.dead.iter() }.copied().collect();
                self.dead = dead.iter().copied().collect();
                self.game.finish(&dead)?;
            }
            (Action::UndoRequest, Some(c)) => {
                if self.game.phase() != Phase::Playing {
                    return Err(GameError::UndoNotInPlay);
                }
                if !self.game.moves().iter().any(|(mc, _)| *mc == c) {
                    return Err(GameError::NothingToTakeBack(c));
                }
                if self.undo_request.is_some() {
                    return Err(GameError::UndoWaits);
                }
                self.undo_refused = None;
                if self.config.computer.is_some() {
                    self.take_back(c)?;
                } else {
                    self.undo_request = Some(c);
                }
            }
            (Action::UndoAccept | Action::UndoReject, Some(c)) => {
                let Some(asker) = self.undo_request else { return Err(GameError::NoUndoRequest) };
                if asker == c {
                    return Err(GameError::OwnUndoRequest);
                }
                self.undo_request = None;
                if event.action == Action::UndoAccept {
                    self.take_back(asker)?;
                } else {
                    self.undo_refused = Some(asker);
                }
            }
            (Action::Propose { dead }, None) => {
                if self.game.phase() != Phase::Counting {
                    return Err(GameError::NotCounting);
                }
                self.dead = dead.iter().copied().collect();
                self.proposal = self.dead.clone();
                self.proposed = true;
                self.accepted = [false; 2];
                self.dispute = None;
            }
            (Action::Toggle { point, dead }, Some(_)) => {
                if self.game.phase() != Phase::Counting {
                    return Err(GameError::NotCounting);
                }
                let board = self.game.board();
                if !board.contains(*point) || board.get(*point).is_none() {
                    return Err(GameError::NoStone(*point));
                }
                let chain: Vec<Point> = board.chain(*point).collect();
                // The intended state, when given (a retried request changes nothing more);
                // logs written before it flip the chain.
                let now_dead = self.dead.contains(point);
                if *dead == Some(now_dead) {
                    return Ok(());
                }
                if now_dead {
                    chain.iter().for_each(|p| {
                        self.dead.remove(p);
                    });
                } else {
                    self.dead.extend(chain);
                }
                self.accepted = [false; 2];
                self.dispute = None;
            }
            (Action::Accept { dead, judged, exact }, Some(c)) => {
                if self.game.phase() != Phase::Counting {
                    return Err(GameError::NotCounting);
                }
                if let Some(seen) = dead {
                    let seen: BTreeSet<Point> = seen.iter().copied().collect();
                    if seen != self.dead {
                        return Err(GameError::MarkingChanged { now: self.dead_stones() });
                    }
                }
                if *judged && self.config.computer.is_some() && !self.proposed {
                    return Err(GameError::NotProposed);
                }
                self.accepted[c.index()] = true;
                if let Some(computer) = self.config.computer {
                    if *judged && let Some(dispute) = self.judge(computer, *exact) {
                        // The computer answers with its own proposal; the player accepts
                        // that, or resumes play to settle the stones on the board.
                        self.dead = self.proposal.clone();
                        self.accepted = [false; 2];
                        self.dispute = Some(dispute);
                        return Ok(());
                    }
                    self.accepted[computer.index()] = true;
                }
                if self.accepted == [true, true] {
                    let dead: Vec<Point> = self.dead.iter().copied().collect();
                    self.game.finish(&dead)?;
                }
            }
            (Action::Name { .. }, Some(c)) if self.config.accounts[c.index()].is_some() => {
                return Err(GameError::AccountName);
            }
            (Action::Sit { account, name }, Some(c)) => {
                if self.config.imported {
                    return Err(GameError::ReviewOnly);
                }
                match &self.config.accounts[c.index()] {
                    Some(held) if held != account => return Err(GameError::SeatHeld),
                    _ => {}
                }
                if self.config.rated && self.config.accounts[(!c).index()].as_ref() == Some(account) {
                    return Err(GameError::BothSeats);
                }
                self.config.accounts[c.index()] = Some(account.clone());
                match c {
                    Color::Black => self.config.black_name.clone_from(name),
                    Color::White => self.config.white_name.clone_from(name),
                }
            }
            (Action::Name { name }, Some(c)) => {
                let name = check_name(name).map_err(|why| GameError::Name { what: "name".into(), why })?;
                match c {
                    Color::Black => self.config.black_name = name,
                    Color::White => self.config.white_name = name,
                }
            }
            (Action::Resume, Some(_)) => {
                if self.game.moves().len() >= MAX_MOVES {
                    return Err(GameError::TooLong);
                }
                self.game.resume()?;
                self.proposed = false;
                self.dead.clear();
                self.proposal.clear();
                self.dispute = None;
                self.accepted = [false; 2];
            }
            (Action::Timeout | Action::Restart { .. } | Action::Propose { .. } | Action::Settle, _) => {
                return Err(GameError::NotYours(
                    "only the server ends a game on time, restarts, proposes dead stones or settles the count",
                ));
            }
            (Action::Handicap { .. }, _) => return Err(GameError::NotYours("Black places the handicap stones")),
            (_, None) => return Err(GameError::NotYours("only a player takes this action")),
        }
        Ok(())
    }

    /// The computer's (`computer`'s) answer to the marking in force: `None` when it agrees,
    /// else the chains on which the marking and its proposal differ. It agrees when the two
    /// mark the same chains dead (`exact`), or, in logs from before that rule, when the
    /// marking counts no worse for it than its proposal.
    fn judge(&self, computer: Color, exact: bool) -> Option<Dispute> {
        let board = self.game.board();
        // A chain is marked dead when one of its stones is (markings are by chains; a
        // proposal names every stone of its chains).
        let marked = |set: &BTreeSet<Point>, p: Point| board.chain(p).any(|s| set.contains(&s));
        let mut dispute = Dispute::default();
        let mut seen = BTreeSet::new();
        for p in board.points().filter(|&p| board.get(p).is_some()) {
            if !seen.insert(board.chain(p).min().expect("a stone")) {
                continue;
            }
            match (marked(&self.dead, p), marked(&self.proposal, p)) {
                (true, false) => dispute.alive.push(p),
                (false, true) => dispute.dead.push(p),
                _ => {}
            }
        }
        if dispute == Dispute::default() {
            return None;
        }
        if !exact {
            let for_computer = |dead: &BTreeSet<Point>| {
                let margin = self.game.score(&dead.iter().copied().collect::<Vec<_>>()).margin();
                if computer == Color::Black { margin } else { -margin }
            };
            if for_computer(&self.dead) >= for_computer(&self.proposal) {
                return None;
            }
        }
        Some(dispute)
    }

    /// Takes back `color`'s last move and everything after it.
    fn take_back(&mut self, color: Color) -> Result<(), GameError> {
        let moves = self.game.moves();
        let last = moves.iter().rposition(|(c, _)| *c == color).ok_or(GameError::NothingToTakeBack(color))?;
        self.game = self.game.truncated(last);
        Ok(())
    }

    /// The stones of the chains marked dead, for counting.
    pub fn dead_stones(&self) -> Vec<Point> {
        self.dead.iter().copied().collect()
    }
}
