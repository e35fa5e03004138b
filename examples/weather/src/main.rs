//! Serves the weather tools (`src/lib.rs`).
//!
//! Usage: `weather` serves MCP over stdio; `weather --http 127.0.0.1:8000` serves Streamable
//! HTTP at `/mcp`.

use std::io::IsTerminal;

use weather::{Weather, tools};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
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
        (None, _) => schemcp_runtime::serve_stdio(server).await?,
        (Some("--http"), Some(addr)) => schemcp_runtime::serve_http(server, addr.parse()?).await?,
        _ => {
            eprintln!("usage: weather [--http ADDR]");
            std::process::exit(2);
        }
    }
    Ok(())
}
