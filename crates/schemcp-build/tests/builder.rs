//! The generator through its public API and the real contract loader: golden output, shared
//! definitions across files, diagnostics that point into files, and the mirror.

use std::path::{Path, PathBuf};

use schemcp_build::{Builder, Error};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("schemcp-build")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rust(dir: &Path) -> String {
    let generated = Builder::new().schemas_dir(dir).generate().unwrap();
    assert_eq!(generated.files[0].0, "schemcp_tools.rs");
    generated.files[0].1.clone()
}

fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn loader_output_matches_the_golden_files() {
    let generated = Builder::new()
        .schemas_dir(fixture("weather"))
        .generate()
        .unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
    let names: Vec<&str> = generated.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["schemcp_tools.rs", "tools.json"]);
    for (name, content) in &generated.files {
        expectorate::assert_contents(format!("tests/golden/weather/{name}"), content);
    }
}

#[test]
fn generation_is_deterministic() {
    let first = Builder::new()
        .schemas_dir(fixture("weather"))
        .generate()
        .unwrap();
    let second = Builder::new()
        .schemas_dir(fixture("weather"))
        .generate()
        .unwrap();
    assert_eq!(first.files, second.files);
    let one_line =
        |g: &schemcp_build::Generated| g.warnings.iter().map(|w| w.one_line()).collect::<Vec<_>>();
    assert_eq!(one_line(&first), one_line(&second));
    assert!(
        !first.files[0].1.contains(env!("CARGO_MANIFEST_DIR")),
        "no absolute paths"
    );
}

#[test]
fn a_definition_shared_across_files_is_one_type() {
    let code = rust(&fixture("shared"));
    assert_eq!(code.matches("pub struct Address {").count(), 1, "{code}");
    let code = squash(&code);
    assert!(code.contains("pubaddress:Address,"), "{code}");
    assert!(code.contains("///Apostaladdress."), "{code}");
}

/// A compound document, as bundlers write one: a schema embedded under `$defs` with its own
/// `$id`, referenced by it, and inside it `#/$defs/coords` reads its own `$defs`, not the
/// document's (which has a `coords` of another kind). The types follow each reference where
/// the validator does, and the schema is served as written.
#[test]
fn embedded_resources_generate_where_their_references_land() {
    let dir = fixture("embedded_resources");
    let generated = Builder::new().schemas_dir(&dir).generate().unwrap();
    let renamed: Vec<String> = generated.warnings.iter().map(|w| w.one_line()).collect();
    assert_eq!(renamed.len(), 2, "{renamed:?}");
    assert!(
        renamed.iter().all(|w| w.contains("[type-renamed]")),
        "{renamed:?}"
    );
    let code = squash(&generated.files[0].1);
    assert!(code.contains("pubfrom:Place,pubto:Place,"), "{code}");
    assert!(
        code.contains("pubstructPlace{pubname:::std::string::String,")
            && code.contains("pubcoords:::std::option::Option<PlanRouteInputCoords>,"),
        "{code}"
    );
    assert!(
        code.contains("pubstructPlanRouteInputCoords{publat:f64,publon:f64,}"),
        "{code}"
    );
    assert!(
        code.contains("pubnote:::std::option::Option<PlanRouteCoords>,")
            && code.contains("pubstructPlanRouteCoords(pub::std::string::String);"),
        "{code}"
    );
    let catalog: serde_json::Value = serde_json::from_str(&generated.files[1].1).unwrap();
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("plan_route.json")).unwrap())
            .unwrap();
    let served = &catalog["tools"][0]["inputSchema"];
    // As written, but for the references by name at the root, which become local ones (the
    // `{"result"}` wrapper for older clients re-points local references only).
    let mut expected = written["inputSchema"].clone();
    for end in ["from", "to"] {
        expected["properties"][end]["$ref"] = "#/$defs/place".into();
    }
    assert_eq!(served, &expected);
    let validator = jsonschema::validator_for(served).unwrap();
    let mut call = serde_json::json!({
        "from": { "name": "A", "coords": { "lat": 1.5, "lon": 2 } },
        "to": { "name": "B" },
        "note": "scenic"
    });
    assert!(validator.is_valid(&call));
    call["from"]["coords"] = "1.5,2".into();
    assert!(!validator.is_valid(&call));
}

