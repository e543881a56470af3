//! The forward pass against KataGo's own outputs (`kata-raw-nn 0`, recorded by
//! `scripts/katago-oracle` in `tests/data/raw-nn/`): win, loss and policy within 1e-4, score
//! lead and ownership within 1e-3.

use std::path::PathBuf;

use tengen_core::{Color, Game, Komi, Move, Point, Rules};
use tengen_nn::{Kernel, Model, input_features};

fn model_path() -> PathBuf {
    let path = std::env::var_os("TENGEN_KATAGO_MODEL").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz"),
        PathBuf::from,
    );
    assert!(path.exists(), "{} is missing: run scripts/test or set TENGEN_KATAGO_MODEL", path.display());
    path
}

fn model() -> Model {
    Model::load(model_path()).unwrap()
}

/// The model on every kernel: `matrixmultiply`'s (generic) always, the AVX2 and AVX-512
/// kernels where the CPU has them (said by name where it does not). Loaded once for all the
/// fixtures.
fn models() -> &'static [Model] {
    static MODELS: std::sync::OnceLock<Vec<Model>> = std::sync::OnceLock::new();
    MODELS.get_or_init(|| {
        let mut all = Vec::new();
        for kernel in [Kernel::Generic, Kernel::Avx2, Kernel::Avx512] {
            if kernel.available() {
                all.push(Model::load_with(model_path(), kernel).unwrap());
            } else {
                eprintln!("SKIPPED the fixtures on the {kernel} kernel: this CPU lacks it");
            }
        }
        all
    })
}

/// One recorded `kata-raw-nn 0` answer.
struct Oracle {
    values: std::collections::HashMap<String, f32>,
    policy: Vec<f32>,
    ownership: Vec<f32>,
}

fn oracle(name: &str) -> Oracle {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/raw-nn").join(name))
        .unwrap();
    let body = text.split("# output\n").nth(1).unwrap();
    let mut values = std::collections::HashMap::new();
    let (mut policy, mut ownership) = (Vec::new(), Vec::new());
    let mut section = "";
    for line in body.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["policy"] => section = "policy",
            ["whiteOwnership"] => section = "ownership",
            [key, v] if key.chars().all(char::is_alphabetic) => {
                values.insert((*key).to_owned(), v.parse().unwrap());
            }
            nums if !nums.is_empty() && nums.iter().all(|w| w.parse::<f32>().is_ok()) => {
                let row = nums.iter().map(|w| w.parse::<f32>().unwrap());
                if section == "policy" { policy.extend(row) } else { ownership.extend(row) }
            }
            _ => {}
        }
    }
    Oracle { values, policy, ownership }
}

/// The commands of a fixture (before its output).
fn commands(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/raw-nn").join(name))
        .unwrap();
    let head = text.split("# output\n").next().unwrap();
    head.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(str::to_owned).collect()
}

/// Replays a fixture's commands into a game and compares tengen's evaluation (inputs from
/// `input_features`) with KataGo's.
fn check(name: &str) {
    for m in models() {
        check_on(m, name);
    }
}

fn check_on(m: &Model, name: &str) {
    let (game, symmetry) = fixture(name);
    let input = input_features(&game).unwrap();
    compare(m, name, &game, &m.forward_symmetric(&input, symmetry), 1.0);
}

/// The fixtures' file names, sorted.
fn fixture_names() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/raw-nn");
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// The game of a fixture and the symmetry it asks for.
fn fixture(name: &str) -> (Game, u8) {
    let mut size = 19;
    let mut komi = 7.5;
    let mut moves: Vec<(Color, Move)> = Vec::new();
    let mut symmetry = 0;
    let mut handicap = 0;
    for c in commands(name) {
        let w: Vec<&str> = c.split_whitespace().collect();
        match w.as_slice() {
            ["boardsize", n] => size = n.parse().unwrap(),
            ["komi", k] => komi = k.parse().unwrap(),
            ["play", c, mv] => moves.push((c.parse().unwrap(), mv.parse().unwrap())),
            ["symmetry", n] => symmetry = n.parse().unwrap(),
            ["fixed_handicap", n] => handicap = n.parse().unwrap(),
            other => panic!("{name}: command {other:?} not supported by this test"),
        }
    }
    let rules = Rules { komi: Komi::from_points(komi).unwrap(), ..Rules::chinese() };
    // KataGo's oracle gives White one point per handicap stone, as the Chinese rules do.
    let mut game = if handicap > 0 {
        Game::with_fixed_handicap(size, rules, handicap).unwrap()
    } else {
        Game::new(size, rules).unwrap()
    };
    for (c, mv) in moves {
        game.play_as(c, mv).unwrap();
    }
    (game, symmetry)
}

