//! One broken folder per diagnostic code, each asserting the exact one-line diagnostic:
//! file, line, column, code, message and pointer.

use schemcp_contract::{Severity, load};

/// Loads `files` (name, text) as a schemas folder.
fn load_files(
    files: &[(&str, &str)],
) -> Result<schemcp_contract::ContractSet, schemcp_contract::Diagnostics> {
    schemcp_contract::load_sources(
        std::path::Path::new(""),
        files
            .iter()
            .map(|(name, text)| (name.into(), text.to_string()))
            .collect(),
    )
}

/// Every diagnostic of a folder that must fail to load, one line each.
fn errors(case: &str) -> String {
    let dir = format!("tests/fixtures/broken/{case}");
    match load(&dir) {
        Ok(set) => panic!(
            "{dir} loaded with {} tools; expected errors",
            set.tools.len()
        ),
        Err(diagnostics) => diagnostics.one_line(),
    }
}

/// A folder under the test's scratch space, emptied.
#[cfg(unix)]
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("schemcp-contract")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Links that lead back into the folder being read were followed without end: with both of
/// these, `schemcp check` ran until killed.
#[cfg(unix)]
#[test]
fn links_back_into_the_folder_are_errors_not_endless_reads() {
    use std::os::unix::fs::symlink;
    let root = scratch("link-cycles");
    let schemas = root.join("schemas");
    std::fs::create_dir(&schemas).unwrap();
    let tool = r#"{"name": "t", "inputSchema": {"type": "object"}}"#;
    std::fs::write(schemas.join("t.json"), tool).unwrap();
    symlink(".", schemas.join("self")).unwrap();
    symlink("..", schemas.join("up")).unwrap();
    let diagnostics = load(&schemas).expect_err("links back must be errors");
    let real = std::fs::canonicalize(&schemas).unwrap();
    let lines: Vec<String> = diagnostics
        .0
        .iter()
        .map(|d| format!("{} {} {}", d.file.display(), d.code, d.message))
        .collect();
    assert_eq!(
        lines,
        [
            format!(
                "{0}/self unreadable `{0}/self` links to `{1}`, which holds the folder being \
                 read: reading it would never end",
                schemas.display(),
                real.display()
            ),
            format!(
                "{0}/up unreadable `{0}/up` links to `{1}`, which holds the folder being read: \
                 reading it would never end",
                schemas.display(),
                real.parent().unwrap().display()
            ),
        ]
    );
}

/// A `*.json` link that leads nowhere was skipped without a word; a link to a file or folder
/// elsewhere is read like a copy.
#[cfg(unix)]
#[test]
fn a_contract_file_that_cannot_be_read_is_never_skipped() {
    use std::os::unix::fs::symlink;
    let root = scratch("dangling-links");
    let (schemas, shared, more) = (root.join("schemas"), root.join("shared"), root.join("more"));
    for dir in [&schemas, &shared, &more] {
        std::fs::create_dir(dir).unwrap();
    }
    let tool = |name: &str| format!(r#"{{"name": "{name}", "inputSchema": {{"type": "object"}}}}"#);
    std::fs::write(schemas.join("own.json"), tool("own")).unwrap();
    std::fs::write(shared.join("one.json"), tool("linked")).unwrap();
    std::fs::write(more.join("nested.json"), tool("nested")).unwrap();
    symlink(shared.join("one.json"), schemas.join("linked.json")).unwrap();
    symlink(&more, schemas.join("more")).unwrap();
    let set = load(&schemas).unwrap();
    let mut names: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["linked", "nested", "own"]);
    std::fs::remove_file(shared.join("one.json")).unwrap();
    let diagnostics = load(&schemas).expect_err("a dangling link must be an error");
    assert_eq!(diagnostics.0.len(), 1, "{}", diagnostics.one_line());
    let d = &diagnostics.0[0];
    assert_eq!(d.code, "unreadable");
    assert!(d.file.ends_with("schemas/linked.json"), "{d:?}");
    assert!(
        d.message.contains("No such file or directory"),
        "{}",
        d.message
    );
}

