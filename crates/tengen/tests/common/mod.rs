//! What the binary's tests share: a `tengen serve` child on a port of its own.
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
