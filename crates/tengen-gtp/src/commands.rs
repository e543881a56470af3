//! The command table, in alphabetical order (the session finds commands by binary search).
//! Each handler is documented as GNU Go documents its own: what it does, its arguments, when
//! it fails, what it returns.

use tengen_core::handicap::{fixed_points, max_fixed};
use tengen_core::{Color, Komi, Move, Phase, Point, Rules, Status, Unconditional};
use tengen_sgf::{GameInfo, IllegalMoves, Record, write_game};

use crate::kata;
use crate::session::{Clock, Session};
use tengen_engine::Decision;

/// A handler: the session and the arguments; the response body or the error message.
pub(crate) type Handler = fn(&mut Session, &[&str]) -> Result<String, String>;

/// Every command, sorted by name.
pub(crate) const COMMANDS: &[(&str, Handler)] = &[
    ("boardsize", boardsize),
    ("captures", captures),
    ("clear_board", clear_board),
    ("countlib", countlib),
    ("final_score", final_score),
    ("final_status_list", final_status_list),
    ("fixed_handicap", fixed_handicap),
    ("genmove", genmove),
    ("gogui-analyze_commands", gogui_analyze_commands),
    ("is_legal", is_legal),
    ("kata-analyze", streaming),
    ("kata-get-rules", kata_get_rules),
    ("kata-list_time_settings", kata_list_time_settings),
    ("kata-set-rules", kata_set_rules),
    ("kata-time_settings", kata_time_settings),
    ("kgs-game_over", kgs_game_over),
    ("kgs-genmove_cleanup", genmove),
    ("kgs-rules", kgs_rules),
    ("kgs-time_settings", kgs_time_settings),
    ("known_command", known_command),
    ("komi", komi),
    ("list_commands", list_commands),
    ("list_stones", list_stones),
    ("loadsgf", loadsgf),
    ("lz-analyze", streaming),
    ("name", name),
    ("place_free_handicap", place_free_handicap),
    ("play", play),
    ("printsgf", printsgf),
    ("protocol_version", protocol_version),
    ("quit", quit),
    ("reg_genmove", reg_genmove),
    ("set_free_handicap", set_free_handicap),
    ("showboard", showboard),
    ("tengen-explain", tengen_explain),
    ("tengen-point", tengen_point),
    ("time_left", time_left),
    ("time_settings", time_settings),
    ("unconditional_status", unconditional_status),
    ("undo", undo),
    ("version", version),
];

type Reply = Result<String, String>;

fn arity(args: &[&str], n: usize) -> Result<(), String> {
    if args.len() == n { Ok(()) } else { Err(format!("syntax error: {n} argument(s) expected, {} given", args.len())) }
}

fn color(arg: &str) -> Result<Color, String> {
    arg.parse().map_err(|_| format!("invalid color: {arg}"))
}

/// A vertex or `pass`, on the board.
fn mv(s: &Session, arg: &str) -> Result<Move, String> {
    let m: Move = arg.parse().map_err(|_| format!("invalid coordinate: {arg}"))?;
    match m {
        Move::Play(p) if !s.game.board().contains(p) => Err(format!("invalid coordinate: {arg} is off the board")),
        _ => Ok(m),
    }
}

/// A vertex on the board (not `pass`).
fn point(s: &Session, arg: &str) -> Result<Point, String> {
    match mv(s, arg)? {
        Move::Play(p) => Ok(p),
        Move::Pass => Err("a vertex is expected, not pass".into()),
    }
}

