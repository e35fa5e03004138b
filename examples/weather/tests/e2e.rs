//! End-to-end: the weather binary over stdio and Streamable HTTP, on the legacy `initialize`
//! path (2025-11-25) and the 2026-07-28 `server/discover` path, every row of the seed table.

mod support;

use serde_json::{Value, json};
use support::{Generation, HttpServer, HttpSession, Session, StdioSession, texts};

const BIN: &str = env!("CARGO_BIN_EXE_weather");

fn catalog() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/generated/tools.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn weather() -> Value {
    json!({ "temperature": 16.2, "humidity": 0.83, "conditions": "Overcast" })
}

fn check_tools_list(session: &mut Session) {
    let generation = session.generation();
    let tools = session.tools();
    let catalog = catalog();
    let names: Vec<&str> = tools.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "get_forecast",
            "get_temperature",
            "get_temperatures",
            "get_weather",
            "get_weather_upstream",
            "weather_report"
        ]
    );
    for tool in catalog["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        let served = &tools[name];
        // Everything but a non-object output schema is served verbatim to every client.
        for key in ["title", "description", "inputSchema", "annotations"] {
            assert_eq!(served[key], tool[key], "{name}.{key} ({generation:?})");
        }
        let wraps = tool["outputSchema"]
            .get("type")
            .is_some_and(|t| t != "object")
            || tool["outputSchema"].is_object() && tool["outputSchema"].get("type").is_none();
        if generation == Generation::Modern || !wraps {
            assert_eq!(
                served.get("outputSchema"),
                tool.get("outputSchema"),
                "{name} ({generation:?})"
            );
        }
    }
    if generation == Generation::Modern {
        // The checked-in mirror is exactly what a 2026-07-28 client receives.
        let served: Vec<&Value> = tools.values().collect();
        let mirrored: Vec<&Value> = catalog["tools"].as_array().unwrap().iter().collect();
        assert_eq!(served, mirrored);
        // Key order survives too, not just equality.
        assert_eq!(
            serde_json::to_string(&tools["get_weather"]).unwrap(),
            serde_json::to_string(&catalog["tools"][3]).unwrap()
        );
        assert_eq!(
            tools["get_temperature"]["outputSchema"],
            json!({ "type": "integer" })
        );
    } else {
        assert_eq!(
            tools["get_temperature"]["outputSchema"],
            json!({ "type": "object", "properties": { "result": { "type": "integer" } }, "required": ["result"] })
        );
        let forecast = &tools["get_forecast"]["outputSchema"];
        assert_eq!(forecast["type"], "object");
        assert_eq!(forecast["required"], json!(["result"]));
        assert_eq!(forecast["properties"]["result"]["type"], "array");
        assert_eq!(
            forecast["properties"]["result"]["items"],
            json!({ "$ref": "#/$defs/WeatherData" })
        );
        assert!(
            forecast["properties"]["result"].get("$defs").is_none(),
            "$defs hoisted: {forecast}"
        );
        assert_eq!(
            forecast["$defs"]["WeatherData"]["properties"]["humidity"]["maximum"],
            1
        );
    }
    assert_eq!(
        tools["get_temperatures"]["outputSchema"],
        json!({ "type": "object", "additionalProperties": { "type": "number" } })
    );
    assert!(tools["weather_report"].get("outputSchema").is_none());
    let humidity = &tools["get_weather"]["outputSchema"]["properties"]["humidity"];
    assert_eq!(humidity["description"], "Relative humidity, 0 to 1.");
    assert_eq!(humidity["maximum"], 1);
}

