//! Tactical questions of the playout policy and the search's priors: a chain's first few
//! liberties, self-atari, the 3 × 3 neighbourhood of a point. Hot path: no allocation, early
//! exits, and the pseudo-liberty count as a filter (a chain in atari has at most four
//! pseudo-liberties, one per stone touching its last liberty; with two liberties, at most eight).

use super::{BORDER, Besides, Board, EMPTY};
use crate::color::Color;
use crate::point::{DIAGONALS, NEIGHBOURS, Point};

/// The eight neighbours of a point in the order of [`Board::neighbourhood`]'s code: north,
/// north-east, east, south-east, south, south-west, west, north-west (north = row + 1).
pub(crate) const RING: [isize; 8] = [
    NEIGHBOURS[3],
    DIAGONALS[3],
    NEIGHBOURS[2],
    DIAGONALS[1],
    NEIGHBOURS[0],
    DIAGONALS[0],
    NEIGHBOURS[1],
    DIAGONALS[2],
];

impl Board {
    /// The distinct liberties of the chain whose stone is at padded index `s`, up to `max`
    /// (at most 4) of them, written to `out`; returns how many were found, `max + 1` meaning
    /// "more than `max`" — then `out` may hold fewer, or none when the pseudo-liberty count
    /// alone answers. `skip` (a padded index or 0) is not counted.
    #[inline]
    pub(crate) fn libs_upto(&self, s: usize, max: usize, skip: usize, out: &mut [u16; 5]) -> usize {
        let h = self.head[s] as usize;
        let pseudo = self.chains[h].libs() as usize;
        // Each liberty is named by at most four pseudo-liberties.
        if pseudo > 4 * (max + usize::from(skip != 0)) {
            return max + 1;
        }
        let mut n = 0;
        let mut q = h;
        loop {
            for d in NEIGHBOURS {
                let e = (q as isize + d) as usize;
                if self.cells[e] == EMPTY && e != skip && !out[..n].contains(&(e as u16)) {
                    out[n] = e as u16;
                    n += 1;
                    if n > max {
                        return n;
                    }
                }
            }
            q = self.next[q] as usize;
            if q == h {
                return n;
            }
        }
    }

    /// Up to `out.len()` distinct liberties of the chain through `p` (a stone), in `out`;
    /// returns how many were found, `out.len() + 1` meaning "more" (and then `out` is left
    /// as it was). At most 4 asked.
    ///
    /// ```
    /// use tengen_core::{Board, Color, Point};
    /// let mut board = Board::new(9).unwrap();
    /// let a1: Point = "A1".parse().unwrap();
    /// board.play(a1, Color::Black).unwrap();
    /// let mut libs = [a1; 2];
    /// assert_eq!(board.first_liberties(a1, &mut libs), 2);
    /// let mut one = [a1; 1];
    /// assert_eq!(board.first_liberties(a1, &mut one), 2); // more than one
    /// ```
    ///
    /// # Panics
    /// When `out` is longer than 4.
    pub fn first_liberties(&self, p: Point, out: &mut [Point]) -> usize {
        assert!(out.len() <= 4, "at most four liberties are asked");
        if self.cells[p.index()] >= EMPTY {
            return 0;
        }
        let mut raw = [0u16; 5];
        let n = self.libs_upto(p.index(), out.len(), 0, &mut raw);
        if n <= out.len() {
            for (o, &r) in out.iter_mut().zip(&raw[..n]) {
                *o = Point::from_index(r as usize);
            }
        }
        n
    }

