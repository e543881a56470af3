//! The lines read from the input, waiting to be answered, and a flag that says whether any are.
//!
//! A streaming analysis runs until a line arrives; the search polls [`Inbox::waiting`], an
//! atomic flag, between simulations. The flag is changed only under the lock that guards the
//! queue, so it is exactly "a line (or the end of the input) is waiting" whenever the lock is
//! free: a line already taken can never set it late. (A channel with a flag set after the send
//! could: the reader, delayed between its send and its store, stopped the analysis that the
//! line it had just sent had started.)

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// What the reading thread delivers: a line's bytes, or the error that ended the input.
pub(crate) type Line = io::Result<Vec<u8>>;

/// A bounded queue of input lines shared by the reading thread and the session.
pub(crate) struct Inbox {
    state: Mutex<State>,
    changed: Condvar,
    waiting: AtomicBool,
    capacity: usize,
}

struct State {
    lines: VecDeque<Line>,
    closed: bool,
}

impl Inbox {
    /// An empty inbox holding at most `capacity` lines (the reader waits when it is full: a
    /// flood of input waits in the pipe, not in memory).
    pub(crate) fn new(capacity: usize) -> Inbox {
        Inbox {
            state: Mutex::new(State { lines: VecDeque::new(), closed: false }),
            changed: Condvar::new(),
            waiting: AtomicBool::new(false),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Set while a line or the end of the input waits to be taken.
    pub(crate) fn waiting(&self) -> &AtomicBool {
        &self.waiting
    }

    /// Adds a line, waiting while the inbox is full.
    pub(crate) fn push(&self, line: Line) {
        let mut state = self.lock();
        while state.lines.len() >= self.capacity {
            state = self.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.lines.push_back(line);
        self.waiting.store(true, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// The input is over: no more lines will come.
    pub(crate) fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        self.waiting.store(true, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// The next line, waiting for one; `None` once the input is over and every line taken.
    pub(crate) fn take(&self) -> Option<Line> {
        let mut state = self.lock();
        while state.lines.is_empty() && !state.closed {
            state = self.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        let line = state.lines.pop_front();
        self.waiting.store(!state.lines.is_empty() || state.closed, Ordering::SeqCst);
        self.changed.notify_all();
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn line(text: &str) -> Line {
        Ok(text.as_bytes().to_vec())
    }

    fn waiting(inbox: &Inbox) -> bool {
        inbox.waiting().load(Ordering::SeqCst)
    }

    #[test]
    fn the_flag_says_whether_a_line_waits() {
        let inbox = Inbox::new(4);
        assert!(!waiting(&inbox));
        inbox.push(line("1 name"));
        assert!(waiting(&inbox));
        inbox.push(line("2 version"));
        assert_eq!(inbox.take().unwrap().unwrap(), b"1 name");
        assert!(waiting(&inbox), "the second line still waits");
        assert_eq!(inbox.take().unwrap().unwrap(), b"2 version");
        assert!(!waiting(&inbox), "the line taken does not count");
        inbox.close();
        assert!(waiting(&inbox), "the end of the input ends an analysis too");
        assert!(inbox.take().is_none());
        assert!(inbox.take().is_none(), "and stays over");
    }

    #[test]
    fn lines_left_are_taken_before_the_end() {
        let inbox = Inbox::new(4);
        inbox.push(line("a"));
        inbox.push(Err(io::Error::other("broken")));
        inbox.close();
        assert_eq!(inbox.take().unwrap().unwrap(), b"a");
        assert!(inbox.take().unwrap().is_err());
        assert!(inbox.take().is_none());
    }

    /// Across threads, in every interleaving the run produces: right after a line is taken the
    /// flag is set only if the reader has pushed another one since.
    #[test]
    fn a_taken_line_never_sets_the_flag_late() {
        let inbox = Arc::new(Inbox::new(2));
        let reader = {
            let inbox = Arc::clone(&inbox);
            std::thread::spawn(move || {
                for i in 0..20_000u32 {
                    inbox.push(Ok(i.to_le_bytes().to_vec()));
                }
                inbox.close();
            })
        };
        let mut taken = 0u32;
        while let Some(next) = inbox.take() {
            let bytes = next.unwrap();
            assert_eq!(bytes, taken.to_le_bytes(), "lines in order, none lost");
            taken += 1;
            let flag = waiting(&inbox);
            let state = inbox.lock();
            // Nothing is taken but by this thread, so a set flag means a line (or the end) is
            // there now; a clear one may since have been set by a new push, never by an old one.
            if flag {
                assert!(!state.lines.is_empty() || state.closed, "set by a line already taken");
            }
        }
        assert_eq!(taken, 20_000);
        reader.join().unwrap();
    }

    #[test]
    fn a_full_inbox_holds_the_reader_back() {
        let inbox = Arc::new(Inbox::new(1));
        inbox.push(line("first"));
        let reader = {
            let inbox = Arc::clone(&inbox);
            std::thread::spawn(move || inbox.push(line("second")))
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(inbox.lock().lines.len(), 1, "the second push waits for room");
        assert_eq!(inbox.take().unwrap().unwrap(), b"first");
        reader.join().unwrap();
        assert_eq!(inbox.take().unwrap().unwrap(), b"second");
    }
}
