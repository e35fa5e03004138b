//! Stdio sessions: spawn a subject, do the legacy `initialize` handshake, then run calls
//! sequentially, pipelined with a fixed window, or all at once followed by EOF.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::proc;

/// The request every scenario sends, with its id spliced in.
pub fn call_line(id: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"get_weather","arguments":{{"city":"London"}}}}}}"#
    )
}

pub fn list_line(id: u64) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{}}}}"#)
}

/// Whether a response line is a correct `get_weather` answer.
fn is_weather(response: &Value) -> bool {
    response["result"]["structuredContent"]["humidity"] == 0.83
}

pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<(String, Instant)>,
    reader: Option<thread::JoinHandle<u64>>,
}

/// The id and arrival time of every response line, read on a thread that reports its own CPU.
fn spawn_reader(
    stdout: impl std::io::Read + Send + 'static,
) -> (mpsc::Receiver<(String, Instant)>, thread::JoinHandle<u64>) {
    let (tx, rx) = mpsc::channel();
    let handle = thread::spawn(move || {
        let start = proc::thread_cpu_ns();
        let mut reader = BufReader::with_capacity(1 << 16, stdout);
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send((line.clone(), Instant::now())).is_err() {
                        break;
                    }
                }
            }
        }
        proc::thread_cpu_ns() - start
    });
    (rx, handle)
}

fn id_of(line: &str) -> Option<u64> {
    // Cheap: find `"id":N` without parsing the whole response.
    let at = line.find("\"id\":")? + 5;
    let digits: String = line[at..]
        .chars()
        .skip_while(|c| *c == ' ')
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

pub struct Calls {
    /// Per-call latencies in nanoseconds, in completion order.
    pub latencies: Vec<u64>,
    pub elapsed: Duration,
    /// Responses that were not a correct `get_weather` answer.
    pub wrong: u64,
    /// Driver CPU (both driver threads) spent, in nanoseconds.
    pub driver_cpu_ns: u64,
    /// Server CPU (all its threads) spent, in nanoseconds (10 ms resolution).
    pub server_cpu_ns: u64,
}

impl Session {
    pub fn start(command: &[String]) -> Result<Session> {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env("RUST_LOG", "warn")
            .spawn()
            .with_context(|| format!("starting {command:?}"))?;
        let stdout = child.stdout.take().expect("piped");
        let (lines, reader) = spawn_reader(stdout);
        let mut session = Session {
            stdin: child.stdin.take(),
            child,
            lines,
            reader: Some(reader),
        };
        session.send(
            &json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": { "name": "schemcp-bench", "version": env!("CARGO_PKG_VERSION") }
                }
            })
            .to_string(),
        )?;
        let (line, _) = session
            .lines
            .recv_timeout(Duration::from_secs(60))
            .context("no answer to initialize")?;
        let answer: Value = serde_json::from_str(&line)?;
        if answer["result"]["protocolVersion"].is_null() {
            bail!("initialize failed: {line}");
        }
        session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
        Ok(session)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let stdin = self.stdin.as_mut().context("stdin closed")?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()?;
        Ok(())
    }

    fn recv(&self) -> Result<(String, Instant)> {
        self.lines
            .recv_timeout(Duration::from_secs(60))
            .context("no response within 60 s")
    }

    /// One request at a time, `count` times or until `budget` has passed.
    pub fn sequential(
        &mut self,
        first_id: u64,
        count: u64,
        budget: Duration,
        line: fn(u64) -> String,
        check: bool,
    ) -> Result<Calls> {
        let cpu0 = proc::thread_cpu_ns();
        let server0 = proc::process_cpu_ns(self.pid());
        let start = Instant::now();
        let mut latencies = Vec::with_capacity(count as usize);
        let mut wrong = 0;
        for id in first_id..first_id + count {
            let sent = Instant::now();
            self.send(&line(id))?;
            let (answer, at) = self.recv()?;
            latencies.push((at - sent).as_nanos() as u64);
            if check && !is_weather(&serde_json::from_str(&answer)?) {
                wrong += 1;
            }
            if start.elapsed() > budget {
                break;
            }
        }
        Ok(Calls {
            latencies,
            elapsed: start.elapsed(),
            wrong,
            driver_cpu_ns: proc::thread_cpu_ns() - cpu0,
            server_cpu_ns: proc::process_cpu_ns(self.pid()) - server0,
        })
    }

    /// `window` calls in flight at all times until `budget` has passed, then drain.
    pub fn pipelined(&mut self, first_id: u64, window: u64, budget: Duration) -> Result<Calls> {
        let mut stdin = self.stdin.take().context("stdin closed")?;
        let cpu0 = proc::thread_cpu_ns();
        let server0 = proc::process_cpu_ns(self.pid());
        let start = Instant::now();
        // Sending and receiving on one thread: write up to `window`, then one write per
        // response read. Pipes buffer 64 KiB, far more than 32 requests, so writes never block.
        let mut sent = std::collections::HashMap::with_capacity(window as usize * 2);
        let mut latencies = Vec::new();
        let mut wrong = 0;
        let mut next = first_id;
        let mut batch = String::new();
        for _ in 0..window {
            batch.push_str(&call_line(next));
            batch.push('\n');
            sent.insert(next, Instant::now());
            next += 1;
        }
        stdin.write_all(batch.as_bytes())?;
        stdin.flush()?;
        let mut stopping = false;
        while !sent.is_empty() {
            let (answer, at) = self.recv()?;
            let Some(id) = id_of(&answer) else { continue };
            let Some(t) = sent.remove(&id) else { continue };
            latencies.push((at - t).as_nanos() as u64);
            // A full parse of every 32nd answer keeps the check honest and the driver cheap.
            let good = if id % 32 == 0 {
                is_weather(&serde_json::from_str(&answer)?)
            } else {
                answer.contains("0.83")
            };
            if !good {
                wrong += 1;
            }
            if !stopping && start.elapsed() > budget {
                stopping = true;
            }
            if !stopping {
                let line = call_line(next);
                sent.insert(next, Instant::now());
                next += 1;
                stdin.write_all(line.as_bytes())?;
                stdin.write_all(b"\n")?;
                stdin.flush()?;
            }
        }
        let elapsed = start.elapsed();
        self.stdin = Some(stdin);
        Ok(Calls {
            latencies,
            elapsed,
            wrong,
            driver_cpu_ns: proc::thread_cpu_ns() - cpu0,
            server_cpu_ns: proc::process_cpu_ns(self.pid()) - server0,
        })
    }

    /// Peak resident set of the server so far (VmHWM), in KiB.
    pub fn peak_rss_kib(&self) -> Option<u64> {
        proc::peak_rss_kib(self.pid())
    }

    /// Closes stdin and waits for the process to exit (killing it after `grace`).
    pub fn stop(mut self, grace: Duration) -> Result<()> {
        drop(self.stdin.take());
        let deadline = Instant::now() + grace;
        loop {
            if self.child.try_wait()?.is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        Ok(())
    }
}

