//! Runs getsentry's json-schema-diff 0.1.8 on the labelled corpus and writes every case where its
//! verdict disagrees with the label into `docs/diff-comparison.md` (a golden file: refresh with
//! `EXPECTORATE=overwrite cargo test -p schemcp-diff --test json_schema_diff`).
//!
//! json-schema-diff has one fixed direction: a change is breaking when data valid under the old
//! schema may be invalid under the new one, which is right for inputs and backwards for outputs.
//! It is run both as a user would call it (old, new) and, for outputs, with the sides swapped,
//! the best a user can do by hand.

use std::fmt::Write;

use serde_json::Value;

/// What a tool says about one case.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Breaking,
    Safe,
    Review,
    Error,
    Crash,
}

impl Verdict {
    fn as_str(self) -> &'static str {
        match self {
            Verdict::Breaking => "breaking",
            Verdict::Safe => "safe",
            Verdict::Review => "review",
            Verdict::Error => "error",
            Verdict::Crash => "crash",
        }
    }
}

fn label(case: &Value) -> Verdict {
    let sev = |s: &str| {
        case["expect"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["severity"] == s)
    };
    if sev("breaking") {
        Verdict::Breaking
    } else if sev("warning") {
        Verdict::Review
    } else {
        Verdict::Safe
    }
}

/// Every `$ref` target inside `v`, as JSON pointers.
fn refs_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(r) = m.get("$ref").and_then(Value::as_str)
                && let Some(p) = r.strip_prefix('#')
            {
                out.push(p.to_string());
            }
            m.values().for_each(|x| refs_in(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs_in(x, out)),
        _ => {}
    }
}

/// Whether following `$ref`s from `at` can come back to `at`: json-schema-diff recurses into
/// such schemas until the stack overflows, which aborts the process, so they are not run.
fn recursive(root: &Value, at: &str, seen: &mut Vec<String>) -> bool {
    if seen.iter().any(|s| s == at) {
        return true;
    }
    let Some(node) = root.pointer(at) else {
        return false;
    };
    let mut targets = Vec::new();
    refs_in(node, &mut targets);
    seen.push(at.to_string());
    let found = targets.iter().any(|t| recursive(root, t, seen));
    seen.pop();
    found
}

fn ours(old: &Value, new: &Value, output: bool) -> Verdict {
    let tool = |s: &Value| {
        let t = if output {
            serde_json::json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": s})
        } else {
            serde_json::json!({"name": "t", "inputSchema": s})
        };
        vec![t.as_object().unwrap().clone()]
    };
    let report = schemcp_diff::diff_tools(&tool(old), &tool(new));
    let any = |s| report.changes.iter().any(|c| c.severity == s);
    if any(schemcp_diff::Severity::Breaking) {
        Verdict::Breaking
    } else if any(schemcp_diff::Severity::Warning) {
        Verdict::Review
    } else {
        Verdict::Safe
    }
}

fn theirs(old: &Value, new: &Value) -> Verdict {
    if recursive(old, "", &mut Vec::new()) || recursive(new, "", &mut Vec::new()) {
        return Verdict::Crash;
    }
    match json_schema_diff::diff(old.clone(), new.clone()) {
        Ok(changes) if changes.iter().any(|c| c.change.is_breaking()) => Verdict::Breaking,
        Ok(_) => Verdict::Safe,
        Err(_) => Verdict::Error,
    }
}

#[test]
fn comparison_with_json_schema_diff() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut total, mut ours_right, mut as_is_right, mut swapped_right) = (0, 0, 0, 0);
    let mut rows = String::new();
    for f in files {
        let group = f.file_stem().unwrap().to_string_lossy().to_string();
        let cases: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        for case in cases {
            total += 1;
            let output = case["direction"] == "output";
            let (old, new) = (&case["old"], &case["new"]);
            let want = label(&case);
            let as_is = theirs(old, new);
            let swapped = if output { theirs(new, old) } else { as_is };
            ours_right += usize::from(ours(old, new, output) == want);
            as_is_right += usize::from(as_is == want);
            swapped_right += usize::from(swapped == want);
            if as_is != want || swapped != want {
                let _ = writeln!(
                    rows,
                    "| {group} | {} | {} | {} | {} | {} |",
                    case["name"].as_str().unwrap().replace('|', "\\|"),
                    case["direction"].as_str().unwrap(),
                    want.as_str(),
                    as_is.as_str(),
                    swapped.as_str(),
                );
            }
        }
    }
    let doc = format!(
        "# schemcp diff and json-schema-diff 0.1.8 on the same corpus\n\
         \n\
         Generated by `crates/schemcp-diff/tests/json_schema_diff.rs` from the labelled corpus in\n\
         `crates/schemcp-diff/tests/corpus/` ({total} old/new pairs). A case's label is breaking when\n\
         any expected change is breaking (the corpus test checks every rule and severity). json-schema-diff has one fixed direction (data\n\
         valid under the old schema must stay valid), so it is run as a user would call it, and\n\
         for outputs also with old and new swapped.\n\
         \n\
         Verdicts: *breaking*, *safe*, *review* (schemcp reports `unclassified` or a change it\n\
         found no counterexample for, as a warning), *error* (json-schema-diff refused the\n\
         schemas), *crash* (a recursive `$ref`, on which json-schema-diff recurses until the stack\n\
         overflows and aborts the process; not run).\n\
         \n\
         | | cases matching the label |\n\
         |---|---|\n\
         | schemcp diff | {ours_right} of {total} |\n\
         | json-schema-diff (old, new) | {as_is_right} of {total} |\n\
         | json-schema-diff, sides swapped for outputs | {swapped_right} of {total} |\n\
         \n\
         ## Where they disagree\n\
         \n\
         | group | case | side | label (= schemcp) | json-schema-diff | swapped for outputs |\n\
         |---|---|---|---|---|---|\n\
         {rows}"
    );
    expectorate::assert_contents("../../docs/diff-comparison.md", &doc);
}
