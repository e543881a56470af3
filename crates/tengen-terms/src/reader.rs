//! The bounded tactical readers of terms.md §11.4 (ladder, 征), §11.5 (ladder breaker, 引征)
//! and §11.6 (net, 枷), exactly with the move generation given there: the defender captures
//! an attacker chain in atari or extends; the attacker ataris at one of two liberties.

use tengen_core::{Board, Point};

/// Plies after which a chase counts as an escape (§11.4 step 3).
const MAX_DEPTH: u32 = 120;
/// Positions one question may visit before the chase counts as an escape: the spec's
/// reader has no such limit, but a pathological position could branch for ever; real
/// ladders stay far below it.
const BUDGET: u32 = 50_000;

/// A reader with its visit budget.
pub(crate) struct Reader {
    budget: u32,
    /// Boards for the positions of the chase, kept on the heap: a chase goes 120 plies deep,
    /// and a board on the stack at each ply overflowed a 2 MiB thread stack in a debug build.
    spare: Vec<Box<Board>>,
}

impl Reader {
    pub fn new() -> Reader {
        Reader { budget: BUDGET, spare: Vec::new() }
    }

    /// A copy of `b` on the heap (a spare one reused when there is one).
    #[inline(never)]
    fn copy_of(&mut self, b: &Board) -> Box<Board> {
        match self.spare.pop() {
            Some(mut board) => {
                board.copy_from(b);
                board
            }
            None => Box::new(b.clone()),
        }
    }

    /// `dead(board, W)`: the chain at `w` has one liberty, its owner is to move; whether the
    /// ladder captures it.
    pub fn dead(&mut self, b: &Board, w: Point) -> bool {
        self.dead_at(b, w, 0)
    }

    fn dead_at(&mut self, b: &Board, w: Point, depth: u32) -> bool {
        let Some(def) = b.get(w) else { return true };
        if depth > MAX_DEPTH || self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        !defences(b, w).into_iter().any(|cand| self.defence_escapes(b, w, def, cand, depth + 1))
    }

    /// Whether the defender's move `cand` saves the chain at `w`: it gets three liberties, or
    /// two from which no atari of the attacker wins.
    fn defence_escapes(&mut self, b: &Board, w: Point, def: tengen_core::Color, cand: Point, depth: u32) -> bool {
        if !b.is_legal(cand, def) {
            return false;
        }
        let mut after = self.copy_of(b);
        after.play_unchecked(cand, def);
        let escapes = match after.liberties(w) {
            0 | 1 => false,
            2 => !self.attacker_wins(&after, w, depth),
            _ => true,
        };
        self.spare.push(after);
        escapes
    }

    /// The attacker to move against the chain at `w` with two liberties: whether an atari at
    /// one of them (in ascending point order) captures it or leaves it dead in a ladder.
    pub fn attacker_wins(&mut self, b: &Board, w: Point, depth: u32) -> bool {
        let Some(def) = b.get(w) else { return true };
        let att = !def;
        let mut libs = b.liberty_points(w);
        libs.sort_unstable();
        for l in libs {
            if !b.is_legal(l, att) {
                continue;
            }
            let mut after = self.copy_of(b);
            after.play_unchecked(l, att);
            let wins = after.get(w) != Some(def) || (after.liberties(w) == 1 && self.dead_at(&after, w, depth + 1));
            self.spare.push(after);
            if wins {
                return true;
            }
        }
        false
    }

    /// Whether the opponent of the chain at `a` (two liberties) can atari it at one of them so
    /// that the ladder captures it (§11.5).
    pub fn ladder_capturable(&mut self, b: &Board, a: Point) -> bool {
        b.liberties(a) == 2 && self.attacker_wins(b, a, 0)
    }

    /// §11.6 "cannot escape": the chain at `w` has two liberties and its owner is to move;
    /// every defence leaves it with one liberty or with two from which the attacker wins.
    pub fn cannot_escape(&mut self, b: &Board, w: Point) -> bool {
        let Some(def) = b.get(w) else { return true };
        let mut cands = b.liberty_points(w);
        for c in defences(b, w) {
            if !cands.contains(&c) {
                cands.push(c);
            }
        }
        !cands.into_iter().any(|cand| self.defence_escapes(b, w, def, cand, 1))
    }
}

/// §11.4 step 1: the last liberty of every attacker chain in atari touching the chain at `w`,
/// then the chain's own liberties; no point twice.
fn defences(b: &Board, w: Point) -> Vec<Point> {
    let def = b.get(w).expect("a stone");
    let mut out = Vec::new();
    let mut seen_chains: Vec<Point> = Vec::new();
    let stones: Vec<Point> = b.chain(w).collect();
    for s in &stones {
        for q in neighbours(b, *s) {
            if b.get(q) == Some(!def) && !seen_chains.iter().any(|&c| b.same_chain(c, q)) {
                seen_chains.push(q);
                if let Some(l) = b.atari_liberty(q)
                    && !out.contains(&l)
                {
                    out.push(l);
                }
            }
        }
    }
    for l in b.liberty_points(w) {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// The on-board orthogonal neighbours of `p`, right, left, up, down: the order in which the
/// reader tries defences, so kept apart from [`Board::neighbours`] (another order), which would
/// change what it reads.
pub(crate) fn neighbours(b: &Board, p: Point) -> impl Iterator<Item = Point> + '_ {
    let (x, y) = (i32::from(p.col()), i32::from(p.row()));
    let n = b.size() as i32;
    [(1, 0), (-1, 0), (0, 1), (0, -1)].into_iter().filter_map(move |(dx, dy)| {
        let (a, c) = (x + dx, y + dy);
        (a >= 0 && c >= 0 && a < n && c < n).then(|| Point::new(a as u8, c as u8).expect("on board"))
    })
}
