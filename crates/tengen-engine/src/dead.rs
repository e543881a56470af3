//! Dead stones: one judgement of life and death ([`judge`]) for both searches, and the quick
//! judgements their own decisions use.
//!
//! An evaluator's ownership (the network's, or the status search's and status playouts') is an
//! estimate of who ends up with a point, not a reading of life: it only names the chains to
//! suspect. A suspected chain is dead when a reading with its owner to move fails too; a chain
//! Benson's algorithm proves alive, or that shares an eye space with a living chain of its
//! colour, is never dead. When unsure the judgement calls a group alive: the players then play
//! it out (calling a living group dead steals a game; calling a dead one alive costs a move).

use std::ops::RangeInclusive;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tengen_core::{Board, Color, Game, PassAlive, Point, Status, Unconditional, pass_alive, seki_partners};

use crate::params::SearchParams;

/// How [`judge`] reads one evaluator's ownership (each has its own scale: the network's is
/// sharp, the mean of playouts' is blunt).
#[derive(Clone, Debug)]
pub(crate) struct Scale {
    /// A chain is suspected dead when the mean ownership of its stones leans the opponent's
    /// way by more than this.
    pub dead_beyond: f32,
    /// Chains whose mean ownership for their owner lies here are weak — neither clearly alive
    /// nor suspected —: read all the same.
    pub weak: RangeInclusive<f32>,
}

/// A chain whose mean ownership for its owner is above this lives (for [`shares_eye_space`]).
const LIVING: f32 = 0.6;

/// The scale of the playout search's ownership (the mean of a status search's and status
/// playouts'). Measured on real finished games with agreed dead stones (docs/measurements.md,
/// 2026-12-03 and 2026-12-05).
pub(crate) const PLAYOUT_SCALE: Scale = Scale { dead_beyond: 0.1, weak: -0.1..=0.6 };

/// The scale of the network's ownership, asked with each chain's owner to move
/// (docs/measurements.md, 2026-12-07 "evening").
pub(crate) const NETWORK_SCALE: Scale = Scale { dead_beyond: 0.4, weak: -0.4..=0.3 };

/// A suspected group ([`Scale::dead_beyond`]) or a weak one is dead unless its owner, moving
/// first, saves it in at least this share of a reading. Measured on GNU Go's regression games
/// and OGS's (docs/measurements.md, 2026-12-05).
pub(crate) const READ_ALIVE_FROM: f32 = 0.8;

/// A chain in seki by the static rule that the ownership suspects is dead only when a reading
/// saves it less often than this: the seki of tengen-core's `tests/data/seki.txt` read 0.63
/// and more (their playouts fill shared liberties), the false seki of shi-gnu in GNU Go's
/// regression games 0.15.
pub(crate) const SEKI_READ_ALIVE_FROM: f32 = 0.3;

/// Readings of groups' life: for each group (its stones, all of one colour), how often its
/// owner, moving first, saves it (0 to 1), or `None` when there was no time left to read it
/// (then the group is judged without it). The flag asks for deeper readings ([`DEEPER`] times
/// the simulations).
pub(crate) type Reader<'r> = dyn FnMut(&[Vec<Point>], bool) -> Vec<Option<f32>> + 'r;

/// How many times the simulations of a first reading a deeper one has: a suspected group that
/// the first reading saves is read again so before it is spared (the playouts' reading errs on
/// groups short of liberties whose defence fails a move later: 20040516-GoBucks-GnuGoCVS of GNU
/// Go's regression games, a White group GNU Go's owl reading finds dead, read 0.94 at 3,000
/// simulations and 0.40 at 12,000).
pub(crate) const DEEPER: u32 = 4;