    /// Whether `color` playing on the empty point `p` would leave its chain (the new stone and
    /// the own chains it joins) with exactly one liberty — counting the points that its
    /// captures free — and how many stones that chain would hold. `None`: not a self-atari
    /// (two or more liberties). Suicide counts as a self-atari with no liberty.
    ///
    /// ```
    /// use tengen_core::{Color, Game, Point, Setup};
    /// let game = Game::try_from(Setup::from_ascii("
    ///     . . .
    ///     O O .
    ///     X . O").unwrap()).unwrap();
    /// let board = game.board();
    /// let b1: Point = "B1".parse().unwrap();
    /// // Black B1 joins A1 between White stones: the two have no liberty and take nothing.
    /// assert_eq!(board.self_atari(b1, Color::Black), Some(2));
    /// // White B1 takes A1 and joins B2: liberties to spare.
    /// assert_eq!(board.self_atari(b1, Color::White), None);
    /// ```
    #[must_use]
    pub fn self_atari(&self, p: Point, color: Color) -> Option<usize> {
        self.self_atari_at(p.index(), color as u8)
    }

    #[inline]
    pub(crate) fn self_atari_at(&self, p: usize, c: u8) -> Option<usize> {
        // Two empty neighbours: two liberties at once.
        if (self.nbr[p] >> 8) & 15 >= 2 {
            return None;
        }
        let (libs, size) = self.liberties_after(p, c, 1);
        (libs < 2).then_some(size)
    }

    /// Whether `c` on the empty point `p` would put two or more stones into atari (or commit
    /// such a suicide): [`Board::self_atari`] of size 2 or more, with quick exits for the
    /// usual cases — two empty neighbours, or no own stone next to `p` (a lone stone).
    #[inline]
    pub(crate) fn big_self_atari_at(&self, p: usize, c: u8) -> bool {
        if (self.nbr[p] >> 8) & 15 >= 2 {
            return false;
        }
        let own = NEIGHBOURS.iter().any(|&d| self.cells[(p as isize + d) as usize] == c);
        own && self.liberties_after(p, c, 1).0 < 2
    }

    /// Whether `c` on the empty point `p` would be a self-atari the playouts do not play:
    /// one of two or more stones ([`Board::big_self_atari_at`]), or a lone stone that takes no
    /// liberty from an opposing chain of two liberties or fewer — a stone given away, where one
    /// next to such a chain may be a throw-in, a nakade, a ko or a snapback.
    #[inline]
    pub(crate) fn bad_self_atari_at(&self, p: usize, c: u8) -> bool {
        if (self.nbr[p] >> 8) & 15 >= 2 {
            return false;
        }
        let (libs, size) = self.liberties_after(p, c, 1);
        if libs >= 2 {
            return false;
        }
        if size >= 2 {
            return true;
        }
        let mut buf = [0u16; 5];
        for d in NEIGHBOURS {
            let e = (p as isize + d) as usize;
            if self.cells[e] == c ^ 1 && self.libs_upto(e, 2, 0, &mut buf) <= 2 {
                return false;
            }
        }
        true
    }

    /// The liberties (up to `max` + 1, at most 3, meaning "more") that the chain of a stone
    /// of colour `c` on the empty point `p` would have, and the stones in it. A capture of
    /// two or more stones counts as `max` + 1 liberties; of one stone, as its point.
    #[inline]
    pub(crate) fn liberties_after(&self, p: usize, c: u8, max: usize) -> (usize, usize) {
        let mut libs = [0u16; 5];
        let mut n = 0;
        let mut size = 1;
        let mut heads = [0u16; 4];
        for (k, d) in NEIGHBOURS.into_iter().enumerate() {
            let e = (p as isize + d) as usize;
            match self.cells[e] {
                EMPTY => {
                    if !libs[..n].contains(&(e as u16)) {
                        libs[n] = e as u16;
                        n += 1;
                    }
                }
                BORDER => {}
                cell => {
                    let h = self.head[e];
                    if heads.contains(&h) {
                        continue;
                    }
                    heads[k] = h;
                    if cell == c {
                        let info = self.chains[h as usize];
                        size += info.size() as usize;
                        if max == 1 {
                            // The self-atari question: the chain's count and sum answer it.
                            match self.libs_besides(h as usize, p, self.touching(p, h)) {
                                Besides::None => {}
                                Besides::One(l) => {
                                    if !libs[..n].contains(&(l as u16)) {
                                        libs[n] = l as u16;
                                        n += 1;
                                    }
                                }
                                Besides::More => return (max + 1, size),
                            }
                        } else {
                            let mut own = [0u16; 5];
                            let m = self.libs_upto(e, max, p, &mut own);
                            // More than `max` alone (`own` is not filled when the count
                            // filter answers: until 2026-12-02 its zeros were counted as one
                            // liberty, so that joining a chain of many liberties could read
                            // as a self-atari).
                            if m > max {
                                return (max + 1, size);
                            }
                            for &l in &own[..m] {
                                if !libs[..n].contains(&l) && n <= max {
                                    libs[n] = l;
                                    n += 1;
                                }
                            }
                        }
                    } else if !self.has_liberty_besides(p, h) {
                        // Captured: its stones' points become liberties.
                        if self.chains[h as usize].size() > 1 {
                            return (max + 1, size);
                        }
                        if !libs[..n].contains(&(e as u16)) {
                            libs[n] = e as u16;
                            n += 1;
                        }
                    }
                }
            }
            if n > max {
                return (max + 1, size);
            }
        }
        (n, size)
    }

