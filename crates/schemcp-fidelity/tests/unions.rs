//! The fidelity harness on the union corpus (`unions/corpus`, written by
//! `unions/generate.py`): random object schemas whose `allOf`/`anyOf`/`oneOf` branches typify
//! merges, which the JSON-Schema-Test-Suite hardly has. There typify's types had no values,
//! declared a member twice, did not compile, or dropped members the schema requires.
//!
//! The targets are those of the suite where the generator meets them (no panic, code that
//! compiles, every invalid instance rejected), and floors elsewhere:
//! - an object without `additionalProperties` drops the members it does not declare
//!   (documented);
//! - where typify merges a mixed union into a type without values (`enum T {}`), the schema
//!   becomes `serde_json::Value` (with the opt-in the harness uses; refused without it);
//! - where typify's merge still goes wrong in a way the generator does not see, a type could
//!   refuse a valid instance: none does on this corpus now, and the floor below holds that.
//!
//! A lower count is a regression; a higher one should raise the floor.

use schemcp_fidelity::{Side, exceptions, generation_failure, rows};

/// Measured on this corpus (input and output alike). `FAITHFUL` went from 1690 to 1686 when
/// six groups that were `serde_json::Value` (a member declared twice) became typed: one of
/// them, an open object, drops the members it does not declare from four valid instances.
/// It went from 1686 to 1672 when branches no value matches were left out of the type
/// (`never_matching.rs`): two groups that were `serde_json::Value` became typed, and in five
/// others 14 valid instances had gone through the variant of such a branch, which kept the
/// members the branch they match does not declare; those are dropped now, as in every open
/// object here.
const ACCEPTED: usize = 2201;
const FAITHFUL: usize = 1672;

#[test]
fn generator_fidelity_on_unions_of_objects() {
    let results =
        schemcp_fidelity::run_committed_corpus("crates/schemcp-fidelity/unions/corpus").unwrap();
    let (_, total) = rows(&results);
    assert_eq!(total.groups, 444, "the committed corpus has 444 groups");
    assert_eq!((total.valid, total.invalid), (2201, 1277));
    for result in &results {
        for side in [Side::Input, Side::Output] {
            let what = format!("{} ({side:?})", result.group.description);
            if let Some(failure) = generation_failure(&result.generation[&side]) {
                panic!("{what}: {failure}");
            }
        }
    }
    for s in 0..2 {
        assert_eq!(total.rejected[s], total.invalid, "side {s}");
        assert_eq!(total.refused[s], 0, "side {s}");
        let report = || {
            exceptions(&results, if s == 0 { Side::Input } else { Side::Output })
                .into_iter()
                .filter(|[.., what, _]| what.contains("not accepted"))
                .map(|[_, group, test, _, why]| format!("{group} {test}: {why}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(
            total.accepted[s] >= ACCEPTED,
            "side {s}: {} accepted, floor {ACCEPTED}; refused:\n{}",
            total.accepted[s],
            report()
        );
        assert!(
            total.faithful[s] >= FAITHFUL,
            "side {s}: {} faithful, floor {FAITHFUL}",
            total.faithful[s]
        );
        // Better than plain typify.
        assert!(total.accepted[s] > total.accepted[2], "side {s}");
    }
}
