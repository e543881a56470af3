//! The engine behind `genmove`: the [`Engine`] trait that GTP, the server and the match
//! runner ask for moves, and the types of its answers.

use tengen_core::{Color, Game, Move};

/// What an engine decides to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (a stone or a pass).
    Play(Move),
    /// Resign the game.
    Resign,
}

/// Something that chooses moves. The GTP session owns the game; the engine is asked.
pub trait Engine {
    /// The move `color` should play in `game` (`game.to_move()` may differ: GTP allows any
    /// colour to move), within `budget` if one is given (the clock's share for this move, and
    /// how far past it a hard choice may go). It must be legal in `game` or a pass.
    fn decide(&mut self, game: &Game, color: Color, budget: Option<crate::Budget>) -> Decision;

    /// Forget anything kept between moves (a new game started).
    fn clear(&mut self) {}

    /// The stones this engine judges dead in `game`, for counting; `None` when it cannot tell
    /// (the caller then falls back on what is certain).
    fn dead_stones(&mut self, game: &Game) -> Option<Vec<tengen_core::Point>> {
        let _ = game;
        None
    }

    /// Searches `game` for `color` until `stop` is set, calling `report` about every
    /// `interval` with what the search has found so far (`report` may set `stop` itself).
    /// `false` at once when the engine cannot analyse (the default).
    fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        interval: std::time::Duration,
        stop: &std::sync::atomic::AtomicBool,
        report: &mut dyn FnMut(&Analysis),
    ) -> bool {
        let _ = (game, color, interval, stop, report);
        false
    }

    /// What the search behind the last [`Engine::decide`] found, when the engine searches
    /// (`tengen gtp -v` prints it on stderr).
    fn last_search(&self) -> Option<&SearchReport> {
        None
    }
}

/// What the search behind a decision found: its best move before the choice's rules (a pass
/// replaced, the weak levels' draw), for a log line.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The network search's (visits, the lead reported) or the playout search's.
    pub network: bool,
    /// The player searched for.
    pub color: Color,
    /// The most visited move.
    pub best: Move,
    /// Its win rate, 0 to 1.
    pub win_rate: f32,
    /// Its mean score lead, where the search estimates one (the network's).
    pub lead: Option<f32>,
    /// Simulations (visits) of this search.
    pub simulations: u32,
    /// Those kept from the last search's tree.
    pub kept: u32,
    /// Seconds it took.
    pub seconds: f64,
    /// Its principal variation.
    pub pv: Vec<Move>,
}

impl std::fmt::Display for SearchReport {
    /// One line: `tengen: B C3 win 61.2% after 1500 simulations (0 kept) in 0.08 s, 18750/s;
    /// pv C3 D4 …` (`tengen-nn: … lead +2.5 after 30 visits …` for the network search).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let player = if self.color == Color::Black { "B" } else { "W" };
        let rate = f64::from(self.simulations) / self.seconds.max(1e-9);
        let pv = self.pv.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
        let (name, unit) = if self.network { ("tengen-nn", "visits") } else { ("tengen", "simulations") };
        write!(f, "{name}: {player} {} win {:.1}%", self.best, 100.0 * self.win_rate)?;
        if let Some(lead) = self.lead {
            write!(f, " lead {lead:+.1}")?;
        }
        write!(f, " after {} {unit} ({} kept) in {:.2} s, ", self.simulations, self.kept, self.seconds)?;
        if self.network {
            write!(f, "{rate:.1}/s")?
        } else {
            write!(f, "{rate:.0}/s")?
        }
        write!(f, "; pv {pv}")
    }
}

/// What a search has found so far, for the analysis commands of GUIs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Simulations run so far.
    pub playouts: u32,
    /// The moves searched, most visited first.
    pub moves: Vec<MoveStats>,
    /// Per point (indexed by `Point::index`), from −1 (White's) to +1 (Black's).
    pub ownership: Vec<f32>,
}

/// One candidate move of an [`Analysis`], from the point of view of the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// Simulations through it.
    pub visits: u32,
    /// Its win rate, 0 to 1.
    pub win_rate: f32,
    /// The mean final score after it, in points, positive when the player to move is ahead.
    pub score_lead: f32,
    /// The standard deviation of the final scores after it.
    pub score_stdev: f32,
    /// Its share of the root's prior (uniform without a policy).
    pub prior: f32,
    /// The principal variation that starts with it.
    pub pv: Vec<Move>,
}

impl MoveStats {
    /// A lower confidence bound of the win rate (Wilson's, about 95%), for Leela Zero's
    /// `lcb` field: below the win rate even when every simulation won.
    #[must_use]
    pub fn lcb(&self) -> f32 {
        if self.visits == 0 {
            return 0.0;
        }
        let (w, n, z) = (self.win_rate, self.visits as f32, 1.96f32);
        let z2n = z * z / n;
        (w + z2n / 2.0 - z * (w * (1.0 - w) / n + z2n / (4.0 * n)).sqrt()) / (1.0 + z2n)
    }
}
