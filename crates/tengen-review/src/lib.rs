//! The review of a game: every move named with the Go terms and judged by a search — the win
//! rate and score lead before and after it, the points and win rate lost against the best move,
//! that move and its principal variation, the evaluative terms that follow (恶手, 疑问手, 妙手 …
//! of docs/terms.md §15) — the biggest mistakes listed, a graph (SVG, or a sparkline for a
//! terminal) and an annotated record. Shared by `tengen review` and the server's review jobs.
//!
//! Each position is searched once for the player to move, in the game's order; with a network
//! each search starts from the tree the one before left under the move played, and its visits
//! count toward the position's (`Searcher::network`), so a position costs only what that
//! subtree lacks. A move's `loss` (points) compares like with like: the best move's and the
//! played move's values in the search before it when the played move was searched enough,
//! else the positions after the best and after the played move, each searched for the
//! opponent (one search more). Its `tenuki_loss` (behind sente and gote) is the opponent's
//! loss by passing instead of answering: from the search after the move when it looked at the
//! pass enough, else from two more searches, of the positions after that pass and after the
//! best reply, both for the mover. So a move costs one search and up to three more; with a
//! network those three get half the visits.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};
use tengen_core::{Color, Game, Move, Point};
use tengen_engine::{Analysis, Mcts, NetSearch};
use tengen_sgf::{Mark, Note};
use tengen_terms::{Commentary, Eval, Term, evaluative_names};

/// The search a review asks: the playout search, or the network's.
pub enum Searcher {
    /// The playout search (Monte-Carlo tree search with RAVE).
    Playouts(Box<Mcts>),
    /// The PUCT search on a KataGo network: `main` searches the game's positions, `side` the
    /// positions off the game's line a move's judgement asks for (see [`Searcher::network`]).
    Network {
        /// The game's positions.
        main: Box<NetSearch>,
        /// Positions off the game's line.
        side: Box<NetSearch>,
        /// The network, for the quick pass.
        model: std::sync::Arc<tengen_nn::CachedModel>,
        /// Threads of the quick pass.
        threads: usize,
    },
}

/// The share of a position's visits a search off the game's line gets: a half …
const SIDE_SHARE: u32 = 2;
/// … but at least this many.
const SIDE_MIN: u32 = 8;

impl Searcher {
    /// The network search for a review. The game's positions are searched in its order, each
    /// within the tree the search of the one before left under the move played, whose visits
    /// count toward `params.playouts` (see `NetworkParams::kept_count`); the positions off the
    /// game's line (after the best move, after a pass) get half the visits, at least 8.
    #[must_use]
    pub fn network(model: std::sync::Arc<tengen_nn::CachedModel>, params: tengen_engine::SearchParams) -> Searcher {
        let network = tengen_engine::NetworkParams { kept_count: true, ..params.network.clone() };
        let main = tengen_engine::SearchParams { reuse_tree: true, network, ..params.clone() };
        let side = match params.playouts.simulations() {
            Some(n) => tengen_engine::Limit::Simulations((n / SIDE_SHARE).max(SIDE_MIN).min(n)),
            None => params.playouts,
        };
        let threads = params.threads.max(1);
        Searcher::Network {
            main: Box::new(NetSearch::new(model.clone(), main)),
            side: Box::new(NetSearch::new(model.clone(), tengen_engine::SearchParams { playouts: side, ..params })),
            model,
            threads,
        }
    }

    /// The quick pass: every position evaluated once by the network (its threads sharing the
    /// positions), in order; `None` for the playout search, which has no such pass.
    fn glance_all(&self, positions: &[Game]) -> Option<Vec<Glance>> {
        let Searcher::Network { model, threads, main, .. } = self else { return None };
        let chunk = positions.len().div_ceil(*threads).max(1);
        // Each thread's positions in forward passes of four (the search's batch if larger):
        // without a search to widen, a batch costs nothing and saves a few percent.
        let batch = main.params().network.batch_for(positions.first()?.board().size()).max(4);
        let glances = std::thread::scope(|scope| {
            let parts: Vec<_> = positions
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || part.chunks(batch).flat_map(|games| glance(model, games)).collect::<Vec<_>>())
                })
                .collect();
            parts.into_iter().flat_map(|p| p.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
        });
        Some(glances)
    }

    /// The position searched for `color`, and the network's priors of its moves (none without a
    /// network).
    fn search(&mut self, game: &Game, color: Color) -> (Analysis, Vec<(Move, f32)>) {
        match self {
            Searcher::Playouts(m) => (m.search_analysis(game, color), Vec::new()),
            Searcher::Network { main, .. } => {
                let a = main.search_for(game, color);
                (a, main.root_priors())
            }
        }
    }

    /// A position off the game's line searched for `color`.
    fn analysis(&mut self, game: &Game, color: Color) -> Analysis {
        match self {
            Searcher::Playouts(m) => m.search_analysis(game, color),
            Searcher::Network { side, .. } => side.search_for(game, color),
        }
    }
}

