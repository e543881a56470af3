//! Naming a move (terms.md §§5–12, §13.2): every definition that holds adds its name, then
//! the suppression rules of §4.2 drop the names a more specific one replaces, and the names
//! are sorted into the global order of §4.4.

use std::collections::VecDeque;

use tengen_core::{Board, Color, IllegalMove, Point, Setup};

use crate::geometry::{Class, D4, Dir, Geo, N4, V, add, cheb, d2, mul, neg, perps, sub, v};
use crate::reader::{Reader, neighbours};
use crate::term::{Kind as TermKind, Term, rank, term};

/// A move already played, with the board before it: what the history-dependent names (class
/// H: 滚打, 找劫, 应劫) look at.
#[derive(Clone)]
pub struct Earlier {
    /// Who played it.
    pub color: Color,
    /// Where, or `None` for a pass.
    pub point: Option<Point>,
    /// The board before it.
    pub before: Board,
}

/// The last two moves before the one being named: `last` by the opponent, `earlier` by the
/// mover (either may be missing at the start of a record).
#[derive(Clone, Default)]
pub struct Recent {
    /// The opponent's last move.
    pub last: Option<Earlier>,
    /// The mover's move before it.
    pub earlier: Option<Earlier>,
}

impl Recent {
    /// Keeps the last two of a sequence of moves: push each move with its board before it.
    #[must_use]
    pub fn after(&self, color: Color, point: Option<Point>, before: &Board) -> Recent {
        Recent { last: Some(Earlier { color, point, before: before.clone() }), earlier: self.last.clone() }
    }
}

/// An opponent chain touching the move: its liberties before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjacent {
    /// The chain's lowest stone (by row, then column).
    pub stone: Point,
    /// Liberties on the board before the move.
    pub before: usize,
    /// Liberties after the move (0 when it was captured).
    pub after: usize,
}

/// What the commentator says about a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNames {
    /// The stones it captured, sorted.
    pub captured: Vec<Point>,
    /// Liberties of the mover's chain after the move.
    pub own_liberties: usize,
    /// Opponent chains touching the point.
    pub adjacent: Vec<Adjacent>,
    /// The board names, most specific first (no evaluative names).
    pub terms: Vec<Term>,
    /// How many of `terms`, from the first, say what the move does — its tactic, contact,
    /// shape and opening names, and its point's name (天元, 星, 小目 …) only when it is the
    /// first stone of an empty area; the point's and the region's names after them say where
    /// it stands. A reader that shows a few names shows these.
    pub main: usize,
}

/// Names `color`'s move at `p` on `board` (terms.md §3.2), after `recent`.
///
/// # Errors
/// [`IllegalMove`] when the board forbids it (occupied, suicide, simple ko). Superko is the
/// caller's business: it needs the game's history.
pub fn name_move(board: &Board, color: Color, p: Point, recent: &Recent) -> Result<MoveNames, IllegalMove> {
    board.check(p, color)?;
    let ctx = Ctx::new(board, color, p, recent);
    let names = ctx.names();
    let opening = ctx.first_in_its_area();
    let main = names
        .iter()
        .take_while(|n| match term(n).kind {
            TermKind::Region => false,
            TermKind::Position => opening,
            _ => true,
        })
        .count();
    let mut adjacent = Vec::new();
    for q in neighbours(board, p) {
        if board.get(q) == Some(!color) {
            let stone = lowest(board, q);
            if adjacent.iter().any(|a: &Adjacent| a.stone == stone) {
                continue;
            }
            let after = if ctx.b1.get(q) == Some(!color) { ctx.b1.liberties(q) } else { 0 };
            adjacent.push(Adjacent { stone, before: board.liberties(q), after });
        }
    }
    Ok(MoveNames {
        captured: ctx.captured.clone(),
        own_liberties: ctx.b1.liberties(p),
        adjacent,
        terms: names.into_iter().map(|n| term(&n)).collect(),
        main,
    })
}

/// The lowest stone of the chain at `q` (its name in answers).
fn lowest(b: &Board, q: Point) -> Point {
    b.chain(q).min().expect("a chain has stones")
}

/// The names collected so far.
#[derive(Default)]
struct Names(Vec<String>);

impl Names {
    fn add(&mut self, n: &str) {
        if !self.has(n) {
            self.0.push(n.to_owned());
        }
    }
    fn has(&self, n: &str) -> bool {
        self.0.iter().any(|m| m == n)
    }
    fn any(&self, ns: &[&str]) -> bool {
        ns.iter().any(|n| self.has(n))
    }
}

/// Everything one move's naming looks at (§1.2).
struct Ctx<'a> {
    g: Geo,
    c: Color,
    o: Color,
    p: V,
    pt: Point,
    b0: &'a Board,
    /// `B0` without the stones the move captures.
    cb: Board,
    b1: Board,
    captured: Vec<Point>,
    recent: &'a Recent,
}

