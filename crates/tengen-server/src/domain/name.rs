//! Player names: printable, no control or invisible characters, at most [`NAME_CHARS`].

use super::NAME_CHARS;

/// What is wrong with a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing but spaces.
    #[error("a name cannot be empty")]
    Empty,
    /// Longer than [`NAME_CHARS`].
    #[error("a name is at most {NAME_CHARS} characters")]
    Long,
    /// A control, format (bidirectional overrides, zero-width), separator or other invisible
    /// character.
    #[error("a name is of printable characters only (no control, bidirectional or zero-width characters)")]
    Unprintable,
}

/// Characters that show nothing, or change how the text around them shows: format characters
/// (Unicode category Cf: zero-width spaces and joiners, bidirectional overrides, the BOM …),
/// line and paragraph separators, and the tag block.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFFB}' | '\u{0600}'..='\u{0605}' | '\u{06DD}' | '\u{070F}' | '\u{08E2}'
        | '\u{110BD}' | '\u{E0000}'..='\u{E0FFF}')
        || c.is_control()
        || (c.is_whitespace() && c != ' ')
}

/// The one rule for every player name, given or imported: spaces trimmed at both ends, 1 to
/// [`NAME_CHARS`] characters, all printable.
///
/// # Errors
/// [`NameError`] for a name that breaks it.
pub fn check_name(name: &str) -> Result<String, NameError> {
    check_text(name, NAME_CHARS)
}

/// The rule of names for a text of at most `most` characters.
fn check_text(text: &str, most: usize) -> Result<String, NameError> {
    let text = text.trim_matches(' ');
    if text.chars().any(invisible) {
        return Err(NameError::Unprintable);
    }
    if text.is_empty() {
        return Err(NameError::Empty);
    }
    if text.chars().count() > most {
        return Err(NameError::Long);
    }
    Ok(text.to_owned())
}

/// What is wrong with an account's name beyond the rule of names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountNameError {
    /// It breaks the rule of names.
    #[error(transparent)]
    Name(#[from] NameError),
    /// A character Unicode restricts in identifiers (UTS #39): invisible, unassigned, a
    /// noncharacter, blank-looking, or of a script or kind not in common use.
    #[error("a name may not use U+{:04X}: letters, digits, spaces and ASCII punctuation only", u32::from(*.0))]
    Restricted(char),
    /// A combining mark with nothing to combine with (at the start, or after a space).
    #[error("a name may not begin a word with a combining mark")]
    LoneMark,
}

/// The rule for an account's name, stricter than the rule of names (which records and guests'
/// seats follow): beyond ASCII, only the characters that Unicode's General Security Profile
/// allows in identifiers (UTS #39), judged after NFKC (full-width letters are letters), and no
/// combining mark alone. So no name is told from another by something that does not show.
///
/// # Errors
/// [`AccountNameError`] for a name that breaks it.
pub fn check_account_name(name: &str) -> Result<String, AccountNameError> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    use unicode_security::GeneralSecurityProfile;
    let name = check_name(name)?;
    let mut previous = ' ';
    for c in name.nfkc() {
        if !(c.is_ascii_graphic() || c == ' ' || c.identifier_allowed()) {
            return Err(AccountNameError::Restricted(c));
        }
        if is_combining_mark(c) && previous == ' ' {
            return Err(AccountNameError::LoneMark);
        }
        previous = c;
    }
    Ok(name)
}

/// The key under which accounts' names must differ to be told apart: the confusable skeleton
/// (UTS #39) of the name's NFKC lower case, so that `vіctim` with a Cyrillic і, or `0` for
/// `O`, is the name taken.
#[must_use]
pub fn name_skeleton(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let key = name.nfkc().collect::<String>().to_lowercase();
    unicode_security::skeleton(&key).collect::<String>().to_lowercase()
}

/// The longest chat message, in characters.
pub const CHAT_CHARS: usize = 500;

/// A chat message's text: spaces trimmed at both ends, 1 to [`CHAT_CHARS`] characters on one
/// line, all printable (the rule of names, longer).
///
/// # Errors
/// [`NameError`] for a text that breaks it (`Long` past [`CHAT_CHARS`]).
pub fn check_chat(text: &str) -> Result<String, NameError> {
    check_text(text, CHAT_CHARS)
}

/// A line of record information (an imported record's event, round, date, result, rules or
/// ranks) as the server serves it: shown as text, so with the characters that the rule for
/// names refuses taken out — line breaks and tabs become spaces, control, bidirectional and
/// zero-width characters go —, spaces trimmed; `None` when nothing is left.
#[must_use]
pub fn printable_line(text: &str) -> Option<String> {
    let line: String =
        text.chars().filter_map(|c| if c.is_whitespace() { Some(' ') } else { (!invisible(c)).then_some(c) }).collect();
    let line = line.trim_matches(' ');
    (!line.is_empty()).then(|| line.to_owned())
}
