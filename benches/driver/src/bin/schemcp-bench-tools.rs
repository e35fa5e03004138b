//! A schemcp server with N synthetic tools (default 1,000), for the `tools/list` benchmark and
//! the memory figure with many tools loaded. Serves stdio through `schemcp_runtime::serve_stdio`.
//!
//! Usage: `schemcp-bench-tools [N]`.

use futures::future::BoxFuture;
use schemcp_runtime::{McpServer, Returned, ToolContext, ToolError, ToolSet};
use serde_json::{Value, json};

/// A synthetic catalog: every tool takes a city and a unit and returns a three-field object,
/// like `get_weather`, with its own name, title and description. The hand-written rmcp peer
/// (`--tools N`) serves the same tools, so `tools/list` payloads are the same size.
fn catalog(n: usize) -> String {
    let tools: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "name": format!("tool_{i:04}"),
                "title": format!("Synthetic tool {i}"),
                "description": format!("Synthetic tool number {i}: looks up a reading for a city."),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "city": { "type": "string", "description": "City name, e.g. London." },
                        "unit": { "type": "string", "enum": ["celsius", "fahrenheit"] },
                        "days": { "type": "integer", "minimum": 1, "maximum": 14 }
                    },
                    "required": ["city"],
                    "additionalProperties": false
                },
                "outputSchema": {
                    "type": "object",
                    "properties": {
                        "temperature": { "type": "number", "description": "Degrees." },
                        "humidity": { "type": "number", "minimum": 0, "maximum": 1 },
                        "conditions": { "type": "string" }
                    },
                    "required": ["temperature", "humidity", "conditions"]
                }
            })
        })
        .collect();
    json!({ "tools": tools }).to_string()
}

struct Synthetic {
    catalog: &'static str,
}

impl ToolSet for Synthetic {
    fn catalog(&self) -> &'static str {
        self.catalog
    }

    fn call<'a>(
        &'a self,
        _index: usize,
        _arguments: Value,
        _cx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<Returned, ToolError>> {
        Box::pin(async move {
            Returned::structured(&json!({
                "temperature": 16.2, "humidity": 0.83, "conditions": "Overcast"
            }))
        })
    }
}

// stdio on a single-threaded runtime, as README and examples/weather recommend.
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = std::env::args()
        .nth(1)
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(1_000);
    let catalog: &'static str = Box::leak(catalog(n).into_boxed_str());
    let server = McpServer::new(Synthetic { catalog }).with_info("schemcp-bench-tools", "0.1.0");
    schemcp_runtime::serve_stdio(server).await?;
    Ok(())
}