/// What zod 4.6.7 writes for a registry (`z.toJSONSchema(registry, { uri })`): every schema
/// named by a root `$id` (with `$schema`) and referenced by that name. `City.json` is a
/// definitions file the tool's input and output reference; each is served self-contained.
#[test]
fn schemas_named_and_referenced_by_id_generate_like_files_referenced_by_path() {
    let generated = Builder::new()
        .schemas_dir(fixture("zod_registry"))
        .generate()
        .unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
    let code = &generated.files[0].1;
    assert_eq!(code.matches("pub struct City {").count(), 1, "{code}");
    assert_eq!(squash(code).matches("pubcity:City,").count(), 2, "{code}");
    let catalog: serde_json::Value = serde_json::from_str(&generated.files[1].1).unwrap();
    let tool = &catalog["tools"][0];
    let paris = serde_json::json!({ "name": "Paris", "country": "FR" });
    for (key, mut valid) in [
        ("inputSchema", serde_json::json!({ "days": 3 })),
        (
            "outputSchema",
            serde_json::json!({ "temperature": 16.2, "humidity": 0.8 }),
        ),
    ] {
        let schema = &tool[key];
        assert_eq!(
            schema["properties"]["city"]["$ref"], "#/$defs/City",
            "{key}"
        );
        let city = &schema["$defs"]["City"];
        assert!(
            city.get("$id").is_none() && city.get("$schema").is_none(),
            "{city}"
        );
        let validator = jsonschema::validator_for(schema).unwrap();
        valid["city"] = paris.clone();
        assert!(validator.is_valid(&valid), "{key}: {valid}");
        valid["city"]["country"] = "FRA".into();
        assert!(!validator.is_valid(&valid), "{key}: {valid}");
    }
}

/// Writes `files` into a scratch schemas folder and returns the generation error.
fn failure(test: &str, files: &[(&str, &str)]) -> schemcp_build::Diagnostics {
    let dir = scratch(test);
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    // chrono for the `x-rust-type`s that make typify fail.
    match (Builder::new().schemas_dir(&dir))
        .extern_crate("chrono", "*")
        .generate()
    {
        Err(Error::Schemas(diagnostics)) => diagnostics,
        other => panic!("expected diagnostics, got {other:?}"),
    }
}

#[test]
fn typify_panics_become_diagnostics_with_file_pointer_line_and_column() {
    let text = r##"{
  "name": "branchy",
  "inputSchema": { "type": "object" },
  "outputSchema": {
    "type": "object",
    "properties": {
      "at": {
        "type": "object",
        "x-rust-type": { "crate": "chrono", "version": "*", "path": "chrono::DateTime", "parameters": [{ "enum": ["a", 1], "minLength": 1 }] }
      }
    }
  }
}
"##;
    // typify panics on an `x-rust-type`'s type parameter it cannot read. It names no place; the
    // diagnostic points at the member that fails on its own, not at the whole output schema.
    let diagnostics = failure("negation", &[("branchy.json", text)]);
    assert_eq!(diagnostics.0.len(), 1, "{diagnostics}");
    let d = &diagnostics.0[0];
    assert!(d.file.ends_with("branchy.json"), "{d:?}");
    assert_eq!(
        (d.code, d.pointer.as_str()),
        ("unsupported-schema", "/outputSchema/properties/at")
    );
    assert_eq!((d.line, d.column), (Some(7), Some(7)));
    assert!(d.message.contains("typify panicked"), "{}", d.message);
    let rendered = format!("{:?}", Error::Schemas(diagnostics.clone()));
    assert!(rendered.contains("branchy.json:7:7"), "{rendered}");
    assert!(rendered.contains("fallback_to_value"), "{rendered}");
}

