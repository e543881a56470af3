//! `Game`: a board with its rules and history — turns, superko, passes, the end of play,
//! agreement on dead stones, counting, resignation, time and forfeit, undo.

use std::collections::HashSet;
use std::fmt;

use crate::board::{Board, IllegalMove};
use crate::color::Color;
use crate::count::{self, Score};
use crate::handicap::{self, HandicapError};
use crate::point::{Move, Point};
use crate::rules::{KoRule, Rules};
use crate::setup::{Setup, SetupError};
use crate::zobrist::WHITE_TO_MOVE_KEY;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Counted after two passes and agreement on the dead stones.
    Counted(Score),
    /// The loser resigned (中盘认输).
    Resignation {
        /// The winner.
        winner: Color,
    },
    /// The loser ran out of time (读秒过时).
    Time {
        /// The winner.
        winner: Color,
    },
    /// The loser forfeited.
    Forfeit {
        /// The winner.
        winner: Color,
    },
    /// No result (无胜负): a position repeated three times under simple ko.
    NoResult,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Counted(s) => s.winner(),
            Outcome::Resignation { winner } | Outcome::Time { winner } | Outcome::Forfeit { winner } => Some(*winner),
            Outcome::NoResult => None,
        }
    }

    /// The result as SGF's `RE` writes it: `B+1.5`, `W+R`, `B+T`, `W+F`, `0` (draw), `Void`.
    #[must_use]
    pub fn result_points(&self) -> String {
        match self {
            Outcome::Counted(s) => s.result_points(),
            Outcome::Resignation { winner } => format!("{}+R", winner.letter()),
            Outcome::Time { winner } => format!("{}+T", winner.letter()),
            Outcome::Forfeit { winner } => format!("{}+F", winner.letter()),
            Outcome::NoResult => "Void".to_owned(),
        }
    }

    /// The result in Chinese: `黑胜 3/4 子`, `白中盘胜`, `黑超时负`, `白判负`, `和棋`, `无胜负`.
    #[must_use]
    pub fn result_zh(&self) -> String {
        match self {
            Outcome::Counted(s) => s.result_zh(),
            Outcome::Resignation { winner } => format!("{}中盘胜", winner.zh()),
            Outcome::Time { winner } => format!("{}超时负", winner.opponent().zh()),
            Outcome::Forfeit { winner } => format!("{}判负", winner.opponent().zh()),
            Outcome::NoResult => "无胜负".to_owned(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result_points(), self.result_zh())
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Moves are being played.
    Playing,
    /// Two passes ended play: the players now agree on the dead stones (活棋与死棋), then
    /// [`Game::finish`] counts, or [`Game::resume`] goes back to play (续弈).
    Counting,
    /// Over.
    Ended(Outcome),
}

/// Why a move or an action was refused. The game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move breaks a rule.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// It is the other player's turn.
    #[error("it is {0}'s turn")]
    NotYourTurn(Color),
    /// Play has stopped (counting or ended).
    #[error("the game is not in play")]
    NotPlaying,
    /// The action needs the counting phase (after two passes).
    #[error("the game is not being counted: two passes end play first")]
    NotCounting,
    /// Nothing to undo.
    #[error("no move to undo")]
    NothingToUndo,
}

/// A game: owns its board and rules, knows whose turn it is and every earlier position.
///
/// ```
/// use tengen_core::{Game, Move, Phase, Rules};
///
/// let mut game = Game::new(9, Rules::chinese()).unwrap();
/// game.play("E5".parse().unwrap()).unwrap();
/// game.play(Move::Pass).unwrap();
/// game.play(Move::Pass).unwrap();
/// assert_eq!(game.phase(), Phase::Counting);
/// let outcome = game.finish(&[]).unwrap();
/// assert_eq!(outcome.result_points(), "B+73.5");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// The boards are boxed: a `Game` moves around by value (the server's states, replies
    /// and futures), and two boards inline made those too large for a thread's stack.
    board: Box<Board>,
    /// The position before the first move (handicap stones included).
    start: Box<Board>,
    start_to_move: Color,
    to_move: Color,
    handicap: usize,
    moves: Vec<(Color, Move)>,
    /// Superko keys of every position that occurred.
    seen: HashSet<u64>,
    /// Positional keys since the last pass (or the start), that position included, for the
    /// triple-repetition rule of simple ko.
    since_pass: Vec<u64>,
    passes: u32,
    /// The numbers of moves played when play resumed after two passes (续弈), so that replays
    /// resume there too.
    resumed: Vec<usize>,
    phase: Phase,
}

