use super::*;
use tengen_core::{Color, Phase, Point};

fn config(opponent: Opponent, time: TimeControl) -> Config {
    Config {
        size: 9,
        rules: "chinese".into(),
        komi_half_points: 15,
        handicap: 0,
        placement: Placement::Fixed,
        opponent,
        computer: match opponent {
            Opponent::Computer { .. } => Some(Color::White),
            Opponent::Friend => None,
        },
        time,
        black_name: "B".into(),
        white_name: "W".into(),
        nigiri: None,
        imported: false,
        rated: false,
        accounts: [None, None],
        computer_rating: None,
    }
}

fn ev(action: Action, color: Option<Color>, at_ms: i64) -> Event {
    Event { action, color, at_ms }
}

fn mv(s: &str) -> Action {
    Action::Move { mv: s.parse().unwrap() }
}

#[test]
fn moves_turns_and_refusals_leave_the_state_alone() {
    let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
    s.apply(&ev(mv("E5"), Some(Color::Black), 1)).unwrap();
    let before = s.game.moves().len();
    for (action, color) in [
        (mv("D4"), Color::Black),
        (mv("E5"), Color::White),
        (mv("Z9"), Color::White),
        (Action::Accept { dead: None, judged: false, exact: false }, Color::White),
    ] {
        assert!(s.apply(&ev(action, Some(color), 2)).is_err());
    }
    assert_eq!(s.game.moves().len(), before);
    assert_eq!(s.events, 1);
}

#[test]
fn undo_between_friends_is_a_request() {
    let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
    for (m, c) in [("E5", Color::Black), ("C3", Color::White), ("G7", Color::Black)] {
        s.apply(&ev(mv(m), Some(c), 1)).unwrap();
    }
    // White asks to take back C3: G7 goes too, and it is White's turn again.
    s.apply(&ev(Action::UndoRequest, Some(Color::White), 2)).unwrap();
    assert!(s.apply(&ev(mv("D4"), Some(Color::White), 3)).is_err(), "no play while a request waits");
    assert!(s.apply(&ev(Action::UndoAccept, Some(Color::White), 3)).is_err(), "not one's own request");
    s.apply(&ev(Action::UndoAccept, Some(Color::Black), 3)).unwrap();
    assert_eq!(s.game.moves().len(), 1);
    assert_eq!(s.game.to_move(), Color::White);
    // Refused: nothing changes.
    s.apply(&ev(Action::UndoRequest, Some(Color::Black), 4)).unwrap();
    s.apply(&ev(Action::UndoReject, Some(Color::White), 5)).unwrap();
    assert_eq!(s.game.moves().len(), 1);
}

#[test]
fn undo_against_the_computer_takes_back_both_moves() {
    let mut s = State::new(config(Opponent::Computer { level: 1 }, TimeControl::None {}), 0).unwrap();
    s.apply(&ev(mv("E5"), Some(Color::Black), 1)).unwrap();
    s.apply(&ev(mv("C3"), Some(Color::White), 2)).unwrap();
    s.apply(&ev(Action::UndoRequest, Some(Color::Black), 3)).unwrap();
    assert_eq!(s.game.moves().len(), 0);
    assert_eq!(s.undo_request, None);
}

