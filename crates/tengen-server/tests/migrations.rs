//! A database of the version before the one job queue (migration 6: `computer_jobs`, and the
//! leases in `reviews`) keeps its work when it is opened by this version: the computer's jobs
//! and the reviews queued, running or finished are in `jobs`, and are claimed from there.

use sqlx::Row;
use tengen_server::Store;
use tengen_server::store::JobKind;

/// Brings the SQLite database at `url` up to migration `last`, as an older server did.
async fn migrate_to(url: &str, last: i64) {
    let pool = sqlx::sqlite::SqlitePoolOptions::new().connect(url).await.unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    let mut migrator = sqlx::migrate::Migrator::new(dir).await.unwrap();
    let older: Vec<_> = migrator.migrations.iter().filter(|m| m.version <= last).cloned().collect();
    assert_eq!(older.len() as i64, last, "the migrations 1 to {last}");
    migrator.migrations = older.into();
    migrator.run(&pool).await.unwrap();
    for (id, phase) in [("moving", "playing"), ("queued", "ended"), ("running", "ended"), ("done", "ended")] {
        sqlx::query(
            "INSERT INTO games (id, created_ms, updated_ms, config, events, moves, phase) VALUES ($1, 1, 1, '{}', 3, 2, $2)",
        )
        .bind(id)
        .bind(phase)
        .execute(&pool)
        .await
        .unwrap();
    }
    sqlx::query(
        "INSERT INTO computer_jobs (game_id, events, client, queued_ms, lease_owner, lease_until_ms) \
         VALUES ('moving', 3, '10.0.0.1', 100, NULL, 0)",
    )
    .execute(&pool)
    .await
    .unwrap();
    for (id, state, lease_until, result) in [
        ("queued", "queued", None, None),
        ("running", "running", Some(5_000), None),
        ("done", "done", None, Some("{}")),
    ] {
        sqlx::query(
            "INSERT INTO reviews (game_id, state, engine, strength, client, requested_ms, updated_ms, progress, \
             lease_owner, lease_until_ms, attempts, result) VALUES ($1, $2, 'playouts', 100, '10.0.0.2', 200, 300, 0, \
             CASE WHEN $3 IS NULL THEN NULL ELSE 'old-worker' END, $3, CASE WHEN $2 = 'queued' THEN 0 ELSE 1 END, $4)",
        )
        .bind(id)
        .bind(state)
        .bind(lease_until)
        .bind(result)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
}

/// The `name` column of every row `query` gives.
async fn names(pool: &sqlx::SqlitePool, query: &'static str) -> Vec<String> {
    sqlx::query(query).fetch_all(pool).await.unwrap().iter().map(|r| r.get("name")).collect()
}

#[tokio::test]
async fn the_work_of_an_older_database_passes_to_the_one_queue() {
    let dir = std::env::temp_dir().join(format!("tengen-migrations-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("games.db").display());
    migrate_to(&url, 6).await;

    let store = Store::open(&url).await.unwrap();
    // The computer's job waits, as the client's.
    assert_eq!(store.job_counts(JobKind::Move, 1_000).await.unwrap(), (1, 0));
    assert_eq!(store.jobs_of(JobKind::Move, "10.0.0.1", "").await.unwrap(), 1);
    let (job, _) = store.claim_job(JobKind::Move, "w", 1_000, 16_000, "", None).await.unwrap();
    let job = job.unwrap();
    assert_eq!((job.game_id.as_str(), job.events, job.client.as_str()), ("moving", 3, "10.0.0.1"));

    // The running review is held until its lease runs out; the queued one is claimed first.
    let running = store.review("running").await.unwrap().unwrap();
    assert_eq!(
        (running.state.as_str(), running.lease_owner.as_deref(), running.lease_until_ms, running.attempts),
        ("running", Some("old-worker"), Some(5_000), 1)
    );
    let first = store.claim_review("w", 1_000, 16_000, "").await.unwrap().unwrap();
    assert_eq!((first.game_id.as_str(), first.state.as_str(), first.attempts), ("queued", "running", 1));
    assert!(store.claim_review("w", 1_000, 16_000, "").await.unwrap().is_none(), "the old worker's lease holds");
    let second = store.claim_review("w", 6_000, 21_000, "").await.unwrap().unwrap();
    assert_eq!((second.game_id.as_str(), second.attempts), ("running", 2));
    // The finished review is kept as it was.
    let done = store.review("done").await.unwrap().unwrap();
    assert_eq!((done.state.as_str(), done.result.as_deref()), ("done", Some("{}")));

    // The old tables' lease columns are gone; `computer_jobs` too.
    let pool = sqlx::sqlite::SqlitePoolOptions::new().connect(&url).await.unwrap();
    let tables = names(&pool, "SELECT name FROM sqlite_master WHERE type = 'table'").await;
    assert!(tables.contains(&"jobs".to_owned()) && !tables.contains(&"computer_jobs".to_owned()), "{tables:?}");
    let columns = names(&pool, "PRAGMA table_info(reviews)").await;
    assert!(!columns.contains(&"lease_owner".to_owned()), "{columns:?}");
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
