//! Loading a KataGo network for the faces that search with one (`gtp`, `serve`, `play`).

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use tengen_nn::{CachedModel, GLOBAL, Model, SPATIAL};

/// Evaluations the cache keeps (about 6 kB each on 19×19).
const CACHE: usize = 4096;

/// Loads the model at `path` with an evaluation cache, refusing one whose inputs tengen does
/// not compute.
///
/// # Errors
/// The file cannot be read or parsed, or the model wants other inputs than KataGo's input
/// version 7.
pub fn load(path: &Path) -> Result<Arc<CachedModel>> {
    let model = Model::load(path).with_context(|| format!("cannot load the network {}", path.display()))?;
    check(&model, path)?;
    Ok(Arc::new(CachedModel::new(model, CACHE)))
}

/// The network a command searches with: the file `--model` names, else the one
/// `tengen model install` installed, if any; none with `--no-model` (which clap keeps apart
/// from `--model`).
///
/// # Errors
/// An installed network's file is gone (see [`crate::model::installed`]), or [`load`]'s.
pub fn choose(model: Option<&Path>, no_model: bool) -> Result<Option<Arc<CachedModel>>> {
    let path = match (model, no_model) {
        (_, true) => None,
        (Some(path), false) => Some(path.to_path_buf()),
        (None, false) => crate::model::installed()?,
    };
    path.as_deref().map(load).transpose()
}

/// Refuses a model whose inputs tengen does not compute.
///
/// # Errors
/// The model wants other inputs than KataGo's input version 7.
pub fn check(model: &Model, path: &Path) -> Result<()> {
    if model.spatial_inputs != SPATIAL || model.global_inputs != GLOBAL {
        anyhow::bail!(
            "{}: the network {} (version {}) takes {} spatial and {} global inputs; tengen computes KataGo's input \
             version 7 ({SPATIAL} and {GLOBAL}), used by model versions 8 to 15",
            path.display(),
            model.name,
            model.version,
            model.spatial_inputs,
            model.global_inputs
        );
    }
    Ok(())
}
