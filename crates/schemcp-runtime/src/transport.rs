//! Entry points: stdio (and any pair of byte streams) and Streamable HTTP.

use std::borrow::Cow;
use std::collections::HashSet;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::ServerHandler;
use rmcp::model::{
    ClientNotification, ClientRequest, JsonRpcMessage, JsonRpcNotification, ProtocolVersion,
    RequestId, ServerConfig, ServerResult,
};
use rmcp::service::{
    MaybeSendFuture, NotificationContext, RequestContext, RoleServer, RxJsonRpcMessage,
    ServerInitializeError, Service, TxJsonRpcMessage,
};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::cached_list::OwnAnswers;
use crate::fast_calls::{FastCalls, PIPE_CAPACITY};
use crate::outbox::Outbox;
use crate::{Error, McpServer, ToolSet};

/// How long finished HTTP responses get to reach their clients after the last in-flight call
/// returns, before connections still open (idle SSE streams) are closed.
const HTTP_FLUSH_GRACE: Duration = Duration::from_secs(1);

/// Serves `server` over stdin and stdout until stdin closes, then answers every request it
/// has already read before returning.
///
/// Uses rmcp's `stdio_pipes()`, which drives pipes through the non-blocking reactor (about
/// five times the throughput of `stdio()` when a client launches the server, and it drops no
/// response at EOF). Log with `tracing` to stderr: stdout is the transport.
///
/// A single-threaded runtime serves one stdio client with about half the CPU per call of a
/// multi-threaded one (no worker has to wake another); keep the multi-threaded runtime when
/// tools block without `spawn_blocking`.
///
/// ```no_run
/// # use futures::future::BoxFuture;
/// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
/// # struct Tools;
/// # impl ToolSet for Tools {
/// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
/// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
/// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
/// # }
/// #[tokio::main(flavor = "current_thread")]
/// async fn main() -> Result<(), schemcp_runtime::Error> {
///     schemcp_runtime::serve_stdio(McpServer::new(Tools).with_info("tools", "1.0.0")).await
/// }
/// ```
pub async fn serve_stdio<S: ToolSet, H: ServerHandler>(
    server: McpServer<S, H>,
) -> Result<(), Error> {
    let (read, write) = rmcp::transport::stdio_pipes();
    serve_io(server, read, write).await
}

/// Serves `server` over any pair of byte streams speaking newline-delimited JSON-RPC, exactly
/// as [`serve_stdio`] does over stdin and stdout: returns once `read` reaches EOF and every
/// request read before it has been answered.
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
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// // A client that connects and leaves at once: a clean end, not an error.
/// let (client, server_side) = tokio::io::duplex(1024);
/// drop(client);
/// let (read, write) = tokio::io::split(server_side);
/// schemcp_runtime::serve_io(McpServer::new(Tools), read, write).await.unwrap();
/// # });
/// ```
pub async fn serve_io<S, H, R, W>(server: McpServer<S, H>, read: R, write: W) -> Result<(), Error>
where
    S: ToolSet,
    H: ServerHandler,
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    // rmcp's writer and the answers written here (cached `tools/list`, `tools/call` with the
    // text written from `structuredContent`) queue whole messages on one outbox;
    // its task does the writing, and everything queued is written before this returns.
    let (outbox, writer) = Outbox::spawn(write);
    // `tools/call` lines are parsed on the way in; rmcp's transport reads every other line
    // from a pipe and writes every outgoing message.
    let (to_rmcp, rmcp_read) = tokio::io::duplex(PIPE_CAPACITY);
    let rmcp_transport = AsyncRwTransport::new_server(rmcp_read, outbox.writer());
    let transport = AnswerEveryRequest::new(OwnAnswers::new(
        FastCalls::new(read, rmcp_transport, to_rmcp),
        outbox.clone(),
        &server.catalogs(),
    ));
    let session = run_session(server.with_text_by_transport(), transport).await;
    let written = outbox.finish(writer).await;
    session?;
    match written {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            // The client closed its end first; what it did not read, it chose not to.
            tracing::info!("the client stopped reading before the last answers were written");
            Ok(())
        }
        written => written.map_err(Error::Io),
    }
}

