//! The two kinds of failure: a tool's own (reported to the client as a tool result) and the
//! runtime's (a catalog that cannot be served, a transport that cannot start).

use std::fmt;

/// A tool's own failure. The client receives it as a tool result with `isError: true` whose
/// text is the message, so the model can read it and react; it is never a JSON-RPC error.
///
/// ```
/// use schemcp_runtime::ToolError;
///
/// fn lookup(city: &str) -> Result<i64, ToolError> {
///     match city {
///         "London" => Ok(17),
///         other => Err(ToolError::new(format!("unknown city {other:?}"))),
///     }
/// }
/// assert_eq!(lookup("Paris").unwrap_err().to_string(), "unknown city \"Paris\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    message: String,
    kind: ToolErrorKind,
}

/// Which sentence the runtime wraps the message in: argument problems are reported the same
/// way whether the schema or the deserializer found them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ToolErrorKind {
    Tool,
    InvalidArguments,
    InvalidOutput,
}

impl ToolError {
    /// A failure with this message, shown to the client as is.
    ///
    /// ```
    /// let error = schemcp_runtime::ToolError::new("upstream timed out");
    /// assert_eq!(error.message(), "upstream timed out");
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            kind: ToolErrorKind::Tool,
        }
    }

    /// Arguments the tool cannot use. The runtime reports it as
    /// `invalid arguments for tool NAME: DETAIL`, like a schema violation, so a tool can refuse
    /// combinations its input schema cannot express.
    ///
    /// ```
    /// let error = schemcp_runtime::ToolError::invalid_arguments("/to: must be after /from");
    /// assert!(error.is_invalid_arguments());
    /// ```
    pub fn invalid_arguments(detail: impl Into<String>) -> Self {
        ToolError {
            message: detail.into(),
            kind: ToolErrorKind::InvalidArguments,
        }
    }

    /// A failure built from any error, with its chain of sources, so `map_err(ToolError::from_error)`
    /// keeps the cause that a bare `to_string()` would drop.
    ///
    /// ```
    /// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no forecast file");
    /// let error = schemcp_runtime::ToolError::from_error(&io);
    /// assert_eq!(error.message(), "no forecast file");
    /// ```
    pub fn from_error(error: &(dyn std::error::Error + 'static)) -> Self {
        let mut message = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            let text = cause.to_string();
            // Many errors already repeat their source in their own message.
            if !message.contains(&text) {
                message.push_str(": ");
                message.push_str(&text);
            }
            source = cause.source();
        }
        ToolError::new(message)
    }

    /// The message, without the runtime's framing.
    ///
    /// ```
    /// assert_eq!(schemcp_runtime::ToolError::from("no data").message(), "no data");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether this error says the arguments were unusable.
    ///
    /// ```
    /// assert!(!schemcp_runtime::ToolError::new("down").is_invalid_arguments());
    /// ```
    pub fn is_invalid_arguments(&self) -> bool {
        self.kind == ToolErrorKind::InvalidArguments
    }

    pub(crate) fn invalid_output(detail: impl Into<String>) -> Self {
        ToolError {
            message: detail.into(),
            kind: ToolErrorKind::InvalidOutput,
        }
    }

    /// The text the client reads for this error raised by tool `tool`.
    pub(crate) fn client_text(&self, tool: &str) -> String {
        match self.kind {
            ToolErrorKind::Tool => self.message.clone(),
            ToolErrorKind::InvalidArguments => {
                format!("invalid arguments for tool {tool}: {}", self.message)
            }
            ToolErrorKind::InvalidOutput => format!("output of tool {tool} {}", self.message),
        }
    }
}

impl From<String> for ToolError {
    /// ```
    /// let error: schemcp_runtime::ToolError = format!("{} failed", "lookup").into();
    /// assert_eq!(error.message(), "lookup failed");
    /// ```
    fn from(message: String) -> Self {
        ToolError::new(message)
    }
}

impl From<&str> for ToolError {
    /// ```
    /// let error: schemcp_runtime::ToolError = "offline".into();
    /// assert_eq!(error.message(), "offline");
    /// ```
    fn from(message: &str) -> Self {
        ToolError::new(message)
    }
}

