//! A game record: one SGF game tree, as `sgf-parse` reads it.

use sgf_parse::go::Prop;
use sgf_parse::{GameTree, ParseOptions, SgfNode};

use crate::limits::{Limits, TooLarge, measure};

/// Why a text could not be read as SGF.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The text is not SGF at all, or broken beyond repair.
    #[error("not readable as SGF: {0}")]
    Syntax(String),
    /// A game tree of another game than Go (`GM` other than 1).
    #[error("game tree {index} is not a Go game (GM[{game}])")]
    NotGo {
        /// 0-based index of the tree in the file.
        index: usize,
        /// The `GM` value found.
        game: String,
    },
    /// The file holds no game tree.
    #[error("the file holds no game (an SGF game starts with \"(;\")")]
    Empty,
    /// The text is past one of the reader's [`Limits`].
    #[error("{0}")]
    TooLarge(TooLarge),
}

/// Whether a game tree starts somewhere in the text: `(` then `;`, white space between
/// allowed. (In its lenient mode, `sgf-parse` reads any text, even an empty one, as a game.)
fn has_game_tree(text: &str) -> bool {
    text.match_indices('(').any(|(i, _)| text[i + 1..].trim_start().starts_with(';'))
}

/// Removes properties without a name, which the lenient parser makes of stray text: they
/// cannot be written back as SGF (their values would join the property before them).
fn drop_nameless(root: &mut SgfNode<Prop>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        node.properties.retain(|p| !matches!(p, Prop::Unknown(id, _) | Prop::Invalid(id, _) if id.is_empty()));
        stack.extend(node.children.iter_mut());
    }
}

/// One game of an SGF file: the root node and its tree of variations.
///
/// Records read from text are bounded by [`Limits`]; one built with [`Record::from_root`]
/// may be of any depth: it is written and dropped without recursion.
///
/// Cloning, comparing and formatting walk the tree without recursion too; `Debug` shows the
/// record as its SGF text.
pub struct Record {
    pub(crate) root: SgfNode<Prop>,
}

/// The nodes of a tree in preorder, each with its number of children.
fn preorder(root: &SgfNode<Prop>) -> Vec<&SgfNode<Prop>> {
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        order.push(node);
        stack.extend(node.children.iter().rev());
    }
    order
}

impl Clone for Record {
    fn clone(&self) -> Record {
        // Built from the last node of the preorder back: a node's children are then on top of
        // the stack, first child uppermost.
        let mut built: Vec<SgfNode<Prop>> = Vec::new();
        for node in preorder(&self.root).into_iter().rev() {
            let children: Vec<_> = (0..node.children.len()).map(|_| built.pop().expect("built before")).collect();
            built.push(SgfNode::new(node.properties.clone(), children, node.is_root));
        }
        Record { root: built.pop().expect("the root") }
    }
}

impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        let mut pairs = vec![(&self.root, &other.root)];
        while let Some((a, b)) = pairs.pop() {
            if a.properties != b.properties || a.is_root != b.is_root || a.children.len() != b.children.len() {
                return false;
            }
            pairs.extend(a.children.iter().zip(&b.children));
        }
        true
    }
}

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Record").field(&self.to_sgf()).finish()
    }
}

impl Drop for Record {
    /// Takes the tree apart node by node: the node type's own drop recurses, once per level.
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.root.children);
        while let Some(mut node) = stack.pop() {
            stack.append(&mut node.children);
        }
    }
}

impl Record {
    /// Reads every game of an SGF collection, tolerantly: what `sgf-parse` can make sense of
    /// is kept (its lenient mode stops at a syntax error and keeps what came before it).
    ///
    /// # Errors
    /// [`ReadError`] when nothing readable is there, a tree is not a Go game, or the text is
    /// past the default [`Limits`].
    pub fn read_all(text: &str) -> Result<Vec<Record>, ReadError> {
        Record::read_all_within(text, &Limits::default())
    }