/// A position of the quick pass: the network's own judgement, without a search.
#[derive(Clone, Copy, Debug)]
struct Glance {
    /// Black's win rate.
    win_black: f64,
    /// Black's lead in points.
    lead_black: f64,
    /// The most likely move of the player to move.
    best: Move,
}

/// One evaluation of each game (for its player to move, in one forward pass), turned to
/// Black's view.
fn glance(model: &tengen_nn::CachedModel, games: &[Game]) -> Vec<Glance> {
    let batch: Vec<(&Game, u8)> = games.iter().map(|g| (g, 0)).collect();
    let Ok(evals) = tengen_engine::evaluate_games(model, &batch) else {
        return vec![Glance { win_black: 0.5, lead_black: 0.0, best: Move::Pass }; games.len()];
    };
    games
        .iter()
        .zip(evals)
        .map(|(game, e)| {
            let best = e.moves.first().map_or(Move::Pass, |m| m.0);
            let (win_black, lead_black) =
                if game.to_move() == Color::Black { (e.win, e.lead) } else { (1.0 - e.win, -e.lead) };
            Glance { win_black, lead_black, best }
        })
        .collect()
}

/// Why a review could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The game has no moves.
    #[error("the record has no moves to review")]
    NoMoves,
    /// A move of the record could not be replayed.
    #[error("replaying the record at move {number}: {reason}")]
    Replay {
        /// The move's number, from 1.
        number: usize,
        /// What the rules said.
        reason: String,
    },
    /// The caller stopped it (its progress callback broke).
    #[error("the review was stopped")]
    Stopped,
}

/// How far a review has come, told to its caller as it goes.
pub enum Progress<'a> {
    /// The quick pass is done (with a network only, before any search): every move with the
    /// network's own win rate and lead before and after it and its most likely move as the
    /// best, marked [`MoveReview::provisional`], without judgements. The moves judged then
    /// replace them one by one.
    Quick(&'a [MoveReview]),
    /// `done` of the game's `total` positions searched (the first pass).
    Searched {
        /// Positions searched so far.
        done: usize,
        /// All positions: one more than the moves.
        total: usize,
    },
    /// A move judged (the second pass, in order).
    Judged(&'a MoveReview),
}

/// One move of the review.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveReview {
    /// From 1.
    pub number: usize,
    /// `B` or `W`.
    pub color: String,
    /// The vertex or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The board names, most specific first.
    pub terms: Vec<TermOut>,
    /// The judgements (evaluative names).
    pub judgement: Vec<TermOut>,
    /// The evaluation record the judgements come from (terms.md §15).
    pub eval: Eval,
    /// The search's best move in the position before.
    pub best: String,
    /// The search's principal variation from the position before, starting with `best`.
    #[serde(default)]
    pub pv: Vec<String>,
    /// Black's win rate before the move, 0 to 1 (the search of the position before).
    #[serde(default)]
    pub winrate_black_before: f64,
    /// Black's lead in points before the move (the name the server's API gives it too;
    /// reviews stored before read under their old name).
    #[serde(default, alias = "score_black_before")]
    pub score_lead_black_before: f64,
    /// Black's win rate after the move, 0 to 1.
    pub winrate_black: f64,
    /// Black's lead in points after the move (area counting, komi included).
    #[serde(alias = "score_black")]
    pub score_lead_black: f64,
    /// Win rate the mover lost against the best move, 0 to 1.
    pub winrate_loss: f64,
    /// [`NOISE_ERRORS`] standard errors of `loss`, in points (from the spread of the searches'
    /// scores over their visits): a loss under it is within the search's noise, judged as none.
    #[serde(default)]
    pub loss_noise: f64,
    /// A move of the quick pass: the network's first look, not searched nor judged yet.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
}

/// A term as the review prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TermOut {
    /// Chinese.
    pub zh: String,
    /// Pinyin.
    pub pinyin: String,
    /// English.
    pub en: String,
}

impl From<&Term> for TermOut {
    fn from(t: &Term) -> TermOut {
        TermOut { zh: t.zh.clone(), pinyin: t.pinyin.clone(), en: t.en.clone() }
    }
}

