//! Schemas whose `enum` typify cannot read beside the keywords around it.
//!
//! typify reads an `enum` beside one `type` (`{"type": "integer", "enum": [1, 2]}`) or alone,
//! and panics on one beside a list of types (`{"type": ["integer", "string"], "enum": [1,
//! "a"]}`) or, without `type`, beside any other assertion (`{"enum": ["a", 1], "minLength":
//! 1}`). Both are plain JSON Schema, and both were refused.

use serde_json::Value;

use schemcp_contract::keywords::{ANNOTATIONS, VOCABULARY};

use crate::normalize::IDENTIFIERS;
use crate::schema::for_each_child_mut;

/// Leaves an `enum` alone with its annotations, in the copy of a schema the generator converts,
/// where typify cannot read it beside the rest: beside a `type` list of more than one kind
/// besides `null`; beside `prefixItems` (then with its one `type`); or, without `type`, beside
/// any other assertion but a reference (typify merges a `$ref`'s target into the schema
/// first, which gives it the one `type` it reads).
///
/// The type then holds exactly the listed values. Every other assertion only ever rejects
/// values, and the values no instance can be were already left out of the copy
/// (`examples::check` tests each one against its whole subschema), so the list alone accepts
/// the same values; where that test could not run (a subschema the validator does not
/// compile), it accepts more, never less, and validation still rejects the rest. `const` was
/// already rewritten to a one-value `enum` (`normalize::const_as_enum`). A list of kinds
/// beside such an `enum` is then read by `normalize::split_mixed_enums`, a typed `enum` per
/// kind.
pub(crate) fn enum_alone(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut enum_alone);
    if !object.get("enum").is_some_and(Value::is_array) {
        return;
    }
    let one_type = object.get("type").is_some_and(Value::is_string);
    let unreadable = match object.get("type") {
        Some(Value::Array(listed)) => kinds_besides_null(listed) > 1,
        // typify reads `prefixItems` as a tuple, which its enum of arrays cannot hold.
        Some(_) => object.contains_key("prefixItems"),
        None => {
            !object.contains_key("$ref")
                && !object.contains_key("$dynamicRef")
                && object.keys().any(|k| says_something(k))
        }
    };
    if unreadable {
        object.retain(|k, _| !says_something(k) || (one_type && k == "type"));
    }
}

/// Whether `keyword` is an assertion or applicator the list of values makes redundant: not the
/// list itself, an annotation, or a keyword that names the schema or holds definitions.
fn says_something(keyword: &str) -> bool {
    VOCABULARY.contains(&keyword)
        && keyword != "enum"
        && !ANNOTATIONS.contains(&keyword)
        && !IDENTIFIERS.contains(&keyword)
}

/// How many kinds of value a `type` list names besides `null`, `integer` counted with `number`.
fn kinds_besides_null(listed: &[Value]) -> usize {
    let mut kinds: Vec<&str> = listed
        .iter()
        .filter_map(Value::as_str)
        .filter(|kind| *kind != "null")
        .map(|kind| if kind == "integer" { "number" } else { kind })
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn alone(mut schema: Value) -> Value {
        enum_alone(&mut schema);
        schema
    }

    #[test]
    fn a_type_list_of_several_kinds_goes() {
        assert_eq!(
            alone(json!({"type": ["integer", "string"], "enum": [1, "a"], "title": "T"})),
            json!({"enum": [1, "a"], "title": "T"})
        );
        assert_eq!(
            alone(json!({"type": ["array", "string", "null"], "enum": [[3], "a"], "minLength": 1})),
            json!({"enum": [[3], "a"]})
        );
    }

    #[test]
    fn assertions_beside_an_untyped_enum_go() {
        assert_eq!(
            alone(json!({
                "enum": ["a", 1],
                "minLength": 1,
                "format": "email",
                "allOf": [{"maximum": 3}],
                "$defs": {"d": {"type": "string"}},
                "description": "d",
                "x-extra": true
            })),
            json!({
                "enum": ["a", 1],
                "$defs": {"d": {"type": "string"}},
                "description": "d",
                "x-extra": true
            })
        );
        assert_eq!(
            alone(json!({"prefixItems": [{"type": "integer"}], "items": false, "enum": [[3]]})),
            json!({"enum": [[3]]})
        );
    }

    #[test]
    fn prefix_items_beside_an_enum_go_and_the_type_stays() {
        assert_eq!(
            alone(json!({
                "type": "array",
                "prefixItems": [{"type": "integer"}],
                "items": {"type": "string"},
                "minItems": 1,
                "enum": [[3], [4, "x"]]
            })),
            json!({"type": "array", "enum": [[3], [4, "x"]]})
        );
    }

    #[test]
    fn what_typify_reads_stays() {
        for schema in [
            json!({"type": "string", "enum": ["a"], "minLength": 1}),
            json!({"type": ["string", "null"], "enum": ["a", null], "minLength": 1}),
            json!({"type": ["integer", "number"], "enum": [1, 2.5]}),
            json!({"enum": ["a", 1], "title": "T", "default": "a"}),
            json!({"enum": ["a"], "$ref": "#/$defs/s", "minLength": 1}),
            json!({"type": ["integer", "string"], "minimum": 1}),
        ] {
            assert_eq!(alone(schema.clone()), schema);
        }
    }

    #[test]
    fn nested_schemas_are_read_too() {
        assert_eq!(
            alone(
                json!({"properties": {"a": {"type": ["boolean", "string"], "enum": [true, "x"]}}})
            ),
            json!({"properties": {"a": {"enum": [true, "x"]}}})
        );
    }
}
