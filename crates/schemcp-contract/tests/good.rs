//! Loading and bundling a good contract set.

use std::path::{Path, PathBuf};

use schemcp_contract::{ContractSet, Origin, load, load_sources};
use serde_json::Value;

const WEATHER: &str = "tests/fixtures/good/weather";

fn weather() -> ContractSet {
    load(WEATHER).unwrap_or_else(|e| panic!("{e}"))
}

fn origin(file: &str, pointer: &str) -> Origin {
    Origin {
        file: Path::new(WEATHER).join(file),
        pointer: pointer.into(),
    }
}

#[test]
fn tools_are_sorted_by_name_and_definitions_files_are_not_tools() {
    let set = weather();
    let names: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["get_forecast", "get_weather", "places.list"]);
    assert_eq!(set.root, PathBuf::from(WEATHER));
    assert_eq!(
        set.tools[2].file,
        Path::new(WEATHER).join("places/list_places.json")
    );
}

#[test]
fn files_read_lists_definitions_files_too() {
    let set = weather();
    let expected: Vec<PathBuf> = [
        "common.json",
        "geo/point.json",
        "get_forecast.json",
        "get_weather.json",
        "places/list_places.json",
        "places/tree.json",
        "weather_data.json",
    ]
    .iter()
    .map(|f| Path::new(WEATHER).join(f))
    .collect();
    assert_eq!(set.files_read, expected);
}

#[test]
fn shared_address_is_bundled_into_both_tools_with_the_same_origin() {
    let set = weather();
    for name in ["get_weather", "get_forecast"] {
        let tool = set.tool(name).unwrap();
        assert_eq!(
            tool.input_schema()["properties"]["address"]["$ref"],
            "#/$defs/Address",
            "{name}"
        );
        assert_eq!(
            tool.origins["/inputSchema/$defs/Address"],
            origin("common.json", "/$defs/Address"),
            "{name}"
        );
        assert_eq!(
            tool.input_schema()["$defs"]["Address"]["required"],
            serde_json::json!(["city", "country"])
        );
    }
}

#[test]
fn nested_cross_file_refs_are_bundled_relative_to_their_own_file() {
    let set = weather();
    let tool = set.tool("get_weather").unwrap();
    let defs = &tool.input_schema()["$defs"];
    // common.json's `#/$defs/CountryCode` is common.json's, not the tool's.
    assert_eq!(
        defs["Address"]["properties"]["country"]["$ref"],
        "#/$defs/CountryCode"
    );
    assert_eq!(
        tool.origins["/inputSchema/$defs/CountryCode"],
        origin("common.json", "/$defs/CountryCode")
    );
    assert_eq!(
        defs["Address"]["properties"]["location"]["$ref"],
        "#/$defs/Point"
    );
    assert_eq!(
        tool.origins["/inputSchema/$defs/Point"],
        origin("geo/point.json", "/$defs/Point")
    );
    // `../` from a subfolder.
    let places = set.tool("places.list").unwrap();
    assert_eq!(
        places.origins["/outputSchema/$defs/Point"],
        origin("geo/point.json", "/$defs/Point")
    );
}

#[test]
fn whole_file_ref_is_named_after_the_title() {
    let set = weather();
    let tool = set.tool("get_weather").unwrap();
    let output = tool.output_schema().unwrap();
    assert_eq!(output["$ref"], "#/$defs/WeatherData");
    assert_eq!(output["$defs"]["WeatherData"]["title"], "Weather data");
    assert_eq!(
        tool.origins["/outputSchema/$defs/WeatherData"],
        origin("weather_data.json", "")
    );
}

#[test]
fn taken_names_get_a_deterministic_suffix() {
    let set = weather();
    let tool = set.tool("get_forecast").unwrap();
    let input = tool.input_schema();
    // The tool's own `Point` keeps its name and its local ref.
    assert_eq!(input["properties"]["near"]["$ref"], "#/$defs/Point");
    assert_eq!(input["$defs"]["Point"]["type"], "string");
    assert_eq!(
        input["$defs"]["Address"]["properties"]["location"]["$ref"],
        "#/$defs/Point2"
    );
    assert_eq!(
        tool.origins["/inputSchema/$defs/Point2"],
        origin("geo/point.json", "/$defs/Point")
    );
    assert!(!tool.origins.contains_key("/inputSchema/$defs/Point"));
}

