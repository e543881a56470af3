//! Data-driven rules tests: every `tests/data/rules/*.txt` file is a list of cases written as
//! small scripts over ASCII boards (the format is described at the top of `basic.txt`).

use std::fmt::Write as _;
use std::path::Path;

use tengen_core::count::{Owner, area_owners, territory_owners};
use tengen_core::{Color, Game, IllegalMove, Move, Outcome, Phase, PlayError, Point, Rules, Scoring, Setup};

/// The state of one case while its script runs.
struct Case {
    rules: Rules,
    handicap: usize,
    game: Option<Game>,
    dead: Vec<Point>,
}

fn parse_points(words: &[&str]) -> Result<Vec<Point>, String> {
    words.iter().map(|w| w.parse::<Point>().map_err(|e| e.to_string())).collect()
}

fn parse_color(w: Option<&&str>) -> Result<Color, String> {
    w.ok_or("missing colour")?.parse::<Color>().map_err(|e| e.to_string())
}

fn parse_move(w: Option<&&str>) -> Result<Move, String> {
    w.ok_or("missing move")?.parse::<Move>().map_err(|e| e.to_string())
}

fn reason(e: &PlayError) -> &'static str {
    match e {
        PlayError::Illegal(IllegalMove::OffBoard(_)) => "offboard",
        PlayError::Illegal(IllegalMove::Occupied(_)) => "occupied",
        PlayError::Illegal(IllegalMove::Suicide(_)) => "suicide",
        PlayError::Illegal(IllegalMove::Ko(_)) => "ko",
        PlayError::Illegal(IllegalMove::Superko(_)) => "superko",
        PlayError::NotYourTurn(_) => "turn",
        PlayError::NotPlaying => "notplaying",
        PlayError::NotCounting => "notcounting",
        PlayError::NothingToUndo => "nothingtoundo",
    }
}

fn ascii(game: &Game) -> String {
    let b = game.board();
    let mut s = String::new();
    for row in (0..b.size() as u8).rev() {
        let line: Vec<&str> = (0..b.size() as u8)
            .map(|col| match b.get(Point::new(col, row).unwrap()) {
                Some(Color::Black) => "X",
                Some(Color::White) => "O",
                None => ".",
            })
            .collect();
        writeln!(s, "{}", line.join(" ")).unwrap();
    }
    s
}

fn normalise(rows: &[&str]) -> String {
    rows.iter()
        .map(|r| r.split_whitespace().map(|t| t.replace('+', ".")).collect::<Vec<_>>().join(" "))
        .map(|r| r + "\n")
        .collect()
}

impl Case {
    fn game(&mut self) -> Result<&mut Game, String> {
        self.game.as_mut().ok_or_else(|| "no board yet".to_owned())
    }

    fn score(&mut self) -> Result<tengen_core::Score, String> {
        let dead = self.dead.clone();
        Ok(self.game()?.score(&dead))
    }