#[test]
fn the_computer_accepts_only_its_own_judgement() {
    // Black (the player) E5, White (the computer) D4 and F6: White's stones live.
    let mut s = State::new(config(Opponent::Computer { level: 3 }, TimeControl::None {}), 0).unwrap();
    for (m, c) in [("E5", Color::Black), ("D4", Color::White), ("C7", Color::Black), ("F6", Color::White)] {
        s.apply(&ev(mv(m), Some(c), 1)).unwrap();
    }
    for (m, c) in [("pass", Color::Black), ("pass", Color::White)] {
        s.apply(&ev(mv(m), Some(c), 1)).unwrap();
    }
    let judged = |dead: Vec<Point>| Action::Accept { dead: Some(dead), judged: true, exact: true };
    let p = |v: &str| -> Point { v.parse().unwrap() };
    // Before the computer has judged, an accept is refused.
    assert_eq!(s.apply(&ev(judged(vec![]), Some(Color::Black), 2)), Err(GameError::NotProposed));
    s.apply(&ev(Action::Propose { dead: vec![] }, None, 2)).unwrap();
    // The player marks the computer's D4 dead: refused, with the computer's proposal back
    // in force and the chain named.
    s.apply(&ev(Action::Toggle { point: p("D4"), dead: Some(true) }, Some(Color::Black), 3)).unwrap();
    s.apply(&ev(judged(vec![p("D4")]), Some(Color::Black), 4)).unwrap();
    assert_eq!(s.game.phase(), Phase::Counting);
    assert_eq!(s.dispute, Some(Dispute { alive: vec![p("D4")], dead: vec![] }));
    assert!(s.dead.is_empty() && s.accepted == [false, false]);
    // A marking that counts better for the computer (the player's living C7 given up) is
    // refused all the same: the computer agrees to its judgement only.
    s.apply(&ev(Action::Toggle { point: p("C7"), dead: Some(true) }, Some(Color::Black), 5)).unwrap();
    assert_eq!(s.dispute, None, "a change of the marking clears the dispute");
    s.apply(&ev(judged(vec![p("C7")]), Some(Color::Black), 6)).unwrap();
    assert_eq!(s.game.phase(), Phase::Counting);
    assert_eq!(s.dispute, Some(Dispute { alive: vec![p("C7")], dead: vec![] }));
    // Its own judgement it accepts.
    s.apply(&ev(judged(vec![]), Some(Color::Black), 7)).unwrap();
    let Phase::Ended(outcome) = s.game.phase() else { panic!("counted") };
    assert!(outcome.result_points().starts_with("W+"), "{}", outcome.result_points());

    // A stone the computer judges dead and the player leaves alive: refused, and named.
    let mut s = State::new(config(Opponent::Computer { level: 3 }, TimeControl::None {}), 0).unwrap();
    for (m, c) in [("E5", Color::Black), ("D4", Color::White), ("pass", Color::Black), ("pass", Color::White)] {
        s.apply(&ev(mv(m), Some(c), 1)).unwrap();
    }
    s.apply(&ev(Action::Propose { dead: vec![p("E5")] }, None, 2)).unwrap();
    s.apply(&ev(Action::Toggle { point: p("E5"), dead: Some(false) }, Some(Color::Black), 3)).unwrap();
    s.apply(&ev(judged(vec![]), Some(Color::Black), 4)).unwrap();
    assert_eq!(s.dispute, Some(Dispute { alive: vec![], dead: vec![p("E5")] }));
    assert_eq!(s.dead_stones(), [p("E5")], "its proposal is back in force");

    // Logs from before keep their endings: with `judged` alone the computer accepted a
    // marking no worse for it, and before that any marking.
    for (judged, exact) in [(true, false), (false, false)] {
        let mut old = State::new(config(Opponent::Computer { level: 3 }, TimeControl::None {}), 0).unwrap();
        for (m, c) in [("E5", Color::Black), ("D4", Color::White), ("pass", Color::Black), ("pass", Color::White)] {
            old.apply(&ev(mv(m), Some(c), 1)).unwrap();
        }
        old.apply(&ev(Action::Propose { dead: vec![] }, None, 2)).unwrap();
        let given_up = if judged { "E5" } else { "D4" };
        old.apply(&ev(Action::Toggle { point: p(given_up), dead: Some(true) }, Some(Color::Black), 3)).unwrap();
        old.apply(&ev(Action::Accept { dead: Some(vec![p(given_up)]), judged, exact }, Some(Color::Black), 4)).unwrap();
        assert!(matches!(old.game.phase(), Phase::Ended(_)), "judged {judged}");
    }
}

