//! `examples` (and `default`s, which generated types fill in) are checked at build time against
//! their schema: a failing example is a build error naming the file and the pointer, a failing
//! default a warning (the type then ignores it).

use std::path::PathBuf;

use schemcp_build::{Builder, Error};

/// Writes `tool` as `get_weather.json` into a fresh folder and generates from it, as `build.rs`
/// would; diagnostics come back one per line, with the folder shown as `schemas`.
fn check(tool: &str) -> Result<(), String> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("schemcp-examples-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("get_weather.json"), tool).unwrap();
    let result = match Builder::new().schemas_dir(&dir).generate() {
        Ok(_) => Ok(()),
        Err(Error::Schemas(d)) => Err(d.one_line().replace(&dir.display().to_string(), "schemas")),
        Err(other) => Err(other.to_string()),
    };
    std::fs::remove_dir_all(&dir).unwrap();
    result
}

#[test]
fn valid_examples_pass() {
    check(
        r##"{
  "inputSchema": {
    "type": "object",
    "properties": { "city": { "type": "string", "minLength": 2, "examples": ["London"] } },
    "required": ["city"],
    "examples": [{ "city": "Paris" }]
  },
  "outputSchema": {
    "type": "object",
    "properties": { "days": { "$ref": "#/$defs/Days", "examples": [3] } },
    "$defs": { "Days": { "type": "integer", "minimum": 1, "default": 1, "examples": [7] } }
  }
}"##,
    )
    .unwrap();
}

#[test]
fn a_lying_example_is_a_build_error_naming_file_line_and_pointer() {
    let error = check(
        r##"{
  "inputSchema": {
    "type": "object",
    "properties": { "city": { "type": "string", "minLength": 2, "examples": ["London", "X"] } },
    "required": ["city"]
  }
}"##,
    )
    .unwrap_err();
    assert_eq!(
        error,
        "schemas/get_weather.json:4:88: error[invalid-example]: example 1 does not validate against its schema: \"X\" is shorter than 2 characters (at /inputSchema/properties/city/examples/1)\n"
    );
}

#[test]
fn examples_are_checked_through_references_and_in_definitions() {
    let error = check(
        r##"{
  "inputSchema": {
    "type": "object",
    "properties": { "when": { "$ref": "#/$defs/Day", "examples": [{ "day": 0 }] } },
    "$defs": { "Day": { "type": "object", "properties": { "day": { "type": "integer", "minimum": 1 } }, "examples": [{ "day": 2 }, { "day": "x" }] } }
  }
}"##,
    )
    .unwrap_err();
    let lines: Vec<&str> = error.lines().collect();
    assert_eq!(lines.len(), 2, "{error}");
    assert!(
        lines[0].contains("(at /inputSchema/properties/when/examples/0)")
            && lines[0].contains("at `/day`: 0 is less than the minimum of 1"),
        "{error}"
    );
    assert!(
        lines[1].contains("(at /inputSchema/$defs/Day/examples/1)")
            && lines[1].contains("example 1 does not validate"),
        "{error}"
    );
}

/// Generates from `tool` as [`check`] does, but returns the code, the catalog and the warnings.
fn generate(tool: &str) -> (String, String, String) {
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "schemcp-examples-{}-{}",
        std::process::id(),
        tool.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("get_weather.json"), tool).unwrap();
    let generated = Builder::new().schemas_dir(&dir).generate().unwrap();
    let warnings: String = generated
        .warnings
        .iter()
        .map(|w| w.one_line().replace(&dir.display().to_string(), "schemas"))
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    (
        generated.files[0].1.clone(),
        generated.files[1].1.clone(),
        warnings,
    )
}