/// The whole review (`--json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Review {
    /// The record reviewed.
    pub file: String,
    /// Board size.
    pub size: usize,
    /// Komi in points.
    pub komi: f64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The result as recorded.
    pub result: String,
    /// Simulations per position.
    pub playouts: u32,
    /// Black's win rate before the first move.
    pub start_winrate_black: f64,
    /// Every move.
    pub moves: Vec<MoveReview>,
    /// Move numbers of the biggest mistakes, biggest first (at most 10, each losing at least
    /// 1.5 points).
    pub mistakes: Vec<usize>,
}

/// Visits after which a move's own statistics at the root are trusted.
const SEARCHED: u32 = 30;

/// The value of a position for `color`: (win rate, lead in points) of the most visited move.
fn value(a: &Analysis) -> (f64, f64) {
    a.moves.first().map_or((0.5, 0.0), |m| (f64::from(m.win_rate), f64::from(m.score_lead)))
}

/// Standard errors of a loss under which it is within the search's noise. The estimated error
/// is on the safe side: over twelve seeds of a 1,000-simulation review the losses of one move
/// spread by about three quarters of it (docs/measurements.md, 2026-12-05).
pub const NOISE_ERRORS: f64 = 1.5;

/// The variance of a move's mean lead: the spread of its scores over its visits.
fn variance(m: &tengen_engine::MoveStats) -> f64 {
    f64::from(m.score_stdev).powi(2) / f64::from(m.visits.max(1))
}

/// The variance of a position's value (its most visited move's).
fn value_variance(a: &Analysis) -> f64 {
    a.moves.first().map_or(0.0, variance)
}

/// Whether nothing is left to play on `game`'s board: every empty point is owned by one side
/// (the search's ownership, at least ±0.5). A pass there loses nothing, whatever a search's
/// noise says of a move inside a territory.
fn finished(game: &Game, a: &Analysis) -> bool {
    let board = game.board();
    !a.ownership.is_empty()
        && board.points().all(|p| board.get(p).is_some() || a.ownership.get(p.index()).is_some_and(|o| o.abs() >= 0.5))
}

fn cheb(a: Point, b: Point) -> f64 {
    f64::from((i32::from(a.col()) - i32::from(b.col())).abs().max((i32::from(a.row()) - i32::from(b.row())).abs()))
}

fn letter(c: Color) -> &'static str {
    if c == Color::Black { "B" } else { "W" }
}

