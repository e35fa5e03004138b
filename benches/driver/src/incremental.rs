//! The incremental-build comparison: a user-style crate with 100 synthetic tools (schemas,
//! `build.rs` calling `schemcp_build::compile`, a `main.rs` implementing the trait), built
//! once, then rebuilt after editing one schema and after editing one `.rs` file, alternately,
//! in rounds. Both are plain `cargo build` (dev profile), as a user's edit-build loop runs: once
//! as is, and once with the generator optimized (`[profile.dev.build-override] opt-level = 3`,
//! what the README recommends), each in its own target folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use schemcp_bench::synthetic;

pub const TOOLS: usize = 100;

#[derive(Debug, Default)]
pub struct Incremental {
    /// The first build of the crate, dependencies included (informative only).
    pub cold: Duration,
    pub schema_edit: Vec<Duration>,
    pub rs_edit: Vec<Duration>,
}

/// The crate's `main.rs`; `edit` changes the implementation of the tool whose schema the
/// other edit changes (a string in its body), as editing a tool's code does.
fn main_rs(edit: usize) -> String {
    let mut s = String::from(
        "//! 100 synthetic tools, for the incremental-build benchmark.\n\n\
         mod tools {\n    schemcp_runtime::include_tools!();\n}\n\n\
         use schemcp_runtime::{ToolContext, ToolError};\n\n\
         fn reading<T: serde::de::DeserializeOwned>(station: &str) -> Result<T, ToolError> {\n\
         \x20   serde_json::from_value(serde_json::json!({\n\
         \x20       \"reading\": { \"temperature\": 16.2, \"humidity\": 0.83, \"conditions\": \"Overcast\" },\n\
         \x20       \"station\": station,\n\
         \x20   }))\n\
         \x20   .map_err(|e| ToolError::new(e.to_string()))\n}\n\n\
         struct Synthetic;\n\nimpl tools::Tools for Synthetic {\n",
    );
    for i in 0..TOOLS {
        let name = synthetic::tool_name(i);
        let ty = format!("Tool{i:04}");
        let station = if i == TOOLS / 2 {
            format!("{name} (edit {edit})")
        } else {
            name.clone()
        };
        let _ = writeln!(
            s,
            "    async fn {name}(&self, input: tools::{ty}Input, _cx: &ToolContext) -> \
             Result<tools::{ty}Output, ToolError> {{\n        reading(&format!(\"{station} {{}}\", *input.city))\n    }}"
        );
    }
    let _ = write!(
        s,
        "}}\n\n#[tokio::main]\nasync fn main() -> Result<(), schemcp_runtime::Error> {{\n\
         \x20   schemcp_runtime::serve_stdio(tools::server(Synthetic)).await\n}}\n"
    );
    s
}

fn write_crate(dir: &Path, root: &Path, optimized_generator: bool) -> Result<()> {
    std::fs::create_dir_all(dir.join("src"))?;
    let crates = root.join("crates");
    let manifest = format!(
        "[package]\nname = \"synthetic-tools\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nschemcp-runtime = {{ path = {runtime:?} }}\nserde = \"1\"\nserde_json = \"1\"\n\
         tokio = {{ version = \"1\", features = [\"rt-multi-thread\", \"macros\"] }}\n\n\
         [build-dependencies]\nschemcp-build = {{ path = {build:?} }}\n\n\
         # Not part of the schemcp workspace.\n[workspace]\n{profile}",
        runtime = crates.join("schemcp-runtime"),
        build = crates.join("schemcp-build"),
        profile = if optimized_generator {
            "\n[profile.dev.build-override]\nopt-level = 3\n"
        } else {
            ""
        },
    );
    std::fs::write(dir.join("Cargo.toml"), manifest)?;
    // The workspace's lock file, so the crate builds with the versions schemcp is tested with.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))?;
    std::fs::write(
        dir.join("build.rs"),
        "fn main() {\n    if let Err(e) = schemcp_build::compile(\"schemas\") {\n        \
         panic!(\"{e:?}\");\n    }\n}\n",
    )?;
    std::fs::write(dir.join("src/main.rs"), main_rs(0))?;
    synthetic::write_schemas(&dir.join("schemas"), TOOLS)?;
    Ok(())
}

fn cargo_build(dir: &Path, target: &Path) -> Result<Duration> {
    let start = Instant::now();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .arg("build")
        .arg("--quiet")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        // The mirror check is for CI; this crate's mirror changes with every edit.
        .env_remove("CI")
        .status()
        .context("running cargo build")?;
    let elapsed = start.elapsed();
    if !status.success() {
        bail!("cargo build failed in {}", dir.display());
    }
    Ok(elapsed)
}

/// Builds the crate under `<target>/bench-incremental[-optimized]`, then times `rounds` edits
/// of each kind.
pub fn run(
    target: &Path,
    root: &Path,
    rounds: usize,
    optimized_generator: bool,
) -> Result<Incremental> {
    let base: PathBuf = target.join(if optimized_generator {
        "bench-incremental-optimized"
    } else {
        "bench-incremental"
    });
    let dir = base.join("crate");
    let build_target = base.join("target");
    write_crate(&dir, root, optimized_generator)?;
    let mut result = Incremental {
        cold: cargo_build(&dir, &build_target)?,
        ..Incremental::default()
    };
    let schema = dir.join(format!("schemas/{}.json", synthetic::tool_name(TOOLS / 2)));
    for round in 1..=rounds {
        let mut tool = synthetic::tool(TOOLS / 2);
        tool["description"] = format!("Edited description, round {round}.").into();
        std::fs::write(&schema, serde_json::to_string_pretty(&tool)?)?;
        result.schema_edit.push(cargo_build(&dir, &build_target)?);
        std::fs::write(dir.join("src/main.rs"), main_rs(round))?;
        result.rs_edit.push(cargo_build(&dir, &build_target)?);
    }
    Ok(result)
}