/// The stones dead in `game` by `ownership` (Black's +1 to White's −1, by `Point::index`, on
/// `scale`) and `read`: the one judgement of life and death of both searches, and so of GTP's
/// `final_status_list`, the server's proposal and `tengen score --dead auto`. Sorted.
///
/// - A chain Benson's algorithm proves alive, or one that shares an eye space with a living
///   chain of its colour ([`shares_eye_space`]), is never dead.
/// - Suspected chains (their mean ownership beyond [`Scale::dead_beyond`] the opponent's way)
///   are joined into groups where they share a liberty, and each group is dead when a reading
///   with its owner to move saves it less often than [`READ_ALIVE_FROM`], and a deeper one too;
///   unread for lack of time, by the ownership alone. A chain in seki by the static rule,
///   suspected or weak, is dead when read below [`SEKI_READ_ALIVE_FROM`].
/// - Weak groups ([`Scale::weak`]) are dead when read below [`READ_ALIVE_FROM`] (unread: alive).
/// - A nakade kills a false seki ([`with_nakade`]); a stone in its own side's area is not dead
///   ([`in_opponent_area`]); the stones inside the opponent's unconditional area are.
pub(crate) fn judge(game: &Game, ownership: &[f32], scale: &Scale, read: &mut Reader<'_>) -> Vec<Point> {
    let board = game.board();
    let alive = [pass_alive(board, Color::Black), pass_alive(board, Color::White)];
    let (suspected, mut seki) = by_ownership(board, ownership, scale.dead_beyond);
    let (weak_seki, weak): (Vec<_>, Vec<_>) =
        weak_chains(board, ownership, &scale.weak, &alive).partition(|c| !seki_partners(board, c[0]).is_empty());
    seki.extend(weak_seki);
    let suspected_stones: Vec<Point> = suspected.iter().flatten().copied().collect();
    let spared = |stones: &Vec<Point>| shares_eye_space(board, ownership, &alive, stones, &suspected_stones);
    let suspected: Vec<Vec<Point>> = joined(board, suspected).into_iter().filter(|g| !spared(g)).collect();
    let seki: Vec<Vec<Point>> = seki.into_iter().filter(|c| !spared(c)).collect();
    let weak: Vec<Vec<Point>> = joined(board, weak).into_iter().filter(|g| !spared(g)).collect();
    // Every group read at once (the suspected first, should time run out), then deeper the
    // suspected groups the first reading saves.
    let all: Vec<Vec<Point>> = suspected.iter().chain(&seki).chain(&weak).cloned().collect();
    let first = read(&all, false);
    let fails = |s: Option<f32>| s.is_none_or(|s| s < READ_ALIVE_FROM);
    let saved: Vec<Vec<Point>> =
        suspected.iter().zip(&first).filter(|(_, s)| !fails(**s)).map(|(g, _)| g.clone()).collect();
    // The deeper readings come in the order of the groups the first saved.
    let mut deeper = read(&saved, true).into_iter();
    let mut dead = Vec::new();
    for (group, survival) in suspected.iter().zip(&first) {
        if fails(*survival) || deeper.next().is_some_and(fails) {
            dead.extend(group);
        }
    }
    let first = &first[suspected.len()..];
    for (chain, survival) in seki.iter().zip(first) {
        if survival.is_some_and(|s| s < SEKI_READ_ALIVE_FROM) {
            dead.extend(chain);
        }
    }
    for (group, survival) in weak.iter().zip(&first[seki.len()..]) {
        if survival.is_some_and(|s| s < READ_ALIVE_FROM) {
            dead.extend(group);
        }
    }
    dead.sort();
    let dead = in_opponent_area(board, with_nakade(board, ownership, dead));
    with_unconditional(board, dead)
}

/// A [`Reader`] that reads with [`crate::Mcts::survival`] (on `params`' playouts) until
/// `deadline`, if given: the groups of a batch in order, on as many threads as the machine has
/// cores (at most [`READING_THREADS`]); each reading is one thread's, so the results do not
/// depend on the threads.
pub(crate) fn playout_reader<'m>(
    params: &'m SearchParams,
    game: &'m Game,
    deadline: Option<Instant>,
) -> impl FnMut(&[Vec<Point>], bool) -> Vec<Option<f32>> + 'm {
    move |groups, deeper| {
        let times = if deeper { DEEPER } else { 1 };
        let read = |stones: &[Point]| {
            let left: Option<Duration> = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if left.is_some_and(|l| l.is_zero()) {
                return None;
            }
            let color = game.board().get(stones[0]).expect("a stone");
            Some(crate::Mcts::survival(params, game, stones, color, times, left))
        };
        let threads = std::thread::available_parallelism().map_or(1, usize::from).min(READING_THREADS);
        let next = AtomicUsize::new(0);
        let results = Mutex::new(vec![None; groups.len()]);
        std::thread::scope(|scope| {
            for _ in 0..threads.min(groups.len()) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(stones) = groups.get(i) else { break };
                        let survival = read(stones);
                        results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = survival;
                    }
                });
            }
        });
        results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The most threads a batch of readings runs on ([`playout_reader`]).
