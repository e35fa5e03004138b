//! `schemcp-bench`: runs schemcp and its peers side by side, interleaved in rounds, and writes
//! `docs/benchmarks.md`. Run it through `./scripts/bench`, which installs the pinned SDKs and
//! builds every subject first.

mod http;
mod in_situ;
mod incremental;
mod proc;
mod report;
mod stdio;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};

/// A server under test and how to start it.
#[derive(Clone)]
pub struct Subject {
    pub key: &'static str,
    pub label: &'static str,
    pub validates: bool,
    pub command: Vec<String>,
    /// Whether it has an `--http ADDR` mode.
    pub http: bool,
}

pub struct Options {
    pub target: PathBuf,
    pub out: PathBuf,
    pub rounds: usize,
    pub seq_budget: Duration,
    pub pipe_budget: Duration,
    pub http_budget: Duration,
    pub window: u64,
    pub http_clients: usize,
    pub eof_calls: u64,
    pub only: Option<Vec<String>>,
    pub skip: Vec<String>,
}

const USAGE: &str = "usage: schemcp-bench [--target DIR] [--out FILE] [--rounds N] [--quick] \
[--eof-calls N] [--only a,b] [--skip stdio,http,tools,in-situ,eof,criterion,incremental]";

fn parse() -> Result<Options> {
    let mut o = Options {
        target: PathBuf::from(
            std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into()),
        ),
        out: PathBuf::from("docs/benchmarks.md"),
        rounds: std::env::var("SCHEMCP_BENCH_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(9),
        seq_budget: Duration::from_millis(1000),
        pipe_budget: Duration::from_millis(2000),
        http_budget: Duration::from_millis(2000),
        window: 32,
        http_clients: 16,
        eof_calls: 100_000,
        only: None,
        skip: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().context(USAGE);
        match arg.as_str() {
            "--target" => o.target = value()?.into(),
            "--out" => o.out = value()?.into(),
            "--rounds" => o.rounds = value()?.parse()?,
            "--eof-calls" => o.eof_calls = value()?.parse()?,
            "--only" => o.only = Some(value()?.split(',').map(String::from).collect()),
            "--skip" => o.skip = value()?.split(',').map(String::from).collect(),
            "--quick" => {
                o.rounds = 3;
                o.seq_budget = Duration::from_millis(300);
                o.pipe_budget = Duration::from_millis(500);
                o.http_budget = Duration::from_millis(500);
                o.eof_calls = 10_000;
            }
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown argument {other:?}\n{USAGE}"),
        }
    }
    Ok(o)
}

fn env_path(name: &str) -> Result<PathBuf> {
    std::env::var_os(name)
        .map(PathBuf::from)
        .with_context(|| format!("{name} is not set: run through ./scripts/bench"))
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The peers' TypeScript server must sit beside the pinned node_modules for its bare imports.
fn stage_typescript(root: &Path) -> Result<PathBuf> {
    let modules = env_path("SCHEMCP_NODE_MODULES")?;
    let dir = modules
        .parent()
        .context("node_modules has a parent")?
        .join("bench");
    std::fs::create_dir_all(&dir)?;
    let staged = dir.join("server.mjs");
    std::fs::copy(root.join("benches/peers/typescript/server.mjs"), &staged)?;
    Ok(staged)
}

fn subjects(o: &Options, root: &Path) -> Result<Vec<Subject>> {
    let release = o.target.join("release");
    let python = env_path("SCHEMCP_PYTHON")?;
    let node = env_path("SCHEMCP_NODE")?;
    let ts = stage_typescript(root)?;
    let all = vec![
        Subject {
            key: "schemcp",
            label: "schemcp (examples/weather)",
            validates: true,
            command: vec![s(&release.join("weather"))],
            http: true,
        },
        Subject {
            key: "rmcp-pipes",
            label: "rmcp hand-written, `stdio_pipes()`",
            validates: false,
            command: vec![s(&release.join("bench-rmcp-handwritten"))],
            http: true,
        },
        Subject {
            key: "rmcp-macros",
            label: "rmcp macros, `stdio()`",
            validates: false,
            command: vec![s(&release.join("bench-rmcp-macros"))],
            http: true,
        },
        Subject {
            key: "typescript",
            label: "TypeScript SDK `McpServer`",
            validates: true,
            command: vec![s(&node), s(&ts)],
            http: true,
        },
        Subject {
            key: "python",
            label: "Python SDK `MCPServer`",
            validates: true,
            command: vec![s(&python), s(&root.join("benches/peers/python/server.py"))],
            http: true,
        },
    ];
    for subject in &all {
        let first = Path::new(&subject.command[0]);
        if !first.exists() {
            bail!(
                "{} is missing: build it first (./scripts/bench does)",
                first.display()
            );
        }
    }
    Ok(all
        .into_iter()
        .filter(|s| {
            o.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|k| k == s.key))
        })
        .collect())
}

