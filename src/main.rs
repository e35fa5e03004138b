//! The `schemcp` command: check, generate and serve schema-first MCP tool contracts.

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
    },
    /// Generate the Rust code and the catalog outside build.rs (static mode).
    Generate {
        /// The schemas folder.
        #[arg(default_value = "schemas")]
        dir: PathBuf,
        /// Where to write `schemcp_tools.rs` and `tools.json`.
        #[arg(long)]
        out: PathBuf,
    },
    /// Serve schemcp's own tools (validate_instance, check_tools) over MCP.
    Serve {
        /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<SocketAddr>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { dir } => check(dir),
        Command::Generate { dir, out } => generate(dir, out),
        Command::Serve { http } => serve::run(http),
    }
}

fn check(dir: PathBuf) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    let set = match schemcp_contract::load(&dir) {
        Ok(set) => set,
        Err(diagnostics) => {
            eprintln!("{}", diagnostics.render(color));
            return ExitCode::FAILURE;
        }
    };
    // The generator's own checks (types typify cannot build, name clashes) count too.
    match schemcp_build::Builder::new().generate_from(&set) {
        Ok(generated) => {
            for warning in &generated.warnings {
                eprintln!("{}", warning.render(color));
            }
            println!("{}: {} tools, no errors", dir.display(), set.tools.len());
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

fn generate(dir: PathBuf, out: PathBuf) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    let generated = match schemcp_build::Builder::new().schemas_dir(&dir).generate() {
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
