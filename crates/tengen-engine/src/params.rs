//! The search's parameters.

use std::fmt;
use std::time::Duration;

use tengen_core::Policy;

/// How many simulations a search may run, besides its time ([`SearchParams::time`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// At most this many.
    Simulations(u32),
    /// As many as the time allows, or until the caller stops the search.
    Unlimited,
}

impl Limit {
    /// The number of simulations, `None` when unlimited.
    #[must_use]
    pub fn simulations(self) -> Option<u32> {
        match self {
            Limit::Simulations(n) => Some(n),
            Limit::Unlimited => None,
        }
    }

    /// The count at which a search's shared counter of simulations stops: an unlimited search
    /// short of the counter's overflow (each thread claims one past it).
    pub(crate) fn cap(self) -> u32 {
        match self {
            Limit::Simulations(n) => n,
            Limit::Unlimited => u32::MAX - 1024,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Simulations(n) => write!(f, "{n}"),
            Limit::Unlimited => f.write_str("unlimited"),
        }
    }
}

/// How the weight β of a node's AMAF rate against its own win rate falls with its simulations
/// `n` (the prior ones included, with [`PlayoutParams::priors_in_value`]; its AMAF simulations
/// `r`, the equivalence `k`: [`PlayoutParams::rave_equivalence`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RaveSchedule {
    /// β = √(k / (3n + k)) (Gelly and Silver's hand-picked schedule, 2007): ½ at n = k.
    Equivalence,
    /// β = r / (r + n + n r / k) (Silver's schedule of least error, as Pachi has it): the AMAF
    /// rate weighs by its own simulations too. The default.
    #[default]
    LeastError,
}

/// Every tunable of the searches: the limits and choices both share, and each search's own.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Stop after this many simulations ([`Limit::Unlimited`]: when the time is up, or when
    /// the caller stops the search).
    pub playouts: Limit,
    /// Stop after this long, if set (whichever limit comes first).
    pub time: Option<Duration>,
    /// Resign when the move chosen wins less often than this after at least `resign_after`
    /// simulations (the playout search: in [`PlayoutParams::resign_moves`] searches in a row).
    pub resign_below: f32,
    /// See `resign_below`.
    pub resign_after: u32,
    /// Seed of the playouts' random generator.
    pub seed: u64,
    /// Weight of the score margin in what selection maximises: (1 − w) × win + w × (½ + ½
    /// tanh(margin / board size)). Above 0, the search prefers winning by more and losing by
    /// less — it keeps playing sound moves when far ahead or behind, where every move wins or
    /// loses alike. Reported win rates stay pure.
    pub score_weight: f32,
    /// Keep the part of the tree under the moves played since the last search.
    pub reuse_tree: bool,
    /// 0: play the most visited move. Above 0: choose among the root's moves with
    /// probability proportional to visits^(1/temperature) — the weak levels' mistakes.
    pub temperature: f32,
    /// Threads sharing one tree (at least 1). A running simulation counts as a lost visit
    /// (virtual loss) so that the threads spread over the tree.
    pub threads: usize,
    /// When the caller gives a move a time budget (GTP's clock, the server's think time),
    /// search until it is spent whatever `playouts` says — `playouts` then limits only the
    /// moves searched without a budget. Off: `playouts` caps every search (levels, and a
    /// fixed `--playouts` for tests).
    pub time_first: bool,
    /// The search for a move with a simulations limit (`playouts`: the network's visits too)
    /// stops as soon as the simulations left could not make another move the most visited
    /// (not where the move is drawn by `temperature`, nor in analyses and reviews, which
    /// report every move's figures; the playout search not before `resign_after`, the network
    /// search not while the leader's win rate is below `resign_below`). The move is the same;
    /// the time saved on clear moves lets a match at equal time give the hard ones more, and a
    /// server more games. On by default.
    pub stop_early: bool,
    /// The seeds' etiquette: as Black, the first stone in its own upper-right corner
    /// ([`crate::etiquette::first_move`]). On by default.
    pub etiquette: bool,
    /// The playout search's own ([`crate::Mcts`]).
    pub playout: PlayoutParams,
    /// The network search's own ([`crate::NetSearch`]).
    pub network: NetworkParams,
}

