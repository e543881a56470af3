//! What the engine's integration tests share: KataGo's 10-block network
//! (`target/models/b10c384h6nbttflrs.bin.gz`, fetched by `scripts/test`; `TENGEN_KATAGO_MODEL`
//! names another), loaded once per test binary.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use tengen_nn::{CachedModel, Model};

/// The network, loaded once; a clear failure when it is missing.
pub fn model() -> Arc<CachedModel> {
    static MODEL: OnceLock<Arc<CachedModel>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let path = std::env::var_os("TENGEN_KATAGO_MODEL").map_or_else(
                || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz"),
                PathBuf::from,
            );
            assert!(path.exists(), "{} is missing: run scripts/test or set TENGEN_KATAGO_MODEL", path.display());
            Arc::new(CachedModel::new(Model::load(&path).unwrap(), 1024))
        })
        .clone()
}
