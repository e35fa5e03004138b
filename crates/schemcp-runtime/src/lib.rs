//! The runtime that schemcp-generated tool sets target, on top of rmcp.
//!
//! Generated code (included with [`include_tools!`]) implements [`ToolSet`] for a
//! `Dispatch<T>` over the user's `Tools` trait; [`McpServer`] serves it:
//!
//! - `tools/list` answers the embedded catalog verbatim to 2026-07-28 clients, and to older
//!   clients with every non-object output schema wrapped as
//!   `{"type":"object","properties":{"result": S},"required":["result"]}`;
//! - `tools/call` validates the arguments against the input schema before any code runs, calls
//!   the tool (a panic becomes an error result), validates the structured result against the
//!   output schema, and shapes `structuredContent` and `content` for the client's protocol
//!   version;
//! - [`serve_stdio`] and [`serve_http`] are the entry points.
//!
//! The runtime logs with `tracing` only; stdout belongs to the stdio transport.
//!
//! ```no_run
//! mod tools {
//! #   /*
//!     schemcp_runtime::include_tools!();
//! #   */
//! #   pub struct Weather;
//! #   pub fn server(_: Weather) -> schemcp_runtime::McpServer<Dispatch> { schemcp_runtime::McpServer::new(Dispatch) }
//! #   pub struct Dispatch;
//! #   impl schemcp_runtime::ToolSet for Dispatch {
//! #       fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
//! #       fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a schemcp_runtime::ToolContext)
//! #       -> schemcp_runtime::__private::BoxFuture<'a, Result<schemcp_runtime::Returned, schemcp_runtime::ToolError>> { unreachable!() }
//! #   }
//! }
//! # use tools::Weather;
//!
//! #[tokio::main(flavor = "current_thread")] // one stdio client: see `serve_stdio`
//! async fn main() -> Result<(), schemcp_runtime::Error> {
//!     schemcp_runtime::serve_stdio(tools::server(Weather).with_info("weather", "1.0.0")).await
//! }
//! ```

#![warn(missing_docs)]

mod cached_list;
mod call_answer;
mod catalog;
mod context;
mod error;
mod fast_calls;
mod json_schema;
pub mod other_kinds;
mod outbox;
mod output;
pub mod prefix_items;
mod server;
mod transport;
pub mod unions;

pub use context::ToolContext;
pub use error::{CatalogError, Error, ToolError};
pub use json_schema::{JsonSchema, NotASchema};
pub use output::{Output, Returned};
#[doc(hidden)]
pub use server::Stages;
pub use server::{McpServer, NoHandler, ToolSet};
pub use transport::{
    HttpOptions, http_router, serve_http, serve_http_on, serve_http_with, serve_io, serve_stdio,
};

/// rmcp, as this crate uses it, so a user composing their own handler with
/// [`McpServer::with_handler`] gets exactly the matching version.
///
/// ```
/// use schemcp_runtime::rmcp::ServerHandler;
/// # let _ = schemcp_runtime::NoHandler.get_info();
/// ```
pub use rmcp;

/// Includes the code `schemcp-build` generated into `OUT_DIR`: `schemcp_tools.rs`, or
/// `NAME.rs` for `include_tools!("NAME")` (the builder's `module_name`). Put it in its own
/// module.
///
/// ```ignore
/// mod tools {
///     schemcp_runtime::include_tools!();
/// }
/// mod weather {
///     schemcp_runtime::include_tools!("weather_tools");
/// }
/// ```
#[macro_export]
macro_rules! include_tools {
    () => {
        ::core::include!(::core::concat!(
            ::core::env!("OUT_DIR"),
            "/schemcp_tools.rs"
        ));
    };
    ($name:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $name, ".rs"));
    };
}

/// `error` prefixed with the JSON pointer of the member `path` leads to, as validation errors
/// are (`/trips/1/day: ...`); a path that leaves the JSON behind (an untagged enum's buffered
/// content) stops at the last member it knows.
pub(crate) fn located(path: &serde_path_to_error::Path, error: &impl std::fmt::Display) -> String {
    use serde_path_to_error::Segment;
    // The pointer type validation errors carry, so both are written alike.
    let mut at = jsonschema::paths::Location::new();
    for segment in path.iter() {
        at = match segment {
            Segment::Seq { index } => at.join(*index),
            // An externally tagged variant is a member named after it.
            Segment::Map { key } | Segment::Enum { variant: key } => at.join(key),
            Segment::Unknown => break,
        };
    }
    let pointer = at.to_string();
    if pointer.is_empty() {
        error.to_string()
    } else {
        format!("{pointer}: {error}")
    }
}

/// What generated code refers to, so a user's crate needs no direct dependency on these.
/// Not a stable API: only generated code should use it.
#[doc(hidden)]
pub mod __private {
    pub use chrono;
    pub use futures::future::BoxFuture;
    pub use regress;
    pub use serde;
    pub use serde_json;
    pub use uuid;

    use crate::ToolError;

