//! `tools/call` requests read without rmcp's generic message parser; every other line still
//! goes through rmcp's own transport.
//!
//! rmcp parses each incoming line as an untagged `JsonRpcMessage` around an untagged
//! `ClientRequest` of some twenty request types, tried in order: a `tools/call` (the 14th)
//! costs about 3.5–5 µs to parse, roughly a quarter of the server's CPU per call under
//! pipelined load (perf, `examples/weather` under the bench driver). A line of exactly the
//! shape `{"jsonrpc":"2.0","id":…,"method":"tools/call","params":{…}}` is parsed here instead,
//! in well under 1 µs, into the `CallToolRequest` rmcp would have built (a test compares
//! them, `_meta` and extensions included).
//!
//! Anything else (other methods, notifications, responses, extra members, lines that do not
//! parse) is handed to rmcp's `AsyncRwTransport` through an in-memory pipe, followed by a
//! sentinel `ping` whose id only this process knows: rmcp answers invalid requests, skips
//! unknown notifications and unparsable lines exactly as it does on stdin, and the sentinel
//! coming back out says the line has been dealt with, so messages stay in input order.

use std::hash::{BuildHasher, RandomState};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, JsonRpcMessage,
    JsonRpcVersion2_0, RequestId,
};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader, DuplexStream};

/// The in-memory pipe's capacity: one line of rmcp's maximum length and the sentinel after it.
pub(crate) const PIPE_CAPACITY: usize = DEFAULT_MAX_LINE_LENGTH + 1024;

/// The one shape read here. Any other member sends the line to rmcp.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallLine<'a> {
    #[serde(rename = "jsonrpc")]
    _version: JsonRpcVersion2_0,
    id: RequestId,
    #[serde(borrow)]
    method: &'a str,
    #[serde(borrow)]
    params: &'a RawValue,
}

/// A `tools/call` request as rmcp would parse it, or `None` for any other line.
fn parse_call(line: &[u8]) -> Option<ClientJsonRpcMessage> {
    let call: CallLine<'_> = serde_json::from_slice(line).ok()?;
    if call.method != "tools/call" {
        return None;
    }
    // rmcp's `Request` deserializer splits `_meta` from the rest with `#[serde(flatten)]`,
    // which buffers every parameter before reading it again; reading the parameters directly
    // and moving `_meta` into the extensions, as that deserializer does, builds the same
    // request without the second pass.
    let mut params: CallToolRequestParams = serde_json::from_str(call.params.get()).ok()?;
    let meta = params.meta.take();
    let mut request = CallToolRequest::new(params);
    if let Some(meta) = meta {
        request.extensions.insert(meta);
    }
    Some(ClientJsonRpcMessage::request(
        ClientRequest::CallToolRequest(request),
        call.id,
    ))
}

/// What reading one line gave.
enum Line {
    Complete,
    Oversized,
    End,
}

/// The transport for byte streams: `tools/call` lines parsed here, the rest by `rmcp`, which
/// reads them from `to_rmcp` and sends every outgoing message.
pub(crate) struct FastCalls<R, T> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// Dropping the rest of an oversized line; kept here because `receive` can be cancelled.
    discarding: bool,
    rmcp: T,
    to_rmcp: DuplexStream,
    /// Bytes for rmcp not yet written into the pipe, from `handoff_at`.
    handoff: Vec<u8>,
    handoff_at: usize,
    /// Lines handed to rmcp whose sentinel has not come back yet.
    handed: usize,
    sentinel: RequestId,
    sentinel_line: String,
}

