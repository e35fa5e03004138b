//! The fidelity targets on the JSON-Schema-Test-Suite, and `docs/fidelity.md` kept in sync with
//! what the harness measures (refresh with `EXPECTORATE=overwrite`, or `cargo run -p
//! schemcp-fidelity`). Needs the suite: `./scripts/test` fetches the pinned copy and sets
//! `SCHEMCP_JSON_SCHEMA_SUITE`. This compiles one crate with every generated type (a few minutes
//! the first time, about a minute and a half after that on two cores).

use std::path::PathBuf;

use schemcp_fidelity::{
    Generation, Side, TYPIFY_ONLY_WHY, exceptions, is_optional, render, rows,
    typify_only_rejections,
};

#[test]
fn generator_fidelity_on_the_json_schema_test_suite() {
    let Some(suite) = std::env::var_os("SCHEMCP_JSON_SCHEMA_SUITE") else {
        panic!(
            "SCHEMCP_JSON_SCHEMA_SUITE is not set: run ./scripts/test, which fetches the pinned \
             JSON-Schema-Test-Suite and sets it (the folder json/tests/draft2020-12 of the \
             jsonschema==4.26.0 source distribution)"
        );
    };
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let results = schemcp_fidelity::run_for_tests(&repo, PathBuf::from(suite)).unwrap();
    // The targets hold for the suite's main folder; `optional/` is reported apart, but it too
    // must never make the generator panic or emit code that does not compile.
    let all = results;
    let results: Vec<_> = all.iter().filter(|r| !is_optional(r)).cloned().collect();
    assert!(
        all.len() > results.len(),
        "the optional/ folder is measured"
    );
    let (_, total) = rows(&results);
    assert_eq!(total.groups, 368, "the pinned suite has 368 groups");
    assert_eq!((total.valid, total.invalid), (741, 516));

    for result in &all {
        for side in [Side::Input, Side::Output] {
            let what = format!(
                "{} / {} ({side:?})",
                result.group.file, result.group.description
            );
            match &result.generation[&side] {
                Generation::Panicked(p) => panic!("{what}: the generator panicked: {p}"),
                Generation::Uncompilable(e) => {
                    panic!("{what}: generated code does not compile: {e}")
                }
                Generation::NoType => panic!("{what}: no type and no diagnostic"),
                Generation::Refused(d) => assert!(
                    !d.is_empty() && d.iter().all(|d| d.contains('[')),
                    "{what}: refused without a diagnostic: {d:?}"
                ),
                // Every degraded part, and every schema typed as its kind or any other kind
                // of value, is named by a warning with its pointer.
                Generation::Degraded(w) | Generation::Typed(w) => assert!(
                    w.iter()
                        .all(|w| w.starts_with("/inputSchema") || w.starts_with("/outputSchema")),
                    "{what}: {w:?}"
                ),
            }
        }
    }
    for s in 0..2 {
        // 100% of invalid instances rejected by the full pipeline.
        assert_eq!(total.rejected[s], total.invalid, "side {s}");
        // Every accepted valid instance round-trips to an equal value (JSON Schema equality),
        // but one: in dynamicRef's "A $dynamicRef that initially resolves to a schema without a
        // matching $dynamicAnchor ...", typed since `$dynamicRef`s that land in one place are
        // followed, `{"foo": "fail"}` goes through a struct of `type: object` without
        // `additionalProperties`, which drops the member it does not declare (documented, as
        // serde, typify and pydantic's default do).
        assert_eq!(total.faithful[s] + 1, total.accepted[s], "side {s}");
        // Better than plain typify.
        assert!(total.accepted[s] > total.accepted[2] && total.rejected[s] > total.rejected[2]);
        assert!(total.typed[s] > total.typed[2], "side {s}");
        // No lower than measured (315 before references were followed into the resources a
        // schema embeds, `schemcp_contract::resources`, 328 before `$dynamicRef`s there, 337 before an `allOf` of
        // disjoint kinds through a reference was seen to have no value, 338 before a reference
        // by the root's own `$id` was a local one, 339 before a reference to the metaschema
        // was the runtime's `JsonSchema`, 341 before identifiers beside `prefixItems` were
        // let be, 343 before the suite's remote documents were bundled).
        assert!(total.typed[s] >= 361, "side {s}: {}", total.typed[s]);
        // Every typed group's type holds every valid instance of its group faithfully, but the
        // one above.
        assert_eq!(total.typed_sound[s] + 1, total.typed[s], "side {s}");
        // Type strictness without mistyping: rejections by types that hold every valid
        // instance of their group; better than typify's, and no lower than measured.
        assert!(total.strict_sound[s] > total.strict_sound[2], "side {s}");
        // And by a generated type at all (a panic or an error is no type).
        assert!(total.strict_typed[s] > total.strict_typed[2], "side {s}");
        // 273 before the suite's remote documents were bundled.
        assert!(
            total.strict_sound[s] >= 295,
            "side {s}: {}",
            total.strict_sound[s]
        );
        assert!(total.strict[s] >= 295, "side {s}: {}", total.strict[s]);
        // Every valid instance, refRemote's too: the harness bundles the suite's remote
        // documents into the schemas that reference them (`bundle_remotes`), as a user bundles
        // theirs. Before, the 16 of refRemote and 8 of dynamicRef and vocabulary were not.
        assert_eq!(total.accepted[s], total.valid, "side {s}");
    }
    // Every valid instance is accepted; one is not faithful. An invalid `default` is a warning
    // (never filled in), `1.0` is an integer and `0.0` equals `0`, and a `not` typify cannot
    // read is left to validation: none of those is an exception.
    for side in [Side::Input, Side::Output] {
        for [file, group, test, what, why] in exceptions(&results, side) {
            let known = group
                .starts_with("A $dynamicRef that initially resolves to a schema without")
                && what == "valid, not faithful"
                && why == "member dropped at /bar/baz/foo";
            assert!(
                known,
                "new exception ({side:?}): {file} / {group} / {test}: {what}: {why}"
            );
        }
    }
    // Where typify's type holds every valid instance of its group and rejects an invalid one,
    // schemcp's type rejects it too, but for the groups whose reason is written down (three
    // groups, four instances a side, at this commit). A new one must be read and explained.
    for side in [Side::Input, Side::Output] {
        let left = typify_only_rejections(&results, side);
        for [file, group, test, _, _] in &left {
            assert!(
                TYPIFY_ONLY_WHY.iter().any(|(known, _)| known == group),
                "{side:?}: {file} / {group} / {test}: typify's faithful type rejects this \
                 invalid instance and schemcp's does not; find out why and add it to \
                 TYPIFY_ONLY_WHY"
            );
        }
        assert!(left.len() <= 4, "{side:?}: {left:?}");
    }
    expectorate::assert_contents(
        repo.join("docs/fidelity.md"),
        &render(&all, &schemcp_fidelity::suite_label()),
    );
}
