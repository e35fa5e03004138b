//! `schemcp diff`: direction-aware review of contract changes, between two folders or between git
//! revisions of one folder.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use clap::ValueEnum;
use schemcp_contract::ContractSet;
use schemcp_diff::{Ignores, Report, Severity};

/// The ignore list read when `--ignore` is not given, if it exists.
pub const DEFAULT_IGNORE_FILE: &str = "schemcp-diff-ignore.json";

/// How the report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For a terminal; coloured only when stdout is one.
    Text,
    /// A pull-request comment.
    Markdown,
    /// The report's own shape (`crates/schemcp-diff/report.schema.json`).
    Json,
    /// GitHub Actions workflow annotations, with file and line.
    Github,
    /// A JUnit XML test report: one test case per change.
    Junit,
}

/// The least severe change that makes the command fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Breaking,
    Warning,
    Info,
}

impl From<FailOn> for Severity {
    fn from(f: FailOn) -> Severity {
        match f {
            FailOn::Breaking => Severity::Breaking,
            FailOn::Warning => Severity::Warning,
            FailOn::Info => Severity::Info,
        }
    }
}

/// Where the two contract sets come from.
pub enum Sides {
    /// Two folders on disk.
    Folders { old: PathBuf, new: PathBuf },
    /// One folder at git revision `base`, and at `head` (the working tree when `None`).
    Git {
        dir: PathBuf,
        base: String,
        head: Option<String>,
    },
}

/// Why the comparison could not run: exit status 2, like a usage error.
struct Failed(String);

pub fn run(sides: Sides, format: Format, fail_on: FailOn, ignore: Option<PathBuf>) -> ExitCode {
    match compare(sides, ignore) {
        Ok((report, old, new)) => {
            let text = match format {
                Format::Text => schemcp_diff::render_text(&report, std::io::stdout().is_terminal()),
                Format::Markdown => schemcp_diff::render_markdown(&report),
                Format::Json => schemcp_diff::render_json(&report),
                Format::Github => {
                    schemcp_diff::render_github(&report, schemcp_diff::locator(&old, &new))
                }
                Format::Junit => schemcp_diff::render_junit(&report),
            };
            print!("{text}");
            if !text.ends_with('\n') {
                println!();
            }
            ExitCode::from(report.exit_code(fail_on.into()) as u8)
        }
        Err(Failed(message)) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

fn compare(
    sides: Sides,
    ignore: Option<PathBuf>,
) -> Result<(Report, ContractSet, ContractSet), Failed> {
    let (old, new) = match sides {
        Sides::Folders { old, new } => (load_dir(&old)?, load_dir(&new)?),
        Sides::Git { dir, base, head } => {
            let old = load_rev(&dir, &base)?;
            let new = match head {
                Some(head) => load_rev(&dir, &head)?,
                None => load_dir(&dir)?,
            };
            (old, new)
        }
    };
    let mut report = schemcp_diff::diff(&old, &new);
    let ignore = match ignore {
        Some(path) => Some(path),
        None => Some(PathBuf::from(DEFAULT_IGNORE_FILE)).filter(|p| p.is_file()),
    };
    if let Some(path) = ignore {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Failed(format!("error: cannot read {}: {e}", path.display())))?;
        let ignores =
            Ignores::parse(&text).map_err(|e| Failed(format!("error: {}: {e}", path.display())))?;
        report.apply_ignores(&ignores);
    }
    Ok((report, old, new))
}

fn render_diagnostics(diagnostics: &schemcp_contract::Diagnostics) -> String {
    diagnostics.render(std::io::stderr().is_terminal())
}

fn load_dir(dir: &Path) -> Result<ContractSet, Failed> {
    schemcp_contract::load(dir).map_err(|d| Failed(render_diagnostics(&d)))
}

/// Reads every `*.json` file below `dir` as committed at `rev`, without touching the work tree.
fn load_rev(dir: &Path, rev: &str) -> Result<ContractSet, Failed> {
    // `git -C dir` makes the listed paths relative to `dir`, which is what the loader wants.
    let listed = git(dir, &["ls-tree", "-r", "-z", "--name-only", rev, "--", "."])?;
    let mut files = Vec::new();
    for name in listed.split('\0').filter(|n| n.ends_with(".json")) {
        let text = git(dir, &["show", &format!("{rev}:./{name}")])?;
        files.push((PathBuf::from(name), text));
    }
    if files.is_empty() {
        return Err(Failed(format!(
            "error: no *.json files under {} at revision {rev}",
            dir.display()
        )));
    }
    schemcp_contract::load_sources(dir, files).map_err(|d| {
        Failed(format!(
            "{}\n(in {} at revision {rev})",
            render_diagnostics(&d),
            dir.display()
        ))
    })
}

fn git(dir: &Path, args: &[&str]) -> Result<String, Failed> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| Failed(format!("error: cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(Failed(format!(
            "error: git {} (in {}) failed: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    String::from_utf8(out.stdout)
        .map_err(|_| Failed(format!("error: git {} printed non-UTF-8", args.join(" "))))
}
