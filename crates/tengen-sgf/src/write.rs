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
        let mut node = vec![move_prop(color, mv, size)];
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

/// The `B` or `W` property of a move, passes written `[]`.
fn move_prop(color: Color, mv: Move, size: usize) -> Prop {
    let m = match mv {
        Move::Pass => SgfMove::Pass,
        Move::Play(p) => SgfMove::Move(sgf_point(p, size)),
    };
    if color == Color::Black { Prop::B(m) } else { Prop::W(m) }
}

/// The child `found` of `node`, or a new last child holding `prop`.
fn step(node: &mut SgfNode<Prop>, found: Option<usize>, prop: Prop) -> &mut SgfNode<Prop> {
    let index = found.unwrap_or_else(|| {
        node.children.push(SgfNode::new(vec![prop], Vec::new(), false));
        node.children.len() - 1
    });
    &mut node.children[index]
}

/// Whether `node` holds a move.
pub(crate) fn has_move(node: &SgfNode<Prop>) -> bool {
    node.properties().any(|p| matches!(p, Prop::B(_) | Prop::W(_)))
}

/// A line of moves cannot join a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the record's main line has {moves} moves, not {at}")]
pub struct NoSuchMove {
    /// The move the line was to follow.
    pub at: usize,
    /// The moves of the main line.
    pub moves: usize,
}

impl Record {
    /// Adds `line` as a variation after the main line's first `at` moves (after any nodes
    /// without a move that follow them): where a child already holds the line's next move,
    /// the line goes on through it, so that lines sharing a start share its nodes; new nodes
    /// come after the existing children, so the main line stays first. A line after the main
    /// line's last move branches one move earlier, repeating that move, so that the main line
    /// keeps the game's length (a reader would show a first child as more moves of the game).
    ///
    /// # Errors
    /// [`NoSuchMove`] when the main line has fewer than `at` moves.
    pub fn add_line(&mut self, at: usize, line: &[(Color, Move)], size: usize) -> Result<(), NoSuchMove> {
        let moves = self.root.main_variation().filter(|n| has_move(n)).count();
        if at > moves || (at == 0 && has_move(&self.root)) {
            return Err(NoSuchMove { at, moves });
        }
        let after_the_end = at == moves && at > 0 && !line.is_empty();
        // First-child steps from the root to the node the line follows (after the end: to the
        // node of the last move, whose parent the line leaves from).
        let mut depth = 0;
        let (mut node, mut played) = (&self.root, usize::from(has_move(&self.root)));
        loop {
            let next_is_setup = node.children.first().is_some_and(|c| !has_move(c));
            if played == at && (after_the_end || !next_is_setup) {
                break;
            }
            let Some(child) = node.children.first() else { break };
            played += usize::from(has_move(child));
            node = child;
            depth += 1;
        }
        let repeated = if after_the_end {
            depth -= 1;
            node.properties().find(|p| matches!(p, Prop::B(_) | Prop::W(_))).cloned()
        } else {
            None
        };
        let mut node = &mut self.root;
        for _ in 0..depth {
            node = &mut node.children[0];
        }
        if let Some(prop) = repeated {
            // The last move again, beside the main line's (never through it).
            let found = node.children.iter().skip(1).position(|c| c.properties().any(|p| *p == prop)).map(|i| i + 1);
            node = step(node, found, prop);
        }
        for &(color, mv) in line {
            let prop = move_prop(color, mv, size);
            let found = node.children.iter().position(|c| c.properties().any(|p| *p == prop));
            node = step(node, found, prop);
        }
        Ok(())
    }

    /// The comments (`C`) of the main line by the number of moves played when they are read:
    /// 0 for the root's and those of nodes before the first move, `n` for the node of move
    /// `n` and the nodes without a move after it. Comments of one number are joined by a
    /// blank line.
    #[must_use]
    pub fn comments(&self) -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = Vec::new();
        let mut played = 0;
        for node in self.main_line() {
            played += usize::from(has_move(node));
            for prop in node.properties() {
                if let Prop::C(c) = prop {
                    let text = c.text.trim();
                    if text.is_empty() {
                        continue;
                    }
                    match out.last_mut() {
                        Some((n, t)) if *n == played => {
                            t.push_str("\n\n");
                            t.push_str(text);
                        }
                        _ => out.push((played, text.to_owned())),
                    }
                }
            }
        }
        out
    }
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

    fn mv(c: Color, v: &str) -> (Color, Move) {
        (c, v.parse().unwrap())
    }

    #[test]
    fn lines_join_the_tree_after_their_move_and_share_their_start() {
        let text = "(;GM[1]FF[4]SZ[9]KM[7.5]C[before];B[ee];W[cc]C[a comment];B[gg])";
        let mut record = Record::read(text).unwrap();
        record.add_line(1, &[mv(Color::White, "G3"), mv(Color::Black, "C7")], 9).unwrap();
        record.add_line(1, &[mv(Color::White, "G3"), mv(Color::Black, "D7")], 9).unwrap();
        // After the last move: a branch one move earlier that repeats it; a second line from
        // there shares the repeated move.
        record.add_line(3, &[mv(Color::White, "pass")], 9).unwrap();
        record.add_line(3, &[mv(Color::White, "A1")], 9).unwrap();
        record.add_line(0, &[mv(Color::Black, "C3")], 9).unwrap();
        let sgf = record.to_sgf();
        assert_eq!(
            sgf,
            "(;GM[1]FF[4]SZ[9]KM[7.5]C[before](;B[ee](;W[cc]C[a comment](;B[gg])(;B[gg](;W[])(;W[ai])))\
             (;W[gg](;B[cc])(;B[dc])))(;B[cg]))"
        );
        // The main line keeps the game's length.
        let back = Record::read(&sgf).unwrap();
        let replay = back.replay(crate::IllegalMoves::Stop).unwrap();
        assert_eq!(replay.game.moves().len(), 3);
        assert_eq!(record.add_line(4, &[mv(Color::White, "A1")], 9), Err(NoSuchMove { at: 4, moves: 3 }));
    }

    #[test]
    fn comments_are_numbered_by_the_moves_before_them() {
        let record =
            Record::read("(;SZ[9]C[the game];C[setup]AB[aa];B[ee]C[first];W[cc];C[after two]C[];B[gg])").unwrap();
        assert_eq!(
            record.comments(),
            vec![(0, "the game\n\nsetup".to_owned()), (1, "first".to_owned()), (2, "after two".to_owned())]
        );
    }
}
