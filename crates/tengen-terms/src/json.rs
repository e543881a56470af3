//! The JSON interface of terms.md §3: one request object in, one answer object out. This is
//! what `tengen explain` reads and writes line by line.

use serde::{Deserialize, Serialize};
use tengen_core::{Color, Game, IllegalMove, Move, Point, Setup};

use crate::commentary::Commentary;
use crate::evaluation::{Eval, evaluative_names};
use crate::space::{eye, eye_space, point_names, seki_partners};
use crate::term::{Term, rank, term};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    size: Option<usize>,
    #[serde(default)]
    black: Vec<String>,
    #[serde(default)]
    white: Vec<String>,
    #[serde(default)]
    prelude: Vec<(String, String)>,
    to_play: Option<String>,
    #[serde(rename = "move")]
    mv: Option<String>,
    eval: Option<Eval>,
    region: Option<String>,
    eye_point: Option<String>,
    point: Option<String>,
    color: Option<String>,
    chain_point: Option<String>,
    terms: Option<Vec<String>>,
}

#[derive(Serialize)]
struct MoveAnswer {
    #[serde(rename = "move")]
    mv: String,
    color: &'static str,
    size: usize,
    legal: bool,
    captured: Vec<String>,
    liberties: Liberties,
    terms: Vec<Term>,
}

#[derive(Serialize)]
struct Liberties {
    own: usize,
    adjacent_opponent: Vec<AdjacentAnswer>,
}

#[derive(Serialize)]
struct AdjacentAnswer {
    chain: String,
    before: usize,
    after: usize,
}

#[derive(Serialize)]
struct IllegalAnswer {
    #[serde(rename = "move")]
    mv: String,
    color: &'static str,
    legal: bool,
    reason: &'static str,
}