impl<R: AsyncRead + Send + Unpin, T> FastCalls<R, T> {
    /// `rmcp` must read the other end of `to_rmcp` (a pipe of [`PIPE_CAPACITY`]).
    pub(crate) fn new(read: R, rmcp: T, to_rmcp: DuplexStream) -> Self {
        let nonce = RandomState::new().hash_one(std::process::id());
        let id = format!("schemcp-sentinel-{nonce:016x}");
        let sentinel_line = format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"ping"}}"#);
        FastCalls {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            rmcp,
            to_rmcp,
            handoff: Vec::new(),
            handoff_at: 0,
            handed: 0,
            sentinel: RequestId::String(id.into()),
            sentinel_line,
        }
    }

    fn is_sentinel(&self, message: &RxJsonRpcMessage<RoleServer>) -> bool {
        matches!(message, JsonRpcMessage::Request(request) if request.id == self.sentinel)
    }

    /// Reads up to the next newline into `self.line`, never holding more than rmcp's maximum
    /// line length. Cancel-safe: a partial line stays in `self.line` for the next call.
    async fn read_line(&mut self) -> std::io::Result<Line> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(Line::End);
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let taken = newline.map_or(available.len(), |at| at + 1);
            let outcome = if self.discarding {
                self.discarding = newline.is_none();
                None
            } else if self.line.len() + taken > DEFAULT_MAX_LINE_LENGTH {
                self.line.clear();
                self.discarding = newline.is_none();
                Some(Line::Oversized)
            } else {
                self.line.extend_from_slice(&available[..taken]);
                newline.map(|_| Line::Complete)
            };
            self.read.consume(taken);
            if let Some(outcome) = outcome {
                return Ok(outcome);
            }
        }
    }
}