fn points_text(mut points: Vec<Point>) -> String {
    points.sort_by_key(|p| (p.col(), p.row()));
    points.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// The stones taken as dead at the end: the engine's judgement when it has one, else those
/// unconditionally dead.
fn dead_stones(s: &mut Session) -> Vec<Point> {
    if let Some(dead) = s.engine.dead_stones(&s.game) {
        return dead;
    }
    let board = s.game.board();
    let status = Unconditional::new(board);
    board.points().filter(|&p| status.status(p) == Status::Dead).collect()
}

/// Function: set the board size and clear the board. Arguments: size (2 to 25).
/// Fails: not a number, or unacceptable size. Returns: nothing.
fn boardsize(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let size: usize = args[0].parse().map_err(|_| "unacceptable size".to_owned())?;
    if !(2..=25).contains(&size) {
        return Err("unacceptable size".into());
    }
    s.size = size;
    s.new_game();
    Ok(String::new())
}

/// Function: stones captured by a colour. Arguments: colour. Fails: invalid colour.
/// Returns: the number.
fn captures(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    Ok(s.game.board().captures(color(args[0])?).to_string())
}

/// Function: clear the board (size, komi and rules stay). Arguments: none. Fails: never.
/// Returns: nothing.
fn clear_board(s: &mut Session, _: &[&str]) -> Reply {
    s.new_game();
    Ok(String::new())
}

/// Function: liberties of the chain at a vertex. Arguments: vertex. Fails: invalid or empty
/// vertex. Returns: the number.
fn countlib(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let p = point(s, args[0])?;
    if s.game.board().get(p).is_none() {
        return Err("vertex must not be empty".into());
    }
    Ok(s.game.board().liberties(p).to_string())
}

/// Function: the score of the position, the stones `final_status_list dead` names removed.
/// Arguments: none. Fails: never. Returns: `B+1.5`, `W+0.5`, `0`.
fn final_score(s: &mut Session, _: &[&str]) -> Reply {
    let dead = dead_stones(s);
    Ok(s.game.score(&dead).result_points())
}

/// Function: the stones of a status. Arguments: `alive`, `dead` or `seki`. Fails: other
/// status. Returns: vertices, space separated (dead: the engine's judgement, else the
/// unconditionally dead stones; seki: none yet).
fn final_status_list(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let dead = dead_stones(s);
    let board = s.game.board();
    let stones: Vec<Point> = board.points().filter(|&p| board.get(p).is_some()).collect();
    match args[0].to_ascii_lowercase().as_str() {
        "dead" => Ok(points_text(dead)),
        "alive" => Ok(points_text(stones.into_iter().filter(|p| !dead.contains(p)).collect())),
        "seki" => Ok(String::new()),
        other => Err(format!("invalid status: {other} (alive, dead or seki)")),
    }
}

/// Function: place a fixed handicap in GTP's order. Arguments: number of stones. Fails: board
/// not empty, or a number this size has no placement for. Returns: the vertices.
fn fixed_handicap(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let n: usize = args[0].parse().map_err(|_| format!("invalid number of stones: {}", args[0]))?;
    let points = fixed_points(s.size, n).map_err(|e| e.to_string())?;
    s.game.set_handicap(&points).map_err(|e| e.to_string())?;
    Ok(points_text(points))
}

/// Function: the engine chooses a move for a colour and plays it. Arguments: colour. Fails:
/// invalid colour, or the game is over. Returns: the vertex, `pass` or `resign`.
fn genmove(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let c = color(args[0])?;
    ready_to_play(s)?;
    let budget = s.clock.budget(c, s.game.board().empty_count());
    let decision = s.engine.decide(&s.game, c, budget);
    log_search(s);
    match decision {
        Decision::Play(m) => {
            s.game.play_as(c, m).map_err(|e| format!("the engine chose an illegal move: {e}"))?;
            Ok(m.to_string())
        }
        Decision::Resign => {
            s.game.resign(c);
            Ok("resign".into())
        }
    }
}

/// Tells the session's log what the search behind the last decision found.
fn log_search(s: &mut Session) {
    if let (Some(log), Some(report)) = (s.log.as_mut(), s.engine.last_search()) {
        log(report);
    }
}

/// Play goes on after two passes if a move comes; a resigned or counted game is over.
fn ready_to_play(s: &mut Session) -> Result<(), String> {
    match s.game.phase() {
        Phase::Playing => Ok(()),
        Phase::Counting => s.game.resume().map_err(|e| e.to_string()),
        Phase::Ended(o) => Err(format!("the game is over ({})", o.result_points())),
    }
}

/// Function: `lz-analyze` and `kata-analyze` stream their answer, so `Session::run` answers
/// them itself (see `analyze.rs`); this entry lists them. Fails: always, when a single line is
/// executed outside a stream.
fn streaming(_: &mut Session, _: &[&str]) -> Reply {
    Err("the analysis commands stream their answer: send them on a GTP stream".into())
}

/// Function: the analysis commands GoGui can offer. Arguments: none. Fails: never. Returns:
/// one `type/label/command` per line.
fn gogui_analyze_commands(_: &mut Session, _: &[&str]) -> Reply {
    Ok([
        "string/Unconditional status/unconditional_status %p",
        "string/Liberties/countlib %p",
        "plist/Dead stones/final_status_list dead",
    ]
    .join("\n"))
}

/// Function: whether a move is legal (superko included). Arguments: colour, vertex. Fails:
/// invalid colour or vertex. Returns: `1` or `0`.
fn is_legal(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 2)?;
    let (c, m) = (color(args[0])?, mv(s, args[1])?);
    Ok(if s.game.check(c, m).is_ok() { "1" } else { "0" }.into())
}

