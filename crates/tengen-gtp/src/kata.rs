//! KataGo's rules syntax (`kata-set-rules`, `kata-get-rules`): presets and the JSON object.

use serde_json::{Value, json};
use tengen_core::{HandicapBonus, KoRule, Rules, Scoring};

/// The rules of a KataGo preset or JSON object, with `friendlyPassOk`; an error names what
/// tengen does not support rather than substituting something else.
pub(crate) fn parse(text: &str, komi: tengen_core::Komi) -> Result<(Rules, bool), String> {
    let text = text.trim();
    let object: Value = if text.starts_with('{') {
        serde_json::from_str(text).map_err(|e| format!("rules JSON: {e}"))?
    } else {
        match text.to_ascii_lowercase().as_str() {
            "chinese" => {
                json!({"ko":"SIMPLE","scoring":"AREA","tax":"NONE","suicide":false,"hasButton":false,"whiteHandicapBonus":"N","friendlyPassOk":true})
            }
            "chinese-ogs" | "chinese-kgs" => {
                json!({"ko":"POSITIONAL","scoring":"AREA","tax":"NONE","suicide":false,"hasButton":false,"whiteHandicapBonus":"N","friendlyPassOk":true})
            }
            "tromp-taylor" => {
                json!({"ko":"POSITIONAL","scoring":"AREA","tax":"NONE","suicide":true,"hasButton":false,"whiteHandicapBonus":"0","friendlyPassOk":false})
            }
            "japanese" | "korean" => {
                return Err(format!(
                    "{text} rules need the seki tax (points in seki are no territory), which tengen does not count yet"
                ));
            }
            other => {
                return Err(format!(
                    "unknown rules preset {other:?} (chinese, chinese-ogs, tromp-taylor, or a JSON object)"
                ));
            }
        }
    };
    let field = |name: &str| object.get(name);
    let ko = match field("ko").and_then(Value::as_str).unwrap_or("POSITIONAL") {
        "POSITIONAL" => KoRule::Positional,
        "SITUATIONAL" => KoRule::Situational,
        "SIMPLE" => KoRule::Simple,
        other => return Err(format!("ko rule {other} is not supported (POSITIONAL, SITUATIONAL, SIMPLE)")),
    };
    let scoring = match field("scoring").and_then(Value::as_str).unwrap_or("AREA") {
        "AREA" => Scoring::Area,
        "TERRITORY" => Scoring::Territory,
        other => return Err(format!("scoring {other} is not supported (AREA, TERRITORY)")),
    };
    match field("tax").and_then(Value::as_str).unwrap_or("NONE") {
        "NONE" => {}
        other => return Err(format!("tax {other} is not supported: tengen counts seki points like any other")),
    }
    if field("hasButton").and_then(Value::as_bool).unwrap_or(false) {
        return Err("button Go (hasButton) is not supported".into());
    }
    let handicap_bonus = match field("whiteHandicapBonus").and_then(Value::as_str).unwrap_or("0") {
        "0" => HandicapBonus::Zero,
        "N-1" => HandicapBonus::NMinusOne,
        "N" => HandicapBonus::N,
        other => return Err(format!("whiteHandicapBonus {other} is not supported (0, N-1, N)")),
    };
    let suicide =
        field("suicide").or_else(|| field("multiStoneSuicideLegal")).and_then(Value::as_bool).unwrap_or(false);
    let friendly = field("friendlyPassOk").and_then(Value::as_bool).unwrap_or(true);
    Ok((Rules { ko, suicide, scoring, komi, handicap_bonus }, friendly))
}

/// The rules as KataGo's JSON object.
pub(crate) fn to_json(rules: &Rules, friendly_pass_ok: bool) -> String {
    json!({
        "ko": match rules.ko { KoRule::Positional => "POSITIONAL", KoRule::Situational => "SITUATIONAL", KoRule::Simple => "SIMPLE" },
        "scoring": if rules.scoring == Scoring::Area { "AREA" } else { "TERRITORY" },
        "tax": "NONE",
        "suicide": rules.suicide,
        "hasButton": false,
        "whiteHandicapBonus": match rules.handicap_bonus { HandicapBonus::Zero => "0", HandicapBonus::NMinusOne => "N-1", HandicapBonus::N => "N" },
        "friendlyPassOk": friendly_pass_ok,
    })
    .to_string()
}