async fn run_session<S, H, T>(server: McpServer<S, H>, transport: T) -> Result<(), Error>
where
    S: ToolSet,
    H: ServerHandler,
    T: Transport<RoleServer, Error = std::io::Error> + 'static,
{
    let running = match rmcp::serve_server(BoxedRequests(server), transport).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => {
            tracing::info!("input closed before the session started");
            return Ok(());
        }
        Err(error) => return Err(Error::Initialize(Box::new(error))),
    };
    let reason = running.waiting().await.map_err(Error::Session)?;
    tracing::info!(?reason, "MCP session ended");
    Ok(())
}

/// A service whose `handle_request` futures are boxed. rmcp's own future for a
/// `ServerHandler` is 4 KiB (it holds the state of every kind of request), and rmcp spawns a
/// task per request that holds it and moves it by value several times; boxed, the task holds
/// a pointer. A/B, server CPU per `tools/call` over stdio: 8.0 to 7.4 µs.
struct BoxedRequests<S>(S);

impl<S: Service<RoleServer>> Service<RoleServer> for BoxedRequests<S> {
    fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ServerResult, ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(self.0.handle_request(request, context))
    }

    fn handle_notification(
        &self,
        notification: ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.0.handle_notification(notification, context)
    }

    fn get_info(&self) -> ServerConfig {
        self.0.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.0.supported_protocol_versions()
    }
}

/// Holds back end-of-input until every request read so far has been answered.
///
/// rmcp's service loop already drains in-flight handlers at EOF, but only for a fixed five
/// seconds (`rmcp` src/service.rs, the `drain_timeout` after the main loop) and then cancels
/// them, so a slow tool's answer would be lost. Reporting EOF only once nothing is pending
/// removes that bound. Requests the client cancels are not waited for: rmcp sends no answer.
struct AnswerEveryRequest<T> {
    inner: T,
    pending: HashSet<RequestId>,
    eof: bool,
}

