//! SGF import: any bytes are decoded, checked strictly, read tolerantly, replayed and written
//! back; nothing may panic, and what is read must survive a round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_sgf::{IllegalMoves, Record};

fuzz_target!(|data: &[u8]| {
    let _ = tengen_sgf::check_strict(&tengen_sgf::decode(data).text);
    if let Ok((records, _)) = Record::read_bytes(data) {
        for record in &records {
            if let Ok(replay) = record.replay(IllegalMoves::Skip) {
                let _ = replay.game.score(&[]);
            }
            let text = record.to_sgf();
            let again = Record::read(&text).expect("written SGF reads back");
            assert_eq!(&again, record, "round trip changed the record: {text}");
        }
    }
});