    /// Runs one command with the diagram lines that follow it (if any).
    fn run(&mut self, words: &[&str], rows: &[&str]) -> Result<(), String> {
        let expect_eq = |what: &str, got: String, want: String| {
            if got == want { Ok(()) } else { Err(format!("{what}: got {got:?}, expected {want:?}")) }
        };
        match words[0] {
            "rules" => self.rules = Rules::preset(words.get(1).ok_or("rules NAME")?).map_err(|e| e.to_string())?,
            "komi" => self.rules.komi = words.get(1).ok_or("komi K")?.parse().map_err(|e| format!("{e}"))?,
            "ko" => {
                self.rules.ko = match *words.get(1).ok_or("ko RULE")? {
                    "positional" => tengen_core::KoRule::Positional,
                    "situational" => tengen_core::KoRule::Situational,
                    "simple" => tengen_core::KoRule::Simple,
                    other => return Err(format!("unknown ko rule {other}")),
                }
            }
            "handicap" => self.handicap = words.get(1).ok_or("handicap N")?.parse().map_err(|_| "handicap N")?,
            "board" => {
                let mut setup = Setup::from_ascii(&rows.join("\n")).map_err(|e| e.to_string())?;
                setup.rules = self.rules;
                setup.handicap = self.handicap;
                if let Some(c) = words.get(1) {
                    setup.to_move = c.parse().map_err(|e| format!("{e}"))?;
                }
                self.game = Some(Game::try_from(setup).map_err(|e| e.to_string())?);
            }
            "fixed_handicap" => {
                let n = words.get(2).ok_or("fixed_handicap SIZE N")?.parse().map_err(|_| "N")?;
                let size = words.get(1).ok_or("fixed_handicap SIZE N")?.parse().map_err(|_| "SIZE")?;
                self.game = Some(Game::with_fixed_handicap(size, self.rules, n).map_err(|e| e.to_string())?);
            }
            "play" => {
                let (c, m) = (parse_color(words.get(1))?, parse_move(words.get(2))?);
                self.game()?.play_as(c, m).map_err(|e| format!("play {c} {m}: {e}"))?;
            }
            "illegal" => {
                let (c, m) = (parse_color(words.get(1))?, parse_move(words.get(2))?);
                let want = words.get(3).ok_or("illegal C V REASON")?;
                let game = self.game()?;
                let before = (ascii(game), game.moves().len(), game.to_move());
                match game.play_as(c, m) {
                    Ok(()) => return Err(format!("{c} {m} was accepted, expected {want}")),
                    Err(e) => expect_eq(&format!("reason for {c} {m}"), reason(&e).to_owned(), (*want).to_owned())?,
                }
                if before != (ascii(game), game.moves().len(), game.to_move()) {
                    return Err(format!("refused move {c} {m} changed the game"));
                }
            }
            "legal" => {
                let (c, m) = (parse_color(words.get(1))?, parse_move(words.get(2))?);
                self.game()?.check(c, m).map_err(|e| format!("{c} {m} should be legal: {e}"))?;
            }
            "undo" => {
                self.game()?.undo().map_err(|e| e.to_string())?;
            }
            "resign" => {
                let c = parse_color(words.get(1))?;
                self.game()?.resign(c);
            }
            "expect" => expect_eq("board", ascii(self.game()?), normalise(rows))?,
            "captures" => {
                let c = parse_color(words.get(1))?;
                let got = self.game()?.board().captures(c).to_string();
                expect_eq(&format!("captures by {c}"), got, (*words.get(2).ok_or("captures C N")?).to_owned())?;
            }
            "to_move" => {
                let got = self.game()?.to_move().to_string();
                expect_eq("to move", got, (*words.get(1).ok_or("to_move C")?).to_owned())?;
            }
            "phase" => {
                let got = match self.game()?.phase() {
                    Phase::Playing => "playing",
                    Phase::Counting => "counting",
                    Phase::Ended(_) => "ended",
                };
                expect_eq("phase", got.to_owned(), (*words.get(1).ok_or("phase P")?).to_owned())?;
            }
            "resume" => self.game()?.resume().map_err(|e| e.to_string())?,
            "dead" => self.dead = parse_points(&words[1..])?,
            "finish" => {
                let dead = self.dead.clone();
                self.game()?.finish(&dead).map_err(|e| e.to_string())?;
            }
            "result" | "result_zh" => {
                let outcome: Outcome = self.game()?.outcome().ok_or("the game has not ended")?;
                let got = if words[0] == "result" { outcome.result_points() } else { outcome.result_zh() };
                expect_eq(words[0], got, words[1..].join(" "))?;
            }
            "count" => {
                let s = self.score()?;
                let want = words[1..].join(" ");
                let got = format!(
                    "black={} white={} points={} zh={}",
                    s.count_text(Color::Black),
                    s.count_text(Color::White),
                    s.result_points(),
                    s.result_zh()
                );
                expect_eq("count", got, want)?;
            }
            "threshold" => {
                let s = self.score()?;
                let got = tengen_core::count::quarters_text(s.black_threshold(), false);
                expect_eq("black's threshold", got, (*words.get(1).ok_or("threshold Q")?).to_owned())?;
            }
            "owners" => {
                let dead = self.dead.clone();
                let game = self.game()?;
                let map = match game.rules().scoring {
                    Scoring::Area => area_owners(game.board(), &dead),
                    Scoring::Territory => territory_owners(game.board(), &dead),
                };
                let mut got = String::new();
                for row in (0..game.board().size() as u8).rev() {
                    let line: Vec<&str> = (0..game.board().size() as u8)
                        .map(|col| match map.owner(Point::new(col, row).unwrap()) {
                            Owner::Black => "b",
                            Owner::White => "w",
                            Owner::Shared => "=",
                            Owner::Neutral => "-",
                        })
                        .collect();
                    writeln!(got, "{}", line.join(" ")).unwrap();
                }
                expect_eq("owners", got, normalise(rows))?;
            }
            other => return Err(format!("unknown command {other:?}")),
        }
        Ok(())
    }
}

/// Whether a command takes the diagram lines that follow it.
fn takes_diagram(command: &str) -> bool {
    matches!(command, "board" | "expect" | "owners")
}

/// A line of a diagram: only stones, points and owner marks.
fn is_diagram_line(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && line.chars().all(|c| c.is_whitespace() || "XxOo.+,#BW=bw-|".contains(c))
}

fn run_file(path: &Path) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut title = String::new();
    let mut case: Option<Case> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].split('#').next().unwrap().trim();
        let number = i + 1;
        i += 1;
        if let Some(t) = line.strip_prefix("===") {
            title = t.trim().to_owned();
            cases += 1;
            case = Some(Case { rules: Rules::chinese(), handicap: 0, game: None, dead: Vec::new() });
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut rows = Vec::new();
        if takes_diagram(words[0]) {
            while i < lines.len() && is_diagram_line(lines[i]) {
                rows.push(lines[i]);
                i += 1;
            }
        }
        let Some(c) = case.as_mut() else {
            failures.push(format!("{}:{number}: command before the first === case", path.display()));
            continue;
        };
        if let Err(e) = c.run(&words, &rows) {
            failures.push(format!("{}:{number} [{title}]: {e}", path.display()));
            case = Some(Case { rules: Rules::chinese(), handicap: 0, game: None, dead: Vec::new() });
            // Skip the rest of this case.
            while i < lines.len() && !lines[i].trim_start().starts_with("===") {
                i += 1;
            }
        }
    }
    (cases, failures)
}

#[test]
fn rule_cases_from_data_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut total = 0;
    let mut failures = Vec::new();
    for f in &files {
        let (n, mut fails) = run_file(f);
        total += n;
        failures.append(&mut fails);
    }
    assert!(total >= 30, "only {total} cases found in {}", dir.display());
    assert!(failures.is_empty(), "{} of {total} cases failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_broken_case_is_reported() {
    // The runner must fail on a wrong expectation, or no case above proves anything.
    let dir = std::env::temp_dir().join(format!("tengen-rules-selftest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.txt");
    std::fs::write(&f, "=== wrong\nboard\n. .\n. .\nplay B A1\nexpect\n. .\n. .\n").unwrap();
    let (n, failures) = run_file(&f);
    assert_eq!((n, failures.len()), (1, 1), "{failures:?}");
    std::fs::remove_dir_all(dir).unwrap();
}