const READING_THREADS: usize = 4;

/// Whether `stones` (of one colour) share an eye space with a living chain of their colour: an
/// empty region — the opponent's `suspected` stones taken off — that only their colour
/// borders, two or more of whose points are liberties of `stones`, and that a living chain of
/// theirs touches (one Benson's algorithm proves alive, or whose mean ownership for its owner
/// is above [`LIVING`]). The opponent cannot fill two liberties inside an eye space
/// without its owner's answer, so the stones live with the chain that owns the space (a group
/// on the edge whose two eyes come from the first and second lines it shares with a
/// neighbour).
pub(crate) fn shares_eye_space(
    board: &Board,
    ownership: &[f32],
    alive: &[PassAlive; 2],
    stones: &[Point],
    suspected: &[Point],
) -> bool {
    let color = board.get(stones[0]).expect("a stone");
    let opponents: Vec<Point> = suspected.iter().copied().filter(|&p| board.get(p) == Some(!color)).collect();
    let ours = |p: Point| stones.iter().any(|&s| board.same_chain(s, p));
    let living = |p: Point| {
        alive[color.index()].is_alive(p) || mean_for(color, &board.chain(p).collect::<Vec<_>>(), ownership) > LIVING
    };
    tengen_core::count::empty_regions_without(board, &opponents).iter().any(|(points, borders)| {
        if borders[(!color).index()] || points.len() < 2 {
            return false;
        }
        let touches = |p: &Point| board.neighbours(*p).any(|n| board.get(n) == Some(color) && ours(n));
        points.iter().filter(|p| touches(p)).count() >= 2
            && points.iter().any(|&p| board.neighbours(p).any(|n| board.get(n) == Some(color) && !ours(n) && living(n)))
    })
}

/// `chains` (each a chain's stones) joined into groups where chains of one colour share a
/// liberty.
fn joined(board: &Board, chains: Vec<Vec<Point>>) -> Vec<Vec<Point>> {
    let mut groups: Vec<(Vec<Point>, Vec<Point>)> = Vec::new();
    for stones in chains {
        let (p, c) = (stones[0], board.get(stones[0]).expect("a stone"));
        let mut group = (stones, board.liberty_points(p));
        groups.retain_mut(|(s, l)| {
            let joins = board.get(s[0]) == Some(c) && l.iter().any(|x| group.1.contains(x));
            if joins {
                group.0.append(s);
                group.1.append(l);
            }
            !joins
        });
        groups.push(group);
    }
    groups.into_iter().map(|(stones, _)| stones).collect()
}

/// Whether `color` passes back after the opponent's pass, given the stones its judgement calls
/// `dead`: the game is not open ([`undecided`]), the count with them taken off wins and none of
/// them is the opponent's. At every level — weak levels err in play, not by refusing to stop.
/// Counting its own dead stones alive would pass won games away (3 of 11 lost in a match); an
/// opponent's dead stone is taken off the board first (under area counting that costs nothing),
/// so that no disagreement about it can turn the result.
pub(crate) fn passes_back(game: &Game, color: Color, dead: &[Point]) -> bool {
    let board = game.board();
    !undecided(board, dead) && !opponent_dead_stands(board, color, dead) && game.score(dead).winner() == Some(color)
}

/// The most points an empty region bordered by both colours has when a game is over: dame
/// are single points or short lines between the borders.
const DAME_AT_MOST: usize = 4;

/// Whether the game is still open, with the chains through `dead` taken off: an empty region
/// touches no stone, or is bordered by both colours and larger than dame. No level passes
/// then (not even back): the borders are not closed, and under area counting a move there
/// costs nothing. (A seki with five shared liberties or more would read as open; none was
/// met in the project's records.)
pub(crate) fn undecided(board: &Board, dead: &[Point]) -> bool {
    tengen_core::count::empty_regions_without(board, dead)
        .iter()
        .any(|(points, borders)| *borders == [false; 2] || (*borders == [true; 2] && points.len() > DAME_AT_MOST))
}

