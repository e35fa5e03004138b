//! typify's `x-rust-type` extension in contracts: a schema that names an existing Rust type
//! (`{"crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate"}`) to use instead of
//! generating one.
//!
//! typify uses the named type only when the crate is registered ([`Builder::extern_crate`])
//! at a version the extension's requirement accepts; otherwise it generates the type from the
//! schema, and says so only through `log`, which a build script does not show. A malformed
//! extension, or a path that is no Rust path, was read the same silent way, or crashed typify.
//! Here each is a diagnostic at the extension's pointer: a malformed one is an error, one
//! typify will not use a warning naming the call that would make it used.
//!
//! Names of `schemcp-runtime` are refused: the generator picks the runtime's types itself
//! (`NotObject`, `PrefixN`, ...), and a path that names none of them compiled only as far as
//! the generated code, which then did not build, with no pointer into the schema.
//!
//! [`Builder::extern_crate`]: crate::Builder::extern_crate

use std::collections::BTreeMap;

use schemcp_contract::keywords::ANNOTATIONS;
use schemcp_contract::parallel;
use serde_json::{Map, Value, json};
use typify::CrateVers;

use crate::schema::{for_each_child_mut, for_each_reached_subschema, for_each_subschema};
use crate::types::{Kind, Problem, ToolSchemas};

/// The extension's keyword.
const EXTENSION: &str = "x-rust-type";
/// The runtime's crate, whose types only the generator names.
const RUNTIME_CRATE: &str = "schemcp-runtime";

/// What [`check`] found.
#[derive(Default)]
pub(crate) struct Checked {
    /// Malformed extensions: build errors.
    pub errors: Vec<Problem>,
    /// Extensions typify will not use, so the type is generated from the schema: warnings.
    pub warnings: Vec<Problem>,
}