impl Game {
    /// An empty board, Black to move.
    ///
    /// # Errors
    /// [`SetupError::Size`] unless 2 ≤ `size` ≤ 25.
    pub fn new(size: usize, rules: Rules) -> Result<Game, SetupError> {
        Game::try_from(Setup { rules, ..Setup::new(size) })
    }

    /// A handicap game (让子): Black's `points` are placed, White moves first. Komi stays as
    /// `rules` say (Chinese handicap games are usually played with komi 0).
    ///
    /// # Errors
    /// [`HandicapError`] for fewer than two stones, off-board or repeated points, or stones
    /// that fill the board.
    pub fn with_handicap(size: usize, rules: Rules, points: &[Point]) -> Result<Game, HandicapError> {
        let mut game = Game::new(size, rules).map_err(|_| HandicapError::BoardTooSmall(size))?;
        game.set_handicap(points)?;
        Ok(game)
    }

    /// A fixed handicap of `n` stones on the star points, in GTP's order.
    ///
    /// # Errors
    /// [`HandicapError`] when this size has no fixed handicap of `n` stones.
    pub fn with_fixed_handicap(size: usize, rules: Rules, n: usize) -> Result<Game, HandicapError> {
        Game::with_handicap(size, rules, &handicap::fixed_points(size, n)?)
    }

