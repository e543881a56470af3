//! Talking to another GTP program: a child process, a deadline on every response, and a
//! kill (of that process, by its own handle) when it hangs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// Why a command got no `=` answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The program answered `?` with this message.
    #[error("{0}")]
    Failure(String),
    /// No answer before the deadline: the program was killed.
    #[error("no answer within {0:?}: the engine was stopped")]
    Timeout(Duration),
    /// The program ended or closed its output.
    #[error("the engine exited")]
    Closed,
    /// The program could not be started or written to.
    #[error("{0}")]
    Io(String),
}

/// A GTP program running as a child process.
pub struct Client {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    /// Starts `command` with the shell (`sh -c "exec COMMAND"`), its standard error ignored.
    ///
    /// # Errors
    /// [`ClientError::Io`] when it cannot be started.
    pub fn start(command: &str) -> Result<Client, ClientError> {
        let mut child = Command::new("sh")
            .args(["-c", &format!("exec {command}")])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ClientError::Io(format!("cannot start {command}: {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| ClientError::Io("no standard input".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| ClientError::Io("no standard output".into()))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Client { command: command.to_owned(), child, stdin, lines })
    }

    /// The command that started the program.
    #[must_use]
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one command and waits for its answer, at most `deadline` (`None`: forever). On a
    /// timeout the program is killed.
    ///
    /// # Errors
    /// [`ClientError`]: a `?` answer, a timeout, or a program that has ended.
    pub fn send(&mut self, command: &str, deadline: Option<Duration>) -> Result<String, ClientError> {
        writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush()).map_err(|_| ClientError::Closed)?;
        let mut text: Vec<String> = Vec::new();
        loop {
            let line = match deadline {
                Some(d) => match self.lines.recv_timeout(d) {
                    Ok(line) => line,
                    Err(RecvTimeoutError::Timeout) => {
                        self.kill();
                        return Err(ClientError::Timeout(d));
                    }
                    Err(RecvTimeoutError::Disconnected) => return Err(ClientError::Closed),
                },
                None => self.lines.recv().map_err(|_| ClientError::Closed)?,
            };
            let line = line.trim_end_matches('\r').to_owned();
            if line.trim().is_empty() {
                if text.is_empty() {
                    continue;
                }
                break;
            }
            text.push(line);
        }
        let all = text.join("\n");
        let body = all.get(1..).unwrap_or("").trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_owned();
        if all.starts_with('=') { Ok(body) } else { Err(ClientError::Failure(body)) }
    }

    /// Stops the program now.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to quit by itself, then make sure.
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

impl crate::regress::Peer for Client {
    fn send(&mut self, command: &str) -> Result<String, String> {
        Client::send(self, command, Some(Duration::from_secs(600))).map_err(|e| e.to_string())
    }
}