/// Every `x-rust-type` in the tools' schemas, each checked against the crates registered with
/// the builder (`name` → the version in use, any or none).
pub(crate) fn check(tools: &[ToolSchemas<'_>], crates: &BTreeMap<String, CrateVers>) -> Checked {
    let indices: Vec<usize> = (0..tools.len()).collect();
    let mut checked = Checked::default();
    for one in parallel::map(&indices, |&t| check_tool(t, &tools[t], crates)) {
        checked.errors.extend(one.errors);
        checked.warnings.extend(one.warnings);
    }
    checked
}

/// [`check`] for the schemas of tool `t`.
fn check_tool(t: usize, tool: &ToolSchemas<'_>, crates: &BTreeMap<String, CrateVers>) -> Checked {
    let mut checked = Checked::default();
    for (kind, schema) in [(Kind::Input, Some(tool.input)), (Kind::Output, tool.output)] {
        let Some(schema) = schema else {
            continue;
        };
        let base = kind.pointer();
        for_each_reached_subschema(schema, &mut |object, pointer| {
            check_schema(object, &format!("{base}{pointer}"), t, crates, &mut checked);
        });
    }
    checked
}

/// Checks the extension of one schema object at `at`, and those of its type parameters.
fn check_schema(
    object: &Map<String, Value>,
    at: &str,
    t: usize,
    crates: &BTreeMap<String, CrateVers>,
    checked: &mut Checked,
) {
    let Some(extension) = object.get(EXTENSION) else {
        return;
    };
    let at = format!("{at}/{EXTENSION}");
    let problem = |pointer: String, code, message: String, help: &str| Problem {
        tool: Some(t),
        pointer,
        code,
        message,
        help: Some(help.into()),
    };
    let form = "write `{\"crate\": \"chrono\", \"version\": \"^0.4\", \"path\": \
                \"chrono::NaiveDate\"}`, with `parameters` (a list of schemas) for a generic type";
    let Some(fields) = extension.as_object() else {
        checked.errors.push(problem(
            at,
            "invalid-rust-type",
            "`x-rust-type` must be an object naming a crate, a version requirement and a path"
                .into(),
            form,
        ));
        return;
    };
    let text = |key: &str| fields.get(key).and_then(Value::as_str);
    let (Some(krate), Some(version), Some(path)) = (text("crate"), text("version"), text("path"))
    else {
        let missing = ["crate", "version", "path"]
            .into_iter()
            .find(|key| text(key).is_none())
            .expect("one of the three is not a string");
        checked.errors.push(problem(
            at,
            "invalid-rust-type",
            format!("`x-rust-type` needs `{missing}`, a string"),
            form,
        ));
        return;
    };
    let Ok(requirement) = semver::VersionReq::parse(version) else {
        checked.errors.push(problem(
            format!("{at}/version"),
            "invalid-rust-type",
            format!("`{version}` is not a version requirement"),
            "write one as Cargo.toml does: `0.4`, `^0.4.20`, `>=1, <3`, `*`",
        ));
        return;
    };
    if let Some(problem_text) = path_problem(krate, path) {
        checked.errors.push(problem(
            format!("{at}/path"),
            "invalid-rust-type",
            problem_text,
            "write the type's path from its crate's root, without generic arguments \
             (those go in `parameters`)",
        ));
        return;
    }
    let parameters = match fields.get("parameters") {
        None => &[][..],
        Some(Value::Array(parameters)) => parameters.as_slice(),
        Some(_) => {
            checked.errors.push(problem(
                format!("{at}/parameters"),
                "invalid-rust-type",
                "`parameters` must be a list of schemas, one per generic parameter".into(),
                form,
            ));
            return;
        }
    };
    if krate == RUNTIME_CRATE {
        checked.errors.push(problem(
            format!("{at}/crate"),
            "invalid-rust-type",
            format!(
                "`x-rust-type` may not name `{RUNTIME_CRATE}`: the generator chooses the \
                 runtime's types itself"
            ),
            "remove the extension; write what the value may be in the schema instead",
        ));
        return;
    }
    let used = match crates.get(krate) {
        None => {
            checked.warnings.push(problem(
                at.clone(),
                "rust-type-ignored",
                format!(
                    "`{path}` is not used: the crate `{krate}` is not registered, so the type \
                     is generated from the schema"
                ),
                &format!(
                    "to use it, add `{krate}` to Cargo.toml and call \
                     `.extern_crate(\"{krate}\", \"<its version>\")` on the \
                     schemcp_build::Builder in build.rs"
                ),
            ));
            false
        }
        Some(CrateVers::Never) => false,
        Some(CrateVers::Any) => true,
        Some(CrateVers::Version(registered)) => {
            let accepted = requirement.matches(registered);
            if !accepted {
                checked.warnings.push(problem(
                    format!("{at}/version"),
                    "rust-type-ignored",
                    format!(
                        "`{path}` is not used: `{krate}` is registered at {registered}, which \
                         `{version}` does not accept, so the type is generated from the schema"
                    ),
                    "register the version in use that the requirement accepts, or widen the \
                     requirement",
                ));
            }
            accepted
        }
    };
    // typify reads the parameters only where it uses the type they are given to.
    if !used {
        return;
    }
    for (i, parameter) in parameters.iter().enumerate() {
        let here = format!("{at}/parameters/{i}");
        match parameter {
            Value::Object(_) => for_each_subschema(parameter, &here, false, &mut |object, at| {
                // The generator moves and renames definitions in the copy typify converts,
                // and does not look inside the extension: a reference there named nothing.
                if let Some(keyword) = ["$ref", "$dynamicRef"]
                    .into_iter()
                    .find(|k| object.contains_key(*k))
                {
                    checked.errors.push(problem(
                        format!("{at}/{keyword}"),
                        "invalid-rust-type",
                        "a type parameter cannot refer to another schema: typify reads \
                         parameters as written, apart from the definitions the generator \
                         converts"
                            .into(),
                        "write the parameter's schema in place, or name its type with an \
                         `x-rust-type` of its own",
                    ));
                }
                check_schema(object, at, t, crates, checked);
            }),
            Value::Bool(_) => {}
            _ => checked.errors.push(problem(
                here,
                "invalid-rust-type",
                "a type parameter must be a schema".into(),
                form,
            )),
        }
    }
}

/// Rewrites, in the copy of a schema the generator converts, an `x-rust-type` beside a list of
/// types with `null` (`{"type": ["string", "null"], "x-rust-type": ...}`) to the `anyOf` it
/// means, `{"anyOf": [{"type": "null"}, {"type": "string", "x-rust-type": ...}]}`, which
/// typify reads as an `Option` of the named type. typify reads nothing beside the extension,
/// so the named type alone refused the `null` the schema accepts. Annotations and definitions
/// stay where they are; every other keyword moves into the branch with the extension, where it
/// still constrains the same non-null values (validation enforces the schema either way).
pub(crate) fn nullable_named_types(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut nullable_named_types);
    let Some(Value::Array(kinds)) = object.get("type") else {
        return;
    };
    if !object.contains_key(EXTENSION) || !kinds.iter().any(|k| k == "null") {
        return;
    }
    let others: Vec<Value> = kinds.iter().filter(|k| *k != "null").cloned().collect();
    let stays = |key: &str| {
        ANNOTATIONS.contains(&key)
            || matches!(
                key,
                "$defs" | "definitions" | "$id" | "$anchor" | "$dynamicAnchor" | "$schema"
            )
    };
    let mut named = Map::new();
    for (key, value) in std::mem::take(object) {
        if stays(&key) {
            object.insert(key, value);
        } else {
            named.insert(key, value);
        }
    }
    named["type"] = match <[Value; 1]>::try_from(others) {
        Ok([one]) => one,
        Err(others) => Value::Array(others),
    };
    object.insert(
        "anyOf".into(),
        json!([{ "type": "null" }, Value::Object(named)]),
    );
}