/// Searches every position and names every move.
/// Searches every position of `game` with `mcts` (`playouts` is what the review reports as its
/// simulations a position) and names and judges every move, telling `progress` as it goes: it
/// may stop the review by breaking. `file` and `info` (the record's name and game information)
/// go into the review as they are.
///
/// # Errors
/// [`ReviewError::NoMoves`] for a game without moves, [`ReviewError::Replay`] when its moves
/// cannot be replayed, [`ReviewError::Stopped`] when `progress` broke.
pub fn review(
    game: &Game,
    mcts: &mut Searcher,
    playouts: u32,
    file: &str,
    info: &tengen_sgf::GameInfo,
    progress: &mut dyn FnMut(Progress<'_>) -> ControlFlow<()>,
) -> Result<Review, ReviewError> {
    if game.moves().is_empty() {
        return Err(ReviewError::NoMoves);
    }
    let moves = game.moves().to_vec();
    let start = game.truncated(0);
    // Positions 0..=n, each searched for the player who moves there (or who is due at the end).
    let mut positions: Vec<Game> = Vec::with_capacity(moves.len() + 1);
    let mut g = start.clone();
    positions.push(g.clone());
    for (i, &(c, mv)) in moves.iter().enumerate() {
        let replay = |e: tengen_core::PlayError| ReviewError::Replay { number: i + 1, reason: e.to_string() };
        g.play_on(c, mv).map_err(replay)?;
        positions.push(g.clone());
    }
    let mover = |i: usize| moves.get(i).map_or(game.to_move(), |m| m.0);
    if let Some(glances) = mcts.glance_all(&positions) {
        let quick: Vec<MoveReview> = moves
            .iter()
            .enumerate()
            .map(|(i, &(color, mv))| {
                let (before, after) = (glances[i], glances[i + 1]);
                MoveReview {
                    number: i + 1,
                    color: letter(color).into(),
                    mv: mv.to_string(),
                    terms: Vec::new(),
                    judgement: Vec::new(),
                    eval: Eval::default(),
                    best: before.best.to_string(),
                    pv: vec![before.best.to_string()],
                    winrate_black_before: before.win_black,
                    score_lead_black_before: before.lead_black,
                    winrate_black: after.win_black,
                    score_lead_black: after.lead_black,
                    winrate_loss: 0.0,
                    loss_noise: 0.0,
                    provisional: true,
                }
            })
            .collect();
        if progress(Progress::Quick(&quick)).is_break() {
            return Err(ReviewError::Stopped);
        }
    }
    let total = positions.len();
    let mut analyses: Vec<Analysis> = Vec::with_capacity(total);
    let mut priors: Vec<Vec<(Move, f32)>> = Vec::with_capacity(total);
    for (i, position) in positions.iter().enumerate() {
        let (a, p) = mcts.search(position, mover(i));
        analyses.push(a);
        priors.push(p);
        if progress(Progress::Searched { done: i + 1, total }).is_break() {
            return Err(ReviewError::Stopped);
        }
    }
    let prior_of = |i: usize, mv: Move| priors[i].iter().find(|p| p.0 == mv).map(|p| f64::from(p.1));
    let mut commentary = Commentary::new(&start);
    let mut out = Vec::with_capacity(moves.len());
    for (i, &(color, mv)) in moves.iter().enumerate() {
        let before = &analyses[i];
        let (w0, s0) = value(before);
        // After the move: the next search is for the opponent as a rule; a record with two
        // moves in a row by one side is searched again for the opponent.
        let after = if mover(i + 1) == color.opponent() {
            value(&analyses[i + 1])
        } else {
            value(&mcts.analysis(&positions[i + 1], color.opponent()))
        };
        let (w1, s1) = (1.0 - after.0, -after.1);
        let visits: u32 = before.moves.iter().map(|m| m.visits).sum();
        let played = before.moves.iter().find(|m| m.mv == mv);
        let best = before.moves.first().map_or(Move::Pass, |m| m.mv);
        // The loss compares like with like: two moves of one search when the played move was
        // searched enough, else the positions after the best and after the played move, each
        // searched for the opponent (a search overrates the side to move; comparing a value
        // before the move with one after it would charge that to every move).
        // Each with the variance of its difference, for the noise.
        let (loss, winrate_loss, var) = match played {
            _ if mv == best => (0.0, 0.0, 0.0),
            _ if mv == Move::Pass && finished(&positions[i], before) => (0.0, 0.0, 0.0),
            Some(p) if p.visits >= SEARCHED.max(visits / 50) => {
                let top = &before.moves[0];
                (
                    f64::from(top.score_lead - p.score_lead),
                    f64::from(top.win_rate - p.win_rate),
                    variance(top) + variance(p),
                )
            }
            _ => {
                let mut alt = positions[i].clone();
                let after_var = value_variance(&analyses[i + 1]);
                if alt.play_as(color, best).is_ok() {
                    let searched = mcts.analysis(&alt, color.opponent());
                    let (wb, sb) = value(&searched);
                    (after.1 - sb, after.0 - wb, after_var + value_variance(&searched))
                } else {
                    (s0 - s1, w0 - w1, after_var + value_variance(before))
                }
            }
        };
        let (loss, winrate_loss) = (loss.max(0.0), winrate_loss.max(0.0));
        let loss_noise = NOISE_ERRORS * var.sqrt();
        // The prior: the network's policy for the move when there is one, else the share of the
        // search's visits it got.
        let prior =
            prior_of(i, mv).unwrap_or_else(|| played.map_or(0.0, |m| f64::from(m.visits) / f64::from(visits.max(1))));
        let mut eval = Eval { loss, prior: Some(prior), winrate_before: Some(w0), ..Eval::default() };
        let within_noise = loss < loss_noise;
        // With the network: the opponent's most likely reply (the trap a move may set) — its
        // prior, and its loss when the search looked at it enough —, and the prior of their
        // best reply.
        if let (Some(&(likely, likely_prior)), Some(top)) = (priors[i + 1].first(), analyses[i + 1].moves.first()) {
            eval.trap_prior = Some(f64::from(likely_prior));
            if let Some(reply) = analyses[i + 1].moves.iter().find(|m| m.mv == likely && m.visits >= 3) {
                eval.trap_loss = Some(f64::from(top.score_lead - reply.score_lead).max(0.0));
            }
            eval.opp_best_prior = prior_of(i + 1, top.mv);
        }
        if let Some(second) = before.moves.get(1) {
            eval.gap2 = Some(f64::from(before.moves[0].score_lead - second.score_lead).max(0.0));
        }
        let mut terms: Vec<Term> = Vec::new();
        if let Move::Play(p) = mv {
            terms = commentary.name(color, p).map(|n| n.terms).unwrap_or_default();
            if let Move::Play(b) = best {
                eval.best_dist = Some(cheb(p, b));
            }
            if let Some(&(c, Move::Play(q))) = i.checked_sub(1).and_then(|k| moves.get(k))
                && c != color
            {
                eval.prev_dist = Some(cheb(p, q));
            }
            let next = &analyses[i + 1];
            if let Some(&Move::Play(r)) = next.moves.first().map(|m| &m.mv) {
                eval.reply_dist = Some(cheb(p, r));
            }
            if let Some(top) = next.moves.first() {
                let good = next.moves.iter().filter(|m| m.visits > 0 && top.score_lead - m.score_lead <= 1.0).count();
                eval.good_replies = Some(good as f64);
            }
            if let Some(&(_, Move::Play(r))) = moves.get(i + 1) {
                eval.reply_actual_dist = Some(cheb(p, r));
            }
            if let Some(&(_, Move::Play(r))) = moves.get(i + 2) {
                eval.next_self_dist = Some(cheb(p, r));
            }
            // Sente or gote: what the opponent loses by passing instead of answering — from one
            // search when it tried the pass enough, else by searching the positions after the
            // pass and after the best reply, both for the mover.
            let pass = next.moves.iter().find(|m| m.mv == Move::Pass && m.visits >= SEARCHED);
            if let (Some(pass), Some(top)) = (pass, next.moves.first()) {
                eval.tenuki_loss = Some(f64::from(top.score_lead - pass.score_lead).max(0.0));
            } else if let Some(top) = next.moves.first() {
                let mut tenuki = positions[i + 1].clone();
                let mut answered = positions[i + 1].clone();
                if tenuki.play_as(color.opponent(), Move::Pass).is_ok()
                    && answered.play_as(color.opponent(), top.mv).is_ok()
                {
                    let (_, s_t) = value(&mcts.analysis(&tenuki, color));
                    let (_, s_a) = value(&mcts.analysis(&answered, color));
                    eval.tenuki_loss = Some((s_t - s_a).max(0.0));
                }
            }
        }
        let given: Vec<&str> = terms.iter().map(|t| t.zh.as_str()).collect();
        // A loss within the search's noise is judged as none (the names of what a move costs
        // are for losses the search can tell).
        let judged = Eval { loss: if within_noise { 0.0 } else { loss }, ..eval.clone() };
        let judgement: Vec<TermOut> =
            evaluative_names(&judged, &given).into_iter().filter_map(Term::named).map(|t| TermOut::from(&t)).collect();
        // The value after the move: the mover's search (before it, less the loss) and the
        // opponent's search (after it) each overrate their own side; their mean does not.
        let (wa, sa) = (0.5 * (w0 - winrate_loss + w1), 0.5 * (s0 - loss + s1));
        let (wb, sb) = if color == Color::Black { (wa, sa) } else { (1.0 - wa, -sa) };
        let (w_before, s_before) = if color == Color::Black { (w0, s0) } else { (1.0 - w0, -s0) };
        let pv = before.moves.first().map(|m| m.pv.iter().map(Move::to_string).collect()).unwrap_or_default();
        out.push(MoveReview {
            number: i + 1,
            color: letter(color).into(),
            mv: mv.to_string(),
            terms: terms.iter().map(TermOut::from).collect(),
            judgement,
            eval,
            best: best.to_string(),
            pv,
            winrate_black_before: w_before,
            score_lead_black_before: s_before,
            winrate_black: wb,
            score_lead_black: sb,
            winrate_loss,
            loss_noise,
            provisional: false,
        });
        commentary.play(color, mv).map_err(|e| ReviewError::Replay { number: i + 1, reason: e.to_string() })?;
        if progress(Progress::Judged(out.last().expect("just pushed"))).is_break() {
            return Err(ReviewError::Stopped);
        }
    }
    let mut order: Vec<&MoveReview> =
        out.iter().filter(|m| m.eval.loss >= 1.5 && m.eval.loss >= m.loss_noise).collect();
    order.sort_by(|a, b| b.eval.loss.total_cmp(&a.eval.loss).then(a.number.cmp(&b.number)));
    let mistakes = order.iter().take(10).map(|m| m.number).collect();
    let (w_start, _) = value(&analyses[0]);
    let start_black = if mover(0) == Color::Black { w_start } else { 1.0 - w_start };
    Ok(Review {
        file: file.to_owned(),
        size: game.board().size(),
        komi: game.rules().komi.points(),
        black: info.black.clone().unwrap_or_else(|| "Black".into()),
        white: info.white.clone().unwrap_or_else(|| "White".into()),
        result: info.result.clone().unwrap_or_default(),
        playouts,
        start_winrate_black: start_black,
        moves: out,
        mistakes,
    })
}

/// A one-line graph of `values` (each 0 to 1) in block characters, at most `width` wide.
#[must_use]
pub fn sparkline(values: &[f64], width: usize) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    if values.is_empty() {
        return String::new();
    }
    let n = values.len().min(width.max(1));
    (0..n)
        .map(|k| {
            let (a, b) = (k * values.len() / n, ((k + 1) * values.len() / n).max(k * values.len() / n + 1));
            let v = values[a..b].iter().sum::<f64>() / (b - a) as f64;
            BARS[((v.clamp(0.0, 1.0) * 7.0).round()) as usize]
        })
        .collect()
}

