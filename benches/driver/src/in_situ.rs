//! What validation and the text block cost inside the running weather server: `perf record`
//! samples of the server process under the pipelined load, grouped by symbol.
//!
//! criterion times those stages in a loop, where their code and data stay in cache; in the
//! server they run once per call between rmcp, tokio and the kernel, and cost more. Sampling
//! the real process measures the target as the issue states it: a share of the server's CPU.
//! Attribution is by the symbol a sample lands in, so code the compiler inlines into a caller
//! outside these groups is not counted (the report says which symbols are).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::Subject;
use crate::stdio::{self, Session};

/// Sampling frequency: high enough for a few thousand samples in the pipelined budget.
const FREQUENCY: &str = "2999";

/// Samples of the weather server, grouped.
pub struct InSitu {
    pub total: u64,
    /// In `jsonschema` and in the runtime's `catalog::violations`, which calls it.
    pub validation: u64,
    /// In the runtime's `write_text_blocks`, which writes the text block from the printed
    /// `structuredContent` (the re-indentation is inlined there).
    pub text_block: u64,
    pub server_cpu_us_per_call: f64,
}

impl InSitu {
    pub fn share(&self, samples: u64) -> f64 {
        samples as f64 / self.total as f64 * 100.0
    }
}

/// What a symbol counted as validation contains: jsonschema's own, and the runtime's one call
/// into it per schema.
pub const VALIDATION_SYMBOLS: &[&str] = &[
    "jsonschema::",
    "jsonschema_value::",
    "schemcp_runtime::catalog::violations",
];
/// What a symbol counted as the text block contains (the re-indentation is inlined there).
pub const TEXT_SYMBOLS: &[&str] = &["schemcp_runtime::call_answer::write_text_blocks"];

/// Samples `subject` (the weather server) under one pipelined run of `budget`, with perf
/// writing to `data`.
pub fn run(subject: &Subject, window: u64, budget: Duration, data: &Path) -> Result<InSitu> {
    let mut session = Session::start(&subject.command)?;
    session.sequential(1, 500, Duration::from_millis(300), stdio::call_line, true)?;
    // A file left by an earlier run must not pass for this one's.
    let _ = std::fs::remove_file(data);
    let perf = Command::new("perf")
        .args(["record", "-F", FREQUENCY, "-o"])
        .arg(data)
        .args(["-p", &session.pid().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let perf = match perf {
        Ok(perf) => perf,
        Err(e) => {
            session.stop(Duration::from_secs(5))?;
            return Err(e).context("starting `perf record` (is perf installed?)");
        }
    };
    // perf attaches asynchronously; calls made before it does are simply not sampled.
    std::thread::sleep(Duration::from_millis(300));
    let pipe = session.pipelined(20_000_000, window, budget);
    // SIGINT makes perf write its data and exit.
    let _ = Command::new("kill")
        .args(["-INT", &perf.id().to_string()])
        .status();
    let perf_out = perf.wait_with_output()?;
    session.stop(Duration::from_secs(5))?;
    let pipe = pipe?;
    // perf exits with the interrupt's status after writing its data; only no data is a failure.
    if !std::fs::metadata(data).is_ok_and(|m| m.len() > 0) {
        bail!(
            "perf record failed: {}",
            String::from_utf8_lossy(&perf_out.stderr).trim()
        );
    }
    let report = Command::new("perf")
        .args(["report", "--stdio", "--no-children", "--sort", "sym", "-n"])
        .arg("-i")
        .arg(data)
        .stderr(Stdio::null())
        .output()
        .context("running `perf report`")?;
    if !report.status.success() {
        bail!("perf report failed");
    }
    let mut grouped = group(&String::from_utf8_lossy(&report.stdout));
    if grouped.total == 0 {
        bail!("perf recorded no samples of the server");
    }
    let calls = pipe.latencies.len() as f64;
    grouped.server_cpu_us_per_call = pipe.server_cpu_ns as f64 / 1_000.0 / calls;
    Ok(grouped)
}

/// Sums the sample counts of `perf report --stdio -n --sort sym` lines
/// (`  1.16%  267  [.] symbol`).
fn group(report: &str) -> InSitu {
    let mut grouped = InSitu {
        total: 0,
        validation: 0,
        text_block: 0,
        server_cpu_us_per_call: f64::NAN,
    };
    for line in report.lines() {
        let mut fields = line.split_whitespace();
        let (Some(percent), Some(samples)) = (fields.next(), fields.next()) else {
            continue;
        };
        let (true, Ok(samples)) = (percent.ends_with('%'), samples.parse::<u64>()) else {
            continue;
        };
        let symbol = fields.skip(1).collect::<Vec<_>>().join(" ");
        grouped.total += samples;
        let counted = |symbols: &[&str]| symbols.iter().any(|s| symbol.contains(s));
        if counted(VALIDATION_SYMBOLS) {
            grouped.validation += samples;
        } else if counted(TEXT_SYMBOLS) {
            grouped.text_block += samples;
        }
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_grouped_by_symbol() {
        let report = "\
# Samples: 1K of event 'cpu-clock'
#
    15.84%          3644  [k] _raw_spin_unlock_irqrestore
     1.16%           267  [.] schemcp_runtime::call_answer::write_text_blocks::{{closure}}
     0.33%            75  [.] schemcp_runtime::catalog::violations
     0.29%            66  [.] <jsonschema::keywords::properties::SmallPropertiesValidator<F> as jsonschema::validator::Validate<F>>::is_valid
     0.11%            25  [.] <jsonschema_value::serde_json::SerdeMembersIter as core::iter::traits::iterator::Iterator>::next
     0.20%            47  [.] schemcp_runtime::call_answer::compose
";
        let grouped = group(report);
        assert_eq!(
            (grouped.total, grouped.validation, grouped.text_block),
            (3644 + 267 + 75 + 66 + 25 + 47, 75 + 66 + 25, 267)
        );
    }
}