/// Compares `raw`, tengen's outputs for a fixture's game, with KataGo's, within `slack` times
/// the tolerances; returns the largest difference of each kind.
fn compare(
    m: &Model,
    name: &str,
    game: &Game,
    raw: &tengen_nn::RawOutput,
    slack: f32,
) -> std::collections::BTreeMap<String, f32> {
    let size = game.board().size();
    let s = size * size;
    // kata-raw-nn mixes the optimistic policy in with weight 0.2, as KataGo's GTP engine does.
    let legal: Vec<bool> = (0..s)
        .map(|i| {
            let p = Point::new((i % size) as u8, (size - 1 - i / size) as u8).unwrap();
            game.is_legal(Move::Play(p))
        })
        .collect();
    let e = m.post_process(raw, Some(&legal), 0.2);
    let o = oracle(name);
    // The network speaks for the player to move; KataGo prints White's view.
    let white_to_move = game.to_move() == Color::White;
    let (white_win, white_loss, sign) = if white_to_move { (e.win, e.loss, 1.0) } else { (e.loss, e.win, -1.0) };
    let worst = std::cell::RefCell::new(std::collections::BTreeMap::<String, f32>::new());
    let close = |what: &str, ours: f32, theirs: f32, tol: f32| {
        assert!((ours - theirs).abs() <= tol * slack, "{name}: {what}: tengen {ours}, KataGo {theirs}");
        let kind = what.split(' ').next().unwrap_or(what).to_owned();
        let mut w = worst.borrow_mut();
        let e = w.entry(kind).or_insert(0.0);
        *e = e.max((ours - theirs).abs());
    };
    close("whiteWin", white_win, o.values["whiteWin"], 1e-4);
    close("whiteLoss", white_loss, o.values["whiteLoss"], 1e-4);
    // Scores within 1e-3 points; beyond 40 points (lopsided positions of the records), within
    // 2.5e-5 of the value, the float noise of two implementations summing in different orders.
    let lead = o.values["whiteLead"];
    close("whiteLead", sign * e.lead, lead, 1e-3f32.max(2.5e-5 * lead.abs()));
    let mean = o.values["whiteScoreSelfplay"];
    close("whiteScoreSelfplay", sign * e.score_mean, mean, 1e-3f32.max(2.5e-5 * mean.abs()));
    // The square of a score of 90 points is 8,100: compare it relatively.
    let sq = o.values["whiteScoreSelfplaySq"];
    close("whiteScoreSelfplaySq", e.score_mean_sq, sq, 1e-2f32.max(1e-4 * sq.abs()));
    let vt = o.values["varTimeLeft"];
    close("varTimeLeft", e.var_time_left, vt, 2e-3f32.max(1e-4 * vt.abs()));
    close("shorttermWinlossError", e.shortterm_winloss_error, o.values["shorttermWinlossError"], 1e-3);
    close("shorttermScoreError", e.shortterm_score_error, o.values["shorttermScoreError"], 1e-3);
    close("policyPass", e.pass, o.values["policyPass"], 1e-4);
    assert_eq!((e.policy.len(), o.policy.len(), o.ownership.len()), (s, s, s));
    for (i, (ours, theirs)) in e.policy.iter().zip(&o.policy).enumerate() {
        // KataGo prints illegal points as -1.
        let theirs = theirs.max(0.0);
        close(&format!("policy {i}"), *ours, theirs, 1e-4);
    }
    for (i, (ours, theirs)) in e.ownership.iter().zip(&o.ownership).enumerate() {
        close(&format!("ownership {i}"), sign * ours, *theirs, 1e-3);
    }
    eprintln!("{name} ({}): largest differences {:?}", m.kernel, worst.borrow());
    worst.into_inner()
}

#[test]
fn empty_boards_of_three_sizes_and_a_pass() {
    for name in ["empty-9x9-komi7.5.txt", "empty-13x13-komi7.5.txt", "empty-19x19-komi7.5.txt", "pass-9x9-komi5.5.txt"]
    {
        check(name);
    }
}

/// Positions from game records (`scripts/katago-fixtures`): every fixture named `game-*`.
#[test]
fn positions_from_game_records() {
    let names = fixture_names();
    let all = names.len();
    assert!(all >= 60, "only {all} fixtures: the verification asks for at least 60 positions");
    for name in names.iter().filter(|n| n.starts_with("game-")) {
        check(name);
    }
}

