//! The one shared way for tests to start an example server and run a real client against it.
//!
//! Included with `#[path]` by every test crate that needs it (weather, form-builder,
//! conformance), so there is
//! no test-only library crate:
//!
//! ```ignore
//! #[path = "../../../tests/interop/harness.rs"]
//! mod harness;
//! ```
//!
//! - [`HttpServer::start`] runs a server binary with `--http 127.0.0.1:0`, so the kernel picks a
//!   free loopback port, and reads the bound address from the server's
//!   `listening on http://ADDR/mcp` line; dropping it kills and reaps the process.
//! - [`Tools`] locates the pinned clients that `./scripts/test` installs (the Python venv, Node
//!   modules and the Node 22 binary) through environment variables, and panics with a message
//!   that says to run `./scripts/test` when one is missing: a client test never skips.
//! - [`run_client`] runs a client script, prints everything it said, and fails the test with
//!   that output when it exits non-zero; [`python_client`] and [`node_client`] run the scripts
//!   of `python/` and `ts/` with their common command line.

#![allow(dead_code)] // each test binary uses a different part of the harness

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const START_TIMEOUT: Duration = Duration::from_secs(20);

/// A server process serving Streamable HTTP on a free loopback port.
pub struct HttpServer {
    child: Child,
    /// `127.0.0.1:PORT`, as the server reported it.
    pub addr: String,
}

impl HttpServer {
    /// Starts `program --http 127.0.0.1:0` and waits for the first stderr line that says
    /// `listening on http://ADDR/mcp`. The rest of stderr is drained (and echoed when
    /// `SCHEMCP_SERVER_LOG` is set) so the server never blocks on a full pipe.
    pub fn start(program: &str) -> Self {
        Self::start_with(program, &[])
    }

    /// [`HttpServer::start`] with extra arguments after `--http 127.0.0.1:0`.
    pub fn start_with(program: &str, extra: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(["--http", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stderr = child.stderr.take().unwrap();
        let echo = std::env::var_os("SCHEMCP_SERVER_LOG").is_some();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if echo {
                    eprintln!("[server] {line}");
                }
                if !sent && let Some(at) = line.find("listening on http://") {
                    let rest = &line[at + "listening on http://".len()..];
                    let addr = rest.split('/').next().unwrap().to_string();
                    let _ = tx.send(addr);
                    sent = true;
                }
            }
        });
        let addr = rx
            .recv_timeout(START_TIMEOUT)
            .unwrap_or_else(|_| panic!("{program} never said where it listens"));
        HttpServer { child, addr }
    }

    /// `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn wait(&mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The pinned interop clients installed by `./scripts/test`.
pub struct Tools;

fn required_env(name: &str, what: &str) -> PathBuf {
    match std::env::var_os(name) {
        Some(value) if !value.is_empty() => {
            let path = PathBuf::from(value);
            assert!(
                path.exists(),
                "{name}={} does not exist; run ./scripts/test, which installs {what}",
                path.display()
            );
            path
        }
        _ => panic!(
            "{name} is not set: this test runs {what}, which ./scripts/test installs (pinned, \
             cached under the target folder) and points {name} at; run ./scripts/test"
        ),
    }
}

impl Tools {
    /// The venv Python with `mcp` installed (`SCHEMCP_PYTHON`).
    pub fn python() -> PathBuf {
        required_env(
            "SCHEMCP_PYTHON",
            "the Python mcp client from tests/interop/requirements.txt",
        )
    }

    /// The `node_modules` folder of `tests/interop/package.json` (`SCHEMCP_NODE_MODULES`).
    pub fn node_modules() -> PathBuf {
        required_env(
            "SCHEMCP_NODE_MODULES",
            "the Node clients from tests/interop/package-lock.json",
        )
    }

    /// The Node 22 binary from the pinned `node` package (`SCHEMCP_NODE`).
    pub fn node() -> PathBuf {
        required_env(
            "SCHEMCP_NODE",
            "Node 22 (the pinned node package in tests/interop/package-lock.json)",
        )
    }

