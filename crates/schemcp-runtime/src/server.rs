//! `McpServer`: the rmcp `ServerHandler` that serves a generated tool set, validating every
//! call and shaping every result for the client's protocol generation.

#![expect(
    deprecated,
    reason = "every ServerHandler method is delegated, deprecated ones too"
)]

use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures::FutureExt;
use futures::future::BoxFuture;
use rmcp::ErrorData as McpError;
use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    CancelledNotificationParam, CompleteRequestParams, CompleteResult, ContentBlock,
    CustomNotification, CustomRequest, CustomResult, DiscoverResult, GetPromptRequestParams,
    GetPromptResponse, GetSkillRequestParams, GetSkillResult, GetTaskParams, GetTaskResult,
    Implementation, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, RequestId, ServerCapabilities, ServerConfig, ServerJsonRpcMessage,
    ServerResult, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter, Tool,
    ToolsCapability, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{
    MaybeSendFuture, NotificationContext, RequestContext, RoleServer, SubscriptionContext,
};
use serde_json::Value;
use tokio::sync::Notify;

use crate::call_answer;
use crate::catalog::{Catalog, Entry, violations};
use crate::context::{ToolContext, is_modern};
use crate::output::{Body, Returned};
use crate::{Error, ToolError};

/// A set of tools the runtime can serve. Implemented by generated code (`Dispatch<T>`), never
/// by hand outside tests: the catalog and the dispatch must agree index for index.
///
/// ```
/// use futures::future::BoxFuture;
/// use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
///
/// struct Echo;
///
/// impl ToolSet for Echo {
///     fn catalog(&self) -> &'static str {
///         r#"{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}"#
///     }
///
///     fn call<'a>(
///         &'a self,
///         index: usize,
///         arguments: serde_json::Value,
///         _cx: &'a ToolContext,
///     ) -> BoxFuture<'a, Result<Returned, ToolError>> {
///         match index {
///             0 => Box::pin(async move {
///                 let text = arguments["text"].as_str().unwrap_or_default().to_string();
///                 Ok(Returned::text(text))
///             }),
///             _ => Box::pin(async move { Err(ToolError::new("no such tool")) }),
///         }
///     }
/// }
///
/// let server = McpServer::new(Echo);
/// assert_eq!(server.tools().len(), 1);
/// ```
pub trait ToolSet: Send + Sync + 'static {
    /// The `tools.json` catalog text embedded in generated code: `{"tools":[Tool, ...]}`, each
    /// Tool an MCP Tool object (name, title?, description?, inputSchema, outputSchema?,
    /// annotations?, _meta?, icons?) exactly as a 2026-07-28 client receives it, key order as
    /// written.
    fn catalog(&self) -> &'static str;

    /// Call the tool at `index` (its position in the catalog's `tools` array) with arguments
    /// that already passed input validation.
    fn call<'a>(
        &'a self,
        index: usize,
        arguments: Value,
        cx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<Returned, ToolError>>;
}

/// The default inner handler: no prompts, resources, completion or logging. Its `get_info`
/// names this crate so a server without [`McpServer::with_info`] still identifies itself.
///
/// ```
/// use rmcp::ServerHandler;
/// let info = schemcp_runtime::NoHandler.get_info();
/// assert_eq!(info.server_info.name, "schemcp-runtime");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHandler;

impl ServerHandler for NoHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::default()).with_server_info(Implementation::new(
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION"),
        ))
    }
}

/// An MCP server for a generated tool set, optionally composed with a hand-written rmcp
/// handler `H` for everything that is not a tool.
///
/// Cheap to clone: the parsed catalog, compiled validators and precomputed `tools/list`
/// answers are shared. It implements rmcp's [`ServerHandler`], so besides
/// [`serve_stdio`](crate::serve_stdio) and [`serve_http`](crate::serve_http) it can be served
/// with any rmcp transport.
///
/// ```
/// # use futures::future::BoxFuture;
/// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
/// # struct Tools;
/// # impl ToolSet for Tools {
/// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
/// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
/// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
/// # }
/// let server = McpServer::new(Tools)
///     .with_info("weather", "1.2.0")
///     .with_instructions("Ask for one city at a time.");
/// # let _ = server;
/// ```
pub struct McpServer<S, H = NoHandler> {
    shared: Arc<Shared<S>>,
    handler: Arc<H>,
    info: Arc<Identity>,
    /// Set on the copy a byte-stream transport serves: that transport writes the text blocks
    /// of structured results itself (`call_answer`), so `shape` leaves a placeholder.
    text_by_transport: bool,
}

