//! Criterion benches of the hot path: playing moves, scanning legality, a light playout.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tengen_core::{Board, Color};

/// A mid-game position: `moves` random playout moves from the empty board.
fn midgame(size: usize, moves: usize) -> (Board, Color) {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut board = Board::new(size).unwrap();
    let mut color = Color::Black;
    for _ in 0..moves {
        if let Some(p) = board.random_playout_move(color, &mut rng) {
            board.play_unchecked(p, color);
        }
        color = !color;
    }
    (board, color)
}

fn benches(c: &mut Criterion) {
    for size in [9usize, 19] {
        let empty = Board::new(size).unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        let mut board = empty.clone();
        c.bench_function(&format!("playout {size}x{size}"), |b| {
            b.iter(|| {
                board.copy_from(&empty);
                black_box(board.playout(Color::Black, &mut rng, 3 * (size * size) as u32))
            })
        });

        let (mid, color) = midgame(size, size * size / 2);
        c.bench_function(&format!("legality scan {size}x{size}"), |b| {
            b.iter(|| black_box(mid.points().filter(|&p| mid.is_legal(p, color)).count()))
        });

        let moves: Vec<_> = {
            let mut b = mid.clone();
            let mut col = color;
            let mut rng = SmallRng::seed_from_u64(9);
            (0..20)
                .filter_map(|_| {
                    let p = b.random_playout_move(col, &mut rng)?;
                    b.play_unchecked(p, col);
                    col = !col;
                    Some(p)
                })
                .collect()
        };
        let mut scratch = mid.clone();
        c.bench_function(&format!("play 20 moves {size}x{size}"), |b| {
            b.iter(|| {
                scratch.copy_from(&mid);
                let mut col = color;
                for &p in &moves {
                    scratch.play_unchecked(p, col);
                    col = !col;
                }
                black_box(scratch.hash())
            })
        });
    }
}

criterion_group!(board, benches);
criterion_main!(board);