#[test]
fn recursion_through_properties_is_one_definition() {
    let set = weather();
    let output = set.tool("places.list").unwrap().output_schema().unwrap();
    assert_eq!(output["$ref"], "#/$defs/Node");
    assert_eq!(
        output["$defs"]["Node"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Node"
    );
}

#[test]
fn local_refs_and_everything_else_stay_verbatim() {
    let set = weather();
    let tool = set.tool("get_weather").unwrap();
    let original: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(&tool.file).unwrap()).unwrap();
    let keys: Vec<&String> = tool.tool.keys().collect();
    assert_eq!(keys, original.keys().collect::<Vec<_>>());
    for key in ["name", "title", "description", "annotations", "_meta"] {
        assert_eq!(tool.tool[key], original[key], "{key}");
    }
    assert_eq!(
        tool.input_schema()["properties"]["unit"],
        original["inputSchema"]["properties"]["unit"]
    );
    let input_keys: Vec<&String> = tool.input_schema().as_object().unwrap().keys().collect();
    assert_eq!(
        input_keys,
        original["inputSchema"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        "bundling appends to the existing `$defs` in place"
    );
    // The anchor ref is local and stays.
    let places = set.tool("places.list").unwrap();
    assert_eq!(
        places.input_schema()["properties"]["depth"]["$ref"],
        "#depth"
    );
}

#[test]
fn name_from_the_stem_is_inserted_first() {
    let set = weather();
    let tool = set.tool("get_forecast").unwrap();
    assert_eq!(tool.tool.keys().next().unwrap(), "name");
    assert_eq!(tool.tool["name"], "get_forecast");
    assert_eq!(tool.locate("/name"), None);
    assert_eq!(tool.description(), Some("Daily forecast at an address."));
    assert_eq!(tool.title(), None);
}

#[test]
fn unknown_keys_warn_but_load() {
    let set = weather();
    let lines: Vec<String> = set.warnings.iter().map(|w| w.one_line()).collect();
    assert_eq!(
        lines,
        [
            "tests/fixtures/good/weather/places/list_places.json:15:3: warning[unknown-key]: unknown Tool member `x-owner` (at /x-owner)"
        ]
    );
}

#[test]
fn tool_locate_points_into_its_own_file_but_not_into_copies() {
    let set = weather();
    let tool = set.tool("get_weather").unwrap();
    let loc = tool.locate("/inputSchema/properties/address").unwrap();
    assert_eq!((loc.line, loc.column), (9, 18));
    let loc = tool.locate("/inputSchema/$defs/Unit").unwrap();
    assert_eq!((loc.line, loc.column), (15, 15));
    assert_eq!(tool.locate("/inputSchema/$defs/Address"), None);
    assert_eq!(tool.locate("/inputSchema/$defs/Address/type"), None);
}

#[test]
fn load_sources_matches_load() {
    let from_disk = weather();
    let files: Vec<(PathBuf, String)> = from_disk
        .files_read
        .iter()
        .rev()
        .map(|p| {
            (
                p.strip_prefix(WEATHER).unwrap().to_path_buf(),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect();
    let in_memory = load_sources(Path::new(WEATHER), files).unwrap();
    assert_eq!(in_memory.files_read, from_disk.files_read);
    assert_eq!(in_memory.tools.len(), from_disk.tools.len());
    for (a, b) in in_memory.tools.iter().zip(&from_disk.tools) {
        assert_eq!(a.tool, b.tool);
        assert_eq!(a.origins, b.origins);
    }
}

#[test]
fn every_bundled_schema_is_self_contained() {
    fn refs(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    out.push(r.clone());
                }
                map.values().for_each(|v| refs(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    for tool in weather().tools {
        for schema in [Some(tool.input_schema()), tool.output_schema()]
            .into_iter()
            .flatten()
        {
            let mut found = Vec::new();
            refs(schema, &mut found);
            for r in found {
                assert!(r.starts_with('#'), "{}: {r}", tool.name);
                if let Some(pointer) = r.strip_prefix('#').filter(|p| p.starts_with('/')) {
                    assert!(
                        schema.pointer(pointer).is_some(),
                        "{}: {r} dangles",
                        tool.name
                    );
                }
            }
        }
    }
}

fn sources(files: &[(&str, &str)]) -> ContractSet {
    let files = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    load_sources(Path::new("schemas"), files).unwrap_or_else(|e| panic!("{}", e.one_line()))
}

#[test]
fn whole_file_ref_without_title_is_named_after_the_stem() {
    let set = sources(&[
        (
            "t.json",
            r#"{"inputSchema":{"type":"object","properties":{"a":{"$ref":"street_address.json"}}}}"#,
        ),
        ("street_address.json", r#"{"type":"string"}"#),
    ]);
    let tool = &set.tools[0];
    assert_eq!(
        tool.input_schema()["properties"]["a"]["$ref"],
        "#/$defs/StreetAddress"
    );
    assert_eq!(
        tool.origins["/inputSchema/$defs/StreetAddress"],
        Origin {
            file: "schemas/street_address.json".into(),
            pointer: String::new()
        }
    );
}

#[test]
fn escaped_and_percent_encoded_names_round_trip() {
    let set = sources(&[
        (
            "t.json",
            r#"{"inputSchema":{"type":"object","properties":{
                "a":{"$ref":"d.json#/$defs/a~1b"},
                "b":{"$ref":"d.json#/$defs/with%20space"}}}}"#,
        ),
        (
            "d.json",
            r#"{"$defs":{"a/b":{"type":"string"},"with space":{"type":"integer"}}}"#,
        ),
    ]);
    let input = set.tools[0].input_schema();
    assert_eq!(input["properties"]["a"]["$ref"], "#/$defs/a~1b");
    assert_eq!(input["$defs"]["a/b"]["type"], "string");
    assert_eq!(input["properties"]["b"]["$ref"], "#/$defs/with%20space");
    assert_eq!(input["$defs"]["with space"]["type"], "integer");
    assert_eq!(
        set.tools[0].origins["/inputSchema/$defs/a~1b"].pointer,
        "/$defs/a~1b"
    );
}

#[test]
fn a_copy_referring_back_into_the_served_schema_uses_a_local_pointer() {
    let set = sources(&[
        (
            "t.json",
            r##"{"inputSchema":{"type":"object","properties":{"a":{"$ref":"d.json#/$defs/A"}},
                "$defs":{"Unit":{"enum":["c","f"]}}}}"##,
        ),
        (
            "d.json",
            r#"{"$defs":{"A":{"type":"object","properties":{"u":{"$ref":"t.json#/inputSchema/$defs/Unit"}}}}}"#,
        ),
    ]);
    let input = set.tools[0].input_schema();
    assert_eq!(
        input["$defs"]["A"]["properties"]["u"]["$ref"],
        "#/$defs/Unit"
    );
    assert_eq!(input["$defs"].as_object().unwrap().len(), 2);
}

#[test]
fn a_definitions_file_may_reference_another() {
    let set = sources(&[
        (
            "t.json",
            r#"{"inputSchema":{"type":"object","properties":{"a":{"$ref":"a.json"}}}}"#,
        ),
        (
            "a.json",
            r#"{"title":"A","type":"object","properties":{"b":{"$ref":"b.json"}}}"#,
        ),
        ("b.json", r#"{"type":"boolean"}"#),
    ]);
    let input = set.tools[0].input_schema();
    assert_eq!(input["$defs"]["A"]["properties"]["b"]["$ref"], "#/$defs/B");
    assert_eq!(input["$defs"]["B"]["type"], "boolean");
    assert_eq!(set.files_read.len(), 3);
}

#[test]
fn a_ref_into_a_copied_definition_points_into_the_copy() {
    // Either order: the member referred to first, or the definition holding it.
    for properties in [
        r#""home":{"$ref":"common.json#/$defs/Address"},
           "street":{"$ref":"common.json#/$defs/Address/properties/street"}"#,
        r#""street":{"$ref":"common.json#/$defs/Address/properties/street"},
           "home":{"$ref":"common.json#/$defs/Address"}"#,
    ] {
        let tool =
            format!(r#"{{"inputSchema":{{"type":"object","properties":{{{properties}}}}}}}"#);
        let set = sources(&[
            ("t.json", &tool),
            (
                "common.json",
                r#"{"$defs":{"Address":{"type":"object","properties":{
                    "street":{"type":"string","minLength":1}}}}}"#,
            ),
        ]);
        let input = set.tools[0].input_schema();
        assert_eq!(
            input["properties"]["street"]["$ref"],
            "#/$defs/Address/properties/street"
        );
        assert_eq!(input["properties"]["home"]["$ref"], "#/$defs/Address");
        let defs: Vec<&String> = input["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(defs, ["Address"]);
        let origins: Vec<&String> = set.tools[0].origins.keys().collect();
        assert_eq!(origins, ["/inputSchema/$defs/Address"]);
    }
}

#[test]
fn a_ref_into_a_definition_not_copied_whole_is_a_copy_of_its_own() {
    let set = sources(&[
        (
            "t.json",
            r#"{"inputSchema":{"type":"object","properties":{
                "street":{"$ref":"common.json#/$defs/Address/properties/street"}}}}"#,
        ),
        (
            "common.json",
            r#"{"$defs":{"Address":{"type":"object","properties":{"street":{"type":"string"}}}}}"#,
        ),
    ]);
    let input = set.tools[0].input_schema();
    assert_eq!(input["properties"]["street"]["$ref"], "#/$defs/street");
    assert_eq!(input["$defs"]["street"]["type"], "string");
}

#[test]
fn a_ref_into_a_definition_of_a_copy_points_into_that_definition() {
    // `A`'s own `$defs` are no part of its type: `B` stays a definition of the bundle, and a
    // reference into `B` points into it, not through `A`.
    let set = sources(&[
        (
            "t.json",
            r#"{"inputSchema":{"type":"object","properties":{
                "a":{"$ref":"d.json#/$defs/A"},
                "b":{"$ref":"d.json#/$defs/A/$defs/B"},
                "x":{"$ref":"d.json#/$defs/A/$defs/B/properties/x"}}}}"#,
        ),
        (
            "d.json",
            r#"{"$defs":{"A":{"type":"object","$defs":{"B":{"type":"object",
                "properties":{"x":{"type":"integer"}}}}}}}"#,
        ),
    ]);
    let input = set.tools[0].input_schema();
    assert_eq!(input["properties"]["b"]["$ref"], "#/$defs/B");
    assert_eq!(input["properties"]["x"]["$ref"], "#/$defs/B/properties/x");
    let defs: Vec<&String> = input["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(defs, ["A", "B"]);
}
