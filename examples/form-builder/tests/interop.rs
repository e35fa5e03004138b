//! Real clients against `describe_form`, whose argument and result reference the 2020-12
//! metaschema: the Python `mcp` client (2026-07-28 and the legacy handshake) and the TypeScript
//! SDK 1.x and 2.x clients, over stdio and Streamable HTTP. The TypeScript SDK 1.x compiles output
//! schemas with Ajv's draft-07 class, which has no 2020-12 metaschema; these tests prove that
//! what clients before 2026-07-28 receive compiles there. The clients are the pinned ones
//! `./scripts/test` installs; a missing client fails the test with a message saying so.

#[path = "../../../tests/interop/harness.rs"]
mod harness;

use std::time::Duration;

use harness::{HttpServer, node_client, python_client};

const BIN: &str = env!("CARGO_BIN_EXE_form-builder");
const LIMIT: Duration = Duration::from_secs(180);

fn python(mode: &str, target: &[&str]) {
    python_client("form_client.py", mode, target, LIMIT);
}

fn typescript(sdk: &str, mode: &str, target: &[&str]) {
    node_client("form_client.mjs", sdk, mode, target, LIMIT);
}

#[test]
fn python_client_both_generations_stdio() {
    python("auto", &["--stdio", BIN]);
    python("legacy", &["--stdio", BIN]);
}

#[test]
fn python_client_both_generations_http() {
    let server = HttpServer::start(BIN);
    python("auto", &["--url", &server.url()]);
    python("legacy", &["--url", &server.url()]);
}

#[test]
fn typescript_sdk1_stdio_and_http() {
    typescript("v1", "legacy", &["--stdio", BIN]);
    let server = HttpServer::start(BIN);
    typescript("v1", "legacy", &["--url", &server.url()]);
}

#[test]
fn typescript_client2_both_generations() {
    typescript("v2", "auto", &["--stdio", BIN]);
    let server = HttpServer::start(BIN);
    typescript("v2", "legacy", &["--url", &server.url()]);
}
