//! Synthetic contract sets for the generator benchmarks: N tools that share definitions in one
//! `common.json`, each with its own input and output object types, like a real catalog.

use std::path::Path;

use serde_json::{Value, json};

/// The shared definitions file every synthetic tool references.
pub fn common() -> Value {
    json!({
        "$defs": {
            "City": { "type": "string", "minLength": 1, "description": "City name, e.g. London." },
            "Unit": { "type": "string", "enum": ["celsius", "fahrenheit"] },
            "Reading": {
                "title": "Reading",
                "type": "object",
                "properties": {
                    "temperature": { "type": "number", "description": "Degrees." },
                    "humidity": { "type": "number", "minimum": 0, "maximum": 1 },
                    "conditions": { "type": "string" }
                },
                "required": ["temperature", "humidity", "conditions"]
            }
        }
    })
}

/// Tool number `i`: a city, a unit and a tool-specific filter in; a reading, a station and
/// tags out.
pub fn tool(i: usize) -> Value {
    json!({
        "name": tool_name(i),
        "title": format!("Synthetic tool {i}"),
        "description": format!("Synthetic tool number {i}: looks up a reading for a city."),
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": { "$ref": "common.json#/$defs/City" },
                "unit": { "$ref": "common.json#/$defs/Unit" },
                "days": { "type": "integer", "minimum": 1, "maximum": 14 },
                "filter": {
                    "type": "object",
                    "properties": {
                        "stations": { "type": "array", "items": { "type": "string" } },
                        "min_quality": { "type": "integer", "minimum": 0, "maximum": 100 }
                    },
                    "additionalProperties": false
                }
            },
            "required": ["city"],
            "additionalProperties": false
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "reading": { "$ref": "common.json#/$defs/Reading" },
                "station": { "type": "string" },
                "tags": { "type": "array", "items": { "type": "string" } }
            },
            "required": ["reading", "station"]
        }
    })
}

/// `tool_0000`, `tool_0001`, ...
pub fn tool_name(i: usize) -> String {
    format!("tool_{i:04}")
}

/// Writes `common.json` and `n` tool files into `dir` (created if missing).
pub fn write_schemas(dir: &Path, n: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("a JSON value serializes");
    std::fs::write(dir.join("common.json"), pretty(&common()))?;
    for i in 0..n {
        std::fs::write(dir.join(format!("{}.json", tool_name(i))), pretty(&tool(i)))?;
    }
    Ok(())
}
