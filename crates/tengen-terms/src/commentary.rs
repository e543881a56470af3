//! A game being commented move by move: legality with the game's whole history (positional
//! superko) and the recent moves the history-dependent names need.

use tengen_core::{Color, Game, IllegalMove, Move, PlayError, Point};

use crate::moves::{MoveNames, Recent, name_move};

/// A [`Game`] with what the commentator remembers of it.
#[derive(Clone)]
pub struct Commentary {
    game: Game,
    recent: Recent,
}

impl Commentary {
    /// Starts from `game`'s first position and replays its moves.
    ///
    /// # Panics
    /// Never for a `Game`: its moves were checked when they were played.
    #[must_use]
    pub fn new(game: &Game) -> Commentary {
        let mut c = Commentary { game: game.truncated(0), recent: Recent::default() };
        for &(color, mv) in game.moves() {
            c.play(color, mv).expect("a game's own moves replay");
        }
        c
    }

    /// The game so far.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays a move, checked as the game checks it. A move after two passes resumes play, as
    /// game records that continue after passes do.
    ///
    /// # Errors
    /// [`PlayError`]; nothing changes then.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        let before = self.game.board().clone();
        self.game.play_on(color, mv)?;
        let point = match mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        };
        self.recent = self.recent.after(color, point, &before);
        Ok(())
    }

    /// Names `color`'s move at `p` in the current position (without playing it).
    ///
    /// # Errors
    /// [`IllegalMove`], superko included.
    pub fn name(&self, color: Color, p: Point) -> Result<MoveNames, IllegalMove> {
        let check = self.game.check_on(color, Move::Play(p));
        if let Err(PlayError::Illegal(e)) = check {
            return Err(e);
        }
        name_move(self.game.board(), color, p, &self.recent)
    }
}
