//! criterion micro-benchmarks of what schemcp adds around a tool, per `tools/call`, on the
//! weather contracts: each stage the runtime runs, in process, with the runtime's own code
//! (`McpServer::__stages`, the generated types, `decode_arguments`, `Returned`).
//!
//! Run with `cargo bench -p weather --bench hot_path`; `./scripts/bench` runs it and reads the
//! medians from `target/criterion/hot_path/*/new/estimates.json` into `docs/benchmarks.md`.
//! `cargo test -p weather --bench hot_path` runs every benchmark once, as a test.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use schemcp_runtime::__private::decode_arguments;
use schemcp_runtime::Returned;
use schemcp_runtime::rmcp::model::{CallToolResult, RequestId};
use serde_json::json;
use weather::Weather;
use weather::tools::{self, GetWeatherInput, WeatherData};

fn london() -> WeatherData {
    WeatherData {
        temperature: 16.2,
        humidity: 0.83,
        conditions: "Overcast".into(),
    }
}

fn hot_path(c: &mut Criterion) {
    let server = tools::server(Weather);
    let get_weather = server
        .__stages("get_weather")
        .expect("get_weather is served");
    // `get_temperature` returns a bare integer: legacy clients get it wrapped under `result`.
    let get_temperature = server
        .__stages("get_temperature")
        .expect("get_temperature is served");
    let arguments = json!({ "city": "London" });
    let result = serde_json::to_value(london()).unwrap();
    let returned = Returned::structured(&london()).unwrap();

    let mut group = c.benchmark_group("hot_path");
    group.bench_function("validate_arguments", |b| {
        b.iter(|| {
            assert!(
                get_weather
                    .validate_arguments(black_box(&arguments))
                    .is_none()
            )
        })
    });
    group.bench_function("decode_arguments", |b| {
        b.iter_batched(
            || arguments.clone(),
            |arguments| decode_arguments::<GetWeatherInput>(arguments).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("serialize_result", |b| {
        let data = london();
        b.iter(|| Returned::structured(black_box(&data)).unwrap())
    });
    group.bench_function("validate_result", |b| {
        b.iter(|| assert!(get_weather.validate_result(black_box(&result)).is_none()))
    });
    group.bench_function("content_shaping", |b| {
        b.iter(|| get_weather.content_for(black_box(&result)))
    });
    group.bench_function("shape_modern", |b| {
        b.iter_batched(
            || returned.clone(),
            |returned| get_weather.shape(returned, false),
            BatchSize::SmallInput,
        )
    });
    // The answer line as each transport writes it. Over stdio the runtime writes the text block
    // from the printed `structuredContent`; over HTTP rmcp serializes the shaped result. The
    // bare line (the result with no text block and nothing validated) is what any server
    // returning this structured result writes, so the stdio line minus the bare one is what
    // validation and shaping add there.
    group.bench_function("answer_line_stdio", |b| {
        b.iter(|| get_weather.answer_line(RequestId::Number(1), returned.clone(), false))
    });
    group.bench_function("answer_line_http", |b| {
        b.iter(|| {
            let shaped = get_weather.shape(returned.clone(), false);
            get_weather.rmcp_answer_line(RequestId::Number(1), shaped)
        })
    });
    group.bench_function("answer_line_bare", |b| {
        b.iter(|| {
            let mut bare = CallToolResult::success(Vec::new());
            bare.structured_content = Some(result.clone());
            get_weather.rmcp_answer_line(RequestId::Number(1), bare)
        })
    });
    // What the stdio answer line adds to the bare one, measured paired: each sample
    // alternates short runs of the two, so load from other processes, which moves the two
    // medians above by tens of nanoseconds between benchmarks minutes apart, falls on both
    // alike, and neither always runs first.
    group.bench_function("answer_line_added", |b| {
        const RUN: u64 = 32;
        let stdio_line = || get_weather.answer_line(RequestId::Number(1), returned.clone(), false);
        let bare_line = || {
            let mut bare = CallToolResult::success(Vec::new());
            bare.structured_content = Some(result.clone());
            get_weather.rmcp_answer_line(RequestId::Number(1), bare)
        };
        b.iter_custom(|iters| {
            let (mut stdio, mut bare) = (Duration::ZERO, Duration::ZERO);
            for run in 0..iters.div_ceil(RUN) {
                let n = RUN.min(iters - run * RUN);
                let time = |line: &dyn Fn() -> Vec<u8>| {
                    let start = Instant::now();
                    for _ in 0..n {
                        black_box(line());
                    }
                    start.elapsed()
                };
                if run % 2 == 0 {
                    stdio += time(&stdio_line);
                    bare += time(&bare_line);
                } else {
                    bare += time(&bare_line);
                    stdio += time(&stdio_line);
                }
            }
            stdio.saturating_sub(bare)
        })
    });
    group.bench_function("shape_legacy_wrapped", |b| {
        let seventeen = Returned::structured(&17i64).unwrap();
        b.iter_batched(
            || seventeen.clone(),
            |returned| get_temperature.shape(returned, true),
            BatchSize::SmallInput,
        )
    });
    // What schemcp does for one `get_weather` call as over HTTP, the tool's own body and the
    // answer line aside.
    group.bench_function("whole_call", |b| {
        b.iter_batched(
            || arguments.clone(),
            |arguments| {
                assert!(get_weather.validate_arguments(&arguments).is_none());
                let input: GetWeatherInput = decode_arguments(arguments).unwrap();
                black_box(&input);
                let returned = Returned::structured(&london()).unwrap();
                let shaped = get_weather.shape(returned, false);
                assert_eq!(shaped.is_error, Some(false));
                shaped
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, hot_path);
criterion_main!(benches);