    /// Deserializes a member that is present, `null` included, as `Some`: generated code puts
    /// it on optional members whose type can hold `null` (`Option<Value>`,
    /// `Option<Option<T>>`), where serde alone would read an explicit `null` as absent and
    /// drop it when the value is sent back.
    ///
    /// ```
    /// use schemcp_runtime::__private::{serde, serde_json::{self, json, Value}};
    /// #[derive(serde::Deserialize, serde::Serialize)]
    /// #[serde(crate = "schemcp_runtime::__private::serde")]
    /// struct Input {
    ///     #[serde(
    ///         default,
    ///         deserialize_with = "schemcp_runtime::__private::present",
    ///         skip_serializing_if = "Option::is_none"
    ///     )]
    ///     note: Option<Value>,
    /// }
    /// for sent in [json!({ "note": null }), json!({})] {
    ///     let input: Input = serde_json::from_value(sent.clone()).unwrap();
    ///     assert_eq!(serde_json::to_value(&input).unwrap(), sent);
    /// }
    /// ```
    pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        T::deserialize(deserializer).map(Some)
    }

    /// Deserializes validated arguments into the tool's input type. The schema already
    /// accepted them, so a failure means the type is stricter than the schema; the message
    /// names the field serde reports.
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Input { days: u8 }
    /// let error = schemcp_runtime::__private::decode_arguments::<Input>(serde_json::json!({}))
    ///     .err()
    ///     .unwrap();
    /// assert!(error.to_string().contains("days"), "{error}");
    /// ```
    ///
    /// JSON Schema counts `1.0` as an integer and as equal to `1`, while serde's integer types
    /// reject it: when the arguments do not deserialize as sent, every number with a zero
    /// fractional part is written as an integer and they are tried once more. The typed value
    /// then equals what was sent (as JSON Schema compares numbers), only written differently.
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Input { days: u8, scale: f64 }
    /// let input: Input = schemcp_runtime::__private::decode_arguments(
    ///     serde_json::json!({ "days": 3.0, "scale": 2.0 }),
    /// )
    /// .unwrap();
    /// assert_eq!((input.days, input.scale), (3, 2.0));
    /// let error = schemcp_runtime::__private::decode_arguments::<Input>(
    ///     serde_json::json!({ "days": 3.5, "scale": 2.0 }),
    /// )
    /// .err()
    /// .unwrap();
    /// assert!(error.to_string().contains("3.5"), "{error}");
    /// ```
    ///
    /// A failure names the member it stopped at as a JSON pointer, like validation errors do
    /// (the arguments are read once more to find it, on the failure path only):
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Input { trips: Vec<Trip> }
    /// #[derive(serde::Deserialize)]
    /// struct Trip { day: u8 }
    /// let error = schemcp_runtime::__private::decode_arguments::<Input>(
    ///     serde_json::json!({ "trips": [{ "day": 1 }, { "day": 300 }] }),
    /// )
    /// .err()
    /// .unwrap();
    /// assert!(error.to_string().contains("/trips/1/day: invalid value: integer `300`"), "{error}");
    /// ```
    pub fn decode_arguments<T: serde::de::DeserializeOwned>(
        mut arguments: serde_json::Value,
    ) -> Result<T, ToolError> {
        let error = match T::deserialize(&arguments) {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let sent = arguments.clone();
        if integral_floats_to_integers(&mut arguments)
            && let Ok(value) = T::deserialize(&arguments)
        {
            return Ok(value);
        }
        let detail = match serde_path_to_error::deserialize::<_, T>(&sent) {
            Err(located) => crate::located(located.path(), located.inner()),
            // Not reproduced (a `Deserialize` impl that is not deterministic): as it came.
            Ok(_) => error.to_string(),
        };
        Err(ToolError::invalid_arguments(detail))
    }

    /// Rewrites every float with a zero fractional part that fits an `i64` or a `u64` as that
    /// integer; `true` when something changed.
    fn integral_floats_to_integers(value: &mut serde_json::Value) -> bool {
        use serde_json::Value;
        match value {
            Value::Number(n) => {
                let Some(f) = n.as_f64().filter(|f| n.is_f64() && f.fract() == 0.0) else {
                    return false;
                };
                // `as` saturates, so the round trip through f64 checks the range exactly.
                let integer = if f < 0.0 && (f as i64) as f64 == f {
                    serde_json::Number::from(f as i64)
                } else if f >= 0.0 && (f as u64) as f64 == f && f < 18446744073709551616.0 {
                    serde_json::Number::from(f as u64)
                } else {
                    return false;
                };
                *n = integer;
                true
            }
            Value::Array(items) => items.iter_mut().fold(false, |changed, item| {
                integral_floats_to_integers(item) | changed
            }),
            Value::Object(members) => members.values_mut().fold(false, |changed, member| {
                integral_floats_to_integers(member) | changed
            }),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::__private::decode_arguments;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Trip {
        date: chrono::NaiveDate,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Input {
        trips: Vec<Trip>,
        #[serde(rename = "a/b")]
        odd: Option<u8>,
    }

    #[test]
    fn a_type_stricter_than_its_schema_names_the_member() {
        let error = |sent| {
            decode_arguments::<Input>(sent)
                .unwrap_err()
                .client_text("t")
        };
        let message = error(json!({ "trips": [{ "date": "2026-12-03" }, { "date": "soon" }] }));
        assert!(
            message.contains("/trips/1/date: input contains invalid characters"),
            "{message}"
        );
        let message = error(json!({ "trips": [], "a/b": 256 }));
        assert!(
            message.contains("/a~1b: invalid value: integer `256`"),
            "{message}"
        );
        // At the root there is no member to name.
        let message = error(json!({}));
        assert!(message.ends_with("missing field `trips`"), "{message}");
    }
}
