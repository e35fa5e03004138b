//! `cargo run -p schemcp-fidelity -- [--suite DIR] [--out FILE]`: measures the generator on the
//! JSON-Schema-Test-Suite and writes `docs/fidelity.md`. The suite folder defaults to
//! `$SCHEMCP_JSON_SCHEMA_SUITE`, which `./scripts/test` sets after fetching the pinned suite.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use schemcp_fidelity::{Options, render, run};

fn main() -> Result<()> {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()?;
    let mut suite = std::env::var_os("SCHEMCP_JSON_SCHEMA_SUITE").map(PathBuf::from);
    let mut out = repo.join("docs/fidelity.md");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--suite" => suite = args.next().map(PathBuf::from),
            "--out" => out = args.next().map(PathBuf::from).context("--out FILE")?,
            other => bail!(
                "unknown argument `{other}`; usage: schemcp-fidelity [--suite DIR] [--out FILE]"
            ),
        }
    }
    let Some(suite) = suite else {
        bail!(
            "no suite: set SCHEMCP_JSON_SCHEMA_SUITE to the JSON-Schema-Test-Suite's tests/draft2020-12 \
             folder, or run ./scripts/test, which fetches the pinned copy"
        );
    };
    let work = schemcp_fidelity::default_work_dir(&repo);
    let started = std::time::Instant::now();
    let results = run(&Options { suite, work, repo })?;
    let label = schemcp_fidelity::suite_label();
    std::fs::write(&out, render(&results, &label))
        .with_context(|| format!("writing {}", out.display()))?;
    eprintln!("wrote {} in {:.0?}", out.display(), started.elapsed());
    Ok(())
}