#[test]
fn invalid_json_points_at_serde_json_position() {
    assert_eq!(
        errors("invalid-json"),
        "tests/fixtures/broken/invalid-json/get_weather.json:5:51: error[invalid-json]: not valid JSON: trailing comma\n"
    );
}

/// serde_json stops at 128 levels of nesting; its message alone left the strict-JSON help,
/// which does not apply.
#[test]
fn nesting_past_serde_jsons_limit_says_so() {
    let deep = format!(
        r#"{{"name": "deep", "inputSchema": {}{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let diagnostics = load_files(&[("deep.json", &deep)]).expect_err("too deep to read");
    let d = &diagnostics.0[0];
    assert_eq!(
        (d.code, d.message.as_str()),
        ("invalid-json", "not valid JSON: recursion limit exceeded")
    );
    assert!(
        d.help
            .as_deref()
            .unwrap()
            .starts_with("serde_json reads at most 128 nested"),
        "{d:?}"
    );
}

#[test]
fn missing_input_schema_points_at_the_file_start() {
    assert_eq!(
        errors("missing-input-schema"),
        "tests/fixtures/broken/missing-input-schema/get_weather.json:1:1: error[missing-input-schema]: `get_weather.json` has no `inputSchema` and no other file references it, so it is neither a tool nor a definitions file\n"
    );
}

#[test]
fn missing_input_schema_points_at_a_near_miss() {
    assert_eq!(
        errors("missing-input-schema-typo"),
        "tests/fixtures/broken/missing-input-schema-typo/get_weather.json:4:3: error[missing-input-schema]: `get_weather.json` has no `inputSchema` and no other file references it, so it is neither a tool nor a definitions file (at /input_schema)\n"
    );
}

#[test]
fn a_reference_leaving_an_embedded_resource_names_its_base() {
    assert_eq!(
        errors("ref-leaves-resource"),
        "tests/fixtures/broken/ref-leaves-resource/common.json:6:43: error[ref-leaves-resource]: `$ref` \"street.json\" is written inside a schema with its own `$id` (base `https://example.com/schemas/address.json`) and resolves to `https://example.com/schemas/street.json`, which this document does not hold (at /$defs/Address/properties/street/$ref)\n"
    );
}

#[test]
fn a_tool_schema_may_name_itself_at_its_root() {
    let tool = |input: &str| {
        let tool = format!(r#"{{"name":"t","inputSchema":{input}}}"#);
        let common = r#"{"$defs":{"City":{"type":"string"}}}"#;
        match input.contains("common.json") {
            true => load_files(&[("t.json", &tool), ("common.json", common)]),
            false => load_files(&[("t.json", &tool)]),
        }
    };
    // Its references, local and to other files, resolve as without it; the served schema
    // keeps the name, with the other file's definition bundled into its `$defs`.
    let set = tool(
        r##"{"$id":"https://example.com/t.json","type":"object","properties":{"city":{"$ref":"common.json#/$defs/City"},"again":{"$ref":"#/properties/city"}}}"##,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let input = set.tools[0].input_schema();
    assert_eq!(input["$id"], "https://example.com/t.json");
    let city = input["properties"]["city"]["$ref"].as_str().unwrap();
    let name = city.strip_prefix("#/$defs/").unwrap();
    assert_eq!(input["$defs"][name], serde_json::json!({"type": "string"}));
    // A fragment is refused, and so is a name that is not a string.
    let err = tool(r##"{"$id":"https://example.com/t.json#in","type":"object"}"##).unwrap_err();
    assert_eq!(
        err.one_line(),
        "t.json:1:34: error[invalid-id]: `$id` \"https://example.com/t.json#in\" has a fragment (at /inputSchema/$id)\n"
    );
    let err = tool(r#"{"$id":7,"type":"object"}"#).unwrap_err();
    assert_eq!(
        err.one_line(),
        "t.json:1:34: error[invalid-id]: `$id` must be a string, found 7 (at /inputSchema/$id)\n"
    );
}

/// A schema may embed others, each named by an `$id` below its root, as bundlers write them:
/// a reference resolves against the resource it is written in, and the served schema keeps
/// them as written, which the validator reads the same way.
#[test]
fn embedded_resources_resolve_as_the_validator_resolves_them() {
    let input = r##"{
        "type": "object",
        "properties": {
            "node": { "$ref": "node.json" },
            "label": { "$ref": "#/$defs/label" }
        },
        "$defs": {
            "label": { "type": "integer" },
            "node": {
                "$id": "node.json",
                "type": "object",
                "properties": { "label": { "$ref": "#/$defs/label" } },
                "$defs": { "label": { "type": "string" } }
            }
        }
    }"##;
    let tool = format!(r#"{{"name":"t","inputSchema":{input}}}"#);
    let set = load_files(&[("t.json", &tool)]).unwrap_or_else(|e| panic!("{e}"));
    let served = set.tools[0].input_schema();
    let written: serde_json::Value = serde_json::from_str(input).unwrap();
    assert_eq!(served, &written, "served as written");
    let validator = jsonschema::validator_for(served).unwrap();
    assert!(validator.is_valid(&serde_json::json!({ "node": { "label": "a" }, "label": 1 })));
    assert!(!validator.is_valid(&serde_json::json!({ "node": { "label": 1 } })));

    // Inside the resource, `#/$defs/nothing` reads the resource, which has no such place,
    // even where the document's root would.
    let dangling = tool
        .replace(
            r##""properties": { "label": { "$ref": "#/$defs/label" } }"##,
            r##""properties": { "label": { "$ref": "#/$defs/other" } }"##,
        )
        .replace(
            r#""label": { "type": "integer" },"#,
            r#""label": { "type": "integer" }, "other": {},"#,
        );
    let err = load_files(&[("t.json", &dangling)]).unwrap_err();
    assert!(
        err.one_line().contains(
            "error[dangling-ref]: `$ref` \"#/$defs/other\" names nothing: it resolves into the schema with its own `$id` at `/inputSchema/$defs/node` (`node.json#/$defs/other`), which has no `/$defs/other`"
        ),
        "{}",
        err.one_line()
    );

    // At the document's own scope, a place it lacks is named as in any document, without
    // the base URI a document without a root `$id` resolves against.
    for (reference, missing) in [
        ("#/$defs/nothing", "`/$defs/nothing`"),
        ("#nope", "`$anchor` or `$dynamicAnchor` \"nope\""),
    ] {
        let dangling = tool.replacen(
            r##""label": { "$ref": "#/$defs/label" }"##,
            &format!(r#""label": {{ "$ref": "{reference}" }}"#),
            1,
        );
        let err = load_files(&[("t.json", &dangling)]).unwrap_err();
        assert!(
            err.one_line().contains(&format!(
                "error[dangling-ref]: `$ref` \"{reference}\" names nothing: `t.json` has no {missing} (at /inputSchema/properties/label/$ref)"
            )),
            "{}",
            err.one_line()
        );
    }

    // Two resources of one name.
    let twice = tool.replace(
        r#""label": { "type": "integer" }"#,
        r#""label": { "$id": "node.json" }"#,
    );
    let err = load_files(&[("t.json", &twice)]).unwrap_err();
    assert!(
        err.one_line().contains("error[duplicate-id]: `$id` names `node.json`, as the `$id` at `/inputSchema/$defs/label` does"),
        "{}",
        err.one_line()
    );
}

/// A definitions file may embed resources too. Its copies in a served schema leave their
/// `$id`s behind, with every reference inside them rewritten to where it landed.
#[test]
fn copies_of_embedded_resources_are_read_from_the_served_root() {
    let common = r##"{
        "$defs": {
            "Pair": {
                "$id": "https://example.com/pair",
                "type": "object",
                "properties": { "left": { "$ref": "#/$defs/Side" } },
                "$defs": { "Side": { "type": "string" } }
            },
            "Side": { "type": "integer" }
        }
    }"##;
    let tool = r#"{"name":"t","inputSchema":{"type":"object","properties":{"pair":{"$ref":"common.json#/$defs/Pair"}}}}"#;
    let set =
        load_files(&[("t.json", tool), ("common.json", common)]).unwrap_or_else(|e| panic!("{e}"));
    let served = set.tools[0].input_schema();
    let pair = &served["$defs"]["Pair"];
    assert!(pair.get("$id").is_none(), "{served}");
    let left = pair["properties"]["left"]["$ref"].as_str().unwrap();
    let side = left.strip_prefix("#/").unwrap();
    assert_eq!(
        served.pointer(&format!("/{side}")),
        Some(&serde_json::json!({ "type": "string" })),
        "{served}"
    );
    let validator = jsonschema::validator_for(served).unwrap();
    assert!(validator.is_valid(&serde_json::json!({ "pair": { "left": "a" } })));
    assert!(!validator.is_valid(&serde_json::json!({ "pair": { "left": 1 } })));
}

/// A schema named by its `$id` is found in the folder by that name: references to it are
/// bundled like references by path, and nothing is fetched.
#[test]
fn references_by_id_resolve_to_the_schema_of_that_name_in_the_folder() {
    let common = r##"{"$id":"https://example.com/schemas/common.json","$defs":{"City":{"type":"string"},"Place":{"$ref":"#/$defs/City"}}}"##;
    let set = load_files(&[
        (
            "t.json",
            r##"{"name":"t","inputSchema":{"$id":"https://example.com/schemas/t.json","type":"object","properties":{
                "place":{"$ref":"https://example.com/schemas/common.json#/$defs/Place"},
                "whole":{"$ref":"https://example.com/schemas/common.json"},
                "again":{"$ref":"https://example.com/schemas/t.json#/properties/place"}}}}"##,
        ),
        ("common.json", common),
    ])
    .unwrap_or_else(|e| panic!("{e}"));
    let input = set.tools[0].input_schema();
    let properties = &input["properties"];
    assert_eq!(properties["place"]["$ref"], "#/$defs/Place");
    assert_eq!(
        input["$defs"]["Place"],
        serde_json::json!({"$ref": "#/$defs/City"})
    );
    assert_eq!(
        input["$defs"]["City"],
        serde_json::json!({"type": "string"})
    );
    // The whole file, without its name: inside `$defs` it would start a resource of its own.
    let whole = properties["whole"]["$ref"].as_str().unwrap();
    let copy = &input["$defs"][whole.strip_prefix("#/$defs/").unwrap()];
    assert!(copy.get("$id").is_none(), "{copy}");
    assert!(copy.get("$defs").is_some(), "{copy}");
    // A reference by the schema's own name is local.
    assert_eq!(properties["again"]["$ref"], "#/properties/place");
    assert_eq!(input["$id"], "https://example.com/schemas/t.json");

    // A name nothing in the folder has is a network reference, as before.
    let err = load_files(&[(
        "t.json",
        r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"$ref":"https://example.com/schemas/other.json"}}}}"#,
    )])
    .unwrap_err();
    assert!(err.one_line().contains("error[network-ref]"), "{err}");
    // Two schemas of one name.
    let err = load_files(&[
        (
            "t.json",
            r#"{"name":"t","inputSchema":{"$id":"https://example.com/schemas/common.json","type":"object"}}"#,
        ),
        ("common.json", common),
        (
            "u.json",
            r#"{"name":"u","inputSchema":{"type":"object","properties":{"a":{"$ref":"common.json#/$defs/City"}}}}"#,
        ),
    ])
    .unwrap_err();
    assert_eq!(
        err.one_line(),
        "t.json:1:34: error[duplicate-id]: `$id` \"https://example.com/schemas/common.json\" also names `common.json#` (at /inputSchema/$id)\n"
    );
}

