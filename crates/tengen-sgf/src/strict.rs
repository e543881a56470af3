//! Strict reading: every problem of a file, each with its line and column.
//!
//! `sgf-parse` (which does the reading) reports errors without positions and, in its lenient
//! mode, drops what follows an error. Strict mode therefore scans the text itself, keeping
//! the position of every node, property and value, and reports every problem it finds:
//! syntax errors, properties that break FF[4] or that tengen reads only tolerantly, points off
//! the board, and moves the rules refuse.

use std::fmt;

use tengen_core::{Color, Game, Move, Point, Rules, Setup};

use crate::info::komi_from_sgf;

/// A position in the text: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

/// One problem of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where it is.
    pub at: Position,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.at.line, self.at.column, self.message)
    }
}

#[derive(Debug, Default)]
struct Prop {
    at: Position,
    id: String,
    values: Vec<(Position, String)>,
}

#[derive(Debug, Default)]
struct Node {
    props: Vec<Prop>,
    children: Vec<Node>,
}

impl Drop for Node {
    /// Without recursion: a main line is as deep as it is long.
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut node) = stack.pop() {
            stack.append(&mut node.children);
        }
    }
}

struct Scanner<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    at: Position,
    problems: Vec<Diagnostic>,
}

impl Scanner<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.at.line += 1;
            self.at.column = 1;
        } else {
            self.at.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn problem(&mut self, at: Position, message: impl Into<String>) {
        self.problems.push(Diagnostic { at, message: message.into() });
    }

    /// A game tree after its `(`: a sequence of nodes, then variations, then `)`.
    fn tree(&mut self, open: Position) -> Vec<Node> {
        let mut sequence: Vec<Node> = Vec::new();
        let mut variations = Vec::new();
        loop {
            self.skip_space();
            let at = self.at;
            match self.peek() {
                Some(';') if variations.is_empty() => {
                    self.bump();
                    sequence.push(self.node());
                }
                Some(';') => {
                    self.bump();
                    self.problem(at, "a node after the variations of a game tree");
                    self.node();
                }
                Some('(') => {
                    self.bump();
                    if sequence.is_empty() {
                        self.problem(at, "a variation before any node of its game tree");
                    }
                    variations.push(self.tree(at));
                }
                Some(')') => {
                    self.bump();
                    break;
                }
                None => {
                    self.problem(open, "this game tree is never closed with ')'");
                    break;
                }
                Some(c) => {
                    self.bump();
                    self.problem(at, format!("unexpected {c:?} between nodes"));
                }
            }
        }
        if sequence.is_empty() {
            self.problem(open, "a game tree without any node (\"(;\" expected)");
            return Vec::new();
        }
        // Chain the sequence; the variations hang from its last node.
        let mut last = sequence.pop().expect("not empty");
        last.children = variations.into_iter().flatten().collect();
        while let Some(mut parent) = sequence.pop() {
            parent.children = vec![last];
            last = parent;
        }
        vec![last]
    }

    /// A node after its `;`: properties until the next `;`, `(` or `)`.
    fn node(&mut self) -> Node {
        let mut node = Node::default();
        loop {
            self.skip_space();
            let at = self.at;
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    let mut id = String::new();
                    while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
                        id.push(c);
                        self.bump();
                    }
                    if id.chars().any(|c| c.is_ascii_lowercase()) {
                        let upper: String = id.chars().filter(char::is_ascii_uppercase).collect();
                        self.problem(
                            at,
                            format!("property {id}: lowercase letters in an identifier (FF[3]); FF[4] writes {upper}"),
                        );
                        id = upper;
                    }
                    let mut prop = Prop { at, id, values: Vec::new() };
                    loop {
                        self.skip_space();
                        if self.peek() != Some('[') {
                            break;
                        }
                        let vat = self.at;
                        self.bump();
                        let mut value = String::new();
                        loop {
                            match self.bump() {
                                Some('\\') => {
                                    if let Some(c) = self.bump() {
                                        value.push(c);
                                    }
                                }
                                Some(']') => break,
                                Some(c) => value.push(c),
                                None => {
                                    self.problem(vat, format!("the value of {} is never closed with ']'", prop.id));
                                    break;
                                }
                            }
                        }
                        prop.values.push((vat, value));
                    }
                    if prop.values.is_empty() {
                        // Reported, and left out: every property kept has a value.
                        self.problem(at, format!("property {} has no value", prop.id));
                    } else {
                        node.props.push(prop);
                    }
                }
                Some(';' | '(' | ')') | None => return node,
                Some(c) => {
                    self.bump();
                    self.problem(at, format!("unexpected {c:?} in a node"));
                }
            }
        }
    }
}

