//! Writing a [`Game`] as an SGF record.

use std::collections::HashSet;

use sgf_parse::SgfNode;
use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use tengen_core::{Color, Game, KoRule, Move, Point, Rules, Scoring};

use crate::info::GameInfo;
use crate::record::Record;

fn sgf_point(p: Point, size: usize) -> SgfPoint {
    SgfPoint { x: p.col(), y: (size - 1 - usize::from(p.row())) as u8 }
}

fn text(s: &str) -> sgf_parse::SimpleText {
    sgf_parse::SimpleText { text: s.to_owned() }
}

/// The `RU` name of a rules value.
fn rules_name(rules: &Rules) -> &'static str {
    match (rules.scoring, rules.suicide, rules.ko) {
        (Scoring::Territory, _, _) => "Japanese",
        (Scoring::Area, true, _) => "Tromp-Taylor",
        (Scoring::Area, false, KoRule::Positional | KoRule::Situational | KoRule::Simple) => "Chinese",
    }
}

/// The record of a game: `GM[1] FF[4] CA[UTF-8]`, size, komi in points, `RU`, handicap and
/// setup stones (`HA`, `AB`, `AW`, `PL` when White starts without handicap), the players and
/// event from `info`, the result from the game's outcome (else `info.result`), then one node
/// per move, passes written `[]`.
///
/// ```
/// use tengen_core::{Game, Move, Rules};
/// use tengen_sgf::{GameInfo, write_game};
///
/// let mut game = Game::new(9, Rules::chinese()).unwrap();
/// game.play("E5".parse().unwrap()).unwrap();
/// game.play(Move::Pass).unwrap();
/// let sgf = write_game(&game, &GameInfo::default()).to_sgf();
/// assert!(sgf.starts_with("(;GM[1]FF[4]CA[UTF-8]"));
/// assert!(sgf.contains("KM[7.5]") && sgf.contains("RU[Chinese]") && sgf.contains(";B[ee];W[])"));
/// ```
#[must_use]
pub fn write_game(game: &Game, info: &GameInfo) -> Record {
    write_annotated(game, info, "", &[])
}

/// An SGF move annotation (`BM`, `DO`, `IT`, `TE`), which viewers such as Sabaki show as a
/// mark on the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `BM[1]`: a bad move.
    Bad,
    /// `BM[2]`: a very bad move.
    VeryBad,
    /// `DO[]`: a doubtful move.
    Doubtful,
    /// `IT[]`: an interesting move.
    Interesting,
    /// `TE[1]`: a good move (tesuji).
    Good,
    /// `TE[2]`: a very good move.
    VeryGood,
}

/// A comment (`C`) and a mark for one move of [`write_annotated`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// The comment; empty for none.
    pub comment: String,
    /// The mark, if any.
    pub mark: Option<Mark>,
}

