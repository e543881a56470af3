//! Real files: tolerant reading of what other programs write, and every file of
//! `../shared/testdata/sgf-edge/` either loads or fails with a clear error — none panics.

use std::path::{Path, PathBuf};

use tengen_core::{Color, Move, Point};
use tengen_sgf::{IllegalMoves, ReadError, Record};

fn at(s: &str) -> Move {
    Move::Play(s.parse::<Point>().unwrap())
}

#[test]
fn tolerant_forms() {
    // No GM, no FF, FF[3]-style lowercase-mixed identifiers, `tt` passes on 19×19.
    let r = Record::read("(;SZ[19]KoMi[750];B[pd];W[tt];B[dp])").unwrap();
    let replay = r.replay(IllegalMoves::Stop).unwrap();
    assert_eq!(replay.game.moves(), &[(Color::Black, at("Q16")), (Color::White, Move::Pass), (Color::Black, at("D4"))]);
    assert_eq!(replay.info.komi.unwrap().to_string(), "7.5");
    // GoGoD's Chinese komi in stones.
    let r = Record::read("(;GM[1]SZ[19]RU[Chinese]KM[3.75])").unwrap();
    assert_eq!(r.info().unwrap().komi.unwrap().to_string(), "7.5");
}

#[test]
fn illegal_moves_are_reported_then_stopped_or_skipped() {
    let text = "(;GM[1]FF[4]SZ[9];B[ee];W[ee];B[cc];W[zz];B[gg])";
    let r = Record::read(text).unwrap();
    let stop = r.replay(IllegalMoves::Stop).unwrap();
    assert_eq!(stop.game.moves().len(), 1);
    assert_eq!(stop.problems.len(), 1);
    assert_eq!(stop.problems[0].node, 2);
    assert!(stop.problems[0].message.contains("occupied"), "{:?}", stop.problems);
    let skip = r.replay(IllegalMoves::Skip).unwrap();
    assert_eq!(skip.game.moves().len(), 3);
    assert_eq!(skip.problems.iter().map(|p| p.node).collect::<Vec<_>>(), [2, 4]);
    assert!(skip.problems[1].message.contains("off the board"), "{:?}", skip.problems);
}

#[test]
fn handicap_stones_and_white_first() {
    let r = Record::read("(;GM[1]FF[4]SZ[9]HA[2]KM[0.5]AB[cc][gg];W[ee];B[ce])").unwrap();
    let replay = r.replay(IllegalMoves::Stop).unwrap();
    assert!(replay.problems.is_empty());
    assert_eq!(replay.game.handicap(), 2);
    assert_eq!(replay.game.start().stone_count(Color::Black), 2);
    assert_eq!(replay.game.to_move(), Color::White);
}

#[test]
fn not_go_and_not_sgf_are_errors() {
    assert!(matches!(Record::read("(;GM[2];B[aa])"), Err(ReadError::NotGo { .. })));
    assert!(Record::read("").is_err());
    assert!(Record::read("hello").is_err());
    assert!(matches!(Record::read("(;GM[1]SZ[19:9])").unwrap().info(), Err(tengen_sgf::InfoError::Size(19, 9))));
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_edge_case_file_loads_or_fails_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/sgf-edge");
    let mut all = Vec::new();
    files(&dir, &mut all);
    all.sort();
    assert!(all.len() > 50, "expected the sgf-edge files in {}", dir.display());
    let (mut loaded, mut refused, mut panicked) = (0, 0, Vec::new());
    for path in &all {
        let bytes = std::fs::read(path).unwrap();
        let outcome = std::panic::catch_unwind(|| match Record::read_bytes(&bytes) {
            Ok((records, _)) => {
                for r in &records {
                    // What tengen can play (square boards up to 25×25) is replayed; every
                    // record survives a round trip, giant boards included.
                    if r.info().is_ok() {
                        let _ = r.replay(IllegalMoves::Skip);
                    }
                    let again = Record::read(&r.to_sgf()).expect("a written record reads back");
                    assert_eq!(&again, r, "round trip changed {}", path.display());
                }
                true
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                false
            }
        });
        match outcome {
            Ok(true) => loaded += 1,
            Ok(false) => refused += 1,
            Err(_) => panicked.push(path.display().to_string()),
        }
    }
    eprintln!("sgf-edge: {loaded} loaded, {refused} refused with an error, {} panicked", panicked.len());
    assert!(panicked.is_empty(), "panics on:\n{}", panicked.join("\n"));
    assert!(loaded > refused, "{loaded} loaded, {refused} refused");
}

