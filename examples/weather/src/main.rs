//! Serves the weather tools (`src/lib.rs`).
//!
//! Usage: `weather` serves MCP over stdio; `weather --http 127.0.0.1:8000` serves Streamable
//! HTTP at `/mcp`.

use std::io::IsTerminal;

use weather::{Weather, tools};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // stdout is the MCP transport: logs go to stderr.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let server = tools::server(Weather).with_info("weather", env!("CARGO_PKG_VERSION"));
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        // One client on one pipe: a single-threaded runtime serves it with about half the CPU
        // per call of a multi-threaded one, because no worker thread has to wake another
        // (docs/benchmarks.md). Tools that block should use `spawn_blocking` either way.
        (None, _) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(schemcp_runtime::serve_stdio(server))?,
        // Many clients at once: their calls can run on every core.
        (Some("--http"), Some(addr)) => {
            let addr = addr.parse()?;
            tokio::runtime::Runtime::new()?.block_on(schemcp_runtime::serve_http(server, addr))?
        }
        _ => {
            eprintln!("usage: weather [--http ADDR]");
            std::process::exit(2);
        }
    }
    Ok(())
}