/// Function: the rules in KataGo's JSON form. Arguments: none. Fails: never. Returns: JSON.
fn kata_get_rules(s: &mut Session, _: &[&str]) -> Reply {
    Ok(kata::to_json(&s.rules, s.friendly_pass_ok))
}

/// Function: set the rules from a KataGo preset or JSON object; komi stays. Arguments: the
/// preset or the JSON. Fails: unknown preset, bad JSON, or a rule tengen does not support.
/// Returns: nothing.
fn kata_set_rules(s: &mut Session, args: &[&str]) -> Reply {
    let (rules, friendly) = kata::parse(&args.join(" "), s.rules.komi)?;
    s.rules = rules;
    s.friendly_pass_ok = friendly;
    s.game.set_rules(rules);
    Ok(String::new())
}

/// Function: KGS says the game is over. Arguments: none. Fails: never. Returns: nothing.
fn kgs_game_over(_: &mut Session, _: &[&str]) -> Reply {
    Ok(String::new())
}

/// Function: set the rules by KGS's name; komi stays. Arguments: `chinese`, `japanese`, `aga`,
/// `new_zealand`. Fails: other names. Returns: nothing.
fn kgs_rules(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let base = match args[0].to_ascii_lowercase().as_str() {
        "chinese" => Rules::chinese(),
        "japanese" => Rules::japanese(),
        "aga" => Rules {
            ko: tengen_core::KoRule::Situational,
            handicap_bonus: tengen_core::HandicapBonus::NMinusOne,
            ..Rules::chinese()
        },
        "new_zealand" => Rules { ko: tengen_core::KoRule::Situational, ..Rules::tromp_taylor() },
        other => return Err(format!("unknown rules: {other}")),
    };
    s.rules = Rules { komi: s.rules.komi, ..base };
    s.game.set_rules(s.rules);
    Ok(String::new())
}

/// Function: time settings, KGS style. Arguments: `none`, `absolute MAIN`, `byoyomi MAIN
/// PERIOD PERIODS` or `canadian MAIN PERIOD STONES`. Fails: other forms. Returns: nothing.
fn kgs_time_settings(s: &mut Session, args: &[&str]) -> Reply {
    s.clock = clock_from(args, false)?;
    Ok(String::new())
}

/// Function: time settings, KataGo style: those of `kgs-time_settings` and Fischer.
/// Arguments: `none`, `absolute MAIN`, `byoyomi MAIN PERIOD PERIODS`, `canadian MAIN PERIOD
/// STONES` or `fischer MAIN INCREMENT`. Fails: other forms. Returns: nothing.
fn kata_time_settings(s: &mut Session, args: &[&str]) -> Reply {
    s.clock = clock_from(args, true)?;
    Ok(String::new())
}

/// Function: the kinds of clock `kata-time_settings` takes. Arguments: none. Fails: never.
/// Returns: one per line.
fn kata_list_time_settings(_: &mut Session, _: &[&str]) -> Reply {
    Ok(["none", "absolute", "byoyomi", "canadian", "fischer"].join("\n"))
}

