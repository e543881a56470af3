//! The move the search chooses.

use std::time::Instant;

use tengen_core::{Color, Game, Move};

use super::status::TERMINAL_STATUS_PLAYOUTS;
use super::{Ending, Mcts};
use crate::budget::{Budget, within};
use crate::decide::draw_by_visits;
use crate::engine::Decision;

/// After the opponent's pass, a move next to an opponent's dead stone is played instead of the
/// search's choice when its win rate is at most this much lower, give or take two standard
/// errors of its own estimate ([`about_as_good`]).
pub(super) const CLEAN_UP_MARGIN: f32 = 0.05;

/// Whether a move of `visits` simulations at win rate `rate` wins about as often as `best`:
/// within [`CLEAN_UP_MARGIN`] plus two standard errors of its rate. With no exploration term
/// the search gives such a move a few dozen simulations, whose rate alone strays by more than
/// the margin: on a won board whose only task left is a capture (the test
/// `takes_the_opponents_dead_stones_off_before_it_passes`) the capture's bare rate was more than
/// 0.05 below the search's choice for 7 of 12 seeds.
pub(super) fn about_as_good(visits: u32, rate: f32, best: f32) -> bool {
    let error = (rate * (1.0 - rate) / visits.max(1) as f32).sqrt();
    rate + 2.0 * error >= best - CLEAN_UP_MARGIN
}

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
        // Pass back, at every level — weak levels err in play, not by refusing to stop —, when
        // the count wins with the player's dead stones off and none of the opponent's stands
        // (`dead::passes_back`). Counting its dead stones alive passed won games away (3 of 11
        // lost in a match).
        let open = || in_play && crate::dead::undecided(board, &dead);
        if opponent_passed && !open() && crate::dead::passes_back(game, color, &dead) {
            return Decision::Play(Move::Pass);
        }
        let own_dead = crate::dead::stones_of(board, color, &dead);
        let own = self.params.playouts;
        if budget.is_some() && self.params.time_first {
            self.params.playouts = u32::MAX - 1024;
        }
        let result = self.search_monitored(game, color, budget, None, started, Ending::Without(own_dead));
        self.params.playouts = own;
        if self.params.verbose {
            let pv = self.principal_variation(8).iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
            eprintln!(
                "tengen: {} {} win {:.1}% after {} simulations ({} kept) in {:.2} s, {:.0}/s; pv {}",
                if color == Color::Black { "B" } else { "W" },
                result.best,
                100.0 * result.win_rate,
                result.playouts,
                result.reused,
                started.elapsed().as_secs_f64(),
                f64::from(result.playouts) / started.elapsed().as_secs_f64().max(1e-9),
                pv
            );
        }
        // Never a pass while an opponent's dead stone stands in play (under area counting taking
        // it costs nothing): the most visited move next to one instead (a liberty taken), else
        // the most visited other move. After the opponent's pass the dead stones are taken
        // first whenever a move next to one wins about as often as the search's choice: with
        // every move winning, the search (no exploration term) spends its visits on whichever
        // won first, often a move inside its own area.
        // Never a pass while the game is open (`dead::undecided`) either: the most visited
        // stone move.
        let mut result = result;
        let passing = result.best == Move::Pass;
        let dead_stands = in_play && crate::dead::opponent_dead_stands(board, color, &dead);
        if ((passing || opponent_passed) && dead_stands) || (passing && open()) {
            let touches = |mv: Move| matches!(mv, Move::Play(p) if board.neighbours(p).any(|n| dead.contains(&n) && board.get(n) == Some(!color)));
            let visited = || result.moves.iter().filter(|m| m.mv != Move::Pass && m.visits > 0);
            let taking = visited().find(|m| touches(m.mv)).copied();
            let choice = if passing {
                taking.or_else(|| visited().next().copied())
            } else {
                taking.filter(|m| about_as_good(m.visits, m.win_rate, result.win_rate))
            };
            if let Some(choice) = choice {
                result.best = choice.mv;
                result.win_rate = choice.win_rate;
            }
        }
        let lost = &mut self.lost_searches[color.index()];
        if result.playouts >= self.params.resign_after && result.win_rate < self.params.resign_below {
            *lost += 1;
            if *lost >= self.params.resign_moves {
                return Decision::Resign;
            }
        } else {
            *lost = 0;
        }
        if self.params.temperature <= 0.0 {
            return Decision::Play(result.best);
        }
        // Weak levels: draw among the visited moves, weighted by visits^(1/T) — stones only: a
        // pass is played when it is the best move, never drawn by chance.
        if result.best == Move::Pass {
            return Decision::Play(Move::Pass);
        }
        let visits: Vec<(Move, u32)> = result.moves.iter().map(|m| (m.mv, m.visits)).collect();
        Decision::Play(draw_by_visits(&visits, self.params.temperature, &mut self.rng).unwrap_or(result.best))
    }
}
