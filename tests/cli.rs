//! The `schemcp` command end to end: `check`, `generate` and `serve` as a user runs them.

#[path = "../examples/weather/tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::process::Command;

use serde_json::json;
use support::{Generation, Session, StdioSession, texts};

const BIN: &str = env!("CARGO_BIN_EXE_schemcp");

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// What `schemcp check dir` prints, after asserting it succeeded.
fn checked(dir: &str) -> String {
    let out = Command::new(BIN).args(["check", dir]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn check_accepts_the_weather_schemas() {
    let stdout = checked(&repo("examples/weather/schemas"));
    assert!(stdout.contains("6 tools, no errors"), "{stdout}");
}

#[test]
fn check_accepts_a_tool_schema_named_at_its_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("get_weather.json"),
        r##"{"name": "get_weather", "inputSchema": {"$id": "https://example.com/get_weather.json",
            "type": "object", "properties": {"city": {"$ref": "#/$defs/City"}},
            "$defs": {"City": {"type": "string"}}}}"##,
    )
    .unwrap();
    let stdout = checked(dir.path().to_str().unwrap());
    assert!(stdout.ends_with(": 1 tool, no errors\n"), "{stdout}");
}

#[test]
fn check_reports_file_line_and_pointer_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("get_weather.json"),
        "{\n  \"name\": \"get_weather\",\n  \"inputSchema\": {\n    \"type\": \"array\"\n  }\n}\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .arg("check")
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("get_weather.json"), "{stderr}");
    assert!(stderr.contains("input-root-not-object"), "{stderr}");
    assert!(stderr.contains("/inputSchema"), "{stderr}");
    assert!(
        stderr.contains(":4:"),
        "line of the failing value: {stderr}"
    );
}

#[test]
fn check_reports_what_typify_cannot_type_instead_of_crashing() {
    let dir = tempfile::tempdir().unwrap();
    let tool = json!({
        "name": "branchy",
        "inputSchema": {
            "type": "object",
            "properties": { "a": { "type": "array", "prefixItems": vec![json!({ "type": "string" }); 13] }, "b": { "type": "string" } }
        }
    });
    std::fs::write(
        dir.path().join("branchy.json"),
        serde_json::to_string_pretty(&tool).unwrap(),
    )
    .unwrap();
    let out = Command::new(BIN)
        .arg("check")
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("branchy.json") && stderr.contains("/properties/a"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `--extern-crate` registers a crate as build.rs does with `Builder::extern_crate`, so
/// `check` and `generate` say what the package's build will about `x-rust-type`.
#[test]
fn extern_crate_makes_x_rust_type_name_that_crates_type() {
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    std::fs::create_dir(&schemas).unwrap();
    let tool = json!({
        "name": "book",
        "inputSchema": {
            "type": "object",
            "properties": { "day": { "type": "string", "format": "date", "x-rust-type": {
                "crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate"
            } } }
        }
    });
    std::fs::write(schemas.join("book.json"), tool.to_string()).unwrap();
    let run = |extra: &[&str]| {
        let out = Command::new(BIN)
            .arg("generate")
            .arg(&schemas)
            .arg("--out")
            .arg(dir.path().join("out"))
            .args(extra)
            .output()
            .unwrap();
        let code = std::fs::read_to_string(dir.path().join("out/schemcp_tools.rs"));
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr, code.unwrap_or_default())
    };
    // Not registered: a warning at the extension, and chrono's type through the runtime's
    // re-export, as for any `format: date`.
    let (status, stderr, code) = run(&[]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains("rust-type-ignored")
            && stderr.contains("book.json")
            && stderr.contains("/inputSchema/properties/day/x-rust-type")
            && stderr.contains(".extern_crate(\"chrono\""),
        "{stderr}"
    );
    assert!(
        code.contains("__private::chrono::naive::NaiveDate"),
        "{code}"
    );
    // Registered: the package's own chrono, no warning.
    let (status, stderr, code) = run(&["--extern-crate", "chrono=0.4.45"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(!stderr.contains("rust-type-ignored"), "{stderr}");
    assert!(
        code.contains("pub day: ::std::option::Option<::chrono::NaiveDate>"),
        "{code}"
    );
    // A registered version the requirement does not accept: the warning names the version.
    let (_, stderr, _) = run(&["--extern-crate", "chrono=0.3.0"]);
    assert!(stderr.contains("registered at 0.3.0"), "{stderr}");
    // Not NAME=VERSION, or not a version: usage and configuration errors.
    let (status, stderr, _) = run(&["--extern-crate", "chrono"]);
    assert_eq!(status, Some(2), "{stderr}");
    let (status, stderr, _) = run(&["--extern-crate", "chrono=0.4"]);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stderr.contains("\"0.4.38\""), "{stderr}");
}

#[test]
fn generate_writes_what_build_rs_writes() {
    let out_dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["generate", &repo("examples/weather/schemas"), "--out"])
        .arg(out_dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in ["schemcp_tools.rs", "tools.json"] {
        let static_mode = std::fs::read_to_string(out_dir.path().join(file)).unwrap();
        let mirrored =
            std::fs::read_to_string(repo(&format!("examples/weather/generated/{file}"))).unwrap();
        assert_eq!(static_mode, mirrored, "{file}");
    }
}

/// `check_tools` takes the crates build.rs registers, as `schemcp check --extern-crate` does.
#[test]
fn check_tools_takes_the_extern_crates_build_rs_registers() {
    let mut session = Session::Stdio(StdioSession::start(BIN, &["serve"], Generation::Modern));
    let day = r#"{"inputSchema": {"type": "object", "properties": {"d": {"type": "string",
        "x-rust-type": {"crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate"}}}}}"#;
    let files = json!([{ "path": "day.json", "content": day }]);
    let r = session.call("check_tools", json!({ "files": files }));
    let report = &r["structuredContent"];
    assert_eq!(report["ok"], true, "{r}");
    assert_eq!(report["diagnostics"][0]["code"], "rust-type-ignored", "{r}");
    assert_eq!(
        report["diagnostics"][0]["pointer"], "/inputSchema/properties/d/x-rust-type",
        "{r}"
    );
    let r = session.call(
        "check_tools",
        json!({ "files": files, "extern_crates": { "chrono": "0.4.45" } }),
    );
    assert_eq!(
        r["structuredContent"],
        json!({ "ok": true, "tools": ["day"], "diagnostics": [] }),
        "{r}"
    );
    let r = session.call(
        "check_tools",
        json!({ "files": files, "extern_crates": { "chrono": "0.4" } }),
    );
    let report = &r["structuredContent"];
    assert_eq!(report["ok"], false, "{r}");
    assert_eq!(report["diagnostics"][0]["code"], "generator", "{r}");
}