/// The clock of a `kgs-time_settings` or (with `fischer`) `kata-time_settings` line.
fn clock_from(args: &[&str], fischer: bool) -> Result<Clock, String> {
    let num = |i: usize| -> Result<f64, String> {
        args.get(i)
            .and_then(|a| a.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| "syntax error".to_owned())
    };
    Ok(match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
        Some("none") if args.len() == 1 => Clock::default(),
        Some("absolute") if args.len() == 2 => Clock { main: num(1)?, ..Clock::default() },
        Some(kind @ ("byoyomi" | "canadian")) if args.len() == 4 => Clock {
            main: num(1)?,
            period: num(2)?,
            stones: num(3)? as u32,
            japanese: kind == "byoyomi",
            ..Clock::default()
        },
        Some("fischer") if fischer && args.len() == 3 => {
            Clock { main: num(1)?, increment: num(2)?, ..Clock::default() }
        }
        _ if fischer => {
            return Err("syntax error: none | absolute M | byoyomi M S P | canadian M S N | fischer M I".into());
        }
        _ => return Err("syntax error: none | absolute M | byoyomi M S P | canadian M S N".into()),
    })
}

/// Function: whether a command is known. Arguments: a name. Fails: never. Returns: `true` or
/// `false`.
fn known_command(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let lower = args[0].to_ascii_lowercase();
    Ok(COMMANDS.binary_search_by(|(n, _)| (*n).cmp(lower.as_str())).is_ok().to_string())
}

/// Function: set komi. Arguments: points (a multiple of ½). Fails: not such a number.
/// Returns: nothing.
fn komi(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let k: Komi = args[0].parse().map_err(|_| format!("komi not a float: {}", args[0]))?;
    s.rules.komi = k;
    s.game.set_rules(Rules { komi: k, ..*s.game.rules() });
    Ok(String::new())
}

/// Function: every command. Arguments: none. Fails: never. Returns: one name per line.
fn list_commands(_: &mut Session, _: &[&str]) -> Reply {
    Ok(COMMANDS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join("\n"))
}

/// Function: the stones of a colour. Arguments: colour. Fails: invalid colour. Returns:
/// vertices, space separated.
fn list_stones(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let c = color(args[0])?;
    let board = s.game.board();
    Ok(points_text(board.points().filter(|&p| board.get(p) == Some(c)).collect()))
}

/// Function: load a game record: the position before move N (all moves by default), under
/// the rules set over GTP (the record's `KM` is taken; its `RU` only with `tengen gtp
/// --sgf-rules`). Arguments: file, optional N. Fails: unreadable file, not SGF, bad N,
/// illegal setup, a move before N that cannot be replayed (named, with the reason), N past
/// the end of the record. Returns: the colour to play.
fn loadsgf(s: &mut Session, args: &[&str]) -> Reply {
    if args.is_empty() || args.len() > 2 {
        return Err("syntax error: loadsgf FILE [MOVE]".into());
    }
    let wanted = args
        .get(1)
        .map(|n| n.parse::<usize>().ok().filter(|&n| n >= 1).ok_or_else(|| format!("invalid move number: {n}")))
        .transpose()?;
    let bytes = std::fs::read(args[0]).map_err(|e| format!("cannot open or parse '{}': {e}", args[0]))?;
    let (records, _) = Record::read_bytes(&bytes).map_err(|e| format!("cannot open or parse '{}': {e}", args[0]))?;
    let record = records.into_iter().next().ok_or("the file holds no game")?;
    let replay =
        if s.sgf_rules { record.replay(IllegalMoves::Stop) } else { record.replay_under(s.rules, IllegalMoves::Stop) }
            .map_err(|e| e.to_string())?;
    let mut game = replay.game;
    let played = game.moves().len();
    // Moves 1..=played replayed; the position before move N needs N - 1 of them.
    let needed = wanted.map_or(usize::MAX, |n| n - 1);
    if let Some(problem) = replay.problems.first()
        && needed > played
    {
        return Err(format!(
            "move {} cannot be replayed: {}{}",
            problem.move_number,
            problem.message,
            if s.sgf_rules { "" } else { " (under the rules set over GTP)" }
        ));
    }
    let mut next = game.to_move();
    if let Some(n) = wanted {
        if n - 1 > played {
            return Err(format!("the record has {played} moves: there is no position before move {n}"));
        }
        if let Some(&(c, _)) = game.moves().get(n - 1) {
            next = c;
        }
        game = game.truncated(n - 1);
    }
    s.size = game.board().size();
    s.rules = *game.rules();
    s.game = game;
    s.engine.clear();
    Ok(next.to_string())
}

