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

use schemcp_fidelity::{Generation, Side, rows, unexplained_differences};

/// Measured on this corpus (input and output alike). It was 250 while a missing optional
/// member that may be `null` was never filled in with its default (3 instances per side); it
/// is now, like every other member with a default (an explained difference, checked below).
const FAITHFUL: usize = 247;

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
    for result in &results {
        for side in [Side::Input, Side::Output] {
            let what = format!("{} ({side:?})", result.group.description);
            match &result.generation[&side] {
                Generation::Typed(splits) => assert!(splits.is_empty(), "{what}: {splits:?}"),
                other => panic!("{what}: not typed: {other:?}"),
            }
        }
    }
    let unexplained = unexplained_differences(&results);
    assert!(
        unexplained.is_empty(),
        "changed in a way the README does not document:\n{}",
        unexplained.join("\n")
    );
}
