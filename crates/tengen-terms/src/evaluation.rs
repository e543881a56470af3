//! Evaluative names (terms.md §15): a pure mapping from the engine's evaluation record of a
//! move, and the board names it already has, to judgements such as 恶手 or 妙手.

use serde::{Deserialize, Serialize};

/// The evaluation record of §15. Points are area-scoring points, positive for the mover;
/// fields the engine could not supply are `None` and make the conditions that use them
/// false.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Eval {
    /// Points lost against the engine's best move (required).
    pub loss: f64,
    pub prior: Option<f64>,
    pub gap2: Option<f64>,
    pub tenuki_loss: Option<f64>,
    pub reply_dist: Option<f64>,
    pub good_replies: Option<f64>,
    pub best_dist: Option<f64>,
    pub prev_dist: Option<f64>,
    pub time_ratio: Option<f64>,
    pub winrate_before: Option<f64>,
    pub trap_loss: Option<f64>,
    pub trap_prior: Option<f64>,
    pub opp_best_prior: Option<f64>,
    pub novel: Option<bool>,
    pub reply_actual_dist: Option<f64>,
    pub next_self_dist: Option<f64>,
    /// For 急所 (§5.9): the distance from the move to the opponent's best move in the
    /// position before, had they been to play.
    pub opp_best_dist: Option<f64>,
}

const SOLID: &[&str] = &["接", "粘", "虎", "补", "立", "并", "尖", "长", "退", "双"];
const MODEST: &[&str] = &["退", "立", "尖", "虎", "补", "接", "粘", "并"];
const FIGHTING: &[&str] =
    &["断", "夹", "扳", "挖", "冲", "碰", "靠", "打入", "刺", "跨", "镇", "逼", "点", "打吃", "纽十字", "卡"];

/// The evaluative names of a move with evaluation `e` and board names `terms`, in the order
/// of §4.4 group 8 (急所 last).
#[must_use]
pub fn evaluative_names(e: &Eval, terms: &[&str]) -> Vec<&'static str> {
    let has = |list: &[&str]| terms.iter().any(|t| list.contains(t));
    let lt = |x: Option<f64>, k: f64| x.is_some_and(|x| x < k);
    let ge = |x: Option<f64>, k: f64| x.is_some_and(|x| x >= k);
    let le = |x: Option<f64>, k: f64| x.is_some_and(|x| x <= k);
    let eq = |x: Option<f64>, k: f64| x.is_some_and(|x| x == k);
    let loss = e.loss;
    let mid = (1.5..6.0).contains(&loss);
    let miao = loss < 0.5 && lt(e.prior, 0.05) && ge(e.gap2, 3.0);
    let sente = ge(e.tenuki_loss, 3.0) && le(e.reply_dist, 3.0);
    let mut out = Vec::new();
    let mut add = |cond: bool, name: &'static str| {
        if cond {
            out.push(name);
        }
    };
    add(loss >= 12.0, "大恶手");
    add(loss >= 6.0, "恶手");
    add(miao && lt(e.prior, 0.01) && ge(e.gap2, 6.0), "鬼手");
    add(miao, "妙手");
    let fighting = has(FIGHTING);
    add(
        (le(e.winrate_before, 0.30) && loss <= 3.0 && (fighting || terms.contains(&"打入")))
            || (loss <= 1.5 && lt(e.opp_best_prior, 0.10) && ge(e.trap_loss, 5.0)),
        "胜负手",
    );
    add(mid && ge(e.trap_loss, 6.0) && ge(e.trap_prior, 0.3), "嵌手");
    add(loss < 1.5 && lt(e.prior, 0.25) && fighting && !miao, "强手");
    add(loss >= 1.5 && ge(e.prior, 0.25), "俗手");
    add(mid && ((le(e.prev_dist, 2.0) && ge(e.best_dist, 4.0)) || le(e.time_ratio, 0.3)), "随手");
    add(mid && lt(e.tenuki_loss, 1.5) && ge(e.best_dist, 4.0), "缓手");
    add(mid, "疑问手");
    add(e.novel == Some(true) && loss < 0.5, "新手");
    add(sente && ge(e.tenuki_loss, 6.0) && eq(e.good_replies, 1.0), "命令手");
    add(sente, "先手");
    add(lt(e.tenuki_loss, 1.5), "后手");
    add(sente && le(e.reply_actual_dist, 2.0) && ge(e.next_self_dist, 5.0), "试应手");
    add(loss < 0.5 && lt(e.prior, 0.10) && has(MODEST), "涩手");
    add(loss < 0.5 && ge(e.prior, 0.25) && has(SOLID), "本手");
    add(loss < 0.5 && ge(e.gap2, 5.0) && le(e.opp_best_dist, 1.0), "急所");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(json: &str) -> Eval {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_examples_of_section_15() {
        assert_eq!(evaluative_names(&eval(r#"{"loss":8.5,"prior":0.02}"#), &[]), ["恶手"]);
        assert_eq!(
            evaluative_names(&eval(r#"{"loss":3.2,"prior":0.12,"tenuki_loss":0.3,"best_dist":8}"#), &["立"]),
            ["缓手", "疑问手", "后手"]
        );
        assert_eq!(evaluative_names(&eval(r#"{"loss":0.0,"prior":0.02,"gap2":3.5}"#), &["挖"]), ["妙手"]);
        assert_eq!(evaluative_names(&eval(r#"{"loss":0.3,"prior":0.35}"#), &["粘", "接"]), ["本手"]);
    }

    #[test]
    fn thresholds_are_inclusive_where_the_table_says() {
        assert_eq!(evaluative_names(&eval(r#"{"loss":12}"#), &[]), ["大恶手", "恶手"]);
        assert_eq!(evaluative_names(&eval(r#"{"loss":11.99}"#), &[]), ["恶手"]);
        assert_eq!(evaluative_names(&eval(r#"{"loss":6}"#), &[]), ["恶手"]);
        assert_eq!(evaluative_names(&eval(r#"{"loss":5.99}"#), &[]), ["疑问手"]);
        assert_eq!(evaluative_names(&eval(r#"{"loss":1.5}"#), &[]), ["疑问手"]);
        assert!(evaluative_names(&eval(r#"{"loss":1.49}"#), &[]).is_empty());
        // 鬼手 implies 妙手.
        assert_eq!(evaluative_names(&eval(r#"{"loss":0,"prior":0.005,"gap2":7}"#), &[]), ["鬼手", "妙手"]);
        // 命令手 implies 先手; between 1.5 and 3 neither 先手 nor 后手.
        assert_eq!(
            evaluative_names(&eval(r#"{"loss":0.2,"tenuki_loss":7,"reply_dist":1,"good_replies":1}"#), &[]),
            ["命令手", "先手"]
        );
        assert!(evaluative_names(&eval(r#"{"loss":0.2,"tenuki_loss":2}"#), &[]).is_empty());
        // Missing fields make their conditions false.
        assert!(evaluative_names(&eval(r#"{"loss":0.1}"#), &["立"]).is_empty());
    }

    #[test]
    fn unknown_fields_are_refused() {
        assert!(serde_json::from_str::<Eval>(r#"{"loss":1,"los":2}"#).is_err());
        assert!(serde_json::from_str::<Eval>(r#"{"prior":0.2}"#).is_err());
    }
}
