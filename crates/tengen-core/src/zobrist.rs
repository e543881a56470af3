//! Zobrist keys: one random 64-bit key per (colour, point), fixed at compile time so that hashes
//! are the same in every run and every process.

use crate::point::AREA;

/// SplitMix64: a tiny generator, good enough to fill a key table.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build() -> [[u64; 1024]; 2] {
    let mut keys = [[0u64; 1024]; 2];
    let mut state = 0x7465_6e67_656e_u64; // "tengen"
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < AREA {
            let (s, k) = splitmix64(state);
            state = s;
            keys[color][i] = k;
            i += 1;
        }
        color += 1;
    }
    keys
}

/// `STONE_KEYS[color][point index]`, 1024 long per colour like the board's tables (only the
/// first 729 are used).
pub(crate) static STONE_KEYS: [[u64; 1024]; 2] = build();

/// Mixed into a position's hash when White is to move (situational superko).
pub(crate) const WHITE_TO_MOVE_KEY: u64 = splitmix64(0xdead_beef_cafe).1;

/// The key of a stone of colour index `color` on padded index `point` (masked: no bounds test).
#[inline(always)]
pub(crate) fn key(color: usize, point: usize) -> u64 {
    STONE_KEYS[color & 1][point & 1023]
}
