//! Diffing two contract sets of 1,000 tools each (target: under a second on the project machine).
//!
//! `cargo bench -p schemcp-diff --bench diff_sets` (criterion; `./scripts/bench` reads the
//! median from `target/criterion/diff/*/new/estimates.json`). Every tenth tool narrows an input,
//! widens an output and adds a property, so the counterexample search runs on realistic nested
//! schemas, not only on identical ones.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Map, Value, json};

fn weather(i: usize, changed: bool) -> Map<String, Value> {
    let max_days = if changed { 7 } else { 14 };
    let temperature = if changed {
        json!({"type": "number"})
    } else {
        json!({"type": "integer"})
    };
    let mut input = json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1},
            "days": {"type": "integer", "minimum": 1, "maximum": max_days},
            "units": {"enum": ["c", "f"]}
        },
        "required": ["city"],
        "additionalProperties": false
    });
    if changed {
        input["properties"]["lang"] = json!({"type": "string"});
    }
    json!({
        "name": format!("tool_{i:04}"),
        "description": "Forecast for a city.",
        "inputSchema": input,
        "outputSchema": {
            "type": "object",
            "properties": {
                "days": {"type": "array", "items": {"$ref": "#/$defs/Day"}},
                "source": {"type": "string", "format": "uri"}
            },
            "required": ["days"],
            "$defs": {
                "Day": {
                    "type": "object",
                    "properties": {
                        "temperature": temperature,
                        "humidity": {"type": "number", "minimum": 0, "maximum": 1},
                        "conditions": {"type": "string"}
                    },
                    "required": ["temperature", "humidity", "conditions"]
                }
            }
        }
    })
    .as_object()
    .unwrap()
    .clone()
}

fn diff_sets(c: &mut Criterion) {
    let n = 1000;
    let old: Vec<_> = (0..n).map(|i| weather(i, false)).collect();
    let new: Vec<_> = (0..n).map(|i| weather(i, i % 10 == 0)).collect();
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("1000_vs_1000_tools", |b| {
        b.iter(|| {
            let report = schemcp_diff::diff_tools(&old, &new);
            // The same work every iteration: two reported changes per changed tool.
            assert_eq!(report.changes.len(), 2 * n / 10);
            report
        })
    });
    group.finish();
}

criterion_group!(benches, diff_sets);
criterion_main!(benches);