impl From<std::io::Error> for ToolError {
    /// ```
    /// fn read() -> Result<String, schemcp_runtime::ToolError> {
    ///     Ok(std::fs::read_to_string("/no/such/file")?)
    /// }
    /// assert!(read().is_err());
    /// ```
    fn from(error: std::io::Error) -> Self {
        ToolError::from_error(&error)
    }
}

impl From<serde_json::Error> for ToolError {
    /// ```
    /// fn parse(text: &str) -> Result<f64, schemcp_runtime::ToolError> {
    ///     Ok(serde_json::from_str(text)?)
    /// }
    /// assert!(parse("{").is_err());
    /// ```
    fn from(error: serde_json::Error) -> Self {
        ToolError::from_error(&error)
    }
}

impl From<Box<dyn std::error::Error + Send + Sync>> for ToolError {
    /// ```
    /// let boxed: Box<dyn std::error::Error + Send + Sync> = "boom".into();
    /// assert_eq!(schemcp_runtime::ToolError::from(boxed).message(), "boom");
    /// ```
    fn from(error: Box<dyn std::error::Error + Send + Sync>) -> Self {
        ToolError::from_error(&*error)
    }
}

/// Why the runtime could not serve: a catalog it cannot use, or a transport that failed.
///
/// ```
/// fn report(result: Result<(), schemcp_runtime::Error>) {
///     if let Err(error) = result {
///         eprintln!("error: {error}");
///     }
/// }
/// report(Ok(()));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The embedded catalog is malformed (a generator bug, or a hand-written `ToolSet`).
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// Binding, accepting or reading failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The MCP session could not start (for example the first message was not a valid
    /// `initialize`, `server/discover` or 2026-07-28 request).
    #[error("the MCP session could not start: {0}")]
    Initialize(#[source] Box<rmcp::service::ServerInitializeError>),
    /// The task running the MCP session failed.
    #[error("the MCP session task failed: {0}")]
    Session(#[source] tokio::task::JoinError),
}

/// What is wrong with a catalog, naming the tool and the schema where that applies.
///
/// ```
/// struct Broken;
/// impl schemcp_runtime::ToolSet for Broken {
///     fn catalog(&self) -> &'static str { r#"{"tools":[{"name":"x"}]}"# }
///     fn call<'a>(
///         &'a self,
///         _: usize,
///         _: serde_json::Value,
///         _: &'a schemcp_runtime::ToolContext,
///     ) -> futures::future::BoxFuture<'a, Result<schemcp_runtime::Returned, schemcp_runtime::ToolError>> {
///         unreachable!()
///     }
/// }
/// let error = schemcp_runtime::McpServer::try_new(Broken).err().unwrap();
/// assert!(error.to_string().contains("inputSchema"), "{error}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogError {
    tool: Option<String>,
    message: String,
}

impl CatalogError {
    pub(crate) fn new(tool: Option<&str>, message: impl Into<String>) -> Self {
        CatalogError {
            tool: tool.map(str::to_string),
            message: message.into(),
        }
    }

    /// The tool the problem is in, when it is in one tool.
    ///
    /// ```
    /// # struct Broken;
    /// # impl schemcp_runtime::ToolSet for Broken {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[{"name":"x"}]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a schemcp_runtime::ToolContext)
    /// #     -> futures::future::BoxFuture<'a, Result<schemcp_runtime::Returned, schemcp_runtime::ToolError>> { unreachable!() }
    /// # }
    /// let error = schemcp_runtime::McpServer::try_new(Broken).err().unwrap();
    /// # let schemcp_runtime::Error::Catalog(error) = error else { panic!() };
    /// assert_eq!(error.tool(), Some("x"));
    /// ```
    pub fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.tool {
            Some(tool) => write!(f, "invalid tool catalog: tool {tool}: {}", self.message),
            None => write!(f, "invalid tool catalog: {}", self.message),
        }
    }
}

impl std::error::Error for CatalogError {}
