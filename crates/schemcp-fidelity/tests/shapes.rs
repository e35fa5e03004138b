//! The fidelity harness on the shapes corpus (`shapes/corpus`, written by `shapes/generate.py`):
//! random schemas of every kind of value, mixing the keywords the JSON-Schema-Test-Suite tests
//! one at a time (`shapes*.json`), and schemas of definitions that reference each other
//! (`refs*.json`). Found there, and fixed:
//! - code that did not compile: two array variants of one `anyOf` both converted
//!   `From<Vec<Value>>`; an `enum` value below the `minimum` written as a `u64`;
//! - types that refused valid values: a tuple branch of a union made the union a struct (no
//!   array, no boolean fitted); an open object counted by `minProperties` dropped the members
//!   it counted;
//! - schemas that were `serde_json::Value` because typify refused or panicked: an `enum` value
//!   of another type, equal `anyOf` or `oneOf` branches, an `anyOf` of one `anyOf`, a nullable
//!   tuple position of a checked string, an `allOf` of one branch in a tuple position;
//! - a member that could only be `null` (through an `allOf`) came back as `null` when it had
//!   been left out;
//! - a union with a `$ref` beside a `description`, or with a definition that is itself a
//!   `$ref`, was typed as a struct of flattened parts, which refused `null`, strings and
//!   booleans the other branches allow, and dropped the members of two branches naming one
//!   definition.
//!
//! The targets are the suite's: no panic, code that compiles, every invalid instance rejected.
//! What is left is documented and checked here instance by instance:
//! - a valid instance is refused only when it holds an integer past `i64`
//!   (`9223372036854775808`, or `1e300`, which JSON Schema counts as an integer): `integer` is
//!   `i64` (`u64` from a `minimum` of 0), and the error names the member;
//! - a valid instance comes back changed only by a member an open object does not declare;
//! - a schema is degraded only for keywords of two kinds without a `type` (`{"minimum": 0,
//!   "maxLength": 3}`), which the README lists, or in the three groups listed below, where a
//!   part no value fits is merged;
//! - in two groups, `format: date` strings that are no dates are refused by `NaiveDate`.
//!
//! A lower count is a regression; a higher one should raise the floor.

use schemcp_fidelity::{Generation, Side, exceptions, generation_failure, rows};
use serde_json::Value;

/// Measured on this corpus (input and output alike).
const TYPED: usize = 1166;
const ACCEPTED: usize = 7988;
const FAITHFUL: usize = 6954;

/// Groups degraded because no value fits a part typify merges, though the schema has values
/// (the generator keeps a type without values only where the schema itself says so; see
/// docs/keywords.md, "Types no value fits"). Each is a contradiction the random draw made.
const NO_VALUE_FITS: [(&str, &str); 3] = [
    ("r41-58", "items: a string or a number, and an object"),
    (
        "r41-85",
        "items: a reference to a boolean, beside `type: array`",
    ),
    ("r42-15", "an `allOf` of `null` or a string, and an object"),
];

/// Groups whose `format: date` strings are no dates: `format` is an annotation, and the
/// generated `chrono::NaiveDate` still refuses them (README).
const NOT_DATES: [&str; 2] = ["r43-25", "r43-41"];

/// Whether `value` holds an integer (JSON Schema's: `1e300` is one) outside `i64`.
fn holds_a_wide_integer(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.as_i64().is_none() && n.as_f64().is_some_and(|f| f.fract() == 0.0),
        Value::Array(items) => items.iter().any(holds_a_wide_integer),
        Value::Object(members) => members.values().any(holds_a_wide_integer),
        _ => false,
    }
}

#[test]
fn wide_integers_are_told_apart() {
    assert!(holds_a_wide_integer(&serde_json::json!({"a": [1e300]})));
    let wide: Value = serde_json::from_str("[18446744073709551616]").unwrap();
    assert!(holds_a_wide_integer(&wide));
    assert!(holds_a_wide_integer(&serde_json::json!(
        9223372036854775808u64
    )));
    assert!(!holds_a_wide_integer(&serde_json::json!([
        -9223372036854775808i64,
        9223372036854775807i64,
        2.5
    ])));
}

#[test]
fn generator_fidelity_on_shapes() {
    let results =
        schemcp_fidelity::run_committed_corpus("crates/schemcp-fidelity/shapes/corpus").unwrap();
    let (_, total) = rows(&results);
    assert_eq!(total.groups, 1184, "the committed corpus has 1184 groups");
    assert_eq!((total.valid, total.invalid), (8117, 4546));
    for result in &results {
        for side in [Side::Input, Side::Output] {
            let what = format!("{} ({side:?})", result.group.description);
            let generation = &result.generation[&side];
            if let Some(failure) = generation_failure(generation) {
                panic!("{what}: {failure}");
            }
            match generation {
                Generation::Refused(d) => panic!("{what}: refused: {d:?}"),
                Generation::Degraded(warnings) => assert!(
                    warnings.iter().all(|w| w.contains("but has no `type`"))
                        || NO_VALUE_FITS
                            .iter()
                            .any(|(group, _)| *group == result.group.description)
                            && warnings.iter().all(|w| w.contains("a type no value fits")),
                    "{what}: degraded for another reason: {warnings:?}"
                ),
                Generation::Typed(_) => {}
                Generation::Panicked(_) | Generation::Uncompilable(_) | Generation::NoType => {
                    unreachable!("reported above")
                }
            }
        }
    }
    for (s, side) in [Side::Input, Side::Output].into_iter().enumerate() {
        assert_eq!(total.rejected[s], total.invalid, "{side:?}");
        for [_, group, test, what, why] in exceptions(&results, side) {
            let data = &results
                .iter()
                .find(|r| r.group.description == group)
                .and_then(|r| r.group.tests.iter().find(|t| t.description == test))
                .expect("the exception's instance")
                .data;
            match what.as_str() {
                "valid, not accepted" => assert!(
                    holds_a_wide_integer(data) || NOT_DATES.contains(&group.as_str()),
                    "{side:?} {group} {test}: refused, and not for a wide integer: {why}"
                ),
                "valid, not faithful" => assert!(
                    why.starts_with("member dropped"),
                    "{side:?} {group} {test}: {why}"
                ),
                _ => panic!("{side:?} {group} {test}: {what}: {why}"),
            }
        }
        assert!(
            total.typed[s] >= TYPED,
            "{side:?}: {} typed, floor {TYPED}",
            total.typed[s]
        );
        assert!(
            total.accepted[s] >= ACCEPTED,
            "{side:?}: {} accepted, floor {ACCEPTED}",
            total.accepted[s]
        );
        assert!(
            total.faithful[s] >= FAITHFUL,
            "{side:?}: {} faithful, floor {FAITHFUL}",
            total.faithful[s]
        );
        // Better than plain typify.
        assert!(total.accepted[s] > total.accepted[2], "{side:?}");
        assert!(total.faithful[s] > total.faithful[2], "{side:?}");
    }
}
