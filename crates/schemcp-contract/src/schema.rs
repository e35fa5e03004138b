//! Walking JSON Schema 2020-12 documents keyword by keyword.
//!
//! Only keywords whose values are subschemas are followed, so a `"$ref"` inside `const`,
//! `enum`, `examples` or `default`, or a property that happens to be named `$ref`, is data
//! and never a reference.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::json::push_token;
use crate::keywords::IN_PLACE_APPLICATORS;

/// Which subschemas to follow.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Walk {
    /// Every subschema, `$defs` included.
    All,
    /// Only subschemas that apply to the same instance as their parent. A `$ref` cycle along
    /// these never reaches a smaller instance, so no finite value can satisfy it: it is the one
    /// kind of recursion that cannot become a Rust type.
    InPlace,
}

const SINGLE: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "contentSchema",
    "additionalItems",
    "items",
];
const ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];
/// Calls `visit(pointer, schema)` for `value` (at `pointer`) and every subschema below it that
/// is a JSON object, parents before children, members in document order.
pub(crate) fn visit(
    value: &Value,
    pointer: &str,
    walk: Walk,
    visit_fn: &mut dyn FnMut(&str, &Map<String, Value>),
) {
    // One pointer buffer for the whole walk, grown and cut back segment by segment.
    let mut at = pointer.to_string();
    visit_at(value, &mut at, walk, visit_fn);
}

/// [`visit`] for a schema held as a map.
pub(crate) fn visit_map(
    schema: &Map<String, Value>,
    walk: Walk,
    visit_fn: &mut dyn FnMut(&str, &Map<String, Value>),
) {
    visit_object(schema, &mut String::new(), walk, visit_fn);
}

fn visit_at(
    value: &Value,
    pointer: &mut String,
    walk: Walk,
    visit_fn: &mut dyn FnMut(&str, &Map<String, Value>),
) {
    if let Value::Object(schema) = value {
        visit_object(schema, pointer, walk, visit_fn);
    }
}

fn visit_object(
    schema: &Map<String, Value>,
    pointer: &mut String,
    walk: Walk,
    visit_fn: &mut dyn FnMut(&str, &Map<String, Value>),
) {
    visit_fn(pointer, schema);
    for (key, child) in schema {
        let key = key.as_str();
        if walk == Walk::InPlace && !IN_PLACE_APPLICATORS.contains(&key) {
            continue;
        }
        let here = pointer.len();
        match child {
            Value::Object(members) if MAPS.contains(&key) => {
                push_token(pointer, key);
                for (name, sub) in members {
                    // `dependencies` mixes schemas with arrays of names; only objects are walked.
                    let there = pointer.len();
                    push_token(pointer, name);
                    visit_at(sub, pointer, walk, visit_fn);
                    pointer.truncate(there);
                }
            }
            Value::Object(_) if SINGLE.contains(&key) => {
                push_token(pointer, key);
                visit_at(child, pointer, walk, visit_fn);
            }
            Value::Array(items) if ARRAYS.contains(&key) => {
                push_token(pointer, key);
                for (i, sub) in items.iter().enumerate() {
                    let there = pointer.len();
                    write!(pointer, "/{i}").expect("writing to a String");
                    visit_at(sub, pointer, walk, visit_fn);
                    pointer.truncate(there);
                }
            }
            _ => {}
        }
        pointer.truncate(here);
    }
}

/// The keywords that reference a schema. A `$dynamicRef` is followed like a `$ref`: it is
/// checked and bundled the same way, and lands where a `$ref` would unless another resource is
/// in the dynamic scope (see `schemcp-build`).
pub(crate) const REFERENCES: [&str; 2] = ["$ref", "$dynamicRef"];

/// Every reference at or below `value`: `(pointer of the schema that has it, the keyword, the
/// reference)`.
pub(crate) fn refs(
    value: &Value,
    pointer: &str,
    walk: Walk,
) -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    visit(value, pointer, walk, &mut |at, schema| {
        for keyword in REFERENCES {
            if let Some(Value::String(r)) = schema.get(keyword) {
                out.push((at.to_string(), keyword, r.clone()));
            }
        }
    });
    out
}

/// The pointer of the schema that declares `$anchor` (or `$dynamicAnchor`) `name`.
pub(crate) fn find_anchor(value: &Value, pointer: &str, name: &str) -> Option<String> {
    let mut found = None;
    visit(value, pointer, Walk::All, &mut |at, schema| {
        let declares = ["$anchor", "$dynamicAnchor"]
            .iter()
            .any(|k| schema.get(*k).and_then(Value::as_str) == Some(name));
        if declares && found.is_none() {
            found = Some(at.to_string());
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn data_that_looks_like_a_ref_is_not_one() {
        let schema = json!({
            "properties": { "$ref": { "const": { "$ref": "x.json" } }, "a": { "$ref": "#/$defs/A" } },
            "examples": [{ "$ref": "y.json" }],
            "$defs": { "A": { "items": { "$ref": "z.json" } } }
        });
        let found = refs(&schema, "/inputSchema", Walk::All);
        assert_eq!(
            found,
            [
                (
                    "/inputSchema/properties/a".to_string(),
                    "$ref",
                    "#/$defs/A".to_string()
                ),
                (
                    "/inputSchema/$defs/A/items".to_string(),
                    "$ref",
                    "z.json".to_string()
                ),
            ]
        );
    }

    #[test]
    fn in_place_walk_skips_instance_descending_keywords() {
        let schema = json!({
            "allOf": [{ "$ref": "#/a" }],
            "properties": { "p": { "$ref": "#/b" } },
            "items": { "$ref": "#/c" },
            "not": { "$dynamicRef": "#/d" }
        });
        let found: Vec<String> = refs(&schema, "", Walk::InPlace)
            .into_iter()
            .map(|r| r.2)
            .collect();
        assert_eq!(found, ["#/a", "#/d"]);
    }

    #[test]
    fn anchors_are_found_anywhere() {
        let schema = json!({ "$defs": { "N~x": { "$anchor": "node" } } });
        assert_eq!(
            find_anchor(&schema, "", "node").as_deref(),
            Some("/$defs/N~0x")
        );
        assert_eq!(find_anchor(&schema, "", "other"), None);
    }
}