/// The playout search's own parameters ([`crate::Mcts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutParams {
    /// UCT exploration constant. 0 by default: the AMAF statistics and their priors do the
    /// exploring (docs/measurements.md: 0.1 lost more points per move and more games).
    pub exploration: f32,
    /// UCT exploration constant at the root alone, where it takes the place of `exploration`:
    /// without it a move whose AMAF rate is poor (one that only works played now, as the
    /// liberty to take in a capturing race) may never be tried however long the search runs.
    pub root_exploration: f32,
    /// Above 1, the search for a move with a simulations limit goes on past the limit, up to
    /// this many times it, while the choice between the two most visited moves is unsettled
    /// (their visits within a factor 1.5, or the second winning more often), as a clock's
    /// budget runs past its target while they are close (`budget.rs`): a critical move gets
    /// more simulations, a clear one none (and with `stop_early` a clear one stops before the
    /// limit). Only where the move is chosen (temperature 0), not in analyses and reviews. 2
    /// by default (at about the same time a move it won 24 of 40 against the search without
    /// it, and 99 of 100 against GNU Go level 10 where that one won 93: docs/measurements.md);
    /// 1: never, the limit exact — as the levels have it, whose strengths were measured so.
    pub close_extension: f32,
    /// On 13 × 13 and larger, in the opening, the root leaves out quiet moves (no stone within
    /// two lines) on the first and second lines and, while a corner is empty, quiet moves off
    /// the empty corners' 3-3, 3-4 and 4-4 points: corners first and no low move without a
    /// reason, as players open, however many simulations the search runs (the opening priors
    /// alone are outweighed by a few thousand). On by default.
    pub corners_first: bool,
    /// RAVE equivalence: the simulations `k` of the blend of a node's own win rate and its
    /// AMAF rate ([`PlayoutParams::rave_schedule`]). Default 3,000, as Pachi's on 9 × 9.
    pub rave_equivalence: f32,
    /// How the AMAF rate's weight β falls as a node gathers simulations. With
    /// `rave_distance` and `priors_in_value`, Pachi's tree statistics, the defaults since
    /// they won 32 of 60 against Pachi where the search before them won 22 of 60
    /// (docs/measurements.md).
    pub rave_schedule: RaveSchedule,
    /// Above 0, a move's AMAF update weighs 1 + this × (the share of the simulation's moves
    /// still to come when it was first played): moves played soon after the node count up to
    /// 1 + this times as much as those played near the playout's end, which the position
    /// then no longer resembles (Pachi's `distance_rave`). 0: every hit weighs 1. Default 3.
    pub rave_distance: f32,
    /// New nodes' prior knowledge goes into their own statistics (win rate and, for the RAVE
    /// schedule, simulations) rather than their AMAF statistics, as Pachi has it: it then
    /// weighs against the node's own few simulations rather than the many AMAF hits its
    /// siblings' playouts give it. On by default.
    pub priors_in_value: bool,
    /// Visits a leaf needs before it is expanded.
    pub expand_after: u32,
    /// Searches in a row that must find the game lost ([`SearchParams::resign_below`]) before
    /// resigning (at least 1), so that one pessimistic search does not throw away a game the
    /// opponent may still spoil (the network search trusts its network's judgement at once).
    pub resign_moves: u32,
    /// Nodes the tree may hold; past it, leaves stop expanding.
    pub max_nodes: usize,
    /// The playout policy: which answers to the last move come before random moves (see
    /// [`Policy`]; measured in docs/measurements.md).
    pub policy: Policy,
    /// New nodes start with prior knowledge — captures, escapes, self-ataris, shapes, nearness
    /// to the last move, empty first-line points — in their own statistics or their AMAF ones
    /// ([`PlayoutParams::priors_in_value`]).
    pub priors: bool,
    /// Above 0, nearness to the opponent's last move is read on the common-fate graph (a
    /// chain is one node: the liberties of the last stone's chain and the chains touching it
    /// are at distance 1) rather than by lines, as Pachi's priors have it: a move at distance
    /// 1, 2 or 3 starts with this many, 0.9 and a third as many simulations won. 0: the
    /// bonus by lines ([`PlayoutParams::priors`]), the default.
    pub cfg_prior: f32,
    /// Virtual simulations of prior knowledge from the move's learned 3 × 3 shape
    /// ([`crate::shapes`]): a shape played `r` times as often as a move at random, among
    /// siblings whose geometric mean is `g`, starts at a win rate of r / (r + g) (with the
    /// other priors: [`PlayoutParams::priors`]). 0: off. Default 20 (docs/measurements.md).
    pub shape_prior: f32,
    /// Virtual simulations of prior knowledge from the learned move predictor
    /// ([`crate::predictor`]: shape, distances to the last two moves, line, captures, escapes,
    /// ataris, self-ataris, fitted to a network's policy): a move of strength γ among siblings
    /// whose geometric mean is g starts at a win rate of γ / (γ + g), as the shape priors do
    /// (with the other priors: [`PlayoutParams::priors`]). 0: off, the default: 30 scored no
    /// better against GNU Go than the defaults, in place of the shape priors or beside them
    /// (docs/measurements.md).
    pub predictor_prior: f32,
    /// Last good reply with forgetting (Baier and Drake, *The Power of Forgetting*, 2010):
    /// each thread remembers, per player and opponent's move, the reply that last won a
    /// simulation (forgotten when it loses one), and its playouts try that reply before the
    /// policy when it is legal, fills no own eye and puts no two stones into atari. On by
    /// default (docs/measurements.md).
    pub last_good_reply: bool,
    /// With [`PlayoutParams::last_good_reply`], also remember the reply to the last two moves
    /// (the player's own and the opponent's answer: LGRF-2), tried before the reply to the last
    /// move alone. On by default (docs/measurements.md).
    pub last_good_reply_2: bool,
    /// With [`PlayoutParams::last_good_reply`], the policy's capture and escape steps come
    /// before the remembered reply (which is then tried before the other steps) rather than
    /// after it. Off by default (docs/measurements.md).
    pub urgent_first: bool,
    /// Above 0, the playouts' shape step draws among the points next to the last move by
    /// their learned shapes ([`ShapeTable::playout_weights`](crate::shapes::ShapeTable::playout_weights)) instead of MoGo's: each with
    /// weight this × its shape's odds, against 1 for each empty point. 0: MoGo's shapes.
    /// Default 100 (docs/measurements.md).
    pub playout_shapes: f32,
    /// The policy of the playouts that judge dead stones ([`Mcts::dead_stones_of`](crate::Mcts::dead_stones_of)): light by
    /// default (docs/measurements.md: the heavy policy shies away from the self-ataris that finish
    /// dead groups).
    pub status_policy: Policy,
    /// Simulations of the status search that judges dead stones ([`Mcts::dead_stones_of`](crate::Mcts::dead_stones_of)):
    /// a search from the position for the player to move in which passes do not end the
    /// game, so that every simulation plays the board out, its ownership read off the final
    /// boards and averaged with the status playouts'. 0: judge by `status_policy` playouts
    /// alone, without a tree (docs/measurements.md).
    pub status_simulations: u32,
    /// The mercy rule: a playout ends as soon as one side has captured more stones than the
    /// other, since the simulation began, by more than this share of the board's points;
    /// the score is two points a stone of the lead, less the komi and handicap bonus. 0: off.
    pub mercy: f32,
    /// Transpositions: a leaf whose position (stones, player to move, ko point, a pass just
    /// played) already has an expanded node elsewhere in this search's tree shares that
    /// node's children, so that their statistics gather every move order. Off by default: 12
    /// of 20 against GNU Go at 1 s on 9×9, no different from without (docs/measurements.md).
    pub transpositions: bool,
}