    /// What `color` playing on the empty point `p` does to the chains next to it that have
    /// `p` as their last liberty: the opposing stones it captures and the own stones in atari
    /// that it joins (a move there is their only escape). Chains are counted once.
    #[must_use]
    pub fn atari_contacts(&self, p: Point, color: Color) -> (usize, usize) {
        let p = p.index();
        let c = color as u8;
        let (mut captured, mut saved) = (0, 0);
        let mut seen = [0u16; 4];
        for (k, d) in NEIGHBOURS.into_iter().enumerate() {
            let e = (p as isize + d) as usize;
            let cell = self.cells[e];
            if cell >= EMPTY {
                continue;
            }
            let h = self.head[e];
            if seen.contains(&h) {
                continue;
            }
            seen[k] = h;
            if !self.has_liberty_besides(p, h) {
                let size = self.chains[h as usize].size() as usize;
                if cell == c {
                    saved += size;
                } else {
                    captured += size;
                }
            }
        }
        (captured, saved)
    }

    /// The 3 × 3 neighbourhood of `p` as a 16-bit code: two bits per neighbour in the order
    /// north, north-east, east, south-east, south, south-west, west, north-west (lowest bits
    /// first), each 0 Black, 1 White, 2 empty, 3 off the board.
    #[inline]
    #[must_use]
    pub fn neighbourhood(&self, p: Point) -> u16 {
        self.neighbourhood_at(p.index())
    }

    #[inline]
    pub(crate) fn neighbourhood_at(&self, p: usize) -> u16 {
        let mut code = 0u16;
        for (k, d) in RING.into_iter().enumerate() {
            code |= u16::from(self.cells[(p as isize + d) as usize]) << (2 * k);
        }
        code
    }

    /// The last liberty of the chain through the stone at padded index `s`, if it has exactly
    /// one.
    #[inline]
    pub(crate) fn atari_at(&self, s: usize) -> Option<usize> {
        // From the chain's count and sum of pseudo-liberties, without walking it (see `ChainInfo`).
        self.chain_atari(self.head[s] as usize)
    }

    /// Whether colour `c` may play on padded index `p` by the board's rules: empty, not the
    /// ko point, not suicide.
    #[inline]
    pub(crate) fn playable_at(&self, p: usize, c: u8) -> bool {
        self.cells[p] == EMPTY && p != self.ko_point_for(c) && !self.is_suicide_at(p, c)
    }

    /// The chain head of the stone at padded index `s`.
    #[inline]
    pub(crate) fn head_at(&self, s: usize) -> u16 {
        self.head[s]
    }

    /// The cell at padded index `s`: 0 Black, 1 White, 2 empty, 3 border.
    #[inline]
    pub(crate) fn cell(&self, s: usize) -> u8 {
        self.cells[s]
    }

    /// The next stone of the chain through the stone at padded index `s` (round the circle).
    #[inline]
    pub(crate) fn next_stone(&self, s: usize) -> usize {
        self.next[s] as usize
    }
}