/// Properties that belong in the root node only.
const ROOT_ONLY: [&str; 6] = ["AP", "CA", "FF", "GM", "ST", "SZ"];

/// An SGF point value on a board of `size`, as a tengen point.
fn point(value: &str, size: usize) -> Option<Point> {
    let b = value.as_bytes();
    let coordinate = |c: u8| match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    };
    if b.len() != 2 {
        return None;
    }
    let (x, y) = (coordinate(b[0])?, coordinate(b[1])?);
    (usize::from(x) < size && usize::from(y) < size).then(|| Point::new(x, (size - 1 - usize::from(y)) as u8))?
}

/// Every problem of an SGF text, in order of position (empty when the file is clean).
///
/// ```
/// let problems = tengen_sgf::check_strict("(;GM[1]FF[4]SZ[9]KM[375];B[ee]\n;W[ee];B[zz])");
/// let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
/// assert_eq!(text, [
///     "line 1, column 18: KM[375] is Fox's way of writing komi; it is read as 7.5 points",
///     "line 2, column 2: W[ee]: ee is occupied",
///     "line 2, column 8: B[zz]: zz is not a point of the 9×9 board",
/// ]);
/// ```
#[must_use]
pub fn check_strict(text: &str) -> Vec<Diagnostic> {
    // The scanner nests once per variation: bounded first, like every reading.
    if let Err(e) = crate::limits::measure(text, &crate::limits::Limits::default()) {
        return vec![Diagnostic { at: Position { line: 1, column: 1 }, message: e.to_string() }];
    }
    let mut s = Scanner { chars: text.chars().peekable(), at: Position { line: 1, column: 1 }, problems: Vec::new() };
    let mut trees = Vec::new();
    loop {
        s.skip_space();
        let at = s.at;
        match s.peek() {
            None => break,
            Some('(') => {
                s.bump();
                trees.extend(s.tree(at));
            }
            Some(c) => {
                s.bump();
                s.problem(at, format!("unexpected {c:?} outside any game tree"));
                // Skip to the next game tree.
                while s.peek().is_some_and(|c| c != '(') {
                    s.bump();
                }
            }
        }
    }
    if trees.is_empty() && s.problems.is_empty() {
        s.problem(s.at, "no game tree (an SGF file holds \"(;…)\")");
    }
    let syntax_clean = s.problems.is_empty();
    let mut problems = s.problems;
    for root in &trees {
        check_game(root, syntax_clean, &mut problems);
    }
    problems.sort_by_key(|d| d.at);
    problems
}

fn one<'a>(node: &'a Node, id: &str) -> Option<&'a Prop> {
    node.props.iter().find(|p| p.id == id)
}