    /// A script in `tests/interop/`.
    pub fn script(relative: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .map(|dir| dir.join("tests/interop").join(relative))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("tests/interop/{relative} not found"))
    }

    /// `node SCRIPT` on the pinned Node 22. ES modules ignore `NODE_PATH`, so the script and
    /// the modules beside it (`client.mjs`) are copied beside the pinned `node_modules` (into
    /// `run/`) and run from there, where its bare imports (`@modelcontextprotocol/sdk/...`)
    /// resolve to the pinned packages.
    pub fn node_script(relative: &str) -> Command {
        let modules = Self::node_modules();
        let source = Self::script(relative);
        let run = modules.parent().unwrap().join("run").join(relative);
        let folder = run.parent().unwrap();
        std::fs::create_dir_all(folder).unwrap();
        let siblings = std::fs::read_dir(source.parent().unwrap()).unwrap();
        for sibling in siblings.map(|entry| entry.unwrap().path()) {
            if sibling.extension().is_some_and(|e| e == "mjs") {
                // Through a file of this copy's own, renamed into place: tests running at once
                // copy the same files, and a reader must never see one half written.
                let name = sibling.file_name().unwrap();
                let to = folder.join(name);
                static COPIES: std::sync::atomic::AtomicUsize =
                    std::sync::atomic::AtomicUsize::new(0);
                let n = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let partial = folder.join(format!(
                    ".{}.{}.{n}",
                    name.to_string_lossy(),
                    std::process::id()
                ));
                std::fs::copy(&sibling, &partial)
                    .and_then(|_| std::fs::rename(&partial, &to))
                    .unwrap_or_else(|e| {
                        panic!("cannot copy {} to {}: {e}", sibling.display(), to.display())
                    });
            }
        }
        let mut command = Command::new(Self::node());
        command.arg(run).env("SCHEMCP_NODE_MODULES", &modules);
        command
    }

    /// A package's executable in the pinned `node_modules/.bin`, run on the pinned Node 22.
    pub fn node_bin(name: &str) -> Command {
        let bin = Self::node_modules().join(".bin").join(name);
        assert!(
            bin.exists(),
            "{} is missing; run ./scripts/test",
            bin.display()
        );
        let mut command = Command::new(Self::node());
        command.arg(bin);
        command
    }

    /// `python SCRIPT` with the venv interpreter.
    pub fn python_script(relative: &str) -> Command {
        let mut command = Command::new(Self::python());
        command.arg(Self::script(relative));
        command
    }
}

/// Runs `command` to completion with a time limit, prints its output (cargo shows it for failing
/// tests), and panics with that output if it exits non-zero or runs out of time.
pub fn run_client(what: &str, command: &mut Command, limit: Duration) -> Output {
    let output = run_with_limit(command, limit)
        .unwrap_or_else(|e| panic!("{what}: could not run {command:?}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("---- {what}: stdout ----\n{stdout}\n---- {what}: stderr ----\n{stderr}");
    assert!(
        output.status.success(),
        "{what} failed ({}): see its output above.\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        output.status
    );
    output
}

/// Runs `python/<script> --mode MODE TARGET...` (the Python clients' command line, see
/// `python/interop.py`) with [`run_client`]; `TARGET` is `--stdio CMD...` or `--url URL`.
pub fn python_client(script: &str, mode: &str, target: &[&str], limit: Duration) -> Output {
    let mut command = Tools::python_script(&format!("python/{script}"));
    command.args(["--mode", mode]).args(target);
    run_client(
        &format!("python mcp {script} ({mode})"),
        &mut command,
        limit,
    )
}

/// Runs `ts/<script> --sdk SDK --mode MODE TARGET...` (the TypeScript clients' command line,
/// see `ts/client.mjs`) with [`run_client`].
pub fn node_client(
    script: &str,
    sdk: &str,
    mode: &str,
    target: &[&str],
    limit: Duration,
) -> Output {
    let mut command = Tools::node_script(&format!("ts/{script}"));
    command.args(["--sdk", sdk, "--mode", mode]).args(target);
    run_client(
        &format!("typescript {sdk} {script} ({mode})"),
        &mut command,
        limit,
    )
}

/// Like `Command::output`, but kills the process after `limit`.
pub fn run_with_limit(command: &mut Command, limit: Duration) -> std::io::Result<Output> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut buf);
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut buf);
        buf
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let status = child.wait()?;
            let mut stderr = err.join().unwrap_or_default();
            stderr.extend_from_slice(
                format!("\n[harness] killed after {}s\n", limit.as_secs()).as_bytes(),
            );
            return Ok(Output {
                status,
                stdout: out.join().unwrap_or_default(),
                stderr,
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Ok(Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}
