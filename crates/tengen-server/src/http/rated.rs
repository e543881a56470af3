//! What a rated game or an automatic handicap asks of a new game: a login, a rated size, a
//! level with a measured rating; and the colours, stones and komi that "auto" gives.

use super::games::{ColorChoice, HandicapChoice, NewGame};
use crate::domain::challenge::StoneCount;
use crate::domain::rating::{Glicko, auto_handicap, rank_of};
use crate::domain::{Opponent, max_handicap};
use crate::error::ApiError;
use crate::service::AppState;
use crate::service::accounts::Account;

/// Checks a rated game or an automatic handicap; returns the level's fixed rating when the
/// opponent is the computer and either is asked.
///
/// # Errors
/// 401 without a login; 422 for a size without ratings, a level not rated on the size, a
/// server that rates no games against the computer, an automatic handicap between players or
/// with colours, komi or 让先 given.
pub(super) fn check(
    app: &AppState,
    new: &NewGame,
    size: usize,
    opponent: Opponent,
    account: Option<&Account>,
    rated: bool,
    auto: bool,
) -> Result<Option<Glicko>, ApiError> {
    if !rated && !auto {
        return Ok(None);
    }
    if account.is_none() {
        return Err(ApiError::not_logged_in());
    }
    if ![9, 13, 19].contains(&size) {
        return Err(
            ApiError::refused("rated games and automatic handicaps are on 9×9, 13×13 or 19×19").because("rated_size")
        );
    }
    if auto && (new.color.is_some() || new.komi.is_some() || new.rang_xian.is_some()) {
        return Err(ApiError::refused("an automatic handicap sets the colours, the stones and the komi itself")
            .because("auto_handicap_given"));
    }
    let Opponent::Computer { level } = opponent else {
        if auto {
            return Err(ApiError::refused(
                "an automatic handicap needs the opponent's rank: against the computer (between players the other seat is not known yet)",
            )
            .because("auto_handicap_friend"));
        }
        return Ok(None);
    };
    if rated && !app.limits().rated_computer {
        return Err(ApiError::refused("this server rates no games against the computer").because("rated_computer"));
    }
    let rating = crate::levels::computer_rating(level, size, app.has_network()).ok_or_else(|| {
        ApiError::refused(format!(
            "level {level} has no measured rank on {size}×{size}: its games there are not rated yet"
        ))
        .because("level_unrated")
    })?;
    Ok(Some(rating))
}

/// The colour, stones and komi of an automatic handicap against a level: the weaker takes
/// Black; `new` with them filled in.
///
/// # Errors
/// A database error.
pub(super) async fn auto_setup(
    app: &AppState,
    mut new: NewGame,
    size: usize,
    account: Option<&Account>,
    level: Glicko,
) -> Result<(Option<ColorChoice>, NewGame), ApiError> {
    let player = match account {
        Some(a) => app.store().rating_on(&a.id, size).await?,
        None => None,
    }
    .unwrap_or_default();
    let difference = rank_of(level.rating) - rank_of(player.rating);
    let placement = new.placement.unwrap_or_default();
    let max = u32::try_from(max_handicap(size, placement)).unwrap_or(0);
    let chosen = auto_handicap(difference.abs(), size, max);
    // The weaker player takes Black; an even game between equal ranks is drawn by nigiri.
    let color = match difference {
        d if d.abs() < 0.5 && chosen.stones == 0 && !chosen.rang_xian => None,
        d if d > 0.0 => Some(ColorChoice::Black),
        _ => Some(ColorChoice::White),
    };
    new.handicap = Some(HandicapChoice::Stones(StoneCount(chosen.stones)));
    new.komi = Some(chosen.komi);
    new.rang_xian = Some(chosen.rang_xian);
    Ok((color, new))
}