/// zod writes references to a registry's schemas by bare name (`"$ref": "City"`) unless told
/// a `uri`; saved as `City.json`, the file is named in the help.
#[test]
fn a_reference_without_the_json_extension_is_told_the_file_that_has_it() {
    let err = load_files(&[
        ("City.json", r#"{"type":"string"}"#),
        (
            "t.json",
            r#"{"name":"t","inputSchema":{"type":"object","properties":{"c":{"$ref":"City"},"d":{"$ref":"Town"}}}}"#,
        ),
    ])
    .unwrap_err();
    let help: Vec<Option<&str>> = err
        .0
        .iter()
        .filter(|d| d.code == "dangling-ref")
        .map(|d| d.help.as_deref())
        .collect();
    assert_eq!(
        help,
        [
            Some("the folder has `City.json`: write the reference as \"City.json\""),
            None
        ]
    );
}

#[test]
fn invalid_id_points_at_the_value() {
    assert_eq!(
        errors("invalid-id"),
        "tests/fixtures/broken/invalid-id/get_weather.json:5:12: error[invalid-id]: `$id` \"https://example.com/schemas/get_weather.json#input\" has a fragment (at /inputSchema/$id)\n"
    );
}

#[test]
fn ref_cycle_through_the_schema_root() {
    assert_eq!(
        errors("ref-cycle-self"),
        "tests/fixtures/broken/ref-cycle-self/get_weather.json:6:25: error[ref-cycle]: `$ref` cycle that never passes through `properties`: get_weather.json#/inputSchema -> get_weather.json#/inputSchema (at /inputSchema/anyOf/0/$ref)\n"
    );
}

#[test]
fn ref_into_a_tool_outside_its_schemas() {
    let err = schemcp_contract::load_sources(
        std::path::Path::new(""),
        vec![
            ("a.json".into(), r#"{"inputSchema":{"type":"object"}}"#.into()),
            ("b.json".into(), r#"{"inputSchema":{"type":"object","properties":{"x":{"$ref":"a.json#/annotations"}}}}"#.into()),
        ],
    )
    .unwrap_err();
    assert_eq!(
        err.one_line(),
        "b.json:1:59: error[dangling-ref]: `$ref` \"a.json#/annotations\" names nothing: `a.json` has no `/annotations` (at /inputSchema/properties/x/$ref)\n"
    );
    let err = schemcp_contract::load_sources(
        std::path::Path::new(""),
        vec![
            ("a.json".into(), r#"{"inputSchema":{"type":"object"},"annotations":{}}"#.into()),
            ("b.json".into(), r#"{"inputSchema":{"type":"object","properties":{"x":{"$ref":"a.json#/annotations"}}}}"#.into()),
        ],
    )
    .unwrap_err();
    assert_eq!(
        err.one_line(),
        "b.json:1:59: error[dangling-ref]: `$ref` \"a.json#/annotations\" names `a.json#/annotations`, which is part of a tool, not a schema (at /inputSchema/properties/x/$ref)\n"
    );
}

#[test]
fn input_root_not_object_points_at_type() {
    assert_eq!(
        errors("input-root-not-object"),
        "tests/fixtures/broken/input-root-not-object/get_weather.json:5:13: error[input-root-not-object]: `inputSchema` must have `\"type\": \"object\"` at its root, found `\"string\"` (at /inputSchema/type)\n"
    );
}

#[test]
fn network_ref_is_refused() {
    assert_eq!(
        errors("network-ref"),
        "tests/fixtures/broken/network-ref/get_weather.json:7:28: error[network-ref]: `$ref` \"https://example.com/schemas/address.json\" points outside the schemas folder; references are never fetched (at /inputSchema/properties/address/$ref)\n"
    );
}

/// The 2020-12 metaschema is the one document outside the folder a `$ref` may name: every
/// validator has it built in. The reference stays as written in the served schema, also inside
/// a schema with its own `$id`; a fragment into it is refused like any network reference.
#[test]
fn the_metaschema_may_be_referenced_and_stays_as_written() {
    let set = load_files(&[(
        "t.json",
        r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"$ref":"https://json-schema.org/draft/2020-12/schema"},"b":{"$id":"https://example.com/b.json","properties":{"c":{"$ref":"https://json-schema.org/draft/2020-12/schema#"}}}}}}"#,
    )])
    .unwrap();
    let served = set.tools[0].input_schema();
    assert_eq!(
        served["properties"]["a"]["$ref"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(
        served["properties"]["b"]["properties"]["c"]["$ref"],
        "https://json-schema.org/draft/2020-12/schema#"
    );
    assert!(served.get("$defs").is_none(), "nothing copied: {served}");
    let err = load_files(&[(
        "t.json",
        r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"$ref":"https://json-schema.org/draft/2020-12/meta/core"}}}}"#,
    )])
    .unwrap_err();
    assert!(err.one_line().contains("error[network-ref]"), "{err}");
}