/// `default` is an annotation (the JSON-Schema-Test-Suite checks that an invalid one is
/// ignored), so it is a warning; but the generated type must never fill the invalid value in.
#[test]
fn a_default_that_does_not_validate_is_a_warning_and_is_never_filled_in() {
    let tool = |default: u32| {
        format!(
            r##"{{
  "inputSchema": {{
    "type": "object",
    "properties": {{ "days": {{ "type": "integer", "maximum": 3, "default": {default} }} }}
  }}
}}"##
        )
    };
    let (code, catalog, warnings) = generate(&tool(5));
    assert_eq!(
        warnings,
        "schemas/get_weather.json:4:64: warning[invalid-default]: the default does not validate against its schema: 5 is greater than the maximum of 3; the generated type does not fill it in (at /inputSchema/properties/days/default)"
    );
    assert!(
        code.contains("pub days: ::std::option::Option<i64>"),
        "{code}"
    );
    assert!(!code.contains("serde(default = "), "{code}");
    // The catalog still serves the schema as written.
    assert!(catalog.contains(r#""default": 5"#), "{catalog}");
    // A default that validates is filled in.
    let (valid, _, warnings) = generate(&tool(2));
    assert_eq!(warnings, "");
    assert!(valid.contains("serde(default = "), "{valid}");
}

/// An `enum` value or a `const` that fails the rest of its schema can never be part of a valid
/// value. typify wrote `-1` into a `u64` check (code that did not compile) and refused `3.5` as
/// an integer; both are warnings now, and the types are made without them.
#[test]
fn enum_values_no_instance_can_be_are_warnings_and_left_out() {
    let (code, catalog, warnings) = generate(
        r##"{
  "inputSchema": {
    "type": "object",
    "properties": {
      "count": { "type": "integer", "minimum": 0, "enum": [-1, 2, 4] },
      "level": { "type": "integer", "enum": [1, 3.5] },
      "label": { "anyOf": [{ "type": "string", "maxLength": 2, "const": "long" }, { "type": "null" }] }
    }
  }
}"##,
    );
    assert_eq!(
        warnings,
        "schemas/get_weather.json:5:60: warning[unreachable-value]: `enum` value -1 can never be valid here (-1 is less than the minimum of 0); the generated type leaves it out (at /inputSchema/properties/count/enum/0)\
         schemas/get_weather.json:6:49: warning[unreachable-value]: `enum` value 3.5 can never be valid here (3.5 is not of type \"integer\"); the generated type leaves it out (at /inputSchema/properties/level/enum/1)\
         schemas/get_weather.json:7:64: warning[unreachable-value]: the `const` \"long\" can never be valid here (\"long\" is longer than 2 characters); the generated type leaves it out (at /inputSchema/properties/label/anyOf/0/const)"
    );
    // Only the values a valid argument can hold are in the types; the branch no value matches
    // is gone, so `label` is `null` when present.
    assert!(code.contains("[2_u64, 4_u64]"), "{code}");
    assert!(
        code.contains("pub label: ::std::option::Option<()>"),
        "{code}"
    );
    assert!(!code.contains("-1_"), "{code}");
    assert!(!code.contains("3.5"), "{code}");
    assert!(!code.contains("\"long\""), "{code}");
    // The catalog still serves the schema as written.
    assert!(catalog.contains("-1,"), "{catalog}");
    assert!(catalog.contains(r#""const": "long""#), "{catalog}");
}

/// Writes the generated code for `tests/fixtures/examples` into `tests/golden/examples`, which
/// `tests/examples_round_trip.rs` compiles and runs; the generated `#[test]` is turned into a
/// plain function there so the lossy example's failure can be asserted.
#[test]
fn examples_golden() {
    let generated = Builder::new()
        .schemas_dir(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/examples"
        ))
        .generate()
        .unwrap();
    let (_, code) = &generated.files[0];
    let (_, catalog) = &generated.files[1];
    assert!(
        code.contains("fn examples_round_trip_through_the_generated_types()"),
        "{code}"
    );
    let callable = code.replace("    #[test]\n", "    #[allow(dead_code)]\n");
    assert_ne!(&callable, code);
    expectorate::assert_contents("tests/golden/examples/schemcp_tools.rs", &callable);
    expectorate::assert_contents("tests/golden/examples/tools.json", catalog);
}

/// An example the schema allows but the generated type would change is a build error at the
/// member that changes: here a member the struct has no field for, and a default the type fills
/// in. (What the build cannot follow, such as an untagged enum, is left to the generated test:
/// `tests/examples_round_trip.rs`.)
#[test]
fn an_example_the_type_would_change_is_a_build_error_at_the_member() {
    let error = check(
        r##"{
  "inputSchema": {
    "type": "object",
    "properties": { "city": { "type": "string" } },
    "required": ["city"],
    "examples": [{ "city": "London" }, { "city": "Paris", "country": "FR" }]
  },
  "outputSchema": {
    "type": "object",
    "properties": { "days": { "type": "integer", "default": 1 }, "temperature": { "type": "number" } },
    "required": ["temperature"],
    "examples": [{ "days": 2.0, "temperature": 3 }, { "temperature": 16.5 }]
  }
}"##,
    )
    .unwrap_err();
    assert_eq!(
        error,
        "schemas/get_weather.json:6:59: error[lossy-example]: the example does not round-trip through the generated type: `country` is dropped: the generated struct `GetWeatherInput` has no field for it (at /inputSchema/examples/1/country)\n\
         schemas/get_weather.json:12:20: error[lossy-example]: the example does not round-trip through the generated type: `2.0` is written as a fraction, which the type's `i64` does not read; write it as `2` (at /outputSchema/examples/0/days)\n\
         schemas/get_weather.json:12:53: error[lossy-example]: the example does not round-trip through the generated type: `days` is absent, and the type fills in its default (at /outputSchema/examples/1)\n"
    );
}

