//! Benchmark peer: `get_weather` written code-first with rmcp's macros (`#[tool_router]`,
//! `#[tool]`, `Parameters<T>`, `Json<T>`, schemars) and served on rmcp's default `stdio()`, as
//! rmcp's documentation shows. rmcp does not validate structured output.
//!
//! Usage: `bench-rmcp-macros` (stdio), `bench-rmcp-macros --pipes` (stdio on `stdio_pipes()`)
//! or `bench-rmcp-macros --http ADDR` (Streamable HTTP at `/mcp`).

use std::sync::Arc;

use axum::serve::ListenerExt;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, ServiceExt, schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, schemars::JsonSchema)]
struct GetWeatherInput {
    /// City name, e.g. London.
    city: String,
}

/// Current weather.
#[derive(Serialize, schemars::JsonSchema)]
struct WeatherData {
    /// Degrees Celsius.
    temperature: f64,
    /// Relative humidity, 0 to 1.
    #[schemars(range(min = 0, max = 1))]
    humidity: f64,
    conditions: String,
}

const PRECISE: [(&str, f64, f64, &str); 3] = [
    ("London", 16.2, 0.83, "Overcast"),
    ("Cairo", 34.1, 0.21, "Sunny"),
    ("Reykjavik", 4.4, 0.76, "Light snow"),
];

#[derive(Clone)]
struct Weather;

#[tool_router(server_handler)]
impl Weather {
    #[tool(name = "get_weather", description = "Current weather for a city.")]
    fn get_weather(
        &self,
        Parameters(GetWeatherInput { city }): Parameters<GetWeatherInput>,
    ) -> Result<Json<WeatherData>, McpError> {
        PRECISE
            .iter()
            .find(|(name, ..)| *name == city)
            .map(|&(_, temperature, humidity, conditions)| {
                Json(WeatherData {
                    temperature,
                    humidity,
                    conditions: conditions.to_string(),
                })
            })
            .ok_or_else(|| McpError::invalid_params(format!("unknown city {city:?}"), None))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => {
            let running = Weather.serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
        }
        (Some("--pipes"), _) => {
            let running = Weather.serve(rmcp::transport::stdio_pipes()).await?;
            running.waiting().await?;
        }
        (Some("--http"), Some(addr)) => {
            let service = StreamableHttpService::new(
                || Ok(Weather),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            let router = axum::Router::new().nest_service("/mcp", service);
            let listener = tokio::net::TcpListener::bind(addr.as_str()).await?;
            eprintln!("listening on http://{}/mcp", listener.local_addr()?);
            // As schemcp-runtime does: without TCP_NODELAY every response waits ~40 ms for
            // the client's delayed ACK (Nagle), which would hide every other cost.
            let listener = listener.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(listener, router).await?;
        }
        _ => {
            eprintln!("usage: bench-rmcp-macros [--pipes | --http ADDR]");
            std::process::exit(2);
        }
    }
    Ok(())
}