impl<'a> Ctx<'a> {
    fn new(b0: &'a Board, c: Color, pt: Point, recent: &'a Recent) -> Ctx<'a> {
        let mut b1 = b0.clone();
        b1.play_unchecked(pt, c);
        let mut captured: Vec<Point> = b0.points().filter(|&q| b0.get(q) == Some(!c) && b1.get(q).is_none()).collect();
        captured.sort_unstable();
        let cb = if captured.is_empty() { b0.clone() } else { without(b0, &captured) };
        Ctx { g: Geo::of(b0), c, o: !c, p: v(pt), pt, b0, cb, b1, captured, recent }
    }

    fn own(&self, q: V) -> bool {
        self.g.is(&self.cb, q, self.c)
    }

    /// Whether no stone stands near the move (within three lines on 19 × 19, two on smaller
    /// boards): the first stone of an empty corner, side or centre, whose point's name (小目,
    /// 星 …) says what it is. Later in a game the same point is a fight's, not an opening's.
    fn first_in_its_area(&self) -> bool {
        !self.stone_within(self.p, if self.g.n >= 19 { 3 } else { 2 })
    }
    fn opp(&self, q: V) -> bool {
        self.g.is(&self.cb, q, self.o)
    }
    fn empty(&self, q: V) -> bool {
        self.g.empty(&self.cb, q)
    }
    fn stone(&self, q: V) -> bool {
        self.g.get(&self.cb, q).is_some()
    }
    fn pt(&self, q: V) -> Point {
        self.g.point(q)
    }
    fn same_chain(&self, b: &Board, a: V, q: V) -> bool {
        b.same_chain(self.pt(a), self.pt(q))
    }
    /// Own stones of `b` within Chebyshev `k` of `q`.
    fn own_within(&self, q: V, k: i32) -> bool {
        self.g.within(q, k).any(|r| self.own(r))
    }
    fn stone_within(&self, q: V, k: i32) -> bool {
        self.g.within(q, k).any(|r| self.stone(r))
    }
    fn libs1(&self) -> usize {
        self.b1.liberties(self.pt)
    }

    fn names(&self) -> Vec<String> {
        let mut out = Names::default();
        let ataris = self.tactics(&mut out);
        self.ko(&mut out, &ataris);
        if self.captured.is_empty() && !out.has("扑") {
            self.shapes(&mut out);
        }
        self.openings(&mut out);
        self.reductions(&mut out);
        self.position(&mut out);
        let mut names = out.0;
        names.sort_by_key(|n| rank(n));
        names
    }

    // ---------------------------------------------------------------- §11 tactics

    /// Tactic names; returns the opponent chains put in atari with their last liberties.
    fn tactics(&self, out: &mut Names) -> Vec<(Point, Point)> {
        let (b0, b1, c, o, pt) = (self.b0, &self.b1, self.c, self.o, self.pt);
        let mut ataris = Vec::new();
        let mut seen: Vec<Point> = Vec::new();
        for q in neighbours(b0, pt) {
            if b0.get(q) != Some(o) || seen.iter().any(|&s| b0.same_chain(s, q)) {
                continue;
            }
            seen.push(q);
            if b0.liberties(q) == 2 && b1.get(q) == Some(o) && b1.liberties(q) == 1 {
                ataris.push((q, b1.atari_liberty(q).expect("one liberty")));
            }
        }
        if !ataris.is_empty() {
            out.add("打吃");
        }
        let mut lasts: Vec<Point> = ataris.iter().map(|a| a.1).collect();
        lasts.dedup();
        if lasts.len() >= 2 && self.libs1() >= 2 {
            out.add("双打");
        }
        if !self.captured.is_empty() {
            out.add("提");
        }
        let mut reader = Reader::new();
        for &(w, l) in &ataris {
            if b1.is_legal(l, o) {
                let mut run = b1.clone();
                run.play_unchecked(l, o);
                if run.get(w) == Some(o) && run.liberties(w) == 2 && reader.dead(b1, w) {
                    out.add("征");
                    break;
                }
            }
        }
        // 引征: an own two-liberty chain far away that the ladder no longer captures.
        let mut chains: Vec<Point> = Vec::new();
        for q in b0.points() {
            if b0.get(q) == Some(c) && !chains.iter().any(|&s| b0.same_chain(s, q)) {
                chains.push(q);
            }
        }
        for &a in &chains {
            if b0.liberties(a) == 2
                && b0.chain(a).all(|s| cheb(v(s), self.p) >= 3)
                && b1.get(a) == Some(c)
                && Reader::new().ladder_capturable(b0, a)
                && !Reader::new().ladder_capturable(b1, a)
            {
                out.add("引征");
                break;
            }
        }
        // 枷
        if self.libs1() >= 2 {
            let mut tried: Vec<Point> = Vec::new();
            for r in self.g.within(self.p, 2) {
                let q = self.pt(r);
                if b1.get(q) != Some(o)
                    || tried.iter().any(|&s| b1.same_chain(s, q))
                    || b1.chain(q).any(|s| neighbours(b1, s).any(|n| n == pt))
                {
                    continue;
                }
                tried.push(q);
                if b1.liberties(q) == 2
                    && Reader::new().cannot_escape(b1, q)
                    && !(b0.liberties(q) == 2 && Reader::new().cannot_escape(b0, q))
                {
                    out.add("枷");
                    break;
                }
            }
        }
        // 扑 and 倒扑
        if self.captured.is_empty()
            && b1.chain_size(pt) == 1
            && b1.liberties(pt) == 1
            && neighbours(b1, pt).filter(|&q| b1.get(q) == Some(o)).count() >= 2
        {
            out.add("扑");
            if !ataris.is_empty() && snapback(b1, pt, c) {
                out.add("倒扑");
            }
        }
        // 滚打
        if let (Some(last), Some(earlier)) = (&self.recent.last, &self.recent.earlier)
            && let (Some(q), Some(r)) = (last.point, earlier.point)
            && last.color == o
            && earlier.color == c
            && last.before.stone_count(c) > b0.stone_count(c)
            && atari_or_throw_in(&earlier.before, c, r)
            && ataris.iter().any(|&(w, l)| b0.same_chain(w, q) && squeezed(b1, w, l, o))
        {
            out.add("滚打");
        }
        // 紧气
        if self.libs1() >= 2 {
            'race: for q in neighbours(b0, pt) {
                if b0.get(q) != Some(o) || b0.chain_size(q) < 2 || b0.liberties(q) != 3 {
                    continue;
                }
                for s in b0.chain(q) {
                    for a in neighbours(b0, s) {
                        if b0.get(a) == Some(c)
                            && b0.chain_size(a) >= 2
                            && b0.liberties(a) <= 3
                            && !b0.liberty_points(a).contains(&pt)
                        {
                            out.add("紧气");
                            break 'race;
                        }
                    }
                }
            }
        }
        // 聚
        if neighbours(b1, pt).any(|q| b1.get(q) == Some(c)) && small_enclosure(b1, pt, o, 7) {
            out.add("聚");
        }
        ataris
    }

    // ---------------------------------------------------------------- §12 ko

    fn ko(&self, out: &mut Names, ataris: &[(Point, Point)]) {
        let (b0, b1, c, o, pt) = (self.b0, &self.b1, self.c, self.o, self.pt);
        let single_one_lib = b1.chain_size(pt) == 1 && b1.liberties(pt) == 1;
        let n = self.captured.len();
        if single_one_lib && self.captured.contains(&b1.liberty_points(pt)[0]) {
            if n == 1 {
                out.add("打劫");
            } else {
                out.add(&Term::give_one_back(n).zh);
            }
        }
        let took_ko = |e: &Option<Earlier>, color: Color| match e {
            Some(Earlier { color: ec, point: Some(q), before }) if *ec == color => is_ko_take(before, color, *q),
            _ => false,
        };
        if took_ko(&self.recent.last, o) {
            out.add("找劫");
            if !ataris.is_empty() {
                out.add("劫材");
            }
        }
        if took_ko(&self.recent.earlier, c)
            && let Some(Earlier { color, point: Some(q), .. }) = &self.recent.last
            && *color == o
            && cheb(v(*q), self.p) <= 2
        {
            out.add("应劫");
        }
        // 粘劫
        for s in neighbours(b0, pt) {
            if b0.get(s) == Some(c) && b0.chain_size(s) == 1 && b0.liberty_points(s) == [pt] && !b0.is_suicide(pt, o) {
                let mut t = b0.clone();
                let played = t.play_unchecked(pt, o);
                if played.captured == 1 && t.get(s).is_none() && t.chain_size(pt) == 1 && t.liberty_points(pt) == [s] {
                    out.add("粘劫");
                }
            }
        }
        if out.has("打劫") {
            let kos = ko_points(b1);
            let linked =
                kos.iter().enumerate().any(|(i, a)| kos[i + 1..].iter().any(|b| a.iter().any(|x| b.contains(x))));
            if linked {
                out.add("连环劫");
            }
        }
    }

    // ---------------------------------------------------------------- §§7–9, §13.2

    fn shapes(&self, out: &mut Names) {
        let g = self.g;
        let p = self.p;
        let own_n: Vec<V> = g.n4(p).filter(|&q| self.own(q)).collect();
        let opp_n: Vec<V> = g.n4(p).filter(|&q| self.opp(q)).collect();
        let own_d: Vec<V> = g.d4(p).filter(|&q| self.own(q)).collect();
        let b1 = &self.b1;

        // §9.3/9.4 挖, 冲
        let wedge = [(1, 0), (0, 1)].into_iter().any(|u| self.opp(add(p, u)) && self.opp(sub(p, u)));
        if wedge {
            out.add(if own_n.is_empty() { "挖" } else { "冲" });
        }
        // §9.1 断
        if !wedge && self.libs1() >= 2 {
            let chains = distinct_chains(b1, neighbours(b1, self.pt).filter(|&q| b1.get(q) == Some(self.o)));
            'cut: for (i, &a) in chains.iter().enumerate() {
                for &b in &chains[i + 1..] {
                    let la = b1.liberty_points(a);
                    if !b1.liberty_points(b).iter().any(|l| la.contains(l)) {
                        out.add("断");
                        break 'cut;
                    }
                }
            }
        }
        // §9.2 纽十字 and §13.2 裂形
        for &s in &own_d {
            let (q1, q2) = ((s.0, p.1), (p.0, s.1));
            if self.opp(q1) && self.opp(q2) {
                out.add("纽十字");
            }
        }
        for e1 in N4 {
            for e2 in perps(e1) {
                if self.opp(add(p, e1)) && self.opp(add(p, e2)) && self.own(add(add(p, e1), e2)) {
                    out.add("裂形");
                }
            }
        }
        // §9.5/9.6 挤, 掖
        if opp_n.len() == 2 {
            let (a, b) = (sub(opp_n[0], p), sub(opp_n[1], p));
            if a.0 * b.0 + a.1 * b.1 == 0 && self.empty(add(add(p, a), b)) {
                out.add(if own_n.is_empty() { "掖" } else { "挤" });
            }
        }
        // §9.7/9.8 卡, 跨
        for &t1 in &opp_n {
            for t2 in g.d4(p) {
                if !self.opp(t2) {
                    continue;
                }
                let k = sub(t2, t1);
                let knight = (k.0.abs() == 1 && k.1.abs() == 2) || (k.0.abs() == 2 && k.1.abs() == 1);
                if !knight || self.same_chain(&self.cb, t1, t2) {
                    continue;
                }
                // The other inner point: within 1 of both, not P.
                let inner = g.within(t1, 1).find(|&q| q != p && cheb(q, t2) == 1 && q != t1 && q != t2);
                if inner.is_some_and(|q| self.empty(q)) {
                    if !own_n.is_empty() {
                        out.add("卡");
                    } else if !own_d.is_empty() || self.own_within(p, 2) {
                        out.add("跨");
                    }
                }
            }
        }
        // §9.9 刺
        if opp_n.is_empty() {
            for x in g.n4(p) {
                let xp = self.pt(x);
                if !b1.is_empty(xp) || g.n4(x).any(|r| r != p && g.is(b1, r, self.c)) {
                    continue;
                }
                let chains = distinct_chains(b1, neighbours(b1, xp).filter(|&q| b1.get(q) == Some(self.o)));
                let peep = chains.iter().enumerate().any(|(i, &a)| {
                    chains[i + 1..].iter().any(|&b| {
                        let la = b1.liberty_points(a);
                        let common: Vec<Point> = b1.liberty_points(b).into_iter().filter(|l| la.contains(l)).collect();
                        common == [xp]
                    })
                });
                if peep {
                    out.add("刺");
                }
            }
        }
        // §9.10 点
        if own_n.is_empty() && self.placement() {
            out.add("点");
        }
        let cut9 = out.any(&["挖", "冲", "断", "纽十字", "掖", "挤", "卡", "跨", "刺"]);
        // §8.10 close 夹
        let clamp = own_n.is_empty() && opp_n.iter().any(|&t| self.own(add(t, sub(t, p))));
        if clamp {
            out.add("夹");
        }
        // §8.9 挡
        if !own_n.is_empty() {
            for &t in &opp_n {
                let f = sub(p, t);
                if self.opp(sub(t, f))
                    && self.same_chain(&self.cb, t, sub(t, f))
                    && !self.opp(add(p, f))
                    && perps(f).iter().any(|&e| self.own(add(p, e)))
                {
                    out.add("挡");
                }
            }
        }
        // 挡 that is also a hane: the opponent's line runs along or towards the edge low on the
        // board and points at P, and the own stone beside its head is diagonal to P (扳 names
        // the shape, 挡 what it does; a hane at the head towards the centre stays 扳).
        if own_n.is_empty() {
            for &t in &opp_n {
                let f = sub(p, t);
                if self.opp(sub(t, f))
                    && self.same_chain(&self.cb, t, sub(t, f))
                    && !self.opp(add(p, f))
                    && perps(f).iter().any(|&e| self.own(add(t, e)) && self.empty(add(p, e)))
                    && self.g.step(t, p).class != Dir::Up
                    && self.g.line(p) <= 3
                {
                    out.add("挡");
                }
            }
        }
        // §7.6 接, 粘
        let own_chains = distinct_chains(&self.cb, own_n.iter().map(|&q| self.pt(q)));
        if own_chains.len() >= 2 {
            out.add("接");
            if own_chains.iter().any(|&a| self.b0.liberty_points(a) == [self.pt]) {
                out.add("粘");
            }
        }
        // §7.9 双
        for l in N4 {
            for s in perps(l) {
                let corners = [add(p, s), add(p, mul(l, 2)), add(add(p, mul(l, 2)), s)];
                let middles = [add(p, l), add(add(p, l), s)];
                if corners.iter().all(|&q| g.is(b1, q, self.c)) && middles.iter().all(|&q| g.empty(b1, q)) {
                    out.add("双");
                }
            }
        }
        // §7.4/7.5 the extension and bend families
        let suppress = out.any(&["冲", "挤", "卡", "断", "双", "挡"]);
        if own_n.len() == 1 && !suppress {
            self.extension(out, own_n[0]);
        }
        // §7.7 团
        if !own_n.is_empty() && own_chains.len() == 1 {
            let full = D4.iter().any(|&dg| [(dg.0, 0), (0, dg.1), dg].iter().all(|&o| self.own(add(p, o))));
            let triangle = own_n.iter().enumerate().any(|(i, &a)| {
                own_n[i + 1..].iter().any(|&b| {
                    let (da, db) = (sub(a, p), sub(b, p));
                    da.0 * db.0 + da.1 * db.1 == 0 && self.empty(add(add(p, da), db))
                })
            });
            if full || triangle {
                out.add("团");
            }
        }
        // §7.8 虎, 双虎, 鼓
        if own_n.is_empty() {
            let mut tigers = 0;
            for m in g.n4(p) {
                if !self.empty(m) || g.n4(m).count() != 4 {
                    continue;
                }
                let a = sub(p, m);
                let [e1, e2] = perps(a);
                let others = [sub(m, a), add(m, e1), add(m, e2)];
                if others.iter().filter(|&&q| self.own(q)).count() != 2 {
                    continue;
                }
                if !self.own(sub(m, a)) {
                    out.add("鼓");
                } else {
                    tigers += 1;
                }
            }
            if tigers >= 1 {
                out.add("虎");
            }
            if tigers >= 2 {
                out.add("双虎");
            }
        }
        // §7.2 the diagonal family (扳, 尖 …) when no own stone touches
        if own_n.is_empty() {
            self.diagonal(out, &own_d);
        }
        // §7.1 the relation family
        if own_n.is_empty() && own_d.is_empty() {
            self.relation(out);
        }
        // §7.3 连 and 渡
        if own_n.is_empty() && self.libs1() >= 2 {
            let mut linked: Vec<Point> = Vec::new();
            for r in g.within(p, 4) {
                if !self.own(r) {
                    continue;
                }
                let d = sub(r, p);
                let (a, b) = (d.0.abs().min(d.1.abs()), d.0.abs().max(d.1.abs()));
                let ok = match (a, b) {
                    (1, 2) | (1, 3) => true,
                    (0, 2..=4) => self.between_empty(p, r),
                    _ => false,
                };
                if ok {
                    linked.push(self.pt(r));
                }
            }
            if distinct_chains(&self.cb, linked.into_iter()).len() >= 2 {
                out.add("连");
            }
        }
        if g.line(p) <= 2 && self.libs1() >= 2 && self.bridges_along_the_edge() {
            out.add("渡");
        }
        // §7.10 补
        if opp_n.is_empty() && self.cutting_points(&self.b1) < self.cutting_points(self.b0) {
            out.add("补");
        }
        // §8.1–8.4 the attach family; an own diagonal stone rules it out only when the move is
        // named by the diagonal's contact (扳, 尖顶, 纽十字): a 尖 that touches a stone on its far
        // side is also 靠 (seed: "在有己方棋子作策应的情况下").
        let diagonal_contact = out.any(&["扳", "尖顶", "纽十字"]);
        if !opp_n.is_empty() && own_n.is_empty() && !diagonal_contact && !cut9 && !out.has("点") && !clamp {
            self.attach(out, &opp_n);
        }
        // §13.2 愚形, 凝形
        for dg in D4 {
            let cells = [(dg.0, 0), (0, dg.1), dg].map(|o| add(p, o));
            let own = cells.iter().filter(|&&q| g.is(b1, q, self.c)).count();
            let empty = cells.iter().filter(|&&q| g.empty(b1, q)).count();
            if own == 2 && empty == 1 {
                out.add("愚形");
            }
            if own == 3 {
                out.add("凝形");
            }
        }
    }

    /// 渡 (§7.3, seed 000: linking two parts "在棋盘三路以下的边线上"): own stones of two
    /// different chains near `P` (touching, diagonal, or one point away on a line with the middle
    /// empty), one on each side of `P` along its edge — a link along the edge, not a plain
    /// connection of a stone above to one beside —, under an opponent stone on the next line
    /// within one point.
    fn bridges_along_the_edge(&self) -> bool {
        let (g, p) = (self.g, self.p);
        let lp = g.line(p);
        if !g.within(p, 1).any(|r| self.opp(r) && g.line(r) == lp + 1) {
            return false;
        }
        // The axes the edge runs along: the one of the nearest edge, both in a corner.
        let axes: &[usize] = match g.edge_frame(p) {
            Some((0, _)) => &[1],
            Some(_) => &[0],
            None => &[0, 1],
        };
        axes.iter().any(|&axis| {
            let side = |sign: i32| -> Vec<Point> {
                g.within(p, 2)
                    .filter(|&r| self.own(r))
                    .filter(|&r| {
                        let d = sub(r, p);
                        let along = if axis == 0 { d.0 } else { d.1 };
                        along.signum() == sign
                            && (cheb(r, p) == 1 || ((d.0 == 0 || d.1 == 0) && self.between_empty(p, r)))
                    })
                    .map(|r| self.pt(r))
                    .collect()
            };
            let (before, after) = (side(-1), side(1));
            before.iter().any(|&a| after.iter().any(|&b| !self.cb.same_chain(a, b)))
        })
    }

    /// Whether the points strictly between `a` and `b` (on one line) are empty.
    fn between_empty(&self, a: V, b: V) -> bool {
        let d = sub(b, a);
        let n = d.0.abs().max(d.1.abs());
        let u = (d.0.signum(), d.1.signum());
        (1..n).all(|k| self.empty(add(a, mul(u, k))))
    }

    /// §7.4 extension family and §7.5 bend family for the one own stone `s` touching P.
    fn extension(&self, out: &mut Names, s: V) {
        let g = self.g;
        let p = self.p;
        let d = sub(p, s);
        let es = perps(d);
        let bends: Vec<V> = es.iter().map(|&e| add(s, e)).filter(|&q| self.own(q)).collect();
        if !bends.is_empty() {
            if bends.iter().any(|&sp| self.opp(add(sp, d))) {
                out.add("拐");
            } else if bends.iter().any(|&sp| self.empty(add(sp, d))) {
                out.add("曲");
            }
            return;
        }
        let st = g.step(s, p);
        let along = st.class == Dir::Along;
        // 退 (seed: "将被对方挡住前进去路的子向己方退回一步"): a stone in atari that steps out
        // extends (长), and a step down to the 1st or 2nd line descends (立).
        let escapes_atari = self.b0.liberties(self.pt(s)) == 1;
        let to_the_edge = st.class == Dir::Down && g.line(p) <= 2 && st.d_line_p < st.ln;
        if self.opp(sub(s, d)) && st.class != Dir::Up && !escapes_atari && !to_the_edge {
            out.add("退");
        } else if self.opp(add(p, d)) {
            out.add("顶");
            let t = add(p, d);
            let td = add(t, d);
            if self.opp(td) && self.same_chain(&self.cb, t, td) && self.cb.chain_size(self.pt(t)) >= 3 {
                out.add("鼻顶");
            }
        } else if along && st.ln <= 2 && (self.opp(add(s, st.cn)) || self.opp(add(p, st.cn))) {
            out.add("爬");
        } else if along && st.ln >= 2 && self.opp(sub(p, st.cn)) {
            out.add("压");
        } else if es.iter().any(|&e| self.opp(add(p, e)) && self.opp(add(add(p, e), d))) {
            out.add("贴");
        } else if st.class == Dir::Up && es.iter().any(|&e| self.opp(add(s, e)) && self.empty(add(p, e))) {
            out.add("挺");
        } else if st.class == Dir::Down && st.d_line_p < st.ln {
            out.add("立");
            let sp = self.pt(s);
            if self.cb.chain_size(sp) == 1
                && (3..=4).contains(&g.line(s))
                && g.region(s) != "中腹"
                && !g.within(p, 2).any(|r| r != s && self.stone(r))
                && !g.within(s, 2).any(|r| r != s && self.stone(r))
            {
                out.add("玉柱");
            }
        } else if g.line(p) == g.line(s) && !g.n4(p).chain(g.n4(s)).any(|q| self.opp(q)) {
            out.add("并");
        } else {
            out.add("长");
        }
    }

    /// §7.2 the diagonal family: 纽十字 (named in §9), 扳 (连扳, 反扳), 尖 (尖顶).
    fn diagonal(&self, out: &mut Names, own_d: &[V]) {
        let p = self.p;
        let tiger = out.any(&["虎", "双虎", "鼓"]);
        for &s in own_d {
            let (q1, q2) = ((s.0, p.1), (p.0, s.1));
            match (self.opp(q1), self.opp(q2)) {
                (true, true) => {}
                (true, false) | (false, true) => {
                    let (t, other) = if self.opp(q1) { (q1, q2) } else { (q2, q1) };
                    if !self.empty(other) {
                        continue;
                    }
                    out.add("扳");
                    let double = self.g.d4(s).any(|s2| {
                        if s2 == p || !self.own(s2) {
                            return false;
                        }
                        let (r1, r2) = ((s2.0, s.1), (s.0, s2.1));
                        (self.opp(r1) && r1 != t && self.empty(r2)) || (self.opp(r2) && r2 != t && self.empty(r1))
                    });
                    if double {
                        out.add("连扳");
                        continue;
                    }
                    let counter = self.g.d4(t).any(|u| {
                        if !self.opp(u) {
                            return false;
                        }
                        let (r1, r2) = ((u.0, t.1), (t.0, u.1));
                        (r1 == s && self.empty(r2)) || (r2 == s && self.empty(r1))
                    });
                    if counter {
                        out.add("反扳");
                    }
                }
                (false, false) => {
                    if !self.empty(q1) || !self.empty(q2) || tiger {
                        continue;
                    }
                    out.add("尖");
                    let vv = sub(p, s);
                    if self.opp(add(p, (vv.0, 0))) || self.opp(add(p, (0, vv.1))) {
                        out.add("尖顶");
                        out.add("顶");
                    }
                }
            }
        }
    }

    /// §7.1 the relation family from the nearest own stones.
    fn relation(&self, out: &mut Names) {
        let g = self.g;
        let p = self.p;
        let mut best = i32::MAX;
        let mut nearest: Vec<V> = Vec::new();
        for r in g.within(p, 8) {
            if self.own(r) {
                let dist = d2(r, p);
                if dist <= 64 {
                    if dist < best {
                        best = dist;
                        nearest.clear();
                    }
                    if dist == best {
                        nearest.push(r);
                    }
                }
            }
        }
        for s in nearest {
            let d = sub(p, s);
            let (a, b) = (d.0.abs().min(d.1.abs()), d.0.abs().max(d.1.abs()));
            match (a, b) {
                (0, _) => {
                    if !self.between_empty(s, p) {
                        continue;
                    }
                    let st = g.step(s, p);
                    // An extension along the side is 拆; a one-space jump there next to opponent
                    // stones (within 1 of P or of the stone it jumps from) is a fight's 跳.
                    let fight = b == 2 && (self.g.within(p, 1).chain(self.g.within(s, 1)).any(|q| self.opp(q)));
                    let chai =
                        st.class == Dir::Along && (2..=4).contains(&st.ln) && !g.n4(p).any(|q| self.stone(q)) && !fight;
                    if chai {
                        if let Some(name) = ["拆一", "拆二", "拆三", "拆四", "拆五", "拆六"].get(b as usize - 2)
                        {
                            out.add(name);
                            out.add("拆");
                            if self.checking(s) {
                                out.add("逼");
                            }
                        }
                    } else if b == 2 {
                        let near_opp = g.within(p, 2).any(|q| self.opp(q));
                        out.add(if st.class == Dir::Up && !near_opp { "关" } else { "跳" });
                    } else if b == 3 {
                        out.add("大跳");
                    }
                }
                (1, 2) => out.add("小飞"),
                (2, 2) => out.add("象步飞"),
                (1, 3) => out.add("大飞"),
                _ => {}
            }
        }
    }

    /// §6.6 逼: beyond P, away from `s`, the first column of the three lines around P's line
    /// that holds a stone is 2–4 steps away and holds only opponent stones.
    fn checking(&self, s: V) -> bool {
        let d = sub(self.p, s);
        let u = (d.0.signum(), d.1.signum());
        let e = perps(u)[0];
        for k in 1.. {
            let c = add(self.p, mul(u, k));
            if !self.g.on(c) {
                return false;
            }
            let col: Vec<V> = [neg(e), (0, 0), e].iter().map(|&o| add(c, o)).filter(|&q| self.stone(q)).collect();
            if !col.is_empty() {
                return (2..=4).contains(&k) && col.iter().all(|&q| self.opp(q));
            }
        }
        false
    }

    /// §9.10 点: a placement inside a small opponent eye space, or 点三三.
    fn placement(&self) -> bool {
        let g = self.g;
        // (a) the empty region of P on CB
        let mut region = vec![self.p];
        let mut i = 0;
        let mut only_opp = true;
        while i < region.len() && region.len() <= 7 {
            let q = region[i];
            i += 1;
            for r in g.n4(q) {
                if self.empty(r) {
                    if !region.contains(&r) {
                        region.push(r);
                    }
                } else if self.own(r) {
                    only_opp = false;
                }
            }
        }
        if i == region.len() && only_opp && (3..=7).contains(&region.len()) {
            return true;
        }
        // (c) the vital point of an open shape: no own stone within 2, an opponent stone
        // touching P and another on its diagonals or sides, and all four sides of P closed (the
        // edge, or an opponent stone one or two points out on that side).
        let p = self.p;
        if !self.own_within(p, 2)
            && g.n4(p).any(|q| self.opp(q))
            && g.within(p, 1).filter(|&q| self.opp(q)).count() >= 2
        {
            let closed = N4
                .iter()
                .filter(|&&u| {
                    let one = add(p, u);
                    !g.on(one)
                        || [one, add(p, mul(u, 2)), add(one, perps(u)[0]), add(one, perps(u)[1])]
                            .iter()
                            .any(|&q| self.opp(q))
                })
                .count();
            if closed == 4 {
                return true;
            }
        }
        // (b) 点三三
        if g.big() && g.lx(self.p) == 3 && g.ly(self.p) == 3 {
            let corner = g.corner_of(self.p).expect("a 3-3 point has a corner");
            let dir = ((self.p.0 - corner.0).signum(), (self.p.1 - corner.1).signum());
            let s = add(self.p, dir);
            if self.opp(s) && g.box_empty_but(&self.cb, corner, &[s]) {
                return true;
            }
        }
        false
    }

    /// The cutting points of the mover within 2 of P on `b` (§7.10).
    fn cutting_points(&self, b: &Board) -> usize {
        let g = self.g;
        let mut n = 0;
        let mut cells: Vec<V> = g.within(self.p, 2).collect();
        cells.push(self.p);
        for x in cells {
            if !g.empty(b, x) {
                continue;
            }
            let xp = g.point(x);
            let chains = distinct_chains(b, neighbours(b, xp).filter(|&q| b.get(q) == Some(self.c)));
            let cut = chains.iter().enumerate().any(|(i, &a)| {
                chains[i + 1..].iter().any(|&c2| {
                    let la = b.liberty_points(a);
                    let common: Vec<Point> = b.liberty_points(c2).into_iter().filter(|l| la.contains(l)).collect();
                    common == [xp]
                })
            });
            if cut && b.is_legal(xp, self.o) {
                let mut t = b.clone();
                t.play_unchecked(xp, self.o);
                if t.liberties(xp) >= 2 {
                    n += 1;
                }
            }
        }
        n
    }

    /// §8.1–8.4: 搭, 托, 靠, 碰 — the first that holds.
    fn attach(&self, out: &mut Names, opp_n: &[V]) {
        let g = self.g;
        let p = self.p;
        for &t in opp_n {
            for u in N4 {
                let f = sub(p, t);
                if f.0 * u.0 + f.1 * u.1 == 0 && self.empty(add(t, u)) && self.own(add(t, mul(u, 2))) {
                    out.add("搭");
                    return;
                }
            }
        }
        for &t in opp_n {
            let f = sub(p, t);
            let axis = if f.0 != 0 { 0 } else { 1 };
            let (fp, ft, other) = (g.axis_line(p, axis), g.axis_line(t, axis), g.axis_line(p, 1 - axis));
            if fp < ft && fp < other && g.line(p) <= 3 && g.region(p) != "中腹" {
                out.add("托");
                return;
            }
        }
        out.add(if self.own_within(p, 2) { "靠" } else { "碰" });
    }

    // ---------------------------------------------------------------- §6 openings

    fn openings(&self, out: &mut Names) {
        let g = self.g;
        let p = self.p;
        if g.big() {
            for s in g.within(p, 4) {
                let Some(corner) = g.corner_of(s) else { continue };
                let stone = self.g.get(&self.cb, s);
                if stone.is_none() {
                    continue;
                }
                let fs = g.frame(corner, s);
                let fp = g.frame(corner, p);
                let Some(kind) = corner_kind(fs) else { continue };
                let lone = g.box_empty_but(&self.cb, corner, &[s]);
                let touches = cheb(s, p) == 1 && (s.0 == p.0 || s.1 == p.1);
                let name = approach_name(kind, fs, fp, touches);
                if stone == Some(self.o) {
                    if lone && let Some(n) = name {
                        out.add(n.0);
                        out.add("挂");
                    }
                    // 双飞燕
                    if kind == Kind::Star && (fp == (6, 3) || fp == (3, 6)) {
                        let mirror = (fp.1, fp.0);
                        let sx = if corner.0 == 0 { 1 } else { -1 };
                        let sy = if corner.1 == 0 { 1 } else { -1 };
                        let q = (corner.0 + sx * (mirror.0 - 1), corner.1 + sy * (mirror.1 - 1));
                        if self.own(q) && g.box_empty_but(&self.cb, corner, &[s, q]) {
                            out.add("双飞燕");
                            out.add("小飞挂");
                            out.add("挂");
                        }
                    }
                } else if stone == Some(self.c)
                    && lone
                    && let Some(n) = name
                {
                    out.add(n.1);
                    out.add("缔");
                }
            }
        }
        // §6.4/6.5 pincers
        for (t, gap, high) in pincers(g, &self.cb, self.c, p) {
            let name = match (gap, high) {
                (1, false) => "一间低夹",
                (1, true) => "一间高夹",
                (2, false) => "二间低夹",
                (2, true) => "二间高夹",
                (3, false) => "三间低夹",
                _ => "三间高夹",
            };
            out.add(name);
            out.add("夹");
            let without_t = without(&self.cb, &[g.point(t)]);
            if !pincers(g, &without_t, self.o, t).is_empty() {
                out.add("反夹");
            }
        }
        if g.big() {
            self.side_moves(out);
        }
        if g.class() == Class::Nineteen
            && self.b0.stone_count(Color::Black) + self.b0.stone_count(Color::White) <= 40
            && g.region(p) == "边"
            && (3..=4).contains(&g.line(p))
            && !self.stone_within(p, 3)
        {
            out.add("大场");
        }
    }

    /// Scans along the nearer edge from P, one way: the first column (within the 5-line band
    /// of that edge) holding a stone, as (distance, its stones).
    fn side_scan(&self, sign: i32) -> Option<(i32, Vec<V>)> {
        let g = self.g;
        let (axis, low) = g.edge_frame(self.p)?;
        let along = if axis == 0 { (0, sign) } else { (sign, 0) };
        for k in 1.. {
            let c = add(self.p, mul(along, k));
            if !g.on(c) {
                return None;
            }
            let col: Vec<V> = (0..5)
                .map(|i| {
                    let coord = if low { i } else { g.n - 1 - i };
                    if axis == 0 { (coord, c.1) } else { (c.0, coord) }
                })
                .filter(|&q| g.on(q) && self.stone(q))
                .collect();
            if !col.is_empty() {
                return Some((k, col));
            }
        }
        None
    }

    /// §6.7 分投, §6.8 打入, §10.4 吊.
    fn side_moves(&self, out: &mut Names) {
        let g = self.g;
        let p = self.p;
        let Some((axis, _)) = g.edge_frame(p) else { return };
        let scans = [self.side_scan(1), self.side_scan(-1)];
        let both = |ok: &dyn Fn(i32, &[V]) -> bool| {
            scans.iter().all(|s| s.as_ref().is_some_and(|(k, col)| col.iter().all(|&q| self.opp(q)) && ok(*k, col)))
        };
        let nineteen = g.class() == Class::Nineteen;
        let line = g.line(p);
        if (3..=4).contains(&line)
            && g.region(p) == "边"
            && !self.stone_within(p, 2)
            && both(&|k, _| k >= if nineteen { 5 } else { 3 })
        {
            out.add("分投");
        }
        if (2..=3).contains(&line)
            && g.region(p) == "边"
            && !self.stone_within(p, 1)
            && !self.own_within(p, 4)
            && both(&|k, _| if nineteen { (2..=4).contains(&k) } else { k == 2 })
        {
            out.add("打入");
        }
        if line == 4
            && !self.stone_within(p, 1)
            && !self.own_within(p, 4)
            && both(&|k, col| (2..=6).contains(&k) && col.iter().all(|&q| g.axis_line(q, axis) <= 3))
        {
            out.add("吊");
        }
    }

    // ---------------------------------------------------------------- §10 reductions

    fn reductions(&self, out: &mut Names) {
        let g = self.g;
        let p = self.p;
        let touches_none = !g.n4(p).any(|q| self.stone(q));
        // 肩冲
        if touches_none {
            let diag: Vec<V> = g.d4(p).filter(|&q| self.opp(q)).collect();
            if diag.len() == 1 {
                let t = diag[0];
                // In a corner P is no nearer to either edge than T: a diagonal on the edge's
                // side of a corner stone is no shoulder hit (both shoulders are P's neighbours,
                // empty as P touches no stone).
                let edge_side = g.region(t) == "角" && (0..2).any(|a| g.axis_line(p, a) < g.axis_line(t, a));
                if (2..=4).contains(&g.line(t)) && g.line(p) == g.line(t) + 1 && !edge_side {
                    out.add("肩冲");
                }
            }
        }
        // 镇 and 拦
        let mut cap = false;
        for u in N4 {
            let t = add(p, mul(u, 2));
            if !touches_none || !self.opp(t) {
                continue;
            }
            if let Some((axis, _)) = g.edge_frame(t) {
                let on_normal = if axis == 0 { u.1 == 0 } else { u.0 == 0 };
                // Something is capped: a stone of a small chain off the edge lines, not already
                // covered by an own stone beside P's path.
                let small = self.cb.chain_size(self.pt(t)) <= 3 && g.line(t) >= 3;
                let covered = perps(u).iter().any(|&e| self.own(add(add(p, u), e)));
                if self.empty(add(t, u))
                    && on_normal
                    && g.axis_line(p, axis) > g.axis_line(t, axis)
                    && small
                    && !covered
                {
                    cap = true;
                }
            }
            let beyond = add(t, u);
            if self.empty(add(p, u))
                && self.opp(beyond)
                && self.same_chain(&self.cb, t, beyond)
                && self.own_within(p, 2)
            {
                out.add("拦");
            }
        }
        if cap && !out.has("挂") {
            out.add("镇");
        }
        // 浅消
        if g.line(p) >= 5
            && !self.stone_within(p, 1)
            && !self.own_within(p, 4)
            && !out.has("镇")
            && g.within(p, 4).filter(|&q| self.opp(q) && g.line(q) <= g.line(p) - 2).count() >= 2
        {
            out.add("浅消");
        }
        let near_chains = self.opponent_chains_within(4);
        // 罩
        if !self.stone_within(p, 2) {
            for w in &near_chains {
                let nearest = w.iter().map(|&s| cheb(s, p)).min().unwrap_or(0);
                let top = w.iter().map(|&s| g.line(s)).max().unwrap_or(0);
                let lonely = !w.iter().any(|&s| g.within(s, 4).any(|q| self.opp(q) && !w.contains(&q)));
                let supported = w.iter().any(|&s| self.own_within(s, 5));
                if (3..=4).contains(&nearest) && g.line(p) >= top + 2 && lonely && supported {
                    out.add("罩");
                    break;
                }
            }
        }
        // 封
        let lc = match g.class() {
            Class::Nineteen => 7,
            Class::Thirteen => 5,
            Class::Nine => 4,
        };
        for w in &near_chains {
            let rp = self.pt(w[0]);
            if w.len() <= 10
                && w.iter().all(|&s| g.line(s) < lc)
                && !w.iter().any(|&s| cheb(s, p) == 1 && (s.0 == p.0 || s.1 == p.1))
                && self.escapes(&self.cb, rp, lc)
                && !self.escapes(&self.b1, rp, lc)
            {
                out.add("封");
                break;
            }
        }
    }

    /// The opponent chains (their stones on CB) with a stone within `k` of P.
    fn opponent_chains_within(&self, k: i32) -> Vec<Vec<V>> {
        let mut seen: Vec<Point> = Vec::new();
        let mut out = Vec::new();
        for r in self.g.within(self.p, k) {
            if !self.opp(r) {
                continue;
            }
            let rp = self.pt(r);
            if seen.iter().any(|&s| self.cb.same_chain(s, rp)) {
                continue;
            }
            seen.push(rp);
            out.push(self.cb.chain(rp).map(v).collect());
        }
        out
    }

    /// §10.7: a walk from the chain's liberties through empty points touching no stone of
    /// the mover reaches line `lc`.
    fn escapes(&self, b: &Board, w: Point, lc: i32) -> bool {
        let g = self.g;
        if b.get(w) != Some(self.o) {
            return false;
        }
        let free = |q: V| g.empty(b, q) && !g.n4(q).any(|r| g.is(b, r, self.c));
        let mut queue: VecDeque<V> = b.liberty_points(w).into_iter().map(v).filter(|&q| free(q)).collect();
        let mut seen: Vec<V> = queue.iter().copied().collect();
        while let Some(q) = queue.pop_front() {
            if g.line(q) >= lc {
                return true;
            }
            for r in g.n4(q) {
                if !seen.contains(&r) && free(r) {
                    seen.push(r);
                    queue.push_back(r);
                }
            }
        }
        false
    }

    // ---------------------------------------------------------------- §5, §2.1

    fn position(&self, out: &mut Names) {
        let g = self.g;
        if g.is_centre(self.p) {
            out.add("天元");
        }
        if g.is_star(self.p) {
            out.add("星");
        }
        if let Some(n) = g.corner_point(self.p) {
            out.add(n);
        }
        out.add(g.region(self.p));
    }
}

