//! A challenge's terms, and the game they give two players of known ratings: who takes Black,
//! the handicap stones and the komi (上手 gives 先 or 子; in 猜先 the stronger holds the stones).

use rand::Rng;
use serde::{Deserialize, Serialize};
use tengen_core::{Color, Nigiri, Parity};

use super::rating::{Glicko, auto_handicap, rank_of};
use super::{Placement, TimeControl, max_handicap};

/// Live challenges whose owner is away from the lobby this long are withdrawn.
pub const LIVE_GRACE_MS: i64 = 10_000;
/// The longest an open live challenge waits, its owner present or not.
pub const LIVE_OPEN_MS: i64 = 2 * 3600 * 1000;
/// The longest a direct live challenge waits for its answer.
pub const LIVE_DIRECT_MS: i64 = 10 * 60 * 1000;
/// The longest an open correspondence challenge waits.
pub const CORRESPONDENCE_OPEN_MS: i64 = 14 * 86_400_000;
/// The longest a direct correspondence challenge waits for its answer.
pub const CORRESPONDENCE_DIRECT_MS: i64 = 7 * 86_400_000;

/// The handicap a challenge asks for: a number of stones, or `"auto"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum Handicap {
    /// This many stones: 0 (an even game) or 2 up to what the board takes.
    Stones(#[schema(inline)] StoneCount),
    /// From the two players' ranks on the board's size (9×9, 13×13, 19×19).
    Auto(AutoWord),
}

/// A number of handicap stones: 0, or 2 to 9 (as many as the board takes). Its schema says
/// 0 to 9, so that a larger number is a request outside the document (400).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoneCount(pub u32);

impl utoipa::PartialSchema for StoneCount {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Integer))
            .minimum(Some(0))
            .maximum(Some(9))
            .description(Some("0, or 2 to 9 stones"))
            .into()
    }
}

impl utoipa::ToSchema for StoneCount {}

/// The word `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AutoWord {
    /// From the ranks.
    Auto,
}

impl Handicap {
    /// The handicap from the ranks.
    pub const AUTO: Handicap = Handicap::Auto(AutoWord::Auto);
}

/// Who takes which colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ColorRule {
    /// The weaker player takes Black; between equal ranks, nigiri.
    Auto,
    /// Nigiri (猜先): the stronger holds the stones, the weaker guesses.
    Nigiri,
    /// The challenger plays Black.
    Black,
    /// The challenger plays White.
    White,
}

/// What a challenge offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Terms {
    /// Board size.
    pub size: usize,
    /// The time control.
    pub time: TimeControl,
    /// Rated: the result changes both players' ratings.
    pub rated: bool,
    /// The handicap.
    pub handicap: Handicap,
    /// The colours.
    pub color: ColorRule,
    /// The weakest rank that may accept (0 = 30 kyu … 38 = 9 dan), on the board's size.
    pub rank_min: Option<i32>,
    /// The strongest rank that may accept.
    pub rank_max: Option<i32>,
}

/// Why terms are refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The API's reason code.
    pub reason: &'static str,
    /// The sentence.
    pub detail: String,
}

fn refuse(reason: &'static str, detail: impl Into<String>) -> Refusal {
    Refusal { reason, detail: detail.into() }
}

/// The sizes with ratings, ranks and automatic handicaps.
pub const RATED_SIZES: [usize; 3] = [9, 13, 19];

