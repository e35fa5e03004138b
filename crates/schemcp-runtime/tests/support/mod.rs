//! A hand-written `ToolSet` shaped like generated dispatch code (the weather tools of the seed
//! page plus edge cases), and a raw JSON-RPC client for either protocol generation.

#![allow(dead_code)] // each test binary uses a different part of the harness

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{ContentBlock, Resource};
use schemcp_runtime::__private::BoxFuture;
use schemcp_runtime::{McpServer, Output, Returned, ToolContext, ToolError, ToolSet};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

/// The catalog, in the generator's form: sorted by name, `$defs` bundled into each schema.
pub const CATALOG: &str = r##"{"tools":[
{"name":"echo_slowly","description":"Waits, reporting progress, then echoes.","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"ms":{"type":"integer","minimum":0}},"required":["text","ms"]}},
{"name":"get_chart","title":"Chart","description":"Weather plus a chart image and a link.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"outputSchema":{"title":"WeatherData","type":"object","properties":{"temperature":{"type":"number"},"humidity":{"type":"number","minimum":0,"maximum":1},"conditions":{"type":"string"}},"required":["temperature","humidity","conditions"]}},
{"name":"get_forecast","title":"Forecast","description":"Daily forecast for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. London."},"days":{"type":"integer","minimum":1,"maximum":14,"description":"How many days, 1 to 14."}},"required":["city","days"],"additionalProperties":false},"outputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/schemas/forecast.json","type":"array","items":{"$ref":"#/$defs/WeatherData"},"$defs":{"WeatherData":{"title":"WeatherData","type":"object","properties":{"temperature":{"type":"number","description":"Degrees Celsius."},"humidity":{"type":"number","minimum":0,"maximum":1,"description":"Relative humidity, 0 to 1."},"conditions":{"type":"string"}},"required":["temperature","humidity","conditions"]}}},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
{"name":"get_nothing","inputSchema":{"type":"object"},"outputSchema":{"type":"null"}},
{"name":"get_temperature","title":"Temperature","description":"Current temperature in a city, in whole degrees Celsius.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"outputSchema":{"type":"integer"},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
{"name":"get_temperatures","title":"Temperatures","inputSchema":{"type":"object","properties":{"cities":{"type":"array","items":{"type":"string"}}},"required":["cities"]},"outputSchema":{"type":"object","additionalProperties":{"type":"number"}}},
{"name":"get_weather","title":"Weather","description":"Current weather for a city.","inputSchema":{"$id":"https://example.com/schemas/get_weather.input.json","type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"outputSchema":{"title":"WeatherData","type":"object","properties":{"temperature":{"type":"number","description":"Degrees Celsius."},"humidity":{"type":"number","minimum":0,"maximum":1,"description":"Relative humidity, 0 to 1."},"conditions":{"type":"string"}},"required":["temperature","humidity","conditions"]},"annotations":{"readOnlyHint":true,"openWorldHint":false},"_meta":{"io.example/owner":"weather-team"}},
{"name":"get_weather_upstream","title":"Weather (upstream)","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"outputSchema":{"title":"WeatherData","type":"object","properties":{"temperature":{"type":"number"},"humidity":{"type":"number","minimum":0,"maximum":1},"conditions":{"type":"string"}},"required":["temperature","humidity","conditions"]}},
{"name":"list_cities","inputSchema":{"type":"object"},"outputSchema":{"type":"array","items":{"type":"string"}}},
{"name":"mismatched","description":"Declares an outputSchema but returns text, as a broken generator would.","inputSchema":{"type":"object"},"outputSchema":{"type":"string"}},
{"name":"panics","inputSchema":{"type":"object"},"outputSchema":{"type":"integer"}},
{"name":"weather_report","title":"Weather report","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}
]}"##;

#[derive(Deserialize)]
pub struct CityInput {
    pub city: String,
}

#[derive(Deserialize)]
pub struct ForecastInput {
    pub city: String,
    pub days: std::num::NonZeroU8,
}

#[derive(Deserialize)]
pub struct CitiesInput {
    pub cities: Vec<String>,
}

#[derive(Deserialize)]
pub struct EchoInput {
    pub text: String,
    pub ms: u64,
}

#[derive(Deserialize)]
pub struct Empty {}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct WeatherData {
    pub temperature: f64,
    pub humidity: f64,
    pub conditions: String,
}

pub fn london() -> WeatherData {
    WeatherData {
        temperature: 16.2,
        humidity: 0.83,
        conditions: "Overcast".into(),
    }
}

fn unknown(city: &str) -> ToolError {
    ToolError::new(format!("unknown city {city:?}"))
}

/// The user's implementation, like a generated `Tools` trait implementation.
#[derive(Default)]
pub struct Weather {
    /// How many times any tool body started, to prove invalid arguments never reach it.
    pub calls: AtomicUsize,
}

impl Weather {
    async fn get_temperature(&self, input: CityInput, _cx: &ToolContext) -> Result<i64, ToolError> {
        match input.city.as_str() {
            "London" => Ok(17),
            other => Err(unknown(other)),
        }
    }

    async fn get_weather(
        &self,
        input: CityInput,
        _cx: &ToolContext,
    ) -> Result<WeatherData, ToolError> {
        match input.city.as_str() {
            "London" => Ok(london()),
            other => Err(unknown(other)),
        }
    }

    async fn get_forecast(
        &self,
        input: ForecastInput,
        _cx: &ToolContext,
    ) -> Result<Vec<WeatherData>, ToolError> {
        if input.city != "London" {
            return Err(unknown(&input.city));
        }
        Ok((0..input.days.get())
            .map(|day| WeatherData {
                temperature: 16.2 + f64::from(day),
                ..london()
            })
            .collect())
    }
}

/// The dispatch, written exactly as the generator writes it.
pub struct Dispatch(pub Arc<Weather>);

impl ToolSet for Dispatch {
    fn catalog(&self) -> &'static str {
        CATALOG
    }

    fn call<'a>(
        &'a self,
        index: usize,
        arguments: Value,
        cx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<Returned, ToolError>> {
        self.0.calls.fetch_add(1, Ordering::SeqCst);
        match index {
            0 => Box::pin(async move {
                let input: EchoInput = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                for step in 0..2u32 {
                    cx.progress(f64::from(step), Some(2.0), Some(format!("step {step}")))
                        .await;
                }
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(input.ms)) => {}
                    () = cx.cancellation_token().cancelled() => return Err(ToolError::new("cancelled")),
                }
                Ok(::schemcp_runtime::Returned::text(input.text))
            }),
            1 => Box::pin(async move {
                let input: CityInput = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                let weather = self.0.get_weather(input, cx).await?;
                let mut meta = serde_json::Map::new();
                meta.insert("io.example/station".into(), json!("LHR-12"));
                let link = Resource::new("weather://london/chart", "chart");
                let output = Output::new(weather)
                    .with_meta(meta)
                    .with_content(ContentBlock::image("iVBORw0KGgo=", "image/png"))
                    .with_content(ContentBlock::resource_link(link));
                ::schemcp_runtime::Returned::from_output(output)
            }),
            2 => Box::pin(async move {
                let input: ForecastInput =
                    ::schemcp_runtime::__private::decode_arguments(arguments)?;
                let output = self.0.get_forecast(input, cx).await?;
                ::schemcp_runtime::Returned::structured(&output)
            }),
            3 => Box::pin(async move {
                let _: Empty = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                ::schemcp_runtime::Returned::structured(&())
            }),
            4 => Box::pin(async move {
                let input: CityInput = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                let output = self.0.get_temperature(input, cx).await?;
                ::schemcp_runtime::Returned::structured(&output)
            }),
            5 => Box::pin(async move {
                let input: CitiesInput = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                let output: std::collections::BTreeMap<String, f64> = input
                    .cities
                    .into_iter()
                    .filter(|c| c == "London" || c == "Cairo")
                    .map(|c| {
                        let t = if c == "London" { 16.2 } else { 34.1 };
                        (c, t)
                    })
                    .collect();
                ::schemcp_runtime::Returned::structured(&output)
            }),
            6 => Box::pin(async move {
                let input: CityInput = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                let output = self.0.get_weather(input, cx).await?;
                ::schemcp_runtime::Returned::structured(&output)
            }),
            7 => Box::pin(async move {
                let input: CityInput = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                if input.city != "London" {
                    return Err(unknown(&input.city));
                }
                // The type accepts 83; the contract's `maximum: 1` does not.
                let output: WeatherData = serde_json::from_str(
                    r#"{"temperature":16.2,"humidity":83,"conditions":"Overcast"}"#,
                )?;
                ::schemcp_runtime::Returned::structured(&output)
            }),
            8 => Box::pin(async move {
                let _: Empty = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                ::schemcp_runtime::Returned::structured(&["London", "Cairo", "Reykjavik"])
            }),
            9 => Box::pin(async move { Ok(::schemcp_runtime::Returned::text("not structured")) }),
            10 => Box::pin(async move {
                let _: Empty = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                panic!("the barometer exploded");
            }),
            11 => Box::pin(async move {
                let input: CityInput = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                match input.city.as_str() {
                    "London" => Ok(::schemcp_runtime::Returned::text(
                        "London: 17 degrees, overcast, light rain easing by evening.".to_string(),
                    )),
                    other => Err(unknown(other)),
                }
            }),
            _ => Box::pin(async move { Err(ToolError::new("no tool at this index")) }),
        }
    }
}

