//! `examples` in contracts are documentation other languages read, so they must not lie: every
//! example of every input and output (sub)schema must validate against that schema, with the
//! validator the runtime uses. A failing example is a build error naming the file and pointer.
//!
//! `default` is an annotation: JSON Schema does not require it to validate (the official test
//! suite checks that an invalid one is ignored). Generated types fill a missing member in with
//! its `default`, though, so a `default` that does not validate (or cannot be checked) is a
//! warning naming the file and pointer, and the types are generated as if it were not there:
//! the member stays optional and is never filled in with the invalid value.
//!
//! An `enum` value (or the `const`) that fails the rest of its schema (`{"type": "integer",
//! "minimum": 0, "enum": [-1, 2]}`) can never be part of a valid value. It is a warning too,
//! and the types are generated without it: typify wrote such a value into code that did not
//! compile (`-1` as a `u64`), or refused the whole schema.

use schemcp_contract::json::uri_fragment;
use schemcp_contract::parallel;
use serde_json::{Map, Value, json};

use crate::schema::{for_each_reached_subschema, for_each_subschema};
use crate::types::{Kind, Problem, ToolSchemas};

/// What [`check`] found.
#[derive(Default)]
pub(crate) struct Checked {
    /// Examples that do not validate: build errors.
    pub errors: Vec<Problem>,
    /// Defaults that do not validate: warnings.
    pub warnings: Vec<Problem>,
    /// `(tool, kind, pointer of the subschema inside that schema)` of each such default, to
    /// leave out of the types.
    pub ignored_defaults: Vec<(usize, Kind, String)>,
    /// `(tool, kind, pointer of the subschema, the values kept)` of each `enum` or `const`
    /// with values that fail the rest of their schema, to type without them.
    pub unreachable_values: Vec<(usize, Kind, String, Vec<Value>)>,
}

