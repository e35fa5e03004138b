//! `schemcp serve`: schemcp's own tools, authored in `schemas/` and implemented through the
//! generated `Tools` trait like any user's.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use schemcp_runtime::{ToolContext, ToolError};
use serde_json::Value;

mod tools {
    schemcp_runtime::include_tools!();
}

use tools::{
    CheckReport, CheckToolsInput, ContractFile, DiffContractsInput, DiffReport, Tools,
    ValidateInstanceInput, ValidationReport,
};

/// The tools `schemcp serve` offers.
struct Schemcp;

impl Tools for Schemcp {
    async fn validate_instance(
        &self,
        input: ValidateInstanceInput,
        _cx: &ToolContext,
    ) -> Result<ValidationReport, ToolError> {
        validate_instance(&input.schema, &input.instance)
    }

    async fn check_tools(
        &self,
        input: CheckToolsInput,
        _cx: &ToolContext,
    ) -> Result<CheckReport, ToolError> {
        let files = input
            .files
            .into_iter()
            .map(|f| (PathBuf::from(f.path), f.content))
            .collect();
        let builder = (input.extern_crates.into_iter().flatten())
            .fold(schemcp_build::Builder::new(), |builder, (name, version)| {
                builder.extern_crate(name, version)
            });
        Ok(check_sources(files, builder))
    }

    async fn diff_contracts(
        &self,
        input: DiffContractsInput,
        _cx: &ToolContext,
    ) -> Result<DiffReport, ToolError> {
        diff_contracts(input.old, input.new)
    }
}

/// Loads both sides as `schemcp diff` loads two folders and returns the report in the shape of
/// `--format json`.
fn diff_contracts(old: Vec<ContractFile>, new: Vec<ContractFile>) -> Result<DiffReport, ToolError> {
    let load = |side: &str, files: Vec<ContractFile>| {
        let files = files
            .into_iter()
            .map(|f| (PathBuf::from(f.path), f.content))
            .collect();
        schemcp_contract::load_sources(Path::new(""), files).map_err(|diagnostics| {
            let lines: Vec<String> = diagnostics.0.iter().map(|d| d.one_line()).collect();
            ToolError::new(format!(
                "the {side} contract files do not load:\n{}",
                lines.join("\n")
            ))
        })
    };
    let report = schemcp_diff::diff(&load("old", old)?, &load("new", new)?);
    // The generated type is the contract; the library's report serializes to the same shape,
    // which the runtime checks again against the output schema.
    serde_json::to_value(&report)
        .and_then(serde_json::from_value)
        .map_err(|e| ToolError::new(format!("the diff report does not fit its contract: {e}")))
}

/// Validates `instance` against `schema` with the same validator the runtime uses (2020-12
/// unless `$schema` says otherwise; references are never fetched).
fn validate_instance(schema: &Value, instance: &Value) -> Result<ValidationReport, ToolError> {
    let validator = jsonschema::validator_for(schema)
        .map_err(|e| ToolError::new(format!("the schema is not a valid JSON Schema: {e}")))?;
    let errors: Vec<tools::ValidationError> = validator
        .iter_errors(instance)
        .map(|e| tools::ValidationError {
            instance_path: e.instance_path().to_string(),
            schema_path: e.schema_path().to_string(),
            message: e.to_string(),
        })
        .collect();
    Ok(ValidationReport {
        valid: errors.is_empty(),
        errors,
    })
}

/// Loads inline contract files exactly as `schemcp check` loads a folder: the loader's lints,
/// then the generator's (configured as the package's build.rs would, as far as it changes what
/// is reported).
fn check_sources(files: Vec<(PathBuf, String)>, builder: schemcp_build::Builder) -> CheckReport {
    // An empty root keeps reported paths relative, as the caller gave them.
    let (tools, diagnostics) = match schemcp_contract::load_sources(Path::new(""), files) {
        Err(diagnostics) => (Vec::new(), diagnostics.0),
        Ok(set) => match builder.generate_from(&set) {
            Ok(generated) => (
                set.tools.iter().map(|t| t.name.clone()).collect(),
                generated.warnings,
            ),
            Err(schemcp_build::Error::Schemas(diagnostics)) => (Vec::new(), diagnostics.0),
            Err(error) => (
                Vec::new(),
                vec![schemcp_contract::Diagnostic::new(
                    schemcp_contract::Severity::Error,
                    "generator",
                    error.to_string(),
                    "",
                )],
            ),
        },
    };
    let ok = !diagnostics.iter().any(|d| d.is_error());
    CheckReport {
        ok,
        tools,
        diagnostics: diagnostics.iter().map(to_diagnostic).collect(),
    }
}

fn to_diagnostic(d: &schemcp_contract::Diagnostic) -> tools::Diagnostic {
    tools::Diagnostic {
        severity: if d.is_error() {
            tools::DiagnosticSeverity::Error
        } else {
            tools::DiagnosticSeverity::Warning
        },
        code: d.code.to_string(),
        message: d.message.clone(),
        file: d.file.display().to_string(),
        pointer: d.pointer.clone(),
        line: d.line.and_then(|l| std::num::NonZeroU64::new(l as u64)),
        column: d.column.and_then(|c| std::num::NonZeroU64::new(c as u64)),
        help: d.help.clone(),
    }
}

pub fn run(http: Option<SocketAddr>) -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let server = tools::server(Schemcp).with_info("schemcp", env!("CARGO_PKG_VERSION"));
    let served = runtime.block_on(async move {
        match http {
            None => schemcp_runtime::serve_stdio(server).await,
            Some(addr) => schemcp_runtime::serve_http(server, addr).await,
        }
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn validate_instance_names_each_failing_path() {
        let schema = json!({
            "type": "object",
            "properties": { "humidity": { "type": "number", "maximum": 1 } },
            "required": ["humidity", "conditions"]
        });
        let report = validate_instance(&schema, &json!({ "humidity": 83 })).unwrap();
        assert!(!report.valid);
        let paths: Vec<&str> = report
            .errors
            .iter()
            .map(|e| e.instance_path.as_str())
            .collect();
        assert!(paths.contains(&"/humidity"), "{paths:?}");
        assert!(
            paths.contains(&""),
            "missing `conditions` is reported at the root: {paths:?}"
        );
        assert!(
            report
                .errors
                .iter()
                .any(|e| e.message.contains("conditions"))
        );
    }

    #[test]
    fn validate_instance_accepts_a_valid_value() {
        let report = validate_instance(&json!({ "type": "integer" }), &json!(17)).unwrap();
        assert!(report.valid && report.errors.is_empty());
    }

    #[test]
    fn an_invalid_schema_is_a_tool_error() {
        let error = validate_instance(&json!({ "type": 12 }), &json!(1)).unwrap_err();
        assert!(
            error.to_string().contains("not a valid JSON Schema"),
            "{error}"
        );
    }
}