pub fn server() -> (McpServer<Dispatch>, Arc<Weather>) {
    let weather = Arc::new(Weather::default());
    (
        McpServer::new(Dispatch(weather.clone())).with_info("weather-test", "0.0.1"),
        weather,
    )
}

/// Which handshake a session uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generation {
    Legacy,
    Modern,
}

impl Generation {
    pub fn version(self) -> &'static str {
        match self {
            Generation::Legacy => LEGACY,
            Generation::Modern => MODERN,
        }
    }
}

pub fn request_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { "name": "runtime-test", "version": "0.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// Adds the per-request `_meta` every 2026-07-28 request carries.
pub fn with_meta(generation: Generation, mut params: Value) -> Value {
    if generation == Generation::Modern {
        let meta = params
            .as_object_mut()
            .unwrap()
            .entry("_meta")
            .or_insert_with(|| json!({}));
        for (k, v) in request_meta().as_object().unwrap() {
            meta[k] = v.clone();
        }
    }
    params
}

/// A client speaking raw newline-delimited JSON-RPC to a server over an in-process pipe: the
/// same code path as stdio.
pub struct PipeClient {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    pub generation: Generation,
    /// Messages that arrived while waiting for a response (notifications, other responses).
    pub other: Vec<Value>,
    pub server: tokio::task::JoinHandle<Result<(), schemcp_runtime::Error>>,
}

impl PipeClient {
    /// Serves `server` with `serve_io` and performs the handshake of `generation`.
    pub async fn start<S, H>(server: McpServer<S, H>, generation: Generation) -> Self
    where
        S: ToolSet,
        H: rmcp::ServerHandler,
    {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        let handle = tokio::spawn(schemcp_runtime::serve_io(server, server_read, server_write));
        let (read, write) = tokio::io::split(client_end);
        let mut client = PipeClient {
            write,
            lines: BufReader::new(read).lines(),
            next_id: 1,
            generation,
            other: Vec::new(),
            server: handle,
        };
        client.handshake().await;
        client
    }

    async fn handshake(&mut self) {
        match self.generation {
            Generation::Legacy => {
                let init = self
                    .request(
                        "initialize",
                        json!({
                            "protocolVersion": LEGACY,
                            "capabilities": {},
                            "clientInfo": { "name": "runtime-test", "version": "0.0.0" }
                        }),
                    )
                    .await;
                assert_eq!(
                    init["result"]["protocolVersion"], LEGACY,
                    "initialize: {init}"
                );
                self.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
                    .await;
            }
            Generation::Modern => {
                let discover = self.request("server/discover", json!({})).await;
                let versions = &discover["result"]["supportedVersions"];
                assert!(
                    versions
                        .as_array()
                        .is_some_and(|v| v.contains(&json!(MODERN))),
                    "server/discover: {discover}"
                );
            }
        }
    }

    pub async fn send(&mut self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.flush().await.unwrap();
    }

    pub async fn next_message(&mut self) -> Option<Value> {
        let line = tokio::time::timeout(Duration::from_secs(20), self.lines.next_line())
            .await
            .expect("the server answers within 20 s")
            .unwrap()?;
        Some(serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
    }

    /// Sends a request (with per-request `_meta` on 2026-07-28) without waiting; returns its id.
    pub async fn send_request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let params = with_meta(self.generation, params);
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        id
    }

    /// Sends a request and returns the whole JSON-RPC response.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.response_to(id).await
    }

    pub async fn response_to(&mut self, id: u64) -> Value {
        loop {
            let message = self
                .next_message()
                .await
                .unwrap_or_else(|| panic!("closed before answering {id}"));
            if message["id"] == json!(id) && message.get("method").is_none() {
                return message;
            }
            self.other.push(message);
        }
    }

    /// `tools/call`, returning the `result` (panics on a JSON-RPC error).
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self
            .request(
                "tools/call",
                json!({ "name": tool, "arguments": arguments }),
            )
            .await;
        assert!(
            response.get("error").is_none(),
            "{tool}: JSON-RPC error {response}"
        );
        response["result"].clone()
    }

    /// `tools/list`, by name, in served order.
    pub async fn tools(&mut self) -> Vec<Value> {
        let response = self.request("tools/list", json!({})).await;
        response["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("tools/list: {response}"))
            .clone()
    }

    /// Closes the client's writing side (EOF for the server) and returns every remaining
    /// message until the server closes its side.
    pub async fn close(mut self) -> (Vec<Value>, Result<(), schemcp_runtime::Error>) {
        self.write.shutdown().await.unwrap();
        let mut rest = Vec::new();
        while let Some(message) = self.next_message().await {
            rest.push(message);
        }
        let served = self.server.await.unwrap();
        (rest, served)
    }
}

/// The text of every text block of a tool result.
pub fn texts(result: &Value) -> Vec<String> {
    result["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

pub fn catalog_tools() -> Vec<Value> {
    let catalog: Value = serde_json::from_str(CATALOG).unwrap();
    catalog["tools"].as_array().unwrap().clone()
}