#[test]
fn each_seat_names_itself_and_a_refused_undo_is_told() {
    let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
    s.apply(&ev(Action::Name { name: "  Ke Jie ".into() }, Some(Color::White), 1)).unwrap();
    assert_eq!((s.config.black_name.as_str(), s.config.white_name.as_str()), ("B", "Ke Jie"));
    let long = s.apply(&ev(Action::Name { name: "x".repeat(41) }, Some(Color::Black), 2)).unwrap_err();
    assert_eq!(long.reason().code, "name_long");
    assert_eq!(s.config.black_name, "B");
    s.apply(&ev(mv("E5"), Some(Color::Black), 3)).unwrap();
    s.apply(&ev(Action::UndoRequest, Some(Color::Black), 4)).unwrap();
    s.apply(&ev(Action::UndoReject, Some(Color::White), 5)).unwrap();
    assert_eq!(s.undo_refused, Some(Color::Black));
    s.apply(&ev(mv("D4"), Some(Color::White), 6)).unwrap();
    assert_eq!(s.undo_refused, None, "the next move makes it old news");
}

#[test]
fn refusals_carry_a_code_and_what_they_name() {
    let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
    s.apply(&ev(mv("E5"), Some(Color::Black), 1)).unwrap();
    let occupied = s.apply(&ev(mv("E5"), Some(Color::White), 2)).unwrap_err().reason();
    assert_eq!((occupied.code, occupied.point), ("occupied", Some("E5".parse().unwrap())));
    let turn = s.apply(&ev(mv("D4"), Some(Color::Black), 2)).unwrap_err().reason();
    assert_eq!((turn.code, turn.color), ("not_your_turn", Some(Color::White)));
}

#[test]
fn counting_toggles_and_agreement() {
    let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
    for (m, c) in [("E5", Color::Black), ("A1", Color::White), ("pass", Color::Black), ("pass", Color::White)] {
        s.apply(&ev(mv(m), Some(c), 1)).unwrap();
    }
    assert_eq!(s.game.phase(), Phase::Counting);
    s.apply(&ev(Action::Propose { dead: vec![] }, None, 2)).unwrap();
    let a1: Point = "A1".parse().unwrap();
    // A log from before toggles said their state: each flips the chain.
    s.apply(&ev(Action::Toggle { point: a1, dead: None }, Some(Color::Black), 3)).unwrap();
    s.apply(&ev(Action::Accept { dead: None, judged: false, exact: false }, Some(Color::White), 4)).unwrap();
    // A toggle after an acceptance asks both again.
    s.apply(&ev(Action::Toggle { point: a1, dead: None }, Some(Color::Black), 5)).unwrap();
    s.apply(&ev(Action::Toggle { point: a1, dead: None }, Some(Color::Black), 6)).unwrap();
    assert_eq!(s.accepted, [false, false]);
    // Saying the state: a retry changes nothing.
    for at in [7, 8] {
        s.apply(&ev(Action::Toggle { point: a1, dead: Some(true) }, Some(Color::Black), at)).unwrap();
        assert_eq!(s.dead.iter().copied().collect::<Vec<_>>(), [a1]);
    }
    // An accept of a marking that is no longer the one in force is refused.
    let stale = s
        .apply(&ev(Action::Accept { dead: Some(vec![]), judged: false, exact: false }, Some(Color::White), 9))
        .unwrap_err();
    assert_eq!(stale.to_string(), "the marking changed since it was seen: the stones marked dead now are A1");
    assert_eq!(s.accepted, [false, false]);
    s.apply(&ev(Action::Accept { dead: Some(vec![a1]), judged: false, exact: false }, Some(Color::White), 9)).unwrap();
    s.apply(&ev(Action::Accept { dead: Some(vec![a1]), judged: false, exact: false }, Some(Color::Black), 10)).unwrap();
    let Phase::Ended(outcome) = s.game.phase() else { panic!("counted") };
    assert_eq!(outcome.result_points(), "B+73.5");
    assert!(s.apply(&ev(Action::Resume, Some(Color::White), 9)).is_err());
}