impl<T> AnswerEveryRequest<T> {
    fn new(inner: T) -> Self {
        AnswerEveryRequest {
            inner,
            pending: HashSet::new(),
            eof: false,
        }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for AnswerEveryRequest<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answered = match &item {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        if let Some(id) = answered {
            self.pending.remove(id);
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        if !self.eof {
            match self.inner.receive().await {
                Some(message) => {
                    match &message {
                        JsonRpcMessage::Request(request) => {
                            self.pending.insert(request.id.clone());
                        }
                        JsonRpcMessage::Notification(JsonRpcNotification {
                            notification: ClientNotification::CancelledNotification(cancelled),
                            ..
                        }) => {
                            if let Some(id) = &cancelled.params.request_id {
                                self.pending.remove(id);
                            }
                        }
                        _ => {}
                    }
                    return Some(message);
                }
                None => {
                    self.eof = true;
                    tracing::debug!(pending = self.pending.len(), "input closed");
                }
            }
        }
        if self.pending.is_empty() {
            return None;
        }
        // rmcp's loop polls `receive` alongside the handlers' answers and calls it again after
        // each `send`; staying pending here until the last answer goes out is enough.
        std::future::pending().await
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// How [`serve_http`] serves: the endpoint path and rmcp's Streamable HTTP settings.
///
/// ```
/// let options = schemcp_runtime::HttpOptions::default()
///     .with_path("/tools")
///     .with_json_response(true)
///     .with_allowed_hosts(["tools.example.com"]);
/// assert_eq!(options.path, "/tools");
/// ```
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where the MCP endpoint is mounted. Default `/mcp`.
    pub path: String,
    /// Whether clients before 2026-07-28 get rmcp's stateful sessions (`Mcp-Session-Id`,
    /// server-to-client streams). Default `true`, as in rmcp. 2026-07-28 requests are always
    /// served statelessly.
    pub legacy_session_mode: bool,
    /// Prefer `application/json` over an SSE stream for plain request/response calls (only
    /// without legacy sessions; rmcp falls back to SSE when a tool sends notifications).
    /// Default `false`.
    pub json_response: bool,
    /// Largest accepted POST body; larger ones get `413`. Default 4 MiB (rmcp's default).
    pub max_request_body_bytes: usize,
    /// Accepted `Host` header values (host or host:port), against DNS rebinding. Default
    /// loopback only (`localhost`, `127.0.0.1`, `::1`); an empty list accepts any host.
    pub allowed_hosts: Vec<String>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        let rmcp = StreamableHttpServerConfig::default();
        HttpOptions {
            path: "/mcp".into(),
            legacy_session_mode: rmcp.legacy_session_mode,
            json_response: rmcp.json_response,
            max_request_body_bytes: rmcp.max_request_body_bytes,
            allowed_hosts: rmcp.allowed_hosts,
        }
    }
}

impl HttpOptions {
    /// Sets [`HttpOptions::path`].
    ///
    /// ```
    /// assert_eq!(schemcp_runtime::HttpOptions::default().with_path("/x").path, "/x");
    /// ```
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Sets [`HttpOptions::legacy_session_mode`].
    ///
    /// ```
    /// let options = schemcp_runtime::HttpOptions::default().with_legacy_session_mode(false);
    /// assert!(!options.legacy_session_mode);
    /// ```
    pub fn with_legacy_session_mode(mut self, enabled: bool) -> Self {
        self.legacy_session_mode = enabled;
        self
    }

    /// Sets [`HttpOptions::json_response`].
    ///
    /// ```
    /// assert!(schemcp_runtime::HttpOptions::default().with_json_response(true).json_response);
    /// ```
    pub fn with_json_response(mut self, enabled: bool) -> Self {
        self.json_response = enabled;
        self
    }

    /// Sets [`HttpOptions::max_request_body_bytes`].
    ///
    /// ```
    /// let options = schemcp_runtime::HttpOptions::default().with_max_request_body_bytes(1 << 20);
    /// assert_eq!(options.max_request_body_bytes, 1 << 20);
    /// ```
    pub fn with_max_request_body_bytes(mut self, bytes: usize) -> Self {
        self.max_request_body_bytes = bytes;
        self
    }

    /// Sets [`HttpOptions::allowed_hosts`].
    ///
    /// ```
    /// let options = schemcp_runtime::HttpOptions::default().with_allowed_hosts(["a.example"]);
    /// assert_eq!(options.allowed_hosts, ["a.example"]);
    /// ```
    pub fn with_allowed_hosts(
        mut self,
        hosts: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }
}

/// An axum `Router` serving `server` at `options.path`, for mounting beside other routes.
/// Cancelling `shutdown` ends every open session and stream.
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
/// let token = tokio_util::sync::CancellationToken::new();
/// let app = schemcp_runtime::http_router(McpServer::new(Tools), &Default::default(), token)
///     .route("/healthz", axum::routing::get(|| async { "ok" }));
/// # let _ = app;
/// ```
pub fn http_router<S: ToolSet, H: ServerHandler>(
    server: McpServer<S, H>,
    options: &HttpOptions,
    shutdown: CancellationToken,
) -> axum::Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(options.legacy_session_mode)
        .with_json_response(options.json_response)
        .with_max_request_body_bytes(options.max_request_body_bytes)
        .with_allowed_hosts(options.allowed_hosts.clone())
        .with_cancellation_token(shutdown);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let path = options.path.trim_end_matches('/');
    if path.is_empty() {
        // axum refuses to nest at the root.
        axum::Router::new().fallback_service(service)
    } else {
        axum::Router::new().nest_service(path, service)
    }
}

/// Serves Streamable HTTP at `http://addr/mcp` until SIGTERM or Ctrl-C, then stops accepting
/// connections, lets in-flight calls finish and returns.
///
/// ```no_run
/// # use futures::future::BoxFuture;
/// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
/// # struct Tools;
/// # impl ToolSet for Tools {
/// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
/// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
/// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
/// # }
/// #[tokio::main]
/// async fn main() -> Result<(), schemcp_runtime::Error> {
///     schemcp_runtime::serve_http(McpServer::new(Tools), "127.0.0.1:8000".parse().unwrap()).await
/// }
/// ```
pub async fn serve_http<S: ToolSet, H: ServerHandler>(
    server: McpServer<S, H>,
    addr: SocketAddr,
) -> Result<(), Error> {
    serve_http_with(server, addr, HttpOptions::default()).await
}

/// [`serve_http`] with options.
///
/// ```no_run
/// # use futures::future::BoxFuture;
/// # use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
/// # struct Tools;
/// # impl ToolSet for Tools {
/// #     fn catalog(&self) -> &'static str { r#"{"tools":[]}"# }
/// #     fn call<'a>(&'a self, _: usize, _: serde_json::Value, _: &'a ToolContext)
/// #     -> BoxFuture<'a, Result<Returned, ToolError>> { unreachable!() }
/// # }
/// # async fn run() -> Result<(), schemcp_runtime::Error> {
/// let options = schemcp_runtime::HttpOptions::default().with_legacy_session_mode(false);
/// schemcp_runtime::serve_http_with(McpServer::new(Tools), "0.0.0.0:8000".parse().unwrap(), options).await
/// # }
/// ```
pub async fn serve_http_with<S: ToolSet, H: ServerHandler>(
    server: McpServer<S, H>,
    addr: SocketAddr,
    options: HttpOptions,
) -> Result<(), Error> {
    let listener = TcpListener::bind(addr).await?;
    serve_http_on(server, listener, options, shutdown_signal()).await
}

/// Serves Streamable HTTP on an already-bound listener until `shutdown` resolves, then stops
/// accepting connections, waits for in-flight calls and returns. Logs
/// `listening on http://ADDR/PATH` at info level once serving.
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
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
/// let stop = std::future::ready(()); // stop at once; a test would use a oneshot receiver
/// schemcp_runtime::serve_http_on(McpServer::new(Tools), listener, Default::default(), stop)
///     .await
///     .unwrap();
/// # });
/// ```
pub async fn serve_http_on<S, H, F>(
    server: McpServer<S, H>,
    listener: TcpListener,
    options: HttpOptions,
    shutdown: F,
) -> Result<(), Error>
where
    S: ToolSet,
    H: ServerHandler,
    F: Future<Output = ()> + Send + 'static,
{
    let addr = listener.local_addr()?;
    let sessions = CancellationToken::new();
    let router = http_router(server.clone(), &options, sessions.clone());
    let stopping = CancellationToken::new();
    // Responses go out as several small writes (headers, SSE event, end of stream): without
    // TCP_NODELAY, Nagle's algorithm holds the later ones until the client's delayed ACK,
    // about 40 ms per call on Linux (measured with benches/driver: ~350 calls/s with 16
    // clients before, see docs/benchmarks.md).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
    });
    let serving = axum::serve(listener, router)
        .with_graceful_shutdown(stopping.clone().cancelled_owned())
        .into_future();
    let mut serving = std::pin::pin!(serving);
    tracing::info!("listening on http://{addr}{}", options.path);
    tokio::select! {
        ended = &mut serving => return ended.map_err(Error::Io),
        () = shutdown => {}
    }
    tracing::info!("shutting down: no new connections, finishing in-flight calls");
    stopping.cancel();
    server.calls_finished().await;
    // Open session streams never end by themselves; once the answers have had time to go
    // out, end the sessions so the graceful shutdown can complete.
    let ended = match tokio::time::timeout(HTTP_FLUSH_GRACE, &mut serving).await {
        Ok(ended) => ended,
        Err(_) => {
            sessions.cancel();
            serving.await
        }
    };
    sessions.cancel();
    tracing::info!("HTTP server stopped");
    ended.map_err(Error::Io)
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM. A signal that cannot be installed is ignored
/// rather than treated as received.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("received Ctrl-C"),
        () = terminate => tracing::info!("received SIGTERM"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A handler that speaks one old version only and says so in its instructions.
    struct OnlyOld;

    impl ServerHandler for OnlyOld {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::default().with_instructions("only 2025-06-18")
        }

        fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
            Cow::Owned(vec![ProtocolVersion::V_2025_06_18])
        }
    }

    #[test]
    fn boxed_requests_answer_as_the_service_they_wrap() {
        // The trait's default would offer every known version; the wrapper must not widen
        // what the server says it speaks.
        let boxed = BoxedRequests(OnlyOld);
        assert_eq!(
            Service::supported_protocol_versions(&boxed).as_ref(),
            [ProtocolVersion::V_2025_06_18]
        );
        assert_eq!(
            Service::get_info(&boxed).instructions.as_deref(),
            Some("only 2025-06-18")
        );
    }
}
