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
    /// Its approximate strength on 9×9 (a rank), in English.
    pub strength: &'static str,
    /// The same in Chinese.
    pub strength_zh: &'static str,
    /// Its strength on each board size the page offers (9, 13, 19): the playout search is far
    /// weaker on large boards than on 9×9, so a rank holds for the size it was measured on.
    pub strengths: Vec<SizeStrength>,
}

/// A level's strength on one board size, as measured there (or said not to be).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SizeStrength {
    /// 9, 13 or 19.
    pub size: u8,
    /// In English: "about 11 kyu", or "not measured" (on this size).
    pub strength: String,
    /// The same in Chinese.
    pub strength_zh: String,
    /// Games against the level on this size may be rated: its rank was measured here (not
    /// only bounded), and the server rates games against the computer.
    pub rated: bool,
}

/// How a measured rank reads: a level that won or lost every game of its pairings is only
/// known to be at least as strong (weak) as the fit puts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    About,
    OrStronger,
    OrWeaker,
}
use Bound::{About, OrStronger, OrWeaker};

/// The approximate kyu of each level on 19×19 (the playout search's ten, then the network's
/// levels 6 to 10), from `scripts/level-match` games against GNU Go 3.8 level 10 (taken as 8
/// kyu, 100 Elo a rank) and between levels (docs/measurements.md, 2026-12-06 and 2026-12-07);
/// `None`: not measured there. Levels 1 to 4 lost every game to the level above them (level
/// 1 won 6 of 20 against level 2), so their ranks are bounds (30 kyu the lowest said); level
/// 9's rests on 7 games against level 8 (6 won), level 10 was not measured.
const PLAYOUT_KYU_19X19: [Option<(u32, Bound)>; 10] = [
    Some((30, OrWeaker)),
    Some((30, OrWeaker)),
    Some((23, OrWeaker)),
    Some((18, OrWeaker)),
    Some((13, About)),
    Some((9, About)),
    Some((6, About)),
    Some((4, About)),
    Some((1, About)),
    None,
];
const NETWORK_KYU_19X19: [Option<(u32, Bound)>; 5] = [Some((3, OrStronger)), None, None, None, None];

/// The approximate kyu of the playout search's levels on 13×13, measured as on 19×19
/// (docs/measurements.md, 2026-12-06 night); `None`: not measured there.
const PLAYOUT_KYU_13X13: [Option<(u32, Bound)>; 10] =
    [None, None, None, None, Some((8, About)), Some((6, About)), Some((4, About)), None, None, None];

/// The sizes the page offers.
const SIZES: [u8; 3] = [9, 13, 19];

/// The measured rank of a level on a board size, if it was measured there.
fn rank_on(level: u8, size: usize, network: bool) -> Option<(u32, Bound)> {
    let i = usize::from(level).checked_sub(1)?;
    match (size, network && SearchParams::network_level(level).is_some()) {
        (9, false) => PLAYOUT_KYU_9X9.get(i)?.map(|kyu| (kyu, About)),
        (13, false) => *PLAYOUT_KYU_13X13.get(i)?,
        (19, false) => *PLAYOUT_KYU_19X19.get(i)?,
        (19, true) => *NETWORK_KYU_19X19.get(i.checked_sub(5)?)?,
        _ => None,
    }
}

/// The measured kyu of a level on a board size, if it was measured there as a rank, not as a
/// bound (a level that won or lost every game is not rated: its rating would be off one way).
fn kyu_on(level: u8, size: usize, network: bool) -> Option<u32> {
    match rank_on(level, size, network)? {
        (kyu, About) => Some(kyu),
        _ => None,
    }
}

