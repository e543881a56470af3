//! The playout hot path allocates nothing: dhat's counting allocator watches playouts and
//! legality scans once the boards are set up.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tengen_core::{Board, Color, Policy};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Run without libtest's harness (`harness = false` in `Cargo.toml`): dhat counts the
/// allocations of every thread, and the harness's own thread may still be allocating when the
/// test's thread starts — 4 such allocations were once counted on a loaded machine, in the
/// first measured loop. Alone in `main`, nothing runs beside the playouts.
fn main() {
    playouts_do_not_allocate();
    println!("playouts_do_not_allocate: ok");
}

/// One function: dhat allows one profiler at a time.
fn playouts_do_not_allocate() {
    let _profiler = dhat::Profiler::builder().testing().build();

    // The counter counts (or the assertion below would prove nothing).
    let before = dhat::HeapStats::get().total_blocks;
    let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
    assert!(dhat::HeapStats::get().total_blocks > before);
    drop(v);

    for size in [9usize, 13, 19] {
        let start = Board::new(size).unwrap();
        let mut board = Box::new(start.clone());
        let mut rng = SmallRng::seed_from_u64(size as u64);
        let before = dhat::HeapStats::get().total_blocks;
        let mut moves = 0u64;
        let mut legal = 0usize;
        for _ in 0..200 {
            board.copy_from(&start);
            moves += u64::from(board.playout(Color::Black, &mut rng, 3 * (size * size) as u32).moves);
            legal += board.empty_points().filter(|&p| board.is_legal(p, Color::White)).count();
        }
        let allocated = dhat::HeapStats::get().total_blocks - before;
        assert!(moves > 200 * (size * size) as u64 / 2, "playouts too short to mean anything: {moves} moves");
        assert!(legal > 0);
        assert_eq!(allocated, 0, "{allocated} allocations in 200 playouts on {size}x{size}");

        // The heavy policy (patterns, ladders read on copies of the board) too, once its
        // pattern table is built.
        let _ = tengen_core::policy::matches_pattern(0, Color::Black);
        let before = dhat::HeapStats::get().total_blocks;
        let mut moves = 0u64;
        for _ in 0..100 {
            board.copy_from(&start);
            let (mut color, mut last, mut passes, mut turns) = (Color::Black, None, 0, 0);
            while passes < 2 && turns < 3 * size * size {
                turns += 1;
                match board.policy_move(color, last, &Policy::HEAVY, &mut rng) {
                    Some(p) => {
                        board.play_unchecked(p, color);
                        moves += 1;
                        passes = 0;
                        last = Some(p);
                    }
                    None => {
                        board.pass();
                        passes += 1;
                        last = None;
                    }
                }
                color = !color;
            }
        }
        let allocated = dhat::HeapStats::get().total_blocks - before;
        assert!(moves > 100 * (size * size) as u64 / 2, "heavy playouts too short: {moves} moves");
        assert_eq!(allocated, 0, "{allocated} allocations in 100 heavy playouts on {size}x{size}");
    }
}