/// The network search's own parameters ([`crate::NetSearch`]).
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkParams {
    /// The network search's exploration constant ([`crate::NetSearch`], on its 0…1 utility
    /// scale: KataGo's 1.0 on −1…1 halved); it grows by 0.45 ln((N + 500) / 500) with the
    /// parent's visits N.
    pub cpuct: f32,
    /// The network search's first-play urgency: an unvisited child is valued at its parent's
    /// utility less this times √(prior of the children already visited) — half of it at the
    /// root.
    pub fpu_reduction: f32,
    /// The visits kept from the last search under the moves played since (with
    /// [`SearchParams::reuse_tree`]) count toward `playouts`, as KataGo's `maxVisits`: a search
    /// adds only what the kept subtree lacks. Off: `playouts` new visits every search. The
    /// review searches consecutive positions so.
    pub kept_count: bool,
    /// Leaves a search thread gathers (each under virtual loss) before it evaluates them in one
    /// forward pass; 0 chooses by the board size ([`NetworkParams::batch_for`]).
    pub batch: usize,
}

impl NetworkParams {
    /// The leaves gathered for one forward pass on a `size` board: `batch`, or where it is 0
    /// the size measured best on this project's machines (docs/measurements.md).
    #[must_use]
    pub fn batch_for(&self, size: usize) -> usize {
        match self.batch {
            0 => auto_batch(size),
            b => b,
        }
    }
}