    /// [`Record::read_all`] within `limits`.
    ///
    /// # Errors
    /// As [`Record::read_all`]; [`ReadError::TooLarge`] past `limits`.
    pub fn read_all_within(text: &str, limits: &Limits) -> Result<Vec<Record>, ReadError> {
        measure(text, limits).map_err(ReadError::TooLarge)?;
        if !has_game_tree(text) {
            return Err(ReadError::Empty);
        }
        let options = ParseOptions { lenient: true, ..ParseOptions::default() };
        let trees = sgf_parse::parse_with_options(text, &options).map_err(|e| ReadError::Syntax(e.to_string()))?;
        if trees.is_empty() {
            return Err(ReadError::Empty);
        }
        trees
            .into_iter()
            .enumerate()
            .map(|(index, tree)| match tree {
                GameTree::GoGame(mut root) => {
                    drop_nameless(&mut root);
                    // sgf-parse can take a tree for Go whose root says otherwise (seen with
                    // stray bytes after `GM`): the root's GM decides.
                    match root.properties.iter().find_map(|p| if let Prop::GM(g) = p { Some(*g) } else { None }) {
                        Some(g) if g != 1 => Err(ReadError::NotGo { index, game: g.to_string() }),
                        _ => Ok(Record { root }),
                    }
                }
                GameTree::Unknown(root) => {
                    let game = root
                        .get_property("GM")
                        .map(|p| p.to_string().trim_start_matches("GM[").trim_end_matches(']').to_owned())
                        .unwrap_or_default();
                    Err(ReadError::NotGo { index, game })
                }
            })
            .collect()
    }

    /// Reads every game of an SGF file given as bytes, in whatever character set it is (see
    /// [`decode`](crate::decode)). The records say `CA[UTF-8]` afterwards, since their text
    /// is now Unicode and is written as UTF-8.
    ///
    /// # Errors
    /// As [`Record::read_all`].
    pub fn read_bytes(bytes: &[u8]) -> Result<(Vec<Record>, crate::Decoded), ReadError> {
        Record::read_bytes_within(bytes, &Limits::default())
    }

    /// [`Record::read_bytes`] within `limits` (the bytes count before decoding).
    ///
    /// # Errors
    /// As [`Record::read_all_within`].
    pub fn read_bytes_within(bytes: &[u8], limits: &Limits) -> Result<(Vec<Record>, crate::Decoded), ReadError> {
        crate::limits::check_bytes(bytes.len(), limits).map_err(ReadError::TooLarge)?;
        let decoded = crate::decode(bytes);
        // Decoding can make the text longer than the bytes (two bytes of GB 18030 are three of
        // UTF-8): the byte bound is the file's.
        let limits = Limits { bytes: usize::MAX, ..*limits };
        let records = Record::read_all_within(&decoded.text, &limits)?
            .into_iter()
            .map(|mut r| {
                for prop in &mut r.root.properties {
                    if let Prop::CA(text) = prop {
                        text.text = "UTF-8".to_owned();
                    }
                }
                r
            })
            .collect();
        Ok((records, decoded))
    }

    /// Reads the first game of an SGF text (see [`Record::read_all`]).
    ///
    /// # Errors
    /// As [`Record::read_all`].
    pub fn read(text: &str) -> Result<Record, ReadError> {
        Record::read_all(text)?.into_iter().next().ok_or(ReadError::Empty)
    }

    /// A record from a root node built elsewhere.
    #[must_use]
    pub fn from_root(root: SgfNode<Prop>) -> Record {
        Record { root }
    }

    /// The root node.
    #[must_use]
    pub fn root(&self) -> &SgfNode<Prop> {
        &self.root
    }

    /// Nodes with more than one child: the places where variations leave a line.
    #[must_use]
    pub fn branch_points(&self) -> usize {
        preorder(&self.root).iter().filter(|n| n.children.len() > 1).count()
    }

    /// The record with its main line only: the variations left out.
    #[must_use]
    pub fn main_line_record(&self) -> Record {
        let nodes: Vec<&SgfNode<Prop>> = self.main_line().collect();
        let mut child: Option<SgfNode<Prop>> = None;
        for node in nodes.into_iter().rev() {
            child = Some(SgfNode::new(node.properties.clone(), child.into_iter().collect(), node.is_root));
        }
        Record { root: child.unwrap_or_else(|| self.root.clone()) }
    }

