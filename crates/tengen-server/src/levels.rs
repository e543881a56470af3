//! What each computer level means: the search it uses, how much it searches, and its strength
//! as measured against GNU Go 3.8 (docs/measurements.md, 2026-12-04, "the levels' strength").

use serde::Serialize;
use tengen_engine::SearchParams;

/// One level, as `GET /api/levels` shows it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Level {
    /// 1 to 10.
    pub level: u8,
    /// `playout` (the Monte-Carlo search, no download) or `network` (the KataGo network the
    /// server was started with).
    pub search: &'static str,
    /// How much it searches a move, in English.
    pub budget: String,
    /// The same in Chinese.
    pub budget_zh: String,
    /// Its approximate strength (a rank), in English.
    pub strength: &'static str,
    /// The same in Chinese.
    pub strength_zh: &'static str,
}

/// The approximate rank of each level of the playout search and of the network search on
/// 9×9 (English, Chinese), from matches against GNU Go 3.8 (level 10 taken as 8 kyu, 100 Elo a
/// rank): docs/measurements.md.
const PLAYOUT_STRENGTH: [(&str, &str); 10] = [
    ("about 16 kyu", "约 16 级"),
    ("about 14 kyu", "约 14 级"),
    ("about 10 kyu", "约 10 级"),
    ("about 7 kyu", "约 7 级"),
    ("about 6 kyu", "约 6 级"),
    ("about 5 kyu", "约 5 级"),
    ("about 5 kyu", "约 5 级"),
    ("about 4 kyu", "约 4 级"),
    ("about 4 kyu", "约 4 级"),
    ("stronger than level 9 (not measured)", "强于级别 9（未测）"),
];
const NETWORK_STRENGTH: [(&str, &str); 5] = [
    ("about 3 kyu or stronger", "约 3 级或更强"),
    ("about 3 kyu or stronger", "约 3 级或更强"),
    ("stronger still (not measured apart)", "更强（未单独测）"),
    ("stronger still (not measured apart)", "更强（未单独测）"),
    ("the strongest (not measured apart)", "最强（未单独测）"),
];

/// The ten levels of a server with (`network`) or without a network.
#[must_use]
pub fn levels(network: bool) -> Vec<Level> {
    (1..=SearchParams::MAX_LEVEL)
        .map(|level| {
            let i = usize::from(level - 1);
            match SearchParams::network_level(level).filter(|_| network) {
                Some(params) => Level {
                    level,
                    search: "network",
                    budget: format!("{} network evaluations a move", params.playouts),
                    budget_zh: format!("每手 {} 次网络评估", params.playouts),
                    strength: NETWORK_STRENGTH[i - 5].0,
                    strength_zh: NETWORK_STRENGTH[i - 5].1,
                },
                None => {
                    let params = SearchParams::level(level);
                    let drawn = params.temperature > 0.0;
                    Level {
                        level,
                        search: "playout",
                        budget: format!(
                            "{} simulations a move{}",
                            params.playouts,
                            if drawn { ", the move drawn among those searched" } else { "" }
                        ),
                        budget_zh: format!(
                            "每手 {} 次模拟{}",
                            params.playouts,
                            if drawn { "，在搜索过的棋中随机选" } else { "" }
                        ),
                        strength: PLAYOUT_STRENGTH[i].0,
                        strength_zh: PLAYOUT_STRENGTH[i].1,
                    }
                }
            }
        })
        .collect()
}
