//! `schemcp diff` end to end: folders, git revisions, every format, exit statuses, the ignore file
//! and the `diff_contracts` tool of `schemcp serve`.

#[path = "../examples/weather/tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};
use support::{Generation, Session, StdioSession, texts};

const BIN: &str = env!("CARGO_BIN_EXE_schemcp");

const OLD_WEATHER: &str = r#"{
  "name": "get_weather",
  "inputSchema": {
    "type": "object",
    "properties": { "city": { "type": "string" } },
    "required": ["city"],
    "additionalProperties": false
  },
  "outputSchema": {
    "type": "object",
    "properties": { "temperature": { "type": "integer" } },
    "required": ["temperature"]
  }
}
"#;

/// Narrows the input (`days` becomes required) and widens the output (integer to number): both
/// break clients.
const NEW_WEATHER: &str = r#"{
  "name": "get_weather",
  "inputSchema": {
    "type": "object",
    "properties": { "city": { "type": "string" }, "days": { "type": "integer" } },
    "required": ["city", "days"],
    "additionalProperties": false
  },
  "outputSchema": {
    "type": "object",
    "properties": { "temperature": { "type": "number" } },
    "required": ["temperature"]
  }
}
"#;

/// Only widens the input (a new optional property in a closed object): safe, a minor bump.
const WIDER_WEATHER: &str = r#"{
  "name": "get_weather",
  "inputSchema": {
    "type": "object",
    "properties": { "city": { "type": "string" }, "days": { "type": "integer" } },
    "required": ["city"],
    "additionalProperties": false
  },
  "outputSchema": {
    "type": "object",
    "properties": { "temperature": { "type": "integer" } },
    "required": ["temperature"]
  }
}
"#;

fn folder(root: &Path, name: &str, weather: &str) -> String {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("get_weather.json"), weather).unwrap();
    dir.display().to_string()
}

