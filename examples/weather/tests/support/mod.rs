//! Speaks raw JSON-RPC to a server binary over stdio or Streamable HTTP, on either protocol
//! generation, so end-to-end tests see exactly the bytes a client would.

#![allow(dead_code)] // each test binary uses a different part of the harness

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";
const TIMEOUT: Duration = Duration::from_secs(20);

/// Which handshake a session uses: `initialize` (legacy) or `server/discover` with per-request
/// `_meta` (2026-07-28).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generation {
    Legacy,
    Modern,
}

impl Generation {
    pub fn version(self) -> &'static str {
        match self {
            Generation::Legacy => LEGACY,
            Generation::Modern => MODERN,
        }
    }
}

fn request_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { "name": "schemcp-e2e", "version": "0.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// Adds the per-request `_meta` a 2026-07-28 request must carry.
fn with_meta(generation: Generation, mut params: Value) -> Value {
    if generation == Generation::Modern {
        let object = params.as_object_mut().expect("params are an object");
        let meta = object.entry("_meta").or_insert_with(|| json!({}));
        for (k, v) in request_meta().as_object().unwrap() {
            meta[k] = v.clone();
        }
    }
    params
}

/// A server process spoken to over its stdin and stdout.
pub struct StdioSession {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    pub generation: Generation,
}

impl StdioSession {
    /// Starts `program` and performs the handshake of `generation`.
    pub fn start(program: &str, args: &[&str], generation: Generation) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut session = StdioSession {
            child,
            stdin,
            lines,
            next_id: 1,
            generation,
        };
        session.handshake();
        session
    }

    fn handshake(&mut self) {
        match self.generation {
            Generation::Legacy => {
                let init = self.request(
                    "initialize",
                    json!({
                        "protocolVersion": LEGACY,
                        "capabilities": {},
                        "clientInfo": { "name": "schemcp-e2e", "version": "0.0.0" }
                    }),
                );
                assert_eq!(
                    init["result"]["protocolVersion"], LEGACY,
                    "initialize: {init}"
                );
                self.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
            }
            Generation::Modern => {
                let discover = self.request("server/discover", json!({}));
                let versions = &discover["result"]["supportedVersions"];
                assert!(
                    versions
                        .as_array()
                        .is_some_and(|v| v.contains(&json!(MODERN))),
                    "server/discover: {discover}"
                );
            }
        }
    }

    pub fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request and returns the whole JSON-RPC response with its id.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let params = with_meta(self.generation, params);
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let line = self
                .lines
                .recv_timeout(TIMEOUT)
                .unwrap_or_else(|_| panic!("no response to {method} (id {id})"));
            let message: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// Closes stdin and collects every remaining stdout line until the process exits.
    pub fn close_and_drain(mut self) -> (Vec<Value>, std::process::ExitStatus) {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(TIMEOUT) {
            rest.push(serde_json::from_str(&line).expect("stdout line is JSON"));
        }
        let status = self.child.wait().unwrap();
        (rest, status)
    }

    /// The stdin pipe, for tests that write many requests at once.
    pub fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().unwrap()
    }

    pub fn next_line(&self) -> Option<String> {
        self.lines.recv_timeout(TIMEOUT).ok()
    }
}

impl Drop for StdioSession {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// Starting and stopping a server on a free loopback port is shared with every example's tests.
#[path = "../../../../tests/interop/harness.rs"]
pub mod harness;
#[allow(unused_imports)] // not every test binary starts an HTTP server
pub use harness::HttpServer;

/// One HTTP/1.1 exchange: the status, the headers (lower-cased names) and the body.
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC messages in the body, whether it is plain JSON or an SSE stream.
    pub fn messages(&self) -> Vec<Value> {
        if self
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/event-stream"))
        {
            self.body
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str(d.trim()).ok())
                .collect()
        } else if self.body.trim().is_empty() {
            Vec::new()
        } else {
            vec![
                serde_json::from_str(&self.body)
                    .unwrap_or_else(|e| panic!("body is not JSON ({e}): {}", self.body)),
            ]
        }
    }
}

