//! A small evaluation cache: the same inputs (and symmetry) give the same outputs, so a
//! search that reaches a position twice evaluates it once.

use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

use crate::forward::{Input, RawOutput};
use crate::model::Model;

/// The exact inputs of an evaluation, compactly: the spatial planes are 0 or 1, so one bit
/// each; the global values as their bits.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    size: usize,
    symmetry: u8,
    planes: Vec<u64>,
    global: Vec<u32>,
}

impl Key {
    fn of(input: &Input, symmetry: u8) -> Key {
        let mut planes = vec![0u64; input.spatial.len().div_ceil(64)];
        for (i, &v) in input.spatial.iter().enumerate() {
            if v != 0.0 {
                planes[i / 64] |= 1 << (i % 64);
            }
        }
        Key { size: input.size, symmetry, planes, global: input.global.iter().map(|g| g.to_bits()).collect() }
    }
}

struct Entries {
    map: LruCache<Key, RawOutput>,
    hits: u64,
    misses: u64,
}

/// A [`Model`] with a cache of its last evaluations (least recently used ones go first).
pub struct CachedModel {
    model: Model,
    entries: Mutex<Entries>,
}

impl CachedModel {
    /// Wraps `model` with room for `capacity` evaluations (at least one).
    #[must_use]
    pub fn new(model: Model, capacity: usize) -> CachedModel {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        CachedModel { model, entries: Mutex::new(Entries { map: LruCache::new(capacity), hits: 0, misses: 0 }) }
    }

    /// The model.
    #[must_use]
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Evaluates `input` through `symmetry`, from the cache when these exact inputs were
    /// evaluated before.
    ///
    /// # Panics
    /// As [`Model::forward_symmetric`].
    pub fn evaluate(&self, input: &Input, symmetry: u8) -> RawOutput {
        self.evaluate_batch(&[(input, symmetry)]).pop().expect("one output for one input")
    }

    /// Evaluates each input through its symmetry, from the cache where these exact inputs were
    /// evaluated before: the others go through the network together, without the cache's lock
    /// held ([`Model::forward_batch`]).
    ///
    /// # Panics
    /// As [`Model::forward_batch`].
    pub fn evaluate_batch(&self, inputs: &[(&Input, u8)]) -> Vec<RawOutput> {
        let keys: Vec<Key> = inputs.iter().map(|&(input, symmetry)| Key::of(input, symmetry)).collect();
        let mut out: Vec<Option<RawOutput>> = {
            let mut e = self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let found: Vec<Option<RawOutput>> = keys.iter().map(|k| e.map.get(k).cloned()).collect();
            let hits = found.iter().filter(|f| f.is_some()).count() as u64;
            e.hits += hits;
            e.misses += found.len() as u64 - hits;
            found
        };
        let missing: Vec<usize> = (0..inputs.len()).filter(|&i| out[i].is_none()).collect();
        if !missing.is_empty() {
            // Evaluated without holding the lock, as one batch.
            let batch: Vec<(&Input, u8)> = missing.iter().map(|&i| inputs[i]).collect();
            let computed = self.model.forward_batch(&batch);
            let mut e = self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            for (&i, raw) in missing.iter().zip(computed) {
                e.map.put(keys[i].clone(), raw.clone());
                out[i] = Some(raw);
            }
        }
        out.into_iter().map(|o| o.expect("every input evaluated")).collect()
    }

    /// (hits, misses) so far.
    #[must_use]
    pub fn stats(&self) -> (u64, u64) {
        let e = self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        (e.hits, e.misses)
    }

    /// Evaluations held now.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner).map.len()
    }

    /// Whether nothing is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
