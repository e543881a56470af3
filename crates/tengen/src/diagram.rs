//! `tengen diagram`: a game record as a picture (棋谱), SVG or PNG.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use tengen_diagram::Diagram;
use tengen_sgf::GameInfo;

/// Options of `tengen diagram`.
#[derive(Args)]
pub struct DiagramArgs {
    /// The game record (SGF, any character set).
    game: PathBuf,
    /// The moves to number, `A-B` (1-based, inclusive); all moves by default.
    #[arg(long)]
    moves: Option<String>,
    /// Number the first move of the range 1 instead of its move number.
    #[arg(long)]
    renumber: bool,
    /// Width of the picture in pixels.
    #[arg(long, default_value_t = 800)]
    size_px: u32,
    /// The picture to write: `.svg` or `.png`.
    #[arg(short, long)]
    output: PathBuf,
}

fn range(text: Option<&str>, played: usize) -> Result<(usize, usize)> {
    let Some(text) = text else {
        if played == 0 {
            bail!("the game has no moves to draw");
        }
        return Ok((1, played));
    };
    let parse = |s: &str| s.trim().parse::<usize>().with_context(|| format!("--moves {text}: expected A-B, e.g. 1-50"));
    match text.split_once('-') {
        Some((a, b)) => Ok((parse(a)?, parse(b)?)),
        None => {
            let n = parse(text)?;
            Ok((n, n))
        }
    }
}

fn title(info: &GameInfo, first: usize, last: usize) -> String {
    let player = |name: &Option<String>, rank: &Option<String>, default: &str| match (name, rank) {
        (Some(n), Some(r)) => format!("{n} ({r})"),
        (Some(n), None) => n.clone(),
        _ => default.to_owned(),
    };
    let mut parts = vec![format!(
        "{} vs {}",
        player(&info.black, &info.black_rank, "Black"),
        player(&info.white, &info.white_rank, "White")
    )];
    parts.extend(info.event.clone());
    parts.extend(info.date.clone());
    parts.push(format!("moves {first}–{last}"));
    parts.extend(info.result.clone());
    parts.join(" · ")
}

/// Draws the record and writes the picture.
pub fn run(args: &DiagramArgs) -> Result<()> {
    let replay = crate::records::replay_file(&args.game, "drawn past it")?;
    if !(100..=10_000).contains(&args.size_px) {
        bail!("--size-px must be 100 to 10000, not {}", args.size_px);
    }
    let (first, last) = range(args.moves.as_deref(), replay.game.moves().len())?;
    let diagram = Diagram::new(&replay.game, first..=last, args.renumber)?.with_title(title(&replay.info, first, last));
    let svg = diagram.to_svg(args.size_px);
    let extension = args.output.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("svg") => std::fs::write(&args.output, svg),
        Some("png") => std::fs::write(&args.output, render_png(&svg)?),
        _ => bail!("{}: the picture must end in .svg or .png", args.output.display()),
    }
    .with_context(|| format!("cannot write {}", args.output.display()))
}

/// Renders the SVG with resvg, the system's fonts drawing the numbers.
fn render_png(svg: &str) -> Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &options).context("rendering the diagram")?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).context("picture too large")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().context("encoding the PNG")
}
