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
//! #[tokio::main]
//! async fn main() -> Result<(), schemcp_runtime::Error> {
//!     schemcp_runtime::serve_stdio(tools::server(Weather).with_info("weather", "1.0.0")).await
//! }
//! ```

#![warn(missing_docs)]

mod catalog;
mod context;
mod error;
mod output;
mod server;
mod transport;

pub use context::ToolContext;
pub use error::{CatalogError, Error, ToolError};
pub use output::{Output, Returned};
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
    pub fn decode_arguments<T: serde::de::DeserializeOwned>(
        arguments: serde_json::Value,
    ) -> Result<T, ToolError> {
        serde_json::from_value(arguments)
            .map_err(|error| ToolError::invalid_arguments(error.to_string()))
    }
}