fn schemcp(cwd: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn both(out: &Output) -> String {
    format!("{}{}", stdout(out), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn folders_text_report_names_rules_and_exits_1_on_breaking() {
    let tmp = tempfile::tempdir().unwrap();
    let old = folder(tmp.path(), "old", OLD_WEATHER);
    let new = folder(tmp.path(), "new", NEW_WEATHER);
    let out = schemcp(tmp.path(), &["diff", &old, &new]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{}", both(&out));
    assert!(text.starts_with("contract diff: 2 breaking"), "{text}");
    assert!(text.contains("required-added"), "{text}");
    assert!(text.contains("type-widened"), "{text}");
    assert!(text.contains("counterexample: {\"city\":"), "{text}");
    assert!(
        !text.contains('\x1b'),
        "no colour when stdout is not a terminal: {text}"
    );
}

#[test]
fn a_safe_change_exits_0_unless_fail_on_is_lower() {
    let tmp = tempfile::tempdir().unwrap();
    let old = folder(tmp.path(), "old", OLD_WEATHER);
    let new = folder(tmp.path(), "new", WIDER_WEATHER);
    let out = schemcp(tmp.path(), &["diff", &old, &new]);
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    assert!(stdout(&out).contains("minor"), "{}", stdout(&out));
    let out = schemcp(tmp.path(), &["diff", &old, &new, "--fail-on", "info"]);
    assert_eq!(out.status.code(), Some(1), "{}", both(&out));
    let out = schemcp(tmp.path(), &["diff", &old, &new, "--fail-on", "warning"]);
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
}

#[test]
fn usage_errors_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let old = folder(tmp.path(), "old", OLD_WEATHER);
    for args in [
        vec!["diff", old.as_str()],
        vec!["diff", "--head", "HEAD", old.as_str(), old.as_str()],
        vec!["diff", "--base", "HEAD", old.as_str(), old.as_str()],
        vec!["diff", old.as_str(), old.as_str(), "--format", "yaml"],
        vec!["diff", old.as_str(), old.as_str(), "--fail-on", "never"],
    ] {
        let out = schemcp(tmp.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", both(&out));
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    // Contracts that do not load cannot be compared: the diagnostics, then 2.
    let broken = folder(tmp.path(), "broken", "{ not json");
    let out = schemcp(tmp.path(), &["diff", &old, &broken]);
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(both(&out).contains("get_weather.json"), "{}", both(&out));
}

#[test]
fn json_format_is_the_report_contract() {
    let tmp = tempfile::tempdir().unwrap();
    let old = folder(tmp.path(), "old", OLD_WEATHER);
    let new = folder(tmp.path(), "new", NEW_WEATHER);
    let out = schemcp(tmp.path(), &["diff", &old, &new, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", both(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut schema: Value =
        serde_json::from_str(include_str!("../schemas/diff_report.json")).unwrap();
    schema["$ref"] = json!("#/$defs/DiffReport");
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{report:#}");
    assert_eq!(report["semver"], "major");
    let rules: Vec<&str> = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "required-added",
            "type-widened",
            "property-added-to-closed-content-model"
        ]
    );
}

#[test]
fn markdown_github_and_junit_formats() {
    let tmp = tempfile::tempdir().unwrap();
    let old = folder(tmp.path(), "old", OLD_WEATHER);
    let new = folder(tmp.path(), "new", NEW_WEATHER);

    let md = stdout(&schemcp(
        tmp.path(),
        &["diff", &old, &new, "--format", "markdown"],
    ));
    assert!(md.contains("| Severity | Tool |"), "{md}");
    assert!(md.contains("### Breaking changes"), "{md}");
    assert!(md.contains("```json"), "{md}");

    // Annotations point at the new file and the line of the changed keyword.
    let gh = stdout(&schemcp(
        tmp.path(),
        &["diff", &old, &new, "--format", "github"],
    ));
    let line = gh
        .lines()
        .find(|l| l.contains("required-added"))
        .unwrap_or_else(|| panic!("{gh}"));
    assert!(line.starts_with("::error file="), "{line}");
    assert!(line.contains("new/get_weather.json,line=6"), "{line}");

    let junit = stdout(&schemcp(
        tmp.path(),
        &["diff", &old, &new, "--format", "junit"],
    ));
    assert!(junit.starts_with("<?xml"), "{junit}");
    assert_eq!(junit.matches("<failure").count(), 2, "{junit}");
}

#[test]
fn an_ignore_file_accepts_a_break_by_fingerprint_with_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let old = folder(tmp.path(), "old", OLD_WEATHER);
    let new = folder(tmp.path(), "new", NEW_WEATHER);
    let out = schemcp(tmp.path(), &["diff", &old, &new, "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ignores: Vec<Value> = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["severity"] == "breaking")
        .map(|c| json!({ "fingerprint": c["fingerprint"], "reason": "agreed with every client team" }))
        .collect();
    // The default file in the working directory is picked up without a flag.
    std::fs::write(
        tmp.path().join("schemcp-diff-ignore.json"),
        serde_json::to_string(&ignores).unwrap(),
    )
    .unwrap();
    let out = schemcp(tmp.path(), &["diff", &old, &new]);
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    assert!(
        stdout(&out).contains("agreed with every client team"),
        "{}",
        stdout(&out)
    );

    // An entry without a reason is refused, loudly.
    let bad = tmp.path().join("bad-ignore.json");
    std::fs::write(
        &bad,
        format!(r#"[{{"fingerprint": {}}}]"#, ignores[0]["fingerprint"]),
    )
    .unwrap();
    let out = schemcp(
        tmp.path(),
        &["diff", &old, &new, "--ignore", bad.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(both(&out).contains("reason"), "{}", both(&out));
}

fn git(cwd: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(cwd)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", both(&out));
}

#[test]
fn base_and_head_read_the_folder_at_git_revisions() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    git(repo, &["init", "-q", "-b", "main"]);
    folder(repo, "schemas", OLD_WEATHER);
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "old"]);
    folder(repo, "schemas", WIDER_WEATHER);
    git(repo, &["commit", "-q", "-am", "wider"]);
    folder(repo, "schemas", NEW_WEATHER); // uncommitted

    // Working tree against the first commit: the uncommitted break shows.
    let out = schemcp(repo, &["diff", "--base", "HEAD~1"]);
    assert_eq!(out.status.code(), Some(1), "{}", both(&out));
    assert!(stdout(&out).contains("type-widened"), "{}", stdout(&out));

    // Two revisions: only the committed, safe widening.
    let out = schemcp(
        repo,
        &["diff", "--base", "HEAD~1", "--head", "HEAD", "schemas"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", both(&out));
    assert!(
        stdout(&out).contains("property-added-to-closed-content-model"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("type-widened"), "{}", stdout(&out));

    let out = schemcp(repo, &["diff", "--base", "no-such-rev"]);
    assert_eq!(out.status.code(), Some(2), "{}", both(&out));
    assert!(both(&out).contains("no-such-rev"), "{}", both(&out));
}

#[test]
fn serve_offers_diff_contracts() {
    let file = |content: &str| json!([{ "path": "get_weather.json", "content": content }]);
    for generation in [Generation::Legacy, Generation::Modern] {
        let mut session = Session::Stdio(StdioSession::start(BIN, &["serve"], generation));
        assert!(session.tools().contains_key("diff_contracts"));

        let r = session.call(
            "diff_contracts",
            json!({ "old": file(OLD_WEATHER), "new": file(NEW_WEATHER) }),
        );
        assert_ne!(r["isError"], true, "{r}");
        // The output schema's root is a `$ref`, not `"type": "object"`, so clients before
        // 2026-07-28 see it wrapped, like any non-object root.
        let report = match generation {
            Generation::Legacy => &r["structuredContent"]["result"],
            Generation::Modern => &r["structuredContent"],
        };
        assert_eq!(report["semver"], "major", "{r}");
        let first = &report["changes"][0];
        assert_eq!(first["rule"], "required-added", "{r}");
        assert_eq!(first["direction"], "input", "{r}");
        assert_eq!(first["counterexample"], json!({ "city": "a" }), "{r}");

        let r = session.call(
            "diff_contracts",
            json!({ "old": file(OLD_WEATHER), "new": file("{ not json") }),
        );
        assert_eq!(r["isError"], true, "{r}");
        let text = texts(&r).join(" ");
        assert!(
            text.contains("new contract files do not load") && text.contains("get_weather.json"),
            "{text}"
        );
    }
}
