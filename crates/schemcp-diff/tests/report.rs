//! Tool-level rules, report invariants and the renderings of one mixed report.

use schemcp_diff::{Direction, Ignores, Report, Semver, Severity, diff_tools};
use serde_json::{Map, Value, json};

fn tools(v: Value) -> Vec<Map<String, Value>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_object().unwrap().clone())
        .collect()
}

fn old_set() -> Vec<Map<String, Value>> {
    tools(json!([
        {"name": "get_weather", "description": "Current weather.",
         "annotations": {"readOnlyHint": true},
         "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "units": {"enum": ["c", "f"]}}, "required": ["city"]},
         "outputSchema": {"type": "object", "properties": {"temperature": {"type": "integer"}, "conditions": {"type": "string"}},
                          "required": ["temperature", "conditions"]}},
        {"name": "list_cities", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {"type": "string"}}},
        {"name": "old_search", "description": "Search.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
        {"name": "ping", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}
    ]))
}

fn new_set() -> Vec<Map<String, Value>> {
    tools(json!([
        {"name": "get_weather", "description": "Current weather for a city.",
         "annotations": {"readOnlyHint": false},
         "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "minLength": 2}, "units": {"enum": ["c", "f", "k"]}},
                         "required": ["city", "units"], "additionalProperties": false},
         "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}, "conditions": {"type": "string"},
                          "humidity": {"type": "number"}}, "required": ["temperature", "conditions"]}},
        {"name": "list_cities", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {"type": "string", "minLength": 1}}},
        {"name": "search", "description": "Search.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
        {"name": "ping", "inputSchema": {"type": "object"}},
        {"name": "forecast", "inputSchema": {"type": "object"}}
    ]))
}

fn mixed() -> Report {
    diff_tools(&old_set(), &new_set())
}

#[test]
fn mixed_report_rules() {
    let r = mixed();
    let got: Vec<(&str, &str, Severity)> = r
        .changes
        .iter()
        .map(|c| (c.tool.as_str(), c.rule, c.severity))
        .collect();
    for want in [
        ("get_weather", "required-added", Severity::Breaking),
        (
            "get_weather",
            "additional-properties-removed",
            Severity::Breaking,
        ),
        ("get_weather", "min-length-added", Severity::Breaking),
        ("get_weather", "enum-extended", Severity::Info),
        ("get_weather", "type-widened", Severity::Breaking),
        (
            "get_weather",
            "property-added-to-open-content-model",
            Severity::Info,
        ),
        ("get_weather", "description-changed", Severity::Info),
        ("get_weather", "annotation-hint-changed", Severity::Warning),
        ("list_cities", "min-length-added", Severity::Info),
        ("old_search", "tool-removed", Severity::Breaking),
        ("search", "tool-added", Severity::Info),
        ("forecast", "tool-added", Severity::Info),
        ("ping", "output-schema-removed", Severity::Breaking),
    ] {
        assert!(got.contains(&want), "missing {want:?} in {got:#?}");
    }
    assert_eq!(got.len(), 13, "{got:#?}");
    let removed = r.changes.iter().find(|c| c.rule == "tool-removed").unwrap();
    assert!(removed.message.contains("renamed"), "{}", removed.message);
    assert_eq!(r.semver, Semver::Major);
    // Sorted: severity first.
    assert!(r.changes.windows(2).all(|w| w[0].severity <= w[1].severity));
    let widened = r.changes.iter().find(|c| c.rule == "type-widened").unwrap();
    assert_eq!(widened.direction, Some(Direction::Output));
    assert_eq!(
        widened.new_pointer.as_deref(),
        Some("/outputSchema/properties/temperature/type")
    );
}

#[test]
fn deterministic() {
    let a = schemcp_diff::render_json(&mixed());
    let b = schemcp_diff::render_json(&diff_tools(&old_set(), &new_set()));
    assert_eq!(a, b);
    // Fingerprints are pinned: they must not change between runs, platforms or releases.
    let r = mixed();
    let fp = &r
        .changes
        .iter()
        .find(|c| c.rule == "tool-removed")
        .unwrap()
        .fingerprint;
    assert_eq!(fp.len(), 16);
    let again = diff_tools(&old_set(), &new_set());
    assert_eq!(
        &again
            .changes
            .iter()
            .find(|c| c.rule == "tool-removed")
            .unwrap()
            .fingerprint,
        fp
    );
}