#[test]
fn the_first_stone_starts_the_clocks() {
    let time = TimeControl::Absolute { main: 60.0 };
    for opponent in [Opponent::Friend, Opponent::Computer { level: 1 }] {
        let mut s = State::new(config(opponent, time), 0).unwrap();
        // An hour before the first stone: no clock runs, no flag falls, no deadline.
        assert_eq!(s.clock_runs(), None, "{opponent:?}");
        assert_eq!((s.clocks_at(3_600_000).1, s.deadline_ms()), (None, None));
        // Black's first move is free; White's clock runs from it.
        s.apply(&ev(mv("E5"), Some(Color::Black), 3_600_000)).unwrap();
        assert_eq!(s.clocks[0].main_ms, 60_000);
        assert_eq!(s.clock_runs(), Some(Color::White));
        assert_eq!(s.clocks_at(3_610_000).0[1].main_ms, 50_000);
    }
}

#[test]
fn byoyomi_clock_from_the_log() {
    let time = TimeControl::Byoyomi { main: 10.0, period: 5.0, periods: 2 };
    let mut s = State::new(config(Opponent::Computer { level: 1 }, time), 0).unwrap();
    // Black's first stone, 12 s after the creation, is free: it starts the clocks.
    s.apply(&ev(mv("E5"), Some(Color::Black), 12_000)).unwrap();
    assert_eq!(s.clocks[0], Clock::start(&time));
    // White's clock runs now; at 12 s + 10 s + 4.9 s its last period is nearly out.
    let (clocks, fallen) = s.clocks_at(12_000 + 10_000 + 5_000 + 4_900);
    assert_eq!(fallen, None, "{:?}", clocks[1]);
    assert_eq!(clocks[1].periods, 1, "one period lost");
    let (_, fallen) = s.clocks_at(12_000 + 10_000 + 5_000 + 5_001);
    assert_eq!(fallen, Some(Color::White));
    assert_eq!(s.deadline_ms(), Some(12_000 + 20_000));
    // A move after the flag fell is refused; the timeout is accepted.
    assert!(s.apply(&ev(mv("C3"), Some(Color::White), 40_000)).is_err());
    s.apply(&ev(Action::Timeout, Some(Color::White), 40_000)).unwrap();
    assert_eq!(s.game.outcome().unwrap().result_points(), "B+T");
    // The fallen flag's clock reads nothing left (it read the last period's 5 s).
    let white = s.clocks[1];
    assert_eq!((white.periods, white.remaining_ms(&time)), (0, Some(0)), "{white:?}");
    // Black, who thinks 12 s on the second move: main time gone, 2 s into the first period.
    let mut s = State::new(config(Opponent::Friend, time), 0).unwrap();
    s.apply(&ev(mv("E5"), Some(Color::Black), 0)).unwrap();
    s.apply(&ev(mv("C3"), Some(Color::White), 1_000)).unwrap();
    s.apply(&ev(mv("G7"), Some(Color::Black), 13_000)).unwrap();
    let black = s.clocks[0];
    assert!(black.overtime && black.periods == 2 && black.period_ms == 5_000, "{black:?}");
}

#[test]
fn a_restart_does_not_charge_the_downtime() {
    let time = TimeControl::Absolute { main: 60.0 };
    let mut s = State::new(config(Opponent::Friend, time), 0).unwrap();
    s.apply(&ev(mv("E5"), Some(Color::Black), 10_000)).unwrap();
    // White thinks 5 s, then the server is down for an hour, then back.
    s.apply(&ev(Action::Restart { down_since_ms: 15_000 }, None, 3_615_000)).unwrap();
    assert_eq!(s.clocks[1].main_ms, 55_000);
    assert_eq!(s.clock_runs(), Some(Color::White));
    s.apply(&ev(mv("C3"), Some(Color::White), 3_617_000)).unwrap();
    assert_eq!(s.clocks[1].main_ms, 53_000);
    // A flag that fell before the downtime stays fallen: no restart then, a timeout.
    let mut s = State::new(config(Opponent::Computer { level: 1 }, time), 0).unwrap();
    s.apply(&ev(mv("E5"), Some(Color::Black), 0)).unwrap();
    assert!(s.apply(&ev(Action::Restart { down_since_ms: 61_000 }, None, 100_000)).is_err());
    s.apply(&ev(Action::Timeout, Some(Color::White), 100_000)).unwrap();
}