/// A level's strength on each of [`SIZES`]: the 9×9 table's words; elsewhere its measured rank,
/// or where it was not measured how it stands to the nearest measured level of the same search
/// (more simulations or evaluations are stronger), or "not measured".
fn strengths(level: u8, network: bool, nine: (&'static str, &'static str)) -> Vec<SizeStrength> {
    let search = |l: u8| SearchParams::network_level(l).is_some() && network;
    let same = |l: u8| search(l) == search(level);
    SIZES
        .iter()
        .map(|&size| {
            let measured = |l: u8| same(l) && rank_on(l, size.into(), network).is_some();
            let (strength, strength_zh) = match (size, rank_on(level, size.into(), network)) {
                (9, _) => (nine.0.to_owned(), nine.1.to_owned()),
                (_, Some((kyu, About))) => (format!("about {kyu} kyu"), format!("约 {kyu} 级")),
                (_, Some((kyu, OrStronger))) => (format!("about {kyu} kyu or stronger"), format!("约 {kyu} 级或更强")),
                (_, Some((kyu, OrWeaker))) => (format!("about {kyu} kyu or weaker"), format!("约 {kyu} 级或更弱")),
                (_, None) => match ((1..level).rev().find(|&l| measured(l)), (level + 1..=10).find(|&l| measured(l))) {
                    (Some(l), _) => {
                        (format!("stronger than level {l} (not measured)"), format!("强于级别 {l}（未测）"))
                    }
                    (None, Some(l)) => {
                        (format!("weaker than level {l} (not measured)"), format!("弱于级别 {l}（未测）"))
                    }
                    (None, None) => ("not measured".to_owned(), "未测".to_owned()),
                },
            };
            let rated = computer_rating(level, size.into(), network).is_some();
            SizeStrength { size, strength, strength_zh, rated }
        })
        .collect()
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

/// The deviation of a 13×13 or 19×19 level's rating: measured from 10 to 30 games, to about
/// two ranks.
const LEVEL_DEVIATION_LARGE: f64 = 120.0;

/// The fixed rating of a level as a rated opponent on a board size: the middle of its measured
/// rank. `None` where its strength was not measured on that size as a rank (the 9×9 table does
/// not hold on larger boards) — on 13×13 and 19×19 the levels the tables above leave out or
/// give as bounds, level 10, and on 9×9 the network's levels (6 to 10 on a server with a
/// network, measured only as "3 kyu or stronger").
#[must_use]
pub fn computer_rating(level: u8, size: usize, network: bool) -> Option<crate::domain::rating::Glicko> {
    let kyu = kyu_on(level, size, network)?;
    let deviation = if size == 9 { LEVEL_DEVIATION } else { LEVEL_DEVIATION_LARGE };
    let rank = 30.5 - f64::from(kyu);
    Some(crate::domain::rating::Glicko { rating: crate::domain::rating::rating_of(rank), deviation, volatility: 0.06 })
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
                    strengths: strengths(level, true, NETWORK_STRENGTH[i - 5]),
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
                        strengths: strengths(level, false, PLAYOUT_STRENGTH[i]),
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
        assert_eq!(computer_rating(5, 19, false).map(|g| rank_label(&g)), Some("13k".to_owned()));
        assert_eq!(computer_rating(2, 19, false), None);
        assert_eq!(computer_rating(3, 19, false), None, "a bound (0 of 20 against level 4) is not rated");
        assert_eq!(computer_rating(8, 19, false).map(|g| rank_label(&g)), Some("4k".to_owned()));
        assert_eq!(computer_rating(9, 19, false).map(|g| rank_label(&g)), Some("1k".to_owned()));
        assert_eq!(computer_rating(6, 19, true), None, "nor the network's level 6 (10 of 10)");
        assert_eq!(computer_rating(5, 13, false).map(|g| rank_label(&g)), Some("8k".to_owned()));
        assert_eq!(computer_rating(7, 13, false).map(|g| rank_label(&g)), Some("4k".to_owned()));
        assert_eq!(computer_rating(4, 13, false), None, "level 4 was not measured on 13×13");
        assert_eq!(computer_rating(7, 9, true), None, "the network's level 7 was not measured to a rank");
        assert!(computer_rating(5, 9, true).is_some(), "level 5 is the playout search on every server");
    }

    #[test]
    fn each_level_says_its_strength_on_each_size() {
        for network in [false, true] {
            for level in levels(network) {
                let sizes: Vec<u8> = level.strengths.iter().map(|s| s.size).collect();
                assert_eq!(sizes, SIZES);
                assert_eq!(level.strengths[0].strength, level.strength, "9×9 as before");
                for s in &level.strengths[1..] {
                    let rated = computer_rating(level.level, s.size.into(), network);
                    let said = rated.map(|g| format!("about {} kyu", rank_label(&g).trim_end_matches('k')));
                    // A bound says its rank and which way it may be off, and is not rated; a
                    // level not measured is placed by its neighbours.
                    if rated.is_none() && s.strength != "not measured" {
                        let placed = ["(not measured)", " kyu or stronger", " kyu or weaker"];
                        assert!(placed.iter().any(|end| s.strength.ends_with(end)), "{}", s.strength);
                        continue;
                    }
                    assert_eq!(
                        s.strength,
                        said.unwrap_or("not measured".into()),
                        "level {} on {}",
                        level.level,
                        s.size
                    );
                }
            }
        }
    }

    #[test]
    fn unmeasured_levels_are_placed_by_their_measured_neighbours() {
        let on = |network: bool, level: u8, size: u8| {
            let levels = levels(network);
            let s = &levels[usize::from(level - 1)].strengths;
            s.iter().find(|s| s.size == size).unwrap().strength.clone()
        };
        assert_eq!(on(false, 1, 19), "about 30 kyu or weaker");
        assert_eq!(on(false, 8, 19), "about 4 kyu");
        assert_eq!(on(false, 9, 19), "about 1 kyu");
        assert_eq!(on(false, 10, 19), "stronger than level 9 (not measured)");
        assert_eq!(on(false, 4, 19), "about 18 kyu or weaker");
        assert_eq!(on(true, 6, 19), "about 3 kyu or stronger");
        assert_eq!(on(true, 7, 19), "stronger than level 6 (not measured)");
        // The network's levels follow the network's, the playout levels below them their own.
        assert_eq!(on(true, 5, 19), "about 13 kyu");
        assert_eq!(on(true, 5, 13), "about 8 kyu");
        assert_eq!(on(false, 8, 13), "stronger than level 7 (not measured)");
        assert_eq!(on(false, 4, 13), "weaker than level 5 (not measured)");
        assert_eq!(on(true, 7, 13), "not measured", "no network level measured on 13×13");
    }
}
