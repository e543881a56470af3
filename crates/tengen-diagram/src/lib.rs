//! Game diagrams (棋谱) as printed books show them: the position before a range of moves with
//! its stones plain, the moves of the range numbered on their points, and, under the board,
//! the moves that could not be numbered where they were played because the point already shows
//! a stone: `57 = 43` (57 was played where 43 stands), `60 at D4` (on the point of a plain
//! stone), `58 pass`.
//!
//! ```
//! use tengen_core::{Game, Move, Rules};
//! use tengen_diagram::Diagram;
//!
//! let mut game = Game::new(9, Rules::chinese()).unwrap();
//! for v in ["E5", "D5", "C5", "E4", "D4", "E6", "D6"] {
//!     game.play(v.parse().unwrap()).unwrap();
//! }
//! let diagram = Diagram::new(&game, 2..=7, false).unwrap();
//! assert_eq!(diagram.numbered().len(), 6);
//! assert!(diagram.to_svg(400).contains(r#"data-label="7""#));
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::RangeInclusive;

use tengen_core::handicap::star_points;
use tengen_core::{Color, Game, Move, Point};

/// What a diagram shows on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A stone that was there before the range.
    Plain(Color),
    /// The move of the range with this label.
    Numbered(Color, u32),
}

/// A move of the range that is not drawn on its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// `57 = 43`: played on the point where numbered stone `earlier` is shown.
    SameAs {
        /// The move's label.
        label: u32,
        /// The label shown on that point.
        earlier: u32,
    },
    /// `60 at D4`: played on the point of a plain stone.
    At {
        /// The move's label.
        label: u32,
        /// The point.
        point: Point,
    },
    /// `58 pass`.
    Pass {
        /// The move's label.
        label: u32,
        /// Who passed.
        color: Color,
    },
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::SameAs { label, earlier } => write!(f, "{label} = {earlier}"),
            Note::At { label, point } => write!(f, "{label} at {point}"),
            Note::Pass { label, .. } => write!(f, "{label} pass"),
        }
    }
}

/// The range of moves asked is not in the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("moves {first}-{last} are not in a game of {played} moves")]
pub struct RangeError {
    /// First move asked (1-based).
    pub first: usize,
    /// Last move asked.
    pub last: usize,
    /// Moves the game has.
    pub played: usize,
}

/// A diagram of a range of moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    size: usize,
    marks: Vec<(Point, Mark)>,
    notes: Vec<Note>,
    title: Option<String>,
}

impl Diagram {
    /// The diagram of moves `range` (1-based, inclusive) of `game`: the position before the
    /// first is drawn plain, the moves numbered with their move numbers — or from 1 when
    /// `renumber`.
    ///
    /// # Errors
    /// [`RangeError`] when the range is empty or goes past the last move.
    pub fn new(game: &Game, range: RangeInclusive<usize>, renumber: bool) -> Result<Diagram, RangeError> {
        let (first, last) = (*range.start(), *range.end());
        let played = game.moves().len();
        if first == 0 || first > last || last > played {
            return Err(RangeError { first, last, played });
        }
        // The position before the first move of the range.
        let before = game.truncated(first - 1);
        let board = before.board();
        let mut shown: HashMap<Point, Mark> =
            board.points().filter_map(|p| board.get(p).map(|c| (p, Mark::Plain(c)))).collect();
        let mut order: Vec<Point> = board.points().filter(|&p| board.get(p).is_some()).collect();
        let mut notes = Vec::new();
        for (k, &(color, mv)) in game.moves().iter().enumerate().take(last).skip(first - 1) {
            let label = if renumber { k + 2 - first } else { k + 1 } as u32;
            match mv {
                Move::Pass => notes.push(Note::Pass { label, color }),
                Move::Play(p) => match shown.get(&p) {
                    None => {
                        shown.insert(p, Mark::Numbered(color, label));
                        order.push(p);
                    }
                    Some(Mark::Numbered(_, earlier)) => notes.push(Note::SameAs { label, earlier: *earlier }),
                    Some(Mark::Plain(_)) => notes.push(Note::At { label, point: p }),
                },
            }
        }
        let marks = order.into_iter().map(|p| (p, shown[&p])).collect();
        Ok(Diagram { size: board.size(), marks, notes, title: None })
    }