#[test]
fn canadian_and_fischer_clocks() {
    let mut c = Clock::start(&TimeControl::Canadian { main: 0.0, period: 10.0, stones: 2 });
    let t = TimeControl::Canadian { main: 0.0, period: 10.0, stones: 2 };
    assert!(c.run(&t, 4_000));
    c.moved(&t);
    assert!(c.run(&t, 4_000));
    c.moved(&t);
    assert_eq!((c.period_ms, c.stones), (10_000, 2), "a new period after two stones");
    assert!(!c.run(&t, 10_001));
    assert_eq!(c.remaining_ms(&t), Some(0), "a fallen flag reads nothing left");
    let f = TimeControl::Fischer { main: 5.0, increment: 2.0 };
    let mut c = Clock::start(&f);
    assert!(c.run(&f, 4_000));
    c.moved(&f);
    assert_eq!(c.main_ms, 3_000);
    assert!(!Clock::start(&TimeControl::Absolute { main: 1.0 }).run(&TimeControl::Absolute { main: 1.0 }, 1_001));
}

#[test]
fn free_handicap_then_play() {
    let mut cfg = config(Opponent::Friend, TimeControl::None {});
    cfg.handicap = 2;
    cfg.placement = Placement::Free;
    cfg.komi_half_points = 0;
    let mut s = State::new(cfg, 0).unwrap();
    assert!(s.apply(&ev(mv("E5"), Some(Color::Black), 1)).is_err());
    let points = vec!["C3".parse().unwrap(), "G7".parse().unwrap()];
    s.apply(&ev(Action::Handicap { points }, Some(Color::Black), 1)).unwrap();
    assert_eq!(s.game.to_move(), Color::White);
    assert_eq!(s.game.handicap(), 2);
}

#[test]
fn bad_configurations() {
    let good = config(Opponent::Friend, TimeControl::None {});
    for (change, says) in [
        (Config { size: 1, ..good.clone() }, "board size"),
        (Config { handicap: 1, ..good.clone() }, "handicap"),
        (Config { opponent: Opponent::Computer { level: 11 }, ..good.clone() }, "level"),
        (Config { rules: "japanese".into(), ..good.clone() }, "chinese-simple-ko and tromp-taylor, not \"japanese\""),
        (Config { rules: "ing".into(), ..good.clone() }, "not \"ing\""),
        (Config { time: TimeControl::Absolute { main: -1.0 }, ..good.clone() }, "time control: main time"),
        (Config { black_name: "x".repeat(41), ..good.clone() }, "black_name: a name is at most 40"),
        (Config { white_name: "a\u{202e}b".into(), ..good.clone() }, "white_name: a name is of printable"),
        (Config { size: 2, handicap: 9, placement: Placement::Free, ..good.clone() }, "takes no handicap"),
        (Config { size: 8, handicap: 5, ..good.clone() }, "0 or 2 to 4 stones, not 5"),
    ] {
        let e = State::new(change, 0).unwrap_err().to_string();
        assert!(e.contains(says), "{says}: {e}");
        assert!(!e.contains('{') && !e.contains("Some("), "a sentence, not debug output: {e}");
    }
}