#[cfg(test)]
mod tests {
    use crate::Color;
    use crate::test_support::{at, board};

    #[test]
    fn a_lone_stone_into_atari_is_bad_unless_it_touches_a_short_chain() {
        let black = Color::Black as u8;
        // White's ring has three liberties, B4, C4 and E5: Black's C4 is a stone given away.
        let b = board(
            "
            O O O O .
            O . . O X
            O O O O X
            X X X X X
            . . . . .",
        );
        assert!(b.bad_self_atari_at(at("C4").index(), black));
        // Two empty neighbours, or one and a liberty joined: no self-atari.
        assert!(!b.bad_self_atari_at(at("B1").index(), black));
        // With E5 Black's, the ring has two, B4 and C4: C4 ataris it (the eye's vital point).
        let b = board(
            "
            O O O O X
            O . . O X
            O O O O X
            X X X X X
            . . . . .",
        );
        assert!(!b.bad_self_atari_at(at("C4").index(), black));
        // Over random positions: every big self-atari is bad, and every bad one a self-atari.
        use rand::SeedableRng;
        let (mut big, mut lone) = (0, 0);
        for seed in 0..20 {
            let mut b = super::Board::new(9).unwrap();
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let mut color = Color::Black;
            for _ in 0..120 {
                for p in b.points().filter(|&p| b.is_empty(p)) {
                    for c in [0u8, 1] {
                        let bad = b.bad_self_atari_at(p.index(), c);
                        if b.big_self_atari_at(p.index(), c) {
                            assert!(bad);
                            big += 1;
                        } else if bad {
                            assert_eq!(b.self_atari_at(p.index(), c), Some(1));
                            lone += 1;
                        }
                    }
                }
                let Some(p) = b.random_playout_move(color, &mut rng) else { break };
                b.play(p, color).unwrap();
                color = color.opponent();
            }
        }
        assert!(big > 0 && lone > 0, "{big} {lone}");
    }

    /// `liberties_after` by playing the move on a copy: the liberties of the new stone's
    /// chain, capped at `max + 1`, with a capture of two or more stones counting as `max + 1`.
    fn reference_liberties_after(b: &super::Board, p: usize, c: u8, max: usize) -> usize {
        let point = super::Point::from_index(p);
        let color = if c == 0 { Color::Black } else { Color::White };
        let big_capture = b
            .neighbours(point)
            .any(|n| b.get(n) == Some(!color) && b.liberty_points(n) == [point] && b.chain_size(n) >= 2);
        if big_capture {
            return max + 1;
        }
        if b.is_suicide(point, color) {
            return 0;
        }
        let mut after = b.clone();
        after.play_unchecked(point, color);
        after.liberty_points(point).len().min(max + 1)
    }

    #[test]
    fn liberties_after_a_move_match_playing_it() {
        use rand::SeedableRng;
        let mut checked = 0usize;
        for seed in 0..40 {
            let size = [5, 7, 9, 13][seed as usize % 4];
            let mut b = super::Board::new(size).unwrap();
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let mut color = Color::Black;
            for _ in 0..size * size * 2 {
                for p in b.points().filter(|&p| b.is_empty(p)).collect::<Vec<_>>() {
                    for c in [0u8, 1] {
                        for max in 1..=3 {
                            let want = reference_liberties_after(&b, p.index(), c, max);
                            let got = b.liberties_after(p.index(), c, max).0;
                            assert_eq!(got, want, "{p} colour {c} max {max}\n{b}");
                            checked += 1;
                        }
                    }
                }
                match b.random_playout_move(color, &mut rng) {
                    Some(p) => {
                        b.play_unchecked(p, color);
                    }
                    None => b.pass(),
                }
                color = !color;
            }
        }
        assert!(checked > 300_000, "{checked} checks");
    }