/// The checks of one game tree: root properties, every node's properties, the main line.
fn check_game(root: &Node, replay: bool, problems: &mut Vec<Diagnostic>) {
    let mut say = |at: Position, message: String| problems.push(Diagnostic { at, message });
    let first = root.props.first().map_or(Position { line: 1, column: 1 }, |p| p.at);
    match one(root, "GM").map(|p| p.values[0].1.trim()) {
        None => say(first, "no GM[1]: read as a Go game".into()),
        Some("1") => {}
        Some(other) => say(one(root, "GM").expect("found").at, format!("GM[{other}] is not Go (GM[1])")),
    }
    if one(root, "FF").is_none() {
        say(first, "no FF[4]: read as FF[4]".into());
    }
    let mut size = 19;
    if let Some(sz) = one(root, "SZ") {
        let v = sz.values[0].1.trim();
        let square = match v.split_once(':') {
            Some((w, h)) if w.trim() == h.trim() => w.trim().parse::<usize>().ok(),
            Some(_) => None,
            None => v.parse::<usize>().ok(),
        };
        match square {
            Some(n) if (2..=25).contains(&n) => size = n,
            _ => say(sz.at, format!("SZ[{v}]: tengen plays square boards of 2 to 25 lines")),
        }
    }
    if let Some(km) = one(root, "KM") {
        let v = km.values[0].1.trim();
        match v.parse::<f64>() {
            Err(_) => say(km.at, format!("KM[{v}] is not a number")),
            Ok(k) => match komi_from_sgf(k) {
                None => say(km.at, format!("KM[{v}] is not a multiple of half a point")),
                Some(komi) if komi.points() != k => {
                    let how = if k.abs() >= 100.0 { "Fox's way of writing komi" } else { "komi in stones" };
                    say(km.at, format!("KM[{v}] is {how}; it is read as {komi} points"));
                }
                Some(_) => {}
            },
        }
    }
    let mut all = vec![(root, true)];
    while let Some((node, is_root)) = all.pop() {
        let mut seen: Vec<&str> = Vec::new();
        for p in &node.props {
            if seen.contains(&p.id.as_str()) {
                say(p.at, format!("property {} appears twice in one node", p.id));
            }
            seen.push(&p.id);
            if !is_root && ROOT_ONLY.contains(&p.id.as_str()) {
                say(p.at, format!("{} belongs in the root node", p.id));
            }
            let points = match p.id.as_str() {
                "B" | "W" => {
                    let v = p.values[0].1.trim();
                    if v == "tt" && size <= 19 {
                        say(p.at, format!("{}[tt] is an FF[3] pass; FF[4] writes {}[]", p.id, p.id));
                        continue;
                    }
                    if v.is_empty() { Vec::new() } else { vec![(p.at, v.to_owned())] }
                }
                "AB" | "AW" | "AE" => p.values.iter().map(|(at, v)| (*at, v.trim().to_owned())).collect(),
                _ => Vec::new(),
            };
            for (at, v) in points {
                let expanded: Vec<String> = match v.split_once(':') {
                    Some((a, b)) => match (point(a, size), point(b, size)) {
                        (Some(_), Some(_)) => Vec::new(),
                        _ => vec![v.clone()],
                    },
                    None => vec![v.clone()],
                };
                for v in expanded {
                    if point(&v, size).is_none() {
                        say(at, format!("{}[{v}]: {v} is not a point of the {size}×{size} board", p.id));
                    }
                }
            }
        }
        if one(node, "B").is_some() && one(node, "W").is_some() {
            say(one(node, "W").expect("found").at, "B and W moves in one node".into());
        }
        all.extend(node.children.iter().rev().map(|c| (c, false)));
    }
    if replay {
        replay_main_line(root, size, problems);
    }
}

/// Replays the main line with the rules, reporting each move they refuse at its position.
fn replay_main_line(root: &Node, size: usize, problems: &mut Vec<Diagnostic>) {
    let mut setup = Setup { rules: Rules::chinese(), ..Setup::new(size) };
    for p in &root.props {
        let list = match p.id.as_str() {
            "AB" => &mut setup.black,
            "AW" => &mut setup.white,
            _ => continue,
        };
        list.extend(p.values.iter().filter_map(|(_, v)| point(v.trim(), size)));
    }
    let Ok(mut game) = Game::try_from(setup) else {
        problems.push(Diagnostic {
            at: root.props.first().map_or(Position { line: 1, column: 1 }, |p| p.at),
            message: "the setup stones do not form a position".into(),
        });
        return;
    };
    let mut node = root.children.first();
    while let Some(n) = node {
        for p in n.props.iter().filter(|p| p.id == "B" || p.id == "W") {
            let color = if p.id == "B" { Color::Black } else { Color::White };
            let v = p.values[0].1.trim();
            let mv = if v.is_empty() || (v == "tt" && size <= 19) {
                Move::Pass
            } else if let Some(q) = point(v, size) {
                Move::Play(q)
            } else {
                continue; // reported above
            };
            if let Err(e) = game.play_on(color, mv) {
                let reason = e.to_string().replace(&mv.to_string(), v);
                problems.push(Diagnostic { at: p.at, message: format!("{}[{v}]: {reason}", p.id) });
            }
        }
        node = n.children.first();
    }
}
