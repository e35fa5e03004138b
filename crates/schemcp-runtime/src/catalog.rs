//! The catalog, parsed once: served tools for both protocol generations, one compiled
//! validator per schema, and the per-tool decision whether legacy clients see a wrapper.

use std::collections::HashMap;
use std::sync::Arc;

use jsonschema::Validator;
use rmcp::model::{JsonObject, Tool};
use serde_json::{Map, Value};

use crate::CatalogError;

/// At most this many validation errors are listed in one message; a client fixing its call
/// needs the first few, not a wall of text.
const MAX_LISTED_ERRORS: usize = 10;
/// Longest single error line; jsonschema quotes the offending instance, which can be large.
const MAX_ERROR_LINE: usize = 400;

/// Keys that must stay at the root of a schema for its own references to resolve: `$defs`
/// (and draft-07 `definitions`) hold the targets of `#/$defs/...`, `$id` sets the base those
/// references resolve against, and `$schema` is only honoured at the root.
const HOISTED_KEYS: [&str; 4] = ["$schema", "$id", "$defs", "definitions"];

/// One tool, ready to serve.
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) input: Validator,
    pub(crate) output: Option<Validator>,
    /// Whether legacy clients see this tool's output wrapped as `{"result": value}`.
    pub(crate) wrapped_for_legacy: bool,
}

/// Everything derived from a catalog.
pub(crate) struct Catalog {
    pub(crate) entries: Vec<Entry>,
    pub(crate) by_name: HashMap<String, usize>,
    pub(crate) modern: Arc<[Tool]>,
    pub(crate) legacy: Arc<[Tool]>,
}

impl Catalog {
    pub(crate) fn parse(text: &str) -> Result<Catalog, CatalogError> {
        let root: Value = serde_json::from_str(text)
            .map_err(|e| CatalogError::new(None, format!("not JSON: {e}")))?;
        let Some(Value::Array(tools)) = root.get("tools") else {
            return Err(CatalogError::new(
                None,
                "expected an object with a `tools` array",
            ));
        };
        let mut entries = Vec::with_capacity(tools.len());
        let mut by_name = HashMap::with_capacity(tools.len());
        let mut modern = Vec::with_capacity(tools.len());
        let mut legacy = Vec::with_capacity(tools.len());
        for (index, value) in tools.iter().enumerate() {
            let Some(name) = value.get("name").and_then(Value::as_str) else {
                return Err(CatalogError::new(
                    None,
                    format!("tools[{index}] has no string `name`"),
                ));
            };
            let tool = served_tool(name, value)?;
            let input = compile(name, "inputSchema", Some(&tool.input_schema))?
                .ok_or_else(|| CatalogError::new(Some(name), "`inputSchema` is missing"))?;
            let output = compile(name, "outputSchema", tool.output_schema.as_deref())?;
            let wrapped = tool.output_schema.as_deref().and_then(legacy_output_schema);
            let wrapped_for_legacy = wrapped.is_some();
            let mut legacy_schema = wrapped.map(Value::Object);
            if let Some(schema) = &tool.output_schema
                && mentions_metaschema(schema)
            {
                let schema = legacy_schema.get_or_insert_with(|| Value::Object((**schema).clone()));
                loosen_metaschema_refs(schema);
            }
            let mut legacy_tool = tool.clone();
            if let Some(Value::Object(schema)) = legacy_schema {
                legacy_tool.output_schema = Some(Arc::new(schema));
            }
            if by_name.insert(name.to_string(), index).is_some() {
                return Err(CatalogError::new(
                    Some(name),
                    "appears twice in the catalog",
                ));
            }
            entries.push(Entry {
                name: name.to_string(),
                input,
                output,
                wrapped_for_legacy,
            });
            modern.push(tool);
            legacy.push(legacy_tool);
        }
        Ok(Catalog {
            entries,
            by_name,
            modern: modern.into(),
            legacy: legacy.into(),
        })
    }
}