/// What `with_info` and `with_instructions` set; kept apart from the tool state so changing it
/// never requires `S: Clone`.
#[derive(Clone, Default)]
struct Identity {
    server_info: Option<Implementation>,
    /// What `with_default_info` set: used where neither `with_info` nor the inner handler
    /// names the server.
    default_info: Option<Implementation>,
    instructions: Option<String>,
}

struct Shared<S> {
    tools: S,
    catalog: Catalog,
    in_flight: InFlight,
}

impl<S, H> Clone for McpServer<S, H> {
    fn clone(&self) -> Self {
        McpServer {
            shared: self.shared.clone(),
            handler: self.handler.clone(),
            info: self.info.clone(),
            text_by_transport: self.text_by_transport,
        }
    }
}

impl<S: ToolSet> McpServer<S> {
    /// Parses the catalog, compiles its schemas and precomputes both `tools/list` answers.
    ///
    /// # Panics
    ///
    /// If the catalog is malformed. Generated code embeds a catalog the generator already
    /// checked, so this is a generator bug; use [`McpServer::try_new`] to handle it.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// let server = McpServer::new(Tools);
    /// assert!(server.tools().is_empty());
    /// ```
    pub fn new(tools: S) -> Self {
        match Self::try_new(tools) {
            Ok(server) => server,
            Err(error) => panic!("schemcp-runtime: {error}"),
        }
    }

    /// Like [`McpServer::new`], returning the catalog problem instead of panicking.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Bad;
    /// # impl ToolSet for Bad {
    /// #     fn catalog(&self) -> &'static str { "not json" }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// assert!(McpServer::try_new(Bad).is_err());
    /// ```
    pub fn try_new(tools: S) -> Result<Self, Error> {
        let catalog = Catalog::parse(tools.catalog())?;
        Ok(McpServer {
            shared: Arc::new(Shared {
                tools,
                catalog,
                in_flight: InFlight::default(),
            }),
            handler: Arc::new(NoHandler),
            info: Arc::new(Identity::default()),
            text_by_transport: false,
        })
    }
}

