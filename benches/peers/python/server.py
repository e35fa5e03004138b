"""Benchmark peer: get_weather on the Python MCP SDK's MCPServer (pinned in
tests/interop/requirements.txt). The SDK validates the structured output against the schema it
derives from the return type.

Usage: python server.py            (stdio)
       python server.py --http HOST:PORT   (Streamable HTTP at /mcp)
"""

import sys

from pydantic import BaseModel, Field

from mcp.server import MCPServer


class WeatherData(BaseModel):
    temperature: float = Field(description="Degrees Celsius.")
    humidity: float = Field(ge=0, le=1, description="Relative humidity, 0 to 1.")
    conditions: str


PRECISE = {
    "London": (16.2, 0.83, "Overcast"),
    "Cairo": (34.1, 0.21, "Sunny"),
    "Reykjavik": (4.4, 0.76, "Light snow"),
}

server = MCPServer("bench-python")


@server.tool(title="Weather", description="Current weather for a city.")
def get_weather(city: str) -> WeatherData:
    if city not in PRECISE:
        raise ValueError(f"unknown city {city!r}")
    temperature, humidity, conditions = PRECISE[city]
    return WeatherData(temperature=temperature, humidity=humidity, conditions=conditions)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        host, port = sys.argv[2].rsplit(":", 1)
        print(f"listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
        server.run("streamable-http", host=host, port=int(port), streamable_http_path="/mcp")
    else:
        server.run()
