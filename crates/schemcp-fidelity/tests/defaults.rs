//! The fidelity harness on the defaults corpus (`defaults/corpus`, written by
//! `defaults/generate.py`): random nested object schemas with `default`s on members and on
//! whole objects. Generated code once failed to compile there (a default naming an optional
//! array, map or nullable member, also inside `vec![..]`), and typify refused whole schemas it
//! could not hold a default for (a member the schema does not declare); those defaults are now
//! left out of the type with an `untyped-default` warning.
//!
//! Every group is typed, every valid instance accepted and every invalid one rejected. What is
//! not faithful is documented: a missing member with a `default` is filled in, and an object
//! without `additionalProperties` drops the members it does not declare. A lower faithful count
//! is a regression; a higher one should raise the floor.

use std::path::PathBuf;

use schemcp_fidelity::{Generation, Side, rows};

/// Measured on this corpus (input and output alike).
const FAITHFUL: usize = 1212;

#[test]
fn generator_fidelity_on_defaults() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let results = schemcp_fidelity::run_for_tests(
        &repo,
        repo.join("crates/schemcp-fidelity/defaults/corpus"),
    )
    .unwrap();
    let (_, total) = rows(&results);
    assert_eq!(total.groups, 240, "the committed corpus has 240 groups");
    for result in &results {
        for side in [Side::Input, Side::Output] {
            let what = format!("{} ({side:?})", result.group.description);
            match &result.generation[&side] {
                Generation::Typed(_) => {}
                other => panic!("{what}: not typed: {other:?}"),
            }
        }
    }
    for s in 0..2 {
        assert_eq!(total.accepted[s], total.valid, "side {s}");
        assert_eq!(total.rejected[s], total.invalid, "side {s}");
        assert!(
            total.faithful[s] >= FAITHFUL,
            "side {s}: {} faithful, floor {FAITHFUL}",
            total.faithful[s]
        );
        // Better than plain typify.
        assert!(total.faithful[s] > total.faithful[2], "side {s}");
    }
}