/// `kata-raw-nn N` with symmetries other than 0: the position seen rotated or mirrored, the
/// outputs mapped back.
#[test]
fn symmetries() {
    for name in ["sym3-opening-9x9.txt", "sym5-opening-9x9.txt", "sym6-opening-9x9.txt"] {
        check(name);
    }
}

#[test]
fn positions_with_stones() {
    for name in [
        "opening-9x9.txt",
        "atari-9x9.txt",
        "opening-19x19.txt",
        "ladder-9x9.txt",
        "ladder-working-move-9x9.txt",
        "ko-9x9.txt",
    ] {
        check(name);
    }
}

/// Handicap stones placed by `fixed_handicap`, White to move, komi 0.5 and White's point per
/// handicap stone in the inputs' komi.
#[test]
fn handicap_positions() {
    for name in [
        "handicap4-19x19-m0-komi0.5.txt",
        "handicap2-9x9-m3-komi0.5.txt",
        "handicap3-13x13-m4-komi0.5.txt",
        "handicap9-19x19-m6-komi0.5.txt",
    ] {
        check(name);
    }
}

/// The fixtures can tell a wrong input: clearing the ladder, ko, history or area planes of
/// those positions moves the policy further from KataGo's than the tolerance.
#[test]
fn the_fixtures_notice_a_missing_feature() {
    let m = model();
    for (name, planes) in [
        ("ladder-9x9.txt", &[14usize, 15, 16][..]),
        ("ladder-working-move-9x9.txt", &[17][..]),
        ("ko-9x9.txt", &[6][..]),
        ("opening-9x9.txt", &[9, 10, 11, 12][..]),
        ("opening-9x9.txt", &[18, 19][..]),
    ] {
        let mut size = 19;
        let mut moves: Vec<(Color, Move)> = Vec::new();
        for c in commands(name) {
            let w: Vec<&str> = c.split_whitespace().collect();
            match w.as_slice() {
                ["boardsize", n] => size = n.parse().unwrap(),
                ["play", c, mv] => moves.push((c.parse().unwrap(), mv.parse().unwrap())),
                _ => {}
            }
        }
        let mut game = Game::new(size, Rules::chinese()).unwrap();
        for (c, mv) in moves {
            game.play_as(c, mv).unwrap();
        }
        let mut input = input_features(&game).unwrap();
        let set: usize = planes
            .iter()
            .map(|&p| input.spatial.iter().skip(p).step_by(tengen_nn::SPATIAL).filter(|&&v| v != 0.0).count())
            .sum();
        assert!(set > 0, "{name}: planes {planes:?} are empty, nothing to test");
        for row in input.spatial.chunks_exact_mut(tengen_nn::SPATIAL) {
            for &p in planes {
                row[p] = 0.0;
            }
        }
        let e = m.post_process(&m.forward(&input), None, 0.2);
        let o = oracle(name);
        let off = e.policy.iter().zip(&o.policy).map(|(a, b)| (a - b.max(0.0)).abs()).fold(0.0f32, f32::max);
        assert!(off > 1e-4, "{name}: clearing planes {planes:?} changed the policy by only {off}");
    }
}

/// Every fixture again, evaluated in batches of up to five positions of one board size with
/// their own symmetries: each position's outputs are KataGo's, as alone.
#[test]
fn batches_evaluate_each_position_as_alone() {
    let mut by_size = std::collections::BTreeMap::<usize, Vec<(String, Game, u8)>>::new();
    for name in fixture_names() {
        let (game, symmetry) = fixture(&name);
        by_size.entry(game.board().size()).or_default().push((name, game, symmetry));
    }
    assert!(by_size.len() >= 3 && by_size.values().any(|v| v.len() > 5), "{:?}", by_size.keys());
    let mut batches = 0;
    for m in models() {
        for fixtures in by_size.values() {
            for chunk in fixtures.chunks(5) {
                let inputs: Vec<_> = chunk.iter().map(|(_, g, sym)| (input_features(g).unwrap(), *sym)).collect();
                let refs: Vec<_> = inputs.iter().map(|(i, sym)| (i, *sym)).collect();
                let raws = m.forward_batch(&refs);
                assert_eq!(raws.len(), chunk.len());
                for ((name, game, _), raw) in chunk.iter().zip(&raws) {
                    compare(m, name, game, raw, 1.0);
                }
                batches += 1;
            }
        }
        assert!(m.forward_batch(&[]).is_empty());
    }
    assert!(batches >= 3 * models().len(), "{batches}");
}