/// Examples below the root are followed too, through the type of the member, item or map value
/// they describe.
#[test]
fn nested_examples_round_trip_through_the_type_of_their_member() {
    let tool = |trip_examples: &str| {
        format!(
            r##"{{
  "inputSchema": {{
    "type": "object",
    "properties": {{
      "trips": {{
        "type": "array",
        "items": {{
          "type": "object",
          "properties": {{ "city": {{ "type": "string" }}, "days": {{ "type": "integer" }} }},
          "required": ["city"],
          "examples": {trip_examples}
        }}
      }}
    }}
  }}
}}"##
        )
    };
    check(&tool(
        r#"[{ "city": "Oslo" }, { "city": "Rome", "days": 3 }]"#,
    ))
    .unwrap();
    assert_eq!(
        check(&tool(r#"[{ "city": "Oslo", "country": "NO" }]"#)).unwrap_err(),
        "schemas/get_weather.json:11:42: error[lossy-example]: the example does not round-trip through the generated type: `country` is dropped: the generated struct `GetWeatherInputTripsItem` has no field for it (at /inputSchema/properties/trips/items/examples/0/country)\n"
    );
}

/// Examples in `$defs` round-trip through the definition's type; one in a definitions file that
/// several tools share is reported once, in that file.
#[test]
fn definition_examples_round_trip_through_the_definition_type() {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("schemcp-def-examples-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tool = |name: &str| {
        format!(
            r##"{{
  "name": "{name}",
  "inputSchema": {{
    "type": "object",
    "properties": {{ "at": {{ "$ref": "common.json#/$defs/Address" }} }},
    "required": ["at"]
  }}
}}"##
        )
    };
    std::fs::write(dir.join("get_home.json"), tool("get_home")).unwrap();
    std::fs::write(dir.join("set_work.json"), tool("set_work")).unwrap();
    let common = |examples: &str| {
        format!(
            r##"{{
  "$defs": {{
    "Address": {{
      "type": "object",
      "properties": {{ "city": {{ "type": "string" }} }},
      "required": ["city"],
      "examples": {examples}
    }}
  }}
}}"##
        )
    };
    let generate = || match Builder::new().schemas_dir(&dir).generate() {
        Ok(generated) => Ok(generated.files[0].1.clone()),
        Err(Error::Schemas(d)) => Err(d.one_line().replace(&dir.display().to_string(), "schemas")),
        Err(other) => Err(other.to_string()),
    };
    std::fs::write(dir.join("common.json"), common(r#"[{ "city": "Oslo" }]"#)).unwrap();
    let code = generate().unwrap();
    assert!(code.contains("let typed: Address ="), "{code}");
    std::fs::write(
        dir.join("common.json"),
        common(r#"[{ "city": "Oslo", "zip": "0150" }]"#),
    )
    .unwrap();
    let error = generate().unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        error,
        "schemas/common.json:7:38: error[lossy-example]: the example does not round-trip through the generated type: `zip` is dropped: the generated struct `Address` has no field for it (at /$defs/Address/examples/0/zip)\n"
    );
}

/// An example of a schema with no type of its own (an `anyOf` branch, a `then`) round-trips
/// through the type of the schema it applies in place of, when it is valid there too; one that
/// is not (a `not`) is only validated.
#[test]
fn branch_examples_round_trip_through_the_type_they_apply_in_place_of() {
    let tool = |branch_example: &str| {
        format!(
            r##"{{
  "inputSchema": {{
    "type": "object",
    "properties": {{ "city": {{ "type": "string" }}, "days": {{ "type": "integer" }} }},
    "anyOf": [{{ "required": ["city"], "examples": [{branch_example}] }}, {{ "required": ["days"] }}],
    "if": {{ "required": ["days"] }},
    "then": {{ "properties": {{ "days": {{ "minimum": 1 }} }}, "examples": [{{ "days": 2 }}] }},
    "not": {{ "required": ["nowhere"], "examples": [{{ "nowhere": 1 }}] }}
  }}
}}"##
        )
    };
    check(&tool(r#"{ "city": "Oslo" }"#)).unwrap();
    assert_eq!(
        check(&tool(r#"{ "city": "Oslo", "country": "NO" }"#)).unwrap_err(),
        "schemas/get_weather.json:5:70: error[lossy-example]: the example does not round-trip through the generated type: `country` is dropped: the generated struct `GetWeatherInput` has no field for it (at /inputSchema/anyOf/0/examples/0/country)\n"
    );
    // Valid for its branch, not for the whole schema (`not` rejects it): validated only, as
    // there is no type for the branch alone.
    check(&tool(
        r#"{ "city": "Oslo", "country": "NO", "nowhere": 1 }"#,
    ))
    .unwrap();
}

/// A member that references the 2020-12 metaschema is validated against it at build time
/// too, offline: an example that is no schema is a build error.
#[test]
fn an_example_that_is_no_schema_fails_against_the_metaschema() {
    let tool = |example: &str| {
        format!(
            r##"{{
  "inputSchema": {{
    "type": "object",
    "properties": {{ "schema": {{ "$ref": "https://json-schema.org/draft/2020-12/schema" }} }},
    "examples": [{{ "schema": {example} }}]
  }}
}}"##
        )
    };
    check(&tool(r#"{ "type": "string", "minLength": 1 }"#)).unwrap();
    let error = check(&tool(r#"{ "type": 12 }"#)).unwrap_err();
    assert_eq!(
        error,
        "schemas/get_weather.json:5:18: error[invalid-example]: example 0 does not validate \
         against its schema at `/schema/type`: 12 is not valid under any of the schemas listed in \
         the 'anyOf' keyword (at /inputSchema/examples/0)\n"
    );
    // Only the whole metaschema is known: its definitions are parts of its dynamic scope.
    let error = check(
        r##"{
  "inputSchema": {
    "type": "object",
    "properties": { "s": { "$ref": "https://json-schema.org/draft/2020-12/schema#/$defs/x" } }
  }
}"##,
    )
    .unwrap_err();
    assert!(error.contains("error[network-ref]"), "{error}");
}

/// Writes the generated code for `tests/fixtures/degraded` (with `fallback_to_value`) into
/// `tests/golden/degraded`, which `tests/degraded_round_trip.rs` compiles and runs: only the
/// parts typify fails on are `serde_json::Value`, each named by a warning.
#[test]
fn degraded_golden() {
    let generated = Builder::new()
        .schemas_dir(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/degraded"
        ))
        .fallback_to_value(true)
        // Its `x-rust-type`s name chrono's types with a type parameter typify fails on.
        .extern_crate("chrono", "*")
        .generate()
        .unwrap();
    let warnings: Vec<String> = generated
        .warnings
        .iter()
        .map(|w| format!("{} {}", w.pointer, w.code))
        .collect();
    assert_eq!(
        warnings,
        [
            "/inputSchema/properties/at fallback-to-value",
            "/outputSchema/properties/stamps/items fallback-to-value",
        ],
    );
    expectorate::assert_contents(
        "tests/golden/degraded/schemcp_tools.rs",
        &generated.files[0].1,
    );
    expectorate::assert_contents("tests/golden/degraded/tools.json", &generated.files[1].1);
}

/// Writes the generated code for `tests/fixtures/extern_types` into `tests/golden/extern_types`,
/// which `tests/extern_types_round_trip.rs` compiles and runs: `x-rust-type` names chrono's and
/// uuid's own types where those crates are registered at a version its requirement accepts,
/// and each one that is not used is a warning at its pointer.
#[test]
fn extern_types_golden() {
    let generated = Builder::new()
        .schemas_dir(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/extern_types"
        ))
        .extern_crate("chrono", "0.4.45")
        .extern_crate("uuid", "*")
        .generate()
        .unwrap();
    let warnings: Vec<String> = generated
        .warnings
        .iter()
        .map(|w| format!("{} {} {}", w.pointer, w.code, w.message))
        .collect();
    assert_eq!(
        warnings,
        [
            "/inputSchema/properties/until/x-rust-type/version rust-type-ignored \
             `chrono::NaiveTime` is not used: `chrono` is registered at 0.4.45, which `^0.5` does \
             not accept, so the type is generated from the schema",
            "/outputSchema/properties/floor/x-rust-type rust-type-ignored `floors::Floor` is not \
             used: the crate `floors` is not registered, so the type is generated from the schema",
        ],
    );
    expectorate::assert_contents(
        "tests/golden/extern_types/schemcp_tools.rs",
        &generated.files[0].1,
    );
    expectorate::assert_contents(
        "tests/golden/extern_types/tools.json",
        &generated.files[1].1,
    );
}
