//! The analysis commands of GUIs: `lz-analyze` (Leela Zero's format, used by Lizzie and
//! Sabaki) and `kata-analyze` (KataGo's, with scores and ownership). Both stream: the
//! response starts at once and a line of `info …` follows every interval until the next
//! command (or an empty line) arrives; then the response ends with the usual empty line.

use std::fmt::Write as _;
use std::time::Duration;

use tengen_core::{Board, Color, Point};
use tengen_engine::Analysis;

/// Which output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// `lz-analyze`: win rates and priors as integers in 0…10000.
    Leela,
    /// `kata-analyze`: floats, scores, and ownership on request.
    Kata,
}

impl Format {
    /// The format of an analysis command, by its (lower-case) name.
    pub(crate) fn of(command: &str) -> Option<Format> {
        match command {
            "lz-analyze" => Some(Format::Leela),
            "kata-analyze" => Some(Format::Kata),
            _ => None,
        }
    }
}

/// The arguments of an analysis command: `[colour] [interval] [key value]…`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Request {
    /// Whose moves are analysed (`None`: the side to move).
    pub color: Option<Color>,
    /// Between two reports (GTP gives centiseconds).
    pub interval: Duration,
    /// Report ownership (`kata-analyze … ownership true`).
    pub ownership: bool,
    /// Report at most this many moves (`maxmoves N`).
    pub max_moves: usize,
}

/// Parses `[colour] [interval] [key value]…`; the keys are `interval`, `ownership`,
/// `maxmoves` and `minmoves` (accepted, and met anyway: every searched move is reported).
/// Any other key is an error: nothing is silently ignored.
pub(crate) fn parse(format: Format, args: &[&str]) -> Result<Request, String> {
    let mut request =
        Request { color: None, interval: Duration::from_millis(1000), ownership: false, max_moves: usize::MAX };
    let mut rest = args;
    if let Some((first, tail)) = rest.split_first()
        && let Ok(c) = first.parse::<Color>()
    {
        request.color = Some(c);
        rest = tail;
    }
    if let Some((first, tail)) = rest.split_first()
        && first.bytes().all(|b| b.is_ascii_digit())
    {
        request.interval = centiseconds(first)?;
        rest = tail;
    }
    while let Some((key, tail)) = rest.split_first() {
        let Some((value, tail)) = tail.split_first() else {
            return Err(format!("analysis option {key} needs a value"));
        };
        match key.to_ascii_lowercase().as_str() {
            "interval" => request.interval = centiseconds(value)?,
            "ownership" if format == Format::Kata => request.ownership = boolean(value)?,
            "maxmoves" => request.max_moves = count(value)?,
            "minmoves" => {
                count(value)?;
            }
            _ => return Err(format!("unsupported analysis option: {key}")),
        }
        rest = tail;
    }
    Ok(request)
}

fn centiseconds(s: &str) -> Result<Duration, String> {
    let cs: u64 = s.parse().map_err(|_| format!("invalid interval (centiseconds): {s}"))?;
    // Reports at most every 10 ms: a GUI asking for 0 gets them as fast as it can read them.
    Ok(Duration::from_millis((cs * 10).clamp(10, 3_600_000)))
}

fn boolean(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("true or false expected, not {s}")),
    }
}

fn count(s: &str) -> Result<usize, String> {
    s.parse().map_err(|_| format!("a count expected, not {s}"))
}

