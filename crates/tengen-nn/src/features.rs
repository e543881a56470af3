//! The network's inputs for a position, as KataGo computes them for input version 7 (models
//! of versions 8 to 15): 22 planes per point and 19 global values, from the side to move.
//! Points are in KataGo's order: row 0 at the top.

use tengen_core::{Board, Color, Game, IllegalMove, KoRule, Move, PlayError, Point, Scoring, pass_alive};

use crate::forward::Input;

/// Spatial planes of input version 7.
pub const SPATIAL: usize = 22;
/// Global values of input version 7.
pub const GLOBAL: usize = 19;

/// The index of `p` in KataGo's order on a `size` board (row 0 at the top): where the point's
/// entry lies in [`crate::Evaluation`]'s policy and ownership.
#[must_use]
pub fn katago_index(p: Point, size: usize) -> usize {
    (size - 1 - usize::from(p.row())) * size + usize::from(p.col())
}

/// Empty neighbours of `p` (KataGo's "immediate liberties").
fn immediate_liberties(b: &Board, p: Point) -> usize {
    b.neighbours(p).filter(|&q| b.is_empty(q)).count()
}

/// Whether `color` playing at `p` would capture exactly one stone and be left a single stone
/// with that point as its only liberty (a ko capture).
fn would_be_ko_capture(b: &Board, p: Point, color: Color) -> bool {
    if !b.is_empty(p) || b.is_suicide(p, color) {
        return false;
    }
    let mut t = b.clone();
    let played = t.play_unchecked(p, color);
    played.captured == 1 && t.chain_size(p) == 1 && t.liberties(p) == 1
}

/// Liberties of `color`'s chain at `p` after playing there (0 when illegal), up to `max`.
fn liberties_after_play(b: &Board, p: Point, color: Color, max: usize) -> usize {
    if !b.is_empty(p) || b.is_suicide(p, color) {
        return 0;
    }
    let mut t = b.clone();
    t.play_unchecked(p, color);
    t.liberties(p).min(max)
}

/// The last liberties of the opponent chains in atari next to the chain at `w`.
fn liberty_gaining_captures(b: &Board, w: Point) -> Vec<Point> {
    let def = b.get(w).expect("a stone");
    let mut out = Vec::new();
    for s in b.chain(w).collect::<Vec<_>>() {
        for q in b.neighbours(s) {
            if b.get(q) == Some(!def)
                && let Some(l) = b.atari_liberty(q)
                && !out.contains(&l)
            {
                out.push(l);
            }
        }
    }
    out
}

/// KataGo's ladder search (`Board::searchIsLadderCaptured`): whether the chain at `w` (one
/// liberty if the defender moves first, else two) is captured by a run of ataris. Kos count
/// for the defender; a double-ko trap counts for the attacker.
fn ladder_captured(b: &Board, w: Point, defender_first: bool) -> bool {
    let libs = b.liberties(w);
    if libs > 2 || (defender_first && libs > 1) {
        return false;
    }
    let mut root = b.clone();
    if defender_first {
        root.pass(); // the defender may take any ko at the root
    }
    let limit = b.size() * b.size() * 3 / 2 + 1;
    search(&root, w, defender_first, 0, limit)
}

fn search(b: &Board, w: Point, defender_first: bool, level: usize, limit: usize) -> bool {
    if level >= limit - 1 {
        return true;
    }
    let def = b.get(w).expect("the chain is on the board");
    let att = !def;
    let defender = (defender_first && level.is_multiple_of(2)) || (!defender_first && level % 2 == 1);
    let libs = b.liberties(w);
    if !defender && libs <= 1 {
        return true;
    }
    if !defender && libs >= 3 {
        return false;
    }
    if defender && libs >= 2 {
        return false;
    }
    if defender && b.ko().is_some() {
        return false;
    }
    let moves: Vec<Point> = if defender {
        let mut m = liberty_gaining_captures(b, w);
        for l in b.liberty_points(w) {
            if !m.contains(&l) {
                m.push(l);
            }
        }
        m
    } else {
        let l = b.liberty_points(w);
        let (m0, m1) = (l[0], l[1]);
        let (libs0, libs1) = (immediate_liberties(b, m0), immediate_liberties(b, m1));
        if libs0 == 0
            && libs1 == 0
            && would_be_ko_capture(b, m0, att)
            && would_be_ko_capture(b, m1, att)
            && liberties_after_play(b, m0, def, 3) <= 2
            && liberties_after_play(b, m1, def, 3) <= 2
            && liberty_gaining_captures(b, w).is_empty()
        {
            return true;
        }
        let adjacent = b.neighbours(m0).any(|q| q == m1);
        if !adjacent && libs0 >= 3 && libs1 >= 3 {
            return false;
        } else if !adjacent && libs0 >= 3 {
            vec![m0]
        } else if !adjacent && libs1 >= 3 {
            vec![m1]
        } else {
            vec![m0, m1]
        }
    };
    let mover = if defender { def } else { att };
    for m in moves {
        if !b.is_legal(m, mover) {
            continue;
        }
        let mut next = b.clone();
        next.play_unchecked(m, mover);
        let captured = search(&next, w, defender_first, level + 1, limit);
        if defender && !captured {
            return false;
        }
        if !defender && captured {
            return true;
        }
    }
    // No move worked: the defender is captured, the attacker failed.
    defender
}