#[test]
fn semver_levels() {
    let t = |s: Value| tools(json!([{"name": "t", "inputSchema": s}]));
    assert_eq!(
        diff_tools(&t(json!({})), &t(json!({}))).semver,
        Semver::None
    );
    assert_eq!(
        diff_tools(
            &t(json!({"description": "a"})),
            &t(json!({"description": "b"}))
        )
        .semver,
        Semver::Patch
    );
    assert_eq!(
        diff_tools(
            &t(json!({"type": "integer"})),
            &t(json!({"type": "number"}))
        )
        .semver,
        Semver::Minor
    );
    assert_eq!(
        diff_tools(
            &t(json!({"type": "number"})),
            &t(json!({"type": "integer"}))
        )
        .semver,
        Semver::Major
    );
    let added = diff_tools(
        &t(json!({})),
        &tools(json!([{"name": "t", "inputSchema": {}}, {"name": "u", "inputSchema": {}}])),
    );
    assert_eq!(added.semver, Semver::Minor);
}

#[test]
fn tool_level_rules() {
    let base = json!({"name": "t", "title": "T", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        tools(json!([b]))
    };
    let rules =
        |o: Vec<Map<String, Value>>, n: Vec<Map<String, Value>>| -> Vec<(&'static str, Severity)> {
            diff_tools(&o, &n)
                .changes
                .iter()
                .map(|c| (c.rule, c.severity))
                .collect()
        };
    let b = tools(json!([base.clone()]));
    assert_eq!(
        rules(b.clone(), with("title", json!("U"))),
        [("title-changed", Severity::Info)]
    );
    assert_eq!(
        rules(
            b.clone(),
            with("annotations", json!({"destructiveHint": true}))
        ),
        [("annotation-hint-changed", Severity::Warning)]
    );
    assert_eq!(
        rules(b.clone(), with("annotations", json!({"title": "x"}))),
        [("annotation-changed", Severity::Info)]
    );
    let mut no_out = base.clone();
    no_out.as_object_mut().unwrap().remove("outputSchema");
    assert_eq!(
        rules(tools(json!([no_out.clone()])), b.clone()),
        [("output-schema-added", Severity::Info)]
    );
    assert_eq!(
        rules(b.clone(), tools(json!([no_out]))),
        [("output-schema-removed", Severity::Breaking)]
    );
    assert_eq!(
        rules(b.clone(), vec![]),
        [("tool-removed", Severity::Breaking)]
    );
}

/// typify's `x-rust-type` names the Rust type the server's generated code uses: validators
/// ignore it, so it is information, not an unclassified change to review by hand.
#[test]
fn a_rust_type_change_is_information() {
    let day = |extension: Option<Value>| {
        let mut d = json!({"type": "string", "format": "date"});
        if let Some(extension) = extension {
            d["x-rust-type"] = extension;
        }
        tools(json!([{"name": "t", "inputSchema": {"type": "object", "properties": {"d": d}}}]))
    };
    let naive = json!({"crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate"});
    for (old, new) in [(None, Some(naive.clone())), (Some(naive), None)] {
        let report = diff_tools(&day(old), &day(new));
        let changes: Vec<_> = report
            .changes
            .iter()
            .map(|c| (c.rule, c.severity))
            .collect();
        assert_eq!(changes, [("rust-type-changed", Severity::Info)]);
    }
    // Other extensions are still left for a person to judge.
    let other = diff_tools(&day(None), &{
        let mut t = day(None);
        t[0]["inputSchema"]["properties"]["d"]["x-internal"] = json!(true);
        t
    });
    assert_eq!(other.changes[0].rule, "unclassified");
}

#[test]
fn ignores_and_exit_codes() {
    let mut r = mixed();
    assert_eq!(r.exit_code(Severity::Breaking), 1);
    let list: Vec<Value> = r
        .changes
        .iter()
        .filter(|c| c.severity == Severity::Breaking)
        .map(|c| json!({"fingerprint": c.fingerprint, "reason": "accepted in review"}))
        .collect();
    let ig = Ignores::parse(&Value::Array(list).to_string()).unwrap();
    r.apply_ignores(&ig);
    assert_eq!(r.exit_code(Severity::Breaking), 0);
    assert_eq!(r.exit_code(Severity::Warning), 1);
    assert_eq!(r.counts().0, 0);
    assert!(Ignores::parse(r#"[{"fingerprint": "00", "reason": ""}]"#).is_err());
    assert!(Ignores::parse(r#"[{"reason": "x"}]"#).is_err());
    assert!(Ignores::parse("not json").is_err());
}

#[test]
fn json_rendering_matches_its_schema() {
    // The shape is authored once, as the schemcp command's own contract for `diff_contracts`.
    let mut schema: Value =
        serde_json::from_str(include_str!("../../../schemas/diff_report.json")).unwrap();
    schema["$ref"] = json!("#/$defs/DiffReport");
    let v = jsonschema::validator_for(&schema).unwrap();
    let mut r = mixed();
    let fp = r.changes[0].fingerprint.clone();
    r.apply_ignores(
        &Ignores::parse(&format!(r#"[{{"fingerprint":"{fp}","reason":"ok"}}]"#)).unwrap(),
    );
    let out: Value = serde_json::from_str(&schemcp_diff::render_json(&r)).unwrap();
    let errors: Vec<String> = v
        .iter_errors(&out)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The schema is strict enough to catch a drifted shape.
    let mut bad = out.clone();
    bad["changes"][0]["severity"] = json!("fatal");
    assert!(!v.is_valid(&bad));
}

#[test]
fn golden_renderings() {
    let r = mixed();
    expectorate::assert_contents("tests/golden/mixed.md", &schemcp_diff::render_markdown(&r));
    expectorate::assert_contents(
        "tests/golden/mixed.txt",
        &schemcp_diff::render_text(&r, false),
    );
    let gh = schemcp_diff::render_github(&r, |tool, _| Some((format!("schemas/{tool}.json"), 1)));
    expectorate::assert_contents("tests/golden/mixed.github.txt", &gh);
    expectorate::assert_contents(
        "tests/golden/mixed.junit.xml",
        &schemcp_diff::render_junit(&r),
    );
}

/// A wide, deep schema: every nested change is found, each with a counterexample.
#[test]
fn deep_wide_schema() {
    fn level(d: usize, leaf: &Value) -> Value {
        let mut props = Map::new();
        for i in 0..10 {
            props.insert(
                format!("p{i}"),
                if d == 0 {
                    json!({"type": "string"})
                } else {
                    level(d - 1, leaf)
                },
            );
        }
        props.insert("leaf".into(), leaf.clone());
        props.insert(
            "list".into(),
            json!({"type": "array", "items": {"type": "integer"}}),
        );
        json!({"type": "object", "properties": props, "required": ["p0", "leaf"]})
    }
    let old = level(1, &json!({"type": "integer"}));
    let new = level(1, &json!({"type": "integer", "maximum": 10}));
    let t = |s: &Value| tools(json!([{"name": "t", "inputSchema": s}]));
    let r = diff_tools(&t(&old), &t(&new));
    assert!(r.changes.iter().all(|c| c.rule == "maximum-added"
        && c.severity == Severity::Breaking
        && c.counterexample.is_some()));
    // One change per `leaf`: 1 + 10 of them.
    assert_eq!(r.changes.len(), 11);
}

/// Inside a schema with its own `$id`, `#/$defs/label` reads that schema's `$defs`, not the
/// document's: the change is found where the validator would look.
#[test]
fn references_resolve_in_the_resource_they_are_written_in() {
    let input = |label: Value| {
        json!({
            "type": "object",
            "properties": { "node": { "$ref": "node.json" } },
            "$defs": {
                "label": { "type": "string" },
                "node": {
                    "$id": "node.json",
                    "type": "object",
                    "properties": { "label": { "$ref": "#/$defs/label" } },
                    "$defs": { "label": label }
                }
            }
        })
    };
    let set = |label: Value| tools(json!([{ "name": "t", "inputSchema": input(label) }]));
    let report = diff_tools(
        &set(json!({ "type": "integer" })),
        &set(json!({ "type": "integer", "maximum": 9 })),
    );
    let rules: Vec<(&str, &str)> = report
        .changes
        .iter()
        .map(|c| (c.rule, c.new_pointer.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        rules,
        [(
            "maximum-added",
            "/inputSchema/$defs/node/$defs/label/maximum"
        )],
        "{report:#?}"
    );
    assert_eq!(report.changes[0].severity, Severity::Breaking);
}

/// A reference by the schema's own `$id` is followed like the local one it amounts to.
#[test]
fn references_by_the_schemas_own_name_are_followed() {
    let set = |bar: Value| {
        tools(json!([{ "name": "t", "inputSchema": {
            "$id": "urn:example:t",
            "type": "object",
            "properties": { "bar": { "$ref": "urn:example:t#/$defs/bar" } },
            "$defs": { "bar": bar }
        } }]))
    };
    let report = diff_tools(
        &set(json!({ "type": "string" })),
        &set(json!({ "type": "string", "maxLength": 3 })),
    );
    let rules: Vec<&str> = report.changes.iter().map(|c| c.rule).collect();
    assert!(rules.contains(&"max-length-added"), "{report:#?}");
}
