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

use std::collections::BTreeSet;
use std::path::PathBuf;

use schemcp_fidelity::{Generation, Side, difference, json_equal, rows};
use serde_json::Value;

/// Measured on this corpus (input and output alike).
const FAITHFUL: usize = 250;

#[test]
fn generator_fidelity_on_pydantic_and_zod_models() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let results =
        schemcp_fidelity::run_for_tests(&repo, repo.join("crates/schemcp-fidelity/models/corpus"))
            .unwrap();
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
        let schema = &result.group.schema;
        let declared = names(schema, &mut |key, _| key == "properties");
        let defaulted = defaulted_names(schema);
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

/// The member names of every map in `schema` for which `pick(keyword, map)` holds.
fn names(schema: &Value, pick: &mut dyn FnMut(&str, &Value) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    fn walk(value: &Value, pick: &mut dyn FnMut(&str, &Value) -> bool, out: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    if let Value::Object(members) = child
                        && pick(key, child)
                    {
                        out.extend(members.keys().cloned());
                    }
                    walk(child, pick, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, pick, out)),
            _ => {}
        }
    }
    walk(schema, pick, &mut out);
    out
}

/// Members that have a `default` of their own, or that an object `default` sets.
fn defaulted_names(schema: &Value) -> BTreeSet<String> {
    let mut out = names(schema, &mut |key, _| key == "default");
    let mut with_default = BTreeSet::new();
    names(schema, &mut |key, members| {
        if key == "properties" {
            for (name, member) in members.as_object().into_iter().flatten() {
                if member.get("default").is_some() {
                    with_default.insert(name.clone());
                }
            }
        }
        false
    });
    out.extend(with_default);
    out
}