/// KataGo's `searchIsLadderCapturedAttackerFirst2Libs`: the attacker's ataris (of the two)
/// after which the chain at `w` is ladder-captured.
fn ladder_working_moves(b: &Board, w: Point) -> Vec<Point> {
    let def = b.get(w).expect("a stone");
    let mut out = Vec::new();
    for m in b.liberty_points(w) {
        if b.is_legal(m, !def) {
            let mut t = b.clone();
            t.play_unchecked(m, !def);
            if ladder_captured(&t, w, true) {
                out.push(m);
            }
        }
    }
    out
}

/// Calls `f(stone, working moves)` for every stone of a chain with one or two liberties that a
/// ladder captures (the working moves only once per chain).
fn iter_ladders(b: &Board, mut f: impl FnMut(Point, &[Point])) {
    let mut solved: Vec<(Point, bool)> = Vec::new();
    let size = b.size();
    for y in 0..size {
        for x in 0..size {
            let p = Point::new(x as u8, (size - 1 - y) as u8).expect("on board");
            if b.get(p).is_none() {
                continue;
            }
            let libs = b.liberties(p);
            if libs != 1 && libs != 2 {
                continue;
            }
            if let Some(&(_, laddered)) = solved.iter().find(|(s, _)| b.same_chain(*s, p)) {
                if laddered {
                    f(p, &[]);
                }
                continue;
            }
            let (laddered, working) = if libs == 1 {
                (ladder_captured(b, p, true), Vec::new())
            } else {
                let w = ladder_working_moves(b, p);
                (!w.is_empty(), w)
            };
            solved.push((p, laddered));
            if laddered {
                f(p, &working);
            }
        }
    }
}

/// KataGo's area for input planes 18/19 under area scoring: pass-alive stones and territory,
/// empty regions bordered by one colour only, then every other stone for its own colour.
fn area(b: &Board) -> Vec<Option<Color>> {
    let size = b.size();
    let mut out = vec![None; size * size];
    for color in [Color::Black, Color::White] {
        let alive = pass_alive(b, color);
        for p in b.points() {
            if alive.is_alive(p) || alive.is_territory(p) {
                out[katago_index(p, size)] = Some(color);
            }
        }
    }
    // Empty regions bordered by one colour.
    let mut seen = vec![false; size * size];
    for start in b.points() {
        if !b.is_empty(start) || seen[katago_index(start, size)] {
            continue;
        }
        let mut region = vec![start];
        seen[katago_index(start, size)] = true;
        let (mut black, mut white) = (false, false);
        let mut i = 0;
        while i < region.len() {
            let q = region[i];
            i += 1;
            for n in b.neighbours(q) {
                match b.get(n) {
                    None => {
                        if !seen[katago_index(n, size)] {
                            seen[katago_index(n, size)] = true;
                            region.push(n);
                        }
                    }
                    Some(Color::Black) => black = true,
                    Some(Color::White) => white = true,
                }
            }
        }
        let owner = match (black, white) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        };
        if owner.is_some() {
            for q in region {
                if out[katago_index(q, size)].is_none() {
                    out[katago_index(q, size)] = owner;
                }
            }
        }
    }
    for p in b.points() {
        if out[katago_index(p, size)].is_none() {
            out[katago_index(p, size)] = b.get(p);
        }
    }
    out
}