impl<S: ToolSet, H: ServerHandler> McpServer<S, H> {
    /// Sets the `serverInfo` name and version clients see.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// use rmcp::ServerHandler;
    /// let server = McpServer::new(Tools).with_info("weather", "1.0.0");
    /// assert_eq!(server.get_info().server_info.name, "weather");
    /// ```
    pub fn with_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.info).server_info = Some(Implementation::new(name, version));
        self
    }

    /// Sets the `serverInfo` name and version clients see unless [`McpServer::with_info`] sets
    /// one or the inner handler ([`McpServer::with_handler`]) names itself. The generated
    /// `server()` calls it with the name and version of the package that includes the
    /// generated code.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// use rmcp::ServerHandler;
    /// let server = McpServer::new(Tools).with_default_info("weather", "1.0.0");
    /// assert_eq!(server.get_info().server_info.name, "weather");
    /// let server = server.with_info("forecasts", "2.0.0");
    /// assert_eq!(server.get_info().server_info.name, "forecasts");
    /// ```
    pub fn with_default_info(
        mut self,
        name: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        Arc::make_mut(&mut self.info).default_info = Some(Implementation::new(name, version));
        self
    }

    /// Sets the `instructions` clients see (placed before the inner handler's own, if any).
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// use rmcp::ServerHandler;
    /// let server = McpServer::new(Tools).with_instructions("One city per call.");
    /// assert_eq!(server.get_info().instructions.as_deref(), Some("One city per call."));
    /// ```
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.info).instructions = Some(instructions.into());
        self
    }

    /// Serves `handler`'s prompts, resources, completion, logging and every other non-tool
    /// method from the same server. Capabilities are merged: the handler's, plus tools.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// use rmcp::ServerHandler;
    /// use rmcp::model::{ServerCapabilities, ServerConfig};
    ///
    /// struct Prompts;
    /// impl ServerHandler for Prompts {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    ///     }
    /// }
    ///
    /// let server = McpServer::new(Tools).with_handler(Prompts);
    /// let capabilities = server.get_info().capabilities;
    /// assert!(capabilities.prompts.is_some() && capabilities.tools.is_some());
    /// ```
    pub fn with_handler<H2: ServerHandler>(self, handler: H2) -> McpServer<S, H2> {
        McpServer {
            shared: self.shared,
            handler: Arc::new(handler),
            info: self.info,
            text_by_transport: self.text_by_transport,
        }
    }

    /// The inner handler.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// let server = McpServer::new(Tools);
    /// let _: &schemcp_runtime::NoHandler = server.handler();
    /// ```
    pub fn handler(&self) -> &H {
        &self.handler
    }

    /// The tool set.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// let server = McpServer::new(Tools);
    /// assert_eq!(server.tool_set().catalog(), r#"{"tools":[]}"#);
    /// ```
    pub fn tool_set(&self) -> &S {
        &self.shared.tools
    }

    /// The tools exactly as a 2026-07-28 client receives them in `tools/list`.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// assert_eq!(McpServer::new(Tools).tools()[0].name, "t");
    /// ```
    pub fn tools(&self) -> &[Tool] {
        &self.shared.catalog.modern
    }

    /// The tools as a client before 2026-07-28 receives them: non-object output schemas
    /// wrapped under `result`.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"integer"}}]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// let server = McpServer::new(Tools);
    /// assert_eq!(server.legacy_tools()[0].output_schema.as_ref().unwrap()["type"], "object");
    /// ```
    pub fn legacy_tools(&self) -> &[Tool] {
        &self.shared.catalog.legacy
    }

    /// This server for a transport that writes the text blocks of structured results itself
    /// (see `call_answer`).
    pub(crate) fn with_text_by_transport(mut self) -> Self {
        self.text_by_transport = true;
        self
    }

    /// Both generations' `tools/list` catalogs, for transports that serialize them once.
    pub(crate) fn catalogs(&self) -> [Arc<[Tool]>; 2] {
        let catalog = &self.shared.catalog;
        [catalog.modern.clone(), catalog.legacy.clone()]
    }

    /// The runtime's own per-call stages, one at a time and without a transport or a tool, for
    /// the micro-benchmarks in `examples/weather/benches`. Not a stable API.
    #[doc(hidden)]
    pub fn __stages(&self, tool: &str) -> Option<Stages<'_>> {
        let catalog = &self.shared.catalog;
        let index = *catalog.by_name.get(tool)?;
        Some(Stages {
            entry: &catalog.entries[index],
        })
    }

    /// Resolves once no `tools/call` is running, so a shutdown can let in-flight calls finish
    /// before closing connections.
    ///
    /// ```
    /// # use futures::future::BoxFuture;
    /// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
    /// # struct Tools;
    /// # impl ToolSet for Tools {
    /// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
    /// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
    /// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// McpServer::new(Tools).calls_finished().await;
    /// # });
    /// ```
    pub async fn calls_finished(&self) {
        self.shared.in_flight.idle().await;
    }

    /// Validates, calls and shapes one `tools/call`. Only an unknown tool is a JSON-RPC error;
    /// every other failure is a result with `isError: true` the model can read.
    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let catalog = &self.shared.catalog;
        let Some(&index) = catalog.by_name.get(request.name.as_ref()) else {
            return Err(McpError::invalid_params(
                format!("unknown tool: {}", request.name),
                None,
            ));
        };
        let entry = &catalog.entries[index];
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        if let Some(problems) = violations(&entry.input, &arguments) {
            let error = ToolError::invalid_arguments(problems);
            return Ok(tool_error(entry, &error));
        }
        let cx = ToolContext::new(context);
        let legacy = cx.is_legacy();
        let _running = self.shared.in_flight.enter();
        let call = self.shared.tools.call(index, arguments, &cx);
        Ok(match contained(entry, call).await {
            Ok(returned) => shape(entry, returned, legacy, self.text_by_transport),
            Err(failed) => failed,
        })
    }

    /// Our identity and capabilities laid over the inner handler's.
    fn merged_info(&self) -> ServerConfig {
        let mut info = self.handler.get_info();
        info.capabilities
            .tools
            .get_or_insert_with(ToolsCapability::default);
        if let Some(server_info) = &self.info.server_info {
            info.server_info = server_info.clone();
        } else if let Some(default) = &self.info.default_info {
            // A handler that does not name itself reports rmcp's own name (`Implementation`'s
            // default) or, for `NoHandler`, this crate's.
            let unnamed = info.server_info == Implementation::default()
                || info.server_info == NoHandler.get_info().server_info;
            if unnamed {
                info.server_info = default.clone();
            }
        }
        if let Some(ours) = &self.info.instructions {
            info.instructions = Some(match info.instructions.take() {
                Some(theirs) => format!("{ours}\n\n{theirs}"),
                None => ours.clone(),
            });
        }
        info
    }

    fn patch_initialize(&self, mut result: InitializeResult) -> InitializeResult {
        let info = self.merged_info();
        result.capabilities = info.capabilities;
        result.server_info = info.server_info;
        result.instructions = info.instructions;
        result
    }
}

