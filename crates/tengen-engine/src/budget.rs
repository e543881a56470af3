//! How long a move may take, and when a search stops within that: at its target time when the
//! choice is clear, later (up to the most the clock allows) while the two most visited moves
//! are close — a critical move —, sooner when the rest of the target could not change the
//! choice.
//!
//! Close means the second has two thirds of the first's visits, or a twentieth of them and a
//! win rate less than two standard errors below the first's (the searches concentrate on one
//! of two equal moves, so visits alone rarely stay close).

use std::time::Duration;

/// The time one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// What the move should take: its share of the clock.
    pub target: Duration,
    /// What it may take when the choice is hard (at least `target`).
    pub max: Duration,
}

impl Budget {
    /// A budget with no room past its target (byo-yomi periods, a fixed think time).
    #[must_use]
    pub fn fixed(time: Duration) -> Budget {
        Budget { target: time, max: time }
    }

    /// A target and a longer maximum (the maximum is raised to the target if below it).
    #[must_use]
    pub fn new(target: Duration, max: Duration) -> Budget {
        Budget { target, max: max.max(target) }
    }

    /// This budget within a fixed limit per move (`--time`), if any.
    #[must_use]
    pub fn capped(self, limit: Option<Duration>) -> Budget {
        match limit {
            Some(l) => Budget { target: self.target.min(l), max: self.max.min(l) },
            None => self,
        }
    }
}

/// The visits and win rate of a root move.
pub(crate) type Leader = (u32, f32);

/// The budget a search goes by: the caller's (within a fixed `limit` per move, if any), else
/// the fixed limit alone, else none.
pub(crate) fn within(budget: Option<Budget>, limit: Option<Duration>) -> Option<Budget> {
    match budget {
        Some(b) => Some(b.capped(limit)),
        None => limit.map(Budget::fixed),
    }
}

/// The two most visited of the root's children, given as (visits, wins) each.
pub(crate) fn leaders(children: impl Iterator<Item = (u32, f64)>) -> (Leader, Leader) {
    let mut top: (Leader, Leader) = ((0, 0.0), (0, 0.0));
    for (visits, wins) in children {
        let leader = (visits, if visits > 0 { (wins / f64::from(visits)) as f32 } else { 0.0 });
        if visits > top.0.0 {
            top = (leader, top.0);
        } else if visits > top.1.0 {
            top.1 = leader;
        }
    }
    top
}

/// Whether the two most visited moves are close (see the module).
pub(crate) fn close(first: Leader, second: Leader) -> bool {
    let (n1, n2) = (f64::from(first.0), f64::from(second.0));
    let w2 = f64::from(second.1);
    // The standard error of a rate smoothed by one win and one loss, so that two moves both
    // winning every simulation so far (quick captures, the mercy rule) stay close rather than
    // looking certain.
    let smoothed = (w2 * n2 + 1.0) / (n2 + 2.0);
    let error = (smoothed * (1.0 - smoothed) / n2.max(1.0)).sqrt();
    n1 < 1.5 * n2 || (n1 <= 20.0 * n2 && f64::from(first.1) - w2 < 2.0 * error)
}

/// Whether the choice between the two most visited moves is unsettled: their visits are
/// close (the second has two thirds of the first's) or the second wins more often — the
/// search is turning to it. Stricter than [`close`], for searches that go on past a limit of
/// simulations ([`PlayoutParams::close_extension`](crate::PlayoutParams::close_extension)).
pub(crate) fn unsettled(first: Leader, second: Leader) -> bool {
    f64::from(first.0) < 1.5 * f64::from(second.0) || second.1 > first.1
}

/// Whether a search with `budget`, `elapsed` into it, stops now. `top` gives the root's two most
/// visited moves (asked only when they matter) and `done` the simulations run so far in this
/// search.
pub(crate) fn time_is_up(budget: Budget, elapsed: Duration, done: u32, top: impl FnOnce() -> (Leader, Leader)) -> bool {
    if elapsed >= budget.max {
        return true;
    }
    if budget.max <= budget.target {
        return elapsed >= budget.target;
    }
    let (first, second) = top();
    let open = close(first, second);
    if elapsed >= budget.target {
        // Past the target: only while the choice is open.
        return !open;
    }
    // Before it: a clear choice stops when the simulations the rest of the target would run
    // cannot make the second move the first (a quarter of the target spent at least, so that
    // the rate is known).
    if open || elapsed < budget.target / 4 || elapsed.is_zero() {
        return false;
    }
    let rate = f64::from(done) / elapsed.as_secs_f64();
    out_of_reach(first, second, rate * (budget.target - elapsed).as_secs_f64())
}

