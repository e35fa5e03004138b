//! The whole protocol over an in-process pipe (`serve_io`, the stdio code path), on the legacy
//! `initialize` handshake (2025-11-25) and the 2026-07-28 `server/discover` + per-request
//! `_meta` path.

mod support;

use std::sync::atomic::Ordering;

use serde_json::{Value, json};
use support::{Generation, PipeClient, catalog_tools, london, server, texts};

const BOTH: [Generation; 2] = [Generation::Legacy, Generation::Modern];

async fn start(generation: Generation) -> PipeClient {
    PipeClient::start(server().0, generation).await
}

fn weather_value() -> Value {
    serde_json::to_value(london()).unwrap()
}

#[tokio::test]
async fn modern_clients_get_the_catalog_verbatim() {
    let mut client = start(Generation::Modern).await;
    let served = client.tools().await;
    let catalog = catalog_tools();
    assert_eq!(served, catalog);
    for (served, written) in served.iter().zip(&catalog) {
        // Key order too ($schema, $defs, descriptions), not just equal values.
        assert_eq!(
            serde_json::to_string(served).unwrap(),
            serde_json::to_string(written).unwrap()
        );
    }
}

#[tokio::test]
async fn legacy_clients_get_non_object_output_schemas_wrapped() {
    let mut client = start(Generation::Legacy).await;
    let served = client.tools().await;
    let catalog = catalog_tools();
    assert_eq!(served.len(), catalog.len());
    let by_name = |name: &str| served.iter().find(|t| t["name"] == name).unwrap().clone();
    for (served, written) in served.iter().zip(&catalog) {
        for key in [
            "name",
            "title",
            "description",
            "inputSchema",
            "annotations",
            "_meta",
        ] {
            assert_eq!(
                served.get(key),
                written.get(key),
                "{}.{key}",
                written["name"]
            );
        }
        if let Some(schema) = served.get("outputSchema") {
            assert_eq!(
                schema["type"], "object",
                "every legacy output root is an object: {schema}"
            );
        }
    }
    assert_eq!(
        by_name("get_temperature")["outputSchema"],
        json!({ "type": "object", "properties": { "result": { "type": "integer" } }, "required": ["result"] })
    );
    let forecast = &by_name("get_forecast")["outputSchema"];
    assert_eq!(
        forecast["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    // The schema's name stays on the root, where its references resolve against it.
    assert_eq!(forecast["$id"], "https://example.com/schemas/forecast.json");
    assert_eq!(forecast["required"], json!(["result"]));
    assert_eq!(
        forecast["properties"]["result"],
        json!({ "type": "array", "items": { "$ref": "#/$defs/WeatherData" } }),
        "$defs, $id and $schema hoisted out of result"
    );
    assert_eq!(
        forecast["$defs"]["WeatherData"]["properties"]["humidity"]["maximum"],
        1
    );
    assert_eq!(
        by_name("get_nothing")["outputSchema"],
        json!({ "type": "object", "properties": { "result": { "type": "null" } }, "required": ["result"] })
    );
    let catalog_by_name = |name: &str| catalog.iter().find(|t| t["name"] == name).unwrap().clone();
    for unwrapped in ["get_weather", "get_temperatures", "get_chart"] {
        assert_eq!(
            by_name(unwrapped),
            catalog_by_name(unwrapped),
            "{unwrapped} is an object root"
        );
    }
    assert!(by_name("weather_report").get("outputSchema").is_none());
}

#[tokio::test]
async fn results_are_shaped_for_each_generation() {
    for generation in BOTH {
        let legacy = generation == Generation::Legacy;
        let mut client = start(generation).await;

        let r = client
            .call("get_temperature", json!({ "city": "London" }))
            .await;
        assert_ne!(r["isError"], true, "{r}");
        assert_eq!(
            r["structuredContent"],
            if legacy {
                json!({ "result": 17 })
            } else {
                json!(17)
            },
            "{r}"
        );
        assert_eq!(texts(&r), ["17"]);

        let r = client
            .call("get_weather", json!({ "city": "London" }))
            .await;
        assert_eq!(
            r["structuredContent"],
            weather_value(),
            "objects are never wrapped: {r}"
        );
        let t = texts(&r);
        assert_eq!(t.len(), 1);
        assert_eq!(
            t[0],
            serde_json::to_string_pretty(&weather_value()).unwrap(),
            "pretty JSON text"
        );

        let r = client
            .call("get_forecast", json!({ "city": "London", "days": 3 }))
            .await;
        let items = if legacy {
            r["structuredContent"]["result"].clone()
        } else {
            r["structuredContent"].clone()
        };
        assert_eq!(items.as_array().map(Vec::len), Some(3), "{r}");
        let blocks: Vec<Value> = texts(&r)
            .iter()
            .map(|t| serde_json::from_str(t).unwrap())
            .collect();
        assert_eq!(Value::Array(blocks), items, "one text block per item");
        let pretty: Vec<String> = items
            .as_array()
            .unwrap()
            .iter()
            .map(|item| serde_json::to_string_pretty(item).unwrap())
            .collect();
        assert_eq!(texts(&r), pretty, "each item as pretty JSON");

        let r = client
            .call(
                "get_temperatures",
                json!({ "cities": ["London", "Cairo", "Atlantis"] }),
            )
            .await;
        assert_eq!(
            r["structuredContent"],
            json!({ "Cairo": 34.1, "London": 16.2 }),
            "maps are never wrapped"
        );

        let r = client.call("list_cities", json!({})).await;
        assert_eq!(
            texts(&r),
            ["London", "Cairo", "Reykjavik"],
            "strings in an array are text as is"
        );
        let cities = json!(["London", "Cairo", "Reykjavik"]);
        assert_eq!(
            r["structuredContent"],
            if legacy {
                json!({ "result": cities })
            } else {
                cities
            }
        );

        let r = client.call("get_nothing", json!({})).await;
        assert_eq!(r["content"], json!([]), "null has no text: {r}");
        assert_eq!(
            r["structuredContent"],
            if legacy {
                json!({ "result": null })
            } else {
                json!(null)
            },
            "{r}"
        );
        assert!(
            r.as_object().unwrap().contains_key("structuredContent"),
            "an explicit null: {r}"
        );

        let r = client
            .call("weather_report", json!({ "city": "London" }))
            .await;
        assert_ne!(r["isError"], true, "{r}");
        assert!(r.get("structuredContent").is_none(), "{r}");
        assert_eq!(
            texts(&r),
            ["London: 17 degrees, overcast, light rain easing by evening."]
        );
    }
}

#[tokio::test]
async fn invalid_arguments_are_reported_and_never_reach_the_tool() {
    for generation in BOTH {
        let (server, weather) = server();
        let mut client = PipeClient::start(server, generation).await;
        let before = weather.calls.load(Ordering::SeqCst);

        let r = client
            .call("get_forecast", json!({ "city": "London", "days": 0 }))
            .await;
        assert_eq!(r["isError"], true, "{r}");
        assert!(r.get("structuredContent").is_none(), "{r}");
        assert_eq!(
            texts(&r),
            ["invalid arguments for tool get_forecast: /days: 0 is less than the minimum of 1"]
        );

        let r = client
            .call("get_forecast", json!({ "city": "London", "days": "three" }))
            .await;
        assert_eq!(
            texts(&r),
            [
                "invalid arguments for tool get_forecast: /days: \"three\" is not of type \"integer\""
            ]
        );

        let r = client
            .call("get_forecast", json!({ "city": "London" }))
            .await;
        assert_eq!(r["isError"], true, "{r}");
        assert!(
            texts(&r)[0].contains("\"days\" is a required property"),
            "{r}"
        );

        // Every problem is listed, one per line.
        let r = client
            .call("get_forecast", json!({ "days": 15, "extra": 1 }))
            .await;
        let text = texts(&r).join("\n");
        assert!(
            text.starts_with("invalid arguments for tool get_forecast: "),
            "{text}"
        );
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(
            text.contains("/days: 15 is greater than the maximum of 14"),
            "{text}"
        );
        assert!(text.contains("\"city\" is a required property"), "{text}");
        assert!(text.contains("extra"), "{text}");

        assert_eq!(
            weather.calls.load(Ordering::SeqCst),
            before,
            "no tool body ran"
        );
    }
}

#[tokio::test]
async fn missing_arguments_are_an_empty_object() {
    let mut client = start(Generation::Modern).await;
    let r = client
        .request("tools/call", json!({ "name": "list_cities" }))
        .await;
    assert_eq!(
        r["result"]["structuredContent"],
        json!(["London", "Cairo", "Reykjavik"]),
        "{r}"
    );
    let r = client
        .request("tools/call", json!({ "name": "get_weather" }))
        .await;
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(
        texts(&r["result"])[0].contains("\"city\" is a required property"),
        "{r}"
    );
}

#[tokio::test]
async fn output_that_breaks_the_contract_is_an_error_without_structured_content() {
    for generation in BOTH {
        let mut client = start(generation).await;
        let r = client
            .call("get_weather_upstream", json!({ "city": "London" }))
            .await;
        assert_eq!(r["isError"], true, "{r}");
        assert!(
            r.get("structuredContent").is_none(),
            "nothing invalid reaches a client: {r}"
        );
        assert_eq!(
            texts(&r),
            [
                "output of tool get_weather_upstream does not match its outputSchema: /humidity: 83.0 is greater than the maximum of 1"
            ]
        );
    }
}

#[tokio::test]
async fn tool_errors_are_results_the_model_can_read() {
    let mut client = start(Generation::Legacy).await;
    let r = client
        .call("get_temperature", json!({ "city": "Paris" }))
        .await;
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(texts(&r), ["unknown city \"Paris\""]);
    assert!(r.get("structuredContent").is_none(), "{r}");
}

#[tokio::test]
async fn a_panicking_tool_is_contained_and_the_server_keeps_serving() {
    for generation in BOTH {
        let mut client = start(generation).await;
        let r = client.call("panics", json!({})).await;
        assert_eq!(r["isError"], true, "{r}");
        assert_eq!(texts(&r), ["tool panics panicked: the barometer exploded"]);
        let r = client
            .call("get_temperature", json!({ "city": "London" }))
            .await;
        assert_ne!(r["isError"], true, "still serving: {r}");
    }
}

#[tokio::test]
async fn a_return_kind_that_contradicts_the_schema_is_an_error() {
    let mut client = start(Generation::Modern).await;
    let r = client.call("mismatched", json!({})).await;
    assert_eq!(r["isError"], true, "{r}");
    assert!(r.get("structuredContent").is_none(), "{r}");
    assert!(
        texts(&r)[0].contains("returned text but declares an outputSchema"),
        "{r}"
    );
}

#[tokio::test]
async fn output_adds_meta_and_extra_blocks_after_the_shaped_content() {
    for generation in BOTH {
        let mut client = start(generation).await;
        let r = client.call("get_chart", json!({ "city": "London" })).await;
        assert_ne!(r["isError"], true, "{r}");
        assert_eq!(r["structuredContent"], weather_value());
        assert_eq!(r["_meta"], json!({ "io.example/station": "LHR-12" }));
        let content = r["content"].as_array().unwrap();
        assert_eq!(content.len(), 3, "{r}");
        assert_eq!(
            serde_json::from_str::<Value>(content[0]["text"].as_str().unwrap()).unwrap(),
            weather_value()
        );
        assert_eq!(content[1]["type"], "image");
        assert_eq!(content[1]["mimeType"], "image/png");
        assert_eq!(content[2]["type"], "resource_link");
        assert_eq!(content[2]["uri"], "weather://london/chart");
    }
}

#[tokio::test]
async fn an_unknown_tool_is_a_json_rpc_invalid_params_error() {
    for generation in BOTH {
        let mut client = start(generation).await;
        let r = client
            .request(
                "tools/call",
                json!({ "name": "no_such_tool", "arguments": {} }),
            )
            .await;
        assert_eq!(r["error"]["code"], -32602, "{r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no_such_tool"),
            "{r}"
        );
    }
}

#[tokio::test]
async fn progress_is_sent_only_when_the_request_asked_for_it() {
    for generation in BOTH {
        let mut client = start(generation).await;
        let params = json!({ "name": "echo_slowly", "arguments": { "text": "hi", "ms": 0 }, "_meta": { "progressToken": "p1" } });
        let r = client.request("tools/call", params).await;
        assert_eq!(texts(&r["result"]), ["hi"], "{r}");
        let progress: Vec<&Value> = client
            .other
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .collect();
        assert_eq!(progress.len(), 2, "{:?}", client.other);
        assert_eq!(progress[1]["params"]["progressToken"], "p1");
        assert_eq!(progress[1]["params"]["progress"], 1.0);
        assert_eq!(progress[1]["params"]["total"], 2.0);
        assert_eq!(progress[1]["params"]["message"], "step 1");

        client.other.clear();
        let r = client
            .call("echo_slowly", json!({ "text": "quiet", "ms": 0 }))
            .await;
        assert_eq!(texts(&r), ["quiet"]);
        assert!(
            client
                .other
                .iter()
                .all(|m| m["method"] != "notifications/progress"),
            "{:?}",
            client.other
        );
    }
}

#[tokio::test]
async fn discover_advertises_tools_and_the_server_identity() {
    let mut client = start(Generation::Modern).await;
    let discover = client.request("server/discover", json!({})).await;
    assert!(
        discover["result"]["capabilities"]["tools"].is_object(),
        "{discover}"
    );
    assert_eq!(
        discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "weather-test",
        "{discover}"
    );
}

#[tokio::test]
async fn the_legacy_initialize_result_names_the_server_and_tools() {
    let (server, _) = server();
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    let served = tokio::spawn(schemcp_runtime::serve_io(server, read, write));
    let (client_read, mut client_write) = tokio::io::split(client_end);
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": support::LEGACY, "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } } });
    client_write
        .write_all(format!("{init}\n").as_bytes())
        .await
        .unwrap();
    let mut lines = tokio::io::BufReader::new(client_read).lines();
    let line = lines.next_line().await.unwrap().unwrap();
    let response: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        response["result"]["protocolVersion"],
        support::LEGACY,
        "{response}"
    );
    assert!(
        response["result"]["capabilities"]["tools"].is_object(),
        "{response}"
    );
    assert_eq!(
        response["result"]["serverInfo"],
        json!({ "name": "weather-test", "version": "0.0.1" })
    );
    client_write.shutdown().await.unwrap();
    assert!(lines.next_line().await.unwrap().is_none());
    served.await.unwrap().unwrap();
}

