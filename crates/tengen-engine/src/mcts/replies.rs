//! The last good replies the playouts learn (LGRF-1 and -2).

use super::tree::{PASS, point};
use super::worker::Worker;
use tengen_core::{Board, Color, Point};

/// Where [`Worker::replies`] keeps the reply of `player` (0 Black, 1 White) to the opponent's
/// move at point index `previous`.
pub(super) fn reply_slot(player: u8, previous: u16) -> usize {
    usize::from(player) * Point::TABLE_SIZE + usize::from(previous)
}

/// Keeps `reply` in `slot` when its player won the simulation; forgets it there when it lost.
pub(super) fn remember(slot: &mut u16, reply: u16, won: bool) {
    if won {
        *slot = reply;
    } else if *slot == reply {
        *slot = 0;
    }
}

/// Where [`Worker::replies_2`] keeps the reply of `player` to its own move at `own` followed by
/// the opponent's at `previous`.
pub(super) fn reply_slot_2(player: u8, own: u16, previous: u16) -> usize {
    (usize::from(player) * Point::TABLE_SIZE + usize::from(own)) * Point::TABLE_SIZE + usize::from(previous)
}

/// The remembered reply `r` (a point index, 0 for none) if `player` can play it on `board` as
/// the policy's random moves can ([`Board::is_playout_move`]).
pub(super) fn playable(board: &Board, r: u16, player: Color) -> Option<Point> {
    (r != 0 && board.is_playout_move(point(r), player)).then(|| point(r))
}

/// The reply a playout tries for `player` after the opponent's move at `last` (and its own at
/// `own` before it, with `replies_2` non-empty: LGRF-2 first), if it can be played.
pub(super) fn remembered_reply(
    board: &Board,
    (replies, replies_2): (&[u16], &[u16]),
    own: Option<Point>,
    last: Point,
    player: Color,
) -> Option<Point> {
    let c = player.index() as u8;
    own.filter(|_| !replies_2.is_empty())
        .and_then(|o| playable(board, replies_2[reply_slot_2(c, o.index() as u16, last.index() as u16)], player))
        .or_else(|| playable(board, replies[reply_slot(c, last.index() as u16)], player))
}

impl Worker {
    /// Remembers the winner's replies of the simulation just played and forgets the loser's.
    pub(super) fn learn_replies(&mut self, black_wins: f32) {
        if black_wins == 0.5 {
            return;
        }
        let winner = if black_wins > 0.5 { 0u8 } else { 1u8 };
        for pair in self.sequence.windows(2) {
            let ((previous, _), (reply, player)) = (pair[0], pair[1]);
            if previous == PASS || reply == PASS {
                continue;
            }
            remember(&mut self.replies[reply_slot(player, previous)], reply, player == winner);
        }
        if self.replies_2.is_empty() {
            return;
        }
        for triple in self.sequence.windows(3) {
            let ((own, _), (previous, _), (reply, player)) = (triple[0], triple[1], triple[2]);
            if own == PASS || previous == PASS || reply == PASS {
                continue;
            }
            remember(&mut self.replies_2[reply_slot_2(player, own, previous)], reply, player == winner);
        }
    }
}