/// The catalog entry as rmcp's `Tool`, refused if rmcp would serve anything else: a field
/// rmcp does not model would be dropped silently, and the promise is "verbatim".
fn served_tool(name: &str, value: &Value) -> Result<Tool, CatalogError> {
    let tool: Tool = serde_json::from_value(value.clone())
        .map_err(|e| CatalogError::new(Some(name), format!("not an MCP Tool object: {e}")))?;
    let served = serde_json::to_value(&tool).expect("a Tool always serializes");
    if &served != value {
        let lost: Vec<&str> = value
            .as_object()
            .map(|object| {
                object
                    .iter()
                    .filter(|(k, v)| served.get(k.as_str()) != Some(*v))
                    .map(|(k, _)| k.as_str())
                    .collect()
            })
            .unwrap_or_default();
        return Err(CatalogError::new(
            Some(name),
            format!(
                "rmcp cannot serve it verbatim; these fields would change or be dropped: {}",
                lost.join(", ")
            ),
        ));
    }
    if serde_json::to_string(&served).ok() != serde_json::to_string(value).ok() {
        // Same JSON, different key order at the Tool level: clients compare values, but the
        // checked-in catalog mirror is meant to be byte-for-byte what they receive.
        tracing::warn!(
            tool = name,
            "catalog keys are not in rmcp's order (name, title, description, inputSchema, \
             outputSchema, annotations, icons, _meta); clients receive rmcp's order"
        );
    }
    Ok(tool)
}

/// Compiles `schema`: draft 2020-12 unless its `$schema` names another draft. References are
/// never fetched (jsonschema is built without retrievers), so a remote `$ref` is an error here
/// rather than a network call at serve time.
fn compile(
    name: &str,
    which: &str,
    schema: Option<&JsonObject>,
) -> Result<Option<Validator>, CatalogError> {
    let Some(schema) = schema else {
        return Ok(None);
    };
    let schema = Value::Object(schema.clone());
    jsonschema::validator_for(&schema).map(Some).map_err(|e| {
        CatalogError::new(
            Some(name),
            format!("`{which}` is not a usable JSON Schema: {e}"),
        )
    })
}

/// The schema a pre-2026-07-28 client receives for output schema `schema`, or `None` when it
/// is served as is. Those clients require an object root, so any root whose `type` is not
/// exactly `"object"` (scalars, arrays, unions, `$ref` roots, no `type`) is wrapped as
/// `{"type":"object","properties":{"result": S},"required":["result"]}`. The keys references
/// depend on are hoisted to the wrapper root, and local references that pointed at S's root
/// are re-pointed at `#/properties/result`.
pub(crate) fn legacy_output_schema(schema: &JsonObject) -> Option<JsonObject> {
    if schema.get("type").and_then(Value::as_str) == Some("object") {
        return None;
    }
    let mut inner = schema.clone();
    let mut wrapper = Map::new();
    if let Some(dialect) = inner.shift_remove("$schema") {
        wrapper.insert("$schema".into(), dialect);
    }
    if let Some(id) = inner.shift_remove("$id") {
        wrapper.insert("$id".into(), id);
    }
    let hoisted: Vec<(String, Value)> = HOISTED_KEYS[2..]
        .iter()
        .filter_map(|key| inner.shift_remove(*key).map(|v| (key.to_string(), v)))
        .collect();
    let mut inner = Value::Object(inner);
    repoint_root_refs(&mut inner);
    wrapper.insert("type".into(), "object".into());
    wrapper.insert(
        "properties".into(),
        Value::Object(Map::from_iter([("result".into(), inner)])),
    );
    wrapper.insert("required".into(), Value::Array(vec!["result".into()]));
    wrapper.extend(hoisted);
    Some(wrapper)
}

/// Whether a `$ref` in `schema` (outside instance data) names the 2020-12 metaschema.
fn mentions_metaschema(schema: &JsonObject) -> bool {
    fn within(value: &Value) -> bool {
        match value {
            Value::Object(object) => mentions_metaschema(object),
            Value::Array(items) => items.iter().any(within),
            _ => false,
        }
    }
    schema.iter().any(|(key, child)| match key.as_str() {
        "$ref" => child.as_str().is_some_and(names_metaschema),
        "const" | "enum" | "default" | "examples" => false,
        _ => within(child),
    })
}

