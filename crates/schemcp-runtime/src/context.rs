//! What a tool may know about the call it is serving.

use rmcp::model::{ProgressNotificationParam, ProtocolVersion, RequestId};
use rmcp::service::{Peer, RequestContext, RoleServer};
use tokio_util::sync::CancellationToken;

/// The call a tool is serving: the negotiated protocol version, cancellation, progress
/// reporting and the client connection. Built by the runtime from rmcp's `RequestContext` for
/// every `tools/call`.
///
/// ```
/// use schemcp_runtime::{ToolContext, ToolError};
///
/// async fn slow_sum(numbers: &[f64], cx: &ToolContext) -> Result<f64, ToolError> {
///     let mut sum = 0.0;
///     for (done, n) in numbers.iter().enumerate() {
///         if cx.is_cancelled() {
///             return Err(ToolError::new("cancelled by the client"));
///         }
///         sum += n;
///         cx.progress(done as f64 + 1.0, Some(numbers.len() as f64), None).await;
///     }
///     Ok(sum)
/// }
/// ```
#[derive(Debug)]
pub struct ToolContext {
    request: RequestContext<RoleServer>,
    protocol_version: Option<ProtocolVersion>,
}

/// Whether `version` is 2026-07-28 or later. ISO dates compare lexically, so no list of known
/// versions is needed.
pub(crate) fn is_modern(version: Option<&ProtocolVersion>) -> bool {
    version.is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

impl ToolContext {
    pub(crate) fn new(request: RequestContext<RoleServer>) -> Self {
        let protocol_version = request.protocol_version();
        ToolContext {
            request,
            protocol_version,
        }
    }

    /// The protocol version of this request (per-request `_meta` on 2026-07-28, else the one
    /// negotiated by `initialize`), or `None` if the client never said.
    ///
    /// ```
    /// fn describe(cx: &schemcp_runtime::ToolContext) -> String {
    ///     cx.protocol_version().map_or("unknown".into(), |v| v.to_string())
    /// }
    /// ```
    pub fn protocol_version(&self) -> Option<&ProtocolVersion> {
        self.protocol_version.as_ref()
    }

    /// Whether the client predates 2026-07-28 (or did not say): such clients get non-object
    /// results wrapped as `{"result": value}`.
    ///
    /// ```
    /// fn shape(cx: &schemcp_runtime::ToolContext) -> &'static str {
    ///     if cx.is_legacy() { "wrapped" } else { "verbatim" }
    /// }
    /// ```
    pub fn is_legacy(&self) -> bool {
        !is_modern(self.protocol_version.as_ref())
    }

    /// Cancelled when the client sends `notifications/cancelled` for this request or the
    /// connection ends; select on it to stop long work early.
    ///
    /// ```
    /// async fn wait(cx: &schemcp_runtime::ToolContext) {
    ///     cx.cancellation_token().cancelled().await;
    /// }
    /// ```
    pub fn cancellation_token(&self) -> &CancellationToken {
        &self.request.ct
    }

    /// Whether the request has been cancelled.
    ///
    /// ```
    /// fn keep_going(cx: &schemcp_runtime::ToolContext) -> bool {
    ///     !cx.is_cancelled()
    /// }
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.request.ct.is_cancelled()
    }

    /// Sends `notifications/progress` if, and only if, the request carried a progress token
    /// (the spec forbids progress for requests that did not ask). A failure to send is
    /// logged, not returned: progress is advisory and must not fail the tool.
    ///
    /// ```
    /// async fn step(cx: &schemcp_runtime::ToolContext) {
    ///     cx.progress(1.0, Some(3.0), Some("fetched stations".into())).await;
    /// }
    /// ```
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<String>) {
        let Some(token) = self.request.meta.get_progress_token() else {
            return;
        };
        let mut param = ProgressNotificationParam::new(token, progress);
        param.total = total;
        param.message = message;
        if let Err(error) = self.request.peer.notify_progress(param).await {
            tracing::debug!(%error, "could not send a progress notification");
        }
    }

    /// The client connection, for anything else rmcp offers (logging, sampling, elicitation).
    ///
    /// ```
    /// fn client_name(cx: &schemcp_runtime::ToolContext) -> Option<String> {
    ///     cx.peer().peer_info().map(|info| info.client_info.name.clone())
    /// }
    /// ```
    pub fn peer(&self) -> &Peer<RoleServer> {
        &self.request.peer
    }

    /// The JSON-RPC id of this `tools/call`, for logs and correlation.
    ///
    /// ```
    /// fn log(cx: &schemcp_runtime::ToolContext) {
    ///     tracing::info!(id = %cx.request_id(), "calling");
    /// }
    /// ```
    pub fn request_id(&self) -> &RequestId {
        &self.request.id
    }

    /// rmcp's own request context (request `_meta`, HTTP extensions), for what this type does
    /// not wrap.
    ///
    /// ```
    /// fn has_meta(cx: &schemcp_runtime::ToolContext) -> bool {
    ///     !cx.request_context().meta.0.is_empty()
    /// }
    /// ```
    pub fn request_context(&self) -> &RequestContext<RoleServer> {
        &self.request
    }
}
