//! One GTP session fed arbitrary bytes, line by line: no panic, every reply framed, and a
//! refused command leaves the game as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_gtp::{RandomEngine, Session};

fuzz_target!(|data: &[u8]| {
    let mut session = Session::new(RandomEngine::new(1));
    let _ = session.execute("boardsize 9");
    for line in data.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        // Files are outside the fuzzer's business (command names match in any case).
        let lower = line.to_ascii_lowercase();
        if lower.contains("loadsgf") || lower.contains("printsgf") {
            continue;
        }
        let before = (session.game().board().clone(), session.game().moves().len());
        if let Some(reply) = session.execute(&line) {
            assert!(reply.ends_with("\n\n") && (reply.starts_with('=') || reply.starts_with('?')));
            if reply.starts_with('?') {
                assert!(before.0 == *session.game().board() && before.1 == session.game().moves().len(), "{line:?}");
            }
        }
    }
});