/// Whether `left` more simulations, every one of them given to the second most visited move,
/// could not make it the first: the choice is made (a search's time, or its count with
/// [`SearchParams::stop_early`](crate::SearchParams::stop_early)).
pub(crate) fn out_of_reach(first: Leader, second: Leader, left: f64) -> bool {
    f64::from(first.0.saturating_sub(second.0)) > left
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_fixed_budget_stops_at_its_time() {
        let b = Budget::fixed(ms(1000));
        let never = || -> (Leader, Leader) { panic!("a fixed budget does not look at the moves") };
        assert!(!time_is_up(b, ms(999), 10_000, never));
        assert!(time_is_up(b, ms(1000), 10_000, never));
    }

    #[test]
    fn a_close_choice_goes_on_past_the_target_up_to_the_maximum() {
        let b = Budget::new(ms(1000), ms(3000));
        // At the target: 1,000 against 900 visits is close — go on; 2,000 against 900 is not,
        // unless the second wins about as often (two standard errors of 900 visits at 0.59:
        // 0.033); 2,000 against 90 never is.
        assert!(!time_is_up(b, ms(1000), 5_000, || ((1_000, 0.6), (900, 0.5))));
        assert!(time_is_up(b, ms(1000), 5_000, || ((2_000, 0.6), (900, 0.5))));
        assert!(!time_is_up(b, ms(1000), 5_000, || ((2_000, 0.6), (900, 0.59))));
        assert!(time_is_up(b, ms(1000), 5_000, || ((2_000, 0.6), (900, 0.56))));
        assert!(time_is_up(b, ms(1000), 5_000, || ((2_000, 0.6), (90, 0.7))));
        // At the maximum, close or not.
        assert!(time_is_up(b, ms(3000), 5_000, || ((1_000, 0.6), (900, 0.6))));
        // Two moves that have won every simulation are close, however few.
        assert!(!time_is_up(b, ms(1000), 64, || ((16, 1.0), (9, 1.0))));
        assert!(time_is_up(b, ms(1000), 64, || ((16, 1.0), (9, 0.2))));
    }

    #[test]
    fn unsettled_is_stricter_than_close() {
        // Close visits are both; a second far behind in visits but winning more often is
        // unsettled; one within two standard errors but winning less is only close.
        assert!(unsettled((1_000, 0.6), (700, 0.5)) && close((1_000, 0.6), (700, 0.5)));
        assert!(unsettled((2_000, 0.6), (300, 0.62)));
        assert!(!unsettled((2_000, 0.6), (900, 0.59)) && close((2_000, 0.6), (900, 0.59)));
        assert!(!unsettled((2_000, 0.6), (90, 0.5)));
    }

    #[test]
    fn a_settled_choice_stops_before_the_target() {
        let b = Budget::new(ms(1000), ms(3000));
        // Half-way at 10,000 simulations a second: 5,000 more to come; a lead of 6,000 visits
        // cannot be caught, one of 4,000 can.
        assert!(time_is_up(b, ms(500), 5_000, || ((6_500, 0.6), (500, 0.5))));
        assert!(!time_is_up(b, ms(500), 5_000, || ((4_500, 0.6), (500, 0.5))));
        // A close choice never stops early.
        assert!(!time_is_up(b, ms(500), 5_000, || ((6_500, 0.6), (700, 0.6))));
        // Too early to know the rate.
        assert!(!time_is_up(b, ms(100), 1_000, || ((1_000, 0.6), (0, 0.0))));
    }

    #[test]
    fn the_budget_searched_by_and_the_leaders() {
        assert_eq!(within(None, None), None);
        assert_eq!(within(None, Some(ms(5))), Some(Budget::fixed(ms(5))));
        assert_eq!(within(Some(Budget::new(ms(10), ms(30))), Some(ms(20))), Some(Budget::new(ms(10), ms(20))));
        let top = leaders([(5, 1.0), (40, 30.0), (0, 0.0), (20, 5.0)].into_iter());
        assert_eq!(top, ((40, 0.75), (20, 0.25)));
    }

    #[test]
    fn budgets_are_capped_and_never_end_before_their_target() {
        let b = Budget::new(ms(1000), ms(500));
        assert_eq!(b.max, ms(1000));
        let c = Budget::new(ms(1000), ms(3000)).capped(Some(ms(2000)));
        assert_eq!((c.target, c.max), (ms(1000), ms(2000)));
        assert_eq!(Budget::fixed(ms(7)).capped(None), Budget::fixed(ms(7)));
    }
}