/// Corner kinds of §2.4.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Star,
    Komoku,
    Other,
}

fn corner_kind(f: V) -> Option<Kind> {
    match (f.0.min(f.1), f.0.max(f.1)) {
        (4, 4) => Some(Kind::Star),
        (3, 4) => Some(Kind::Komoku),
        (4, 5) | (3, 5) => Some(Kind::Other),
        _ => None,
    }
}

/// The approach and enclosure names of §6.1/§6.3 for a move at frame `fp` next to a corner
/// stone of kind `kind` at frame `fs`: (approach name, enclosure name).
fn approach_name(kind: Kind, fs: V, fp: V, touches: bool) -> Option<(&'static str, &'static str)> {
    const NAMES: [(&str, &str); 4] =
        [("小飞挂", "小飞缔"), ("一间高挂", "一间缔"), ("大飞挂", "大飞缔"), ("二间高挂", "大跳缔")];
    match kind {
        Kind::Star => {
            let pair = (fp.0.max(fp.1), fp.0.min(fp.1));
            let i = [(6, 3), (6, 4), (7, 3), (7, 4)].iter().position(|&q| q == pair)?;
            Some(NAMES[i])
        }
        Kind::Komoku => {
            // A: the axis on which the stone is on the 3rd line.
            let (a, other) = if fs.0 == 3 { (fp.0, fp.1) } else { (fp.1, fp.0) };
            let i = [(5, 3), (5, 4), (6, 3), (6, 4)].iter().position(|&q| q == (a, other))?;
            Some(NAMES[i])
        }
        Kind::Other => ([(3, 4), (4, 3), (3, 3)].contains(&fp) && !touches).then_some(("挂", "缔")),
    }
}

