//! The fidelity harness on the shapes corpus (`shapes/corpus`, `shapes/evaluated`,
//! `shapes/lists` and `shapes/names`, written by `shapes/generate.py`):
//! random schemas of every kind of value, mixing the keywords the JSON-Schema-Test-Suite tests
//! one at a time (`shapes*.json`), schemas of definitions that reference each other
//! (`refs*.json`), objects and arrays whose keywords read each other or what other schemas
//! evaluate (`evaluated*.json`), `prefixItems` beside a list of types (`lists*.json`), and the
//! first family with names Rust, serde and typify read alike or take for themselves
//! (`names*.json`). Found there, and fixed:
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
//!   definition;
//! - a tagged union whose variants declare one member differently gave both the first
//!   variant's type (`{"kind": "p", "x": {"m": "hi"}}` came back as `{"kind": "p", "x": {}}`);
//! - a `$ref` beside keywords, to a definition without `type`, was a plain struct: it refused
//!   every other kind of value, and beside `"type": "object"` dropped the definition's members;
//! - an object with `"not": {"maxProperties": 0}` dropped the members it did not declare, and
//!   came back empty; an optional member without `type` read an explicit `null` as absent;
//! - a tagged union closed by `unevaluatedProperties: false` was `serde_json::Value`, and
//!   `propertyNames` beside `properties` made typify panic where it merged the object;
//! - `prefixItems` beside a list of types was refused; and typify panicked on a tuple position
//!   that is a map of named values (checked strings, structs), a map with keys checked against
//!   a pattern, or an `enum` of objects or arrays without `type` (the schema was
//!   `serde_json::Value`, with a warning);
//! - schemas typify names alike got one type: members `fooBar` and `foo_bar` (the second read
//!   with the first one's type), a member `""`, `_` or `-` (its type replaced its holder's
//!   struct: every valid value refused); a definition named `String`, `Ok` or `Err` did not
//!   compile; an object without `type` with a member `""` was refused.
//!
//! The targets are the suite's: no panic, code that compiles, every invalid instance rejected.
//! What is left is documented and checked here instance by instance:
//! - a valid instance is refused only when it holds an integer past `i64`
//!   (`9223372036854775808`, or `1e300`, which JSON Schema counts as an integer): `integer` is
//!   `i64` (`u64` from a `minimum` of 0), and the error names the member;
//! - a valid instance comes back changed only by a member an open object does not declare;
//! - a schema is degraded only in the groups listed below, where a part no value fits is
//!   merged (keywords of two kinds without a `type`, `{"minimum": 0, "maxLength": 3}`, were
//!   degraded in 15 groups until they were typed as an enum of a value per kind);
//! - in a few groups, `format: date` strings that are no dates are refused by `NaiveDate`;
//! - an invalid instance is accepted only when it holds an integer no 64-bit type holds
//!   (`-9223372036854775809` is odd, but read as the nearest `f64` it is a `multipleOf` 2);
//!
//! A lower count is a regression; a higher one should raise the floor.

use schemcp_fidelity::{Generation, Side, exceptions, generation_failure, rows};
use serde_json::Value;

/// What the harness measured on one folder of the corpus (input and output alike): its size,
/// then the floors.
struct Measured {
    folder: &'static str,
    groups: usize,
    valid: usize,
    invalid: usize,
    typed: usize,
    accepted: usize,
    faithful: usize,
}

/// The shapes and refs families.
const SHAPES: Measured = Measured {
    folder: "crates/schemcp-fidelity/shapes/corpus",
    groups: 1184,
    valid: 8117,
    invalid: 4546,
    typed: 1181,
    accepted: 7988,
    faithful: 6967,
};

/// The evaluated family.
const EVALUATED: Measured = Measured {
    folder: "crates/schemcp-fidelity/shapes/evaluated",
    groups: 194,
    valid: 1422,
    invalid: 772,
    typed: 189,
    accepted: 1415,
    faithful: 1282,
};

/// The lists family.
const LISTS: Measured = Measured {
    folder: "crates/schemcp-fidelity/shapes/lists",
    groups: 100,
    valid: 792,
    invalid: 400,
    typed: 100,
    accepted: 781,
    faithful: 623,
};

/// The names family.
const NAMED: Measured = Measured {
    folder: "crates/schemcp-fidelity/shapes/names",
    groups: 99,
    valid: 760,
    invalid: 377,
    typed: 99,
    accepted: 745,
    faithful: 564,
};