/// The batch a board size gets by default. Two threads on AVX-512 (docs/measurements.md, two
/// runs each): a batch of two made the search 3–6% faster on 9×9 and 13×13 and 1–5% on 19×19,
/// where one position already fills the matrix products: there the gain is within the runs'
/// spread and not worth a wider search under virtual loss.
fn auto_batch(size: usize) -> usize {
    if size <= 13 { 2 } else { 1 }
}

impl SearchParams {
    /// The strongest level.
    pub const MAX_LEVEL: u8 = 10;

    /// Level 1 (a beginner can win) to 10 (the full strength of the given time): simulations
    /// per move 16, 50, 150, 400, 1,000, 3,000, 8,000, 20,000, 50,000, 200,000, exactly (no
    /// [`PlayoutParams::close_extension`]: the levels' strengths were measured so), and below
    /// level 4 moves drawn among the visited ones rather than the best. Levels 1–4 never resign.
    ///
    /// # Panics
    /// Outside 1…10.
    #[must_use]
    pub fn level(level: u8) -> SearchParams {
        assert!((1..=SearchParams::MAX_LEVEL).contains(&level), "levels are 1 to 10");
        let simulations = [16, 50, 150, 400, 1_000, 3_000, 8_000, 20_000, 50_000, 200_000][usize::from(level) - 1];
        let temperature = [1.0, 0.6, 0.3][..].get(usize::from(level) - 1).copied().unwrap_or(0.0);
        // Resigning needs a judgement of at least 1,000 simulations: the weakest levels, whose
        // few simulations are noise, play on to the end instead.
        SearchParams {
            playouts: Limit::Simulations(simulations),
            temperature,
            resign_after: (simulations / 2).max(1_000),
            playout: PlayoutParams { close_extension: 1.0, ..PlayoutParams::default() },
            ..SearchParams::default()
        }
    }
}

impl SearchParams {
    /// The network search's defaults ([`crate::NetSearch`]): 400 visits a move, resigning
    /// when the best move wins less than 3% of the time after 30 visits (or all the visits of
    /// a smaller search).
    #[must_use]
    pub fn network() -> SearchParams {
        SearchParams {
            playouts: Limit::Simulations(400),
            resign_below: 0.03,
            resign_after: 30,
            score_weight: 0.1,
            ..SearchParams::default()
        }
    }

    /// The network search at `level` 6 to 10 (visits per move 8, 32, 100, 400, 1,600); `None`
    /// below 6, where even one visit of a strong network would be far beyond the level — those
    /// levels stay with the playout search.
    #[must_use]
    pub fn network_level(level: u8) -> Option<SearchParams> {
        let visits = match level {
            6 => 8,
            7 => 32,
            8 => 100,
            9 => 400,
            10 => 1_600,
            _ => return None,
        };
        Some(SearchParams { playouts: Limit::Simulations(visits), ..SearchParams::network() })
    }
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            playouts: Limit::Simulations(10_000),
            time: None,
            resign_below: 0.01,
            resign_after: 2_000,
            seed: 1,
            score_weight: 0.3,
            reuse_tree: true,
            temperature: 0.0,
            threads: 1,
            time_first: false,
            stop_early: true,
            etiquette: true,
            playout: PlayoutParams::default(),
            network: NetworkParams::default(),
        }
    }
}

impl Default for PlayoutParams {
    fn default() -> PlayoutParams {
        PlayoutParams {
            exploration: 0.0,
            root_exploration: 0.0,
            close_extension: 2.0,
            corners_first: true,
            rave_equivalence: 3000.0,
            rave_schedule: RaveSchedule::LeastError,
            rave_distance: 3.0,
            priors_in_value: true,
            expand_after: 2,
            resign_moves: 3,
            max_nodes: 4_000_000,
            policy: Policy::HEAVY,
            priors: true,
            cfg_prior: 0.0,
            shape_prior: 20.0,
            predictor_prior: 0.0,
            last_good_reply: true,
            last_good_reply_2: true,
            urgent_first: false,
            playout_shapes: 100.0,
            status_policy: Policy::LIGHT,
            status_simulations: 10_000,
            mercy: 0.3,
            transpositions: false,
        }
    }
}

impl Default for NetworkParams {
    fn default() -> NetworkParams {
        NetworkParams { cpuct: 0.5, fpu_reduction: 0.1, kept_count: false, batch: 0 }
    }
}
