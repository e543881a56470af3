//! Dead stones: the status search, status playouts and readings of weak groups.

use std::time::{Duration, Instant};

use tengen_core::{Board, Color, Game, Point};

use super::worker::owner;
use super::{Ending, Mcts};
use crate::params::{Limit, SearchParams};

/// Simulations of each reading of a group's life ([`Mcts::survival`]).
pub(super) const READING_SIMULATIONS: u32 = 3_000;

/// Status playouts that find the searching player's dead stones for the counts of games
/// ended inside the tree (a few milliseconds on 9 × 9, some 30 on 19 × 19).
pub(super) const TERMINAL_STATUS_PLAYOUTS: u32 = 1_000;

impl Mcts {
    /// Ownership from `playouts` playouts (by `status_policy`) straight from `board`, no tree: the search's
    /// ownership would follow its best line, and after two passes that line is another pass
    /// that counts the board as it stands, dead stones and all.
    pub(super) fn playout_ownership(&mut self, board: &Board, to_move: Color, playouts: u32) -> Vec<f32> {
        let mut scratch = board.clone();
        let mut ownership = vec![0f32; Point::TABLE_SIZE];
        let max_moves = 3 * (board.size() * board.size()) as u32;
        let policy = self.params.playout.status_policy;
        for _ in 0..playouts {
            scratch.copy_from(board);
            scratch.policy_playout(to_move, &policy, &mut self.rng, max_moves);
            for q in scratch.points() {
                ownership[q.index()] += owner(&scratch, q);
            }
        }
        let scale = 1.0 / playouts.max(1) as f32;
        ownership.iter_mut().for_each(|o| *o *= scale);
        ownership
    }

    /// Ownership from a status search of `simulations` simulations: a search from `game`'s
    /// position for the player to move, in a tree of its own (the engine's tree is left as
    /// it was), in which passes do not end the game — the opponent's last pass is not
    /// pending and two passes in the tree hand the move on — so that every simulation plays
    /// the board out and its final board counts exactly. Status playouts alone let the
    /// attacker of a thin wall capture its stones while the defender plays elsewhere, and
    /// so call the stones it surrounds alive; in the tree the defender answers.
    /// Within `time`, if given.
    pub(super) fn status_ownership(&self, game: &Game, simulations: u32, time: Option<Duration>) -> Vec<f32> {
        let mut status =
            Mcts::new(SearchParams { playouts: Limit::Simulations(simulations), time, ..self.params.clone() });
        let stop = status.configured_stop();
        status.search_monitored(game, game.to_move(), stop, None, Instant::now(), Ending::PlayedOut).ownership
    }

    /// The stones dead in `game` by the one judgement of life and death (`dead::judge`
    /// on `dead::PLAYOUT_SCALE`), the ownership being the mean of two — the status
    /// search's ([`PlayoutParams::status_simulations`](crate::PlayoutParams::status_simulations))
    /// and that of status playouts straight from the position ([`PlayoutParams::status_policy`](crate::PlayoutParams::status_policy),
    /// as many as the search's simulations within 1,000 to 20,000) — and the readings this
    /// search's (`Mcts::survival`). Each ownership errs where the other does not: the playouts
    /// where a thin wall needs answers, the search where the game is decided and a fight no
    /// longer changes its result (docs/measurements.md). With no status search, the playouts
    /// alone.
    pub fn dead_stones_of(&mut self, game: &Game) -> Vec<Point> {
        self.dead_stones_within(game, None)
    }

    /// [`Mcts::dead_stones_of`], its status search stopped after `time` if given (a move's
    /// share of the clock), and its readings within as much time again (a group left unread
    /// is judged by the ownership alone).
    pub(super) fn dead_stones_within(&mut self, game: &Game, time: Option<Duration>) -> Vec<Point> {
        let board = game.board();
        let playouts = self.params.playouts.cap().clamp(1_000, 20_000);
        let mut ownership = self.playout_ownership(board, game.to_move(), playouts);
        if self.params.playout.status_simulations > 0 {
            let searched = self.status_ownership(game, self.params.playout.status_simulations, time);
            for (o, s) in ownership.iter_mut().zip(&searched) {
                *o = 0.5 * (*o + s);
            }
        }
        let deadline = time.map(|t| Instant::now() + t);
        let mut read = crate::dead::playout_reader(&self.params, game, deadline);
        crate::dead::judge(game, &ownership, &crate::dead::PLAYOUT_SCALE, &mut read)
    }

    /// How often `defender`'s `stones` live when `defender` moves first and both sides read
    /// for them alone: the win rate of a reading ([`Ending::Reading`]) of
    /// `times` × [`READING_SIMULATIONS`] simulations on one thread, with `params`' playouts,
    /// from `game`'s board, in which a simulation is won by the share of the stones' points
    /// the defender owns on its played-out board. Within `time`, if given.
    pub(crate) fn survival(
        params: &SearchParams,
        game: &Game,
        stones: &[Point],
        defender: Color,
        times: u32,
        time: Option<Duration>,
    ) -> f32 {
        let position = game.position_only(defender);
        let playouts = Limit::Simulations(READING_SIMULATIONS * times);
        let params = SearchParams { playouts, time, reuse_tree: false, threads: 1, ..params.clone() };
        let mut reader = Mcts::new(params);
        let ending = Ending::Reading(stones.to_vec());
        let stop = reader.configured_stop();
        reader.search_monitored(&position, defender, stop, None, Instant::now(), ending).win_rate
    }

    /// The stones dead in `game` by the ownership of `playouts` status playouts
    /// ([`PlayoutParams::status_policy`](crate::PlayoutParams::status_policy)), without a tree: the quick judgement behind the
    /// counts of games ended inside the search's tree.
    pub(super) fn dead_stones_of_by(&mut self, game: &Game, playouts: u32) -> Vec<Point> {
        let board = game.board();
        let ownership = self.playout_ownership(board, game.to_move(), playouts);
        crate::dead::dead_by_ownership(board, &ownership, 0.2)
    }

    /// `color`'s stones in `game` that `playouts` status playouts call dead (as
    /// [`Mcts::dead_stones_of_by`] judges).
    pub(super) fn own_dead_stones(&mut self, game: &Game, color: Color, playouts: u32) -> Vec<Point> {
        let board = game.board();
        if board.stone_count(color) == 0 {
            return Vec::new();
        }
        crate::dead::stones_of(board, color, &self.dead_stones_of_by(game, playouts))
    }
}
