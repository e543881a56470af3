//! `tengen score`: count a finished game from its record.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use tengen_core::count::{half_points_text, quarters_text};
use tengen_core::{Color, Point, Rules, Scoring};

/// Options of `tengen score`.
#[derive(Args)]
pub struct ScoreArgs {
    /// The game record (SGF, any character set).
    game: PathBuf,
    /// Dead stones: `none`, `auto` (judged as `tengen gtp` answers `final_status_list dead`:
    /// the chains an ownership suspects — the network's where there is one, else the playout
    /// search's — that a reading with their owner to move cannot save; Benson-alive chains
    /// never dead), or vertices separated by commas (each marks its whole chain).
    #[arg(long, default_value = "none")]
    dead: String,
    /// A KataGo network (`.bin.gz`) to judge `--dead auto` with. Without it, the network
    /// `tengen model install` installed, if any.
    #[arg(long, conflicts_with = "no_model")]
    model: Option<PathBuf>,
    /// Judge `--dead auto` without a network, even where one is installed.
    #[arg(long)]
    no_model: bool,
    /// Count with these rules instead of the record's (`chinese`, `japanese`, …); the record's
    /// komi is kept when it has one.
    #[arg(long)]
    rules: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn parse_dead(text: &str) -> Result<Vec<Point>> {
    if text.eq_ignore_ascii_case("none") || text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',').map(|v| v.trim().parse::<Point>().with_context(|| format!("--dead {text}"))).collect()
}

/// Counts the main line of the record and prints the result.
pub fn run(args: &ScoreArgs) -> Result<()> {
    let replay = crate::records::replay_file(&args.game, "counted")?;
    let mut game = replay.game;
    if let Some(name) = &args.rules {
        let mut rules = Rules::preset(name)?;
        if let Some(komi) = replay.info.komi {
            rules.komi = komi;
        }
        game.set_rules(rules);
    }
    let auto = args.dead.eq_ignore_ascii_case("auto");
    if args.model.is_some() && !auto {
        bail!("--model judges the dead stones of --dead auto only");
    }
    // Who judged the dead stones: the network, the playout search, or the command line.
    let (dead, judge) = if auto {
        match crate::network::choose(args.model.as_deref(), args.no_model)? {
            Some(network) => {
                let search = tengen_engine::NetSearch::new(network, tengen_engine::SearchParams::network());
                (search.dead_stones_of(&game), "network")
            }
            None => {
                (tengen_engine::Mcts::new(tengen_engine::SearchParams::default()).dead_stones_of(&game), "playouts")
            }
        }
    } else {
        (parse_dead(&args.dead)?, "given")
    };
    for &p in &dead {
        if !game.board().contains(p) {
            bail!("--dead {p}: not on the {0}×{0} board", game.board().size());
        }
        if game.board().get(p).is_none() {
            bail!("--dead {p}: no stone there at the end of the game");
        }
    }
    let score = game.score(&dead);
    let count = |c: Color| f64::from(if c == Color::Black { score.black } else { score.white }) / 2.0;
    let dead_names: Vec<String> = dead.iter().map(ToString::to_string).collect();
    if args.json {
        let object = json!({
            "file": args.game.display().to_string(),
            "size": game.board().size(),
            "moves": game.moves().len(),
            "scoring": if score.scoring == Scoring::Area { "area" } else { "territory" },
            "komi": game.rules().komi.points(),
            "handicap": game.handicap(),
            "dead": dead_names,
            "dead_judged_by": judge,
            "black_count": count(Color::Black),
            "white_count": count(Color::White),
            "black_threshold": (score.scoring == Scoring::Area).then(|| f64::from(score.black_threshold()) / 4.0),
            "margin_points": f64::from(score.margin()) / 2.0,
            "result": score.result_points(),
            "result_zh": score.result_zh(),
        });
        println!("{object}");
        return Ok(());
    }
    match score.scoring {
        Scoring::Area => {
            println!(
                "Black {} stones, White {} stones (area counting; komi {} stones{}; Black needs more than {})",
                score.count_text(Color::Black),
                score.count_text(Color::White),
                game.rules().komi.stones_text(),
                if game.handicap() >= 2 { format!(", {} handicap stones", game.handicap()) } else { String::new() },
                quarters_text(score.black_threshold(), false),
            );
        }
        Scoring::Territory => {
            println!(
                "Black {} points, White {} points (territory and prisoners; komi {})",
                score.count_text(Color::Black),
                score.count_text(Color::White),
                half_points_text(game.rules().komi.half_points()),
            );
        }
    }
    if !dead.is_empty() {
        println!("Dead: {}", dead_names.join(" "));
    }
    if auto {
        println!("Dead stones judged by the {}", if judge == "network" { "network" } else { "playout search" });
    }
    println!("Result: {} ({})", score.result_zh(), score.result_points());
    Ok(())
}