#[test]
fn a_reference_outside_defs_is_hoisted_into_a_definition() {
    let text = r##"{
  "name": "pointy",
  "inputSchema": {
    "type": "object",
    "properties": {
      "a": { "type": "string" },
      "b": { "$ref": "#/properties/a" }
    }
  }
}
"##;
    let dir = scratch("properties-ref");
    std::fs::write(dir.join("pointy.json"), text).unwrap();
    let generated = Builder::new().schemas_dir(&dir).generate().unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
    let code = squash(&generated.files[0].1);
    // The target is copied into `$defs` under its last segment's name; the served schema is as
    // written.
    assert!(
        code.contains("pubstructA(pub::std::string::String);"),
        "{code}"
    );
    assert!(code.contains("pubb:::std::option::Option<A>,"), "{code}");
    assert!(
        generated.files[1]
            .1
            .contains("\"$ref\": \"#/properties/a\"")
    );
}

#[test]
fn a_failing_definition_outside_defs_is_reported_where_it_is_written() {
    // The generator converts a copy of `components/schemas/Odd` in `$defs`; the diagnostic
    // pointed into that copy, which the file does not have, and so showed no place at all.
    let text = r##"{
  "name": "odd",
  "inputSchema": {
    "type": "object",
    "properties": { "o": { "$ref": "#/components/schemas/Odd" } },
    "components": { "schemas": {
      "Odd": {
        "type": "object",
        "x-rust-type": { "crate": "chrono", "version": "*", "path": "chrono::DateTime", "parameters": [{ "enum": ["a", 1], "minLength": 1 }] }
      }
    } }
  }
}
"##;
    let diagnostics = failure("outside-defs", &[("odd.json", text)]);
    let d = &diagnostics.0[0];
    assert_eq!(
        (d.code, d.pointer.as_str()),
        ("unsupported-schema", "/inputSchema/components/schemas/Odd")
    );
    assert_eq!((d.line, d.column), (Some(7), Some(7)), "{d:?}");
}

#[test]
fn a_failing_shared_definition_is_reported_in_its_own_file() {
    let common = r##"{
  "$defs": {
    "Odd": {
      "type": "object",
      "x-rust-type": { "crate": "chrono", "version": "*", "path": "chrono::DateTime", "parameters": [{ "enum": ["a", 1], "minLength": 1 }] }
    }
  }
}
"##;
    let tool = r##"{
  "name": "odd",
  "inputSchema": {
    "type": "object",
    "properties": { "o": { "$ref": "common.json#/$defs/Odd" } }
  }
}
"##;
    let diagnostics = failure(
        "shared-failure",
        &[("common.json", common), ("odd.json", tool)],
    );
    let d = &diagnostics.0[0];
    assert!(d.file.ends_with("common.json"), "{diagnostics}");
    assert_eq!(d.pointer, "/$defs/Odd", "{diagnostics}");
    assert_eq!(d.line, Some(3), "{diagnostics}");
}

#[test]
fn a_malformed_rust_type_is_reported_in_its_own_file() {
    let common = r##"{
  "$defs": {
    "Day": {
      "type": "string",
      "x-rust-type": { "crate": "chrono", "version": "*", "path": "chrono::Naive Date" }
    }
  }
}
"##;
    let tool = r##"{
  "name": "day",
  "inputSchema": {
    "type": "object",
    "properties": { "d": { "$ref": "common.json#/$defs/Day" } }
  }
}
"##;
    let diagnostics = failure("rust-type", &[("common.json", common), ("day.json", tool)]);
    assert_eq!(diagnostics.0.len(), 1, "{diagnostics}");
    let d = &diagnostics.0[0];
    assert!(d.file.ends_with("common.json"), "{diagnostics}");
    assert_eq!(
        (d.code, d.pointer.as_str()),
        ("invalid-rust-type", "/$defs/Day/x-rust-type/path"),
    );
    assert_eq!((d.line, d.column), (Some(5), Some(59)), "{diagnostics}");
    assert!(
        d.message
            .contains("`chrono::Naive Date` is not a Rust path to a type"),
        "{diagnostics}"
    );
}