/// The points of `dead` that hold a stone of `color` on `board` (a searcher's own dead stones,
/// or those of them still standing at the end of a line of play).
pub(crate) fn stones_of(board: &Board, color: Color, dead: &[Point]) -> Vec<Point> {
    dead.iter().copied().filter(|&p| board.get(p) == Some(color)).collect()
}

/// Whether one of `dead` is a stone of `color`'s opponent on `board`: then `color` does not
/// pass (it plays another move of its search's).
pub(crate) fn opponent_dead_stands(board: &Board, color: Color, dead: &[Point]) -> bool {
    dead.iter().any(|&p| board.get(p) == Some(color.opponent()))
}

/// The chains of `board` whose points `ownership` (by `Point::index`, Black's +1 to White's
/// −1) gives, on average, to the opponent by more than `threshold` — never a chain Benson's
/// algorithm proves alive, nor one in seki by the static rule (`tengen_core::seki_partners`:
/// playouts, which fill shared liberties at random, would call both sides of a seki dead).
/// Sorted. The quick judgement, without readings, of the searches' own decisions.
pub(crate) fn dead_by_ownership(board: &Board, ownership: &[f32], threshold: f32) -> Vec<Point> {
    let mut dead: Vec<Point> = by_ownership(board, ownership, threshold).0.into_iter().flatten().collect();
    dead.sort();
    dead
}

/// The chains (each by its stones) that [`dead_by_ownership`] calls dead, and apart the chains
/// it spares only for the static seki rule: the rule looks one or two moves ahead, and a
/// reading decides (shi-gnu of GNU Go's regression games: Black's chain shares B1 and D2 with
/// White's A2 and B3, and White's B1 starts a ko that Black cannot win).
pub(crate) fn by_ownership(board: &Board, ownership: &[f32], threshold: f32) -> (Vec<Vec<Point>>, Vec<Vec<Point>>) {
    let alive = [pass_alive(board, Color::Black), pass_alive(board, Color::White)];
    let (mut dead, mut seki) = (Vec::new(), Vec::new());
    for (stones, own) in chains_owned(board, ownership) {
        let (p, c) = (stones[0], board.get(stones[0]).expect("a stone"));
        // The static seki rule tries moves on copies of the board: only for chains the
        // ownership would call dead.
        if own >= -threshold || alive[c.index()].is_alive(p) {
            continue;
        }
        if seki_partners(board, p).is_empty() {
            dead.push(stones);
        } else {
            seki.push(stones);
        }
    }
    (dead, seki)
}

/// Every chain of `board` with the mean `ownership` of its stones for their owner (+1 theirs,
/// −1 the opponent's).
fn chains_owned(board: &Board, ownership: &[f32]) -> Vec<(Vec<Point>, f32)> {
    let mut seen = vec![false; Point::TABLE_SIZE];
    let mut chains = Vec::new();
    for p in board.points() {
        let Some(c) = board.get(p) else { continue };
        if seen[p.index()] {
            continue;
        }
        let stones: Vec<Point> = board.chain(p).collect();
        for s in &stones {
            seen[s.index()] = true;
        }
        let own = mean_for(c, &stones, ownership);
        chains.push((stones, own));
    }
    chains
}

/// The mean of `ownership` (Black's +1 to White's −1) over `points`, for `color` (+1 its own);
/// 0 for no points.
fn mean_for(color: Color, points: &[Point], ownership: &[f32]) -> f32 {
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    if points.is_empty() {
        0.0
    } else {
        points.iter().map(|p| sign * ownership[p.index()]).sum::<f32>() / points.len() as f32
    }
}

