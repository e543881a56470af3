//! Helpers of the tests that ask the JSON interface (terms.md §3).

use serde_json::Value;
use tengen_terms::answer;

/// The names the interface gives a move request, most specific first.
pub fn names(req: &Value) -> Vec<String> {
    let a: Value = serde_json::from_str(&answer(&req.to_string())).unwrap();
    a["terms"]
        .as_array()
        .unwrap_or_else(|| panic!("no terms in {a}"))
        .iter()
        .map(|t| t["zh"].as_str().unwrap().to_owned())
        .collect()
}