#[test]
fn character_sets_are_decoded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/sgf-edge");
    // File, words its comments must contain once decoded.
    let cases: &[(&str, &[&str])] = &[
        ("libsgfcplusplus/encoding-chinese-gb18030.sgf", &["围棋是一种"]),
        ("libsgfcplusplus/encoding-chinese-gbk.sgf", &["围棋是一种"]),
        ("libsgfcplusplus/encoding-simplifiedchinese-gb2312.sgf", &["围棋"]),
        ("libsgfcplusplus/encoding-traditionalchinese-big5.sgf", &["圍棋"]),
        ("libsgfcplusplus/encoding-japanese-shiftjis.sgf", &["Goは古代の"]),
        ("libsgfcplusplus/encoding-japanese-iso2022jp.sgf", &["Goは古代の"]),
        ("libsgfcplusplus/encoding-korean-macos.sgf", &["바둑은"]),
        ("libsgfcplusplus/encoding-cyrillic-windows.sgf", &["Го - древняя игра"]),
        ("libsgfcplusplus/encoding-western-isolatin1.sgf", &["Ää Àà", "«»"]),
        ("libsgfcplusplus/encoding-western-isolatin9.sgf", &["Ÿ Œœ €"]),
        ("libsgfcplusplus/encoding-western-windowslatin1.sgf", &["Ää Àà"]),
        ("libsgfcplusplus/encoding-western-macosroman.sgf", &["Ÿ Œœ €"]),
        ("libsgfcplusplus/encoding-utf8-withbom.sgf", &["Go is an ancient game"]),
        ("libsgfcplusplus/encoding-utf8-nobom.sgf", &["Go is an ancient game"]),
        ("libsgfcplusplus/encoding-utf16-withbom.sgf", &["CA[UTF-8]"]),
        ("libsgfcplusplus/encoding-utf16-nobom.sgf", &["CA[UTF-8]"]),
        ("sabaki/utf16le.sgf", &["GM[1]"]),
    ];
    for (file, words) in cases {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let (records, decoded) = Record::read_bytes(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        let text = records.iter().map(Record::to_sgf).collect::<String>();
        for w in *words {
            assert!(text.contains(w), "{file} ({}, {:?}): {w:?} not found", decoded.encoding.name(), decoded.source);
        }
        assert!(!decoded.had_errors, "{file}: undecodable bytes");
    }
}

#[test]
fn undeclared_legacy_text_is_detected() {
    // GBK bytes without CA: not UTF-8, so the detector decides.
    let bytes = "(;GM[1]C[围棋是一种古老的游戏，起源于中国。])".as_bytes();
    let gbk = encoding_rs::GBK.encode(std::str::from_utf8(bytes).unwrap()).0.into_owned();
    let decoded = tengen_sgf::decode(&gbk);
    assert_eq!(decoded.source, tengen_sgf::CharsetSource::Detected);
    assert!(decoded.text.contains("围棋是一种古老的游戏"), "{} gave {}", decoded.encoding.name(), decoded.text);
}