/// One report line (without its newline), from the point of view of `color`.
pub(crate) fn line(format: Format, request: &Request, analysis: &Analysis, board: &Board, color: Color) -> String {
    let mut out = String::new();
    for (order, m) in analysis.moves.iter().take(request.max_moves).enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        let pv: Vec<String> = m.pv.iter().map(ToString::to_string).collect();
        let permyriad = |x: f32| (x * 10_000.0).round() as i64;
        match format {
            Format::Leela => {
                let _ = write!(
                    out,
                    "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                    m.mv,
                    m.visits,
                    permyriad(m.win_rate),
                    permyriad(m.prior),
                    permyriad(m.lcb().max(0.0)),
                    pv.join(" ")
                );
            }
            Format::Kata => {
                let _ = write!(
                    out,
                    "info move {} visits {} utility {:.6} winrate {:.6} scoreMean {:.4} scoreStdev {:.4} \
                     scoreLead {:.4} prior {:.6} lcb {:.6} order {order} pv {}",
                    m.mv,
                    m.visits,
                    2.0 * m.win_rate - 1.0,
                    m.win_rate,
                    m.score_lead,
                    m.score_stdev,
                    m.score_lead,
                    m.prior,
                    m.lcb(),
                    pv.join(" ")
                );
            }
        }
    }
    if format == Format::Kata && request.ownership && !analysis.ownership.is_empty() {
        // Row-major from the top-left point (A19 on 19×19), for the player to move.
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        out.push_str(if out.is_empty() { "ownership" } else { " ownership" });
        let size = board.size() as u8;
        for row in (0..size).rev() {
            for col in 0..size {
                let p = Point::new(col, row).expect("a point of the board");
                // `+ 0.0` turns −0 into 0.
                let _ = write!(out, " {:.4}", sign * analysis.ownership[p.index()] + 0.0);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Move;
    use tengen_engine::MoveStats;

    #[test]
    fn arguments() {
        let r = parse(Format::Leela, &["b", "50"]).unwrap();
        assert_eq!((r.color, r.interval, r.ownership), (Some(Color::Black), Duration::from_millis(500), false));
        let r = parse(Format::Kata, &["interval", "20", "ownership", "true", "maxmoves", "3"]).unwrap();
        assert_eq!((r.color, r.interval, r.ownership, r.max_moves), (None, Duration::from_millis(200), true, 3));
        let r = parse(Format::Kata, &["W", "0"]).unwrap();
        assert_eq!((r.color, r.interval), (Some(Color::White), Duration::from_millis(10)));
        assert_eq!(parse(Format::Leela, &[]).unwrap().interval, Duration::from_secs(1));
        for (format, args, says) in [
            (Format::Leela, &["b", "x", "1"][..], "unsupported analysis option: x"),
            (Format::Leela, &["b", "x"][..], "option x needs a value"),
            (Format::Leela, &["ownership", "true"][..], "unsupported analysis option: ownership"),
            (Format::Kata, &["ownership", "maybe"][..], "true or false expected"),
            (Format::Kata, &["interval"][..], "needs a value"),
            (Format::Kata, &["interval", "-3"][..], "invalid interval"),
            (Format::Kata, &["avoid", "b", "D4", "1"][..], "unsupported analysis option: avoid"),
        ] {
            let e = parse(format, args).unwrap_err();
            assert!(e.contains(says), "{args:?}: {e}");
        }
    }

    #[test]
    fn report_lines() {
        let board = Board::new(2).unwrap();
        let a = Point::new(0, 1).unwrap();
        let b = Point::new(1, 0).unwrap();
        let analysis = Analysis {
            playouts: 30,
            moves: vec![
                MoveStats {
                    mv: Move::Play(a),
                    visits: 20,
                    win_rate: 0.75,
                    score_lead: 2.5,
                    score_stdev: 1.0,
                    prior: 0.2,
                    pv: vec![Move::Play(a), Move::Play(b)],
                },
                MoveStats {
                    mv: Move::Pass,
                    visits: 10,
                    win_rate: 0.5,
                    score_lead: -0.5,
                    score_stdev: 2.0,
                    prior: 0.2,
                    pv: vec![Move::Pass],
                },
            ],
            ownership: {
                let mut o = vec![0.0; Point::TABLE_SIZE];
                o[a.index()] = 1.0;
                o[b.index()] = -0.5;
                o
            },
        };
        let all = Request { color: None, interval: Duration::from_secs(1), ownership: true, max_moves: 9 };
        let lz = line(Format::Leela, &all, &analysis, &board, Color::Black);
        assert_eq!(
            lz,
            "info move A2 visits 20 winrate 7500 prior 2000 lcb 5313 order 0 pv A2 B1 \
             info move pass visits 10 winrate 5000 prior 2000 lcb 2366 order 1 pv pass"
        );
        let one = Request { max_moves: 1, ..all };
        let kata = line(Format::Kata, &one, &analysis, &board, Color::White);
        assert_eq!(
            kata,
            "info move A2 visits 20 utility 0.500000 winrate 0.750000 scoreMean 2.5000 scoreStdev 1.0000 \
             scoreLead 2.5000 prior 0.200000 lcb 0.531295 order 0 pv A2 B1 \
             ownership -1.0000 0.0000 0.0000 0.5000"
        );
    }
}
