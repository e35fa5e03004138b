//! Schema-aware walking of JSON Schema documents: only keywords whose values are schemas are
//! entered, so data that merely looks like a schema (`enum`, `const`, `default`, `examples`) and
//! properties that happen to be named `default` are handled correctly.

use serde_json::Value;

/// How a keyword holds subschemas.
enum Children {
    /// `{ name: schema }`
    Named,
    /// `schema`, or for `items` a draft-07 array of schemas
    One,
    /// `[schema]`
    List,
}

fn children(keyword: &str) -> Option<Children> {
    Some(match keyword {
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            Children::Named
        }
        "items"
        | "additionalProperties"
        | "not"
        | "if"
        | "then"
        | "else"
        | "contains"
        | "propertyNames"
        | "additionalItems"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => Children::One,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Children::List,
        _ => return None,
    })
}

/// Escapes a JSON pointer segment.
pub(crate) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Calls `f` with every subschema of `schema` (itself included) and its pointer. With
/// `skip_root_defs`, the root's `$defs`/`definitions` are not entered (they are walked as
/// definitions of their own).
pub(crate) fn for_each_subschema(
    schema: &Value,
    pointer: &str,
    skip_root_defs: bool,
    f: &mut dyn FnMut(&serde_json::Map<String, Value>, &str),
) {
    let Value::Object(object) = schema else {
        return;
    };
    f(object, pointer);
    for (keyword, value) in object {
        if skip_root_defs && (keyword == "$defs" || keyword == "definitions") {
            continue;
        }
        let here = format!("{pointer}/{}", escape(keyword));
        match (children(keyword), value) {
            (Some(Children::Named), Value::Object(map)) => {
                for (name, child) in map {
                    for_each_subschema(child, &format!("{here}/{}", escape(name)), false, f);
                }
            }
            (Some(Children::One | Children::List), Value::Array(list)) => {
                for (i, child) in list.iter().enumerate() {
                    for_each_subschema(child, &format!("{here}/{i}"), false, f);
                }
            }
            (Some(Children::One), child) => for_each_subschema(child, &here, false, f),
            _ => {}
        }
    }
}

/// Calls `f` with every `$ref` string of `schema` (outside the root's definitions), mutably, in
/// the same order [`for_each_subschema`] visits them.
pub(crate) fn for_each_ref_mut(schema: &mut Value, root: bool, f: &mut dyn FnMut(&mut String)) {
    let Value::Object(object) = schema else {
        return;
    };
    for (keyword, value) in object.iter_mut() {
        if root && (keyword == "$defs" || keyword == "definitions") {
            continue;
        }
        match (children(keyword), value) {
            (_, Value::String(reference)) if keyword == "$ref" => f(reference),
            (Some(Children::Named), Value::Object(map)) => {
                for child in map.values_mut() {
                    for_each_ref_mut(child, false, f);
                }
            }
            (Some(Children::One | Children::List), Value::Array(list)) => {
                for child in list {
                    for_each_ref_mut(child, false, f);
                }
            }
            (Some(Children::One), child) => for_each_ref_mut(child, false, f),
            _ => {}
        }
    }
}

/// The text of a JSON value with object keys sorted, for comparing schemas by content.
pub(crate) fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.clone(), sorted(v)))
                        .collect(),
                )
            }
            Value::Array(list) => Value::Array(list.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}

/// Decodes one JSON pointer segment as typify does (`~1`, `~0`, then percent-escapes).
pub(crate) fn decode_segment(segment: &str) -> String {
    let unescaped = segment.replace("~1", "/").replace("~0", "~");
    let bytes = unescaped.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
        {
            let hex = [bytes[i + 1], bytes[i + 2]];
            let hex = std::str::from_utf8(&hex).unwrap_or("00");
            out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or(unescaped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn walks_schemas_not_data() {
        let schema = json!({
            "properties": {
                "default": { "$ref": "#/$defs/A" },
                "e": { "enum": [{ "$ref": "not a ref" }], "default": { "$ref": "nor this" } }
            },
            "items": [{ "$ref": "#/$defs/B" }],
            "$defs": { "A": { "$ref": "#/$defs/C" } }
        });
        let mut pointers = Vec::new();
        for_each_subschema(&schema, "", true, &mut |_, p| pointers.push(p.to_string()));
        assert_eq!(
            pointers,
            ["", "/properties/default", "/properties/e", "/items/0"]
        );
        let mut refs = Vec::new();
        for_each_ref_mut(&mut schema.clone(), true, &mut |r| refs.push(r.clone()));
        assert_eq!(refs, ["#/$defs/A", "#/$defs/B"]);
    }

    #[test]
    fn canonical_ignores_key_order() {
        assert_eq!(
            canonical(&json!({"a": 1, "b": [{"y": 1, "x": 2}]})),
            canonical(&json!({"b": [{"x": 2, "y": 1}], "a": 1}))
        );
    }

    #[test]
    fn decodes_segments() {
        assert_eq!(decode_segment("a~1b~0c%20d"), "a/b~c d");
        assert_eq!(decode_segment("100%"), "100%");
    }
}