#[test]
fn strict_mode_reports_every_problem_with_its_place() {
    let strict =
        |text: &str| -> Vec<String> { tengen_sgf::check_strict(text).iter().map(ToString::to_string).collect() };
    // Broken syntax: every problem is reported, moves are not replayed.
    assert_eq!(
        strict("(;GM[1]SZ[9]KoMi[3.75]\n;B[ee];W[ee]\n;B[tt]C[unclosed"),
        [
            "line 1, column 1: this game tree is never closed with ')'",
            "line 1, column 3: no FF[4]: read as FF[4]",
            "line 1, column 13: property KoMi: lowercase letters in an identifier (FF[3]); FF[4] writes KM",
            "line 1, column 13: KM[3.75] is komi in stones; it is read as 7.5 points",
            "line 3, column 2: B[tt] is an FF[3] pass; FF[4] writes B[]",
            "line 3, column 8: the value of C is never closed with ']'",
        ]
    );
    // Clean syntax: the main line is replayed and refused moves are reported where they are.
    assert_eq!(
        strict("(;GM[1]FF[4]SZ[5]\n;B[cc];W[cc]SZ[5]\n(;B[aa];W[ba];B[bb];W[ab])(;B[zz]))"),
        [
            "line 2, column 8: W[cc]: cc is occupied",
            "line 2, column 13: SZ belongs in the root node",
            "line 3, column 29: B[zz]: zz is not a point of the 5×5 board",
        ]
    );
    assert!(strict("(;GM[1]FF[4]SZ[9];B[ee];W[cc])").is_empty());
    assert_eq!(strict("hello"), ["line 1, column 1: unexpected 'h' outside any game tree"]);
    assert_eq!(strict(""), ["line 1, column 1: no game tree (an SGF file holds \"(;…)\")"]);
}

#[test]
fn strict_mode_on_every_edge_case_file() {
    // Never panics; clean files from careful writers stay clean.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/sgf-edge");
    let mut all = Vec::new();
    files(&dir, &mut all);
    let mut with_problems = 0;
    for path in &all {
        let decoded = tengen_sgf::decode(&std::fs::read(path).unwrap());
        let problems = std::panic::catch_unwind(|| tengen_sgf::check_strict(&decoded.text))
            .unwrap_or_else(|_| panic!("strict mode panicked on {}", path.display()));
        with_problems += usize::from(!problems.is_empty());
    }
    let clean = tengen_sgf::check_strict(&std::fs::read_to_string(dir.join("katago-data/sampletest9x9.sgf")).unwrap());
    assert!(clean.iter().all(|d| !d.message.contains("never closed")), "{clean:?}");
    assert!(with_problems > 0 && with_problems < all.len(), "{with_problems} of {} files with problems", all.len());
}

#[test]
fn strict_mode_on_properties_without_values() {
    let got: Vec<String> = tengen_sgf::check_strict("(;GM FF[4]SZ[9];B)").iter().map(ToString::to_string).collect();
    assert!(got.contains(&"line 1, column 3: property GM has no value".to_owned()), "{got:?}");
    assert!(got.contains(&"line 1, column 17: property B has no value".to_owned()), "{got:?}");
}

/// The lean read of the main line (`Record::read_main_line`, which scans the variations
/// instead of parsing them) gives what the full reader does, on every file of the edge cases
/// and of GNU Go's regression games that the full reader reads: the main line, its comments
/// and the branch points.
#[test]
fn the_main_line_read_leanly_is_the_full_readers() {
    let mut all = Vec::new();
    for dir in ["sgf-edge", "gnugo-regression"] {
        files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata").join(dir), &mut all);
    }
    let mut compared = 0;
    for path in all.iter().filter(|p| p.extension().is_some_and(|e| e == "sgf")) {
        let Ok(bytes) = std::fs::read(path) else { continue };
        let text = tengen_sgf::decode(&bytes).text;
        // (A collection the full reader refuses for a later tree may still give its first.)
        let Ok(record) = Record::read(&text) else { continue };
        let (lean, branch_points) = Record::read_main_line(&text).unwrap();
        let main = record.main_line_record();
        assert!(lean == main, "{}", path.display());
        assert_eq!(branch_points, record.branch_points(), "{}", path.display());
        assert_eq!(lean.comments(), record.comments(), "{}", path.display());
        compared += 1;
    }
    assert!(compared > 500, "{compared} files compared");
}