impl<R, T> Transport<RoleServer> for FastCalls<R, T>
where
    R: AsyncRead + Send + Unpin + 'static,
    T: Transport<RoleServer, Error = std::io::Error>,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.rmcp.send(item)
    }

    // Cancel-safe, as rmcp's service loop needs (it polls `receive` in a `select!`): every
    // step keeps its progress in `self` before it awaits.
    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            while self.handoff_at < self.handoff.len() {
                match self.to_rmcp.write(&self.handoff[self.handoff_at..]).await {
                    Ok(0) | Err(_) => return None,
                    Ok(written) => self.handoff_at += written,
                }
            }
            if self.handed > 0 {
                let message = self.rmcp.receive().await?;
                if self.is_sentinel(&message) {
                    self.handed -= 1;
                    continue;
                }
                return Some(message);
            }
            match self.read_line().await {
                Ok(Line::Complete) => {}
                Ok(Line::Oversized) => {
                    tracing::error!(
                        max_line_length = DEFAULT_MAX_LINE_LENGTH,
                        "Incoming message exceeded the maximum line length, discarding it"
                    );
                    continue;
                }
                // A partial last line without a newline is not a message (as in rmcp).
                Ok(Line::End) => return None,
                Err(error) => {
                    tracing::error!("Error reading from stream: {error}");
                    return None;
                }
            }
            let parsed = parse_call(&self.line);
            if let Some(message) = parsed {
                self.line.clear();
                return Some(message);
            }
            self.handoff.clear();
            self.handoff.append(&mut self.line);
            if self.handoff.last() != Some(&b'\n') {
                self.handoff.push(b'\n');
            }
            self.handoff
                .extend_from_slice(self.sentinel_line.as_bytes());
            self.handoff.push(b'\n');
            self.handoff_at = 0;
            self.handed += 1;
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.rmcp.close()
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::RequestMetaObject;
    use rmcp::transport::async_rw::AsyncRwTransport;
    use serde_json::{Value, json};
    use tokio::io::AsyncWriteExt;

    use super::*;

    /// What rmcp's own parser makes of `line`.
    fn rmcp_parse(line: &str) -> Value {
        let message: ClientJsonRpcMessage = serde_json::from_str(line).unwrap();
        serde_json::to_value(message).unwrap()
    }

    /// The id, the parameters and the `_meta` held in the extensions of a `tools/call`.
    fn call_parts(
        message: &ClientJsonRpcMessage,
    ) -> (RequestId, CallToolRequestParams, Option<RequestMetaObject>) {
        let JsonRpcMessage::Request(request) = message else {
            panic!("not a request: {message:?}");
        };
        let ClientRequest::CallToolRequest(call) = &request.request else {
            panic!("not a tools/call: {message:?}");
        };
        (
            request.id.clone(),
            call.params.clone(),
            call.extensions.get::<RequestMetaObject>().cloned(),
        )
    }

    #[test]
    fn calls_parse_to_the_message_rmcp_builds() {
        let calls = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"London"}}}"#,
            r#"{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"name":"t","arguments":{"n":1.5,"big":18446744073709551615,"s":"é\u00e9\n","list":[null,true,{}]}}}"#,
            r#"{"params":{"_meta":{"progressToken":7,"x":{"y":1}},"name":"t"},"method":"tools/call","id":-3,"jsonrpc":"2.0"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":null,"name":"t"}}"#,
            r#"  {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"t","requestState":"s","arguments":{}}}  "#,
        ];
        for line in calls {
            let fast = parse_call(line.as_bytes()).expect("the shape is read here");
            let theirs: ClientJsonRpcMessage = serde_json::from_str(line).unwrap();
            // Serializing merges `_meta` from both places, so compare where it is held too.
            assert_eq!(call_parts(&fast), call_parts(&theirs), "{line}");
            assert_eq!(
                serde_json::to_value(fast).unwrap(),
                rmcp_parse(line),
                "{line}"
            );
        }
    }

    #[test]
    fn every_other_line_is_left_to_rmcp() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"extra":1}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"t"}}"#,
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}",
            "not json",
            "",
        ] {
            assert!(parse_call(line.as_bytes()).is_none(), "{line}");
        }
    }

    /// A session's worth of lines through `FastCalls` and rmcp's transport behind it: the
    /// messages come out in order, rmcp's own handling of odd lines is kept (an invalid request
    /// is answered, garbage is skipped), and the sentinels never show.
    #[tokio::test]
    async fn lines_come_out_in_order_with_rmcp_handling_the_rest() {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server);
        let (client_read, mut client_write) = tokio::io::split(client);
        let (to_rmcp, rmcp_read) = tokio::io::duplex(PIPE_CAPACITY);
        let rmcp = AsyncRwTransport::<RoleServer, _, _>::new(rmcp_read, server_write);
        let mut transport = FastCalls::new(server_read, rmcp, to_rmcp);
        let input = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/unknown-thing"}"#,
            "garbage",
            r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"b"}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"c"}}"#,
        ];
        let mut bytes = input.join("\r\n").into_bytes();
        bytes.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
        client_write.write_all(&bytes).await.unwrap();
        client_write.shutdown().await.unwrap();
        let mut seen = Vec::new();
        while let Some(message) = transport.receive().await {
            let value = serde_json::to_value(&message).unwrap();
            seen.push(format!("{} {}", value["id"], value["method"]));
        }
        assert_eq!(
            seen,
            [
                "1 \"tools/call\"",
                "2 \"tools/list\"",
                // rmcp reads an unknown notification as a custom one.
                "null \"notifications/unknown-thing\"",
                "3 \"tools/call\"",
                "null \"notifications/initialized\"",
                "4 \"tools/call\"",
            ],
            "the last line has no newline, so it is not a message"
        );
        drop(transport);
        drop(client_write);
        let mut replies = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut { client_read }, &mut replies)
            .await
            .unwrap();
        let replies: Vec<Value> = replies
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            replies,
            [json!({
                "jsonrpc": "2.0",
                "error": { "code": -32600, "message": "Invalid request" }
            })]
        );
    }

    /// `receive` is dropped at every await point in turn (as rmcp's `select!` does when an
    /// answer is ready first) and called again: no line is lost or read twice.
    #[tokio::test]
    async fn a_cancelled_receive_loses_nothing() {
        let (client, server) = tokio::io::duplex(64);
        let (to_rmcp, rmcp_read) = tokio::io::duplex(PIPE_CAPACITY);
        let rmcp = AsyncRwTransport::<RoleServer, _, _>::new(rmcp_read, tokio::io::sink());
        let mut transport = FastCalls::new(server, rmcp, to_rmcp);
        let writer = tokio::spawn(async move {
            let mut client = client;
            for i in 0..200 {
                let line = if i % 2 == 0 {
                    format!(
                        r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"t"}}}}"#
                    )
                } else {
                    format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/list"}}"#)
                };
                client.write_all(line.as_bytes()).await.unwrap();
                client.write_all(b"\n").await.unwrap();
            }
        });
        let mut ids = Vec::new();
        loop {
            tokio::select! {
                biased;
                message = transport.receive() => match message {
                    Some(message) => ids.push(serde_json::to_value(&message).unwrap()["id"].clone()),
                    None => break,
                },
                // Cancels the receive whenever it is not ready at once.
                _ = tokio::task::yield_now() => {}
            }
        }
        writer.await.unwrap();
        assert_eq!(ids, (0..200).map(|i| json!(i)).collect::<Vec<_>>());
    }
}
