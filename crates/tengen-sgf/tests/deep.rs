//! Deep and long inputs: the reader refuses what is past its limits with an error naming the
//! limit, and everything within them is read, replayed, cloned, compared, written and dropped
//! on a thread with a quarter of a tokio worker's stack (so that a recursion reintroduced
//! anywhere shows here long before it could take a server down).
//!
//! Each case runs in a thread of its own with a small stack; an overflow there aborts the
//! test binary, which fails the run (the CLI's and the server's tests run the same inputs in
//! child processes).

use proptest::prelude::*;
use sgf_parse::SgfNode;
use sgf_parse::go::{Move as SgfMove, Point, Prop};
use tengen_sgf::{IllegalMoves, Limit, Limits, ReadError, Record, check_strict};

/// A quarter of tokio's default worker stack (2 MiB).
const SMALL_STACK: usize = 512 * 1024;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(SMALL_STACK).spawn(f).unwrap().join().unwrap()
}

/// A main line of `n` passes after the root.
fn main_line(n: usize) -> String {
    let mut s = String::from("(;GM[1]FF[4]SZ[19]");
    for i in 0..n {
        s.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    s.push(')');
    s
}

fn too_large(result: Result<Vec<Record>, ReadError>) -> (Limit, String) {
    match result {
        Err(ReadError::TooLarge(e)) => (e.limit, e.to_string()),
        other => panic!("expected a limit error, got {other:?}"),
    }
}

#[test]
fn the_hostile_shapes_are_refused_naming_the_limit() {
    let depth = Limits::default().depth;
    on_small_stack(move || {
        // 20,000 empty nodes after the root, as sent to the server.
        let semicolons = format!("(;GM[1]SZ[19]{})", ";".repeat(20_000));
        let (limit, text) = too_large(Record::read_all(&semicolons));
        assert_eq!(limit, Limit::Depth);
        assert_eq!(text, format!("the record holds more than {depth} nodes deep; the limit is {depth} nodes deep"));
        // 20,000 nested variations.
        let nested = format!("(;GM[1]{}{})", "(;B[aa]".repeat(20_000), ")".repeat(20_000));
        assert_eq!(too_large(Record::read_all(&nested)).0, Limit::Depth);
        // A main line of 100,000 moves.
        assert_eq!(too_large(Record::read_all(&main_line(100_000))).0, Limit::Depth);
        // Bare parentheses, never a node.
        assert_eq!(too_large(Record::read_all(&"(".repeat(100_000))).0, Limit::Depth);
        // 200,000 sibling variations: shallow, but too many nodes.
        let wide = format!("(;GM[1]{})", "(;B[aa])".repeat(200_000));
        assert_eq!(too_large(Record::read_all(&wide)).0, Limit::Nodes);
        // The strict checker says the same instead of recursing.
        let problems = check_strict(&nested);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("nodes deep"), "{problems:?}");
        // Bytes: the bound is on the file as given.
        let limits = Limits { bytes: 1_000, ..Limits::default() };
        let big = format!("(;GM[1]C[{}])", "x".repeat(2_000));
        match Record::read_bytes_within(big.as_bytes(), &limits) {
            Err(ReadError::TooLarge(e)) => assert_eq!(e.limit, Limit::Bytes),
            other => panic!("{other:?}"),
        }
    });
}

#[test]
fn records_at_the_limits_are_read_written_and_dropped_on_a_small_stack() {
    let depth = Limits::default().depth;
    on_small_stack(move || {
        // The deepest main line the reader takes: the root and depth − 1 moves.
        let text = main_line(depth - 1);
        let records = Record::read_all(&text).unwrap();
        let record = &records[0];
        assert_eq!(record.main_line().count(), depth);
        let replay = record.replay(IllegalMoves::Stop).unwrap();
        assert_eq!(replay.game.moves().len(), depth - 1);
        let copy = record.clone();
        assert_eq!(&copy, record);
        assert_eq!(copy.to_sgf(), text);
        assert!(check_strict(&text).iter().all(|d| !d.message.contains("deep")));
        // Nested variations up to the limit.
        let half = depth / 2 - 1;
        let nested = format!("(;GM[1]{}{})", "(;B[aa]".repeat(half), ")".repeat(half));
        let back = Record::read(&nested).unwrap().to_sgf();
        assert_eq!(Record::read(&back).unwrap().to_sgf(), back);
        assert!(!format!("{:?}", Record::read(&nested).unwrap()).is_empty());
    });
}

#[test]
fn a_tree_built_in_memory_of_any_depth_is_written_and_dropped_without_recursion() {
    on_small_stack(|| {
        // 300,000 nodes deep: far past what a recursive walk survives on this stack.
        let mut child: Option<SgfNode<Prop>> = None;
        for i in 0..300_000u32 {
            let m = SgfMove::Move(Point { x: (i % 19) as u8, y: (i / 19 % 19) as u8 });
            let prop = if i % 2 == 0 { Prop::B(m) } else { Prop::W(m) };
            child = Some(SgfNode::new(vec![prop], child.into_iter().collect(), false));
        }
        let record = Record::from_root(SgfNode::new(vec![Prop::GM(1)], child.into_iter().collect(), true));
        let text = record.to_sgf();
        assert_eq!(text.matches(';').count(), 300_001);
        drop(record);
    });
}

/// A random tree shape as text: `(`, `)`, nodes with a move, a comment holding brackets and
/// escapes, in any nesting.
fn shape() -> impl Strategy<Value = String> {
    prop::collection::vec(0u8..6, 0..4_000).prop_map(|ops| {
        let mut s = String::from("(;GM[1]SZ[9]");
        for op in ops {
            s.push_str(match op {
                0 => "(",
                1 => ")",
                2 => ";B[ee]",
                3 => ";W[]",
                4 => "C[a ; ( \\] )]",
                _ => ";",
            });
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever the shape and whatever the limits: an error naming a limit, or records that
    /// are within the limits, write back to text that reads the same, and drop.
    #[test]
    fn any_shape_is_bounded_or_round_trips(text in shape(), depth in 1usize..3_000, nodes in 1usize..3_000) {
        let limits = Limits { depth, nodes, ..Limits::default() };
        let outcome = on_small_stack(move || match Record::read_all_within(&text, &limits) {
            Ok(records) => {
                for r in &records {
                    let written = r.to_sgf();
                    let again = Record::read(&written).map_err(|e| e.to_string())?;
                    if again.to_sgf() != written {
                        return Err(format!("round trip changed {written}"));
                    }
                    let shape = tengen_sgf::measure(&written, &Limits::default()).unwrap();
                    if shape.depth > depth || shape.nodes > nodes {
                        return Err(format!("{shape:?} passed {limits:?}"));
                    }
                }
                Ok(())
            }
            Err(ReadError::TooLarge(_) | ReadError::Empty) => Ok(()),
            Err(e) => Err(e.to_string()),
        });
        prop_assert!(outcome.is_ok(), "{:?}", outcome);
    }
}

/// libsgfc++'s test file of single variations 1,000, 2,000 and 5,000 nodes deep is read whole.
#[test]
fn the_deepest_file_of_the_edge_cases_is_within_the_limits() {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/testdata/sgf-edge/libsgfcplusplus/deep-game-tree.sgf");
    let text = std::fs::read_to_string(path).expect("the shared test material");
    let records = on_small_stack(move || {
        let records = Record::read_all(&text).unwrap();
        records.iter().map(|r| r.main_line().count()).collect::<Vec<_>>()
    });
    assert_eq!(records, [6, 1_000, 2_000, 5_000, 1_397]);
}