fn names(ts: &[TermOut]) -> String {
    ts.iter().map(|t| t.zh.as_str()).collect::<Vec<_>>().join(" ")
}

/// The text report: the game, the graphs as sparklines, the biggest mistakes and every move.
#[must_use]
pub fn text(r: &Review) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} — {}×{}, komi {}, {} (B) vs {} (W), result {}",
        r.file,
        r.size,
        r.size,
        r.komi,
        r.black,
        r.white,
        if r.result.is_empty() { "?" } else { &r.result }
    );
    let _ = writeln!(s, "{} simulations a position", r.playouts);
    let wins: Vec<f64> = r.moves.iter().map(|m| m.winrate_black).collect();
    let max_lead = r.moves.iter().map(|m| m.score_lead_black.abs()).fold(1.0, f64::max);
    let scores: Vec<f64> = r.moves.iter().map(|m| 0.5 + 0.5 * m.score_lead_black / max_lead).collect();
    let _ = writeln!(s, "win rate (Black) {}", sparkline(&wins, 72));
    let _ = writeln!(s, "lead (Black)     {}  (±{max_lead:.0} points)", sparkline(&scores, 72));
    let _ = writeln!(s, "\nbiggest mistakes:");
    if r.mistakes.is_empty() {
        let _ = writeln!(s, "  none losing 1.5 points or more");
    }
    for &n in &r.mistakes {
        let m = &r.moves[n - 1];
        let _ = writeln!(
            s,
            "  {:>3}. {} {:<4} {:<6} lost {:.1} points, win rate −{:.0}%; best {}  ({})",
            m.number,
            m.color,
            m.mv,
            names(&m.judgement),
            m.eval.loss,
            100.0 * m.winrate_loss,
            m.best,
            names(&m.terms)
        );
    }
    let _ = writeln!(s, "\nmoves:");
    for m in &r.moves {
        let _ = writeln!(
            s,
            "  {:>3}. {} {:<4} {:<28} {:<10} B {:>3.0}% {:>+6.1}",
            m.number,
            m.color,
            m.mv,
            names(&m.terms),
            names(&m.judgement),
            100.0 * m.winrate_black,
            m.score_lead_black
        );
    }
    s
}

