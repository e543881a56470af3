//! Bounds on what a record may hold, checked on the text before any tree is built.
//!
//! A game tree read from an untrusted file is as deep as the file says: 20 KB of `;` make a
//! main line of 20,000 nodes. Every walk of a tree in this crate is iterative, but the node
//! type of `sgf-parse` clones, compares and formats itself recursively, so its depth is
//! bounded here, with its size.

use std::fmt;

/// The largest record the reader takes.
///
/// The defaults are far above any real game or commented collection (the longest
/// professional games have about 400 moves; the GNU Go regression suite's biggest file has
/// under 2,000 nodes) and far below what could exhaust a thread's stack or a server's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of text.
    pub bytes: usize,
    /// Nodes in all the game trees of the text.
    pub nodes: usize,
    /// Nodes on the longest path from a root (a main line of N moves is N + 1 deep), and
    /// nested parentheses.
    pub depth: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { bytes: 8 * 1024 * 1024, nodes: 100_000, depth: 10_000 }
    }
}

/// Which bound a text went past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::bytes`].
    Bytes,
    /// [`Limits::nodes`].
    Nodes,
    /// [`Limits::depth`].
    Depth,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Bytes => "bytes",
            Limit::Nodes => "nodes",
            Limit::Depth => "nodes deep",
        })
    }
}

/// What [`measure`] found: the size of the text's trees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Nodes.
    pub nodes: usize,
    /// The deepest path, in nodes (or nested parentheses, when more).
    pub depth: usize,
}

/// A text past a bound: which, how much it holds (at least; the count stops at the bound) and
/// the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The bound passed.
    pub limit: Limit,
    /// What the text holds, counted up to one past the bound.
    pub found: usize,
    /// The bound.
    pub max: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let more = if self.limit == Limit::Bytes { "" } else { "more than " };
        // `found` is one past the count for bytes, and stops one past the bound otherwise.
        write!(f, "the record holds {more}{} {}; the limit is {} {}", self.found - 1, self.limit, self.max, self.limit)
    }
}

/// Whether `len` bytes are within [`Limits::bytes`].
///
/// # Errors
/// [`TooLarge`] for [`Limit::Bytes`].
pub fn check_bytes(len: usize, limits: &Limits) -> Result<(), TooLarge> {
    if len > limits.bytes {
        return Err(TooLarge { limit: Limit::Bytes, found: len + 1, max: limits.bytes });
    }
    Ok(())
}

/// Counts the nodes and the depth of the trees in `text` the way `sgf-parse` will read them
/// (its lexer: `(`, `)` and `;` are tokens; anything else starts a property identifier that
/// runs to `[`, and a value runs to an unescaped `]`), stopping as soon as a bound is passed.
/// Where the two could differ the count here is the larger.
///
/// # Errors
/// [`TooLarge`] for the first bound passed.
pub fn measure(text: &str, limits: &Limits) -> Result<Shape, TooLarge> {
    check_bytes(text.len(), limits)?;
    let bytes = text.as_bytes();
    let mut shape = Shape::default();
    // The depth of the node whose children come next, and that depth at each open `(`.
    let mut depth = 0usize;
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => {
                open.push(depth);
                shape.depth = shape.depth.max(open.len());
            }
            b')' => {
                // An unmatched `)` leaves the depth where it is: the larger count.
                if let Some(d) = open.pop() {
                    depth = d;
                }
            }
            b';' => {
                shape.nodes += 1;
                depth += 1;
                shape.depth = shape.depth.max(depth);
            }
            b'[' => {
                // A value, to its unescaped `]` (or the end of the text).
                i += 1;
                while i < bytes.len() && bytes[i] != b']' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            // White space, identifiers (which `sgf-parse` ends at `[`, taking any `(`, `)` or
            // `;` before it into the name: counted as structure here, the larger count).
            _ => {}
        }
        if shape.nodes > limits.nodes {
            return Err(TooLarge { limit: Limit::Nodes, found: shape.nodes, max: limits.nodes });
        }
        if shape.depth > limits.depth {
            return Err(TooLarge { limit: Limit::Depth, found: shape.depth, max: limits.depth });
        }
        i += 1;
    }
    Ok(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limits = Limits { bytes: 1_000, nodes: 20, depth: 5 };

    #[test]
    fn nodes_and_depth_are_counted_outside_values() {
        assert_eq!(measure("(;GM[1];B[aa];W[bb])", &SMALL), Ok(Shape { nodes: 3, depth: 3 }));
        // Variations: the depth is the longest path.
        assert_eq!(measure("(;C[a;b;c](;B[aa];W[bb])(;B[cc]))", &SMALL), Ok(Shape { nodes: 4, depth: 3 }));
        // An escaped `]` does not end the value.
        assert_eq!(measure(r"(;C[x\];;;;;;](;B[aa]))", &SMALL), Ok(Shape { nodes: 2, depth: 2 }));
    }

    #[test]
    fn each_bound_is_named_when_passed() {
        let deep = format!("(;GM[1]{})", ";".repeat(5));
        let e = measure(&deep, &SMALL).unwrap_err();
        assert_eq!((e.limit, e.max), (Limit::Depth, 5));
        assert_eq!(e.to_string(), "the record holds more than 5 nodes deep; the limit is 5 nodes deep");
        let nested = "(;".repeat(6);
        assert_eq!(measure(&nested, &SMALL).unwrap_err().limit, Limit::Depth);
        let parens = "(".repeat(6);
        assert_eq!(measure(&parens, &SMALL).unwrap_err().limit, Limit::Depth, "nesting without nodes");
        let wide = format!("(;{})", "(;)".repeat(20));
        assert_eq!(measure(&wide, &SMALL).unwrap_err().limit, Limit::Nodes);
        let long = format!("(;C[{}])", "x".repeat(1_000));
        let e = measure(&long, &SMALL).unwrap_err();
        assert_eq!(e.limit, Limit::Bytes);
        assert_eq!(e.to_string(), "the record holds 1006 bytes; the limit is 1000 bytes");
    }
}