#[test]
fn dangling_ref_to_a_missing_file() {
    assert_eq!(
        errors("dangling-ref-file"),
        "tests/fixtures/broken/dangling-ref-file/get_weather.json:7:28: error[dangling-ref]: `$ref` \"comon.json#/$defs/Address\" names `comon.json`, which is not a JSON file in the schemas folder (at /inputSchema/properties/address/$ref)\n"
    );
}

#[test]
fn dangling_ref_to_a_missing_pointer() {
    assert_eq!(
        errors("dangling-ref-pointer"),
        "tests/fixtures/broken/dangling-ref-pointer/get_weather.json:7:28: error[dangling-ref]: `$ref` \"common.json#/$defs/Adress\" names nothing: `common.json` has no `/$defs/Adress` (at /inputSchema/properties/address/$ref)\n"
    );
}

#[test]
fn ref_cycle_without_properties_in_between() {
    assert_eq!(
        errors("ref-cycle"),
        "tests/fixtures/broken/ref-cycle/common.json:3:20: error[ref-cycle]: `$ref` cycle that never passes through `properties`: common.json#/$defs/B -> common.json#/$defs/A -> common.json#/$defs/B (at /$defs/A/$ref)\n"
    );
}

#[test]
fn duplicate_tool_name_names_both_files() {
    assert_eq!(
        errors("duplicate-tool-name"),
        "tests/fixtures/broken/duplicate-tool-name/b.json:2:11: error[duplicate-tool-name]: tool name \"get_weather\" is also used by `tests/fixtures/broken/duplicate-tool-name/a/get_weather.json` (at /name)\n"
    );
}