fn main() -> Result<()> {
    let o = parse()?;
    let root = std::env::current_dir()?;
    let subjects = subjects(&o, &root)?;
    let skip = |what: &str| o.skip.iter().any(|s| s == what);
    let mut results = report::Results::default();
    eprintln!(
        "schemcp-bench: {} subjects, {} rounds",
        subjects.len(),
        o.rounds
    );
    for round in 0..o.rounds {
        // Rotate the order every round so no subject always runs first or last.
        let n = subjects.len();
        for i in 0..n {
            let subject = &subjects[(i + round) % n];
            if !skip("stdio") {
                match report::stdio_round(subject, &o) {
                    Ok(r) => results.stdio.entry(subject.key).or_default().push(r),
                    Err(e) => eprintln!("  {} stdio round {round}: {e:#}", subject.key),
                }
            }
            if !skip("http") && subject.http {
                match http::round(subject, &o) {
                    Ok(r) => results.http.entry(subject.key).or_default().push(r),
                    Err(e) => eprintln!("  {} http round {round}: {e:#}", subject.key),
                }
            }
        }
        if !skip("tools") {
            for (key, command) in tools_subjects(&o) {
                match report::tools_round(&command, &o) {
                    Ok(r) => results.tools.entry(key).or_default().push(r),
                    Err(e) => eprintln!("  {key} tools/list round {round}: {e:#}"),
                }
            }
        }
        eprintln!("round {} of {} done", round + 1, o.rounds);
    }
    if !skip("in-situ")
        && let Some(schemcp) = subjects.iter().find(|s| s.key == "schemcp")
    {
        eprintln!("  in situ: perf samples of the schemcp server under pipelined load");
        let data = o.target.join("bench-in-situ.perf.data");
        results.in_situ = Some(
            in_situ::run(schemcp, o.window, o.pipe_budget * 3, &data).map_err(|e| {
                eprintln!("  in situ: {e:#}");
                format!("{e:#}")
            }),
        );
    }
    if !skip("eof") {
        for subject in &subjects {
            eprintln!("  EOF: {} ({} calls)", subject.key, o.eof_calls);
            match stdio::eof(&subject.command, o.eof_calls, Duration::from_secs(600)) {
                Ok(r) => {
                    results.eof.insert(subject.key, r);
                }
                Err(e) => eprintln!("  {} eof: {e:#}", subject.key),
            }
        }
    }
    if !skip("incremental") {
        eprintln!("  incremental build ({} tools)", incremental::TOOLS);
        let rounds = if o.rounds < 9 { 2 } else { 5 };
        for optimized in [false, true] {
            match incremental::run(&o.target, &root, rounds, optimized) {
                Ok(r) if optimized => results.incremental_optimized = Some(r),
                Ok(r) => results.incremental = Some(r),
                Err(e) => {
                    eprintln!("  incremental build (optimized generator: {optimized}): {e:#}")
                }
            }
        }
    }
    if !skip("criterion") {
        results.criterion = report::criterion_medians(&o.target.join("criterion"));
    }
    let text = report::markdown(&o, &subjects, &results)?;
    std::fs::write(&o.out, text).with_context(|| format!("writing {}", o.out.display()))?;
    eprintln!("wrote {}", o.out.display());
    Ok(())
}

/// The servers `tools/list` is measured on: 1,000 synthetic tools each.
fn tools_subjects(o: &Options) -> Vec<(&'static str, Vec<String>)> {
    let release = o.target.join("release");
    vec![
        (
            "schemcp",
            vec![s(&release.join("schemcp-bench-tools")), "1000".into()],
        ),
        (
            "rmcp-pipes",
            vec![
                s(&release.join("bench-rmcp-handwritten")),
                "--tools".into(),
                "1000".into(),
            ],
        ),
    ]
}
