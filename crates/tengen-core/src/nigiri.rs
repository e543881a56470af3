//! Choosing colours by nigiri (猜先).
//!
//! The stronger player (or, at equal rank, the older) takes a handful of white stones; the
//! other shows one black stone to guess "odd" or two to guess "even". A right guess takes Black.

use rand::Rng;

use crate::color::Color;

/// The guess: one black stone shown for odd, two for even.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parity {
    /// One stone shown: the handful is odd.
    Odd,
    /// Two stones shown: the handful is even.
    Even,
}

/// A nigiri as it happened, to be shown and recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nigiri {
    /// How many white stones the holder took.
    pub handful: u8,
    /// What the guesser showed.
    pub guess: Parity,
}

impl Nigiri {
    /// Draws a handful of 1 to 30 stones with the given RNG and records the guess.
    pub fn draw<R: Rng + ?Sized>(rng: &mut R, guess: Parity) -> Nigiri {
        Nigiri { handful: rng.random_range(1..=30), guess }
    }

    /// Whether the guess was right.
    #[must_use]
    pub fn guessed_right(&self) -> bool {
        let odd = self.handful % 2 == 1;
        odd == (self.guess == Parity::Odd)
    }

    /// The colour the guesser plays: Black after a right guess, else White.
    #[must_use]
    pub fn guesser_color(&self) -> Color {
        if self.guessed_right() { Color::Black } else { Color::White }
    }

    /// The colour the holder of the handful plays.
    #[must_use]
    pub fn holder_color(&self) -> Color {
        self.guesser_color().opponent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn right_guess_takes_black() {
        let n = Nigiri { handful: 17, guess: Parity::Odd };
        assert_eq!((n.guesser_color(), n.holder_color()), (Color::Black, Color::White));
        let n = Nigiri { handful: 17, guess: Parity::Even };
        assert_eq!(n.guesser_color(), Color::White);
        let n = Nigiri { handful: 4, guess: Parity::Even };
        assert_eq!(n.guesser_color(), Color::Black);
    }

    #[test]
    fn seeded_and_fair() {
        let a = Nigiri::draw(&mut StdRng::seed_from_u64(7), Parity::Odd);
        let b = Nigiri::draw(&mut StdRng::seed_from_u64(7), Parity::Odd);
        assert_eq!(a, b);
        let mut rng = StdRng::seed_from_u64(1);
        let black = (0..10_000).filter(|_| Nigiri::draw(&mut rng, Parity::Even).guessed_right()).count();
        assert!((4_700..5_300).contains(&black), "{black} right guesses of 10000");
        assert!((0..1000).all(|_| (1..=30).contains(&Nigiri::draw(&mut rng, Parity::Odd).handful)));
    }
}
