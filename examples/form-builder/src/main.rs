//! A tool that takes a JSON Schema and returns one: `describe_form` lists the fields a form for
//! the schema would have. Both members reference the 2020-12 metaschema, so the generated type
//! is `schemcp_runtime::JsonSchema` and every call is validated against the metaschema, which
//! the validator has built in (nothing is fetched).
//!
//! Usage: `form-builder` serves MCP over stdio; `form-builder --http 127.0.0.1:8000` serves
//! Streamable HTTP at `/mcp`.

mod tools {
    schemcp_runtime::include_tools!();
}

use schemcp_runtime::{ToolContext, ToolError};
use tools::{DescribeFormInput, Form, Tools};

struct FormBuilder;

impl Tools for FormBuilder {
    async fn describe_form(
        &self,
        input: DescribeFormInput,
        _cx: &ToolContext,
    ) -> Result<Form, ToolError> {
        // `true` and a schema without `properties` describe a form without named fields.
        let fields = input
            .schema
            .get("properties")
            .and_then(|properties| properties.as_object())
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default();
        Ok(Form {
            fields,
            schema: input.schema,
        })
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // stdout is the MCP transport: logs (`listening on ...` over HTTP) go to stderr.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    let server = tools::server(FormBuilder);
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(schemcp_runtime::serve_stdio(server))?,
        (Some("--http"), Some(addr)) => {
            let addr = addr.parse()?;
            tokio::runtime::Runtime::new()?.block_on(schemcp_runtime::serve_http(server, addr))?
        }
        _ => {
            eprintln!("usage: form-builder [--http ADDR]");
            std::process::exit(2);
        }
    }
    Ok(())
}
