#!/usr/bin/env python3
"""The Python `mcp` client (pinned in tests/interop/requirements.txt) against examples/weather.

Usage:
  weather_client.py --mode auto|legacy --stdio SERVER_COMMAND [ARGS...]
  weather_client.py --mode auto|legacy --url http://127.0.0.1:PORT/mcp

`auto` is `Client(...)`'s default: it probes `server/discover` and must land on 2026-07-28.
`legacy` forces the `initialize` handshake and must land on 2025-11-25, where non-object output
schemas and results arrive wrapped as {"result": ...}. The client validates structuredContent
against outputSchema itself and raises on a mismatch, so every success row also proves the
served schema and the result agree in this client's validator.

Prints one PASS/FAIL line per check, the raw JSON of every failing response, and
'N passed, M failed' last; exits 1 if anything failed.
"""
import json
import traceback

from mcp import Client

from interop import check, raw, serve

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
WEATHER = {
    "London": {"temperature": 16.2, "humidity": 0.83, "conditions": "Overcast"},
    "Cairo": {"temperature": 34.1, "humidity": 0.21, "conditions": "Sunny"},
    "Reykjavik": {"temperature": 4.4, "humidity": 0.76, "conditions": "Light snow"},
}
WHOLE = {"London": 17, "Cairo": 34, "Reykjavik": 4}
REPORT = "London: 17 degrees, overcast, light rain easing by evening."

def texts(result):
    return [getattr(block, "text", None) for block in result.content]


def close(a, b):
    return isinstance(a, (int, float)) and not isinstance(a, bool) and abs(a - b) < 1e-9


