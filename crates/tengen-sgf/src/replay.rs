//! Replaying a record's main line into a [`Game`].

use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use tengen_core::{Color, Game, Komi, Move, Point, Rules, Setup, SetupError};

use crate::info::{GameInfo, InfoError};
use crate::record::Record;

/// What to do with a move that cannot be played (illegal, off the board, on a stone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMoves {
    /// Report it and stop the replay there: the game holds the moves before it.
    Stop,
    /// Report it, leave it out, and go on with the next move.
    Skip,
}

/// Something on the main line that could not be replayed as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Index of the node on the main line (0 is the root).
    pub node: usize,
    /// The number of the move that could not be played there (the moves replayed before it,
    /// plus one).
    pub move_number: usize,
    /// What was wrong, in words.
    pub message: String,
    /// The move refused by the rules, and why (none for a setup or an unreadable point).
    pub refused: Option<(Color, Move, tengen_core::PlayError)>,
}

/// A replayed record.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the main line (or up to the first problem, with [`IllegalMoves::Stop`]).
    pub game: Game,
    /// The record's game information.
    pub info: GameInfo,
    /// What could not be replayed, in order.
    pub problems: Vec<Problem>,
}

/// Why a record could not be replayed at all.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The root's game information is unusable.
    #[error(transparent)]
    Info(#[from] InfoError),
    /// The setup stones do not form a position.
    #[error("the setup stones are not a position: {0}")]
    Setup(#[from] SetupError),
}

/// The rules a record names in `RU`: territory counting for Japanese and Korean rules,
/// Tromp-Taylor for `TT`/Tromp-Taylor/New Zealand, the Chinese rules otherwise.
fn rules_for(ru: Option<&str>) -> Rules {
    let ru = ru.unwrap_or("").to_ascii_lowercase();
    if ru.starts_with("jap") || ru.starts_with("kor") || ru == "jp" {
        Rules::japanese()
    } else if ru.contains("tromp") || ru == "tt" || ru == "nz" {
        Rules::tromp_taylor()
    } else {
        Rules::chinese()
    }
}

/// An SGF point on a board of `size`, or `None` when it lies off the board.
fn point(p: SgfPoint, size: usize) -> Option<Point> {
    (usize::from(p.x) < size && usize::from(p.y) < size)
        .then(|| Point::new(p.x, (size - 1 - usize::from(p.y)) as u8))?
}

/// A move, with `tt` read as a pass on boards up to 19 × 19 (FF[3]).
pub(crate) fn to_move(m: SgfMove, size: usize) -> Result<Move, String> {
    match m {
        SgfMove::Pass => Ok(Move::Pass),
        SgfMove::Move(p) if p.x == 19 && p.y == 19 && size <= 19 => Ok(Move::Pass),
        SgfMove::Move(p) => {
            point(p, size).map(Move::Play).ok_or_else(|| format!("({}, {}) is off the board", p.x, p.y))
        }
    }
}

impl Record {
    /// Replays the main line: the root's game information and setup stones (with any setup
    /// in nodes before the first move), then every move, as [`Game::play_as`] would. Play
    /// resumes by itself after two passes if any move, a pass too, follows. Setup inside the game, after a
    /// move, cannot be replayed and is reported.
    ///
    /// # Errors
    /// [`ReplayError`] when the game information or the setup is unusable.
    pub fn replay(&self, policy: IllegalMoves) -> Result<Replay, ReplayError> {
        let info = self.info()?;
        let mut rules = rules_for(info.rules.as_deref());
        rules.komi = info.komi.unwrap_or(Komi::ZERO);
        self.replay_as(info, rules, policy)
    }

    /// Replays the main line as [`Record::replay`] does, but under `rules` whatever the
    /// record's `RU` says (a GTP controller's rules, a server's): only the komi is the
    /// record's, when it gives one (`KM`).
    ///
    /// # Errors
    /// [`ReplayError`] when the game information or the setup is unusable.
    pub fn replay_under(&self, rules: Rules, policy: IllegalMoves) -> Result<Replay, ReplayError> {
        let info = self.info()?;
        let rules = Rules { komi: info.komi.unwrap_or(rules.komi), ..rules };
        self.replay_as(info, rules, policy)
    }

    fn replay_as(&self, info: GameInfo, rules: Rules, policy: IllegalMoves) -> Result<Replay, ReplayError> {
        let size = info.size;
        let mut setup = Setup { rules, ..Setup::new(size) };
        let mut problems = Vec::new();
        let nodes: Vec<_> = self.main_line().collect();

        // Setup before the first move.
        let mut first_move = nodes.len();
        for (i, node) in nodes.iter().enumerate() {
            if node.properties().any(|p| matches!(p, Prop::B(_) | Prop::W(_))) {
                first_move = i;
                break;
            }
            for prop in node.properties() {
                let mut place = |points: &std::collections::HashSet<SgfPoint>, black: Option<bool>| {
                    for &p in points {
                        let Some(q) = point(p, size) else {
                            problems.push(Problem {
                                node: i,
                                move_number: 1,
                                message: format!("setup point ({}, {}) is off the board", p.x, p.y),
                                refused: None,
                            });
                            continue;
                        };
                        setup.black.retain(|&b| b != q);
                        setup.white.retain(|&w| w != q);
                        match black {
                            Some(true) => setup.black.push(q),
                            Some(false) => setup.white.push(q),
                            None => {}
                        }
                    }
                };
                match prop {
                    Prop::AB(ps) => place(ps, Some(true)),
                    Prop::AW(ps) => place(ps, Some(false)),
                    Prop::AE(ps) => place(ps, None),
                    Prop::PL(c) => {
                        setup.to_move = if *c == sgf_parse::Color::Black { Color::Black } else { Color::White };
                    }
                    _ => {}
                }
            }
        }
        setup.black.sort();
        setup.white.sort();
        if info.handicap >= 2 && setup.white.is_empty() && !setup.black.is_empty() {
            setup.handicap = info.handicap.min(setup.black.len());
            if !nodes.iter().any(|n| n.properties().any(|p| matches!(p, Prop::PL(_)))) {
                setup.to_move = Color::White;
            }
        }
        let mut game = Game::try_from(setup)?;

        for (i, node) in nodes.iter().enumerate().skip(first_move) {
            for prop in node.properties() {
                let (color, m) = match prop {
                    Prop::B(m) => (Color::Black, *m),
                    Prop::W(m) => (Color::White, *m),
                    Prop::AB(_) | Prop::AW(_) | Prop::AE(_) => {
                        problems.push(Problem {
                            node: i,
                            move_number: game.moves().len() + 1,
                            message: "setup stones after the first move are not replayed".into(),
                            refused: None,
                        });
                        if policy == IllegalMoves::Stop {
                            return Ok(Replay { game, info, problems });
                        }
                        continue;
                    }
                    _ => continue,
                };
                let result = to_move(m, size).map_err(|message| (message, None)).and_then(|mv| {
                    game.play_on(color, mv).map_err(|e| (format!("{color} {mv}: {e}"), Some((color, mv, e))))
                });
                if let Err((message, refused)) = result {
                    problems.push(Problem { node: i, move_number: game.moves().len() + 1, message, refused });
                    if policy == IllegalMoves::Stop {
                        return Ok(Replay { game, info, problems });
                    }
                }
            }
        }
        Ok(Replay { game, info, problems })
    }
}