/// Function: the program's name. Arguments: none. Fails: never. Returns: `tengen`.
fn name(_: &mut Session, _: &[&str]) -> Reply {
    Ok("tengen".into())
}

/// Function: the engine places a free handicap (on the fixed points). Arguments: number of
/// stones. Fails: board not empty, or more stones than this size has handicap points for.
/// Returns: the vertices.
fn place_free_handicap(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let n: usize = args[0].parse().map_err(|_| format!("invalid number of stones: {}", args[0]))?;
    let max = max_fixed(s.size);
    let points = fixed_points(s.size, n).map_err(|_| format!("invalid number of stones: {n} (2 to {max} here)"))?;
    s.game.set_handicap(&points).map_err(|e| e.to_string())?;
    Ok(points_text(points))
}

/// Function: play a move. Arguments: colour, vertex or pass. Fails: invalid colour or
/// vertex, an illegal move, the game over. Returns: nothing.
fn play(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 2)?;
    let (c, m) = (color(args[0])?, mv(s, args[1])?);
    // A refused move does not even resume play after two passes (`Game::play_on`).
    if let Phase::Ended(o) = s.game.phase() {
        return Err(format!("the game is over ({})", o.result_points()));
    }
    s.game.play_on(c, m).map_err(|e| format!("illegal move: {e}"))?;
    Ok(String::new())
}

/// Function: the game as SGF, or written to a file. Arguments: optional file. Fails: file not
/// writable. Returns: the SGF text, or nothing.
fn printsgf(s: &mut Session, args: &[&str]) -> Reply {
    let text = write_game(&s.game, &GameInfo::default()).to_sgf();
    match args.first() {
        None => Ok(text),
        Some(file) => {
            std::fs::write(file, &text).map(|()| String::new()).map_err(|e| format!("cannot write {file}: {e}"))
        }
    }
}

/// Function: the protocol version. Arguments: none. Fails: never. Returns: `2`.
fn protocol_version(_: &mut Session, _: &[&str]) -> Reply {
    Ok("2".into())
}

/// Function: end the session. Arguments: none. Fails: never. Returns: nothing.
fn quit(s: &mut Session, _: &[&str]) -> Reply {
    s.quit = true;
    Ok(String::new())
}

/// Function: the move the engine would play, without playing it. Arguments: colour. Fails:
/// invalid colour. Returns: the vertex, `pass` or `resign`.
fn reg_genmove(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let c = color(args[0])?;
    let budget = s.clock.budget(c, s.game.board().empty_count());
    let decision = s.engine.decide(&s.game, c, budget);
    log_search(s);
    Ok(match decision {
        Decision::Play(m) => m.to_string(),
        Decision::Resign => "resign".into(),
    })
}

/// Function: place handicap stones where the controller says. Arguments: vertices. Fails:
/// board not empty, fewer than two, a bad or repeated vertex. Returns: nothing.
fn set_free_handicap(s: &mut Session, args: &[&str]) -> Reply {
    let points = args.iter().map(|a| point(s, a)).collect::<Result<Vec<_>, _>>()?;
    s.game.set_handicap(&points).map_err(|e| e.to_string())?;
    Ok(String::new())
}

/// Function: the board as text. Arguments: none. Fails: never. Returns: a diagram, starting
/// on a new line.
fn showboard(s: &mut Session, _: &[&str]) -> Reply {
    Ok(format!("\n{}", s.game.board().to_string().trim_end()))
}