/// §6.4 pincers by `mover` at `p` on `b`: (the pincered stone, gap, high).
fn pincers(g: Geo, b: &Board, mover: Color, p: V) -> Vec<(V, i32, bool)> {
    let mut out = Vec::new();
    let Some((axis, low)) = g.edge_frame(p) else { return out };
    let np = g.axis_line(p, axis);
    if !(3..=4).contains(&np) || g.within(p, 1).any(|q| g.get(b, q).is_some()) {
        return out;
    }
    let along = 1 - axis;
    let coord = |q: V, ax: usize| if ax == 0 { q.0 } else { q.1 };
    for t in g.within(p, 4) {
        if !g.is(b, t, !mover) || b.chain_size(g.point(t)) > 2 {
            continue;
        }
        if !(2..=4).contains(&g.line(t)) || g.edge_frame(t) != Some((axis, low)) {
            continue;
        }
        if (g.axis_line(t, axis) - np).abs() > 1 {
            continue;
        }
        let dist = (coord(p, along) - coord(t, along)).abs();
        if !(2..=4).contains(&dist) {
            continue;
        }
        let sign = (coord(p, along) - coord(t, along)).signum();
        let rows_empty = [coord(t, axis), coord(p, axis)].iter().all(|&nc| {
            (1..dist).all(|k| {
                let a = coord(t, along) + sign * k;
                let q = if axis == 0 { (nc, a) } else { (a, nc) };
                g.empty(b, q)
            })
        });
        if !rows_empty {
            continue;
        }
        let backed = g.within(t, 5).any(|s| g.is(b, s, mover) && (coord(s, along) - coord(t, along)).signum() == -sign);
        if backed {
            out.push((t, dist - 1, np == 4));
        }
    }
    out
}

