//! The fidelity harness on the models corpus (`models/corpus`, written by `models/generate.py`
//! and `models/zod.mjs`): the schemas pydantic and zod write for the kinds of models MCP tools
//! take and return (the Python SDK derives every tool's schemas from pydantic models, the
//! TypeScript SDK from zod schemas): constraints, dates, UUIDs, addresses, URLs and decimals,
//! collections and tuples, enums and literals, nested, optional, recursive and generic models,
//! discriminated and plain unions, intersections, aliases that are Rust keywords or collide,
//! closed and open models, computed fields and examples; each with the instances the library
//! writes for it.
//!
//! Every group is typed, with nothing degraded, every valid instance accepted and every invalid
//! one rejected. What does not come back unchanged differs only in the two documented ways: a
//! member with a `default` that the instance left out is filled in, and a member the schema
//! does not declare (pydantic's default `extra="ignore"`, a computed field in the validation
//! schema) is dropped. A lower count is a regression; a higher one should raise the floor.

use schemcp_fidelity::{Generation, Side, difference, json_equal, rows};
use serde_json::Value;
use std::collections::BTreeSet;

/// Measured on this corpus (input and output alike).
const FAITHFUL: usize = 250;

#[test]
fn generator_fidelity_on_pydantic_and_zod_models() {
    let results =
        schemcp_fidelity::run_committed_corpus("crates/schemcp-fidelity/models/corpus").unwrap();
    let (_, total) = rows(&results);
    assert_eq!(total.groups, 39, "the committed corpus has 39 groups");
    assert_eq!((total.valid, total.invalid), (413, 683));
    for s in 0..2 {
        assert_eq!(total.accepted[s], total.valid, "side {s}");
        assert_eq!(total.rejected[s], total.invalid, "side {s}");
        assert!(
            total.faithful[s] >= FAITHFUL,
            "side {s}: {} faithful, floor {FAITHFUL}",
            total.faithful[s]
        );
    }
    let mut unexplained = Vec::new();
    for result in &results {
        let (declared, defaulted) = declared_and_defaulted(&result.group.schema);
        for side in [Side::Input, Side::Output] {
            let what = format!("{} ({side:?})", result.group.description);
            match &result.generation[&side] {
                Generation::Typed(splits) => assert!(splits.is_empty(), "{what}: {splits:?}"),
                other => panic!("{what}: not typed: {other:?}"),
            }
            for (test, outcome) in result.group.tests.iter().zip(&result.outcomes[&side]) {
                let Some(back) = outcome.reserialized.as_ref() else {
                    continue;
                };
                if !test.valid || json_equal(&test.data, back) {
                    continue;
                }
                let why = difference(&test.data, back);
                let explained = why.split("; ").all(|change| {
                    let member = change.rsplit('/').next().unwrap_or_default();
                    change.starts_with("member dropped at ") && !declared.contains(member)
                        || change.starts_with("member added at ") && defaulted.contains(member)
                });
                if !explained {
                    unexplained.push(format!("{what} {}: {why}", test.description));
                }
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "changed in a way the README does not document:\n{}",
        unexplained.join("\n")
    );
}

/// The member names `schema` declares (in any `properties`), and those it gives a default: a
/// member's own `default`, or a member an object `default` sets.
fn declared_and_defaulted(schema: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    fn walk(value: &Value, declared: &mut BTreeSet<String>, defaulted: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    match (key.as_str(), child) {
                        ("properties", Value::Object(members)) => {
                            for (name, member) in members {
                                declared.insert(name.clone());
                                if member.get("default").is_some() {
                                    defaulted.insert(name.clone());
                                }
                            }
                        }
                        ("default", Value::Object(set)) => defaulted.extend(set.keys().cloned()),
                        _ => {}
                    }
                    walk(child, declared, defaulted);
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|item| walk(item, declared, defaulted)),
            _ => {}
        }
    }
    let (mut declared, mut defaulted) = (BTreeSet::new(), BTreeSet::new());
    walk(schema, &mut declared, &mut defaulted);
    (declared, defaulted)
}