    /// Places handicap stones on an empty board before the first move; White then moves.
    ///
    /// # Errors
    /// [`HandicapError`] when the board is not empty or a move was played, or for bad points.
    pub fn set_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        if !self.moves.is_empty() || self.board.empty_count() != self.board.size() * self.board.size() {
            return Err(HandicapError::NotAtStart);
        }
        if points.len() < 2 || points.len() >= self.board.size() * self.board.size() {
            return Err(HandicapError::BadFreeCount(points.len()));
        }
        let mut setup = Setup { rules: self.rules, ..Setup::new(self.board.size()) };
        for &p in points {
            if !p.is_on(self.board.size() as u8) || setup.black.contains(&p) {
                return Err(HandicapError::BadPoint(p));
            }
            setup.black.push(p);
        }
        setup.to_move = Color::White;
        setup.handicap = points.len();
        *self = Game::try_from(setup).map_err(|_| HandicapError::BadFreeCount(points.len()))?;
        Ok(())
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the rules (komi, ko rule, …) between moves; earlier moves stay as played.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.rebuild_history();
    }

    /// The current board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position before the first move.
    #[must_use]
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// Who moves next.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The number of handicap stones.
    #[must_use]
    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// The moves played, with their colours.
    #[must_use]
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// Where the game stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The outcome, once the game has ended.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Ended(o) => Some(o),
            _ => None,
        }
    }

    /// The superko key of the board when `next` is to move.
    fn key(&self, hash: u64, next: Color) -> u64 {
        match (self.rules.ko, next) {
            (KoRule::Situational, Color::White) => hash ^ WHITE_TO_MOVE_KEY,
            _ => hash,
        }
    }

    /// Whether `color` may play `mv` now (any colour may move, as GTP allows; see
    /// [`Game::check_turn`] for turn order).
    ///
    /// # Errors
    /// [`PlayError`]: not in play, or the rule the move breaks.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), PlayError> {
        if self.phase != Phase::Playing {
            return Err(PlayError::NotPlaying);
        }
        let Move::Play(p) = mv else { return Ok(()) };
        match self.board.check(p, color) {
            Err(IllegalMove::Suicide(_)) if self.rules.suicide => {}
            other => other?,
        }
        if self.rules.ko != KoRule::Simple && self.seen.contains(&self.key(self.board.hash_after(p, color), !color)) {
            return Err(IllegalMove::Superko(p).into());
        }
        Ok(())
    }

    /// Like [`Game::check`], also refusing a move out of turn.
    ///
    /// # Errors
    /// [`PlayError::NotYourTurn`] or what [`Game::check`] reports.
    pub fn check_turn(&self, color: Color, mv: Move) -> Result<(), PlayError> {
        if color != self.to_move {
            return Err(PlayError::NotYourTurn(self.to_move));
        }
        self.check(color, mv)
    }

    /// Whether the side to move may play `mv`.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(self.to_move, mv).is_ok()
    }

    /// Every point where `color` may play now (passing is always legal in play).
    #[must_use]
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        self.board.points().filter(|&p| self.check(color, Move::Play(p)).is_ok()).collect()
    }

    /// Plays `mv` for the side to move.
    ///
    /// # Errors
    /// [`PlayError`]; the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.play_as(self.to_move, mv)
    }

    /// Plays `mv` for `color`, in turn or not (GTP's `play`); the other side moves next.
    ///
    /// # Errors
    /// [`PlayError`]; the game is then unchanged.
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        self.check(color, mv)?;
        self.apply(color, mv);
        self.moves.push((color, mv));
        Ok(())
    }

    /// The stones as they stand, with the rules and the handicap, as a new game without history
    /// (no moves, no passes, no superko record) with `to_move` to play: a position to read or
    /// to evaluate afresh.
    #[must_use]
    pub fn position_only(&self, to_move: Color) -> Game {
        let stones = |c: Color| self.board.points().filter(|&p| self.board.get(p) == Some(c)).collect::<Vec<_>>();
        let black = stones(Color::Black);
        // Handicap stones since captured are not counted as handicap stones standing.
        let handicap = self.handicap.min(black.len());
        let setup =
            Setup { size: self.board.size(), rules: self.rules, black, white: stones(Color::White), to_move, handicap };
        Game::try_from(setup).expect("the stones of a game make a valid position")
    }

    /// Plays `mv` for `color` where a move after two passes means that play resumed (续弈):
    /// in the counting phase play resumes first ([`Game::resume`]), then the move is played.
    /// Records, lines of study and GTP's `play` read a move after two passes so.
    ///
    /// # Errors
    /// [`PlayError`]; the game is then unchanged (still counting, if it was).
    pub fn play_on(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        if self.phase != Phase::Counting {
            return self.play_as(color, mv);
        }
        let passes = self.passes;
        self.resume()?;
        let played = self.play_as(color, mv);
        if played.is_err() {
            self.phase = Phase::Counting;
            self.passes = passes;
            self.resumed.pop();
        }
        played
    }

    /// Whether [`Game::play_on`] would take `mv` for `color`, without playing it.
    ///
    /// # Errors
    /// The [`PlayError`] it would answer.
    pub fn check_on(&self, color: Color, mv: Move) -> Result<(), PlayError> {
        if self.phase != Phase::Counting {
            return self.check(color, mv);
        }
        let mut resumed = self.clone();
        resumed.resume()?;
        resumed.check(color, mv)
    }

    /// Carries out a checked move: board, turn, history, end of play.
    fn apply(&mut self, color: Color, mv: Move) {
        self.to_move = !color;
        match mv {
            Move::Pass => {
                self.board.pass();
                self.passes += 1;
                self.since_pass.clear();
                self.since_pass.push(self.board.hash());
                if self.passes >= 2 {
                    self.phase = Phase::Counting;
                }
            }
            Move::Play(p) => {
                self.board.play_unchecked(p, color);
                self.passes = 0;
                let key = self.key(self.board.hash(), self.to_move);
                self.seen.insert(key);
                if self.rules.ko == KoRule::Simple {
                    let hash = self.board.hash();
                    self.since_pass.push(hash);
                    if self.since_pass.iter().filter(|&&h| h == hash).count() >= 3 {
                        self.phase = Phase::Ended(Outcome::NoResult);
                    }
                }
            }
        }
    }

    /// Replays every move from the start: after undo and rule changes.
    fn rebuild_history(&mut self) {
        let moves = std::mem::take(&mut self.moves);
        self.board.clone_from(&self.start);
        self.to_move = self.start_to_move;
        self.passes = 0;
        self.phase = Phase::Playing;
        self.since_pass.clear();
        self.since_pass.push(self.start.hash());
        self.seen.clear();
        self.seen.insert(self.key(self.start.hash(), self.start_to_move));
        for (i, &(color, mv)) in moves.iter().enumerate() {
            if self.phase != Phase::Playing {
                // A rule change may end the game earlier; later moves still stand as played.
                self.phase = Phase::Playing;
            }
            self.apply(color, mv);
            if self.phase == Phase::Counting && self.resumed.contains(&(i + 1)) {
                self.phase = Phase::Playing;
                self.passes = 0;
            }
        }
        self.moves = moves;
    }

    /// Takes back the last move (handicap stones stay). Play resumes if it had stopped.
    ///
    /// # Errors
    /// [`PlayError::NothingToUndo`] before the first move.
    pub fn undo(&mut self) -> Result<Move, PlayError> {
        let (_, mv) = *self.moves.last().ok_or(PlayError::NothingToUndo)?;
        self.moves.pop();
        let played = self.moves.len();
        self.resumed.retain(|&n| n <= played);
        self.rebuild_history();
        Ok(mv)
    }

    /// The game as it was after its first `n` moves (all of them when `n` is larger), by one
    /// replay from the start; play resumed after two passes within them stays resumed.
    #[must_use]
    pub fn truncated(&self, n: usize) -> Game {
        let mut game = self.clone();
        game.moves.truncate(n);
        game.resumed.retain(|&k| k <= n);
        game.rebuild_history();
        game
    }

    /// `color` resigns: the opponent wins (中盘认输, `B+R`/`W+R`).
    pub fn resign(&mut self, color: Color) -> Outcome {
        self.end(Outcome::Resignation { winner: !color })
    }

    /// `color` ran out of time: the opponent wins (`B+T`/`W+T`).
    pub fn lose_on_time(&mut self, color: Color) -> Outcome {
        self.end(Outcome::Time { winner: !color })
    }

    /// The game is called off without a result (`Void`, 无胜负): aborted early.
    pub fn abort(&mut self) -> Outcome {
        self.end(Outcome::NoResult)
    }

    /// `color` forfeits: the opponent wins (`B+F`/`W+F`).
    pub fn forfeit(&mut self, color: Color) -> Outcome {
        self.end(Outcome::Forfeit { winner: !color })
    }

    fn end(&mut self, outcome: Outcome) -> Outcome {
        self.phase = Phase::Ended(outcome);
        outcome
    }

    /// Counts the current position with the chains through `dead` removed, without ending
    /// anything (for estimates and for the agreement phase).
    #[must_use]
    pub fn score(&self, dead: &[Point]) -> Score {
        count::score(&self.board, dead, &self.rules, self.handicap)
    }

    /// Ends a game in the counting phase with the agreed dead stones, and counts it.
    ///
    /// # Errors
    /// [`PlayError::NotCounting`] unless two passes ended play.
    pub fn finish(&mut self, dead: &[Point]) -> Result<Outcome, PlayError> {
        if self.phase != Phase::Counting {
            return Err(PlayError::NotCounting);
        }
        Ok(self.end(Outcome::Counted(self.score(dead))))
    }

    /// The players disagree on the dead stones: play resumes (续弈) with the side to move.
    ///
    /// # Errors
    /// [`PlayError::NotCounting`] unless two passes ended play.
    pub fn resume(&mut self) -> Result<(), PlayError> {
        if self.phase != Phase::Counting {
            return Err(PlayError::NotCounting);
        }
        self.phase = Phase::Playing;
        self.passes = 0;
        self.resumed.push(self.moves.len());
        Ok(())
    }
}