/// The chains among `stones`, one representative (lowest stone) each.
fn distinct_chains(b: &Board, stones: impl Iterator<Item = Point>) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::new();
    for s in stones {
        if !out.iter().any(|&c| b.same_chain(c, s)) {
            out.push(s);
        }
    }
    out
}

/// `b` without the stones at `points`.
fn without(b: &Board, points: &[Point]) -> Board {
    let mut setup = Setup::new(b.size());
    for q in b.points() {
        if points.contains(&q) {
            continue;
        }
        match b.get(q) {
            Some(Color::Black) => setup.black.push(q),
            Some(Color::White) => setup.white.push(q),
            None => {}
        }
    }
    // Removing stones never leaves a chain without liberties.
    setup.board().expect("a position with stones removed is valid")
}

/// §11.8: after the throw-in at `p` (one liberty), the opponent takes it and the mover
/// retakes at `p`, capturing two or more stones.
fn snapback(b1: &Board, p: Point, c: Color) -> bool {
    let Some(l) = b1.atari_liberty(p) else { return false };
    if !b1.is_legal(l, !c) {
        return false;
    }
    let mut b2 = b1.clone();
    b2.play_unchecked(l, !c);
    if b2.get(p).is_some() || b2.chain_size(l) < 2 || b2.liberty_points(l) != [p] {
        return false;
    }
    if !b2.is_legal(p, c) {
        return false;
    }
    let mut b3 = b2;
    b3.play_unchecked(p, c).captured >= 2
}