/// The reduced-precision kernel (bf16 weights and rows, `f32` sums) on every fixture: within
/// 1000 times the tolerances of the `f32` kernels; its largest differences are printed (the
/// accuracy docs/measurements.md reports).
#[test]
fn bf16_stays_near_katago_on_every_fixture() {
    if !Kernel::Avx512Bf16.available() {
        eprintln!("SKIPPED bf16_stays_near_katago_on_every_fixture: this CPU lacks avx512bf16");
        return;
    }
    let m = Model::load_with(model_path(), Kernel::Avx512Bf16).unwrap();
    let mut worst = std::collections::BTreeMap::<String, f32>::new();
    let mut n = 0;
    for name in fixture_names() {
        let (game, symmetry) = fixture(&name);
        let input = input_features(&game).unwrap();
        for (kind, d) in compare(&m, &name, &game, &m.forward_symmetric(&input, symmetry), 1000.0) {
            let w = worst.entry(kind).or_insert(0.0);
            *w = w.max(d);
        }
        n += 1;
    }
    assert_eq!(n, 72);
    eprintln!("avx512bf16 over {n} fixtures: largest differences {worst:?}");
    // Not the f32 kernels' results: the rounding shows.
    assert!(worst["whiteWin"] > 1e-6, "{worst:?}");
}

#[test]
#[should_panic(expected = "one board size in a batch")]
fn a_batch_holds_one_board_size() {
    let m = &models()[0];
    let nine = input_features(&Game::new(9, Rules::chinese()).unwrap()).unwrap();
    let thirteen = input_features(&Game::new(13, Rules::chinese()).unwrap()).unwrap();
    let _ = m.forward_batch(&[(&nine, 0), (&thirteen, 0)]);
}

#[test]
fn the_cache_returns_the_same_evaluation_and_forgets_the_oldest() {
    let cached = tengen_nn::CachedModel::new(model(), 2);
    let mut inputs = Vec::new();
    for moves in [&["E5"][..], &["E5", "C3"][..], &["D4"][..]] {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        for mv in moves {
            game.play(Move::Play(mv.parse().unwrap())).unwrap();
        }
        inputs.push(input_features(&game).unwrap());
    }
    let first = cached.evaluate(&inputs[0], 0);
    assert_eq!(cached.evaluate(&inputs[0], 0), first);
    assert_eq!(cached.stats(), (1, 1));
    assert_eq!(first, cached.model().forward(&inputs[0]), "a hit gives what the network gives");
    // Another symmetry is another evaluation.
    let turned = cached.evaluate(&inputs[0], 5);
    assert_ne!(turned, first);
    assert_eq!((cached.stats(), cached.len()), ((1, 2), 2));
    // A third entry pushes out the least recently used: the symmetry-0 one was used before 5.
    cached.evaluate(&inputs[1], 0);
    assert_eq!(cached.len(), 2);
    cached.evaluate(&inputs[0], 5);
    assert_eq!(cached.stats(), (2, 3), "symmetry 5 was kept");
    cached.evaluate(&inputs[0], 0);
    assert_eq!(cached.stats(), (2, 4), "symmetry 0 was forgotten");
}

#[test]
fn the_profile_counts_every_layer_and_changes_nothing() {
    let m = model();
    let input = input_features(&Game::new(9, Rules::chinese()).unwrap()).unwrap();
    let plain = m.forward(&input);
    let (profiled, layers) = tengen_nn::profile(|| (m.forward(&input), m.forward(&input)));
    assert_eq!((&profiled.0, &profiled.1), (&plain, &plain), "profiling changes no output");
    let calls = |kind: &str| layers.iter().find(|l| l.kind == kind).map_or(0, |l| l.calls);
    // Two evaluations of ten nested blocks, each with two attention and two FFN layers.
    // Six heads in each attention layer.
    assert_eq!(calls("attention softmax"), 240);
    assert_eq!((calls("attention scores Q·Kᵀ"), calls("attention values P·V")), (240, 240));
    assert_eq!(calls("rms norm"), 80);
    assert_eq!(calls("conv 3x3 22>384"), 2, "{layers:?}");
    // The multiply-adds counted are the network's: 2·81·(22·9·384 + …) and the attention's,
    // about 1.8 GFLOP a 9×9 evaluation of this network.
    let flops: f64 = layers.iter().map(|l| l.flops).sum::<f64>() / 2.0;
    assert!((1.7e9..1.9e9).contains(&flops), "{flops}");
    assert!(layers.windows(2).all(|w| w[0].time >= w[1].time), "the slowest first");
    // Outside `profile` nothing is recorded.
    std::hint::black_box(m.forward(&input));
    let (_, again) = tengen_nn::profile(|| ());
    assert!(again.is_empty());
}
