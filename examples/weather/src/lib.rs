//! The weather tools of the structured-output seed page, schema-first: the contracts live in
//! `schemas/`, `build.rs` generates the types and the `Tools` trait, and this file implements it.
//! `src/main.rs` serves them; `benches/hot_path.rs` measures the runtime around them.

/// The generated types, the `Tools` trait and `server()`.
pub mod tools {
    schemcp_runtime::include_tools!();
}

use schemcp_runtime::{ToolContext, ToolError};
use tools::{
    GetForecastInput, GetTemperatureInput, GetTemperaturesInput, GetTemperaturesOutput,
    GetWeatherInput, GetWeatherUpstreamInput, Tools, WeatherData, WeatherReportInput,
};

/// Whole-degree readings, as in the seed page.
const WHOLE_DEGREES: [(&str, i64); 3] = [("London", 17), ("Cairo", 34), ("Reykjavik", 4)];
/// Precise readings with the rest of each city's weather.
const PRECISE: [(&str, f64, f64, &str); 3] = [
    ("London", 16.2, 0.83, "Overcast"),
    ("Cairo", 34.1, 0.21, "Sunny"),
    ("Reykjavik", 4.4, 0.76, "Light snow"),
];
/// What the upstream service sends: humidity in percent, which the contract (0 to 1) forbids.
const UPSTREAM_LONDON: &str = r#"{"temperature":16.2,"humidity":83,"conditions":"Overcast"}"#;

fn unknown(city: &str) -> ToolError {
    ToolError::new(format!(
        "unknown city {city:?}; known cities are London, Cairo and Reykjavik"
    ))
}

fn precise(city: &str) -> Result<WeatherData, ToolError> {
    PRECISE
        .iter()
        .find(|(name, ..)| *name == city)
        .map(|&(_, temperature, humidity, conditions)| WeatherData {
            temperature,
            humidity,
            conditions: conditions.to_string(),
        })
        .ok_or_else(|| unknown(city))
}

/// The seed page's weather tools, with canned readings for three cities.
pub struct Weather;

impl Tools for Weather {
    async fn get_temperature(
        &self,
        input: GetTemperatureInput,
        _cx: &ToolContext,
    ) -> Result<i64, ToolError> {
        WHOLE_DEGREES
            .iter()
            .find(|(name, _)| *name == input.city)
            .map(|&(_, degrees)| degrees)
            .ok_or_else(|| unknown(&input.city))
    }

    async fn get_weather(
        &self,
        input: GetWeatherInput,
        _cx: &ToolContext,
    ) -> Result<WeatherData, ToolError> {
        precise(&input.city)
    }

    async fn get_forecast(
        &self,
        input: GetForecastInput,
        _cx: &ToolContext,
    ) -> Result<Vec<WeatherData>, ToolError> {
        let today = precise(&input.city)?;
        Ok((0..input.days.get())
            .map(|day| WeatherData {
                temperature: today.temperature + day as f64,
                ..today.clone()
            })
            .collect())
    }

    async fn get_temperatures(
        &self,
        input: GetTemperaturesInput,
        _cx: &ToolContext,
    ) -> Result<GetTemperaturesOutput, ToolError> {
        // Unknown cities are left out rather than failing the whole call.
        Ok(input
            .cities
            .iter()
            .filter_map(|city| precise(city).ok().map(|w| (city.clone(), w.temperature)))
            .collect())
    }

    async fn weather_report(
        &self,
        input: WeatherReportInput,
        _cx: &ToolContext,
    ) -> Result<String, ToolError> {
        match input.city.as_str() {
            "London" => Ok("London: 17 degrees, overcast, light rain easing by evening.".into()),
            "Cairo" => Ok("Cairo: 34 degrees, sunny, a warm wind from the south.".into()),
            "Reykjavik" => Ok("Reykjavik: 4 degrees, light snow, clearing overnight.".into()),
            other => Err(unknown(other)),
        }
    }

    async fn get_weather_upstream(
        &self,
        input: GetWeatherUpstreamInput,
        _cx: &ToolContext,
    ) -> Result<WeatherData, ToolError> {
        if input.city != "London" {
            return Err(unknown(&input.city));
        }
        // The Rust type accepts 83 (any number); the contract's `maximum: 1` does not, so the
        // runtime's output validation turns this into an error that names `humidity`.
        serde_json::from_str(UPSTREAM_LONDON)
            .map_err(|e| ToolError::new(format!("upstream sent malformed JSON: {e}")))
    }
}