/// One folder at a time: the generated code of each is compiled as one crate, and rustc
/// takes up to 12 GiB for the larger.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Groups degraded because no value fits a part typify merges, though the schema has values
/// (the generator keeps a type without values only where the schema itself says so; see
/// docs/keywords.md, "Types no value fits"). Each is a contradiction the random draw made, in
/// a member the schema's values can leave out.
const NO_VALUE_FITS: [(&str, &str); 7] = [
    ("r41-58", "items: a string or a number, and an object"),
    (
        "r41-85",
        "items: a reference to a boolean, beside `type: array`",
    ),
    ("r42-15", "an `allOf` of `null` or a string, and an object"),
    (
        "e51-43",
        "d.d: a closed `allOf` branch without `e-f`, and one that requires it",
    ),
    (
        "e51-70",
        "x-1.x-1: `d` required, a number in one `allOf` branch and a boolean in the other",
    ),
    (
        "e52-1",
        "kind's objects: two closed `allOf` branches, one requiring `e-f` the other leaves out",
    ),
    (
        "e52-14",
        "c.g: a closed `allOf` branch without `d`, and one that requires it",
    ),
];

/// A group typify refuses, with the reason: its `const` value is checked against the merged
/// type, where a member the value leaves out is required (read for its `null`; see
/// docs/keywords.md, "Members that may be `null`").
const CONST_CHECKED: (&str, &str) = (
    "e51-89",
    "e-f: `const: {}` merged with an object whose `e-f` member has no value",
);

/// Groups whose `format: date` strings are no dates: `format` is an annotation, and the
/// generated `chrono::NaiveDate` still refuses them (README).
const NOT_DATES: [&str; 6] = ["r43-25", "r43-41", "e52-99", "n71-35", "n71-43", "n71-71"];

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
    check(&SHAPES);
}

#[test]
fn generator_fidelity_on_evaluated_keywords() {
    check(&EVALUATED);
}

#[test]
fn generator_fidelity_on_lists_of_types() {
    check(&LISTS);
}

#[test]
fn generator_fidelity_on_names() {
    check(&NAMED);
}

fn check(measured: &Measured) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let results = schemcp_fidelity::run_committed_corpus(measured.folder).unwrap();
    let (_, total) = rows(&results);
    assert_eq!(total.groups, measured.groups, "{}", measured.folder);
    assert_eq!(
        (total.valid, total.invalid),
        (measured.valid, measured.invalid)
    );
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
                    NO_VALUE_FITS
                        .iter()
                        .any(|(group, _)| *group == result.group.description)
                        && warnings.iter().all(|w| w.contains("a type no value fits"))
                        || CONST_CHECKED.0 == result.group.description
                            && warnings
                                .iter()
                                .all(|w| w.contains("value does not conform to the given schema")),
                    "{what}: degraded for another reason: {warnings:?}"
                ),
                Generation::Typed(_) => {}
                Generation::Panicked(_) | Generation::Uncompilable(_) | Generation::NoType => {
                    unreachable!("reported above")
                }
            }
        }
    }
    // What to raise the floors to (`--nocapture`).
    eprintln!(
        "{}: typed {:?}, accepted {:?}, faithful {:?} (input, output, typify)",
        measured.folder, total.typed, total.accepted, total.faithful
    );
    for (s, side) in [Side::Input, Side::Output].into_iter().enumerate() {
        let mut wide_accepted = 0;
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
                "invalid, accepted by the full pipeline" => {
                    assert!(holds_a_wide_integer(data), "{side:?} {group} {test}: {why}");
                    wide_accepted += 1;
                }
                _ => panic!("{side:?} {group} {test}: {what}: {why}"),
            }
        }
        assert_eq!(total.rejected[s] + wide_accepted, total.invalid, "{side:?}");
        assert!(
            total.typed[s] >= measured.typed,
            "{side:?}: {} typed, floor {}",
            total.typed[s],
            measured.typed
        );
        assert!(
            total.accepted[s] >= measured.accepted,
            "{side:?}: {} accepted, floor {}",
            total.accepted[s],
            measured.accepted
        );
        assert!(
            total.faithful[s] >= measured.faithful,
            "{side:?}: {} faithful, floor {}",
            total.faithful[s],
            measured.faithful
        );
        // Better than plain typify.
        assert!(total.accepted[s] > total.accepted[2], "{side:?}");
        assert!(total.faithful[s] > total.faithful[2], "{side:?}");
    }
}
