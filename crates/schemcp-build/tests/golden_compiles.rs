//! The weather fixture's golden output (`tests/golden/weather`, written by the
//! `raw_tests::weather_golden` unit test) compiles against `schemcp-runtime` and does what the
//! contracts say: this file only builds if the generated trait, types and glue fit the runtime.

// Generated code must not warn in a crate that denies warnings.
#![deny(warnings)]

mod tools {
    // Included like `schemcp_runtime::include_tools!()` includes it from OUT_DIR, which also
    // checks that its `include_str!("tools.json")` resolves beside the generated file.
    include!("golden/weather/schemcp_tools.rs");
}

use std::collections::BTreeMap;

use schemcp_runtime::{ToolContext, ToolError, ToolSet};
use tools::{
    GetForecastInput, GetTemperatureInput, GetTemperaturesInput, GetTemperaturesOutput,
    GetWeatherInput, GetWeatherUpstreamInput, Tools, WeatherData, WeatherReportInput,
};

struct Weather;

fn london() -> WeatherData {
    WeatherData {
        temperature: 16.2,
        humidity: 0.83,
        conditions: "Overcast".into(),
    }
}

impl Tools for Weather {
    async fn get_forecast(
        &self,
        input: GetForecastInput,
        _cx: &ToolContext,
    ) -> Result<Vec<WeatherData>, ToolError> {
        Ok((0..input.days.get()).map(|_| london()).collect())
    }

    async fn get_temperature(
        &self,
        _input: GetTemperatureInput,
        _cx: &ToolContext,
    ) -> Result<i64, ToolError> {
        Ok(17)
    }

    async fn get_temperatures(
        &self,
        input: GetTemperaturesInput,
        _cx: &ToolContext,
    ) -> Result<GetTemperaturesOutput, ToolError> {
        Ok(input
            .cities
            .into_iter()
            .map(|city| (city, 16.2))
            .collect::<BTreeMap<_, _>>())
    }

    async fn get_weather(
        &self,
        _input: GetWeatherInput,
        _cx: &ToolContext,
    ) -> Result<WeatherData, ToolError> {
        Ok(london())
    }

    async fn get_weather_upstream(
        &self,
        _input: GetWeatherUpstreamInput,
        _cx: &ToolContext,
    ) -> Result<WeatherData, ToolError> {
        Ok(london())
    }

    async fn weather_report(
        &self,
        input: WeatherReportInput,
        _cx: &ToolContext,
    ) -> Result<String, ToolError> {
        Ok(format!("{}: overcast", input.city))
    }
}

/// An rmcp handler beside the tools, naming itself or leaving rmcp's default name.
struct Named(bool);

impl schemcp_runtime::rmcp::ServerHandler for Named {
    fn get_info(&self) -> schemcp_runtime::rmcp::model::ServerConfig {
        use schemcp_runtime::rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
        let config = ServerConfig::new(ServerCapabilities::default());
        if self.0 {
            config.with_server_info(Implementation::new("prompts", "0.3.0"))
        } else {
            config
        }
    }
}

#[test]
fn golden_weather_code_compiles_and_serves_its_catalog() {
    use schemcp_runtime::rmcp::ServerHandler;
    // Named after the package that includes the generated code, not after the runtime.
    let info = tools::server(Weather).get_info().server_info;
    assert_eq!(
        (info.name.as_str(), info.version.as_str()),
        (env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
    );
    assert_ne!(info.name, "schemcp-runtime");
    assert_eq!(
        tools::server(Weather)
            .with_info("forecasts", "2.0.0")
            .get_info()
            .server_info
            .name,
        "forecasts"
    );
    // A handler added for prompts and the like keeps its own name, if it has one.
    let named = tools::server(Weather).with_handler(Named(true));
    assert_eq!(named.get_info().server_info.name, "prompts");
    let unnamed = tools::server(Weather).with_handler(Named(false));
    assert_eq!(unnamed.get_info().server_info.name, env!("CARGO_PKG_NAME"));
    let dispatch = tools::Dispatch(Weather);
    assert_eq!(
        dispatch.catalog(),
        include_str!("golden/weather/tools.json")
    );
    assert_eq!(tools::CATALOG, dispatch.catalog());
}

#[test]
fn generated_types_decode_arguments_through_the_runtime() {
    use schemcp_runtime::__private::{decode_arguments, serde_json::json};
    let input: GetForecastInput = decode_arguments(json!({ "city": "London", "days": 3 })).unwrap();
    assert_eq!((input.city.as_str(), input.days.get()), ("London", 3));
    // `additionalProperties: false` becomes `deny_unknown_fields`.
    assert!(decode_arguments::<GetWeatherInput>(json!({ "city": "x", "extra": 1 })).is_err());
    let weather = schemcp_runtime::__private::serde_json::to_value(london()).unwrap();
    assert_eq!(
        weather,
        json!({ "temperature": 16.2, "humidity": 0.83, "conditions": "Overcast" })
    );
}