/// One tool's per-call stages, exactly as [`McpServer`] runs them for `tools/call` (see
/// [`McpServer::__stages`]). Not a stable API.
#[doc(hidden)]
pub struct Stages<'a> {
    entry: &'a Entry,
}

impl Stages<'_> {
    /// Validates arguments against the input schema: `None` when valid, else the problems.
    pub fn validate_arguments(&self, arguments: &Value) -> Option<String> {
        violations(&self.entry.input, arguments)
    }

    /// Validates a structured result against the output schema (the tool must declare one).
    pub fn validate_result(&self, value: &Value) -> Option<String> {
        violations(self.entry.output.as_ref()?, value)
    }

    /// Output validation, content shaping and version-aware wrapping of what a tool returned,
    /// as over Streamable HTTP: the text blocks are in the result.
    pub fn shape(&self, returned: Returned, legacy: bool) -> CallToolResult {
        shape(self.entry, returned, legacy, false)
    }

    /// The answer line a byte-stream transport writes for what a tool returned: validation,
    /// shaping and wrapping as [`Stages::shape`], the text blocks written from the printed
    /// `structuredContent` (see `call_answer`).
    pub fn answer_line(&self, id: RequestId, returned: Returned, legacy: bool) -> Vec<u8> {
        let result = shape(self.entry, returned, legacy, true);
        let mut message = ServerJsonRpcMessage::response(ServerResult::CallToolResult(result), id);
        match call_answer::written_answer(&mut message) {
            Some(line) => line,
            None => rmcp_line(&message),
        }
    }

    /// The answer line rmcp's transport writes for `result`, as it serializes every message.
    pub fn rmcp_answer_line(&self, id: RequestId, result: CallToolResult) -> Vec<u8> {
        rmcp_line(&ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(result),
            id,
        ))
    }

    /// The text blocks the model reads for a structured value.
    pub fn content_for(&self, value: &Value) -> Vec<ContentBlock> {
        content_for(value)
    }
}

fn rmcp_line(message: &ServerJsonRpcMessage) -> Vec<u8> {
    let mut line = serde_json::to_vec(message).expect("rmcp's messages serialize");
    line.push(b'\n');
    line
}

/// Counts running tool calls so shutdown can wait for them.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

/// Leaves the in-flight count when dropped, so a panicking or cancelled call is still counted
/// out.
struct Running<'a>(&'a InFlight);

impl InFlight {
    fn enter(&self) -> Running<'_> {
        self.count.fetch_add(1, Ordering::SeqCst);
        Running(self)
    }

    async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            // Registered before the check, so a call finishing in between still wakes us.
            notified.as_mut().enable();
            if self.count.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// Runs a tool future, turning its error or panic into the error result the client reads.
