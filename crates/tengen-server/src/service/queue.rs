//! The computer's work, served fairly: each client's jobs (the computer's moves and proposals
//! of dead stones in its games) wait in their own queue, oldest first, and the searches go to
//! the clients in turn. A client that opens twenty games delays another client's game by one
//! search at most, not twenty; and it cannot queue more than its share
//! ([`Limits::computer_moves`](crate::guard::Limits)).

use std::collections::{HashMap, VecDeque};

use crate::guard::Client;

/// One piece of the computer's work: game `id` as it was after `events` events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The game.
    pub id: String,
    /// Its events when the work was asked for (stale work is dropped when it runs).
    pub events: usize,
    /// Whose action asked for it.
    pub client: Client,
}

/// The waiting jobs by client, and the clients in turn.
#[derive(Default)]
pub struct Queue {
    waiting: HashMap<Client, VecDeque<Job>>,
    /// Clients with waiting jobs, next first.
    turn: VecDeque<Client>,
    /// Jobs running, by client.
    running: HashMap<Client, usize>,
}

impl Queue {
    /// Adds a job at the back of its client's queue.
    pub fn push(&mut self, job: Job) {
        let client = job.client;
        let queue = self.waiting.entry(client).or_default();
        if queue.is_empty() {
            self.turn.push_back(client);
        }
        queue.push_back(job);
    }

    /// The next job: the oldest of the client whose turn it is (who then goes to the back),
    /// counted as running until [`Queue::done`].
    pub fn pop(&mut self) -> Option<Job> {
        let client = self.turn.pop_front()?;
        let queue = self.waiting.get_mut(&client)?;
        let job = queue.pop_front()?;
        if queue.is_empty() {
            self.waiting.remove(&client);
        } else {
            self.turn.push_back(client);
        }
        *self.running.entry(client).or_default() += 1;
        Some(job)
    }

    /// A job popped earlier has finished.
    pub fn done(&mut self, client: Client) {
        if let Some(n) = self.running.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.running.remove(&client);
            }
        }
    }

    /// The client's jobs waiting or running.
    #[must_use]
    pub fn held_by(&self, client: Client) -> usize {
        self.waiting.get(&client).map_or(0, VecDeque::len) + self.running.get(&client).copied().unwrap_or(0)
    }

    /// Jobs waiting, over all clients.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.waiting.values().map(VecDeque::len).sum()
    }

    /// Jobs running.
    #[must_use]
    pub fn running(&self) -> usize {
        self.running.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{IpAddr, Ipv4Addr};

    fn job(id: &str, client: u8) -> Job {
        Job { id: id.into(), events: 0, client: Client(IpAddr::V4(Ipv4Addr::new(10, 0, 0, client))) }
    }

    #[test]
    fn clients_take_turns_and_each_queue_is_oldest_first() {
        let mut q = Queue::default();
        for i in 0..20 {
            q.push(job(&format!("flood{i}"), 1));
        }
        q.push(job("real", 2));
        q.push(job("real-2", 2));
        let order: Vec<String> = std::iter::from_fn(|| q.pop()).map(|j| j.id).take(5).collect();
        assert_eq!(order, ["flood0", "real", "flood1", "real-2", "flood2"]);
        assert_eq!(q.held_by(job("", 1).client), 20, "17 waiting and 3 running");
        q.done(job("", 1).client);
        assert_eq!(q.held_by(job("", 1).client), 19);
        assert_eq!((q.waiting(), q.running()), (17, 4));
    }
}
