//! Benchmark peer: `get_weather` as a hand-written rmcp `ServerHandler` (no macros, no
//! validation) served on `stdio_pipes()` on a single-threaded runtime: the fastest Rust stdio
//! path rmcp offers.
//!
//! Usage: `bench-rmcp-handwritten` (stdio) or `bench-rmcp-handwritten --http ADDR` (Streamable
//! HTTP at `/mcp`), or `bench-rmcp-handwritten --tools N` (stdio, N synthetic tools).

use std::sync::Arc;

use axum::serve::ListenerExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolsCapability,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Deserialize)]
struct GetWeatherInput {
    city: String,
}

#[derive(Serialize)]
struct WeatherData {
    temperature: f64,
    humidity: f64,
    conditions: &'static str,
}

const PRECISE: [(&str, f64, f64, &str); 3] = [
    ("London", 16.2, 0.83, "Overcast"),
    ("Cairo", 34.1, 0.21, "Sunny"),
    ("Reykjavik", 4.4, 0.76, "Light snow"),
];

#[derive(Clone)]
struct Weather {
    tools: Arc<Vec<Tool>>,
}

fn object(value: Value) -> Arc<serde_json::Map<String, Value>> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("schemas are objects"),
    }
}

impl Weather {
    fn new(synthetic: usize) -> Self {
        let input = object(json!({
            "type": "object",
            "properties": { "city": { "type": "string", "description": "City name, e.g. London." } },
            "required": ["city"],
            "additionalProperties": false
        }));
        let output = object(json!({
            "title": "WeatherData",
            "type": "object",
            "properties": {
                "temperature": { "type": "number", "description": "Degrees Celsius." },
                "humidity": { "type": "number", "minimum": 0, "maximum": 1, "description": "Relative humidity, 0 to 1." },
                "conditions": { "type": "string" }
            },
            "required": ["temperature", "humidity", "conditions"]
        }));
        let tool = Tool::new("get_weather", "Current weather for a city.", input)
            .with_title("Weather")
            .with_raw_output_schema(output);
        let mut tools = vec![tool];
        // `--tools N`: N synthetic tools instead, for the `tools/list` benchmark.
        if synthetic > 0 {
            tools = (0..synthetic)
                .map(|i| {
                    Tool::new(
                        format!("tool_{i:04}"),
                        format!("Synthetic tool number {i}: looks up a reading for a city."),
                        object(json!({
                            "type": "object",
                            "properties": {
                                "city": { "type": "string", "description": "City name, e.g. London." },
                                "unit": { "type": "string", "enum": ["celsius", "fahrenheit"] },
                                "days": { "type": "integer", "minimum": 1, "maximum": 14 }
                            },
                            "required": ["city"],
                            "additionalProperties": false
                        })),
                    )
                    .with_title(format!("Synthetic tool {i}"))
                    .with_raw_output_schema(object(json!({
                        "type": "object",
                        "properties": {
                            "temperature": { "type": "number", "description": "Degrees." },
                            "humidity": { "type": "number", "minimum": 0, "maximum": 1 },
                            "conditions": { "type": "string" }
                        },
                        "required": ["temperature", "humidity", "conditions"]
                    })))
                })
                .collect();
        }
        Weather {
            tools: Arc::new(tools),
        }
    }
}

impl ServerHandler for Weather {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools_with(ToolsCapability::default())
                .build(),
        )
        .with_server_info(Implementation::new("bench-rmcp-handwritten", "0.1.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != "get_weather" {
            return Err(McpError::invalid_params("unknown tool", None));
        }
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let input: GetWeatherInput = serde_json::from_value(arguments)
            .map_err(|e| McpError::invalid_params(e.to_string(), None))?;
        let Some(&(_, temperature, humidity, conditions)) =
            PRECISE.iter().find(|(name, ..)| *name == input.city)
        else {
            return Ok(
                CallToolResult::error(vec![rmcp::model::ContentBlock::text(format!(
                    "unknown city {:?}",
                    input.city
                ))])
                .into(),
            );
        };
        let data = WeatherData {
            temperature,
            humidity,
            conditions,
        };
        let value = serde_json::to_value(data)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::structured(value).into())
    }
}

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        // stdio on a single-threaded runtime, as examples/weather does: for one client on one
        // pipe it is the fastest runtime for rmcp too, and this peer is the fastest Rust path.
        (Some("--tools"), Some(n)) => single_threaded()?.block_on(stdio(Weather::new(n.parse()?))),
        (None, _) => single_threaded()?.block_on(stdio(Weather::new(0))),
        (Some("--http"), Some(addr)) => tokio::runtime::Runtime::new()?.block_on(http(&addr)),
        _ => {
            eprintln!("usage: bench-rmcp-handwritten [--http ADDR | --tools N]");
            std::process::exit(2);
        }
    }
}

fn single_threaded() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

async fn stdio(weather: Weather) -> Result<(), Error> {
    let running = weather.serve(rmcp::transport::stdio_pipes()).await?;
    running.waiting().await?;
    Ok(())
}

async fn http(addr: &str) -> Result<(), Error> {
    let weather = Weather::new(0);
    let service = StreamableHttpService::new(
        move || Ok(weather.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    // As schemcp-runtime does: without TCP_NODELAY every response waits ~40 ms for the
    // client's delayed ACK (Nagle), which would hide every other cost.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await?;
    Ok(())
}