/// A panic is caught here so one broken tool cannot take the session (or, over HTTP, the
/// connection's task) down with it.
async fn contained(
    entry: &Entry,
    call: impl Future<Output = Result<Returned, ToolError>>,
) -> Result<Returned, CallToolResult> {
    match AssertUnwindSafe(call).catch_unwind().await {
        Ok(Ok(returned)) => Ok(returned),
        Ok(Err(error)) => Err(tool_error(entry, &error)),
        Err(panic) => {
            let message = panic_message(panic.as_ref());
            tracing::error!(tool = %entry.name, panic = %message, "tool panicked");
            Err(error_result(format!(
                "tool {} panicked: {message}",
                entry.name
            )))
        }
    }
}

fn error_result(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

fn tool_error(entry: &Entry, error: &ToolError) -> CallToolResult {
    error_result(error.client_text(&entry.name))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_string()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "a non-string panic payload".to_string()
    }
}

/// Turns what the tool returned into the result the client receives: validated against the
/// output schema, `structuredContent` wrapped for legacy clients when the tool's schema is,
/// and `content` text for the model.
///
/// With `text_by_transport`, the text blocks of a structured result are left to the
/// transport: a placeholder stands first in `content` (see `call_answer`).
pub(crate) fn shape(
    entry: &Entry,
    returned: Returned,
    legacy: bool,
    text_by_transport: bool,
) -> CallToolResult {
    let Returned { body, meta, extra } = returned;
    let (structured, mut content) = match (body, &entry.output) {
        (Body::Structured(value), Some(validator)) => {
            if let Some(problems) = violations(validator, &value) {
                let error = ToolError::invalid_output(format!(
                    "does not match its outputSchema: {problems}"
                ));
                let text = error.client_text(&entry.name);
                tracing::warn!(tool = %entry.name, "{text}");
                return error_result(text);
            }
            let wrapped = legacy && entry.wrapped_for_legacy;
            let content = if text_by_transport {
                vec![call_answer::pending(wrapped)]
            } else {
                content_for(&value)
            };
            let structured = if wrapped {
                Value::Object(serde_json::Map::from_iter([("result".to_string(), value)]))
            } else {
                value
            };
            (Some(structured), content)
        }
        (Body::Text(text), None) => (None, vec![ContentBlock::text(text)]),
        (Body::Structured(_), None) => {
            return generator_bug(
                entry,
                "returned structured output but declares no outputSchema",
            );
        }
        (Body::Text(_), Some(_)) => {
            return generator_bug(entry, "returned text but declares an outputSchema");
        }
    };
    content.extend(extra);
    let mut result = CallToolResult::success(content);
    result.structured_content = structured;
    result.meta = meta;
    result
}

fn generator_bug(entry: &Entry, what: &str) -> CallToolResult {
    let text = format!("tool {} {what} (a schemcp code generation bug)", entry.name);
    tracing::error!(tool = %entry.name, "{text}");
    error_result(text)
}

/// The text blocks the model reads for a structured value: a string as is, an array as one
/// block per item, `null` as nothing, anything else as pretty JSON.
pub(crate) fn content_for(value: &Value) -> Vec<ContentBlock> {
    match value {
        Value::Null => Vec::new(),
        Value::String(text) => vec![ContentBlock::text(text.clone())],
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => ContentBlock::text(text.clone()),
                other => ContentBlock::text(pretty(other)),
            })
            .collect(),
        other => vec![ContentBlock::text(pretty(other))],
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