/// `dead` with the chains a nakade kills (`tengen_core::nakade_sacrifice`: two liberties
/// shared with stones whose sacrifice leaves them an eye space of three points or fewer) and
/// without those stones, which live once the chain is taken: playouts, which seldom play the
/// sacrifice, read such a corner as a seki or the other way round. Only where the attacker's
/// other chains round it are alive by `ownership` (their mean leans the attacker's way by more
/// than [`NAKADE_WALL`]): a sacrifice inside a wall that is itself short of liberties starts a
/// capturing race instead. Sorted.
pub(crate) fn with_nakade(board: &Board, ownership: &[f32], mut dead: Vec<Point>) -> Vec<Point> {
    for (stones, _) in chains_owned(board, ownership) {
        let p = stones[0];
        let Some(sacrifice) = tengen_core::nakade_sacrifice(board, p) else { continue };
        let attacker = !board.get(p).expect("a stone");
        let wall_alive = stones
            .iter()
            .flat_map(|&s| board.neighbours(s))
            .filter(|&n| board.get(n) == Some(attacker) && !sacrifice.iter().any(|&s| board.same_chain(s, n)))
            .all(|n| mean_for(attacker, &board.chain(n).collect::<Vec<_>>(), ownership) > NAKADE_WALL);
        if wall_alive {
            dead.retain(|d| !sacrifice.iter().any(|&s| board.same_chain(s, *d)));
            dead.extend(stones);
        }
    }
    dead.sort();
    dead.dedup();
    dead
}

/// How far the attacker's wall must lean its way for a nakade to kill ([`with_nakade`]).
const NAKADE_WALL: f32 = 0.5;

/// The weak chains of `board` by `ownership` (Black's +1 to White's −1), each by its stones:
/// those whose mean ownership for their owner lies in `weak` — neither clearly alive nor
/// suspected —, not proved alive by Benson's algorithm (`alive`, by colour).
fn weak_chains<'a>(
    board: &'a Board,
    ownership: &[f32],
    weak: &'a RangeInclusive<f32>,
    alive: &'a [PassAlive; 2],
) -> impl Iterator<Item = Vec<Point>> + 'a {
    chains_owned(board, ownership).into_iter().filter_map(move |(stones, own)| {
        let (p, c) = (stones[0], board.get(stones[0]).expect("a stone"));
        (weak.contains(&own) && !alive[c.index()].is_alive(p)).then_some(stones)
    })
}

/// `dead` without the stones that, once every stone of `dead` is off the board, stand in an
/// empty region the opponent does not border — their own side's area, or no one's: a dead
/// stone stands in the opponent's area (and either way it counts the same under area
/// counting). Where a reading kills a weak group, the ownership may still have given the
/// stones inside it to the group's owner (gargoyle of GNU Go's regression games: a stone inside
/// a group read dead); on an open board a reading may kill a lone stone that nothing surrounds.
pub(crate) fn in_opponent_area(board: &Board, mut dead: Vec<Point>) -> Vec<Point> {
    let mut spared = Vec::new();
    for (points, borders) in tengen_core::count::empty_regions_without(board, &dead) {
        for color in [Color::Black, Color::White] {
            if !borders[color.opponent().index()] {
                spared.extend(points.iter().copied().filter(|&p| board.get(p) == Some(color)));
            }
        }
    }
    dead.retain(|p| !spared.contains(p));
    dead
}

