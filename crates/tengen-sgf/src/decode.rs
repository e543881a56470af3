//! Bytes to text: SGF files come in many character sets.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// How the character set of a file was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharsetSource {
    /// A byte-order mark.
    ByteOrderMark,
    /// UTF-16 recognised by its zero bytes, without a byte-order mark.
    Utf16Pattern,
    /// The file's `CA` property.
    Declared,
    /// No usable `CA`, and the bytes are valid UTF-8.
    Utf8,
    /// Guessed from the bytes (the `chardetng` detector).
    Detected,
}

/// A decoded file.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The text.
    pub text: String,
    /// The character set used.
    pub encoding: &'static Encoding,
    /// How it was chosen.
    pub source: CharsetSource,
    /// Whether some bytes were not valid in it (they became U+FFFD).
    pub had_errors: bool,
}

/// The label of the first `CA[…]` property, read from the bytes as ASCII (every character set
/// SGF files use keeps ASCII where the property names and brackets are).
fn declared_label(bytes: &[u8]) -> Option<&str> {
    let at = bytes.windows(3).position(|w| w == b"CA[")?;
    let rest = &bytes[at + 3..];
    let end = rest.iter().position(|&b| b == b']')?;
    std::str::from_utf8(&rest[..end.min(64)]).ok().map(str::trim)
}

/// UTF-16 without a byte-order mark: many zero bytes, all on even or all on odd positions.
fn utf16_pattern(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(400)];
    let even = head.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let half = head.len() / 2;
    if half < 4 {
        None
    } else if even * 10 >= half * 8 && odd == 0 {
        Some(UTF_16BE)
    } else if odd * 10 >= half * 8 && even == 0 {
        Some(UTF_16LE)
    } else {
        None
    }
}

/// Decodes an SGF file: a byte-order mark first, then UTF-16 by its zero bytes, then the
/// `CA` property (unless it claims UTF-8 or UTF-16 and the bytes say otherwise), then UTF-8
/// if the bytes are valid UTF-8, and last a guess from the bytes.
///
/// ```
/// // "围棋" in GBK, declared.
/// let bytes = b"(;CA[GBK]C[\xce\xa7\xc6\xe5])";
/// let decoded = tengen_sgf::decode(bytes);
/// assert_eq!(decoded.text, "(;CA[GBK]C[围棋])");
/// assert_eq!(decoded.encoding.name(), "GBK");
/// ```
#[must_use]
pub fn decode(bytes: &[u8]) -> Decoded {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        return finish(encoding, &bytes[bom..], CharsetSource::ByteOrderMark);
    }
    if let Some(encoding) = utf16_pattern(bytes) {
        return finish(encoding, bytes, CharsetSource::Utf16Pattern);
    }
    let valid_utf8 = std::str::from_utf8(bytes).is_ok();
    if let Some(encoding) = declared_label(bytes).and_then(|l| Encoding::for_label(l.as_bytes())) {
        let lies = (encoding == UTF_8 && !valid_utf8) || encoding == UTF_16LE || encoding == UTF_16BE;
        if !lies {
            return finish(encoding, bytes, CharsetSource::Declared);
        }
    }
    if valid_utf8 {
        return finish(UTF_8, bytes, CharsetSource::Utf8);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(bytes, true);
    finish(detector.guess(None, chardetng::Utf8Detection::Deny), bytes, CharsetSource::Detected)
}

fn finish(encoding: &'static Encoding, bytes: &[u8], source: CharsetSource) -> Decoded {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    Decoded { text: text.into_owned(), encoding, source, had_errors }
}