/// The annotated record's root comment and move notes (for [`tengen_sgf::write_annotated`]):
/// names and judgements in each move's comment, mistakes marked (BM, DO), good moves (TE).
#[must_use]
pub fn annotations(r: &Review) -> (String, Vec<Note>) {
    let mut comment = format!("tengen review: {} simulations a position.", r.playouts);
    if !r.mistakes.is_empty() {
        let list: Vec<String> = r
            .mistakes
            .iter()
            .map(|&n| format!("{n}. {} ({:.1})", r.moves[n - 1].mv, r.moves[n - 1].eval.loss))
            .collect();
        let _ = write!(comment, "\nBiggest mistakes: {}", list.join(", "));
    }
    let notes = r
        .moves
        .iter()
        .map(|m| {
            let mut c = names(&m.terms);
            let judged: Vec<String> = m.judgement.iter().map(|t| format!("{} ({})", t.zh, t.en)).collect();
            if !judged.is_empty() {
                let _ = write!(c, "\n{}", judged.join(", "));
            }
            let _ = write!(
                c,
                "\nBlack {:.0}%, lead {:+.1}; lost {:.1} points; best {}",
                100.0 * m.winrate_black,
                m.score_lead_black,
                m.eval.loss,
                m.best
            );
            let has = |zh: &str| m.judgement.iter().any(|t| t.zh == zh);
            let mark = if has("大恶手") {
                Some(Mark::VeryBad)
            } else if has("恶手") {
                Some(Mark::Bad)
            } else if has("疑问手") {
                Some(Mark::Doubtful)
            } else if has("鬼手") {
                Some(Mark::VeryGood)
            } else if has("妙手") {
                Some(Mark::Good)
            } else {
                None
            };
            Note { comment: c.trim().to_owned(), mark }
        })
        .collect();
    (comment, notes)
}