/// `dead` and the stones inside the opponent's unconditional area (dead whatever is played, as
/// GNU Go's `unconditional_status` reports them), sorted: a dead group whose capture the
/// ownership half misses (nicklas19 of GNU Go's regression games) is named all the same.
pub(crate) fn with_unconditional(board: &Board, mut dead: Vec<Point>) -> Vec<Point> {
    let status = Unconditional::new(board);
    dead.extend(board.points().filter(|&p| status.status(p) == Status::Dead));
    dead.sort();
    dead.dedup();
    dead
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Setup;

    fn board(text: &str) -> Board {
        Game::try_from(Setup::from_ascii(text).unwrap()).unwrap().board().clone()
    }

    /// An ownership giving every stone to its owner by 0.9, but `given_away` (each a chain's
    /// stone) to the opponent by 0.9.
    fn ownership_of(b: &Board, given_away: &[&str]) -> Vec<f32> {
        let mut ownership = vec![0f32; Point::TABLE_SIZE];
        for p in b.points() {
            let Some(c) = b.get(p) else { continue };
            let away = given_away.iter().any(|v| b.same_chain(v.parse().unwrap(), p));
            let sign = if (c == Color::Black) != away { 1.0 } else { -1.0 };
            ownership[p.index()] = 0.9 * sign;
        }
        ownership
    }

    /// A reader that answers `survival` for every group.
    fn every(survival: Option<f32>) -> impl FnMut(&[Vec<Point>], bool) -> Vec<Option<f32>> {
        move |groups, _| vec![survival; groups.len()]
    }

    /// The game of `text`, Black to move.
    fn game(text: &str) -> Game {
        Game::try_from(Setup::from_ascii(text).unwrap()).unwrap()
    }

    /// Black's F7-J7 on the top edge has no eye of its own: its eye space is the first and
    /// second lines it shares with the living A7-E4 (E7 joins them).
    const SHARED_EYE_SPACE: &str = "
        . . . . . . . . .
        . . . . . . . . .
        X X X X . X X X X
        . . . X X O O O O
        . . . . X O . . .
        X X X X X O . . .
        O O O O O O . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn a_group_sharing_a_living_neighbours_eye_space_is_never_dead() {
        let game = game(SHARED_EYE_SPACE);
        let b = game.board();
        // The ownership gives F7-J7 to White and every reading fails: spared all the same.
        let mut reads = 0;
        let mut fails = |groups: &[Vec<Point>], _: bool| {
            reads += groups.len();
            vec![Some(0.0); groups.len()]
        };
        let dead = judge(&game, &ownership_of(b, &["F7"]), &NETWORK_SCALE, &mut fails);
        assert_eq!(dead, Vec::<Point>::new());
        assert_eq!(reads, 0, "no reading needed");
        // When its neighbour is suspected too, the neighbour lives by nothing here: both are
        // read as one group (they share E7), and a failed reading kills them.
        let dead = judge(&game, &ownership_of(b, &["F7", "A7"]), &NETWORK_SCALE, &mut every(Some(0.0)));
        assert_eq!(dead.len(), 12 + 4);
        // Read alive, they live.
        let dead = judge(&game, &ownership_of(b, &["F7", "A7"]), &NETWORK_SCALE, &mut every(Some(0.9)));
        assert_eq!(dead, Vec::<Point>::new());
    }

    #[test]
    fn a_suspected_group_dies_only_when_its_reading_fails() {
        // White's lone B4 inside Black's area: the ownership suspects it; the reading decides.
        let game = game(". . X O .\n. O X O .\n. . X O .\n. . X O .\n. . X O .");
        let b = game.board();
        let at = |v: &str| -> Point { v.parse().unwrap() };
        let ownership = ownership_of(b, &["B4"]);
        assert_eq!(judge(&game, &ownership, &PLAYOUT_SCALE, &mut every(Some(0.3))), vec![at("B4")]);
        assert_eq!(judge(&game, &ownership, &PLAYOUT_SCALE, &mut every(Some(0.85))), Vec::<Point>::new());
        // Unread for lack of time: the ownership decides alone.
        assert_eq!(judge(&game, &ownership, &PLAYOUT_SCALE, &mut every(None)), vec![at("B4")]);
        // Saved by the first reading, it is read deeper, and that reading decides.
        let mut asked = Vec::new();
        let mut deeper_fails = |groups: &[Vec<Point>], deeper: bool| {
            asked.extend(groups.iter().map(|_| deeper));
            vec![Some(if deeper { 0.4 } else { 0.95 }); groups.len()]
        };
        assert_eq!(judge(&game, &ownership, &PLAYOUT_SCALE, &mut deeper_fails), vec![at("B4")]);
        assert_eq!(asked, [false, true]);
        // A first reading that fails needs no deeper one.
        let mut asked = Vec::new();
        let mut first_fails = |groups: &[Vec<Point>], deeper: bool| {
            asked.extend(groups.iter().map(|_| deeper));
            vec![Some(0.2); groups.len()]
        };
        assert_eq!(judge(&game, &ownership, &PLAYOUT_SCALE, &mut first_fails), vec![at("B4")]);
        assert_eq!(asked, [false]);
    }

    #[test]
    fn only_an_eye_space_its_colour_alone_borders_spares() {
        // White's E8 in the top's space: with White's stone alive the space is no longer
        // Black's alone, and F7-J7 lives or dies by its reading.
        let text = SHARED_EYE_SPACE.replacen(
            ". . . . . . . . .\n        X X X X . X",
            ". . . . O . . . .\n        X X X X . X",
            1,
        );
        let game = game(&text);
        let b = game.board();
        let at = |v: &str| -> Point { v.parse().unwrap() };
        assert_eq!(b.get(at("E8")), Some(Color::White));
        let dead = judge(&game, &ownership_of(b, &["F7"]), &NETWORK_SCALE, &mut every(Some(0.0)));
        assert_eq!(names(&dead), ["F7", "G7", "H7", "J7"]);
        // E8 suspected too: the space is read without it, Black's alone again, and only E8 dies.
        let dead = judge(&game, &ownership_of(b, &["F7", "E8"]), &NETWORK_SCALE, &mut every(Some(0.0)));
        assert_eq!(names(&dead), ["E8"]);
    }

    fn names(points: &[Point]) -> Vec<String> {
        let mut names: Vec<String> = points.iter().map(ToString::to_string).collect();
        names.sort();
        names
    }

    #[test]
    fn a_nakade_kills_inside_a_living_wall_only() {
        // White's A3-C3-C1 shares A2 and B1 with Black's A1 and B2: Black A2 gives three
        // stones and leaves White the bent three. With Black's wall alive White is dead and
        // Black's inside stones live; with the wall leaning White's way nothing changes.
        let b = board(". . . . .\nX X X X .\nO O O X .\n. X O X .\nX . O X .");
        let at = |v: &str| -> Point { v.parse().unwrap() };
        let mut ownership = vec![0f32; Point::TABLE_SIZE];
        for p in b.points() {
            ownership[p.index()] = match b.get(p) {
                Some(Color::Black) => 0.9,
                Some(Color::White) => -0.2,
                None => 0.0,
            };
        }
        let white: Vec<Point> = ["A3", "B3", "C3", "C2", "C1"].iter().map(|v| at(v)).collect();
        let mut expected = white.clone();
        expected.sort();
        assert_eq!(with_nakade(&b, &ownership, vec![at("A1"), at("B2")]), expected);
        let wall: Vec<Point> = b.chain(at("D4")).collect();
        wall.iter().for_each(|s| ownership[s.index()] = -0.3);
        assert_eq!(with_nakade(&b, &ownership, vec![]), Vec::<Point>::new());
    }

    #[test]
    fn a_stone_in_its_own_sides_area_is_not_dead() {
        // White's B4-B5 dies inside Black's wall; Black's A5 inside it, which the ownership
        // gave White, is then in Black's own area. Black's C1 stands in a region both colours
        // border and stays dead.
        let b = board("X O X . .\n. O X . .\nX X X . .\n. . . . O\n. . X O .");
        let at = |v: &str| -> Point { v.parse().unwrap() };
        let dead = vec![at("A5"), at("B4"), at("B5"), at("C1")];
        assert_eq!(in_opponent_area(&b, dead), vec![at("B4"), at("B5"), at("C1")]);
        assert_eq!(in_opponent_area(&b, vec![at("A5")]), vec![at("A5")]);
        // A lone stone that no opposing stone surrounds is no one's to take.
        let lone = board(". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .");
        assert_eq!(in_opponent_area(&lone, vec![at("C3")]), Vec::<Point>::new());
    }

    #[test]
    fn a_game_is_open_until_its_borders_close() {
        // An empty board, and one whose only region touches both colours widely: open.
        assert!(undecided(&board(&". . . . .\n".repeat(5)), &[]));
        assert!(undecided(&board(". . . . .\n. X . O .\n. . . . .\n. . . . .\n. . . . ."), &[]));
        // Walls with a dame line of up to four points between them: closed.
        let closed = ". . X O .\n. . X O .\n. . X O .\n. . X O .\n. . X O .";
        assert!(!undecided(&board(closed), &[]));
        let dame = ". X . O .\n. X . O .\n. X . O .\n. X . O .\n. X X O .";
        assert!(!undecided(&board(dame), &[]));
        // Five dame points in a row are not dame yet.
        let wide = ". X . O .\n. X . O .\n. X . O .\n. X . O .\n. X . O .";
        assert!(undecided(&board(wide), &[]));
        // A dead stone inside the other's area does not open the game; alive it would.
        let invaded = ". . X O .\n. O X O .\n. . X O .\n. . X O .\n. . X O .";
        assert!(undecided(&board(invaded), &[]));
        let b = board(invaded);
        let stone = b
            .points()
            .find(|&p| b.get(p) == Some(Color::White) && b.neighbours(p).all(|n| b.get(n) != Some(Color::White)))
            .unwrap();
        assert!(!undecided(&b, &[stone]));
    }
}
