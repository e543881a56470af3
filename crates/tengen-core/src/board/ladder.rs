//! Ladder reading (征): whether a chain in atari that runs by extending is caught by the
//! attacker keeping it in atari move after move.

use super::{Board, EMPTY};
use crate::color::Color;
use crate::point::{NEIGHBOURS, Point};

/// Positions a ladder read may visit before giving up (and calling the chain escaped).
const LADDER_BUDGET: u32 = 400;

impl Board {
    /// Whether the chain through `p`, which is in atari with its owner to move, dies in a
    /// ladder (征): running to its last liberty leaves it at most two liberties each time and
    /// the attacker, playing on one of them, keeps it in atari until it is taken. Escapes
    /// counted: the run reaching three liberties, and the capture of an attacking chain in
    /// atari next to the running one (which also breaks a ladder through a ladder breaker,
    /// 引征, when the stones meet). A read longer than a few hundred positions counts as
    /// escaped. `false` when `p` is no chain in atari.
    ///
    /// ```
    /// use tengen_core::{Game, Point, Setup};
    /// // Black's D4 has one liberty, D3; running there, it zigzags to the lower left corner.
    /// let game = Game::try_from(Setup::from_ascii("
    ///     . . . . . . .
    ///     . . . . . . .
    ///     . . . O . . .
    ///     . . O X O . .
    ///     . . . . O . .
    ///     . . . . . . .
    ///     . . . . . . .").unwrap()).unwrap();
    /// let d4: Point = "D4".parse().unwrap();
    /// assert!(game.board().ladder_captures(d4));
    /// ```
    #[must_use]
    pub fn ladder_captures(&self, p: Point) -> bool {
        let s = p.index();
        let cell = self.cells[s];
        if cell >= EMPTY || self.atari_at(s).is_none() {
            return false;
        }
        let defender = if cell == 0 { Color::Black } else { Color::White };
        let mut budget = LADDER_BUDGET;
        self.ladder_defend(s, defender, &mut budget)
    }

    /// The defender, in atari at `s`, to move: true when every way out fails.
    fn ladder_defend(&self, s: usize, defender: Color, budget: &mut u32) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let d = defender as u8;
        // Taking an attacking chain in atari next to the runner frees it (or at least gives it
        // a liberty and a fresh shape: counted as an escape).
        let h = self.head_at(s) as usize;
        let mut q = h;
        loop {
            for dir in NEIGHBOURS {
                let n = (q as isize + dir) as usize;
                if self.cells[n] == d ^ 1 && self.atari_at(n).is_some() {
                    return false;
                }
            }
            q = self.next_stone(q);
            if q == h {
                break;
            }
        }
        let Some(lib) = self.atari_at(s) else { return false };
        if !self.playable_at(lib, d) {
            return true;
        }
        // Decided without playing: the run gives one liberty or none, or three or more.
        match self.liberties_after(lib, d, 2).0 {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        let mut after = self.clone();
        after.play_unchecked(Point::from_index(lib), defender);
        let mut libs = [0u16; 5];
        match after.libs_upto(lib, 2, 0, &mut libs) {
            0 | 1 => true,
            2 => {
                // The attacker tries each liberty.
                let attacker = !defender;
                libs[..2].iter().any(|&a| {
                    let a = a as usize;
                    if !after.playable_at(a, d ^ 1) {
                        return false;
                    }
                    let mut next = after.clone();
                    next.play_unchecked(Point::from_index(a), attacker);
                    // The attacking stone must not be capturable at once with the runner
                    // escaping through it: that is the defender's capture step above.
                    next.cells[lib] == d && next.atari_at(lib).is_some() && next.ladder_defend(lib, defender, budget)
                })
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;
    use crate::test_support::{at, board};

    /// Black's E4 in atari (liberty E3) with White's E5, D4, F4 and F3 around it: running to
    /// E3 leaves two liberties, and the chase goes down to the lower left.
    const LADDER: [&str; 9] = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . O . . . .",
        ". . . O X O . . .",
        ". . . . . O . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];

    fn with(changes: &[(usize, &str)]) -> Board {
        let mut rows = LADDER.map(str::to_string);
        for &(i, row) in changes {
            rows[i] = row.to_string();
        }
        board(&rows.join("\n"))
    }

    #[test]
    fn a_plain_ladder_dies() {
        assert!(with(&[]).ladder_captures(at("E4")));
    }

    #[test]
    fn a_ladder_breaker_saves_it() {
        // A Black stone at C2, on the ladder's path.
        assert!(!with(&[(7, ". . X . . . . . .")]).ladder_captures(at("E4")));
        // A White stone there only helps White.
        assert!(with(&[(7, ". . O . . . . . .")]).ladder_captures(at("E4")));
        // A Black stone away from the path (upper right) does not help.
        assert!(with(&[(0, ". . . . . . . . X")]).ladder_captures(at("E4")));
    }

    #[test]
    fn capturing_an_attacker_escapes() {
        // White's D4 is in atari (Black C4 and D5 around it): Black takes it and is out.
        let b = with(&[(4, ". . . X O . . . ."), (5, ". . X O X O . . .")]);
        assert!(!b.ladder_captures(at("E4")));
    }

    #[test]
    fn a_chain_with_room_or_no_atari_is_no_ladder() {
        let b = board(
            "
            . . . . .
            . . O . .
            . O X . .
            . . . . .
            . . . . .",
        );
        assert!(!b.ladder_captures(at("C3")), "two liberties: not in atari");
        assert!(!b.ladder_captures(at("A1")), "an empty point");
        // In atari, but extending gives three liberties.
        let b = board(
            "
            . . . . .
            . . O . .
            . O X O .
            . . . . .
            . . . . .",
        );
        assert!(!b.ladder_captures(at("C3")));
    }
}