impl Terms {
    /// The checks that do not need a game: rated and automatic handicaps on rated sizes, an
    /// automatic handicap with automatic colours, a handicap the board takes, a rank range in
    /// order. (The board and the clock are checked by the game the terms make.)
    ///
    /// # Errors
    /// The first rule broken.
    pub fn check(&self) -> Result<(), Refusal> {
        let rated_size = RATED_SIZES.contains(&self.size);
        if (self.rated || self.handicap == Handicap::AUTO) && !rated_size {
            return Err(refuse("rated_size", "rated games and automatic handicaps are on 9×9, 13×13 or 19×19"));
        }
        if self.handicap == Handicap::AUTO && self.color != ColorRule::Auto {
            return Err(refuse(
                "auto_handicap_given",
                "an automatic handicap sets the colours itself: colour \"auto\"",
            ));
        }
        if let Handicap::Stones(StoneCount(n)) = self.handicap {
            let max = max_handicap(self.size, Placement::Fixed) as u32;
            if n == 1 || n > max.max(1) || (n > 0 && max == 0) {
                return Err(refuse(
                    "handicap_stones",
                    format!("handicap stones: 0, or 2 to {max} on {0}×{0}", self.size),
                ));
            }
        }
        if let (Some(lo), Some(hi)) = (self.rank_min, self.rank_max)
            && lo > hi
        {
            return Err(refuse("rank_range", "the rank range's weakest rank is stronger than its strongest"));
        }
        Ok(())
    }

    /// Whether a player of `glicko` on the board's size is within the rank range.
    #[must_use]
    pub fn admits(&self, glicko: &Glicko) -> bool {
        let rank = whole_rank(glicko);
        self.rank_min.is_none_or(|lo| rank >= lo) && self.rank_max.is_none_or(|hi| rank <= hi)
    }

    /// The game between the challenger (`owner`) and the player who accepts, from their
    /// ratings on the board's size; a nigiri is drawn with `rng`.
    #[must_use]
    pub fn setup(&self, owner: &Glicko, acceptor: &Glicko, rng: &mut impl Rng) -> Setup {
        // In ranks: how much stronger the challenger is (negative: weaker).
        let ahead = rank_of(owner.rating) - rank_of(acceptor.rating);
        let equal = whole_rank(owner) == whole_rank(acceptor);
        let weaker = if ahead < 0.0 { Who::Owner } else { Who::Acceptor };
        let even_komi = 7.5;
        let (stones, komi, rang_xian) = match self.handicap {
            Handicap::Auto(_) => {
                let max = max_handicap(self.size, Placement::Fixed) as u32;
                let chosen = auto_handicap(ahead.abs(), self.size, max);
                (chosen.stones, chosen.komi, chosen.rang_xian)
            }
            Handicap::Stones(StoneCount(0)) => (0, even_komi, false),
            Handicap::Stones(StoneCount(n)) => (n, 0.0, false),
        };
        let given = stones > 0 || rang_xian;
        let mut nigiri = || {
            // The stronger holds the stones; the weaker (at equal rank, the one who accepts)
            // guesses odd.
            let guesser = if equal { Who::Acceptor } else { weaker };
            let drawn = Nigiri::draw(rng, Parity::Odd);
            (guesser.other_if(drawn.guesser_color() == Color::White), Some(drawn))
        };
        let (black, drawn) = match self.color {
            ColorRule::Black => (Who::Owner, None),
            ColorRule::White => (Who::Acceptor, None),
            ColorRule::Nigiri => nigiri(),
            // The weaker takes Black in a handicap or 让先, and in an even game between ranks
            // that differ; between equal ranks colours are drawn.
            ColorRule::Auto if given || !equal => (weaker, None),
            ColorRule::Auto => nigiri(),
        };
        Setup {
            owner_color: if black == Who::Owner { Color::Black } else { Color::White },
            stones: stones as usize,
            komi,
            rang_xian,
            nigiri: drawn.map(|n| (n.guess == Parity::Odd, n.handful)),
        }
    }
}

/// A player's whole rank (0 = 30 kyu).
#[must_use]
pub fn whole_rank(glicko: &Glicko) -> i32 {
    rank_of(glicko.rating).floor().clamp(0.0, 38.0) as i32
}

/// A whole rank as written: `6k`, `1d`.
#[must_use]
pub fn rank_text(rank: i32) -> String {
    if rank < 30 { format!("{}k", 30 - rank) } else { format!("{}d", rank - 29) }
}

