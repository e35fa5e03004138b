//! The generated examples check (golden `tests/golden/examples`, written by
//! `tests/examples.rs`): every example of `tests/fixtures/examples` that has a type of its own
//! deserializes into that type and serializes back unchanged, except the one the type cannot
//! hold, which is reported with its tool and pointer. That one goes through an untagged enum, which the build's
//! own check (`src/round_trip.rs`) does not follow; every lossy example it can follow is a build
//! error instead (`tests/examples.rs`).

// Generated code must not warn in a crate that denies warnings (variant names included).
#![deny(warnings)]

// Only the examples check is used here; the trait and the server glue are not.
#[allow(dead_code)]
mod tools {
    include!("golden/examples/schemcp_tools.rs");
}

#[test]
fn a_lossy_example_is_reported_and_the_others_round_trip() {
    let result = std::panic::catch_unwind(tools::schemcp_examples::check_examples);
    let payload = result.expect_err("the lossy example must fail the check");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.starts_with(
            "tool `lossy` /inputSchema/examples/1: the example does not round-trip through the generated type"
        ),
        "{message}"
    );
}

/// typify writes an object `default` as a `Default` impl; members the generator wraps in an
/// `Option` (optional arrays and maps, members that may be `null`) are wrapped there too, so
/// the code compiles and the value is the default as written. A member the default leaves out
/// gets its own default (`pages[0].size`, a `NonZeroU64` typify wrote as `Default::default()`,
/// which did not compile), as reading the default object would give.
#[test]
fn an_object_default_is_filled_in_as_written() {
    let options = tools::FillsDefaultsInputOptions::default();
    assert_eq!(
        serde_json::to_string(&options).unwrap(),
        r#"{"include":[],"weights":{"recent":2.5},"cursor":"start","limit":10,"pages":[{"size":5}]}"#
    );
}

/// An optional member that may be `null` with a default other than `null` is filled in when
/// missing and keeps an explicit `null`: `Option<T>` with the default, not `Option<Option<T>>`
/// without it. So is one without `type` (`{"minimum": 1, "default": 10}`), whose enum holds
/// `null` too. A `null` default leaves the member as sent.
#[test]
fn a_default_of_a_member_that_may_be_null_is_filled_in() {
    use serde_json::json;
    let filled: tools::FillsNullableDefaultsInput = serde_json::from_value(json!({})).unwrap();
    assert_eq!(
        serde_json::to_value(&filled).unwrap(),
        json!({ "page_size": 30, "sort": "asc", "limit": 10 })
    );
    let sent = json!({ "page_size": null, "sort": null, "limit": null, "cursor": null });
    let read: tools::FillsNullableDefaultsInput = serde_json::from_value(sent.clone()).unwrap();
    assert!(read.page_size.is_none() && read.sort.is_none());
    assert_eq!(serde_json::to_value(&read).unwrap(), sent);
}

/// A merge whose definition holds the same merge again (an item of `children` is a `Node`
/// that must name its parent; a section of `Outline` is the outline with a title) is a type of
/// its own, where typify unrolled it until the stack overflowed; the refinement is in the type.
#[test]
fn a_tree_whose_branches_refine_it_round_trips() {
    let value = serde_json::json!({
        "root": {
            "name": "a",
            "children": [{ "name": "b", "parent": "a", "children": [{ "name": "c", "parent": "b" }] }],
            "mirror": { "name": "m" }
        }
    });
    let input: tools::BuildsTreeInput = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&input).unwrap(), value);
    let orphan = serde_json::json!({ "root": { "name": "a", "children": [{ "name": "b" }] } });
    assert!(serde_json::from_value::<tools::BuildsTreeInput>(orphan).is_err());
    let outline = serde_json::json!({ "sections": [{ "title": "intro", "sections": [] }] });
    let read: tools::Outline = serde_json::from_value(outline.clone()).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), outline);
    let untitled = serde_json::json!({ "sections": [{ "sections": [] }] });
    assert!(serde_json::from_value::<tools::Outline>(untitled).is_err());
}

/// Each branch of a task picks its case with a `pattern` on the task's name, beside the list
/// of every name. typify read neither against the other: every variant held all the names, so
/// the first one took every task, whatever its inputs. Narrowed, a variant holds its own names
/// alone, and inputs of another task's shape are refused by the type.
#[test]
fn a_branch_holds_the_listed_values_its_pattern_picks() {
    let copy =
        serde_json::json!({ "step": { "task": "Copy@1", "inputs": { "from": "a", "to": "b" } } });
    let input: tools::ChoosesTaskInput = serde_json::from_value(copy.clone()).unwrap();
    assert!(matches!(input.step, tools::Task::Variant1 { .. }));
    assert_eq!(serde_json::to_value(&input).unwrap(), copy);
    let mixed = serde_json::json!({ "step": { "task": "Copy@2", "inputs": { "script": "make" } } });
    assert!(serde_json::from_value::<tools::ChoosesTaskInput>(mixed).is_err());
    // No listed name matches `^Zip@1$`.
    let zip = serde_json::json!({ "step": { "task": "Zip@1" } });
    assert!(serde_json::from_value::<tools::ChoosesTaskInput>(zip).is_err());
    // The documented constants are one enum.
    let level: tools::ChoosesTaskInputLevel =
        serde_json::from_value(serde_json::json!("low")).unwrap();
    assert_eq!(level, tools::ChoosesTaskInputLevel::Low);
}