/// The inputs of `game`'s current position for the side to move (input version 7, KataGo's
/// default evaluation settings: no policy temperature, draws worth half).
///
/// # Errors
/// A message when the rules have no counterpart in KataGo's inputs (territory scoring).
pub fn input_features(game: &Game) -> Result<Input, String> {
    let b = game.board();
    let size = b.size();
    let s = size * size;
    let pla = game.to_move();
    let opp = !pla;
    let rules = game.rules();
    if rules.scoring != Scoring::Area {
        return Err("only area scoring is encoded".into());
    }
    let mut spatial = vec![0.0f32; s * SPATIAL];
    let mut global = vec![0.0f32; GLOBAL];
    let mut set = |p: Point, plane: usize| spatial[katago_index(p, size) * SPATIAL + plane] = 1.0;
    for p in b.points() {
        set(p, 0);
        if let Some(c) = b.get(p) {
            set(p, if c == pla { 1 } else { 2 });
            match b.liberties(p) {
                1 => set(p, 3),
                2 => set(p, 4),
                3 => set(p, 5),
                _ => {}
            }
        }
    }
    // Plane 6: the simple-ko point and the superko-banned points of the player to move.
    for p in b.points() {
        let ko = matches!(b.ko(), Some((k, c)) if k == p && c == pla);
        let superko = b.is_empty(p)
            && matches!(
                game.check(pla, Move::Play(p)),
                Err(PlayError::Illegal(IllegalMove::Superko(_) | IllegalMove::Ko(_)))
            );
        if ko || superko {
            set(p, 6);
        }
    }
    // Planes 9–13 and globals 0–4: the last five moves, alternating colours.
    let moves = game.moves();
    let mut turns = 0;
    for (k, &(color, mv)) in moves.iter().rev().take(5).enumerate() {
        let expected = if k % 2 == 0 { opp } else { pla };
        if color != expected {
            break;
        }
        turns = k + 1;
        match mv {
            Move::Pass => global[k] = 1.0,
            Move::Play(p) => set(p, 9 + k),
        }
    }
    // Planes 14–17: ladders now, one and two moves ago, and the attacker's working moves.
    iter_ladders(b, |p, working| {
        set(p, 14);
        if b.get(p) == Some(opp) && b.liberties(p) > 1 {
            for &m in working {
                set(m, 17);
            }
        }
    });
    let earlier = |n: usize| if turns >= n { game.truncated(moves.len() - n).board().clone() } else { b.clone() };
    let prev = earlier(1);
    iter_ladders(&prev, |p, _| set(p, 15));
    let prev2 = if turns >= 2 { earlier(2) } else { prev.clone() };
    iter_ladders(&prev2, |p, _| set(p, 16));
    // Planes 18–19: area.
    for (i, owner) in area(b).into_iter().enumerate() {
        match owner {
            Some(c) if c == pla => spatial[i * SPATIAL + 18] = 1.0,
            Some(_) => spatial[i * SPATIAL + 19] = 1.0,
            None => {}
        }
    }
    // Globals.
    let white_komi = rules.komi.points() as f32 + rules.handicap_bonus.points(game.handicap()) as f32;
    let area_points = s as f32;
    let self_komi =
        (if pla == Color::White { white_komi } else { -white_komi }).clamp(-area_points - 20.0, area_points + 20.0);
    global[5] = self_komi / 20.0;
    match rules.ko {
        KoRule::Simple => {}
        KoRule::Positional => {
            global[6] = 1.0;
            global[7] = 0.5;
        }
        KoRule::Situational => {
            global[6] = 1.0;
            global[7] = -0.5;
        }
    }
    if rules.suicide {
        global[8] = 1.0;
    }
    // A pass ends the game when the opponent has just passed.
    if matches!(moves.last(), Some(&(c, Move::Pass)) if c == opp) {
        global[14] = 1.0;
    }
    let floor = if s.is_multiple_of(2) {
        (self_komi / 2.0).floor() * 2.0
    } else {
        ((self_komi - 1.0) / 2.0).floor() * 2.0 + 1.0
    };
    let delta = (self_komi - floor).clamp(0.0, 2.0);
    global[18] = if delta < 0.5 {
        delta
    } else if delta < 1.5 {
        1.0 - delta
    } else {
        delta - 2.0
    };
    Ok(Input { size, spatial, global })
}