/// Whether `c`'s move at `p` on `b` was 打吃 or 扑 (for 滚打).
/// A squeeze ataris into a clump: the chain `w` that connects at its last liberty `l` still
/// has at most two liberties.
fn squeezed(b1: &Board, w: Point, l: Point, o: Color) -> bool {
    if !b1.is_legal(l, o) {
        return true;
    }
    let mut run = b1.clone();
    run.play_unchecked(l, o);
    run.get(w) == Some(o) && run.liberties(w) <= 2
}

fn atari_or_throw_in(b: &Board, c: Color, p: Point) -> bool {
    if !b.is_legal(p, c) {
        return false;
    }
    let mut after = b.clone();
    let played = after.play_unchecked(p, c);
    let atari = neighbours(b, p)
        .any(|q| b.get(q) == Some(!c) && b.liberties(q) == 2 && after.get(q) == Some(!c) && after.liberties(q) == 1);
    let throw_in = played.captured == 0
        && after.chain_size(p) == 1
        && after.liberties(p) == 1
        && neighbours(&after, p).filter(|&q| after.get(q) == Some(!c)).count() >= 2;
    atari || throw_in
}

/// Whether `c`'s move at `p` on `b` took a ko (打劫, §12.1).
fn is_ko_take(b: &Board, c: Color, p: Point) -> bool {
    if !b.is_legal(p, c) {
        return false;
    }
    let mut after = b.clone();
    let played = after.play_unchecked(p, c);
    played.captured == 1
        && after.chain_size(p) == 1
        && after.liberty_points(p).first().is_some_and(|&l| b.get(l) == Some(!c))
        && after.liberties(p) == 1
}