    /// The nodes of the main line (the first child at every branch), root first.
    pub fn main_line(&self) -> impl Iterator<Item = &SgfNode<Prop>> {
        self.root.main_variation()
    }

    /// The record as SGF text, variations and unknown properties included.
    ///
    /// Written here rather than by `sgf-parse`'s serializer, which leaves `]` and `\\`
    /// unescaped in the values of unknown properties, lists points in hash order and writes
    /// coordinates past `z` (boards over 26 lines) wrongly, and writes square sizes as
    /// `SZ[19:19]`, which some readers refuse: values are escaped, point lists
    /// sorted and coordinates written `a`–`z` then `A`–`Z`, so the same record always gives
    /// the same text.
    #[must_use]
    pub fn to_sgf(&self) -> String {
        /// What is left to write, last first.
        enum Step<'a> {
            Node(&'a SgfNode<Prop>),
            Text(char),
        }
        let mut out = String::from("(");
        let mut todo = vec![Step::Text(')'), Step::Node(&self.root)];
        while let Some(step) = todo.pop() {
            match step {
                Step::Text(c) => out.push(c),
                Step::Node(node) => {
                    write_node(node, &mut out);
                    match node.children.as_slice() {
                        [] => {}
                        [only] => todo.push(Step::Node(only)),
                        many => {
                            for child in many.iter().rev() {
                                todo.extend([Step::Text(')'), Step::Node(child), Step::Text('(')]);
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// Appends `[value]` with `]` and `\\` escaped.
fn push_value(out: &mut String, value: &str) {
    out.push('[');
    for ch in value.chars() {
        if ch == ']' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push(']');
}

/// The SGF letter of a coordinate: `a`–`z`, then `A`–`Z`.
fn coordinate(c: u8) -> char {
    if c < 26 { char::from(b'a' + c) } else { char::from(b'A' + (c - 26)) }
}

fn push_points(out: &mut String, id: &str, points: &std::collections::HashSet<sgf_parse::go::Point>) {
    let mut sorted: Vec<_> = points.iter().map(|p| (p.y, p.x)).collect();
    sorted.sort_unstable();
    out.push_str(id);
    for (y, x) in sorted {
        out.push('[');
        out.push(coordinate(x));
        out.push(coordinate(y));
        out.push(']');
    }
}

fn push_move(out: &mut String, id: &str, m: sgf_parse::go::Move) {
    out.push_str(id);
    out.push('[');
    if let sgf_parse::go::Move::Move(p) = m {
        out.push(coordinate(p.x));
        out.push(coordinate(p.y));
    }
    out.push(']');
}

/// A node's `;` and properties (its children are the caller's).
fn write_node(node: &SgfNode<Prop>, out: &mut String) {
    out.push(';');
    for prop in node.properties() {
        match prop {
            Prop::Unknown(id, values) | Prop::Invalid(id, values) => {
                out.push_str(id);
                for v in values {
                    push_value(out, v);
                }
            }
            // Square boards as `SZ[19]`: sgf-parse writes `SZ[19:19]`, which readers such as
            // sgfmill refuse.
            Prop::SZ((w, h)) if w == h => {
                out.push_str("SZ");
                push_value(out, &w.to_string());
            }
            Prop::B(m) => push_move(out, "B", *m),
            Prop::W(m) => push_move(out, "W", *m),
            Prop::AB(ps) => push_points(out, "AB", ps),
            Prop::AW(ps) => push_points(out, "AW", ps),
            Prop::AE(ps) => push_points(out, "AE", ps),
            Prop::CR(ps) => push_points(out, "CR", ps),
            Prop::MA(ps) => push_points(out, "MA", ps),
            Prop::SQ(ps) => push_points(out, "SQ", ps),
            Prop::TR(ps) => push_points(out, "TR", ps),
            Prop::SL(ps) => push_points(out, "SL", ps),
            Prop::DD(ps) => push_points(out, "DD", ps),
            Prop::VW(ps) => push_points(out, "VW", ps),
            other => out.push_str(&other.to_string()),
        }
    }
}
