//! Real clients against the weather binary, every tool and every row of the seed table: the
//! Python `mcp` client (2026-07-28 through `server/discover`, and the legacy handshake), the
//! TypeScript SDK 1.x `Client` and the 2.x `@modelcontextprotocol/client` (stdio and Streamable
//! HTTP), and the MCP Inspector CLI. The clients are the pinned ones `./scripts/test` installs; a
//! missing client fails the test with a message saying so (nothing skips).
//!
//! Each client is a script in `tests/interop/` that prints a PASS/FAIL line per check and the raw
//! JSON of every failing response; these tests run it and assert it exited 0.

#[path = "../../../tests/interop/harness.rs"]
mod harness;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use harness::{HttpServer, Tools, node_client, python_client};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_weather");
const LIMIT: Duration = Duration::from_secs(180);

fn python(mode: &str, target: &[&str]) {
    python_client("weather_client.py", mode, target, LIMIT);
}

fn typescript(sdk: &str, mode: &str, target: &[&str]) {
    node_client("weather_client.mjs", sdk, mode, target, LIMIT);
}

#[test]
fn python_client_default_mode_stdio() {
    python("auto", &["--stdio", BIN]);
}

#[test]
fn python_client_legacy_stdio() {
    python("legacy", &["--stdio", BIN]);
}

#[test]
fn python_client_default_mode_http() {
    let server = HttpServer::start(BIN);
    python("auto", &["--url", &server.url()]);
}

#[test]
fn python_client_legacy_http() {
    let server = HttpServer::start(BIN);
    python("legacy", &["--url", &server.url()]);
}

#[test]
fn typescript_sdk1_stdio() {
    typescript("v1", "legacy", &["--stdio", BIN]);
}

#[test]
fn typescript_sdk1_http() {
    let server = HttpServer::start(BIN);
    typescript("v1", "legacy", &["--url", &server.url()]);
}

#[test]
fn typescript_client2_auto_stdio() {
    typescript("v2", "auto", &["--stdio", BIN]);
}

#[test]
fn typescript_client2_auto_http() {
    let server = HttpServer::start(BIN);
    typescript("v2", "auto", &["--url", &server.url()]);
}

#[test]
fn typescript_client2_legacy_http() {
    let server = HttpServer::start(BIN);
    typescript("v2", "legacy", &["--url", &server.url()]);
}

/// `mcp-inspector --cli BIN --method ...` with its catalog in a temporary folder (it would
/// otherwise write one under the home directory). Returns the exit code and the JSON it printed.
fn inspector(catalog: &Path, args: &[&str]) -> (Option<i32>, Value, String) {
    let mut command: Command = Tools::node_bin("mcp-inspector");
    command
        .arg("--cli")
        .arg(BIN)
        .args(args)
        .env("MCP_CATALOG_PATH", catalog);
    let output = harness::run_with_limit(&mut command, LIMIT).expect("run the inspector");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let json = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "inspector {args:?} printed no JSON ({e}; exit {:?})\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
            output.status.code()
        )
    });
    (output.status.code(), json, stderr)
}

fn texts(result: &Value) -> Vec<&str> {
    result["content"]
        .as_array()
        .map(|blocks| blocks.iter().filter_map(|b| b["text"].as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn inspector_cli_lists_and_calls_every_tool() {
    let dir = std::env::temp_dir().join(format!("schemcp-inspector-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let catalog = dir.join("mcp.json");
    let catalog = catalog.as_path();

    // The Inspector speaks the legacy handshake: non-object output schemas arrive wrapped.
    let (code, list, stderr) = inspector(catalog, &["--method", "tools/list"]);
    assert_eq!(code, Some(0), "tools/list: {list}\n{stderr}");
    let tools: Vec<&str> = list["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("tools/list: {list}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "get_forecast",
            "get_temperature",
            "get_temperatures",
            "get_weather",
            "get_weather_upstream",
            "weather_report"
        ],
        "{list}"
    );
    let temperature = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "get_temperature")
        .unwrap();
    assert_eq!(
        temperature["outputSchema"],
        json!({"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"]}),
        "{temperature}"
    );

    let call = |tool: &str, args: &[&str]| {
        let mut all = vec!["--method", "tools/call", "--tool-name", tool];
        if !args.is_empty() {
            all.push("--tool-arg");
            all.extend_from_slice(args);
        }
        inspector(catalog, &all)
    };

    for (city, degrees) in [("London", 17), ("Cairo", 34), ("Reykjavik", 4)] {
        let (code, result, stderr) = call("get_temperature", &[&format!("city={city}")]);
        assert_eq!(code, Some(0), "get_temperature {city}: {result}\n{stderr}");
        assert_eq!(
            result["structuredContent"],
            json!({ "result": degrees }),
            "{result}"
        );
        assert_eq!(texts(&result), [degrees.to_string()], "{result}");
    }

    let (code, result, stderr) = call("get_weather", &["city=London"]);
    assert_eq!(code, Some(0), "get_weather: {result}\n{stderr}");
    assert_eq!(
        result["structuredContent"],
        json!({ "temperature": 16.2, "humidity": 0.83, "conditions": "Overcast" }),
        "{result}"
    );

    let (code, result, stderr) = call("get_forecast", &["city=London", "days=3"]);
    assert_eq!(code, Some(0), "get_forecast: {result}\n{stderr}");
    let days = result["structuredContent"]["result"]
        .as_array()
        .unwrap_or_else(|| panic!("get_forecast: {result}"));
    assert_eq!(days.len(), 3, "{result}");
    for (i, day) in days.iter().enumerate() {
        let t = day["temperature"].as_f64().unwrap();
        assert!((t - (16.2 + i as f64)).abs() < 1e-9, "{result}");
    }

    let (code, result, stderr) = call("get_temperatures", &["cities=[\"London\",\"Atlantis\"]"]);
    assert_eq!(code, Some(0), "get_temperatures: {result}\n{stderr}");
    assert_eq!(
        result["structuredContent"],
        json!({ "London": 16.2 }),
        "{result}"
    );

    let (code, result, stderr) = call("weather_report", &["city=London"]);
    assert_eq!(code, Some(0), "weather_report: {result}\n{stderr}");
    assert_eq!(
        texts(&result),
        ["London: 17 degrees, overcast, light rain easing by evening."],
        "{result}"
    );
    assert!(result.get("structuredContent").is_none(), "{result}");

    // A result with isError: true makes the Inspector exit 5, with the result still printed.
    let (code, result, stderr) = call("get_weather_upstream", &["city=London"]);
    assert_eq!(code, Some(5), "get_weather_upstream: {result}\n{stderr}");
    assert_eq!(result["isError"], true, "{result}");
    assert!(
        texts(&result).iter().any(|t| t.contains("humidity")),
        "{result}"
    );

    let (code, result, stderr) = call("get_temperature", &["city=Atlantis"]);
    assert_eq!(
        code,
        Some(5),
        "get_temperature Atlantis: {result}\n{stderr}"
    );
    assert!(
        texts(&result).iter().any(|t| t.contains("Atlantis")),
        "{result}"
    );

    let (code, result, stderr) = call("get_forecast", &["city=London", "days=0"]);
    assert_eq!(code, Some(5), "get_forecast days=0: {result}\n{stderr}");
    assert!(
        texts(&result).iter().any(|t| t.contains("days")),
        "{result}"
    );

    let _ = std::fs::remove_dir_all(&dir);
}