#[test]
fn invalid_tool_name_points_at_name() {
    assert_eq!(
        errors("invalid-tool-name"),
        "tests/fixtures/broken/invalid-tool-name/get_weather.json:2:11: error[invalid-tool-name]: tool name \"get weather!\" does not match ^[A-Za-z0-9_.-]{1,128}$ (at /name)\n"
    );
}

#[test]
fn unsupported_dialect_points_at_schema_keyword() {
    assert_eq!(
        errors("unsupported-dialect"),
        "tests/fixtures/broken/unsupported-dialect/get_weather.json:5:16: error[unsupported-dialect]: unsupported JSON Schema dialect \"http://json-schema.org/draft-07/schema#\" (at /inputSchema/$schema)\n"
    );
}

#[test]
fn ref_outside_root_is_refused() {
    assert_eq!(
        errors("ref-outside-root"),
        "tests/fixtures/broken/ref-outside-root/get_weather.json:7:28: error[ref-outside-root]: `$ref` \"../common.json#/$defs/Address\" leaves the schemas folder (at /inputSchema/properties/address/$ref)\n"
    );
}

#[test]
fn root_not_object() {
    assert_eq!(
        errors("root-not-object"),
        "tests/fixtures/broken/root-not-object/get_weather.json:1:1: error[root-not-object]: a contract file must hold one JSON object\n"
    );
}