/// POSTs `body` to `http://addr/mcp` with `headers`, reading the whole response.
pub fn post(addr: &str, headers: &[(&str, String)], body: &Value) -> HttpResponse {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> HttpResponse {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("HTTP head");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut rest = &raw[split + 4..];
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        let mut body = Vec::new();
        loop {
            let end = rest
                .windows(2)
                .position(|w| w == b"\r\n")
                .expect("chunk size line");
            let size_text = String::from_utf8_lossy(&rest[..end]).to_string();
            let size =
                usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
            rest = &rest[end + 2..];
            if size == 0 {
                break;
            }
            body.extend_from_slice(&rest[..size]);
            rest = &rest[size + 2..];
        }
        body
    } else {
        rest.to_vec()
    };
    HttpResponse {
        status,
        headers,
        body: String::from_utf8(body).unwrap(),
    }
}

/// A client session over Streamable HTTP: a legacy session (`initialize`, `Mcp-Session-Id`) or
/// 2026-07-28 stateless requests with the standard headers.
pub struct HttpSession {
    addr: String,
    session_id: Option<String>,
    next_id: u64,
    pub generation: Generation,
}

impl HttpSession {
    pub fn open(addr: &str, generation: Generation) -> Self {
        let mut session = HttpSession {
            addr: addr.to_string(),
            session_id: None,
            next_id: 1,
            generation,
        };
        match generation {
            Generation::Legacy => {
                let body = json!({
                    "jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {
                        "protocolVersion": LEGACY,
                        "capabilities": {},
                        "clientInfo": { "name": "schemcp-e2e", "version": "0.0.0" }
                    }
                });
                let response = post(addr, &[], &body);
                assert_eq!(response.status, 200, "initialize: {}", response.body);
                session.session_id = response.header("mcp-session-id").map(str::to_string);
                let init = response
                    .messages()
                    .into_iter()
                    .next()
                    .expect("initialize result");
                assert_eq!(
                    init["result"]["protocolVersion"], LEGACY,
                    "initialize: {init}"
                );
                let note = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
                let response = post(
                    addr,
                    &session.headers("notifications/initialized", None),
                    &note,
                );
                assert!(
                    response.status < 300,
                    "initialized: {} {}",
                    response.status,
                    response.body
                );
            }
            Generation::Modern => {
                let discover = session.request("server/discover", json!({}));
                assert!(
                    discover["result"]["supportedVersions"]
                        .as_array()
                        .is_some_and(|v| v.contains(&json!(MODERN))),
                    "server/discover: {discover}"
                );
            }
        }
        session
    }

    fn headers(&self, method: &str, name: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = vec![(
            "MCP-Protocol-Version",
            self.generation.version().to_string(),
        )];
        if let Some(id) = &self.session_id {
            headers.push(("Mcp-Session-Id", id.clone()));
        }
        if self.generation == Generation::Modern {
            headers.push(("Mcp-Method", method.to_string()));
            if let Some(name) = name {
                headers.push(("Mcp-Name", name.to_string()));
            }
        }
        headers
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string);
        let params = with_meta(self.generation, params);
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let response = post(&self.addr, &self.headers(method, name.as_deref()), &body);
        response
            .messages()
            .into_iter()
            .find(|m| m["id"] == json!(id))
            .unwrap_or_else(|| {
                panic!(
                    "no response to {method} (HTTP {}): {}",
                    response.status, response.body
                )
            })
    }
}

/// Either transport, so one table of cases runs over both.
pub enum Session {
    Stdio(StdioSession),
    Http(HttpSession),
}

impl Session {
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        match self {
            Session::Stdio(s) => s.request(method, params),
            Session::Http(s) => s.request(method, params),
        }
    }

    pub fn generation(&self) -> Generation {
        match self {
            Session::Stdio(s) => s.generation,
            Session::Http(s) => s.generation,
        }
    }

    /// `tools/call`, returning the `result` object (panics on a JSON-RPC error).
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        );
        assert!(
            response.get("error").is_none(),
            "{tool}: JSON-RPC error {response}"
        );
        response["result"].clone()
    }

    /// `tools/list`, returning the tools by name.
    pub fn tools(&mut self) -> serde_json::Map<String, Value> {
        let response = self.request("tools/list", json!({}));
        response["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("tools/list: {response}"))
            .iter()
            .map(|t| (t["name"].as_str().unwrap().to_string(), t.clone()))
            .collect()
    }
}

/// The text of every content block of a tool result.
pub fn texts(result: &Value) -> Vec<String> {
    result["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
