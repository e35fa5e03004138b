//! The code generated with `fallback_to_value` for `tests/fixtures/degraded` (golden
//! `tests/golden/degraded`, written by `tests/examples.rs`) compiles, and only the parts typify
//! fails on are `serde_json::Value`: the rest of each type is typed, every value round-trips, and
//! the generated examples check (a `#[test]` in the golden file) passes.

// Generated code must not warn in a crate that denies warnings.
#![deny(warnings)]

// Only the types and the examples check are used here; the trait and the server glue are not.
#[allow(dead_code)]
mod tools {
    include!("golden/degraded/schemcp_tools.rs");
}

use serde_json::json;

#[test]
fn only_the_failing_parts_are_values() {
    let value = json!({ "name": "boot", "at": { "tick": 3, "zone": "UTC" }, "tags": ["power"] });
    let input: tools::RecordEventInput = serde_json::from_value(value.clone()).unwrap();
    // Typed where typify could type it, a `Value` where it failed.
    let name: &str = &input.name;
    let at: &serde_json::Value = &input.at;
    assert_eq!((name, at["tick"].as_i64()), ("boot", Some(3)));
    assert_eq!(serde_json::to_value(&input).unwrap(), value);
    // The typed part still rejects what does not fit it.
    let unnamed = json!({ "name": 7, "at": {} });
    assert!(serde_json::from_value::<tools::RecordEventInput>(unnamed).is_err());

    let output = tools::RecordEventOutput {
        recorded: 2,
        stamps: vec![json!({ "tick": 3 }), json!({ "tick": 4, "zone": "UTC" })],
    };
    let written = serde_json::to_value(&output).unwrap();
    assert_eq!(
        written,
        json!({ "recorded": 2, "stamps": [{ "tick": 3 }, { "tick": 4, "zone": "UTC" }] })
    );
    let read: tools::RecordEventOutput = serde_json::from_value(written.clone()).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), written);
}