impl TryFrom<Setup> for Game {
    type Error = SetupError;

    fn try_from(setup: Setup) -> Result<Game, SetupError> {
        let board = setup.board()?;
        let mut game = Game {
            rules: setup.rules,
            start: Box::new(board.clone()),
            board: Box::new(board),
            start_to_move: setup.to_move,
            to_move: setup.to_move,
            handicap: setup.handicap,
            moves: Vec::new(),
            seen: HashSet::new(),
            since_pass: Vec::new(),
            passes: 0,
            resumed: Vec::new(),
            phase: Phase::Playing,
        };
        game.rebuild_history();
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Komi;

    fn at(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn turn_order_is_checked_when_asked() {
        let game = Game::new(9, Rules::chinese()).unwrap();
        assert_eq!(game.check_turn(Color::White, Move::Play(at("E5"))), Err(PlayError::NotYourTurn(Color::Black)));
        assert_eq!(game.check_turn(Color::Black, Move::Play(at("E5"))), Ok(()));
        assert_eq!(game.legal_points(Color::Black).len(), 81);
    }

    #[test]
    fn a_move_after_two_passes_resumes_play_and_a_refused_one_changes_nothing() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        game.play(Move::Play(at("E5"))).unwrap();
        game.play(Move::Pass).unwrap();
        game.play(Move::Pass).unwrap();
        assert_eq!(game.phase(), Phase::Counting);
        // Occupied: refused, and the game is still being counted, as it was.
        let counting = game.clone();
        assert_eq!(
            game.check_on(Color::White, Move::Play(at("E5"))),
            Err(PlayError::Illegal(IllegalMove::Occupied(at("E5"))))
        );
        assert!(game.play_on(Color::White, Move::Play(at("E5"))).is_err());
        assert_eq!(
            (game.phase(), game.moves(), game.to_move()),
            (counting.phase(), counting.moves(), counting.to_move())
        );
        assert_eq!(game.truncated(game.moves().len()).phase(), Phase::Counting, "no resumption remembered");
        // A legal move resumes play (续弈), remembered for replays.
        assert_eq!(game.check_on(Color::White, Move::Play(at("C3"))), Ok(()));
        game.play_on(Color::White, Move::Play(at("C3"))).unwrap();
        assert_eq!((game.phase(), game.to_move()), (Phase::Playing, Color::Black));
        let replayed = game.truncated(game.moves().len());
        assert_eq!((replayed.phase(), replayed.board().hash()), (Phase::Playing, game.board().hash()));
        // In play, the same as `play_as`.
        game.play_on(Color::Black, Move::Play(at("G7"))).unwrap();
        assert_eq!(game.moves().len(), 5);
    }

    #[test]
    fn handicap_placement_rules() {
        let mut game = Game::with_fixed_handicap(19, Rules::chinese(), 4).unwrap();
        assert_eq!((game.to_move(), game.handicap()), (Color::White, 4));
        assert_eq!(game.board().stone_count(Color::Black), 4);
        assert_eq!(game.set_handicap(&[at("A1"), at("B2")]), Err(HandicapError::NotAtStart));
        game.play(Move::Play(at("K10"))).unwrap();
        assert_eq!(game.undo(), Ok(Move::Play(at("K10"))));
        assert_eq!(game.undo(), Err(PlayError::NothingToUndo));
        assert_eq!(game.board().stone_count(Color::Black), 4, "undo keeps the handicap stones");

        let free = Game::with_handicap(9, Rules::chinese(), &[at("A1"), at("J9"), at("E5")]).unwrap();
        assert_eq!(free.handicap(), 3);
        assert!(Game::with_handicap(9, Rules::chinese(), &[at("A1")]).is_err());
        assert_eq!(
            Game::with_handicap(9, Rules::chinese(), &[at("A1"), at("A1")]).unwrap_err(),
            HandicapError::BadPoint(at("A1"))
        );
        assert!(Game::with_fixed_handicap(9, Rules::chinese(), 10).is_err());
    }

    #[test]
    fn truncated_equals_undoing() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        for v in ["E5", "C3", "G7", "D4"] {
            game.play(Move::Play(at(v))).unwrap();
        }
        game.play(Move::Pass).unwrap();
        game.play(Move::Pass).unwrap();
        game.resume().unwrap();
        game.play(Move::Play(at("A1"))).unwrap();
        for n in 0..=game.moves().len() {
            let mut undone = game.clone();
            while undone.moves().len() > n {
                undone.undo().unwrap();
            }
            let t = game.truncated(n);
            assert_eq!(
                (t.board(), t.moves(), t.phase(), t.to_move()),
                (undone.board(), undone.moves(), undone.phase(), undone.to_move())
            );
        }
        assert_eq!(game.truncated(99).moves().len(), 7);
    }

    #[test]
    fn changing_the_rules_keeps_the_moves() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        game.play(Move::Play(at("E5"))).unwrap();
        game.play(Move::Pass).unwrap();
        game.set_rules(Rules { komi: Komi::ZERO, ..Rules::chinese() });
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.board().get(at("E5")), Some(Color::Black));
        assert_eq!(game.score(&[]).result_points(), "B+81");
    }

    #[test]
    fn outcomes_in_points_and_in_chinese() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        assert_eq!(game.lose_on_time(Color::Black).result_points(), "W+T");
        assert_eq!(game.outcome().unwrap().result_zh(), "黑超时负");
        assert_eq!(game.play(Move::Pass), Err(PlayError::NotPlaying));
        assert_eq!(game.forfeit(Color::White).result_points(), "B+F");
        assert_eq!(game.outcome().unwrap().result_zh(), "白判负");
        assert_eq!(game.outcome().unwrap().winner(), Some(Color::Black));
        assert_eq!(game.finish(&[]), Err(PlayError::NotCounting));
    }
}