impl<S: ToolSet, H: ServerHandler> ServerHandler for McpServer<S, H> {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        // Boxed: rmcp spawns a task per request whose future holds this one, and moves it
        // by value several times; a small pointer instead of the whole call state cuts
        // those copies.
        Box::pin(self.call(request, context))
            .await
            .map(CallToolResponse::Complete)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let catalog = &self.shared.catalog;
        let tools = if is_modern(context.protocol_version().as_ref()) {
            &catalog.modern
        } else {
            &catalog.legacy
        };
        Ok(ListToolsResult::with_all_items(tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let catalog = &self.shared.catalog;
        catalog
            .by_name
            .get(name)
            .map(|&index| catalog.modern[index].clone())
    }

    fn get_info(&self) -> ServerConfig {
        self.merged_info()
    }

    // The inner handler runs its own `initialize` (user side effects such as recording the
    // client), but its answer would advertise its own capabilities only; ours are laid over.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        let result = self.handler.initialize(request, context).await?;
        Ok(self.patch_initialize(result))
    }

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, McpError> {
        self.handler
            .negotiate_initialize(request)
            .map(|result| self.patch_initialize(result))
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, McpError> {
        let mut result = self.handler.discover(context).await?;
        let info = self.merged_info();
        result.capabilities = info.capabilities;
        result.instructions = info.instructions;
        result.set_server_info(info.server_info);
        Ok(result)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.handler.supported_protocol_versions()
    }

    fn ping(
        &self,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), McpError>> + MaybeSendFuture + '_ {
        self.handler.ping(context)
    }

    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CompleteResult, McpError>> + MaybeSendFuture + '_ {
        self.handler.complete(request, context)
    }

    fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), McpError>> + MaybeSendFuture + '_ {
        self.handler.set_level(request, context)
    }

    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetPromptResponse, McpError>> + MaybeSendFuture + '_ {
        self.handler.get_prompt(request, context)
    }

    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListPromptsResult, McpError>> + MaybeSendFuture + '_ {
        self.handler.list_prompts(request, context)
    }

    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourcesResult, McpError>> + MaybeSendFuture + '_ {
        self.handler.list_resources(request, context)
    }

    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourceTemplatesResult, McpError>> + MaybeSendFuture + '_
    {
        self.handler.list_resource_templates(request, context)
    }

    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceResponse, McpError>> + MaybeSendFuture + '_ {
        self.handler.read_resource(request, context)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.handler.accepted_subscription_filter(requested)
    }

    fn listen(
        &self,
        context: SubscriptionContext,
    ) -> impl Future<Output = Result<(), McpError>> + MaybeSendFuture + '_ {
        self.handler.listen(context)
    }

    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), McpError>> + MaybeSendFuture + '_ {
        self.handler.subscribe(request, context)
    }

    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), McpError>> + MaybeSendFuture + '_ {
        self.handler.unsubscribe(request, context)
    }

    fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CustomResult, McpError>> + MaybeSendFuture + '_ {
        self.handler.on_custom_request(request, context)
    }

    fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        self.handler.on_cancelled(notification, context)
    }

    fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        self.handler.on_progress(notification, context)
    }

    fn on_initialized(
        &self,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        self.handler.on_initialized(context)
    }

    fn on_roots_list_changed(
        &self,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        self.handler.on_roots_list_changed(context)
    }

    fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
        self.handler.on_custom_notification(notification, context)
    }

    fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetTaskResult, McpError>> + MaybeSendFuture + '_ {
        self.handler.get_task(request, context)
    }

    fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), McpError>> + MaybeSendFuture + '_ {
        self.handler.update_task(request, context)
    }

    fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), McpError>> + MaybeSendFuture + '_ {
        self.handler.cancel_task(request, context)
    }

    fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListSkillsResult, McpError>> + MaybeSendFuture + '_ {
        self.handler.list_skills(request, context)
    }

    fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetSkillResult, McpError>> + MaybeSendFuture + '_ {
        self.handler.get_skill(request, context)
    }

    fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceDirectoryResult, McpError>> + MaybeSendFuture + '_
    {
        self.handler.read_resource_directory(request, context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::MetaObject;
    use serde_json::json;

    fn shape(entry: &Entry, returned: Returned, legacy: bool) -> CallToolResult {
        super::shape(entry, returned, legacy, false)
    }

    fn entry(output: Option<Value>, wrapped_for_legacy: bool) -> Entry {
        Entry {
            name: "t".into(),
            input: jsonschema::validator_for(&json!({ "type": "object" })).unwrap(),
            output: output.map(|schema| jsonschema::validator_for(&schema).unwrap()),
            wrapped_for_legacy,
        }
    }

    fn json_of(result: &CallToolResult) -> Value {
        serde_json::to_value(result).unwrap()
    }

    fn texts(result: &CallToolResult) -> Vec<String> {
        result
            .content
            .iter()
            .map(|b| b.as_text().expect("a text block").text.clone())
            .collect()
    }

    #[test]
    fn content_is_text_for_the_model() {
        let blocks = |v: Value| {
            content_for(&v)
                .iter()
                .map(|b| b.as_text().unwrap().text.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(blocks(json!("as is")), ["as is"]);
        assert_eq!(blocks(json!(17)), ["17"]);
        assert_eq!(blocks(json!(true)), ["true"]);
        assert!(blocks(json!(null)).is_empty());
        assert_eq!(blocks(json!({ "a": 1 })), ["{\n  \"a\": 1\n}"]);
        assert_eq!(
            blocks(json!(["x", 2, { "b": [1] }, null])),
            ["x", "2", "{\n  \"b\": [\n    1\n  ]\n}", "null"]
        );
        assert!(blocks(json!([])).is_empty());
    }

    #[test]
    fn structured_content_is_wrapped_only_for_legacy_clients_of_wrapped_tools() {
        let wrapped = entry(Some(json!({ "type": "integer" })), true);
        let returned = || Returned::structured(&17).unwrap();
        assert_eq!(
            shape(&wrapped, returned(), false).structured_content,
            Some(json!(17))
        );
        assert_eq!(
            shape(&wrapped, returned(), true).structured_content,
            Some(json!({ "result": 17 }))
        );
        assert_eq!(
            texts(&shape(&wrapped, returned(), true)),
            ["17"],
            "text is never wrapped"
        );

        let object = entry(Some(json!({ "type": "object" })), false);
        let value = json!({ "result": 1, "other": 2 });
        for legacy in [false, true] {
            let result = shape(&object, Returned::structured(&value).unwrap(), legacy);
            assert_eq!(result.structured_content, Some(value.clone()));
            assert_eq!(result.is_error, Some(false));
        }
    }

    #[test]
    fn null_is_kept_as_structured_content_with_no_text() {
        let null = entry(Some(json!({ "type": "null" })), true);
        let modern = json_of(&shape(&null, Returned::structured(&()).unwrap(), false));
        assert_eq!(modern["structuredContent"], Value::Null);
        assert!(
            modern
                .as_object()
                .unwrap()
                .contains_key("structuredContent")
        );
        assert_eq!(modern["content"], json!([]));
        let legacy = shape(&null, Returned::structured(&()).unwrap(), true);
        assert_eq!(legacy.structured_content, Some(json!({ "result": null })));
    }

    #[test]
    fn output_is_validated_after_serialization() {
        let tool = entry(
            Some(json!({ "type": "object", "properties": { "humidity": { "maximum": 1 } } })),
            false,
        );
        let result = shape(
            &tool,
            Returned::structured(&json!({ "humidity": 83 })).unwrap(),
            false,
        );
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.structured_content, None);
        assert_eq!(
            texts(&result),
            [
                "output of tool t does not match its outputSchema: /humidity: 83 is greater than the maximum of 1"
            ]
        );
    }

    #[test]
    fn text_only_tools_get_one_text_block_and_no_structured_content() {
        let tool = entry(None, false);
        for legacy in [false, true] {
            let result = shape(&tool, Returned::text("report"), legacy);
            assert_eq!(result.structured_content, None);
            assert_eq!(result.is_error, Some(false));
            assert_eq!(texts(&result), ["report"]);
        }
    }

    #[test]
    fn a_return_kind_contradicting_the_declaration_is_an_error() {
        let structured = shape(
            &entry(None, false),
            Returned::structured(&1).unwrap(),
            false,
        );
        assert_eq!(structured.is_error, Some(true));
        assert!(texts(&structured)[0].contains("declares no outputSchema"));
        let text = shape(&entry(Some(json!({})), true), Returned::text("x"), false);
        assert_eq!(text.is_error, Some(true));
        assert_eq!(text.structured_content, None);
        assert!(texts(&text)[0].contains("returned text but declares an outputSchema"));
    }

    #[test]
    fn output_meta_and_extra_blocks_come_after_the_shaped_content() {
        let mut meta = MetaObject::new();
        meta.0.insert("k".into(), json!("v"));
        let output = crate::Output::new(vec!["a", "b"])
            .with_meta(meta.clone())
            .with_content(ContentBlock::image("AA==", "image/png"));
        let tool = entry(Some(json!({ "type": "array" })), true);
        let result = shape(&tool, Returned::from_output(output).unwrap(), true);
        assert_eq!(result.meta, Some(meta.clone()));
        assert_eq!(
            result.structured_content,
            Some(json!({ "result": ["a", "b"] }))
        );
        assert_eq!(result.content.len(), 3);
        assert_eq!(result.content[0].as_text().unwrap().text, "a");
        assert_eq!(result.content[1].as_text().unwrap().text, "b");
        assert!(result.content[2].as_image().is_some());

        let text = Returned::from_text_output(
            crate::Output::new("hi".to_string()).with_meta(meta.clone()),
        );
        let result = shape(&entry(None, false), text, false);
        assert_eq!(texts(&result), ["hi"]);
        assert_eq!(result.meta, Some(meta));
    }

    #[test]
    fn an_unserializable_value_is_an_error_naming_the_tool() {
        let mut map = std::collections::HashMap::new();
        map.insert((1, 2), 3);
        let error = Returned::structured(&map).unwrap_err();
        assert!(
            error
                .client_text("t")
                .starts_with("output of tool t could not be serialized"),
            "{error}"
        );
    }

    #[test]
    fn an_unserializable_member_is_named_by_its_pointer() {
        use crate::prefix_items::Prefix2;
        let rows = serde_json::json!({ "ok": [1] });
        let mut value = std::collections::BTreeMap::new();
        value.insert("rows", vec![Prefix2::<i64, i64>(Some(1), None, vec![])]);
        value.insert("gaps", vec![Prefix2(None, Some(2), vec![])]);
        let error = Returned::structured(&value).unwrap_err().client_text("t");
        assert!(
            error.contains("serialized to JSON: /gaps/0: position 1 of a `prefixItems` array"),
            "{error}"
        );
        assert!(Returned::structured(&rows).is_ok());
    }

    #[test]
    fn tool_errors_read_as_their_kind() {
        assert_eq!(ToolError::new("down").client_text("t"), "down");
        assert_eq!(
            ToolError::invalid_arguments("/a: bad").client_text("t"),
            "invalid arguments for tool t: /a: bad"
        );
    }

    #[tokio::test]
    async fn panics_and_errors_become_error_results() {
        let tool = entry(None, false);
        let failed = contained(&tool, async { panic!("boom {}", 1) })
            .await
            .unwrap_err();
        assert_eq!(failed.is_error, Some(true));
        assert_eq!(texts(&failed), ["tool t panicked: boom 1"]);
        let failed = contained(&tool, async { panic!("static") })
            .await
            .unwrap_err();
        assert_eq!(texts(&failed), ["tool t panicked: static"]);
        let failed = contained(&tool, async { std::panic::panic_any(42) })
            .await
            .unwrap_err();
        assert_eq!(
            texts(&failed),
            ["tool t panicked: a non-string panic payload"]
        );
        let failed = contained(&tool, async { Err(ToolError::new("nope")) })
            .await
            .unwrap_err();
        assert_eq!(texts(&failed), ["nope"]);
        let ok = contained(&tool, async { Ok(Returned::text("fine")) })
            .await
            .unwrap();
        assert_eq!(ok.as_text(), Some("fine"));
    }

    #[test]
    fn only_2026_07_28_and_later_is_modern() {
        assert!(!is_modern(None));
        for legacy in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            let version: ProtocolVersion = serde_json::from_value(json!(legacy)).unwrap();
            assert!(!is_modern(Some(&version)), "{legacy}");
        }
        for modern in ["2026-07-28", "2027-01-01"] {
            let version: ProtocolVersion = serde_json::from_value(json!(modern)).unwrap();
            assert!(is_modern(Some(&version)), "{modern}");
        }
    }

    #[tokio::test]
    async fn calls_finished_waits_for_running_calls() {
        let in_flight = Arc::new(InFlight::default());
        in_flight.idle().await;
        let running = in_flight.enter();
        let waiter = tokio::spawn({
            let in_flight = in_flight.clone();
            async move { in_flight.idle().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(running);
        waiter.await.unwrap();
    }
}
