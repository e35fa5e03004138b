//! Streamable HTTP load: each client opens its own session on its own keep-alive connection
//! (a minimal HTTP/1.1 client on std, so the driver adds no HTTP stack of its own to measure)
//! and makes one call at a time until the budget is spent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::report::{HttpRound, percentile_us};
use crate::{Options, Subject, proc, stdio};

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    session: Option<String>,
    port: u16,
}

struct Response {
    status: u16,
    session: Option<String>,
    body: Vec<u8>,
}

impl Client {
    fn connect(port: u16) -> Result<Client> {
        let stream = TcpStream::connect(("127.0.0.1", port))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Client {
            reader: BufReader::with_capacity(1 << 16, stream.try_clone()?),
            writer: stream,
            session: None,
            port,
        })
    }

    fn post(&mut self, body: &str) -> Result<Response> {
        let mut head = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
             Content-Length: {}\r\n",
            self.port,
            body.len()
        );
        if let Some(session) = &self.session {
            head.push_str("Mcp-Session-Id: ");
            head.push_str(session);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        head.push_str(body);
        self.writer.write_all(head.as_bytes())?;
        self.read_response()
    }

    fn read_response(&mut self) -> Result<Response> {
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .context("no status line")?
            .parse()?;
        let (mut length, mut chunked, mut session) = (None, false, None);
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let Some((name, value)) = header.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = Some(value.parse::<usize>()?),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "mcp-session-id" => session = Some(value.to_string()),
                _ => {}
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                self.reader.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                    .context("bad chunk size")?;
                if size == 0 {
                    line.clear();
                    self.reader.read_line(&mut line)?;
                    break;
                }
                let start = body.len();
                body.resize(start + size, 0);
                self.reader.read_exact(&mut body[start..])?;
                let mut crlf = [0; 2];
                self.reader.read_exact(&mut crlf)?;
            }
        } else if let Some(length) = length {
            body.resize(length, 0);
            self.reader.read_exact(&mut body)?;
        }
        Ok(Response {
            status,
            session,
            body,
        })
    }

    /// The JSON-RPC message in a response body, plain JSON or the `data:` of an SSE event.
    fn message(body: &[u8]) -> Option<Value> {
        let text = std::str::from_utf8(body).ok()?;
        if text.trim_start().starts_with('{') {
            return serde_json::from_str(text).ok();
        }
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|v| v.get("id").is_some())
    }

    fn open(port: u16) -> Result<Client> {
        let mut client = Client::connect(port)?;
        let init = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": { "name": "schemcp-bench", "version": env!("CARGO_PKG_VERSION") }
            }
        });
        let answer = client.post(&init.to_string())?;
        if answer.status != 200 {
            bail!("initialize: HTTP {}", answer.status);
        }
        client.session = answer.session;
        let note = client.post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
        if !(200..300).contains(&note.status) {
            bail!("notifications/initialized: HTTP {}", note.status);
        }
        Ok(client)
    }
}

struct ClientResult {
    latencies: Vec<u64>,
    wrong: u64,
    cpu_ns: u64,
    elapsed: Duration,
}

/// Calls each client makes before it starts measuring.
const WARM_UP_CALLS: usize = 49;

pub fn round(subject: &Subject, o: &Options) -> Result<HttpRound> {
    let port = free_port()?;
    let child = Command::new(&subject.command[0])
        .args(&subject.command[1..])
        .args(["--http", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .env("RUST_LOG", "warn")
        .spawn()?;
    let pid = child.id();
    let _server = Server(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if Instant::now() > deadline {
            bail!("{} did not listen on port {port}", subject.key);
        }
        thread::sleep(Duration::from_millis(20));
    }
    let budget = o.http_budget;
    let barrier = Arc::new(Barrier::new(o.http_clients + 1));
    let workers: Vec<_> = (0..o.http_clients)
        .map(|_| {
            let barrier = barrier.clone();
            thread::spawn(move || -> Result<ClientResult> {
                let opened = Client::open(port);
                barrier.wait();
                let mut client = opened?;
                // Warm-up, then measure.
                for id in 1..=WARM_UP_CALLS as u64 {
                    client.post(&stdio::call_line(id))?;
                }
                barrier_free_measure(&mut client, budget)
            })
        })
        .collect();
    barrier.wait();
    // Sessions are open; from here the server answers the warm-up calls and the measured ones.
    let server0 = proc::process_cpu_ns(pid);
    let mut latencies = Vec::new();
    let (mut wrong, mut cpu, mut elapsed) = (0, 0, Duration::ZERO);
    for worker in workers {
        let r = worker
            .join()
            .map_err(|_| anyhow::anyhow!("client panicked"))??;
        latencies.extend(r.latencies);
        wrong += r.wrong;
        cpu += r.cpu_ns;
        elapsed = elapsed.max(r.elapsed);
    }
    let server_ns = proc::process_cpu_ns(pid) - server0;
    // Every client measures for the same budget after a short warm-up (excluded); calls/s is
    // the measured calls over the longest client's measured time.
    let calls = latencies.len() as f64;
    let served = calls + (WARM_UP_CALLS * o.http_clients) as f64;
    latencies.sort_unstable();
    Ok(HttpRound {
        calls_per_s: calls / elapsed.as_secs_f64(),
        p50_us: percentile_us(&latencies, 50.0),
        p99_us: percentile_us(&latencies, 99.0),
        server_cpu_us_per_call: server_ns as f64 / 1_000.0 / served,
        driver_cpu_us_per_call: cpu as f64 / 1_000.0 / calls,
        wrong: wrong as f64,
    })
}

fn barrier_free_measure(client: &mut Client, budget: Duration) -> Result<ClientResult> {
    let cpu0 = proc::thread_cpu_ns();
    let start = Instant::now();
    let mut latencies = Vec::new();
    let mut wrong = 0;
    let mut id = 1_000;
    while start.elapsed() < budget {
        let sent = Instant::now();
        let answer = client.post(&stdio::call_line(id))?;
        latencies.push(sent.elapsed().as_nanos() as u64);
        let good = answer.status == 200
            && Client::message(&answer.body)
                .is_some_and(|m| m["result"]["structuredContent"]["humidity"] == 0.83);
        if !good {
            wrong += 1;
        }
        id += 1;
    }
    Ok(ClientResult {
        latencies,
        wrong,
        cpu_ns: proc::thread_cpu_ns() - cpu0,
        elapsed: start.elapsed(),
    })
}