#[test]
fn invalid_member_type() {
    assert_eq!(
        errors("invalid-member"),
        "tests/fixtures/broken/invalid-member/get_weather.json:3:18: error[invalid-member]: `description` must be a string (at /description)\n"
    );
}

#[test]
fn invalid_output_schema() {
    assert_eq!(
        errors("invalid-schema"),
        "tests/fixtures/broken/invalid-schema/get_weather.json:5:19: error[invalid-schema]: `outputSchema` must be a JSON Schema (an object or a boolean) (at /outputSchema)\n"
    );
}

#[test]
fn unknown_key_is_a_warning_pointing_at_the_key() {
    let set = load("tests/fixtures/broken/unknown-key").expect("warnings do not fail a load");
    let lines: Vec<String> = set.warnings.iter().map(|w| w.one_line()).collect();
    assert_eq!(
        lines,
        [
            "tests/fixtures/broken/unknown-key/get_weather.json:4:3: warning[unknown-key]: unknown Tool member `input` (at /input)"
        ]
    );
    assert_eq!(set.warnings[0].severity, Severity::Warning);
    // The unknown member is still served as written.
    assert_eq!(set.tools[0].tool["input"], "city");
}

#[test]
fn diagnostic_fields_match_the_one_line_form() {
    let err = load("tests/fixtures/broken/dangling-ref-pointer").unwrap_err();
    let d = &err.0[0];
    assert_eq!(d.code, "dangling-ref");
    assert_eq!(d.pointer, "/inputSchema/properties/address/$ref");
    assert_eq!((d.line, d.column), (Some(7), Some(28)));
    let span = d.span.clone().unwrap();
    assert_eq!(
        &d.source.as_deref().unwrap()[span],
        "\"common.json#/$defs/Adress\""
    );
    assert!(d.is_error());
}

