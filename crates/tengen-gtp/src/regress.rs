//! Regression files in GNU Go's format (`.tst`): GTP commands, each numbered command followed
//! by `#? [pattern]` — the pattern a regular expression the whole response must match, `!`
//! before it for "must not match", `*` after the bracket for a known failure. `loadsgf` paths
//! are relative to the file.

use std::path::Path;

use regex::Regex;

/// Something that answers GTP commands: tengen's own session, or another program.
pub trait Peer {
    /// Sends one command; the response body (`Ok` for `=`, `Err` for `?`).
    ///
    /// # Errors
    /// The peer's error response, or a failure to talk to it.
    fn send(&mut self, command: &str) -> Result<String, String>;
}

impl Peer for crate::Session {
    fn send(&mut self, command: &str) -> Result<String, String> {
        let reply = self.execute(command).unwrap_or_default();
        let body = reply.trim_end_matches('\n');
        let text = body.split_once(' ').map_or("", |(_, rest)| rest).to_owned();
        if body.starts_with('=') { Ok(text) } else { Err(text) }
    }
}

/// How one case ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Matched, as expected.
    Pass,
    /// Did not match and is not a known failure.
    Fail,
    /// Did not match, a known failure (`*`).
    ExpectedFail,
    /// Matched although marked as a known failure.
    UnexpectedPass,
}

/// One numbered command with its expectation and what came back.
#[derive(Clone, Debug)]
pub struct Case {
    /// The command's number in the file.
    pub id: String,
    /// The command as written.
    pub command: String,
    /// The expectation as written (inside the brackets).
    pub expected: String,
    /// The response (`?` responses prefixed with `? `).
    pub got: String,
    /// The verdict.
    pub verdict: Verdict,
}

/// Runs one regression file against `peer`.
///
/// # Errors
/// The file cannot be read, or an expectation is not a valid regular expression.
pub fn run_file(path: &Path, peer: &mut dyn Peer) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut cases = Vec::new();
    let mut last: Option<(String, String, String)> = None; // id, command, response
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("#?") {
            let Some((id, command, got)) = last.take() else { continue };
            let rest = rest.trim();
            let known_failure = rest.ends_with('*');
            let inner = rest.trim_end_matches('*').trim().trim_start_matches('[');
            let inner = inner.strip_suffix(']').unwrap_or(inner);
            let (negate, pattern) = match inner.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, inner),
            };
            let re =
                Regex::new(&format!("^(?:{pattern})$")).map_err(|e| format!("{}: case {id}: {e}", path.display()))?;
            let matched = re.is_match(got.trim()) != negate;
            let verdict = match (matched, known_failure) {
                (true, false) => Verdict::Pass,
                (false, false) => Verdict::Fail,
                (false, true) => Verdict::ExpectedFail,
                (true, true) => Verdict::UnexpectedPass,
            };
            cases.push(Case { id, command, expected: inner.to_owned(), got, verdict });
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        let numbered = words[0].parse::<u64>().is_ok();
        let name_at = usize::from(numbered);
        if words.get(name_at).is_some_and(|w| w == "loadsgf")
            && let Some(file) = words.get_mut(name_at + 1)
        {
            *file = dir.join(&*file).display().to_string();
        }
        let command = words[name_at..].join(" ");
        let got = match peer.send(&command) {
            Ok(body) => body,
            Err(message) => format!("? {message}"),
        };
        last = numbered.then(|| (words[0].clone(), command, got));
    }
    Ok(cases)
}