#[test]
fn one_rule_for_names() {
    assert_eq!(check_name("  Lee Sedol ").as_deref(), Ok("Lee Sedol"));
    assert_eq!(check_name("柯洁").as_deref(), Ok("柯洁"));
    for bad in ["a\u{0}b", "\u{1b}[31mRED\u{7}", "\u{202e}evil", &"\u{200b}".repeat(40), "a\tb", "\u{feff}x"] {
        assert_eq!(check_name(bad), Err(NameError::Unprintable), "{bad:?}");
    }
    assert_eq!(check_name("   "), Err(NameError::Empty));
    assert_eq!(check_name(&"囲".repeat(41)), Err(NameError::Long));
    assert!(check_name(&"囲".repeat(40)).is_ok());
}

#[test]
fn a_game_stops_at_the_move_limit_but_can_still_end() {
    let mut s = State::new(Config { size: 19, ..config(Opponent::Friend, TimeControl::None {}) }, 0).unwrap();
    // Stones, then passes alternating with resumptions, up to one move short of the cap.
    let mut color = Color::Black;
    for m in ["D4", "Q16"] {
        s.apply(&ev(mv(m), Some(color), 1)).unwrap();
        color = !color;
    }
    while s.game.moves().len() < MAX_MOVES - 1 {
        if s.game.phase() == Phase::Counting {
            s.apply(&ev(Action::Resume, Some(color), 1)).unwrap();
        }
        s.apply(&ev(mv("pass"), Some(color), 1)).unwrap();
        color = !color;
    }
    if s.game.phase() == Phase::Counting {
        s.apply(&ev(Action::Resume, Some(color), 1)).unwrap();
    }
    s.apply(&ev(mv("C3"), Some(color), 1)).unwrap();
    color = !color;
    // At the cap: no more stones, no resumption.
    let e = s.apply(&ev(mv("D16"), Some(color), 2)).unwrap_err();
    assert_eq!(e, GameError::TooLong);
    assert!(e.to_string().contains("1200 moves"), "{e}");
    // Two passes still end play, and the game is counted.
    s.apply(&ev(mv("pass"), Some(color), 3)).unwrap();
    s.apply(&ev(mv("pass"), Some(!color), 4)).unwrap();
    assert_eq!(s.game.phase(), Phase::Counting);
    assert_eq!(s.apply(&ev(Action::Resume, Some(color), 5)).unwrap_err(), GameError::TooLong);
    s.apply(&ev(Action::Accept { dead: Some(vec![]), judged: false, exact: false }, Some(Color::White), 6)).unwrap();
    s.apply(&ev(Action::Accept { dead: Some(vec![]), judged: false, exact: false }, Some(Color::Black), 7)).unwrap();
    assert!(matches!(s.game.phase(), Phase::Ended(_)));
}

#[test]
fn correspondence_days_a_move_with_a_bank() {
    let day = DAY_MS;
    let time = TimeControl::Correspondence { days: 1, max_days: Some(2) };
    let mut s = State::new(config(Opponent::Friend, time), 0).unwrap();
    s.apply(&ev(mv("E5"), Some(Color::Black), 0)).unwrap();
    assert_eq!(s.clocks[0].main_ms, 2 * day, "a day, and a day more, up to the bank of 2");
    assert_eq!(s.deadline_ms(), Some(day), "White's day runs");
    // White answers after 6 hours: 18 hours left, and a day more.
    s.apply(&ev(mv("C3"), Some(Color::White), day / 4)).unwrap();
    assert_eq!(s.clocks[1].main_ms, day * 7 / 4);
    // Black lets 3 days pass: a restart charges the downtime all the same (correspondence).
    assert!(s.apply(&ev(Action::Restart { down_since_ms: day / 2 }, None, 3 * day)).is_err());
    assert_eq!(s.clocks_at(3 * day).1, Some(Color::Black));
    s.apply(&ev(Action::Timeout, Some(Color::Black), 3 * day)).unwrap();
    assert_eq!(s.game.outcome().unwrap().result_points(), "W+T");
    // Three days a move, the bank 3 × 3 by default.
    assert_eq!(TimeControl::Correspondence { days: 3, max_days: None }.correspondence(), Some((3 * day, 9 * day)));
    for bad in [
        TimeControl::Correspondence { days: 4, max_days: None },
        TimeControl::Correspondence { days: 3, max_days: Some(2) },
        TimeControl::Correspondence { days: 14, max_days: Some(61) },
    ] {
        assert!(State::new(config(Opponent::Friend, bad), 0).is_err(), "{bad:?}");
    }
}