async def call(client, tag, tool, arguments):
    """call_tool, turning a client-side exception (e.g. its own outputSchema validation) into a
    FAIL that shows what was raised."""
    try:
        return await client.call_tool(tool, arguments)
    except Exception as error:  # noqa: BLE001 - any raise is a failure to report
        check(f"{tag}{tool} {json.dumps(arguments)} did not raise", False,
              f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
        return None


async def run(server, mode):
    legacy = mode == "legacy"
    tag = f"[{mode}] "
    async with Client(server, mode=mode) as client:
        version = client.protocol_version
        check(tag + f"negotiated {LEGACY if legacy else MODERN}", version == (LEGACY if legacy else MODERN),
              repr(version))

        listed = await client.list_tools()
        tools = {t.name: t for t in listed.tools}
        names = ["get_forecast", "get_temperature", "get_temperatures", "get_weather",
                 "get_weather_upstream", "weather_report"]
        check(tag + "tools/list names", sorted(tools) == names, listed)

        def schema(name):
            return tools[name].output_schema if name in tools else None

        want = ({"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"]}
                if legacy else {"type": "integer"})
        check(tag + "get_temperature outputSchema", schema("get_temperature") == want, json.dumps(schema("get_temperature")))
        s = schema("get_forecast") or {}
        items = s.get("properties", {}).get("result", {}) if legacy else s
        check(tag + "get_forecast outputSchema: array of $defs/WeatherData, $defs at the root",
              items.get("type") == "array" and items.get("items") == {"$ref": "#/$defs/WeatherData"}
              and "WeatherData" in s.get("$defs", {}) and (not legacy or s.get("required") == ["result"]),
              json.dumps(s))
        s = schema("get_temperatures") or {}
        check(tag + "get_temperatures outputSchema is a map, never wrapped",
              s.get("type") == "object" and s.get("additionalProperties") == {"type": "number"}
              and "result" not in s.get("properties", {}), json.dumps(s))
        s = schema("get_weather") or {}
        check(tag + "get_weather outputSchema is the object, never wrapped",
              set(s.get("properties", {})) == {"temperature", "humidity", "conditions"}, json.dumps(s))
        check(tag + "weather_report has no outputSchema", "weather_report" in tools and schema("weather_report") is None,
              json.dumps(schema("weather_report")))

        for city, degrees in WHOLE.items():
            r = await call(client, tag, "get_temperature", {"city": city})
            if r is not None:
                want = {"result": degrees} if legacy else degrees
                check(tag + f"get_temperature {city} = {degrees}",
                      not r.is_error and r.structured_content == want and texts(r) == [str(degrees)], r)

        for city, weather in WEATHER.items():
            r = await call(client, tag, "get_weather", {"city": city})
            if r is not None:
                ok = not r.is_error and r.structured_content == weather and len(r.content) == 1
                ok = ok and json.loads(texts(r)[0]) == weather
                check(tag + f"get_weather {city}", ok, r)

        r = await call(client, tag, "get_forecast", {"city": "London", "days": 3})
        if r is not None:
            sc = r.structured_content
            days = sc.get("result") if legacy and isinstance(sc, dict) else sc
            ok = (not r.is_error and isinstance(days, list) and len(days) == 3
                  and all(close(d.get("temperature"), 16.2 + i) and d.get("humidity") == 0.83
                          and d.get("conditions") == "Overcast" for i, d in enumerate(days))
                  and (not legacy or set(sc) == {"result"})
                  and len(r.content) == 3 and [json.loads(t) for t in texts(r)] == days)
            check(tag + "get_forecast London 3 days (16.2 + day, one block per day)", ok, r)

        for days in [1, 14]:
            r = await call(client, tag, "get_forecast", {"city": "Cairo", "days": days})
            if r is not None:
                sc = r.structured_content
                got = sc.get("result") if legacy and isinstance(sc, dict) else sc
                check(tag + f"get_forecast Cairo days={days}",
                      not r.is_error and isinstance(got, list) and len(got) == days
                      and close(got[-1]["temperature"], 34.1 + days - 1), r)

        for bad in [0, 15, "three"]:
            r = await call(client, tag, "get_forecast", {"city": "London", "days": bad})
            if r is not None:
                check(tag + f"get_forecast days={bad!r} is an error naming days",
                      r.is_error and r.structured_content is None and any("days" in (t or "") for t in texts(r)), r)

        r = await call(client, tag, "get_temperatures", {"cities": ["London", "Cairo", "Atlantis"]})
        if r is not None:
            sc = r.structured_content
            ok = (not r.is_error and isinstance(sc, dict) and set(sc) == {"London", "Cairo"}
                  and close(sc["London"], 16.2) and close(sc["Cairo"], 34.1))
            check(tag + "get_temperatures map of known cities, unknown left out", ok, r)

        r = await call(client, tag, "weather_report", {"city": "London"})
        if r is not None:
            check(tag + "weather_report London is text only",
                  not r.is_error and r.structured_content is None and texts(r) == [REPORT], r)

        r = await call(client, tag, "get_weather_upstream", {"city": "London"})
        if r is not None:
            check(tag + "get_weather_upstream is_error naming humidity",
                  r.is_error and r.structured_content is None and any("humidity" in (t or "") for t in texts(r)), r)

        for tool, arguments in [("get_temperature", {"city": "Atlantis"}), ("get_weather", {"city": "Atlantis"}),
                                ("get_forecast", {"city": "Atlantis", "days": 2}),
                                ("weather_report", {"city": "Atlantis"}),
                                ("get_weather_upstream", {"city": "Atlantis"})]:
            r = await call(client, tag, tool, arguments)
            if r is not None:
                check(tag + f"{tool} unknown city is a tool error naming it",
                      r.is_error and r.structured_content is None and any("Atlantis" in (t or "") for t in texts(r)), r)

        try:
            r = await client.call_tool("no_such_tool", {})
            check(tag + "unknown tool is a protocol error", False, r)
        except Exception as error:  # noqa: BLE001
            check(tag + "unknown tool is a protocol error", "no_such_tool" in str(error) or "32602" in str(error)
                  or "not found" in str(error).lower(), f"{type(error).__name__}: {error}")


if __name__ == "__main__":
    serve(run, __doc__)