#[test]
fn serve_offers_validate_instance_and_check_tools() {
    for generation in [Generation::Legacy, Generation::Modern] {
        let mut session = Session::Stdio(StdioSession::start(BIN, &["serve"], generation));
        let tools = session.tools();
        assert!(tools.contains_key("validate_instance") && tools.contains_key("check_tools"));

        let r = session.call(
            "validate_instance",
            json!({
                "schema": { "type": "object", "properties": { "humidity": { "maximum": 1 } } },
                "instance": { "humidity": 83 }
            }),
        );
        assert_ne!(r["isError"], true, "{r}");
        assert_eq!(r["structuredContent"]["valid"], false, "{r}");
        assert_eq!(
            r["structuredContent"]["errors"][0]["instancePath"], "/humidity",
            "{r}"
        );

        let r = session.call(
            "check_tools",
            json!({ "files": [
                { "path": "ok.json", "content": "{\"inputSchema\": {\"type\": \"object\"}}" },
                { "path": "bad.json", "content": "{\"inputSchema\": {\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"https://example.com/s.json\"}}}}" }
            ]}),
        );
        assert_ne!(r["isError"], true, "{r}");
        let report = &r["structuredContent"];
        assert_eq!(report["ok"], false, "{r}");
        let diagnostic = &report["diagnostics"][0];
        assert_eq!(diagnostic["code"], "network-ref", "{r}");
        assert_eq!(diagnostic["file"], "bad.json", "{r}");
        assert_eq!(
            diagnostic["pointer"], "/inputSchema/properties/a/$ref",
            "{r}"
        );
        assert_eq!(report["diagnostics"].as_array().unwrap().len(), 1, "{r}");

        let r = session.call(
            "check_tools",
            json!({ "files": [
                { "path": "ok.json", "content": "{\"inputSchema\": {\"type\": \"object\"}}" }
            ]}),
        );
        assert_eq!(
            r["structuredContent"],
            json!({ "ok": true, "tools": ["ok"], "diagnostics": [] }),
            "{r}"
        );
        assert!(!texts(&r).is_empty());

        let r = session.call("validate_instance", json!({ "schema": {} }));
        assert_eq!(r["isError"], true, "{r}");
        assert!(texts(&r).join(" ").contains("instance"), "{r}");
    }
}
