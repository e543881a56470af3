//! Bad input of any kind is an error response that changes nothing, and nothing panics.

use proptest::prelude::*;
use tengen_gtp::{RandomEngine, Session};

const WORDS: &[&str] = &[
    "play",
    "genmove",
    "undo",
    "boardsize",
    "komi",
    "is_legal",
    "countlib",
    "fixed_handicap",
    "set_free_handicap",
    "final_score",
    "kata-set-rules",
    "time_left",
    "loadsgf",
    "b",
    "w",
    "black",
    "white",
    "pass",
    "A1",
    "E5",
    "T19",
    "Z25",
    "I5",
    "0",
    "7",
    "19",
    "-3",
    "1e9",
    "{",
    "}",
    "chinese-ogs",
    "NaN",
    "\u{0}",
    "é",
    "",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![prop::collection::vec(prop::sample::select(WORDS), 0..5).prop_map(|w| w.join(" ")), ".{0,40}",]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn errors_change_nothing(lines in prop::collection::vec(line(), 1..40)) {
        let mut s = Session::new(RandomEngine::new(3));
        s.execute("boardsize 9");
        for l in &lines {
            let before = (s.game().board().clone(), s.game().moves().to_vec(), *s.game().rules());
            let reply = s.execute(l);
            if let Some(r) = reply {
                prop_assert!(r.ends_with("\n\n") && (r.starts_with('=') || r.starts_with('?')), "{r:?}");
                if r.starts_with('?') {
                    prop_assert_eq!(&before.0, s.game().board(), "{} changed the board", l);
                    prop_assert_eq!(&before.1, &s.game().moves().to_vec());
                    prop_assert_eq!(before.2, *s.game().rules());
                }
            }
        }
    }
}

#[test]
fn genmove_plays_whole_games() {
    let mut s = Session::new(RandomEngine::new(11));
    s.execute("boardsize 9");
    for _ in 0..400 {
        let b = s.execute("genmove b").unwrap();
        let w = s.execute("genmove w").unwrap();
        assert!(b.starts_with('=') && w.starts_with('='), "{b} {w}");
        if b.trim() == "= pass" && w.trim() == "= pass" {
            break;
        }
    }
    assert!(s.game().moves().len() > 40);
    let score = s.execute("final_score").unwrap();
    assert!(score.starts_with("= B+") || score.starts_with("= W+") || score == "= 0\n\n", "{score}");
}

#[test]
fn genmove_respects_time_settings() {
    use tengen_engine::{Limit, Mcts, SearchParams};
    let mut s = Session::new(Mcts::new(SearchParams { playouts: Limit::Unlimited, ..SearchParams::default() }));
    s.execute("boardsize 19");
    s.execute("time_settings 0 1 1");
    let started = std::time::Instant::now();
    let reply = s.execute("genmove b").unwrap();
    let took = started.elapsed();
    assert!(reply.starts_with("= "), "{reply}");
    assert!(took < std::time::Duration::from_millis(1_000), "took {took:?} with 1 s per move");
    assert!(took > std::time::Duration::from_millis(300), "used too little of its time: {took:?}");
}
