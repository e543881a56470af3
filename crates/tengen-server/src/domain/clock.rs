//! One player's clock under each time control.

use serde::Serialize;

use super::TimeControl;

/// One player's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Clock {
    /// Main time left, in milliseconds.
    pub main_ms: i64,
    /// Byo-yomi: periods left (the last one is `periods == 1`). Canadian: 1 while in overtime.
    pub periods: u32,
    /// Time left in the current period (byo-yomi, Canadian), in milliseconds.
    pub period_ms: i64,
    /// Canadian: moves still to play in this period.
    pub stones: u32,
    /// In overtime (byo-yomi or Canadian periods).
    pub overtime: bool,
}

impl Clock {
    pub(super) fn start(time: &TimeControl) -> Clock {
        let ms = |s: f64| (s * 1000.0).round() as i64;
        match *time {
            TimeControl::None {} => Clock::default(),
            TimeControl::Correspondence { .. } => {
                Clock { main_ms: time.correspondence().map_or(0, |(days, _)| days), ..Clock::default() }
            }
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => {
                Clock { main_ms: ms(main), ..Clock::default() }
            }
            TimeControl::Byoyomi { main, period, periods } => {
                Clock { main_ms: ms(main), periods, period_ms: ms(period), stones: 0, overtime: main <= 0.0 }
            }
            TimeControl::Canadian { main, period, stones } => {
                Clock { main_ms: ms(main), periods: 1, period_ms: ms(period), stones, overtime: main <= 0.0 }
            }
        }
    }

    /// The time this clock can still run before its flag falls, in milliseconds.
    pub fn remaining_ms(&self, time: &TimeControl) -> Option<i64> {
        match time {
            TimeControl::None {} => None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } | TimeControl::Correspondence { .. } => {
                Some(self.main_ms)
            }
            TimeControl::Byoyomi { period, .. } => {
                let later = i64::from(self.periods.saturating_sub(1)) * (period * 1000.0).round() as i64;
                Some(if self.overtime { self.period_ms + later } else { self.main_ms + self.period_ms + later })
            }
            TimeControl::Canadian { .. } => {
                Some(if self.overtime { self.period_ms } else { self.main_ms + self.period_ms })
            }
        }
    }

    /// Spends main time first: `None` while it lasts, else what is left of `elapsed` for the
    /// overtime periods (entered from then on).
    fn spend_main(&mut self, elapsed: i64) -> Option<i64> {
        if self.overtime {
            return Some(elapsed);
        }
        if elapsed <= self.main_ms {
            self.main_ms -= elapsed;
            return None;
        }
        let rest = elapsed - self.main_ms;
        self.main_ms = 0;
        self.overtime = true;
        Some(rest)
    }

    /// Runs the clock for `elapsed` ms; `false` when its flag fell, and the clock then reads
    /// nothing left (no main time, no period, no time in it).
    pub(super) fn run(&mut self, time: &TimeControl, elapsed: i64) -> bool {
        let running = self.run_down(time, elapsed);
        if !running {
            *self = Clock { overtime: self.overtime, stones: self.stones, ..Clock::default() };
        }
        running
    }

    /// [`Clock::run`] before a fallen flag is read as nothing left.
    fn run_down(&mut self, time: &TimeControl, elapsed: i64) -> bool {
        let ms = |s: f64| (s * 1000.0).round() as i64;
        match *time {
            TimeControl::None {} => true,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } | TimeControl::Correspondence { .. } => {
                self.main_ms -= elapsed;
                self.main_ms >= 0
            }
            TimeControl::Byoyomi { period, .. } => {
                let Some(mut elapsed) = self.spend_main(elapsed) else { return true };
                // Each period used up is lost; the move made within a period resets it.
                while elapsed > self.period_ms {
                    elapsed -= self.period_ms;
                    self.periods = self.periods.saturating_sub(1);
                    if self.periods == 0 {
                        return false;
                    }
                    self.period_ms = ms(period);
                }
                self.period_ms -= elapsed;
                true
            }
            TimeControl::Canadian { .. } => {
                let Some(elapsed) = self.spend_main(elapsed) else { return true };
                self.period_ms -= elapsed;
                self.period_ms >= 0
            }
        }
    }

    /// A move was made (after `run`): byo-yomi resets the period, Canadian counts the stone,
    /// Fischer adds the increment.
    pub(super) fn moved(&mut self, time: &TimeControl) {
        let ms = |s: f64| (s * 1000.0).round() as i64;
        match *time {
            TimeControl::Byoyomi { period, .. } if self.overtime => self.period_ms = ms(period),
            TimeControl::Canadian { period, stones, .. } if self.overtime => {
                self.stones = self.stones.saturating_sub(1);
                if self.stones == 0 {
                    self.stones = stones;
                    self.period_ms = ms(period);
                }
            }
            TimeControl::Fischer { increment, .. } => self.main_ms += ms(increment),
            TimeControl::Correspondence { .. } => {
                if let Some((days, bank)) = time.correspondence() {
                    self.main_ms = (self.main_ms + days).min(bank);
                }
            }
            _ => {}
        }
    }
}