#[test]
fn unreadable_folder() {
    let err = load("tests/fixtures/does-not-exist").unwrap_err();
    assert_eq!(err.0.len(), 1);
    assert_eq!(err.0[0].code, "unreadable");
}

/// A resource a document embeds is found from other files by its absolute name, like a root
/// named by its `$id`; the same schema embedded in several documents (as a bundler writes each
/// one self-contained) is one name, two different ones under one name are refused.
#[test]
fn embedded_resources_are_found_by_name_from_other_files() {
    let side = r#"{ "$id": "https://example.com/schemas/side", "type": "string" }"#;
    let common = format!(r#"{{ "$defs": {{ "Side": {side} }} }}"#);
    let tool = |name: &str, embedded: &str| {
        format!(
            r#"{{"name":"{name}","inputSchema":{{"type":"object","properties":{{"left":{{"$ref":"https://example.com/schemas/side"}}}},"$defs":{{"Side":{embedded}}}}}}}"#
        )
    };
    let uses = r#"{"name":"uses","inputSchema":{"type":"object","properties":{"side":{"$ref":"https://example.com/schemas/side"}}}}"#;
    let set = load_files(&[("uses.json", uses), ("common.json", &common)])
        .unwrap_or_else(|e| panic!("{e}"));
    let served = set.tool("uses").unwrap().input_schema();
    let reference = served["properties"]["side"]["$ref"].as_str().unwrap();
    let copied = served
        .pointer(reference.strip_prefix('#').unwrap())
        .unwrap();
    assert_eq!(copied, &serde_json::json!({ "type": "string" }), "{served}");
    let validator = jsonschema::validator_for(served).unwrap();
    assert!(validator.is_valid(&serde_json::json!({ "side": "l" })));
    assert!(!validator.is_valid(&serde_json::json!({ "side": 1 })));

    // Two tools that each embed the same schema.
    let set = load_files(&[("a.json", &tool("a", side)), ("b.json", &tool("b", side))])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(set.tools.len(), 2);

    let other = r#"{ "$id": "https://example.com/schemas/side", "type": "integer" }"#;
    let err = load_files(&[
        ("uses.json", uses),
        ("common.json", &common),
        ("a.json", &tool("a", other)),
    ])
    .unwrap_err();
    assert!(
        err.one_line()
            .contains("error[duplicate-id]: `$id` \"https://example.com/schemas/side\" also names"),
        "{}",
        err.one_line()
    );
}
