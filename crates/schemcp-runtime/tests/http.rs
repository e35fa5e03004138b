//! Streamable HTTP on 127.0.0.1:0: a legacy session, 2026-07-28 stateless requests, and a
//! graceful shutdown that still answers the call in flight.

mod support;

use std::sync::atomic::Ordering;
use std::time::Duration;

use schemcp_runtime::HttpOptions;
use serde_json::{Value, json};
use support::{Generation, LEGACY, MODERN, server, texts, with_meta};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

struct HttpResponse {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl HttpResponse {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC messages in the body, plain JSON or an SSE stream.
    fn messages(&self) -> Vec<Value> {
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
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body)),
            ]
        }
    }
}

async fn post(addr: &str, headers: &[(&str, String)], body: &Value) -> HttpResponse {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut raw))
        .await
        .expect("the response ends")
        .unwrap();
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> HttpResponse {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP head");
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
                .expect("a chunk size line");
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

struct Session {
    addr: String,
    generation: Generation,
    session_id: Option<String>,
    next_id: u64,
}

impl Session {
    async fn open(addr: &str, generation: Generation) -> Session {
        let mut session = Session {
            addr: addr.to_string(),
            generation,
            session_id: None,
            next_id: 1,
        };
        match generation {
            Generation::Legacy => {
                let body = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": LEGACY, "capabilities": {},
                    "clientInfo": { "name": "runtime-test", "version": "0" } } });
                let response = post(addr, &[], &body).await;
                assert_eq!(response.status, 200, "initialize: {}", response.body);
                session.session_id = response.header("mcp-session-id").map(str::to_string);
                assert!(
                    session.session_id.is_some(),
                    "legacy session mode gives a session id"
                );
                let init = response.messages().remove(0);
                assert_eq!(init["result"]["protocolVersion"], LEGACY, "{init}");
                let note = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
                let response = post(
                    addr,
                    &session.headers("notifications/initialized", None),
                    &note,
                )
                .await;
                assert!(
                    response.status < 300,
                    "initialized: {} {}",
                    response.status,
                    response.body
                );
            }
            Generation::Modern => {
                let discover = session.request("server/discover", json!({})).await;
                assert!(
                    discover["result"]["supportedVersions"]
                        .as_array()
                        .unwrap()
                        .contains(&json!(MODERN)),
                    "{discover}"
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

    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string);
        let params = with_meta(self.generation, params);
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let response = post(&self.addr, &self.headers(method, name.as_deref()), &body).await;
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

    async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self
            .request(
                "tools/call",
                json!({ "name": tool, "arguments": arguments }),
            )
            .await;
        assert!(response.get("error").is_none(), "{tool}: {response}");
        response["result"].clone()
    }
}

#[tokio::test]
async fn both_generations_over_http_then_a_graceful_shutdown_answers_the_call_in_flight() {
    let (server, weather) = server();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(schemcp_runtime::serve_http_on(
        server,
        listener,
        HttpOptions::default(),
        async move {
            let _ = stopped.await;
        },
    ));

    for generation in [Generation::Legacy, Generation::Modern] {
        let legacy = generation == Generation::Legacy;
        let mut session = Session::open(&addr, generation).await;
        let tools = session.request("tools/list", json!({})).await;
        let tools = tools["result"]["tools"].as_array().unwrap().clone();
        let temperature = tools
            .iter()
            .find(|t| t["name"] == "get_temperature")
            .unwrap();
        let want = if legacy {
            json!({ "type": "object", "properties": { "result": { "type": "integer" } }, "required": ["result"] })
        } else {
            json!({ "type": "integer" })
        };
        assert_eq!(temperature["outputSchema"], want, "{generation:?}");

        let r = session
            .call("get_temperature", json!({ "city": "London" }))
            .await;
        assert_eq!(
            r["structuredContent"],
            if legacy {
                json!({ "result": 17 })
            } else {
                json!(17)
            },
            "{r}"
        );
        assert_eq!(texts(&r), ["17"]);
        let r = session
            .call("get_weather_upstream", json!({ "city": "London" }))
            .await;
        assert_eq!(r["isError"], true, "{r}");
        assert!(r.get("structuredContent").is_none(), "{r}");
        let r = session
            .request("tools/call", json!({ "name": "nope", "arguments": {} }))
            .await;
        assert_eq!(r["error"]["code"], -32602, "{r}");
    }

    // A call still running when the shutdown signal arrives is answered in full.
    let started = weather.calls.load(Ordering::SeqCst);
    let in_flight = tokio::spawn({
        let addr = addr.clone();
        async move {
            let mut session = Session::open(&addr, Generation::Modern).await;
            session
                .call("echo_slowly", json!({ "text": "made it", "ms": 300 }))
                .await
        }
    });
    while weather.calls.load(Ordering::SeqCst) == started {
        tokio::task::yield_now().await;
    }
    stop.send(()).unwrap();
    let r = in_flight.await.unwrap();
    assert_eq!(texts(&r), ["made it"], "{r}");
    serving.await.unwrap().expect("a clean shutdown");
    assert!(
        TcpStream::connect(&addr).await.is_err(),
        "no longer listening"
    );
}

#[tokio::test]
async fn json_responses_without_legacy_sessions() {
    let (server, _) = server();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let options = HttpOptions::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let serving = tokio::spawn(schemcp_runtime::serve_http_on(
        server,
        listener,
        options,
        async move {
            let _ = stopped.await;
        },
    ));
    let mut session = Session::open(&addr, Generation::Modern).await;
    let body = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": with_meta(Generation::Modern, json!({ "name": "get_weather", "arguments": { "city": "London" } })) });
    let response = post(
        &addr,
        &session.headers("tools/call", Some("get_weather")),
        &body,
    )
    .await;
    assert!(
        response
            .header("content-type")
            .unwrap()
            .starts_with("application/json"),
        "{:?}",
        response.headers
    );
    assert_eq!(
        response.messages()[0]["result"]["structuredContent"]["humidity"],
        0.83
    );
    let r = session.call("list_cities", json!({})).await;
    assert_eq!(texts(&r).len(), 3);
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}
