//! The main line of a record without parsing its variations: a scan of the first game tree's
//! text that keeps the first branch at every fork and only counts the others. A parsed tree
//! takes some 1.6 KB a node (a record of 98,000 variation nodes, 160 MB), so a reader that
//! needs the game alone — its moves, root information and main-line comments — reads this.

use crate::{ReadError, Record};

/// The text of the first game tree of `text` with only its main line, and the number of
/// nodes with more than one child in the whole tree ([`Record::branch_points`]); `None` when
/// the text is not plain well-formed SGF (anything before the tree but ASCII white space, an
/// unclosed value or tree, a tree without a node, a node after a variation): the full reader
/// then decides.
fn scan(text: &str) -> Option<(String, usize)> {
    let bytes = text.as_bytes();
    let start = text.trim_start_matches([' ', '\t', '\r', '\n']).as_ptr() as usize - text.as_ptr() as usize;
    if bytes.get(start) != Some(&b'(') {
        return None;
    }
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut branch_points = 0;
    // One entry per open tree: whether it is kept (on the main line), and its subtrees so far.
    let mut open: Vec<(bool, usize)> = Vec::new();
    let mut i = start;
    while i < bytes.len() {
        let kept = open.last().is_none_or(|&(kept, _)| kept);
        match bytes[i] {
            b'(' => {
                // A tree starts with a node (readers differ on empty trees).
                if bytes[i + 1..].iter().find(|b| !b.is_ascii_whitespace()) != Some(&b';') {
                    return None;
                }
                let first = match open.last_mut() {
                    Some((parent_kept, subtrees)) => {
                        *subtrees += 1;
                        if *subtrees == 2 {
                            branch_points += 1;
                        }
                        *parent_kept && *subtrees == 1
                    }
                    None => true,
                };
                open.push((first, 0));
                if first {
                    out.push('(');
                }
                i += 1;
            }
            b')' => {
                open.pop();
                if kept {
                    out.push(')');
                }
                i += 1;
                if open.is_empty() {
                    return Some((out, branch_points));
                }
            }
            b'[' => {
                // A value, to its unescaped `]`.
                let mut j = i + 1;
                loop {
                    match bytes.get(j)? {
                        b'\\' => j += 2,
                        b']' => break,
                        _ => j += 1,
                    }
                }
                if kept {
                    out.push_str(&text[i..=j]);
                }
                i = j + 1;
            }
            c => {
                // Nodes and property names: none after a tree's first subtree.
                if open.last().is_some_and(|&(_, subtrees)| subtrees > 0) && !c.is_ascii_whitespace() {
                    return None;
                }
                let j = i + bytes[i..].iter().position(|b| matches!(b, b'(' | b')' | b'[')).unwrap_or(bytes.len() - i);
                if kept {
                    out.push_str(&text[i..j]);
                }
                i = j;
            }
        }
    }
    None
}

impl Record {
    /// The first game of `text` with its main line only (no variations), and the number of
    /// branch points the whole tree has: what the game and its information need, read
    /// without parsing the variations. Where [`Record::read`] reads `text`, this gives its
    /// main line; the full reader decides any text that is not plain well-formed SGF. Only the
    /// first game tree is read: a collection whose later game is not Go, which
    /// [`Record::read`] refuses, gives its first game here.
    ///
    /// # Errors
    /// As [`Record::read`].
    pub fn read_main_line(text: &str) -> Result<(Record, usize), ReadError> {
        if let Some((main, branch_points)) = scan(text)
            && let Ok(record) = Record::read(&main)
        {
            return Ok((record, branch_points));
        }
        let record = Record::read(text)?;
        let branch_points = record.branch_points();
        let main = record.main_line_record();
        Ok((main, branch_points))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The main line, branch points and comments as the full reader gives them.
    fn full(text: &str) -> (Record, usize, Vec<(usize, String)>) {
        let record = Record::read(text).unwrap();
        (record.main_line_record(), record.branch_points(), record.comments())
    }

    fn lean(text: &str) -> (Record, usize, Vec<(usize, String)>) {
        let (record, branch_points) = Record::read_main_line(text).unwrap();
        let comments = record.comments();
        (record, branch_points, comments)
    }

    #[test]
    fn the_main_line_is_what_the_full_reader_gives() {
        for text in [
            "(;GM[1]SZ[9];B[ee];W[cc])",
            "(;GM[1]SZ[9]C[root];B[ee](;W[cc]C[main (with \\] and ( )];B[dd](;W[ff])(;W[gg]))(;W[dd];B[cc])(;W[aa]))",
            "  (;GM[1]SZ[19];B[pd](;W[dp];B[pp])(;W[dd](;B[pp])(;B[dp])))(;GM[1]SZ[9];B[ee])",
            "(;GM[1]SZ[9]\n ;B[ee]\n (;W[cc] ; B[dd] )\n (;W[gg]))",
            "(;GM[1]SZ[9]C[a\\\\];B[ee])",
        ] {
            assert!(scan(text).is_some(), "{text}");
            assert_eq!(lean(text), full(text), "{text}");
        }
    }

    #[test]
    fn text_that_is_not_plain_sgf_goes_to_the_full_reader() {
        // Lenient reads: text before the tree, an unclosed tree, a node after a variation, a
        // tree without a node.
        for text in [
            "junk (;GM[1]SZ[9];B[ee])",
            "\u{feff}(;GM[1]SZ[9];B[ee])",
            "(;GM[1]SZ[9];B[ee](;W[cc])",
            "(;GM[1]SZ[9](;B[ee]);W[cc])",
            "(;GM[1]SZ[9];B[ee]((;W[cc]))(;W[dd]))",
        ] {
            assert!(scan(text).is_none(), "{text}");
            if let Ok(record) = Record::read(text) {
                let (main, branch_points) = Record::read_main_line(text).unwrap();
                assert_eq!(main, record.main_line_record(), "{text}");
                assert_eq!(branch_points, record.branch_points(), "{text}");
            }
        }
    }

    #[test]
    fn a_record_of_many_variations_is_read_as_its_main_line() {
        let text = format!("(;GM[1]SZ[19];B[aa](;W[bb];B[cc]){})", "(;W[ss];B[sr])".repeat(1_000));
        let (record, branch_points) = Record::read_main_line(&text).unwrap();
        assert_eq!((record.main_line().count(), record.branch_points(), branch_points), (4, 0, 1));
    }
}