/// Like [`write_game`], with a comment on the root (empty for none) and a [`Note`] for each
/// move, in order (moves beyond `notes` get none).
#[must_use]
pub fn write_annotated(game: &Game, info: &GameInfo, comment: &str, notes: &[Note]) -> Record {
    let start = game.start();
    let size = start.size();
    let mut props = vec![
        Prop::GM(1),
        Prop::FF(4),
        Prop::CA(text("UTF-8")),
        Prop::AP((text("tengen"), text(env!("CARGO_PKG_VERSION")))),
        Prop::SZ((size as u8, size as u8)),
        Prop::KM(game.rules().komi.points()),
        Prop::RU(text(rules_name(game.rules()))),
    ];
    if game.handicap() >= 2 {
        props.push(Prop::HA(game.handicap() as i64));
    }
    for (color, prop) in [(Color::Black, Prop::AB as fn(HashSet<SgfPoint>) -> Prop), (Color::White, Prop::AW)] {
        let stones: HashSet<SgfPoint> =
            start.points().filter(|&p| start.get(p) == Some(color)).map(|p| sgf_point(p, size)).collect();
        if !stones.is_empty() {
            props.push(prop(stones));
        }
    }
    let first = game.moves().first().map(|&(c, _)| c);
    if game.handicap() < 2 && first == Some(Color::White) {
        props.push(Prop::PL(sgf_parse::Color::White));
    }
    let strings = [
        (&info.black, Prop::PB as fn(sgf_parse::SimpleText) -> Prop),
        (&info.white, Prop::PW),
        (&info.black_rank, Prop::BR),
        (&info.white_rank, Prop::WR),
        (&info.date, Prop::DT),
        (&info.event, Prop::EV),
        (&info.round, Prop::RO),
        (&info.overtime, Prop::OT),
    ];
    for (value, prop) in strings {
        if let Some(v) = value {
            props.push(prop(text(v)));
        }
    }
    if let Some(t) = info.time {
        props.push(Prop::TM(t));
    }
    match (game.outcome(), &info.result) {
        (Some(outcome), _) => props.push(Prop::RE(text(&outcome.result_points()))),
        (None, Some(re)) => props.push(Prop::RE(text(re))),
        (None, None) => {}
    }

    if !comment.is_empty() {
        props.push(Prop::C(sgf_parse::Text { text: comment.to_owned() }));
    }

    // Moves, last node first, so that each node can own its child.
    let mut child: Option<SgfNode<Prop>> = None;
    for (i, &(color, mv)) in game.moves().iter().enumerate().rev() {
        let m = match mv {
            Move::Pass => SgfMove::Pass,
            Move::Play(p) => SgfMove::Move(sgf_point(p, size)),
        };
        let mut node = vec![if color == Color::Black { Prop::B(m) } else { Prop::W(m) }];
        if let Some(note) = notes.get(i) {
            if !note.comment.is_empty() {
                node.push(Prop::C(sgf_parse::Text { text: note.comment.clone() }));
            }
            node.extend(note.mark.map(|mark| match mark {
                Mark::Bad => Prop::BM(sgf_parse::Double::One),
                Mark::VeryBad => Prop::BM(sgf_parse::Double::Two),
                Mark::Doubtful => Prop::DO,
                Mark::Interesting => Prop::IT,
                Mark::Good => Prop::TE(sgf_parse::Double::One),
                Mark::VeryGood => Prop::TE(sgf_parse::Double::Two),
            }));
        }
        child = Some(SgfNode::new(node, child.into_iter().collect(), false));
    }
    Record::from_root(SgfNode::new(props, child.into_iter().collect(), true))
}

#[cfg(test)]
mod annotated_tests {
    use super::*;
    use tengen_core::Rules;

    #[test]
    fn comments_and_marks_travel_and_escape() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        for v in ["E5", "C3", "G7"] {
            game.play(Move::Play(v.parse().unwrap())).unwrap();
        }
        let notes = [
            Note { comment: "天元 [center] \\ ok".into(), mark: Some(Mark::Good) },
            Note { comment: String::new(), mark: Some(Mark::VeryBad) },
        ];
        let sgf = write_annotated(&game, &GameInfo::default(), "review: 3 moves", &notes).to_sgf();
        assert!(sgf.contains(r"C[review\: 3 moves]"), "{sgf}");
        assert!(sgf.contains(r";B[ee]C[天元 [center\] \\ ok]TE[1]"), "{sgf}");
        assert!(sgf.contains(";W[cg]BM[2];B[gc])"), "{sgf}");
        // It reads back with the same moves and the comment intact.
        let back = Record::read(&sgf).unwrap();
        let replay = back.replay(crate::IllegalMoves::Stop).unwrap();
        assert_eq!(replay.game.moves(), game.moves());
        let first = back.main_line().nth(1).unwrap();
        assert!(first.properties().any(|p| matches!(p, Prop::C(t) if t.text == "天元 [center] \\ ok")));
    }
}
