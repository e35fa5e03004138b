//! Whether a schema is one the runtime can compile: valid against the 2020-12 meta-schema, and
//! every regular expression in it one the validator accepts.
//!
//! The runtime builds its validators with `jsonschema::validator_for`, which refuses such a
//! schema; found only there, the server would not start, and the error would name no file. The
//! build reports it here instead, at the keyword.

use serde_json::{Value, json};

use crate::json::escape_token;
use crate::schema::{self, Walk};

/// What is wrong in `value` (the schema at `root`), as `(pointer, message)`: each value the
/// 2020-12 meta-schema rejects, and each `pattern` or `patternProperties` name that is not a
/// regular expression the validator compiles. `$id`s are left to the loader's own check.
pub(crate) fn invalid_keywords(root: &str, value: &Value) -> Vec<(String, String)> {
    if !value.is_object() {
        return Vec::new();
    }
    let meta = jsonschema::draft202012::meta::validator();
    let mut found: Vec<(String, String)> = Vec::new();
    if !meta.is_valid(value) {
        for error in meta.iter_errors(value) {
            let at = error.instance_path().as_str().to_string();
            if at.ends_with("/$id") {
                continue;
            }
            let entry = (format!("{root}{at}"), error.to_string());
            if !found.contains(&entry) {
                found.push(entry);
            }
        }
    }
    schema::visit(value, root, Walk::All, &mut |at, schema| {
        if let Some(Value::String(pattern)) = schema.get("pattern")
            && let Some(why) = refused_regex(pattern)
        {
            found.push((format!("{at}/pattern"), why));
        }
        if let Some(Value::Object(patterns)) = schema.get("patternProperties") {
            for pattern in patterns.keys() {
                if let Some(why) = refused_regex(pattern) {
                    let key = escape_token(pattern);
                    found.push((format!("{at}/patternProperties/{key}"), why));
                }
            }
        }
    });
    found
}

/// Why the validator refuses `pattern` as a regular expression, if it does: compiled by the
/// validator itself, so the two cannot disagree.
fn refused_regex(pattern: &str) -> Option<String> {
    // The validator's own message only says the pattern is not a `regex`.
    jsonschema::validator_for(&json!({ "pattern": pattern }))
        .err()
        .map(|_| format!("`{pattern}` is not a regular expression the validator accepts"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_schema_violations_and_bad_patterns_are_found_where_written() {
        let schema = json!({
            "type": "object",
            "required": "city",
            "properties": {
                "days": { "type": "integer", "minimum": "one" },
                "code": { "type": "string", "pattern": "([A-Z]" },
                "ok": { "type": "string", "pattern": "^[a-z]+$" }
            },
            "patternProperties": { "x-(": {} },
            "$defs": { "Kind": { "type": 7, "$id": "a#b" } }
        });
        let found = invalid_keywords("/inputSchema", &schema);
        let pointers: Vec<&str> = found.iter().map(|(at, _)| at.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/inputSchema/$defs/Kind/type",
                "/inputSchema/properties/days/minimum",
                "/inputSchema/required",
                "/inputSchema/patternProperties/x-(",
                "/inputSchema/properties/code/pattern",
            ],
            "{found:?}"
        );
        assert_eq!(
            found[4].1,
            "`([A-Z]` is not a regular expression the validator accepts"
        );
        assert!(invalid_keywords("/inputSchema", &json!({ "type": "object" })).is_empty());
    }
}