/// Travis CI's `step`: a boolean, `skip` or `ignore`, any string, or a list of strings. Two
/// branches hold strings, and typify made the `anyOf` a struct of flattened parts, which
/// refused every string and array; each branch is a variant now.
#[test]
fn an_any_of_whose_branches_share_a_kind_holds_every_branch() {
    for before in [
        serde_json::json!(true),
        serde_json::json!("skip"),
        serde_json::json!("make"),
        serde_json::json!(["a", "b"]),
    ] {
        let value = serde_json::json!({ "step": { "task": "Shell@1" }, "before": before });
        let input: tools::ChoosesTaskInput = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&input).unwrap(), value);
    }
}

/// Travis CI's `deployment`: shared settings beside a `oneOf` of providers, where one
/// provider's `api_key` is a reference and another's an `anyOf` holding that reference. typify
/// panicked on it; each provider is now a variant with the shared settings and its own members.
#[test]
fn each_provider_of_a_deployment_holds_the_shared_settings() {
    for deploy in [
        serde_json::json!({ "provider": "npm", "api_key": "k", "on": { "branch": "main" } }),
        serde_json::json!({ "provider": "releases", "api_key": "k" }),
        serde_json::json!({ "provider": "releases", "api_key": { "secure": "Xy==" } }),
        serde_json::json!({ "provider": "releases", "on": { "branch": "main" } }),
    ] {
        let value = serde_json::json!({ "deploy": deploy });
        let input: tools::DeploysInput = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&input).unwrap(), value);
    }
    // npm's key is a secret string only; a provider no branch names is no deployment.
    for deploy in [
        serde_json::json!({ "provider": "npm", "api_key": { "secure": "Xy==" } }),
        serde_json::json!({ "provider": "npm" }),
        serde_json::json!({ "provider": "heroku", "api_key": "k" }),
    ] {
        let value = serde_json::json!({ "deploy": deploy });
        assert!(serde_json::from_value::<tools::DeploysInput>(value).is_err());
    }
}

#[test]
fn each_runner_of_a_pipeline_holds_the_shared_members() {
    for resource in [
        serde_json::json!({ "kind": "pipeline", "name": "build", "type": "docker", "image": "rust" }),
        serde_json::json!({ "kind": "pipeline", "name": "build" }),
        serde_json::json!({ "kind": "pipeline", "name": "test", "type": "exec", "shell": "bash" }),
        serde_json::json!({ "kind": "secret", "data": "s3cr3t" }),
    ] {
        let value = serde_json::json!({ "resource": resource });
        let input: tools::DefinesResourceInput = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&input).unwrap(), value);
    }
    // An exec runner names its type; a runner's member is not a secret's; a pipeline has a name.
    for resource in [
        serde_json::json!({ "kind": "pipeline", "name": "test", "shell": "bash" }),
        serde_json::json!({ "kind": "secret", "data": "s", "image": "rust" }),
        serde_json::json!({ "kind": "pipeline", "type": "docker" }),
    ] {
        let value = serde_json::json!({ "resource": resource });
        assert!(serde_json::from_value::<tools::DefinesResourceInput>(value).is_err());
    }
}

/// The legacy lookup's branch declares `id` an integer, beside a string or `null` `id`: in
/// that branch `id` is absent. typify merged the two into a member without values and left the
/// branch out, so the type was the other branch's, whose `context` is a string, and a legacy
/// lookup with an object `context` was refused.
#[test]
fn a_branch_whose_member_the_schema_around_rules_out_still_holds_values() {
    for value in [
        serde_json::json!({ "legacy_id": 7 }),
        serde_json::json!({ "legacy_id": 7, "context": { "source": "crm" } }),
        serde_json::json!({ "id": "r-1", "context": "audit" }),
        serde_json::json!({ "id": null, "legacy_id": 7 }),
    ] {
        let input: tools::FindsRecordInput = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&input).unwrap(), value);
    }
}

/// An `enum` (or `const`) beside a list of types, beside `prefixItems`, or without `type`
/// beside other assertions made typify panic, and the schema was refused. The listed values
/// are now the type: each round-trips as written, and any other value is refused by the type
/// alone.
#[test]
fn listed_values_beside_keywords_typify_cannot_read_are_the_type() {
    for value in [
        serde_json::json!({ "size": 10, "mode": ["fast", 2], "version": "v1" }),
        serde_json::json!({ "size": "large", "mode": null, "level": "low", "pair": [1, "one"] }),
        serde_json::json!({ "level": 3, "pair": [3] }),
    ] {
        let input: tools::ListsValuesInput = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&input).unwrap(), value);
    }
    for value in [
        serde_json::json!({ "size": 11 }),
        serde_json::json!({ "size": "medium" }),
        serde_json::json!({ "mode": ["fast"] }),
        serde_json::json!({ "mode": "fast" }),
        serde_json::json!({ "version": "v2" }),
        serde_json::json!({ "level": "high" }),
        serde_json::json!({ "level": 4 }),
        serde_json::json!({ "pair": [1, "two"] }),
        serde_json::json!({ "pair": [3, "three"] }),
    ] {
        assert!(
            serde_json::from_value::<tools::ListsValuesInput>(value.clone()).is_err(),
            "{value}"
        );
    }
}