    #[test]
    fn self_atari_joins_chains_and_counts_captures() {
        let b = board(
            "
            . . . . .
            . . . . .
            . O O . .
            O X X . .
            . O O . .",
        );
        // B2-C2 has one liberty, D2: extending there gives D3, D1, E2.
        assert_eq!(b.self_atari(at("D2"), Color::Black), None);
        // White D2 captures two stones: never a self-atari.
        assert_eq!(b.self_atari(at("D2"), Color::White), None);
        // Black A1 touches only White chains with other liberties: suicide.
        assert_eq!(b.self_atari(at("A1"), Color::Black), Some(1));
        // An open point: not a self-atari.
        assert_eq!(b.self_atari(at("D4"), Color::Black), None);
        let b = board(
            "
            . . . . .
            . . . . .
            . O O O .
            O X X . .
            . O O O .",
        );
        // D2 joins B2-C2: one liberty left (E2), three stones.
        assert_eq!(b.self_atari(at("D2"), Color::Black), Some(3));
        let b = board(
            "
            . . . . .
            . . . . .
            . O O O .
            O X X . O
            . O O O .",
        );
        // The same with E2 taken: no liberty at all.
        assert_eq!(b.self_atari(at("D2"), Color::Black), Some(3));
    }

    #[test]
    fn taking_a_ko_leaves_one_liberty() {
        let b = board(
            "
            . X O .
            X O . O
            . X O .
            . . . .",
        );
        // Black C3 takes B3 and has only B3 back.
        assert_eq!(b.self_atari(at("C3"), Color::Black), Some(1));
    }

    #[test]
    fn atari_contacts_count_captures_and_saves() {
        let b = board(
            "
            . . . . .
            . X O . .
            X O X O .
            . . . . .
            . . . . .",
        );
        // B2 captures White's B3 (one stone); C2 saves Black's C3 (one stone).
        assert_eq!(b.atari_contacts(at("B2"), Color::Black), (1, 0));
        assert_eq!(b.atari_contacts(at("C2"), Color::Black), (0, 1));
        // For White, C2 captures C3.
        assert_eq!(b.atari_contacts(at("C2"), Color::White), (1, 0));
        assert_eq!(b.atari_contacts(at("E5"), Color::White), (0, 0));
    }

    #[test]
    fn first_liberties_stops_early() {
        let b = board(
            "
            . . . .
            X X . .
            O O X .
            . . . .",
        );
        let mut four = [at("A1"); 4];
        // Black A3-B3: A4, B4, C3.
        assert_eq!(b.first_liberties(at("A3"), &mut four), 3);
        assert!(four[..3].contains(&at("A4")) && four[..3].contains(&at("B4")) && four[..3].contains(&at("C3")));
        let mut two = [at("A1"); 2];
        assert_eq!(b.first_liberties(at("B3"), &mut two), 3, "more than two");
        // White A2-B2: A1 and B1.
        assert_eq!(b.first_liberties(at("A2"), &mut two), 2);
        assert!(two.contains(&at("A1")) && two.contains(&at("B1")));
        let mut one = [at("A1"); 1];
        assert_eq!(b.first_liberties(at("B2"), &mut one), 2, "more than one");
        assert_eq!(b.first_liberties(at("D4"), &mut four), 0, "an empty point has none");
    }

    #[test]
    fn neighbourhood_codes_the_ring() {
        let b = board(
            "
            X . .
            . . O
            . . .",
        );
        // Around B2: N = B3 empty, NE = C3 empty, E = C2 White, SE empty, S empty, SW empty,
        // W empty, NW = A3 Black.
        let code = b.neighbourhood(at("B2"));
        let ring: Vec<u16> = (0..8).map(|k| (code >> (2 * k)) & 3).collect();
        assert_eq!(ring, vec![2, 2, 1, 2, 2, 2, 2, 0]);
        // A corner: off-board on five sides.
        let code = b.neighbourhood(at("A1"));
        let ring: Vec<u16> = (0..8).map(|k| (code >> (2 * k)) & 3).collect();
        assert_eq!(ring, vec![2, 2, 2, 3, 3, 3, 3, 3]);
    }
}