/// The graph: Black's win rate (line) and lead (area) by move, mistakes marked (SVG).
#[must_use]
pub fn svg(r: &Review) -> String {
    let (w, h, pad) = (800.0, 300.0, 30.0);
    let n = r.moves.len().max(1) as f64;
    let x = |i: f64| pad + (w - 2.0 * pad) * i / n;
    let y = |v: f64| pad + (h - 2.0 * pad) * (1.0 - v);
    let max_lead = r.moves.iter().map(|m| m.score_lead_black.abs()).fold(1.0, f64::max);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <title>{} — Black's win rate and lead by move</title>\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#faf7f0\"/>\n",
        xml(&r.file)
    );
    for (v, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let _ = writeln!(
            s,
            "<line x1=\"{pad}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#ccc\"/><text x=\"2\" y=\"{2}\">{label}</text>",
            y(v),
            w - pad,
            y(v) + 4.0
        );
    }
    let mut lead = format!("M {} {}", x(0.0), y(0.5));
    for (i, m) in r.moves.iter().enumerate() {
        let _ = write!(lead, " L {:.1} {:.1}", x(i as f64 + 1.0), y(0.5 + 0.5 * m.score_lead_black / max_lead));
    }
    let _ = write!(lead, " L {:.1} {:.1} Z", x(n), y(0.5));
    let _ = writeln!(
        s,
        "<path d=\"{lead}\" fill=\"#9ab\" fill-opacity=\"0.35\" stroke=\"none\"><title>lead (±{max_lead:.0} points)</title></path>"
    );
    let mut line = format!("M {:.1} {:.1}", x(0.0), y(r.start_winrate_black));
    for (i, m) in r.moves.iter().enumerate() {
        let _ = write!(line, " L {:.1} {:.1}", x(i as f64 + 1.0), y(m.winrate_black));
    }
    let _ = writeln!(
        s,
        "<path d=\"{line}\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\"><title>Black's win rate</title></path>"
    );
    for &k in &r.mistakes {
        let m = &r.moves[k - 1];
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"#c33\"><title>{}. {} {} lost {:.1} points</title></circle>",
            x(k as f64),
            y(m.winrate_black),
            m.number,
            m.color,
            m.mv,
            m.eval.loss
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{pad}\" y=\"{}\">move 1</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">move {}</text>",
        h - 8.0,
        w - pad,
        h - 8.0,
        r.moves.len()
    );
    s.push_str("</svg>\n");
    s
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Rules;
    use tengen_engine::SearchParams;

    /// A 7 × 7 game of eight moves; White's last move (G1) is a wasted first-line stone.
    fn game() -> Game {
        let mut game = Game::new(7, Rules::default()).unwrap();
        for v in ["D4", "C5", "E5", "C3", "E3", "D2", "C4", "G1"] {
            game.play(Move::Play(v.parse().unwrap())).unwrap();
        }
        game
    }

    fn searcher() -> Searcher {
        Searcher::Playouts(Box::new(Mcts::new(SearchParams {
            playouts: tengen_engine::Limit::Simulations(400),
            time: None,
            seed: 7,
            ..SearchParams::level(10)
        })))
    }

    #[test]
    fn every_move_is_judged_in_order_after_every_position_is_searched() {
        let game = game();
        let mut events = Vec::new();
        let review = review(&game, &mut searcher(), 400, "seven", &tengen_sgf::GameInfo::default(), &mut |p| {
            events.push(match p {
                Progress::Searched { done, total } => format!("searched {done}/{total}"),
                Progress::Judged(m) => format!("judged {}", m.number),
                // The playout search has no quick pass.
                Progress::Quick(m) => format!("quick {}", m.len()),
            });
            ControlFlow::Continue(())
        })
        .unwrap();
        let searched: Vec<String> = (1..=9).map(|i| format!("searched {i}/9")).collect();
        let judged: Vec<String> = (1..=8).map(|i| format!("judged {i}")).collect();
        assert_eq!(events, [searched, judged].concat());
        assert_eq!(review.moves.len(), 8);
        for m in &review.moves {
            assert_eq!(m.pv.first(), Some(&m.best), "move {}: the line starts with the best move", m.number);
            assert!((0.0..=1.0).contains(&m.winrate_black_before) && (0.0..=1.0).contains(&m.winrate_black));
        }
        // The first-line stone loses points against the best move, and Black's win rate does
        // not fall by it.
        let last = &review.moves[7];
        assert_eq!((last.color.as_str(), last.mv.as_str()), ("W", "G1"));
        assert!(last.eval.loss > 1.0, "G1 lost {:.1} points", last.eval.loss);
        assert!(last.winrate_black >= last.winrate_black_before - 0.05);
        // The report forms take it as it is.
        assert!(text(&review).contains("G1"));
        assert!(svg(&review).starts_with("<svg"));
        assert_eq!(annotations(&review).1.len(), 8);
        // Written with the API's names; a review stored under the old ones reads the same.
        let json = serde_json::to_string(&review).unwrap();
        assert!(json.contains("\"score_lead_black\":") && !json.contains("\"score_black"), "{json}");
        let old = json.replace("\"score_lead_black", "\"score_black");
        let read: Review = serde_json::from_str(&old).unwrap();
        assert_eq!(read.moves[7].score_lead_black, last.score_lead_black);
        assert_eq!(read.moves[7].score_lead_black_before, last.score_lead_black_before);
    }

    fn played(size: usize, moves: &[&str]) -> Game {
        let mut game = Game::new(size, Rules::default()).unwrap();
        for v in moves {
            game.play(if *v == "pass" { Move::Pass } else { Move::Play(v.parse().unwrap()) }).unwrap();
        }
        game
    }

    fn reviewed(game: &Game) -> Review {
        let info = tengen_sgf::GameInfo::default();
        review(game, &mut searcher(), 400, "test", &info, &mut |_| ControlFlow::Continue(())).unwrap()
    }

    /// The names of what a move costs (terms.md §15), none of which a move within the noise gets.
    const LOSS_NAMES: [&str; 6] = ["大恶手", "恶手", "俗手", "随手", "缓手", "疑问手"];

    #[test]
    fn a_pass_on_a_finished_board_loses_nothing() {
        // Two walls on 5 × 5, Black's on B and White's on C: every empty point is someone's, and
        // no area is wide enough to live in.
        let mut moves = Vec::new();
        for row in 1..=5 {
            moves.push(format!("B{row}"));
            moves.push(format!("C{row}"));
        }
        moves.extend(["pass".to_owned(), "pass".to_owned()]);
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let review = reviewed(&played(5, &moves));
        for m in &review.moves[10..] {
            assert_eq!((m.mv.as_str(), m.eval.loss, m.winrate_loss), ("pass", 0.0, 0.0), "move {}", m.number);
            assert!(m.judgement.iter().all(|t| !LOSS_NAMES.contains(&t.zh.as_str())), "move {}", m.number);
        }
        assert!(!review.mistakes.iter().any(|&n| n > 10), "{:?}", review.mistakes);
        // Before the walls close, a pass is judged as any move.
        let open = reviewed(&played(5, &["B1", "C1", "B2", "C2", "pass"]));
        assert!(open.moves[4].eval.loss > 0.0, "{:?}", open.moves[4]);
    }

    #[test]
    fn the_first_moves_loss_is_within_the_noise() {
        // Tengen on an empty 9 × 9 board: the search cannot tell it from its best move.
        let review = reviewed(&played(9, &["E5", "C3", "G7"]));
        let first = &review.moves[0];
        assert!(first.loss_noise > 0.0 || first.eval.loss == 0.0, "a noise measured: {first:?}");
        assert!(first.eval.loss <= first.loss_noise, "E5 lost {:.1} ± {:.1}", first.eval.loss, first.loss_noise);
        assert!(!review.mistakes.contains(&1));
        assert!(first.judgement.iter().all(|t| !LOSS_NAMES.contains(&t.zh.as_str())), "{:?}", first.judgement);
    }

    #[test]
    fn a_review_stops_when_asked_and_refuses_an_empty_game() {
        let mut seen = 0;
        let stopped = review(&game(), &mut searcher(), 400, "seven", &tengen_sgf::GameInfo::default(), &mut |_| {
            seen += 1;
            if seen == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        assert!(matches!(stopped, Err(ReviewError::Stopped)));
        assert_eq!(seen, 3);
        let empty = Game::new(9, Rules::default()).unwrap();
        let none = review(&empty, &mut searcher(), 400, "empty", &tengen_sgf::GameInfo::default(), &mut |_| {
            ControlFlow::Continue(())
        });
        assert!(matches!(none, Err(ReviewError::NoMoves)));
    }
}