/// Function: the Go terms (术语) of a move, most specific first (docs/terms.md of the shared
/// material). Arguments: optionally a vertex — the move the side to play would make there;
/// without one, the last move played. Fails: an occupied or illegal vertex, no last move, a
/// last move that was a pass. Returns: the canonical Chinese names, space separated.
fn tengen_explain(s: &mut Session, args: &[&str]) -> Reply {
    if args.len() > 1 {
        return Err("syntax error: at most one vertex".into());
    }
    let (commentary, color, p) = if let Some(arg) = args.first() {
        let p = point(s, arg)?;
        (tengen_terms::Commentary::new(&s.game), s.game.to_move(), p)
    } else {
        let &(color, mv) = s.game.moves().last().ok_or("no move has been played")?;
        let Move::Play(p) = mv else { return Err("the last move was a pass".into()) };
        let before = s.game.truncated(s.game.moves().len() - 1);
        (tengen_terms::Commentary::new(&before), color, p)
    };
    let names = commentary.name(color, p).map_err(|e| format!("illegal move: {e}"))?;
    Ok(names.terms.iter().map(|t| t.zh.as_str()).collect::<Vec<_>>().join(" "))
}

/// Function: the names of an empty point: the shape of its eye space (直三, 刀把五 …), 真眼
/// or 假眼 when it is an eye, 禁着点 and 虎口 for the side to play. Arguments: a vertex.
/// Fails: an occupied vertex. Returns: the names, space separated (empty when none apply).
fn tengen_point(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let p = point(s, args[0])?;
    let board = s.game.board();
    if !board.is_empty(p) {
        return Err(format!("{p} is occupied"));
    }
    let mut names: Vec<&str> = Vec::new();
    if let Some(shape) = tengen_terms::eye_space(board, p).and_then(|space| space.shape) {
        names.push(shape);
    }
    if let Some((_, true_eye)) = tengen_terms::eye(board, p) {
        names.push(if true_eye { "真眼" } else { "假眼" });
    }
    names.extend(tengen_terms::point_names(board, p, s.game.to_move()));
    Ok(names.join(" "))
}

/// Function: the time a player has left. Arguments: colour, seconds, stones. Fails: bad
/// arguments. Returns: nothing.
fn time_left(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 3)?;
    let c = color(args[0])?;
    let t: f64 = args[1].parse().ok().filter(|v: &f64| v.is_finite()).ok_or("syntax error: seconds")?;
    let n: u32 = args[2].parse().map_err(|_| "syntax error: stones")?;
    s.clock.left[c.index()] = Some((t, n));
    Ok(String::new())
}

/// Function: time settings (Canadian byo-yomi; 0 stones means none). Arguments: main time,
/// period, stones per period. Fails: bad numbers. Returns: nothing.
fn time_settings(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 3)?;
    let num = |a: &str| a.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0).ok_or("syntax error".to_owned());
    s.clock = Clock { main: num(args[0])?, period: num(args[1])?, stones: num(args[2])? as u32, ..Clock::default() };
    Ok(String::new())
}

/// Function: the unconditional status of a vertex (see `tengen_core::unconditional`).
/// Arguments: vertex. Fails: invalid vertex. Returns: `alive`, `dead`, `black_territory`,
/// `white_territory` or `undecided`.
fn unconditional_status(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1)?;
    let p = point(s, args[0])?;
    Ok(Unconditional::new(s.game.board()).status(p).gtp_name().into())
}

/// Function: take back the last move. Arguments: none. Fails: no move to take back.
/// Returns: nothing.
fn undo(s: &mut Session, _: &[&str]) -> Reply {
    s.game.undo().map(|_| String::new()).map_err(|_| "cannot undo".into())
}

/// Function: the program's version. Arguments: none. Fails: never. Returns: the version.
fn version(_: &mut Session, _: &[&str]) -> Reply {
    Ok(env!("CARGO_PKG_VERSION").into())
}

#[cfg(test)]
mod tests {
    use super::COMMANDS;

    #[test]
    fn the_table_is_sorted_and_unique() {
        assert!(COMMANDS.windows(2).all(|w| w[0].0 < w[1].0), "COMMANDS must stay in alphabetical order");
    }
}