pub struct Eof {
    pub sent: u64,
    pub answered: u64,
    pub correct: u64,
    pub elapsed: Duration,
    pub exited_cleanly: bool,
}

/// `count` calls written without waiting, then stdin closed; counts distinct answered ids.
pub fn eof(command: &[String], count: u64, timeout: Duration) -> Result<Eof> {
    let mut session = Session::start(command)?;
    let stdin = session.stdin.take().context("stdin")?;
    let start = Instant::now();
    let writer = thread::spawn(move || -> std::io::Result<()> {
        let mut stdin = std::io::BufWriter::with_capacity(1 << 16, stdin);
        for id in 1..=count {
            stdin.write_all(call_line(id).as_bytes())?;
            stdin.write_all(b"\n")?;
        }
        stdin.flush()
        // dropped here: EOF
    });
    let mut seen = vec![false; count as usize + 1];
    let (mut answered, mut correct) = (0, 0);
    let deadline = start + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match session.lines.recv_timeout(left) {
            Ok((line, _)) => {
                if let Some(id) = id_of(&line).filter(|id| (1..=count).contains(id))
                    && !seen[id as usize]
                {
                    seen[id as usize] = true;
                    answered += 1;
                    if line.contains("0.83") {
                        correct += 1;
                    }
                }
            }
            Err(_) => break, // EOF (reader gone) or timeout
        }
    }
    let elapsed = start.elapsed();
    let _ = writer.join();
    // Stdout closed; give the process a moment to exit on its own.
    let exit_deadline = Instant::now() + Duration::from_secs(10);
    let exited_cleanly = loop {
        if let Some(status) = session.child.try_wait()? {
            break status.success();
        }
        if Instant::now() > exit_deadline {
            let _ = session.child.kill();
            let _ = session.child.wait();
            break false;
        }
        thread::sleep(Duration::from_millis(10));
    };
    if let Some(reader) = session.reader.take() {
        let _ = reader.join();
    }
    Ok(Eof {
        sent: count,
        answered,
        correct,
        elapsed,
        exited_cleanly,
    })
}

impl Session {
    /// Size in bytes of one `tools/list` answer.
    pub fn list_bytes(&mut self, id: u64) -> Result<usize> {
        self.send(&list_line(id))?;
        Ok(self.recv()?.0.len())
    }
}