/// For clients before 2026-07-28, a schema that is a `$ref` to the 2020-12 metaschema says
/// `"type": ["object", "boolean"]` instead. The TypeScript SDK 1.x compiles every output
/// schema with Ajv's draft-07 class, which has no 2020-12 metaschema: the reference made its
/// `tools/list` throw. What those clients check is then looser; the server still validates
/// every result against the metaschema itself.
fn loosen_metaschema_refs(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if object
                .get("$ref")
                .and_then(Value::as_str)
                .is_some_and(names_metaschema)
            {
                object.shift_remove("$ref");
                if !object.contains_key("type") {
                    object.insert("type".into(), serde_json::json!(["object", "boolean"]));
                }
            }
            for (key, child) in object.iter_mut() {
                if !matches!(key.as_str(), "const" | "enum" | "default" | "examples") {
                    loosen_metaschema_refs(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(loosen_metaschema_refs),
        _ => {}
    }
}

/// Whether `reference` names the whole 2020-12 metaschema (as `schemcp_contract` reads it).
fn names_metaschema(reference: &str) -> bool {
    reference.strip_suffix('#').unwrap_or(reference)
        == "https://json-schema.org/draft/2020-12/schema"
}

/// Rewrites `#` and `#/x/...` references that point into S's root (but not into the hoisted
/// definitions) so they still reach S once it sits at `#/properties/result`. Not inside a
/// schema with an `$id` of its own: its local references read that resource, which moves
/// along.
fn repoint_root_refs(value: &mut Value) {
    match value {
        Value::Object(object) if object.get("$id").is_some_and(Value::is_string) => {}
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match key.as_str() {
                    "$ref" | "$dynamicRef" => {
                        if let Value::String(reference) = child
                            && let Some(rewritten) = repoint(reference)
                        {
                            *reference = rewritten;
                        }
                    }
                    // Instance data, not schemas: a `$ref` key in there is just data.
                    "const" | "enum" | "default" | "examples" => {}
                    _ => repoint_root_refs(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(repoint_root_refs),
        _ => {}
    }
}

fn repoint(reference: &str) -> Option<String> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some("#/properties/result".into());
    }
    let pointer = pointer.strip_prefix('/')?;
    let first = pointer.split('/').next().unwrap_or_default();
    if first == "$defs" || first == "definitions" {
        return None;
    }
    Some(format!("#/properties/result/{pointer}"))
}

/// Validates `instance`, returning every error as `PATH: RULE` (root errors without a path),
/// capped at [`MAX_LISTED_ERRORS`], or `None` when it is valid.
pub(crate) fn violations(validator: &Validator, instance: &Value) -> Option<String> {
    // The fast path: valid calls, the vast majority, never build error values.
    if validator.is_valid(instance) {
        return None;
    }
    let mut lines = Vec::new();
    let mut total = 0usize;
    for error in validator.iter_errors(instance) {
        total += 1;
        if lines.len() < MAX_LISTED_ERRORS {
            let path = error.instance_path().to_string();
            let mut line = if path.is_empty() {
                error.to_string()
            } else {
                format!("{path}: {error}")
            };
            truncate(&mut line, MAX_ERROR_LINE);
            lines.push(line);
        }
    }
    if total > lines.len() {
        lines.push(format!("... and {} more", total - lines.len()));
    }
    if lines.is_empty() {
        // is_valid and iter_errors disagree only on a jsonschema bug; still say something.
        lines.push("the value does not match the schema".into());
    }
    Some(lines.join("\n"))
}

fn truncate(line: &mut String, max: usize) {
    if line.len() > max {
        let mut cut = max;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push_str("...");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    fn wrap(value: Value) -> Option<Value> {
        legacy_output_schema(&object(value)).map(Value::Object)
    }

    #[test]
    fn object_roots_are_never_wrapped() {
        assert_eq!(
            wrap(json!({ "type": "object", "properties": { "a": { "type": "number" } } })),
            None
        );
        assert_eq!(
            wrap(json!({ "type": "object", "additionalProperties": { "type": "number" } })),
            None
        );
    }

    #[test]
    fn scalar_roots_are_wrapped_under_result() {
        assert_eq!(
            wrap(json!({ "type": "integer" })),
            Some(
                json!({ "type": "object", "properties": { "result": { "type": "integer" } }, "required": ["result"] })
            )
        );
    }

    #[test]
    fn roots_without_exactly_type_object_are_wrapped() {
        for schema in [
            json!({ "type": ["object", "null"] }),
            json!({ "anyOf": [{ "type": "object" }, { "type": "null" }] }),
            json!({ "$ref": "#/$defs/A", "$defs": { "A": { "type": "object" } } }),
            json!({}),
        ] {
            let wrapped =
                wrap(schema.clone()).unwrap_or_else(|| panic!("{schema} must be wrapped"));
            assert_eq!(wrapped["type"], "object", "{wrapped}");
            assert_eq!(wrapped["required"], json!(["result"]));
        }
    }

    #[test]
    fn defs_and_schema_are_hoisted_and_refs_still_resolve() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "array",
            "items": { "$ref": "#/$defs/WeatherData" },
            "$defs": { "WeatherData": { "type": "object", "properties": { "humidity": { "type": "number", "maximum": 1 } }, "required": ["humidity"] } }
        });
        let wrapped = wrap(schema).unwrap();
        assert_eq!(
            wrapped["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(
            wrapped["$defs"]["WeatherData"]["properties"]["humidity"]["maximum"],
            1
        );
        let result = &wrapped["properties"]["result"];
        assert_eq!(
            result,
            &json!({ "type": "array", "items": { "$ref": "#/$defs/WeatherData" } })
        );
        let keys: Vec<&String> = wrapped.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["$schema", "type", "properties", "required", "$defs"]);
        // The wrapper is itself a working schema whose references reach the hoisted $defs.
        let validator = jsonschema::validator_for(&wrapped).unwrap();
        assert!(validator.is_valid(&json!({ "result": [{ "humidity": 0.5 }] })));
        assert!(!validator.is_valid(&json!({ "result": [{ "humidity": 83 }] })));
        assert!(!validator.is_valid(&json!([{ "humidity": 0.5 }])));
    }

    #[test]
    fn a_named_root_keeps_its_name_on_the_wrapper() {
        // A tool schema may carry `$id` at its root; local references resolve against it, so
        // it goes where the `$defs` they reach go. Nothing is fetched to validate.
        let wrapped = wrap(json!({
            "$id": "https://example.com/schemas/forecast.json",
            "type": "array",
            "items": { "$ref": "#/$defs/Day" },
            "$defs": { "Day": { "type": "object", "required": ["humidity"] } }
        }))
        .unwrap();
        let keys: Vec<&String> = wrapped.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["$id", "type", "properties", "required", "$defs"]);
        let validator = jsonschema::validator_for(&wrapped).unwrap();
        assert!(validator.is_valid(&json!({ "result": [{ "humidity": 0.5 }] })));
        assert!(!validator.is_valid(&json!({ "result": [{}] })));
    }

    #[test]
    fn draft7_definitions_are_hoisted_too() {
        let wrapped = wrap(json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "array",
            "items": { "$ref": "#/definitions/N" },
            "definitions": { "N": { "type": "integer", "minimum": 0 } }
        }))
        .unwrap();
        assert!(wrapped["properties"]["result"].get("definitions").is_none());
        let validator = jsonschema::validator_for(&wrapped).unwrap();
        assert!(validator.is_valid(&json!({ "result": [1, 2] })));
        assert!(!validator.is_valid(&json!({ "result": [-1] })));
    }

    #[test]
    fn references_to_the_root_are_repointed_under_result() {
        // A recursive list: each node's `next` is the root schema again.
        let wrapped = wrap(json!({
            "type": ["object", "null"],
            "properties": { "next": { "$ref": "#" }, "value": { "type": "integer" }, "alias": { "$ref": "#/properties/value" } },
            "const": { "$ref": "#" }
        }))
        .unwrap();
        let result = &wrapped["properties"]["result"];
        assert_eq!(result["properties"]["next"]["$ref"], "#/properties/result");
        assert_eq!(
            result["properties"]["alias"]["$ref"],
            "#/properties/result/properties/value"
        );
        assert_eq!(
            result["const"],
            json!({ "$ref": "#" }),
            "instance data is left alone"
        );
        let validator = jsonschema::validator_for(&json!({
            "type": "object",
            "properties": { "result": { "type": ["object", "null"], "properties": { "next": { "$ref": "#/properties/result" }, "value": { "type": "integer" } } } }
        }))
        .unwrap();
        assert!(
            validator.is_valid(
                &json!({ "result": { "value": 1, "next": { "value": 2, "next": null } } })
            )
        );
    }

    #[test]
    fn references_inside_an_embedded_resource_are_left_as_written() {
        // `#/properties/name` inside `item` reads `item`, wherever `item` sits.
        let wrapped = wrap(json!({
            "type": "array",
            "items": {
                "$id": "http://example.com/item",
                "type": "object",
                "properties": {
                    "name": { "type": "string" },
                    "alias": { "$ref": "#/properties/name" }
                }
            }
        }))
        .unwrap();
        let item = &wrapped["properties"]["result"]["items"];
        assert_eq!(item["properties"]["alias"]["$ref"], "#/properties/name");
        let validator = jsonschema::validator_for(&wrapped).unwrap();
        assert!(validator.is_valid(&json!({ "result": [{ "alias": "a" }] })));
        assert!(!validator.is_valid(&json!({ "result": [{ "alias": 1 }] })));
    }

    #[test]
    fn violations_name_the_path_and_the_rule() {
        let validator = jsonschema::validator_for(&json!({
            "type": "object",
            "properties": { "days": { "type": "integer", "minimum": 1 } },
            "required": ["days", "city"]
        }))
        .unwrap();
        assert_eq!(
            violations(&validator, &json!({ "days": 2, "city": "x" })),
            None
        );
        let text = violations(&validator, &json!({ "days": 0 })).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines.contains(&"/days: 0 is less than the minimum of 1"),
            "{text}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("\"city\" is a required property")),
            "{text}"
        );
    }

    #[test]
    fn violations_are_capped() {
        let validator =
            jsonschema::validator_for(&json!({ "type": "array", "items": { "type": "string" } }))
                .unwrap();
        let text = violations(&validator, &json!((0..25).collect::<Vec<_>>())).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), MAX_LISTED_ERRORS + 1, "{text}");
        assert_eq!(lines.last().unwrap(), &"... and 15 more");
    }

    #[test]
    fn schema_dialect_is_honoured() {
        // Draft 4 reads `exclusiveMaximum` as a boolean modifier of `maximum`; 2020-12 would
        // reject the boolean outright, so compiling at all proves the dialect was honoured.
        let draft4 = object(json!({
            "$schema": "http://json-schema.org/draft-04/schema#",
            "type": "number", "maximum": 1, "exclusiveMaximum": true
        }));
        let validator = compile("t", "outputSchema", Some(&draft4))
            .unwrap()
            .unwrap();
        assert!(!validator.is_valid(&json!(1)));
        assert!(validator.is_valid(&json!(0.5)));
        let default = object(json!({ "type": "number", "exclusiveMaximum": 1 }));
        let validator = compile("t", "outputSchema", Some(&default))
            .unwrap()
            .unwrap();
        assert!(!validator.is_valid(&json!(1)));
    }

    #[test]
    fn the_metaschema_is_referenced_without_a_fetch() {
        // The validator has the 2020-12 metaschema built in and is built without retrievers:
        // compiling proves no fetch was needed, and a schema that is no schema is refused.
        let input = object(json!({
            "type": "object",
            "properties": { "schema": { "$ref": "https://json-schema.org/draft/2020-12/schema" } },
            "required": ["schema"]
        }));
        let validator = compile("t", "inputSchema", Some(&input)).unwrap().unwrap();
        assert_eq!(
            violations(&validator, &json!({ "schema": { "type": "string" } })),
            None
        );
        assert_eq!(violations(&validator, &json!({ "schema": true })), None);
        let problems = violations(&validator, &json!({ "schema": { "type": 12 } })).unwrap();
        assert!(
            problems.starts_with("/schema/type: 12 is not valid"),
            "{problems}"
        );
        assert!(violations(&validator, &json!({ "schema": 12 })).is_some());
    }

    #[test]
    fn legacy_clients_get_the_metaschema_as_object_or_boolean() {
        const META: &str = "https://json-schema.org/draft/2020-12/schema";
        let tools = json!([
            { "name": "a", "inputSchema": { "type": "object", "properties": { "s": { "$ref": META } } },
              "outputSchema": { "type": "object", "properties": {
                  "s": { "$ref": META, "description": "A schema." },
                  "t": { "$ref": "https://json-schema.org/draft/2020-12/schema#", "type": "object" },
                  "u": { "const": { "$ref": META } } } } },
            { "name": "b", "inputSchema": { "type": "object" }, "outputSchema": { "$ref": META } },
            { "name": "c", "inputSchema": { "type": "object" }, "outputSchema": { "type": "integer" } }
        ]);
        let catalog = catalog(tools.clone()).unwrap();
        // Verbatim for 2026-07-28 clients, and validated against the metaschema whatever the
        // client was told.
        assert_eq!(serde_json::to_value(&*catalog.modern).unwrap(), tools);
        assert!(
            violations(
                catalog.entries[0].output.as_ref().unwrap(),
                &json!({ "s": 1 })
            )
            .is_some()
        );
        let legacy = serde_json::to_value(&*catalog.legacy).unwrap();
        assert_eq!(
            legacy[0]["outputSchema"]["properties"],
            json!({
                "s": { "description": "A schema.", "type": ["object", "boolean"] },
                "t": { "type": "object" },
                "u": { "const": { "$ref": META } }
            })
        );
        // Inputs are not validated by those clients, and stay as written.
        assert_eq!(legacy[0]["inputSchema"], tools[0]["inputSchema"]);
        assert!(!catalog.entries[0].wrapped_for_legacy);
        assert_eq!(
            legacy[1]["outputSchema"]["properties"]["result"],
            json!({ "type": ["object", "boolean"] })
        );
        assert!(catalog.entries[1].wrapped_for_legacy);
        assert_eq!(
            legacy[2]["outputSchema"]["properties"]["result"],
            json!({ "type": "integer" })
        );
    }

    fn catalog(tools: Value) -> Result<Catalog, CatalogError> {
        Catalog::parse(&json!({ "tools": tools }).to_string())
    }

    #[test]
    fn the_catalog_is_served_verbatim_to_modern_clients_and_wrapped_for_legacy() {
        let tools = json!([
            { "name": "a", "inputSchema": { "type": "object" }, "outputSchema": { "$defs": { "X": { "type": "integer" } }, "type": "array", "items": { "$ref": "#/$defs/X" } } },
            { "name": "b", "title": "B", "description": "d", "inputSchema": { "type": "object", "properties": { "q": { "type": "string", "description": "Q." } } }, "outputSchema": { "type": "object" } },
            { "name": "c", "inputSchema": { "type": "object" } }
        ]);
        let catalog = catalog(tools.clone()).unwrap();
        let modern = serde_json::to_value(&*catalog.modern).unwrap();
        assert_eq!(
            serde_json::to_string(&modern).unwrap(),
            serde_json::to_string(&tools).unwrap()
        );
        let legacy = serde_json::to_value(&*catalog.legacy).unwrap();
        assert_eq!(
            legacy[0]["outputSchema"]["properties"]["result"],
            json!({ "type": "array", "items": { "$ref": "#/$defs/X" } })
        );
        assert_eq!(legacy[1], tools[1]);
        assert_eq!(legacy[2], tools[2]);
        let wrapped: Vec<bool> = catalog
            .entries
            .iter()
            .map(|e| e.wrapped_for_legacy)
            .collect();
        assert_eq!(wrapped, [true, false, false]);
        assert_eq!(catalog.by_name["c"], 2);
    }

    #[test]
    fn malformed_catalogs_are_refused_with_the_tool_named() {
        let error = |tools: Value| catalog(tools).err().unwrap().to_string();
        assert!(Catalog::parse("{").is_err());
        assert!(Catalog::parse("{}").is_err());
        assert!(error(json!([{ "inputSchema": {} }])).contains("name"));
        assert!(error(json!([{ "name": "x" }])).contains("tool x"));
        let e = error(json!([{ "name": "x", "inputSchema": { "type": 12 } }]));
        assert!(e.contains("tool x") && e.contains("inputSchema"), "{e}");
        let e = error(
            json!([{ "name": "x", "inputSchema": {}, "outputSchema": { "$ref": "https://example.invalid/s.json" } }]),
        );
        assert!(e.contains("outputSchema"), "{e}");
        let e =
            error(json!([{ "name": "x", "inputSchema": {} }, { "name": "x", "inputSchema": {} }]));
        assert!(e.contains("twice"), "{e}");
        let e = error(
            json!([{ "name": "x", "inputSchema": {}, "annotations": { "flavourHint": true } }]),
        );
        assert!(e.contains("annotations"), "{e}");
    }
}
