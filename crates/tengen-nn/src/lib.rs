//! # tengen-nn — KataGo networks on the CPU
//!
//! This first part reads KataGo's model files (`.bin.gz`): gzip, whitespace-separated text
//! tokens for names and sizes, and `@BIN@` blocks of little-endian `f32` for the weights. It
//! covers the header fields of model versions 8 to 15 and every block kind of current KataGo
//! networks — `ordinary_block`, `gpool_block`, `nested_bottleneck_block`,
//! `transformer_attention_block`, `transformer_ffn_block` — with the policy and value heads,
//! and refuses anything else with an error naming the layer and the byte where it stopped.
//!
//! ```no_run
//! let model = tengen_nn::Model::load("b10c384h6nbttflrs.bin.gz").unwrap();
//! println!("{} (version {}): {} parameters", model.name, model.version, model.parameters());
//! ```
//!
//! tengen does not ship a network: the README says where to get one (KaTrain's wheel on PyPI
//! carries the 10-block `b10c384h6nbttflrs`).

mod cache;
mod features;
mod forward;
mod kernel;
mod load;
mod model;
mod profile;
mod scratch;

pub use cache::CachedModel;
pub use features::{GLOBAL, SPATIAL, input_features, katago_index};
pub use forward::{Evaluation, Input, RawOutput};
pub use kernel::{Kernel, Packed};
pub use load::LoadError;
pub use model::*;
pub use profile::{LayerTime, profile};
