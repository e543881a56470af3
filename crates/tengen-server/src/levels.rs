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

/// The same measurement as numbers: the kyu of levels 1 to 9 of the playout search on 9×9
/// (level 10 was not measured). The strings above say these numbers; a test keeps them one.
const PLAYOUT_KYU_9X9: [Option<u32>; 10] =
    [Some(16), Some(14), Some(10), Some(7), Some(6), Some(5), Some(5), Some(4), Some(4), None];

/// The deviation given to a level's fixed rating: its rank was measured to about a rank
/// (40 games a level against GNU Go), some 65 rating points at 6 kyu.
const LEVEL_DEVIATION: f64 = 80.0;

/// The fixed rating of a level as a rated opponent on a board size: the middle of its measured
/// rank. `None` where its strength was not measured — on 13×13 and 19×19 for every level (the
/// 9×9 table does not hold there), level 10, and the network's levels (6 to 10 on a server
/// with a network, measured only as "3 kyu or stronger").
#[must_use]
pub fn computer_rating(level: u8, size: usize, network: bool) -> Option<crate::domain::rating::Glicko> {
    if size != 9 || (network && SearchParams::network_level(level).is_some()) {
        return None;
    }
    let kyu = (*PLAYOUT_KYU_9X9.get(usize::from(level).checked_sub(1)?)?)?;
    let rank = 30.5 - f64::from(kyu);
    Some(crate::domain::rating::Glicko {
        rating: crate::domain::rating::rating_of(rank),
        deviation: LEVEL_DEVIATION,
        volatility: 0.06,
    })
}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::rating::rank_label;

    #[test]
    fn a_levels_rating_says_its_measured_rank() {
        for level in 1..=9u8 {
            let glicko = computer_rating(level, 9, false).unwrap();
            let label = rank_label(&glicko);
            let said = PLAYOUT_STRENGTH[usize::from(level - 1)].0;
            assert_eq!(format!("about {} kyu", label.trim_end_matches('k')), said, "level {level}");
        }
        assert_eq!(computer_rating(10, 9, false), None);
        assert_eq!(computer_rating(5, 19, false), None);
        assert_eq!(computer_rating(5, 13, false), None);
        assert_eq!(computer_rating(7, 9, true), None, "the network's level 7 was not measured to a rank");
        assert!(computer_rating(5, 9, true).is_some(), "level 5 is the playout search on every server");
    }
}
