//! The variations of a record as lines of moves from its main line, for a reader that shows
//! them as a tree of moves (the page's variation tree).

use sgf_parse::SgfNode;
use sgf_parse::go::Prop;
use tengen_core::{Color, Move};

use crate::record::Record;
use crate::replay::to_move;
use crate::write::has_move;

/// A variation: moves after the main line's first `at` moves, to a leaf of the record's tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves of the main line before it.
    pub at: usize,
    /// Its moves.
    pub moves: Vec<(Color, Move)>,
}

/// The move of a node, if it holds one that reads on a board of `size`.
fn node_move(node: &SgfNode<Prop>, size: usize) -> Option<(Color, Move)> {
    node.properties().find_map(|p| match p {
        Prop::B(m) => to_move(*m, size).ok().map(|m| (Color::Black, m)),
        Prop::W(m) => to_move(*m, size).ok().map(|m| (Color::White, m)),
        _ => None,
    })
}

/// A node of a variation and the moves before it.
type Branch<'a> = (&'a SgfNode<Prop>, Vec<(Color, Move)>);

/// Whether a node changes the board by setup (a line of moves cannot say it).
fn has_setup(node: &SgfNode<Prop>) -> bool {
    node.properties().any(|p| matches!(p, Prop::AB(_) | Prop::AW(_) | Prop::AE(_)))
}

impl Record {
    /// The record's variations on a board of `size`: one line for each leaf of the tree off
    /// the main line, in the record's order, at most `max`. A line ends before a node with
    /// setup stones or a move that does not read; lines that end alike are given once.
    #[must_use]
    pub fn variation_lines(&self, size: usize, max: usize) -> Vec<Line> {
        let mut out: Vec<Line> = Vec::new();
        let mut played = 0;
        for node in self.main_line() {
            played += usize::from(has_move(node));
            // Each branch off the main line, walked without recursion (a record may be deep).
            let mut stack: Vec<Branch<'_>> =
                node.children.iter().skip(1).rev().map(|child| (child, Vec::new())).collect();
            while let Some((node, mut moves)) = stack.pop() {
                if out.len() >= max {
                    return out;
                }
                let stop = has_setup(node);
                if !stop && let Some(m) = node_move(node, size) {
                    moves.push(m);
                }
                if stop || node.children.is_empty() {
                    if !moves.is_empty() && !out.iter().any(|l| l.at == played && l.moves == moves) {
                        out.push(Line { at: played, moves });
                    }
                    continue;
                }
                for child in node.children.iter().rev() {
                    stack.push((child, moves.clone()));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(at: usize, moves: &[(Color, &str)]) -> Line {
        Line { at, moves: moves.iter().map(|(c, m)| (*c, m.parse().unwrap())).collect() }
    }

    #[test]
    fn each_leaf_off_the_main_line_is_a_line_from_its_move() {
        use Color::{Black as B, White as W};
        let record = Record::read(
            "(;GM[1]SZ[9](;B[ee];W[cc](;B[gg];W[gc])(;B[gc](;W[gg])(;W[cg]C[x])))(;B[cc];AB[aa];W[ee])(;B[ii]))",
        )
        .unwrap();
        assert_eq!(
            record.variation_lines(9, 10),
            [
                line(0, &[(B, "C7")]),
                line(0, &[(B, "J1")]),
                line(2, &[(B, "G7"), (W, "G3")]),
                line(2, &[(B, "G7"), (W, "C3")]),
            ]
        );
        assert_eq!(record.variation_lines(9, 1).len(), 1);
        assert!(Record::read("(;GM[1]SZ[9];B[ee];W[cc])").unwrap().variation_lines(9, 10).is_empty());
    }
}
