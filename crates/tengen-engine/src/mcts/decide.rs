//! The move the search chooses.

use std::time::Instant;

use tengen_core::{Color, Game, Move};

use super::status::TERMINAL_STATUS_PLAYOUTS;
use super::{Ending, Mcts, Stop};
use crate::budget::{Budget, within};
use crate::decide::{Manner, Position, choose};
use crate::engine::{Decision, SearchReport};
use crate::params::Limit;

impl Mcts {
    /// The move the search chooses, before the etiquette of the first move.
    pub(super) fn decide_freely(&mut self, game: &Game, color: Color, budget: Option<Budget>) -> Decision {
        let started = Instant::now();
        let board = game.board();
        let in_play = game.phase() == tengen_core::Phase::Playing;
        let opponent_passed = in_play && matches!(game.moves().last(), Some(&(c, Move::Pass)) if c != color);
        // The dead stones, judged once, within the move's time: after the opponent's pass as
        // `final_status_list` judges them (the answer may end the game), the status search
        // taking at most half the move's target, else by the few status playouts that the
        // counts of games ended in the tree need.
        let dead = if board.stone_count(Color::Black) + board.stone_count(Color::White) == 0 {
            Vec::new()
        } else if opponent_passed {
            self.dead_stones_within(game, within(budget, self.params.time).map(|b| b.target / 2))
        } else {
            self.dead_stones_of_by(game, TERMINAL_STATUS_PLAYOUTS)
        };
        if opponent_passed && crate::dead::passes_back(game, color, &dead) {
            return Decision::Play(Move::Pass);
        }
        let own_dead = crate::dead::stones_of(board, color, &dead);
        // With a clock, `time_first` searches until the move's time is spent.
        let limit = if budget.is_some() && self.params.time_first { Limit::Unlimited } else { self.params.playouts };
        // The move drawn among those searched (`temperature`) needs every simulation.
        let early = self.params.stop_early && self.params.temperature == 0.0;
        let extend = self.params.temperature == 0.0;
        let stop = Stop { limit, extend, budget: within(budget, self.params.time), early };
        let result = self.search_monitored(game, color, stop, None, started, Ending::Without(own_dead));
        self.report = Some(SearchReport {
            network: false,
            color,
            best: result.best,
            win_rate: result.win_rate,
            lead: None,
            simulations: result.playouts,
            kept: result.reused,
            seconds: started.elapsed().as_secs_f64(),
            pv: self.principal_variation(8),
        });
        let at = Position { board, color, in_play, opponent_passed };
        let manner = Manner {
            resign_streak: self.params.playout.resign_moves,
            resign_after: self.params.resign_after,
            clean_up: true,
        };
        let lost = &mut self.lost_searches[color.index()];
        choose(&at, &result.moves, result.playouts, &dead, &self.params, &manner, lost, &mut self.rng)
    }
}