fn letter(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

fn point(s: &str) -> Result<Point, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn color(s: &str) -> Result<Color, String> {
    s.parse().map_err(|_| format!("not a colour: {s:?} (B or W)"))
}

/// Answers one request line (terms.md §3.1) with one JSON value: the answer, or
/// `{"error": …}` for a malformed request. Never panics on any input.
#[must_use]
pub fn answer(line: &str) -> String {
    match answer_value(line) {
        Ok(v) => v,
        Err(e) => serde_json::json!({ "error": e }).to_string(),
    }
}

/// Serialises an answer, keeping its fields in declaration order.
fn out<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

#[derive(Serialize)]
struct SpaceAnswer {
    region: String,
    owner: &'static str,
    size_points: usize,
    points: Vec<String>,
    shape: Option<Term>,
    vital: Vec<String>,
}

#[derive(Serialize)]
struct EyeAnswer {
    eye_point: String,
    owner: Option<&'static str>,
    eye: Option<Term>,
}

#[derive(Serialize)]
struct PointAnswer {
    point: String,
    color: &'static str,
    properties: Vec<Term>,
}

#[derive(Serialize)]
struct StatusAnswer {
    chain_point: String,
    status: Option<Term>,
    seki_with: Vec<String>,
}

#[derive(Serialize)]
struct TermsAnswer {
    terms: Vec<Term>,
}

fn answer_value(line: &str) -> Result<String, String> {
    let req: Request = serde_json::from_str(line).map_err(|e| format!("bad request: {e}"))?;
    if req.mv.is_some() {
        return name_request(&req);
    }
    if let (Some(e), Some(terms)) = (&req.eval, &req.terms) {
        let given: Vec<&str> = terms.iter().map(String::as_str).collect();
        let names: Vec<Term> = evaluative_names(e, &given).into_iter().map(term).collect();
        return out(&TermsAnswer { terms: names });
    }
    let setup = setup(&req, Color::Black)?;
    let board = setup.board().map_err(|e| e.to_string())?;
    let on_board = |s: &str| -> Result<Point, String> {
        let p = point(s)?;
        if board.contains(p) { Ok(p) } else { Err(format!("{p} is off the {0}×{0} board", board.size())) }
    };
    if let Some(r) = &req.region {
        let r = on_board(r)?;
        let Some(space) = eye_space(&board, r) else { return Ok("null".into()) };
        return out(&SpaceAnswer {
            region: r.to_string(),
            owner: letter(space.owner),
            size_points: space.points.len(),
            points: space.points.iter().map(ToString::to_string).collect(),
            shape: space.shape.map(term),
            vital: space.vital.iter().map(ToString::to_string).collect(),
        });
    }
    if let Some(e) = &req.eye_point {
        let e = on_board(e)?;
        let found = eye(&board, e);
        return out(&EyeAnswer {
            eye_point: e.to_string(),
            owner: found.map(|f| letter(f.0)),
            eye: found.map(|f| term(if f.1 { "真眼" } else { "假眼" })),
        });
    }
    if let Some(p) = &req.point {
        let p = on_board(p)?;
        let c = color(req.color.as_deref().ok_or("a point request needs \"color\"")?)?;
        if !board.is_empty(p) {
            return Err(format!("{p} is not empty"));
        }
        let names: Vec<Term> = point_names(&board, p, c).into_iter().map(term).collect();
        return out(&PointAnswer { point: p.to_string(), color: letter(c), properties: names });
    }
    if let Some(a) = &req.chain_point {
        let a = on_board(a)?;
        if board.is_empty(a) {
            return Err(format!("{a} is empty: a chain point needs a stone"));
        }
        let partners = seki_partners(&board, a);
        return out(&StatusAnswer {
            chain_point: a.to_string(),
            status: (!partners.is_empty()).then(|| term("双活")),
            seki_with: partners.iter().map(ToString::to_string).collect(),
        });
    }
    Err("unknown request: expected \"move\", \"region\", \"eye_point\", \"point\", \"chain_point\" or \"eval\" with \"terms\"".into())
}

fn setup(req: &Request, to_move: Color) -> Result<Setup, String> {
    let size = req.size.ok_or("\"size\" is missing")?;
    let mut setup = Setup::new(size);
    setup.black = req.black.iter().map(|s| point(s)).collect::<Result<_, _>>()?;
    setup.white = req.white.iter().map(|s| point(s)).collect::<Result<_, _>>()?;
    setup.to_move = to_move;
    Ok(setup)
}

fn name_request(req: &Request) -> Result<String, String> {
    let first = match (req.prelude.first(), &req.to_play) {
        (Some((c, _)), _) => color(c)?,
        (None, Some(c)) => color(c)?,
        (None, None) => return Err("\"to_play\" is missing".into()),
    };
    let game = Game::try_from(setup(req, first)?).map_err(|e| e.to_string())?;
    let mut commentary = Commentary::new(&game);
    for (i, (c, m)) in req.prelude.iter().enumerate() {
        let c = color(c)?;
        if c != commentary.game().to_move() {
            return Err(format!("prelude move {}: colours must alternate", i + 1));
        }
        let mv: Move = m.parse().map_err(|_| format!("prelude move {}: not a move: {m:?}", i + 1))?;
        if let Move::Play(p) = mv
            && !commentary.game().board().contains(p)
        {
            return Err(format!("prelude move {}: {p} is off the board", i + 1));
        }
        commentary.play(c, mv).map_err(|e| format!("prelude move {}: {e}", i + 1))?;
    }
    let c = commentary.game().to_move();
    if let Some(tp) = &req.to_play
        && color(tp)? != c
    {
        return Err(format!("\"to_play\" is {tp} but {} is due after the prelude", letter(c)));
    }
    let mv_text = req.mv.as_deref().unwrap_or_default();
    let p = point(mv_text)?;
    let size = commentary.game().board().size();
    if !commentary.game().board().contains(p) {
        return Err(format!("{p} is off the {size}×{size} board"));
    }
    let names = match commentary.name(c, p) {
        Ok(n) => n,
        Err(e) => {
            let reason = match e {
                IllegalMove::Occupied(_) => "occupied",
                IllegalMove::Suicide(_) => "suicide",
                IllegalMove::Ko(_) | IllegalMove::Superko(_) => "superko",
                IllegalMove::OffBoard(_) => return Err(e.to_string()),
            };
            let a = IllegalAnswer { mv: p.to_string(), color: letter(c), legal: false, reason };
            return out(&a);
        }
    };
    let mut terms = names.terms;
    if let Some(e) = &req.eval {
        if terms.iter().any(|t| t.zh == "找劫")
            && e.tenuki_loss.is_some_and(|t| t >= 3.0)
            && !terms.iter().any(|t| t.zh == "劫材")
        {
            terms.push(term("劫材"));
            terms.sort_by_key(|t| rank(&t.zh));
        }
        let given: Vec<&str> = terms.iter().map(|t| t.zh.as_str()).collect();
        let judged: Vec<Term> = evaluative_names(e, &given).into_iter().map(term).collect();
        terms.extend(judged);
    }
    let a = MoveAnswer {
        mv: p.to_string(),
        color: letter(c),
        size,
        legal: true,
        captured: names.captured.iter().map(ToString::to_string).collect(),
        liberties: Liberties {
            own: names.own_liberties,
            adjacent_opponent: names
                .adjacent
                .iter()
                .map(|a| AdjacentAnswer { chain: a.stone.to_string(), before: a.before, after: a.after })
                .collect(),
        },
        terms,
    };
    out(&a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_of_section_3_2() {
        let a = answer(r#"{"size":19,"black":[],"white":["D4"],"to_play":"B","move":"C6"}"#);
        assert_eq!(
            a,
            r#"{"move":"C6","color":"B","size":19,"legal":true,"captured":[],"liberties":{"own":4,"adjacent_opponent":[]},"terms":[{"zh":"小飞挂","pinyin":"xiǎofēiguà","en":"low knight's approach","ja":"kogeima-gakari","kind":"opening"},{"zh":"挂","pinyin":"guà","en":"approach","ja":"kakari","kind":"opening"},{"zh":"边","pinyin":"biān","en":"side","ja":"hen","kind":"region"}]}"#
        );
    }

    #[test]
    fn illegal_and_malformed_requests() {
        let a = answer(r#"{"size":9,"black":["D4"],"white":[],"to_play":"W","move":"D4"}"#);
        assert_eq!(a, r#"{"move":"D4","color":"W","legal":false,"reason":"occupied"}"#);
        let a = answer(r#"{"size":9,"black":["A2","B1"],"white":[],"to_play":"W","move":"A1"}"#);
        assert!(a.contains(r#""reason":"suicide""#), "{a}");
        for bad in [
            "not json",
            r#"{"size":9,"black":["D4","D4"],"white":[],"to_play":"B","move":"E5"}"#,
            r#"{"size":9,"black":["Z9"],"white":[],"to_play":"B","move":"E5"}"#,
            r#"{"size":9,"black":["A1"],"white":["A2","B1"],"to_play":"B","move":"E5"}"#,
            r#"{"size":9,"black":[],"white":[],"to_play":"B","move":"K10"}"#,
            r#"{"size":9,"black":[],"white":[],"to_play":"X","move":"E5"}"#,
            r#"{"size":9,"black":[],"white":[],"prelude":[["B","E5"],["B","D4"]],"move":"C3"}"#,
            r#"{"size":9,"black":[],"white":[],"prelude":[["B","E5"]],"to_play":"B","move":"C3"}"#,
            r#"{"size":9,"black":[],"white":[],"to_play":"B","move":"E5","surprise":1}"#,
            r#"{"size":9}"#,
        ] {
            let a = answer(bad);
            assert!(a.starts_with(r#"{"error":"#), "{bad} -> {a}");
        }
    }

    #[test]
    fn superko_in_the_prelude_history() {
        // White takes the ko at D5, Black takes back at E5: White may not retake at once.
        let retake = r#"{"size":9,"black":["D6","D4","C5"],"white":["E6","E4","F5"],
            "prelude":[["W","D5"],["B","E5"]],"move":"D5"}"#;
        assert_eq!(answer(retake), r#"{"move":"D5","color":"W","legal":false,"reason":"superko"}"#);
    }
}
