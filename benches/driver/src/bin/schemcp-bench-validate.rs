//! In-process cost of what schemcp adds per `get_weather` call: validating the arguments and
//! the result against the contract (`jsonschema`, validators compiled once, as
//! `schemcp-runtime` does with `validator_for` + `is_valid`) and turning the typed result into
//! the JSON value the result carries. Prints nanoseconds per call as JSON for the driver.

use std::hint::black_box;
use std::time::Instant;

use serde_json::{Value, json};

fn per_call_ns(iterations: u32, mut f: impl FnMut()) -> f64 {
    for _ in 0..iterations / 10 {
        f();
    }
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(iterations)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let contract: Value = serde_json::from_str(include_str!(
        "../../../../examples/weather/schemas/get_weather.json"
    ))
    .expect("the weather contract parses");
    let input = jsonschema::validator_for(&contract["inputSchema"]).expect("input schema");
    let output = jsonschema::validator_for(&contract["outputSchema"]).expect("output schema");
    let arguments = json!({ "city": "London" });
    let result = json!({ "temperature": 16.2, "humidity": 0.83, "conditions": "Overcast" });
    let rounds = 9;
    let n = 200_000;
    let validate_in = median(
        (0..rounds)
            .map(|_| per_call_ns(n, || assert!(input.is_valid(black_box(&arguments)))))
            .collect(),
    );
    let validate_out = median(
        (0..rounds)
            .map(|_| per_call_ns(n, || assert!(output.is_valid(black_box(&result)))))
            .collect(),
    );
    let to_text = median(
        (0..rounds)
            .map(|_| per_call_ns(n, || drop(black_box(black_box(&result).to_string()))))
            .collect(),
    );
    println!(
        "{}",
        json!({
            "validate_arguments_ns": validate_in,
            "validate_result_ns": validate_out,
            "result_to_text_ns": to_text,
        })
    );
}
