//! What the binary's tests share: a `tengen serve` child on a port of its own; a fresh
//! PostgreSQL database on the server `TENGEN_TEST_POSTGRES` names.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Starts `tengen serve --addr 127.0.0.1:0 --db sqlite://games.db ARGS` in `dir`, its log to
/// `log`; the child and the address (`127.0.0.1:PORT`) it prints.
pub fn serve(dir: &Path, args: &[&str], log: impl Into<Stdio>) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", "sqlite://games.db"])
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|s| s.split('/').next()).unwrap_or_else(|| panic!("{line}"));
    (child, addr.to_owned())
}

/// Runs `sql` on the server `TENGEN_TEST_POSTGRES` names.
pub fn admin(sql: String) {
    use sqlx::Connection;
    let base = std::env::var("TENGEN_TEST_POSTGRES").expect(
        "TENGEN_TEST_POSTGRES is not set: run scripts/test (it starts PostgreSQL), or set it to \
         postgres://USER:PASSWORD@HOST/DATABASE of a role that may create databases",
    );
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut admin = sqlx::PgConnection::connect(&base).await.expect("TENGEN_TEST_POSTGRES does not connect");
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut admin).await.unwrap();
    });
}

/// A fresh database beside `TENGEN_TEST_POSTGRES`'s, named after `test`: its address and its
/// name.
pub fn database(test: &str) -> (String, String) {
    let name = format!("tengen_w_{test}_{}", std::process::id());
    admin(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    admin(format!("CREATE DATABASE {name}"));
    let base = std::env::var("TENGEN_TEST_POSTGRES").unwrap();
    let (server, _) = base.rsplit_once('/').expect("postgres://…/DATABASE");
    (format!("{server}/{name}"), name)
}
