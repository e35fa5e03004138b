//! [`JsonSchema`]: what a reference to the JSON Schema 2020-12 metaschema becomes.

use std::fmt;
use std::ops::Deref;

use serde_json::{Map, Value};

/// A JSON Schema, as a tool's argument or result: a JSON object or a boolean.
///
/// A member declared as `{"$ref": "https://json-schema.org/draft/2020-12/schema"}` is this type.
/// The metaschema is built into the validator, so the reference is never fetched; the type
/// holds every object and boolean, and validation against the metaschema (before your code
/// runs, and before a result leaves the server) rejects the objects that are no schema, such
/// as `{"type": 12}`.
///
/// ```
/// use schemcp_runtime::JsonSchema;
/// use serde_json::json;
///
/// let schema: JsonSchema = serde_json::from_value(json!({ "type": "string" })).unwrap();
/// assert_eq!(schema["type"], "string");
/// assert!(serde_json::from_value::<JsonSchema>(json!(12)).is_err());
/// assert_eq!(serde_json::to_value(JsonSchema::from(true)).unwrap(), json!(true));
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(transparent)]
pub struct JsonSchema(Value);

/// A value that cannot be a JSON Schema: neither an object nor a boolean.
#[derive(Debug, Clone, PartialEq)]
pub struct NotASchema {
    kind: &'static str,
}

impl fmt::Display for NotASchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a JSON Schema (an object or a boolean), found {}",
            self.kind
        )
    }
}

impl std::error::Error for NotASchema {}

impl JsonSchema {
    /// The schema as a JSON value.
    pub fn as_value(&self) -> &Value {
        &self.0
    }

    /// The schema, taken out.
    pub fn into_value(self) -> Value {
        self.0
    }
}

impl Deref for JsonSchema {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.0
    }
}

impl TryFrom<Value> for JsonSchema {
    type Error = NotASchema;

    /// ```
    /// use schemcp_runtime::JsonSchema;
    /// let error = JsonSchema::try_from(serde_json::json!("x")).unwrap_err();
    /// assert_eq!(error.to_string(), "expected a JSON Schema (an object or a boolean), found a string");
    /// ```
    fn try_from(value: Value) -> Result<Self, NotASchema> {
        let kind = match &value {
            Value::Object(_) | Value::Bool(_) => return Ok(JsonSchema(value)),
            Value::Null => "null",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
        };
        Err(NotASchema { kind })
    }
}

impl From<bool> for JsonSchema {
    fn from(value: bool) -> Self {
        JsonSchema(Value::Bool(value))
    }
}

impl From<Map<String, Value>> for JsonSchema {
    fn from(object: Map<String, Value>) -> Self {
        JsonSchema(Value::Object(object))
    }
}

impl From<JsonSchema> for Value {
    fn from(schema: JsonSchema) -> Value {
        schema.0
    }
}

impl<'de> serde::Deserialize<'de> for JsonSchema {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::try_from(Value::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn holds_objects_and_booleans_only() {
        for value in [json!({}), json!({ "type": 12 }), json!(true), json!(false)] {
            let schema: JsonSchema = serde_json::from_value(value.clone()).unwrap();
            assert_eq!(serde_json::to_value(&schema).unwrap(), value);
        }
        for value in [json!(null), json!(1), json!("s"), json!([])] {
            assert!(serde_json::from_value::<JsonSchema>(value.clone()).is_err());
            assert!(JsonSchema::try_from(value).is_err());
        }
    }
}