/// The ko points of `b` (§12.6), each as the chains (lowest stones) touching it.
fn ko_points(b: &Board) -> Vec<Vec<Point>> {
    let mut out = Vec::new();
    for q in b.points() {
        if !b.is_empty(q) {
            continue;
        }
        let nbrs: Vec<Point> = neighbours(b, q).collect();
        let Some(y) = nbrs.first().and_then(|&n| b.get(n)) else { continue };
        if !nbrs.iter().all(|&n| b.get(n) == Some(y)) {
            continue;
        }
        let chains = distinct_chains(b, nbrs.iter().copied());
        let in_atari: Vec<Point> = chains.iter().copied().filter(|&ch| b.liberties(ch) == 1).collect();
        let taken: usize = in_atari.iter().map(|&ch| b.chain_size(ch)).sum();
        if taken == 1 {
            out.push(chains.iter().map(|&ch| lowest(b, ch)).collect());
        }
    }
    out
}

/// §11.11: the points reachable from `p` through non-`opp` points number at most `max`.
fn small_enclosure(b: &Board, p: Point, opp: Color, max: usize) -> bool {
    let mut region = vec![p];
    let mut i = 0;
    while i < region.len() {
        if region.len() > max {
            return false;
        }
        let q = region[i];
        i += 1;
        for r in neighbours(b, q) {
            if b.get(r) != Some(opp) && !region.contains(&r) {
                region.push(r);
            }
        }
    }
    region.len() <= max
}