#[test]
fn an_early_abort_has_no_result() {
    let moves = ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4"];
    let play = |n: usize| {
        let mut s = State::new(config(Opponent::Friend, TimeControl::None {}), 0).unwrap();
        for (i, m) in moves.iter().take(n).enumerate() {
            let c = if i % 2 == 0 { Color::Black } else { Color::White };
            s.apply(&ev(mv(m), Some(c), i as i64)).unwrap();
        }
        s
    };
    let mut s = play(9);
    s.apply(&ev(Action::Abort, Some(Color::White), 20)).unwrap();
    assert_eq!(s.game.outcome().unwrap().result_points(), "Void");
    assert!(s.apply(&ev(Action::Abort, Some(Color::Black), 21)).is_err(), "over");
    let mut s = play(10);
    let refused = s.apply(&ev(Action::Abort, Some(Color::Black), 20)).unwrap_err();
    assert_eq!(refused.reason().code, "too_late_to_abort");
    assert!(s.apply(&ev(Action::Abort, None, 20)).is_err(), "a player's action");
}

#[test]
fn a_stalled_count_is_settled_with_the_proposal() {
    let time = TimeControl::Absolute { main: 60.0 };
    let mut s = State::new(config(Opponent::Friend, time), 0).unwrap();
    for (i, (m, c)) in [("E5", Color::Black), ("C3", Color::White), ("pass", Color::Black), ("pass", Color::White)]
        .into_iter()
        .enumerate()
    {
        s.apply(&ev(mv(m), Some(c), 1_000 * (i as i64 + 1))).unwrap();
    }
    assert_eq!(s.game.phase(), Phase::Counting);
    assert_eq!((s.counting_since, s.clock_runs()), (Some(4_000), None));
    assert_eq!(s.deadline_ms(), Some(4_000 + COUNTING_MS));
    let c3: Point = "C3".parse().unwrap();
    s.apply(&ev(Action::Propose { dead: vec![c3] }, None, 5_000)).unwrap();
    // White marks its stone alive again and stalls.
    s.apply(&ev(Action::Toggle { point: c3, dead: Some(false) }, Some(Color::White), 6_000)).unwrap();
    assert!(s.dead.is_empty());
    assert!(s.apply(&ev(Action::Settle, None, 4_000 + COUNTING_MS - 1)).is_err(), "not before the deadline");
    assert!(s.apply(&ev(Action::Settle, Some(Color::Black), 4_000 + COUNTING_MS)).is_err(), "the server's");
    s.apply(&ev(Action::Settle, None, 4_000 + COUNTING_MS)).unwrap();
    assert_eq!(
        s.game.outcome().unwrap().result_points(),
        "B+73.5",
        "C3 counted dead, as proposed: all 81 points Black's"
    );
    assert_eq!((s.counting_since, s.deadline_ms()), (None, None));
    // Play resumed: no counting deadline until two passes again.
    let mut s = State::new(config(Opponent::Friend, time), 0).unwrap();
    for (m, c) in [("E5", Color::Black), ("pass", Color::White), ("pass", Color::Black)] {
        s.apply(&ev(mv(m), Some(c), 1_000)).unwrap();
    }
    s.apply(&ev(Action::Resume, Some(Color::White), 2_000)).unwrap();
    assert_eq!(s.counting_since, None);
    assert_eq!(s.deadline_ms(), s.clock_runs().map(|_| 2_000 + 60_000));
}