/// A rank as written (`15k`, `1d`, either case) as a whole rank.
///
/// # Errors
/// Not a rank from 30 kyu to 9 dan.
pub fn parse_rank(text: &str) -> Result<i32, Refusal> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || refuse("rank", format!("a rank is 30k to 1k or 1d to 9d, not {text:?}"));
    // The last character is the kind; split at its boundary, not at a byte (`"€"`, `"1é"`).
    let Some((at, _)) = t.char_indices().next_back() else { return Err(bad()) };
    let (n, kind) = t.split_at(at);
    // ASCII digits only: `str::parse` takes a leading `+`, and nothing else is a rank.
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || n.len() > 2 {
        return Err(bad());
    }
    let n: i32 = n.parse().map_err(|_| bad())?;
    match kind {
        "k" if (1..=30).contains(&n) => Ok(30 - n),
        "d" if (1..=9).contains(&n) => Ok(29 + n),
        _ => Err(bad()),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    Owner,
    Acceptor,
}

impl Who {
    fn other_if(self, flip: bool) -> Who {
        match (self, flip) {
            (w, false) => w,
            (Who::Owner, true) => Who::Acceptor,
            (Who::Acceptor, true) => Who::Owner,
        }
    }
}

/// The game a challenge gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The challenger's colour.
    pub owner_color: Color,
    /// Handicap stones.
    pub stones: usize,
    /// Komi in points.
    pub komi: f64,
    /// 让先: Black first without komi.
    pub rang_xian: bool,
    /// The nigiri, when colours were drawn: (the guess was odd, stones in the handful).
    pub nigiri: Option<(bool, u8)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::rating::rating_of;
    use rand::SeedableRng;

    fn at_rank(rank: f64) -> Glicko {
        Glicko { rating: rating_of(rank + 0.5), deviation: 60.0, volatility: 0.06 }
    }

    fn terms(handicap: Handicap, color: ColorRule) -> Terms {
        Terms { size: 19, time: TimeControl::default(), rated: true, handicap, color, rank_min: None, rank_max: None }
    }

    #[test]
    fn ranks_read_and_write() {
        assert_eq!(parse_rank("30k"), Ok(0));
        assert_eq!(parse_rank("1K"), Ok(29));
        assert_eq!(parse_rank(" 1d"), Ok(30));
        assert_eq!(parse_rank("9d"), Ok(38));
        for bad in ["0k", "31k", "10d", "d", "", "5p", "-1k", "1.5k", "+1k", "€", "1é", "１ｋ", "1\u{301}k", "é"]
        {
            assert_eq!(parse_rank(bad).unwrap_err().reason, "rank", "{bad}");
        }
        for r in 0..=38 {
            assert_eq!(parse_rank(&rank_text(r)), Ok(r));
        }
    }

    #[test]
    fn the_weaker_takes_black_and_the_stones() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        // A 5 kyu challenger, a 9 kyu who accepts: 4 stones to the weaker on 19×19.
        let (five, nine) = (at_rank(25.0), at_rank(21.0));
        let s = terms(Handicap::AUTO, ColorRule::Auto).setup(&five, &nine, &mut rng);
        assert_eq!((s.owner_color, s.stones, s.komi, s.nigiri), (Color::White, 4, 0.5, None));
        // The other way round: the challenger is the weaker.
        let s = terms(Handicap::AUTO, ColorRule::Auto).setup(&nine, &five, &mut rng);
        assert_eq!((s.owner_color, s.stones), (Color::Black, 4));
        // One rank apart: 让先, the weaker Black.
        let s = terms(Handicap::AUTO, ColorRule::Auto).setup(&at_rank(20.0), &at_rank(21.0), &mut rng);
        assert_eq!((s.owner_color, s.stones, s.komi, s.rang_xian), (Color::Black, 0, 0.0, true));
        // Given stones: komi 0, the weaker Black with colour "auto".
        let s = terms(Handicap::Stones(StoneCount(3)), ColorRule::Auto).setup(&five, &nine, &mut rng);
        assert_eq!((s.owner_color, s.stones, s.komi), (Color::White, 3, 0.0));
        // An even game with colours fixed by the challenger.
        let s = terms(Handicap::Stones(StoneCount(0)), ColorRule::White).setup(&nine, &five, &mut rng);
        assert_eq!((s.owner_color, s.stones, s.komi), (Color::White, 0, 7.5));
    }

    #[test]
    fn equal_ranks_draw_colours_and_the_weaker_guesses() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let (a, b) = (at_rank(25.0), at_rank(25.0));
        let mut colours = [0; 2];
        for _ in 0..200 {
            let s = terms(Handicap::AUTO, ColorRule::Auto).setup(&a, &b, &mut rng);
            let (odd, handful) = s.nigiri.expect("equal ranks: nigiri");
            assert!(odd && (1..=30).contains(&handful));
            assert_eq!((s.stones, s.komi), (0, 7.5));
            // The one who accepts guesses: a right guess (odd handful) takes Black.
            let acceptor_black = handful % 2 == 1;
            assert_eq!(s.owner_color == Color::White, acceptor_black);
            colours[s.owner_color.index()] += 1;
        }
        assert!(colours[0] > 60 && colours[1] > 60, "{colours:?}");
        // Nigiri asked between unequal ranks: the weaker (the challenger here) guesses.
        let s = terms(Handicap::Stones(StoneCount(0)), ColorRule::Nigiri).setup(&at_rank(20.0), &a, &mut rng);
        let (_, handful) = s.nigiri.unwrap();
        assert_eq!(s.owner_color == Color::Black, handful % 2 == 1);
    }

    #[test]
    fn terms_that_cannot_be() {
        let reason = |t: Terms| t.check().unwrap_err().reason;
        assert_eq!(reason(Terms { size: 7, ..terms(Handicap::Stones(StoneCount(0)), ColorRule::Auto) }), "rated_size");
        assert_eq!(reason(Terms { rated: false, size: 11, ..terms(Handicap::AUTO, ColorRule::Auto) }), "rated_size");
        assert_eq!(reason(terms(Handicap::AUTO, ColorRule::Black)), "auto_handicap_given");
        assert_eq!(reason(terms(Handicap::Stones(StoneCount(1)), ColorRule::Auto)), "handicap_stones");
        assert_eq!(reason(terms(Handicap::Stones(StoneCount(10)), ColorRule::Auto)), "handicap_stones");
        assert_eq!(
            reason(Terms { rated: false, size: 8, ..terms(Handicap::Stones(StoneCount(5)), ColorRule::Auto) }),
            "handicap_stones"
        );
        assert_eq!(
            reason(Terms { rank_min: Some(25), rank_max: Some(20), ..terms(Handicap::AUTO, ColorRule::Auto) }),
            "rank_range"
        );
        assert!(Terms { size: 9, ..terms(Handicap::Stones(StoneCount(5)), ColorRule::Black) }.check().is_ok());
        let unrated = Terms { rated: false, size: 5, ..terms(Handicap::Stones(StoneCount(0)), ColorRule::Nigiri) };
        assert!(unrated.check().is_ok());
    }

    #[test]
    fn the_rank_range_admits_by_whole_rank() {
        let t = Terms { rank_min: Some(20), rank_max: Some(25), ..terms(Handicap::AUTO, ColorRule::Auto) };
        assert!(t.admits(&at_rank(20.0)) && t.admits(&at_rank(25.0)));
        assert!(!t.admits(&at_rank(19.0)) && !t.admits(&at_rank(26.0)));
        assert!(terms(Handicap::AUTO, ColorRule::Auto).admits(&at_rank(0.0)));
    }
}