/// Why `path` is no path of a type of `krate` typify can write, if it is not.
fn path_problem(krate: &str, path: &str) -> Option<String> {
    let root = krate.replace('-', "_");
    let Some(rest) = path.strip_prefix(&root).and_then(|p| p.strip_prefix("::")) else {
        return Some(format!(
            "`{path}` does not start with the crate's name, `{root}::`"
        ));
    };
    match syn::parse_str::<syn::Path>(path) {
        Ok(parsed)
            if !rest.is_empty()
                && parsed.leading_colon.is_none()
                && parsed.segments.iter().all(|s| s.arguments.is_none()) =>
        {
            None
        }
        _ => Some(format!("`{path}` is not a Rust path to a type")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(schema: Value, crates: &[(&str, &str)]) -> Vec<String> {
        let tool = ToolSchemas {
            name: "t",
            input: &schema,
            output: None,
            origins: BTreeMap::new(),
        };
        let crates = crates
            .iter()
            .map(|(k, v)| (k.to_string(), CrateVers::parse(v).unwrap()))
            .collect();
        let checked = check(&[tool], &crates);
        let show = |kind: &str, p: &Problem| format!("{kind} {} {}", p.pointer, p.message);
        (checked.errors.iter().map(|p| show("error", p)))
            .chain(checked.warnings.iter().map(|p| show("warning", p)))
            .collect()
    }

    fn member(extension: Value) -> Value {
        json!({"type": "object", "properties": {"day": {"type": "string", "x-rust-type": extension}}})
    }

    #[test]
    fn a_registered_crate_at_an_accepted_version_is_used_silently() {
        let day = json!({"crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate"});
        assert_eq!(
            problems(member(day.clone()), &[("chrono", "0.4.38")]),
            [""; 0]
        );
        assert_eq!(problems(member(day), &[("chrono", "*")]), [""; 0]);
    }

    #[test]
    fn a_crate_typify_will_not_use_is_a_warning_at_the_extension() {
        let day = json!({"crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate"});
        let unregistered = problems(member(day.clone()), &[]);
        assert_eq!(unregistered.len(), 1);
        assert!(unregistered[0].starts_with(
            "warning /inputSchema/properties/day/x-rust-type `chrono::NaiveDate` is not used: \
             the crate `chrono` is not registered"
        ));
        let older = problems(member(day), &[("chrono", "0.3.1")]);
        assert_eq!(older.len(), 1);
        assert!(older[0].starts_with(
            "warning /inputSchema/properties/day/x-rust-type/version `chrono::NaiveDate` is not \
             used: `chrono` is registered at 0.3.1"
        ));
    }

    #[test]
    fn malformed_extensions_are_errors_at_their_field() {
        let cases = [
            (
                json!("chrono::NaiveDate"),
                "/x-rust-type `x-rust-type` must be an object",
            ),
            (
                json!({"crate": "chrono", "path": "chrono::NaiveDate"}),
                "/x-rust-type `x-rust-type` needs `version`",
            ),
            (
                json!({"crate": "chrono", "version": "zero", "path": "chrono::NaiveDate"}),
                "/x-rust-type/version `zero` is not a version requirement",
            ),
            (
                json!({"crate": "chrono", "version": "*", "path": "time::Date"}),
                "/x-rust-type/path `time::Date` does not start with the crate's name",
            ),
            (
                json!({"crate": "chrono", "version": "*", "path": "chrono::not a path"}),
                "/x-rust-type/path `chrono::not a path` is not a Rust path to a type",
            ),
            (
                json!({"crate": "chrono", "version": "*", "path": "chrono::DateTime<Utc>"}),
                "/x-rust-type/path `chrono::DateTime<Utc>` is not a Rust path to a type",
            ),
            (
                json!({"crate": "chrono", "version": "*", "path": "chrono::"}),
                "/x-rust-type/path `chrono::` is not a Rust path to a type",
            ),
            (
                json!({"crate": "chrono", "version": "*", "path": "chrono::DateTime",
                       "parameters": {"type": "string"}}),
                "/x-rust-type/parameters `parameters` must be a list",
            ),
            (
                json!({"crate": "schemcp-runtime", "version": "*",
                       "path": "schemcp_runtime::Nope"}),
                "/x-rust-type/crate `x-rust-type` may not name `schemcp-runtime`",
            ),
        ];
        for (extension, expected) in cases {
            let found = problems(member(extension.clone()), &[("chrono", "*")]);
            let expected = format!("error /inputSchema/properties/day{expected}");
            assert!(
                found.len() == 1 && found[0].starts_with(&expected),
                "{extension}: {found:?}"
            );
        }
    }

    #[test]
    fn a_named_type_that_may_be_null_is_a_branch_beside_null() {
        let day = json!({"crate": "chrono", "version": "^0.4", "path": "chrono::NaiveDate"});
        let mut schema = json!({"properties": {"d": {
            "type": ["string", "null"], "format": "date", "description": "A day.", "x-rust-type": day
        }}});
        nullable_named_types(&mut schema);
        assert_eq!(
            schema,
            json!({"properties": {"d": {"description": "A day.", "anyOf": [
                {"type": "null"},
                {"type": "string", "format": "date", "x-rust-type": day}
            ]}}})
        );
        // Left alone: no `null` in the list, or no extension.
        for unchanged in [
            json!({"type": ["string", "integer"], "x-rust-type": day}),
            json!({"type": ["string", "null"], "format": "date"}),
            json!({"type": "string", "x-rust-type": day}),
        ] {
            let mut schema = unchanged.clone();
            nullable_named_types(&mut schema);
            assert_eq!(schema, unchanged);
        }
    }

    #[test]
    fn a_reference_in_a_type_parameter_is_an_error() {
        let at = json!({"crate": "chrono", "version": "*", "path": "chrono::DateTime",
                        "parameters": [{"type": "array", "items": {"$ref": "#/$defs/Zone"}}]});
        assert_eq!(
            problems(member(at), &[("chrono", "*")]),
            [
                "error /inputSchema/properties/day/x-rust-type/parameters/0/items/$ref a type \
              parameter cannot refer to another schema: typify reads parameters as written, \
              apart from the definitions the generator converts"
            ]
        );
    }

    #[test]
    fn the_parameters_of_a_type_not_used_are_not_read() {
        let at = json!({"crate": "chrono", "version": "*", "path": "chrono::DateTime",
                        "parameters": [{"x-rust-type": {"crate": "chrono", "version": "*", "path": "Utc"}}]});
        let found = problems(member(at.clone()), &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("the crate `chrono` is not registered"),
            "{found:?}"
        );
        assert_eq!(problems(member(at), &[("chrono", "!")]), [""; 0]);
    }

    #[test]
    fn type_parameters_and_definitions_are_checked_too() {
        let schema = json!({
            "type": "object",
            "properties": {"at": {"$ref": "#/$defs/At"}},
            "$defs": {"At": {"type": "string", "x-rust-type": {
                "crate": "chrono", "version": "*", "path": "chrono::DateTime",
                "parameters": [{"x-rust-type": {"crate": "chrono", "version": "*", "path": "Utc"}}]
            }}}
        });
        assert_eq!(
            problems(schema, &[("chrono", "*")]),
            [
                "error /inputSchema/$defs/At/x-rust-type/parameters/0/x-rust-type/path `Utc` does \
              not start with the crate's name, `chrono::`"
            ]
        );
    }
}