#[tokio::test]
async fn every_request_read_before_eof_is_answered_even_past_rmcps_drain_window() {
    for generation in BOTH {
        let mut client = start(generation).await;
        // Longer than rmcp's own five-second drain at EOF, after which it cancels handlers.
        let slow = client
            .send_request(
                "tools/call",
                json!({ "name": "echo_slowly", "arguments": { "text": "slow", "ms": 5_500 } }),
            )
            .await;
        let mut fast = Vec::new();
        for i in 0..300 {
            let tool = if i % 2 == 0 {
                "get_weather"
            } else {
                "get_temperature"
            };
            fast.push(
                client
                    .send_request(
                        "tools/call",
                        json!({ "name": tool, "arguments": { "city": "London" } }),
                    )
                    .await,
            );
        }
        let (rest, served) = client.close().await;
        served.expect("a clean end after EOF");
        let answered = |id: u64| {
            rest.iter()
                .find(|m| m["id"] == json!(id) && m.get("method").is_none())
        };
        let slow_answer =
            answered(slow).unwrap_or_else(|| panic!("the slow call was dropped ({generation:?})"));
        assert_eq!(texts(&slow_answer["result"]), ["slow"], "{slow_answer}");
        for id in fast {
            let answer =
                answered(id).unwrap_or_else(|| panic!("call {id} was dropped ({generation:?})"));
            assert_ne!(answer["result"]["isError"], true, "{answer}");
        }
    }
}

#[tokio::test]
async fn a_cancelled_request_does_not_hold_the_server_open_at_eof() {
    let mut client = start(Generation::Legacy).await;
    let id = client
        .send_request(
            "tools/call",
            json!({ "name": "echo_slowly", "arguments": { "text": "never", "ms": 600_000 } }),
        )
        .await;
    client
        .send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": id, "reason": "user" } }))
        .await;
    let (rest, served) = client.close().await;
    served.unwrap();
    assert!(
        rest.iter().all(|m| m["id"] != json!(id)),
        "a cancelled request gets no answer: {rest:?}"
    );
}
