//! The labelled corpus: every file under `tests/corpus/` is a list of old/new schema pairs with
//! the changes the engine must report. All mismatches are collected before failing.

use serde_json::{Value, json};

fn valid(schema: &Value, v: &Value) -> bool {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .is_ok_and(|s| s.is_valid(v))
}

fn tool(schema: &Value, output: bool) -> serde_json::Map<String, Value> {
    let t = if output {
        json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": schema})
    } else {
        json!({"name": "t", "inputSchema": schema})
    };
    t.as_object().unwrap().clone()
}

#[test]
fn corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut total, mut failures) = (0, Vec::new());
    for f in files {
        let cases: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let group = f.file_stem().unwrap().to_string_lossy().to_string();
        for c in cases {
            total += 1;
            let name = format!("{group}: {}", c["name"].as_str().unwrap());
            let output = c["direction"] == "output";
            let (old, new) = (&c["old"], &c["new"]);
            let report = schemcp_diff::diff_tools(&[tool(old, output)], &[tool(new, output)]);
            let mut got: Vec<(String, String)> = report
                .changes
                .iter()
                .map(|ch| (ch.rule.to_string(), ch.severity.as_str().to_string()))
                .collect();
            let mut want: Vec<(String, String)> = c["expect"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    (
                        e["rule"].as_str().unwrap().to_string(),
                        e["severity"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            got.sort();
            want.sort();
            if got != want {
                let detail: Vec<String> = report
                    .changes
                    .iter()
                    .map(|c| format!("{} {:?} {}", c.rule, c.severity, c.message))
                    .collect();
                failures.push(format!(
                    "{name}: want {want:?}, got {got:?}\n      {}",
                    detail.join("\n      ")
                ));
            }
            for ch in report
                .changes
                .iter()
                .filter(|c| c.severity == schemcp_diff::Severity::Breaking)
            {
                let Some(cx) = &ch.counterexample else {
                    failures.push(format!(
                        "{name}: breaking `{}` has no counterexample",
                        ch.rule
                    ));
                    continue;
                };
                let (accepts, rejects) = if output { (new, old) } else { (old, new) };
                if !valid(accepts, cx) || valid(rejects, cx) {
                    failures.push(format!(
                        "{name}: counterexample {cx} for `{}` does not separate the schemas",
                        ch.rule
                    ));
                }
            }
        }
    }
    assert!(total >= 150, "corpus has only {total} cases");
    assert!(
        failures.is_empty(),
        "{} of {total} corpus cases failed:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}
