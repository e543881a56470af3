//! Game information from the root node, read tolerantly.

use sgf_parse::go::Prop;
use tengen_core::Komi;

use crate::record::Record;

/// The game information of a record's root node (the SGF property names in brackets).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Board size (`SZ`), 19 when absent.
    pub size: usize,
    /// Komi in points (`KM`), read tolerantly (see [`komi_from_sgf`]); `None` when absent.
    pub komi: Option<Komi>,
    /// Handicap stones (`HA`), 0 when absent.
    pub handicap: usize,
    /// Rules as written (`RU`).
    pub rules: Option<String>,
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// Black's rank (`BR`).
    pub black_rank: Option<String>,
    /// White's rank (`WR`).
    pub white_rank: Option<String>,
    /// Date (`DT`).
    pub date: Option<String>,
    /// Event (`EV`).
    pub event: Option<String>,
    /// Round (`RO`).
    pub round: Option<String>,
    /// Result as written (`RE`).
    pub result: Option<String>,
    /// Main time in seconds (`TM`).
    pub time: Option<f64>,
    /// Overtime as written (`OT`).
    pub overtime: Option<String>,
}

/// The root node's information cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InfoError {
    /// Not a square board of 2 to 25 lines.
    #[error("board size {0}×{1} is not supported (square boards of 2 to 25 lines)")]
    Size(u8, u8),
    /// An `SZ` that is no size at all (`SZ[1000]`, `SZ[-1]`, `SZ[x]`).
    #[error("board size SZ[{0}] is not supported (square boards of 2 to 25 lines)")]
    SizeText(String),
}

/// Komi in points from an SGF `KM` value, reading the forms real files use:
/// - Fox writes hundredths: `KM[375]` (3¾ stones), `KM[650]`, `KM[750]`: values of 100 or
///   more are divided by 100;
/// - a value with a quarter (`3.75`, `2.75`, as GoGoD and Fox write Chinese komi) can only be
///   in stones, since points come in halves: it is doubled (3¾ stones = 7.5 points).
///
/// `None` when the value is still not a multiple of ½ point.
#[must_use]
pub fn komi_from_sgf(value: f64) -> Option<Komi> {
    let mut v = value;
    if v.abs() >= 100.0 {
        v /= 100.0;
    }
    let quarters = v * 4.0;
    if quarters.fract() == 0.0 && (v * 2.0).fract() != 0.0 {
        v *= 2.0;
    }
    Komi::from_points(v).ok()
}

fn text(prop: &Prop) -> Option<String> {
    match prop {
        Prop::RU(t) | Prop::PB(t) | Prop::PW(t) | Prop::BR(t) | Prop::WR(t) | Prop::DT(t) | Prop::EV(t) => {
            Some(t.text.trim().to_owned())
        }
        Prop::RO(t) | Prop::RE(t) | Prop::OT(t) => Some(t.text.trim().to_owned()),
        _ => None,
    }
}

impl Record {
    /// The game information of the root node.
    ///
    /// # Errors
    /// [`InfoError::Size`] for a rectangular board or one outside 2…25.
    pub fn info(&self) -> Result<GameInfo, InfoError> {
        let mut info = GameInfo { size: 19, ..GameInfo::default() };
        for prop in self.root().properties() {
            match prop {
                Prop::SZ((w, h)) => {
                    if w != h || !(2..=25).contains(w) {
                        return Err(InfoError::Size(*w, *h));
                    }
                    info.size = usize::from(*w);
                }
                // A size sgf-parse cannot read (past 255, negative, not a number): refused,
                // not read as the default 19.
                Prop::Invalid(id, values) if id == "SZ" => {
                    return Err(InfoError::SizeText(values.join(":").chars().take(20).collect()));
                }
                Prop::KM(k) => info.komi = komi_from_sgf(*k),
                Prop::HA(n) => info.handicap = usize::try_from(*n).unwrap_or(0),
                Prop::TM(t) => info.time = Some(*t),
                Prop::RU(_) => info.rules = text(prop),
                Prop::PB(_) => info.black = text(prop),
                Prop::PW(_) => info.white = text(prop),
                Prop::BR(_) => info.black_rank = text(prop),
                Prop::WR(_) => info.white_rank = text(prop),
                Prop::DT(_) => info.date = text(prop),
                Prop::EV(_) => info.event = text(prop),
                Prop::RO(_) => info.round = text(prop),
                Prop::RE(_) => info.result = text(prop),
                Prop::OT(_) => info.overtime = text(prop),
                _ => {}
            }
        }
        Ok(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_as_real_files_write_it() {
        let k = |v: f64| komi_from_sgf(v).map(|k| k.to_string());
        assert_eq!(k(7.5).as_deref(), Some("7.5"));
        assert_eq!(k(375.0).as_deref(), Some("7.5"), "Fox: 3¾ stones");
        assert_eq!(k(750.0).as_deref(), Some("7.5"), "Fox: 7.5 points");
        assert_eq!(k(650.0).as_deref(), Some("6.5"));
        assert_eq!(k(3.75).as_deref(), Some("7.5"), "GoGoD: 3¾ stones");
        assert_eq!(k(0.0).as_deref(), Some("0"));
        assert_eq!(k(-2.75).as_deref(), Some("-5.5"));
        assert_eq!(k(0.3), None);
    }

    #[test]
    fn sizes_that_are_no_size_are_refused() {
        for sz in ["1000", "-1", "x", "0"] {
            let record = Record::read(&format!("(;GM[1]SZ[{sz}];B[aa])")).unwrap();
            let e = record.info().unwrap_err();
            assert!(e.to_string().starts_with("board size SZ[") || matches!(e, InfoError::Size(..)), "{sz}: {e}");
        }
        assert_eq!(Record::read("(;GM[1]SZ[9])").unwrap().info().unwrap().size, 9);
    }
}
