//! The `schemcp` command: check, generate and serve schema-first MCP tool contracts.

mod diff;
mod serve;

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "schemcp",
    version,
    about = "Schema-first MCP tools: check, generate and serve tool contracts"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load and lint a schemas folder exactly as the build-time generator does.
    Check {
        /// The schemas folder.
        #[arg(default_value = "schemas")]
        dir: PathBuf,
        #[command(flatten)]
        options: GeneratorOptions,
    },
    /// Generate the Rust code and the catalog outside build.rs (static mode).
    Generate {
        /// The schemas folder.
        #[arg(default_value = "schemas")]
        dir: PathBuf,
        /// Where to write `schemcp_tools.rs` and `tools.json`.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        options: GeneratorOptions,
    },
    /// Classify every contract change as breaking or not, by direction (inputs are produced by
    /// clients, outputs consumed by them).
    ///
    /// `schemcp diff OLD NEW` compares two folders; `schemcp diff --base REV [--head REV] [DIR]`
    /// compares a folder at git revisions (head: the working tree). Exit status: 0 when nothing
    /// reaches `--fail-on`, 1 when something does, 2 on usage errors or contracts that do not load.
    Diff {
        /// OLD and NEW schemas folders; with `--base`, at most one: the folder (default `schemas`).
        #[arg(value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Compare the folder as committed at this git revision...
        #[arg(long, value_name = "REV")]
        base: Option<String>,
        /// ...with the folder at this revision instead of the working tree.
        #[arg(long, value_name = "REV", requires = "base")]
        head: Option<String>,
        /// How to print the report.
        #[arg(long, value_enum, default_value = "text")]
        format: diff::Format,
        /// The least severe change that makes the exit status 1.
        #[arg(long, value_enum, default_value = "breaking")]
        fail_on: diff::FailOn,
        /// Accepted changes: a JSON array of {"fingerprint", "reason"} (default:
        /// `schemcp-diff-ignore.json` in the current folder, if present).
        #[arg(long, value_name = "FILE")]
        ignore: Option<PathBuf>,
    },
    /// Serve schemcp's own tools (validate_instance, check_tools, diff_contracts) over MCP.
    Serve {
        /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<SocketAddr>,
    },
}

/// The build.rs options that change what the generator reports, so `check` and `generate`
/// can say what the package's build will.
#[derive(clap::Args)]
struct GeneratorOptions {
    /// A crate whose types `x-rust-type` may name, as build.rs registers it with
    /// `Builder::extern_crate` (the version in use, `*` for any, `!` for none); repeatable.
    #[arg(long, value_name = "NAME=VERSION", value_parser = extern_crate)]
    extern_crate: Vec<(String, String)>,
}

impl GeneratorOptions {
    fn builder(&self) -> schemcp_build::Builder {
        (self.extern_crate.iter())
            .fold(schemcp_build::Builder::new(), |builder, (name, version)| {
                builder.extern_crate(name, version)
            })
    }
}

/// Parses `NAME=VERSION`.
fn extern_crate(arg: &str) -> Result<(String, String), String> {
    match arg.split_once('=') {
        Some((name, version)) if !name.is_empty() && !version.is_empty() => {
            Ok((name.to_string(), version.to_string()))
        }
        _ => Err(format!(
            "expected NAME=VERSION (chrono=0.4.38), not `{arg}`"
        )),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { dir, options } => check(dir, options.builder()),
        Command::Generate { dir, out, options } => generate(dir, out, options.builder()),
        Command::Diff {
            dirs,
            base,
            head,
            format,
            fail_on,
            ignore,
        } => {
            let sides = match (base, dirs.len()) {
                (Some(base), 0 | 1) => diff::Sides::Git {
                    dir: dirs.into_iter().next().unwrap_or_else(|| "schemas".into()),
                    base,
                    head,
                },
                (None, 2) => {
                    let mut dirs = dirs.into_iter();
                    diff::Sides::Folders {
                        old: dirs.next().unwrap(),
                        new: dirs.next().unwrap(),
                    }
                }
                (Some(_), _) => usage("with --base, give at most one folder"),
                (None, _) => usage("give two folders (OLD NEW), or --base REV [DIR]"),
            };
            diff::run(sides, format, fail_on, ignore)
        }
        Command::Serve { http } => serve::run(http),
    }
}

/// Exits with clap's usage-error status (2) and message.
fn usage(message: &str) -> ! {
    use clap::CommandFactory;
    Cli::command()
        .error(clap::error::ErrorKind::WrongNumberOfValues, message)
        .exit()
}

fn check(dir: PathBuf, builder: schemcp_build::Builder) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    let set = match schemcp_contract::load(&dir) {
        Ok(set) => set,
        Err(diagnostics) => {
            eprintln!("{}", diagnostics.render(color));
            return ExitCode::FAILURE;
        }
    };
    // The generator's own checks (types typify cannot build, name clashes) count too.
    match builder.generate_from(&set) {
        Ok(generated) => {
            for warning in &generated.warnings {
                eprintln!("{}", warning.render(color));
            }
            let tools = match set.tools.len() {
                1 => "1 tool".to_string(),
                n => format!("{n} tools"),
            };
            println!("{}: {tools}, no errors", dir.display());
            ExitCode::SUCCESS
        }
        Err(schemcp_build::Error::Schemas(diagnostics)) => {
            eprintln!("{}", diagnostics.render(color));
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn generate(dir: PathBuf, out: PathBuf, builder: schemcp_build::Builder) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    let generated = match builder.schemas_dir(&dir).generate() {
        Ok(generated) => generated,
        Err(schemcp_build::Error::Schemas(diagnostics)) => {
            eprintln!("{}", diagnostics.render(color));
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    for warning in &generated.warnings {
        eprintln!("{}", warning.render(color));
    }
    if let Err(error) = std::fs::create_dir_all(&out) {
        eprintln!("error: cannot create {}: {error}", out.display());
        return ExitCode::FAILURE;
    }
    for (name, content) in &generated.files {
        let path = out.join(name);
        if let Err(error) = std::fs::write(&path, content) {
            eprintln!("error: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