/// Every example, `default`, `enum` value and `const` that does not validate against its
/// schema.
pub(crate) fn check(tools: &[ToolSchemas<'_>]) -> Checked {
    // Each tool on its own, on every core; joined in tool order.
    let indices: Vec<usize> = (0..tools.len()).collect();
    let mut checked = Checked::default();
    for one in parallel::map(&indices, |&t| check_tool(t, &tools[t])) {
        checked.errors.extend(one.errors);
        checked.warnings.extend(one.warnings);
        checked.ignored_defaults.extend(one.ignored_defaults);
        checked.unreachable_values.extend(one.unreachable_values);
    }
    checked
}

/// [`check`] for the schemas of tool `t`.
fn check_tool(t: usize, tool: &ToolSchemas<'_>) -> Checked {
    let mut checked = Checked::default();
    for (kind, schema) in [(Kind::Input, Some(tool.input)), (Kind::Output, tool.output)] {
        let Some(Value::Object(root)) = schema else {
            continue;
        };
        let base = kind.pointer();
        // `(schema pointer, [(keyword pointer suffix, value)])`
        let mut sites: Vec<(String, Vec<(String, Value)>)> = Vec::new();
        let mut enums: Vec<String> = Vec::new();
        for_each_reached_subschema(schema.unwrap(), &mut |object, pointer| {
            if constrains_its_values(object) {
                enums.push(pointer.to_string());
            }
            let mut values = Vec::new();
            if let Some(Value::Array(examples)) = object.get("examples") {
                for (i, example) in examples.iter().enumerate() {
                    values.push((format!("examples/{i}"), example.clone()));
                }
            }
            // A default a type fills in must be valid too, or the typed value is not.
            if let Some(default) = object.get("default") {
                values.push(("default".into(), default.clone()));
            }
            if !values.is_empty() {
                sites.push((pointer.to_string(), values));
            }
        });
        for pointer in enums {
            unreachable_values(schema.unwrap(), root, &pointer, t, kind, &mut checked);
        }
        for (pointer, examples) in sites {
            let at = format!("{base}{pointer}");
            let only_default = examples.iter().all(|(suffix, _)| suffix == "default");
            let validator = match jsonschema::validator_for(&document(root, &pointer)) {
                Ok(validator) => validator,
                Err(error) if only_default => {
                    checked.warnings.push(Problem {
                        tool: Some(t),
                        pointer: format!("{at}/default"),
                        code: "invalid-default",
                        message: format!(
                            "the default cannot be checked: the schema does not compile \
                             ({error}); the generated type does not fill it in"
                        ),
                        help: None,
                    });
                    checked.ignored_defaults.push((t, kind, pointer.clone()));
                    continue;
                }
                Err(error) => {
                    checked.errors.push(Problem {
                        tool: Some(t),
                        pointer: at,
                        code: "invalid-example",
                        message: format!(
                            "the examples of this schema cannot be checked: the schema does \
                             not compile ({error})"
                        ),
                        help: None,
                    });
                    continue;
                }
            };
            for (suffix, example) in &examples {
                if let Some(error) = validator.iter_errors(example).next() {
                    let inside = error.instance_path().to_string();
                    let inside = if inside.is_empty() {
                        String::new()
                    } else {
                        format!(" at `{inside}`")
                    };
                    let Some(i) = suffix.strip_prefix("examples/") else {
                        checked.warnings.push(Problem {
                            tool: Some(t),
                            pointer: format!("{at}/{suffix}"),
                            code: "invalid-default",
                            message: format!(
                                "the default does not validate against its schema{inside}: \
                                 {error}; the generated type does not fill it in"
                            ),
                            help: Some(
                                "clients may still show the default: fix it or the schema".into(),
                            ),
                        });
                        checked.ignored_defaults.push((t, kind, pointer.clone()));
                        continue;
                    };
                    let what = format!("example {i}");
                    checked.errors.push(Problem {
                        tool: Some(t),
                        pointer: format!("{at}/{suffix}"),
                        code: "invalid-example",
                        message: format!(
                            "{what} does not validate against its schema{inside}: {error}"
                        ),
                        help: Some(
                            "examples are read by clients in every language: fix the \
                             example or the schema"
                                .into(),
                        ),
                    });
                }
            }
        }
    }
    checked
}

/// Whether `object` has an `enum` or a `const` beside keywords its values could fail.
fn constrains_its_values(object: &Map<String, Value>) -> bool {
    let values = object.get("enum").is_some_and(Value::is_array) || object.contains_key("const");
    values
        && !object.contains_key("$dynamicRef")
        && object.keys().any(|k| {
            !matches!(k.as_str(), "enum" | "const" | "$schema" | "$id" | "$anchor")
                && !schemcp_contract::keywords::ANNOTATIONS.contains(&k.as_str())
        })
}

/// Checks the `enum` values or the `const` of the subschema at `pointer` against that
/// subschema, and records those no instance can be.
fn unreachable_values(
    schema: &Value,
    root: &Map<String, Value>,
    pointer: &str,
    t: usize,
    kind: Kind,
    checked: &mut Checked,
) {
    let Some(Value::Object(object)) = schema.pointer(pointer) else {
        return;
    };
    let (listed, keyword) = match (object.get("enum"), object.get("const")) {
        (Some(Value::Array(values)), _) => (values.as_slice(), "enum"),
        (_, Some(value)) => (std::slice::from_ref(value), "const"),
        _ => return,
    };
    // Most lists stand beside a `type` alone (`{"type": "string", "enum": [...]}`); checked
    // here, they need no validator, which a catalog of a thousand tools would compile a
    // thousand times.
    if only_typed(object) && listed.iter().all(|value| of_type(value, &object["type"])) {
        return;
    }
    // A schema that does not compile is reported where its examples or defaults are, and
    // by the runtime; its values cannot be judged here.
    let Ok(validator) = jsonschema::validator_for(&document(root, pointer)) else {
        return;
    };
    let at = format!("{}{pointer}", kind.pointer());
    let listed = listed.to_vec();
    let mut kept = Vec::new();
    let mut failed = false;
    for (i, value) in listed.into_iter().enumerate() {
        let Some(error) = validator.iter_errors(&value).next() else {
            kept.push(value);
            continue;
        };
        failed = true;
        let (place, what) = if keyword == "enum" {
            (format!("{at}/enum/{i}"), format!("`enum` value {value}"))
        } else {
            (format!("{at}/const"), format!("the `const` {value}"))
        };
        checked.warnings.push(Problem {
            tool: Some(t),
            pointer: place,
            code: "unreachable-value",
            message: format!(
                "{what} can never be valid here ({error}); the generated type leaves it out"
            ),
            help: Some("fix the value or the schema: clients may still offer it".into()),
        });
    }
    if failed {
        checked
            .unreachable_values
            .push((t, kind, pointer.to_string(), kept));
    }
}

/// Whether the only keywords of `object` besides its values and annotations are a `type`.
fn only_typed(object: &Map<String, Value>) -> bool {
    object.contains_key("type")
        && object.keys().all(|k| {
            matches!(k.as_str(), "type" | "enum" | "const")
                || schemcp_contract::keywords::ANNOTATIONS.contains(&k.as_str())
        })
}

/// Whether `value` is of the JSON Schema `type` (a name or a list of names); `1.0` is an
/// integer.
fn of_type(value: &Value, kind: &Value) -> bool {
    let is = |name: &str| match (name, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    };
    match kind {
        Value::String(name) => is(name),
        Value::Array(names) => names.iter().any(|n| n.as_str().is_some_and(is)),
        _ => false,
    }
}

/// A document that validates against the subschema at `pointer` of `root`, every reference
/// inside it resolving as it does in `root`. `root` is embedded as a resource of its own (under
/// its `$id`, or [`ROOT_URI`]) and referenced at `pointer`: a copy of the subschema alone would
/// lose `#` and `#/components/...` references, which name places in the root.
pub(crate) fn document(root: &Map<String, Value>, pointer: &str) -> Value {
    if pointer.is_empty() {
        return Value::Object(root.clone());
    }
    let mut resource = root.clone();
    let id = root
        .get("$id")
        .and_then(Value::as_str)
        .and_then(|id| id.split('#').next())
        .filter(|id| !id.is_empty());
    let uri = match id {
        Some(id) => id.to_string(),
        None => {
            resource.insert("$id".into(), json!(ROOT_URI));
            ROOT_URI.to_string()
        }
    };
    let mut doc = Map::new();
    if let Some(dialect) = root.get("$schema") {
        doc.insert("$schema".into(), dialect.clone());
    }
    doc.insert("$defs".into(), json!({ "root": resource }));
    doc.insert(
        "$ref".into(),
        json!(format!("{uri}#{}", uri_fragment(pointer))),
    );
    Value::Object(doc)
}

/// The URI [`document`] gives a root without an `$id`.
const ROOT_URI: &str = "urn:schemcp:root";

/// typify's message for a value it cannot hold in the type it made: a `default` (or an `enum`
/// value) that does not fit.
const DOES_NOT_CONFORM: &str = "value does not conform to the given schema";

/// The defaults to leave out of the types after a conversion that failed on one, or fell back
/// to `serde_json::Value` because of one (`problems`): the object and array defaults inside
/// each schema typify refused so (its `$defs` aside, which are converted on their own), or,
/// where it has none left, its other defaults; as `(tool, kind, pointer)` like
/// [`Checked::ignored_defaults`], with a warning per schema naming them. typify checks a
/// default against the type it built and refuses the whole schema when it does not fit (a
/// member the schema does not declare, for instance, has no field to go in), though the
/// default is valid; the schema can still be typed without its defaults. Schemas without a
/// `default` give nothing: that failure was not a default's.
pub(crate) fn untypable_defaults(
    tools: &[ToolSchemas<'_>],
    problems: &[Problem],
) -> (Vec<(usize, Kind, String)>, Vec<Problem>) {
    // (tool, kind, pointer of the schema in it, whether its `$defs` count)
    let mut targets: Vec<(usize, Kind, String, bool)> = Vec::new();
    for problem in problems.iter().filter(|p| {
        p.message.contains(DOES_NOT_CONFORM) || p.message.contains(crate::checks::BROKEN_DEFAULT)
    }) {
        let Some(t) = problem.tool else {
            // The whole set failed, though each schema converts on its own: a default holds a
            // value of a type defined elsewhere. Every schema's defaults are suspects.
            for t in 0..tools.len() {
                targets.push((t, Kind::Input, String::new(), true));
                targets.push((t, Kind::Output, String::new(), true));
            }
            continue;
        };
        for kind in [Kind::Input, Kind::Output] {
            if let Some(at) = problem.pointer.strip_prefix(kind.pointer()) {
                targets.push((t, kind, at.to_string(), false));
            }
        }
    }
    let mut ignored: Vec<(usize, Kind, String)> = Vec::new();
    let mut warnings = Vec::new();
    for (t, kind, at, with_defs) in targets {
        let root = match kind {
            Kind::Input => Some(tools[t].input),
            Kind::Output => tools[t].output,
        };
        // The failing part is found in the copy typify read, which may hold places the schema
        // does not write (a list of types read as a union's branches): its defaults are those
        // of the nearest place that is written.
        let mut at = at.as_str();
        while root.is_some_and(|root| root.pointer(at).is_none()) && !at.is_empty() {
            at = &at[..at.rfind('/').unwrap_or(0)];
        }
        let Some(schema) = root.and_then(|root| root.pointer(at)) else {
            continue;
        };
        // (pointer, whether the default is an object or an array)
        let mut found = Vec::new();
        let skip_defs = at.is_empty() && !with_defs;
        for_each_subschema(schema, at, skip_defs, &mut |object, pointer| {
            if let Some(default) = object.get("default") {
                found.push((
                    pointer.to_string(),
                    default.is_object() || default.is_array(),
                ));
            }
        });
        // Objects and arrays first: what typify cannot hold is nearly always a member or an
        // item; the plain values go too only if the schema still fails without those.
        let composite = found.iter().any(|(_, composite)| *composite);
        let found: Vec<String> = found
            .into_iter()
            .filter(|(_, c)| *c || !composite)
            .map(|(pointer, _)| pointer)
            .filter(|pointer| !ignored.contains(&(t, kind, pointer.clone())))
            .collect();
        if found.is_empty() {
            continue;
        }
        let listed: Vec<String> = found
            .iter()
            .map(|pointer| format!("`{}{pointer}/default`", kind.pointer()))
            .collect();
        warnings.push(Problem {
            tool: Some(t),
            pointer: format!("{}{at}", kind.pointer()),
            code: "untyped-default",
            message: format!(
                "typify cannot hold a default of this schema in the type it makes, or writes \
                 one as code that does not compile, so the generated type does not fill in \
                 these: {}",
                listed.join(", ")
            ),
            help: Some(
                "clients still read the defaults; a default with a member the schema does not \
                 declare has no field to go in"
                    .into(),
            ),
        });
        ignored.extend(found.into_iter().map(|pointer| (t, kind, pointer)));
    }
    (ignored, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subschema_is_validated_with_its_references_resolved_in_the_root() {
        let root = json!({
            "type": "object",
            "properties": {
                "a": { "$ref": "#/components/schemas/A" },
                "self": { "type": "array", "items": { "$ref": "#" } }
            },
            "components": { "schemas": { "A": { "type": "integer" } } }
        });
        let root = root.as_object().unwrap();
        let a = jsonschema::validator_for(&document(root, "/properties/a")).unwrap();
        assert!(a.is_valid(&json!(1)) && !a.is_valid(&json!("x")));
        // `#` is the root, not the subschema the document was made for.
        let items = jsonschema::validator_for(&document(root, "/properties/self")).unwrap();
        assert!(items.is_valid(&json!([{ "a": 1 }])));
        assert!(!items.is_valid(&json!([{ "a": "x" }])));
        assert!(!items.is_valid(&json!([3])));
    }

    /// The check without a validator agrees with the validator on `type`.
    #[test]
    fn of_type_reads_type_as_json_schema_does() {
        let kinds = [
            "null", "boolean", "integer", "number", "string", "array", "object",
        ];
        let values = [
            json!(null),
            json!(true),
            json!(1),
            json!(1.0),
            json!(-2.5),
            json!(18446744073709551615u64),
            json!(1e300),
            json!(""),
            json!([]),
            json!({}),
        ];
        for kind in kinds {
            let validator = jsonschema::validator_for(&json!({ "type": kind })).unwrap();
            for value in &values {
                assert_eq!(
                    of_type(value, &json!(kind)),
                    validator.is_valid(value),
                    "{value} against {kind}"
                );
            }
        }
        assert!(of_type(&json!("x"), &json!(["integer", "string"])));
        assert!(!of_type(&json!(null), &json!(["integer", "string"])));
    }
}