    /// Sets the title drawn above the board.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Diagram {
        self.title = Some(title.into());
        self
    }

    /// Every marked point: plain stones first, then the numbered ones in order.
    #[must_use]
    pub fn marks(&self) -> &[(Point, Mark)] {
        &self.marks
    }

    /// The numbered stones: point, colour, label.
    #[must_use]
    pub fn numbered(&self) -> Vec<(Point, Color, u32)> {
        self.marks
            .iter()
            .filter_map(|&(p, m)| match m {
                Mark::Numbered(c, n) => Some((p, c, n)),
                Mark::Plain(_) => None,
            })
            .collect()
    }

    /// The notes under the board, in move order.
    #[must_use]
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The diagram as an SVG document `width_px` wide: board, coordinates, star points, stones
    /// with their numbers, the title above and the notes below. Each stone is a
    /// `<g class="stone" data-point="D4" data-color="black" data-label="57">` (no label on
    /// plain stones), each note a `<text class="note">`, so that tools can read the diagram
    /// back.
    #[must_use]
    pub fn to_svg(&self, width_px: u32) -> String {
        let n = self.size as f64;
        let cell = f64::from(width_px.max(120)) / (n + 1.0);
        let margin = cell;
        let title_h = if self.title.is_some() { cell * 0.9 } else { 0.0 };
        let notes_per_line = ((n + 1.0) * cell / (cell * 2.6)).floor().max(1.0) as usize;
        let note_lines = self.notes.len().div_ceil(notes_per_line);
        let notes_h = note_lines as f64 * cell * 0.6 + if note_lines > 0 { cell * 0.4 } else { 0.0 };
        let width = (n + 1.0) * cell;
        let height = title_h + (n + 1.0) * cell + notes_h;
        let x = |col: u8| margin + f64::from(col) * cell;
        let y = |row: u8| title_h + margin + (n - 1.0 - f64::from(row)) * cell;
        let font = "font-family=\"DejaVu Sans, Noto Sans CJK SC, sans-serif\"";
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}">"#
        );
        let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
        if let Some(t) = &self.title {
            let _ = writeln!(
                s,
                r#"<text class="title" x="{:.1}" y="{:.1}" font-size="{:.1}" text-anchor="middle" {font}>{}</text>"#,
                width / 2.0,
                title_h * 0.75,
                cell * 0.45,
                escape(t)
            );
        }
        let _ = writeln!(
            s,
            r##"<rect class="board" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#e3b86a"/>"##,
            margin - cell * 0.5,
            title_h + margin - cell * 0.5,
            n * cell,
            n * cell
        );
        let line = (cell * 0.035).max(0.6);
        for i in 0..self.size as u8 {
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black" stroke-width="{line:.2}"/>"#,
                x(0),
                y(i),
                x(self.size as u8 - 1),
                y(i)
            );
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black" stroke-width="{line:.2}"/>"#,
                x(i),
                y(0),
                x(i),
                y(self.size as u8 - 1)
            );
            let p = Point::new(i, i).expect("on the board");
            let fs = cell * 0.32;
            for (cx, cy, text) in [
                (x(i), y(self.size as u8 - 1) - cell * 0.62, p.column_letter().to_string()),
                (x(i), y(0) + cell * 0.78, p.column_letter().to_string()),
                (margin - cell * 0.72, y(i) + fs * 0.35, (i + 1).to_string()),
                (x(self.size as u8 - 1) + cell * 0.72, y(i) + fs * 0.35, (i + 1).to_string()),
            ] {
                let _ = writeln!(
                    s,
                    r#"<text class="coordinate" x="{cx:.1}" y="{cy:.1}" font-size="{fs:.1}" text-anchor="middle" {font}>{text}</text>"#
                );
            }
        }
        for p in star_points(self.size) {
            let _ = writeln!(
                s,
                r#"<circle class="star" cx="{:.1}" cy="{:.1}" r="{:.2}" fill="black"/>"#,
                x(p.col()),
                y(p.row()),
                cell * 0.11
            );
        }
        for &(p, mark) in &self.marks {
            let (color, label) = match mark {
                Mark::Plain(c) => (c, None),
                Mark::Numbered(c, n) => (c, Some(n)),
            };
            let (fill, ink) = if color == Color::Black { ("black", "white") } else { ("white", "black") };
            let (cx, cy) = (x(p.col()), y(p.row()));
            let _ = write!(s, r#"<g class="stone" data-point="{p}" data-color="{color}""#);
            if let Some(n) = label {
                let _ = write!(s, r#" data-label="{n}""#);
            }
            let _ = write!(
                s,
                r#"><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.2}" fill="{fill}" stroke="black" stroke-width="{line:.2}"/>"#,
                cell * 0.48
            );
            if let Some(n) = label {
                let digits = n.to_string().len() as f64;
                let fs = cell * if digits >= 3.0 { 0.36 } else { 0.46 };
                let _ = write!(
                    s,
                    r#"<text x="{cx:.1}" y="{:.1}" font-size="{fs:.1}" text-anchor="middle" fill="{ink}" {font}>{n}</text>"#,
                    cy + fs * 0.36
                );
            }
            let _ = writeln!(s, "</g>");
        }
        let top = title_h + (n + 1.0) * cell + cell * 0.2;
        for (i, chunk) in self.notes.chunks(notes_per_line).enumerate() {
            for (j, note) in chunk.iter().enumerate() {
                let _ = writeln!(
                    s,
                    r#"<text class="note" x="{:.1}" y="{:.1}" font-size="{:.1}" {font}>{note}</text>"#,
                    margin * 0.5 + j as f64 * cell * 2.6,
                    top + (i as f64 + 0.7) * cell * 0.6,
                    cell * 0.36
                );
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{Rules, Setup};

    fn at(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// A ko in the middle of a 5×5 board: Black takes at C3, White retakes at B3.
    fn ko_game() -> Game {
        let setup = Setup::from_ascii(
            "
            . . . . .
            . X O . .
            X O . O .
            . X O . .
            . . . . .",
        )
        .unwrap();
        Game::try_from(Setup { rules: Rules::chinese(), ..setup }).unwrap()
    }

    /// A ko fight: moves on points where stones were taken become notes.
    #[test]
    fn moves_on_occupied_points_become_notes() {
        let mut game = ko_game();
        for v in ["C3", "E1", "E5", "B3", "A1"] {
            game.play(Move::Play(at(v))).unwrap();
        }
        // 1 B C3 takes B3; 2 W E1 (threat); 3 B E5; 4 W B3 retakes; 5 B A1.
        let d = Diagram::new(&game, 1..=5, false).unwrap();
        assert_eq!(d.notes(), &[Note::At { label: 4, point: at("B3") }]);
        assert_eq!(d.numbered().iter().map(|n| n.2).collect::<Vec<_>>(), [1, 2, 3, 5]);
        // Starting after the capture, 4 is drawn and the plain stone at B3 is gone.
        let d = Diagram::new(&game, 2..=5, true).unwrap();
        assert!(d.numbered().contains(&(at("B3"), Color::White, 3)), "{:?}", d.numbered());
        let mut pass = game.clone();
        pass.play(Move::Pass).unwrap();
        pass.play(Move::Play(at("A5"))).unwrap();
        let d = Diagram::new(&pass, 5..=7, false).unwrap();
        assert_eq!(d.notes().iter().map(ToString::to_string).collect::<Vec<_>>(), ["6 pass"]);
    }

    #[test]
    fn numbered_twice_on_one_point() {
        let mut game = ko_game();
        // 1 takes the ko, 4 takes back, 7 takes again on the point of 1.
        for v in ["C3", "E1", "E5", "B3", "A1", "A5", "C3"] {
            game.play(Move::Play(at(v))).unwrap();
        }
        let d = Diagram::new(&game, 1..=7, false).unwrap();
        assert_eq!(d.notes(), &[Note::At { label: 4, point: at("B3") }, Note::SameAs { label: 7, earlier: 1 }]);
        assert_eq!(d.notes().iter().map(ToString::to_string).collect::<Vec<_>>(), ["4 at B3", "7 = 1"]);
        let svg = d.with_title("黑 vs 白 <test>").to_svg(300);
        assert!(svg.contains(">7 = 1<") && svg.contains(">4 at B3<") && svg.contains("&lt;test&gt;"));
        // Seven plain stones and five numbered ones (1, 2, 3, 5, 6).
        assert_eq!(svg.matches(r#"class="stone""#).count(), 12);
        assert_eq!(svg.matches("data-label=").count(), 5);
    }

    #[test]
    fn bad_ranges() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        game.play(Move::Play(at("E5"))).unwrap();
        assert!(Diagram::new(&game, 0..=1, false).is_err());
        assert!(Diagram::new(&game, 1..=2, false).is_err());
        let empty = RangeInclusive::new(2, 1);
        assert!(Diagram::new(&game, empty, false).is_err());
    }
}