fn check_calls(session: &mut Session) {
    let legacy = session.generation() == Generation::Legacy;

    let r = session.call("get_temperature", json!({ "city": "London" }));
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

    let r = session.call("get_temperature", json!({ "city": "Paris" }));
    assert_eq!(r["isError"], true, "{r}");
    assert!(texts(&r).iter().any(|t| t.contains("Paris")), "{r}");
    assert!(r.get("structuredContent").is_none(), "{r}");

    let r = session.call("get_weather", json!({ "city": "London" }));
    assert_ne!(r["isError"], true, "{r}");
    assert_eq!(r["structuredContent"], weather());
    let t = texts(&r);
    assert_eq!(t.len(), 1, "{r}");
    assert_eq!(serde_json::from_str::<Value>(&t[0]).unwrap(), weather());
    // Members as the schema declares them, not in typify's alphabetical field order.
    assert_eq!(
        t[0],
        "{\n  \"temperature\": 16.2,\n  \"humidity\": 0.83,\n  \"conditions\": \"Overcast\"\n}"
    );
    let keys: Vec<&String> = r["structuredContent"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["temperature", "humidity", "conditions"], "{r}");

    let r = session.call("get_forecast", json!({ "city": "London", "days": 3 }));
    assert_ne!(r["isError"], true, "{r}");
    let items = if legacy {
        r["structuredContent"]["result"].clone()
    } else {
        r["structuredContent"].clone()
    };
    let items = items.as_array().unwrap_or_else(|| panic!("{r}")).clone();
    assert_eq!(items.len(), 3);
    for (day, item) in items.iter().enumerate() {
        let t = item["temperature"].as_f64().unwrap();
        assert!((t - (16.2 + day as f64)).abs() < 1e-9, "{item}");
    }
    let blocks: Vec<Value> = texts(&r)
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    assert_eq!(blocks, items, "one text block per item");

    for bad in [json!(0), json!("three"), json!(15)] {
        let r = session.call("get_forecast", json!({ "city": "London", "days": bad }));
        assert_eq!(r["isError"], true, "days={bad}: {r}");
        assert!(
            texts(&r).iter().any(|t| t.contains("days")),
            "days={bad}: {r}"
        );
        assert!(r.get("structuredContent").is_none(), "{r}");
    }
    let r = session.call("get_forecast", json!({ "city": "London" }));
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        texts(&r).iter().any(|t| t.contains("days")),
        "missing days: {r}"
    );

    let r = session.call(
        "get_temperatures",
        json!({ "cities": ["London", "Cairo", "Atlantis"] }),
    );
    assert_ne!(r["isError"], true, "{r}");
    assert_eq!(
        r["structuredContent"],
        json!({ "London": 16.2, "Cairo": 34.1 }),
        "maps are never wrapped"
    );

    let r = session.call("weather_report", json!({ "city": "London" }));
    assert_ne!(r["isError"], true, "{r}");
    assert!(r.get("structuredContent").is_none(), "{r}");
    assert_eq!(
        texts(&r),
        ["London: 17 degrees, overcast, light rain easing by evening."]
    );

    let r = session.call("get_weather_upstream", json!({ "city": "London" }));
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        r.get("structuredContent").is_none(),
        "nothing invalid reaches a client: {r}"
    );
    let text = texts(&r).join("\n");
    assert!(
        text.contains("humidity") && text.contains("get_weather_upstream"),
        "{text}"
    );

    let response = session.request(
        "tools/call",
        json!({ "name": "no_such_tool", "arguments": {} }),
    );
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

fn run(mut session: Session) {
    check_tools_list(&mut session);
    check_calls(&mut session);
}

#[test]
fn stdio_legacy_initialize() {
    run(Session::Stdio(StdioSession::start(
        BIN,
        &[],
        Generation::Legacy,
    )));
}

#[test]
fn stdio_modern_discover() {
    run(Session::Stdio(StdioSession::start(
        BIN,
        &[],
        Generation::Modern,
    )));
}

#[test]
fn http_legacy_session_and_modern_stateless() {
    let server = HttpServer::start(BIN);
    run(Session::Http(HttpSession::open(
        &server.addr,
        Generation::Legacy,
    )));
    run(Session::Http(HttpSession::open(
        &server.addr,
        Generation::Modern,
    )));
}

#[test]
fn http_server_stops_cleanly_on_sigterm() {
    let mut server = HttpServer::start(BIN);
    let mut session = Session::Http(HttpSession::open(&server.addr, Generation::Legacy));
    assert_eq!(
        session.call("get_temperature", json!({ "city": "Cairo" }))["structuredContent"],
        json!({ "result": 34 })
    );
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = server.wait();
    assert!(status.success(), "exit status after SIGTERM: {status}");
}