/// Each tool converts its own copy of a definition it shares; what is found in it was reported
/// once per tool.
#[test]
fn a_finding_in_a_shared_definition_is_reported_once() {
    let dir = scratch("shared-warnings");
    let common = r##"{
  "$defs": {
    "Day": {
      "type": "string",
      "default": 3,
      "x-rust-type": { "crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate" }
    }
  }
}
"##;
    std::fs::write(dir.join("common.json"), common).unwrap();
    for name in ["open", "close"] {
        let tool = format!(
            r##"{{"name": "{name}", "inputSchema": {{"type": "object",
                "properties": {{"day": {{"$ref": "common.json#/$defs/Day"}}}}}}}}"##
        );
        std::fs::write(dir.join(format!("{name}.json")), tool).unwrap();
    }
    let generated = Builder::new().schemas_dir(&dir).generate().unwrap();
    let warnings: Vec<String> = generated
        .warnings
        .iter()
        .map(|w| format!("{} {} {}", w.file.display(), w.pointer, w.code))
        .map(|w| w.replace(&format!("{}/", dir.display()), ""))
        .collect();
    assert_eq!(
        warnings,
        [
            "common.json /$defs/Day/x-rust-type rust-type-ignored",
            "common.json /$defs/Day/default invalid-default",
        ]
    );
}

#[test]
fn mirror_is_refreshed_then_checked() {
    let dir = scratch("mirror");
    let (out, mirror) = (dir.join("out"), dir.join("generated"));
    let builder = Builder::new()
        .schemas_dir(fixture("weather"))
        .out_dir(&out)
        .mirror_dir(Some(&mirror));
    builder.clone().check_mirror(false).compile().unwrap();
    for name in ["schemcp_tools.rs", "tools.json"] {
        assert_eq!(
            std::fs::read_to_string(out.join(name)).unwrap(),
            std::fs::read_to_string(mirror.join(name)).unwrap()
        );
    }
    builder.clone().check_mirror(true).compile().unwrap();

    let catalog = mirror.join("tools.json");
    let stale = std::fs::read_to_string(&catalog)
        .unwrap()
        .replace("Daily forecast", "Forecast");
    std::fs::write(&catalog, stale).unwrap();
    let error = builder.clone().check_mirror(true).compile().unwrap_err();
    assert!(matches!(&error, Error::StaleMirror { file, .. } if file.ends_with("tools.json")));
    let message = error.to_string();
    assert!(
        message.contains("generated/tools.json is out of date"),
        "{message}"
    );
    assert!(message.contains("first difference at line 5"), "{message}");
    assert!(message.contains("without CI set"), "{message}");

    std::fs::remove_file(mirror.join("schemcp_tools.rs")).unwrap();
    let error = builder
        .clone()
        .check_mirror(true)
        .compile()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("schemcp_tools.rs is out of date") && error.contains("missing"),
        "{error}"
    );

    builder.check_mirror(false).compile().unwrap();
    assert!(
        std::fs::read_to_string(&catalog)
            .unwrap()
            .contains("Daily forecast")
    );
}

/// The repository's own contract folders (the `schemcp` command's and the weather example's)
/// generate cleanly.
#[test]
fn repository_schemas_generate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for dir in ["schemas", "examples/weather/schemas"] {
        let dir = root.join(dir);
        if !dir.is_dir() {
            continue;
        }
        let generated = Builder::new().schemas_dir(&dir).generate().unwrap();
        assert!(
            generated.warnings.is_empty(),
            "{dir:?}: {:?}",
            generated.warnings
        );
        syn::parse_file(&generated.files[0].1).unwrap();
        if std::env::var_os("SHOW_GENERATED").is_some() {
            println!("{}", generated.files[0].1);
        }
    }
}
