//! Inputs the fuzzer (`fuzz/fuzz_targets/sgf_import.rs`) once broke, kept as regression tests:
//! each must read, replay and survive a round trip, exactly as the fuzz target demands.

use std::path::Path;

use tengen_sgf::{IllegalMoves, Record};

#[test]
fn fuzz_findings_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if let Ok((records, _)) = Record::read_bytes(&bytes) {
            for record in &records {
                if let Ok(replay) = record.replay(IllegalMoves::Skip) {
                    let _ = replay.game.score(&[]);
                }
                let again = Record::read(&record.to_sgf()).expect("written SGF reads back");
                assert_eq!(&again, record, "round trip changed {}", path.display());
            }
        }
        let _ = tengen_sgf::check_strict(&tengen_sgf::decode(&bytes).text);
        count += 1;
    }
    assert!(count >= 1, "no fuzz findings in {}", dir.display());
}
