//! The computer's work, served fairly by the time it takes: each client's jobs (the computer's
//! moves and proposals of dead stones in its games) wait in their own queue, oldest first, and
//! the next search goes to the waiting client that has had the least of the computer's time
//! (each job's time charged to its client when it ends; a client that comes back starts level
//! with those waiting, not with a credit). A client whose games cost the computer seconds a
//! move (the network's levels on 19×19) cannot hold up one whose moves cost milliseconds for
//! more than the searches already running; nor can it queue more than its share
//! ([`Limits::computer_moves`](crate::guard::Limits)).

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

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

/// The waiting jobs by client, and the time each client has had.
#[derive(Default)]
pub struct Queue {
    waiting: HashMap<Client, VecDeque<Job>>,
    /// The computer's time each client has had (seconds), as fair queueing counts it.
    used: HashMap<Client, f64>,
    /// Clients in the order they began waiting (ties go to the earliest).
    order: VecDeque<Client>,
    /// Jobs running, by client.
    running: HashMap<Client, usize>,
    /// The time of the last client served: a client that starts waiting again starts here.
    level: f64,
}

impl Queue {
    /// Adds a job at the back of its client's queue.
    pub fn push(&mut self, job: Job) {
        let client = job.client;
        let queue = self.waiting.entry(client).or_default();
        if queue.is_empty() {
            self.order.push_back(client);
            // No credit for time away: at least where the others are now.
            let used = self.used.entry(client).or_insert(self.level);
            *used = used.max(self.level);
        }
        queue.push_back(job);
    }

    /// The next job: the oldest of the waiting client that has had the least time, counted
    /// as running until [`Queue::done`].
    pub fn pop(&mut self) -> Option<Job> {
        let (at, &client) = self.order.iter().enumerate().min_by(|(i, a), (j, b)| {
            let (ua, ub) = (self.used.get(*a).copied().unwrap_or(0.0), self.used.get(*b).copied().unwrap_or(0.0));
            ua.total_cmp(&ub).then(i.cmp(j))
        })?;
        let queue = self.waiting.get_mut(&client)?;
        let job = queue.pop_front()?;
        self.order.remove(at);
        if queue.is_empty() {
            self.waiting.remove(&client);
        } else {
            self.order.push_back(client);
        }
        self.level = self.level.max(self.used.get(&client).copied().unwrap_or(0.0));
        *self.running.entry(client).or_default() += 1;
        Some(job)
    }

    /// A job popped earlier has finished after `took`, charged to its client.
    pub fn done(&mut self, client: Client, took: Duration) {
        *self.used.entry(client).or_insert(self.level) += took.as_secs_f64();
        if let Some(n) = self.running.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.running.remove(&client);
            }
        }
        // Clients neither waiting nor running are forgotten once all are level with them.
        let (waiting, running) = (&self.waiting, &self.running);
        let level = self.level;
        self.used.retain(|c, used| waiting.contains_key(c) || running.contains_key(c) || *used > level);
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

    fn client(n: u8) -> Client {
        Client(IpAddr::V4(Ipv4Addr::new(10, 0, 0, n)))
    }

    fn job(id: &str, n: u8) -> Job {
        Job { id: id.into(), events: 0, client: client(n) }
    }

    #[test]
    fn clients_take_turns_and_each_queue_is_oldest_first() {
        let mut q = Queue::default();
        for i in 0..20 {
            q.push(job(&format!("flood{i}"), 1));
        }
        q.push(job("real", 2));
        q.push(job("real-2", 2));
        // Jobs of equal cost: the clients in turn.
        let mut order = Vec::new();
        for _ in 0..5 {
            let j = q.pop().unwrap();
            order.push(j.id.clone());
            q.done(j.client, Duration::from_millis(100));
        }
        assert_eq!(order, ["flood0", "real", "flood1", "real-2", "flood2"]);
        assert_eq!(q.held_by(client(1)), 17);
        assert_eq!((q.waiting(), q.running()), (17, 0));
    }

    #[test]
    fn a_client_of_cheap_moves_is_not_held_up_by_expensive_ones() {
        let mut q = Queue::default();
        // Ten clients of five-second moves, each served once already.
        for n in 1..=10 {
            for i in 0..4 {
                q.push(job(&format!("heavy{n}-{i}"), n));
            }
        }
        for _ in 0..10 {
            let j = q.pop().unwrap();
            q.done(j.client, Duration::from_secs(5));
        }
        // A player of level 1 arrives: served next, and again after each 10 ms move.
        for i in 0..3 {
            q.push(job(&format!("light{i}"), 99));
            let j = q.pop().unwrap();
            assert_eq!(j.id, format!("light{i}"));
            q.done(j.client, Duration::from_millis(10));
        }
        // One that comes back after a long time away starts level with the least served (no
        // credit): served within the round of the ten.
        q.push(job("back", 50));
        q.push(job("back-2", 50));
        let mut before = 0;
        let next = loop {
            let j = q.pop().unwrap();
            if j.client == client(50) {
                break j;
            }
            before += 1;
            q.done(j.client, Duration::from_secs(5));
        };
        assert!(before <= 10, "{before} served before it");
        q.done(next.client, Duration::from_secs(60));
        // A minute of the computer: the others go first until they have had as much.
        let after: Vec<String> = (0..9).map(|_| q.pop().unwrap().id).collect();
        assert!(after.iter().all(|id| id.starts_with("heavy")), "{after:?}");
    }
}
