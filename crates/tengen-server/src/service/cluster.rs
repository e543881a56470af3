//! The servers of one database: clocks kept, changes other servers commit relayed, games
//! resumed after a restart, and the heartbeat that says this server is alive.

use std::time::Duration;

use super::{AppState, DOWN_AFTER_MS};
use crate::domain::Action;
use crate::error::ApiError;
use crate::guard::Client;
use crate::util::{lock, now_ms};

impl AppState {
    /// Ends the games whose clock has run out (called every fraction of a second): those this
    /// server has seen change.
    pub async fn check_clocks(&self) {
        let now = now_ms();
        let due: Vec<String> =
            lock(&self.0.deadlines).iter().filter(|&(_, &d)| d <= now).map(|(id, _)| id.clone()).collect();
        for id in due {
            lock(&self.0.deadlines).remove(&id);
            // Boxed: the action's future is large, and this runs inside others.
            Box::pin(self.end_if_fallen(&id)).await;
        }
    }

    /// Ends the games whose deadline in the database has passed, whichever server saw them
    /// last (a correspondence game nobody opened since a restart, a game of a server that
    /// died): on the clock keeper only, the first server by name of those alive (every
    /// second). The log's key makes a second end of one game fail: it ends once.
    pub async fn sweep_deadlines(&self) {
        let now = now_ms();
        let result = async {
            let keeper = self.0.store.clock_keeper(now - DOWN_AFTER_MS).await?;
            if keeper.is_some_and(|k| k != self.0.store.instance()) {
                return Ok(Vec::new());
            }
            self.0.store.due_games(now).await
        }
        .await;
        match result {
            Ok(due) => {
                for id in due {
                    Box::pin(self.end_if_fallen(&id)).await;
                }
            }
            Err(e) => tracing::warn!("deadlines: {e}"),
        }
    }

    /// Ends game `id` on time if its running clock's flag has fallen, or settles its count
    /// past the counting phase's deadline; else notes its deadline.
    async fn end_if_fallen(&self, id: &str) {
        let result = async {
            let (_, state) = self.load(id).await?;
            if state.counting_deadline_ms().is_some_and(|d| d <= now_ms()) {
                return Box::pin(self.act(id, None, Action::Settle, |_, _| Ok(()))).await.map(Some);
            }
            let (_, fallen) = state.clocks_at(now_ms());
            match fallen {
                Some(c) => Box::pin(self.act(id, Some(c), Action::Timeout, |_, _| Ok(()))).await.map(Some),
                None => {
                    // Not yet (a move came meanwhile): note the new deadline.
                    self.changed(id, &state, Client::SERVER);
                    Ok(None)
                }
            }
        }
        .await;
        if let Err(e) = result {
            tracing::warn!("game {id}: clock check failed: {}", e.detail);
        }
    }

    /// With PostgreSQL: listens for the changes other servers commit on the same database and
    /// tells this server's watchers; returns once listening (a lost connection is opened
    /// again). Nothing to do with SQLite.
    ///
    /// # Errors
    /// The first connection fails.
    pub async fn listen_for_other_servers(&self) -> Result<(), sqlx::Error> {
        if self.0.store.backend() != crate::store::Backend::Postgres {
            return Ok(());
        }
        let mut listener = self.listener().await?;
        let app = self.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = app.relay(&mut listener).await {
                    tracing::warn!("listening for other servers' changes: {e}");
                }
                loop {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    match app.listener().await {
                        Ok(l) => {
                            listener = l;
                            break;
                        }
                        Err(e) => tracing::warn!("listening for other servers' changes: {e}"),
                    }
                }
            }
        });
        Ok(())
    }

    async fn listener(&self) -> Result<sqlx::postgres::PgListener, sqlx::Error> {
        let mut listener = sqlx::postgres::PgListener::connect(self.0.store.url()).await?;
        listener
            .listen_all([
                crate::store::CHANNEL,
                crate::store::REVIEW_CHANNEL,
                crate::store::LOBBY_CHANNEL,
                crate::store::CHAT_CHANNEL,
            ])
            .await?;
        Ok(listener)
    }

    async fn relay(&self, listener: &mut sqlx::postgres::PgListener) -> Result<(), sqlx::Error> {
        loop {
            let note = listener.recv().await?;
            let Some((instance, id)) = note.payload().split_once(' ') else { continue };
            if instance == self.0.store.instance() {
                continue;
            }
            if note.channel() == crate::store::REVIEW_CHANNEL {
                self.review_changed(id).await;
                continue;
            }
            if note.channel() == crate::store::CHAT_CHANNEL {
                if let Some((game, seq)) = id.split_once(' ')
                    && let Ok(seq) = seq.parse()
                {
                    self.chat_changed(game, seq).await;
                }
                continue;
            }
            if note.channel() == crate::store::LOBBY_CHANNEL {
                match id.strip_prefix(crate::store::BLOCKS_NOTE).and_then(|ab| ab.split_once(':')) {
                    Some((a, b)) => self.blocks_changed(a, b),
                    None => {
                        self.challenge_changed(id).await;
                    }
                }
                continue;
            }
            match self.load(id).await {
                Ok((_, state)) => {
                    self.tell_watchers(id, &state);
                }
                Err(e) => tracing::warn!("game {id} changed elsewhere but does not load: {}", e.detail),
            }
        }
    }

    /// After a restart: clocks and the server's pending moves for every unfinished game.
    ///
    /// # Errors
    /// A database failure.
    ///
    /// When no server was alive on this database for more than [`DOWN_AFTER_MS`], the
    /// running clocks are not charged for the downtime: each such game gets a
    /// [`Action::Restart`] event that charges its clock up to the last sign of life only.
    pub async fn resume_all(&self) -> Result<usize, ApiError> {
        let now = now_ms();
        let down_since = self.0.store.last_seen().await?.filter(|&seen| now - seen > DOWN_AFTER_MS);
        self.0.store.heartbeat(now).await?;
        let ids = self.0.store.unfinished().await?;
        for id in &ids {
            let state = match self.load(id).await {
                Ok((_, state)) => state,
                Err(e) => {
                    tracing::error!("game {id} does not load: {}", e.detail);
                    continue;
                }
            };
            let state = match down_since {
                Some(down_since_ms) if state.clock_runs().is_some() => {
                    match self.act(id, None, Action::Restart { down_since_ms }, |_, _| Ok(())).await {
                        Ok(state) => state,
                        // The flag fell before the downtime: the clock check ends the game.
                        Err(_) => state,
                    }
                }
                _ => state,
            };
            self.changed(id, &state, Client::SERVER);
        }
        Ok(ids.len())
    }

    /// Notes that this server is alive (every second while it serves).
    ///
    /// # Errors
    /// A database failure.
    pub async fn heartbeat(&self) -> Result<(), ApiError> {
        Ok(self.0.store.heartbeat(now_ms()).await?)
    }
}
