// The TypeScript MCP clients (pinned in tests/interop/package-lock.json) against examples/weather.
//
// Usage:
//   node weather_client.mjs --sdk v1|v2 --mode legacy|auto --stdio SERVER_COMMAND [ARGS...]
//   node weather_client.mjs --sdk v1|v2 --mode legacy|auto --url http://127.0.0.1:PORT/mcp
//
// v1 is `@modelcontextprotocol/sdk`'s `Client` (initialize handshake, 2025-11-25; structured
// content validated with Ajv's draft-07 class after listTools()). v2 is
// `@modelcontextprotocol/client` (Ajv 2020); `--mode auto` there probes `server/discover` and must
// land on 2026-07-28. Both clients validate structuredContent against outputSchema and throw on a
// mismatch, so every success row also proves our served schemas compile and validate in them.
//
// Prints one PASS/FAIL line per check with the raw JSON of every failing response, and
// 'N passed, M failed' last; exits 1 if anything failed.

import { call, check, close, connect, equal, finish, parseArgs, sameKeys, texts } from './client.mjs';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const WEATHER = {
  London: { temperature: 16.2, humidity: 0.83, conditions: 'Overcast' },
  Cairo: { temperature: 34.1, humidity: 0.21, conditions: 'Sunny' },
  Reykjavik: { temperature: 4.4, humidity: 0.76, conditions: 'Light snow' },
};
const WHOLE = { London: 17, Cairo: 34, Reykjavik: 4 };
const REPORT = 'London: 17 degrees, overcast, light rain easing by evening.';

async function run(args) {
  const legacy = args.mode === 'legacy';
  const tag = `[${args.sdk} ${args.mode} ${args.url ? 'http' : 'stdio'}] `;
  const client = await connect(args);
  try {
    const version =
      typeof client.getNegotiatedProtocolVersion === 'function' ? client.getNegotiatedProtocolVersion() : undefined;
    if (args.sdk === 'v2') {
      check(`${tag}negotiated ${legacy ? LEGACY : MODERN}`, version === (legacy ? LEGACY : MODERN), String(version));
    }

    const listed = await client.listTools();
    const tools = Object.fromEntries(listed.tools.map((t) => [t.name, t]));
    check(
      `${tag}tools/list names`,
      equal(Object.keys(tools).sort(), [
        'get_forecast',
        'get_temperature',
        'get_temperatures',
        'get_weather',
        'get_weather_upstream',
        'weather_report',
      ]),
      listed,
    );
    const schema = (n) => tools[n]?.outputSchema;
    const wantTemp = legacy
      ? { type: 'object', properties: { result: { type: 'integer' } }, required: ['result'] }
      : { type: 'integer' };
    check(`${tag}get_temperature outputSchema`, equal(schema('get_temperature'), wantTemp), schema('get_temperature'));
    const forecast = schema('get_forecast') ?? {};
    const items = legacy ? forecast.properties?.result ?? {} : forecast;
    check(
      `${tag}get_forecast outputSchema: array of $defs/WeatherData`,
      items.type === 'array' && equal(items.items, { $ref: '#/$defs/WeatherData' }) && 'WeatherData' in (forecast.$defs ?? {}),
      forecast,
    );
    const map = schema('get_temperatures') ?? {};
    check(
      `${tag}get_temperatures outputSchema is a map, never wrapped`,
      map.type === 'object' && equal(map.additionalProperties, { type: 'number' }) && !('result' in (map.properties ?? {})),
      map,
    );
    check(`${tag}weather_report has no outputSchema`, 'weather_report' in tools && schema('weather_report') === undefined, tools.weather_report);

    for (const [city, degrees] of Object.entries(WHOLE)) {
      const r = await call(client, tag, 'get_temperature', { city });
      if (r) {
        const want = legacy ? { result: degrees } : degrees;
        check(
          `${tag}get_temperature ${city} = ${degrees}`,
          !r.isError && equal(r.structuredContent, want) && equal(texts(r), [String(degrees)]),
          r,
        );
      }
    }

    for (const [city, weather] of Object.entries(WEATHER)) {
      const r = await call(client, tag, 'get_weather', { city });
      if (r) {
        let ok = !r.isError && sameKeys(r.structuredContent, Object.keys(weather)) && r.content.length === 1;
        ok = ok && Object.entries(weather).every(([k, v]) => r.structuredContent[k] === v);
        ok = ok && equal(JSON.parse(texts(r)[0]), r.structuredContent);
        check(`${tag}get_weather ${city}`, ok, r);
      }
    }

    {
      const r = await call(client, tag, 'get_forecast', { city: 'London', days: 3 });
      if (r) {
        const sc = r.structuredContent;
        const days = legacy ? sc?.result : sc;
        const ok =
          !r.isError &&
          Array.isArray(days) &&
          days.length === 3 &&
          days.every((d, i) => close(d.temperature, 16.2 + i) && d.humidity === 0.83 && d.conditions === 'Overcast') &&
          (!legacy || sameKeys(sc, ['result'])) &&
          r.content.length === 3 &&
          equal(texts(r).map((t) => JSON.parse(t)), days);
        check(`${tag}get_forecast London 3 days (16.2 + day, one block per day)`, ok, r);
      }
    }
    for (const days of [1, 14]) {
      const r = await call(client, tag, 'get_forecast', { city: 'Cairo', days });
      if (r) {
        const got = legacy ? r.structuredContent?.result : r.structuredContent;
        check(
          `${tag}get_forecast Cairo days=${days}`,
          !r.isError && Array.isArray(got) && got.length === days && close(got[days - 1].temperature, 34.1 + days - 1),
          r,
        );
      }
    }
    for (const bad of [0, 15, 'three']) {
      const r = await call(client, tag, 'get_forecast', { city: 'London', days: bad });
      if (r) {
        check(
          `${tag}get_forecast days=${JSON.stringify(bad)} is an error naming days`,
          r.isError === true && r.structuredContent === undefined && texts(r).some((t) => t?.includes('days')),
          r,
        );
      }
    }

    {
      const r = await call(client, tag, 'get_temperatures', { cities: ['London', 'Cairo', 'Atlantis'] });
      if (r) {
        const sc = r.structuredContent;
        check(
          `${tag}get_temperatures map of known cities, unknown left out`,
          !r.isError && sameKeys(sc, ['London', 'Cairo']) && close(sc.London, 16.2) && close(sc.Cairo, 34.1),
          r,
        );
      }
    }
    {
      const r = await call(client, tag, 'weather_report', { city: 'London' });
      if (r) {
        check(
          `${tag}weather_report London is text only`,
          !r.isError && r.structuredContent === undefined && equal(texts(r), [REPORT]),
          r,
        );
      }
    }
    {
      const r = await call(client, tag, 'get_weather_upstream', { city: 'London' });
      if (r) {
        check(
          `${tag}get_weather_upstream isError naming humidity`,
          r.isError === true && r.structuredContent === undefined && texts(r).some((t) => t?.includes('humidity')),
          r,
        );
      }
    }
    for (const [name, a] of [
      ['get_temperature', { city: 'Atlantis' }],
      ['get_weather', { city: 'Atlantis' }],
      ['get_forecast', { city: 'Atlantis', days: 2 }],
      ['weather_report', { city: 'Atlantis' }],
      ['get_weather_upstream', { city: 'Atlantis' }],
    ]) {
      const r = await call(client, tag, name, a);
      if (r) {
        check(
          `${tag}${name} unknown city is a tool error naming it`,
          r.isError === true && r.structuredContent === undefined && texts(r).some((t) => t?.includes('Atlantis')),
          r,
        );
      }
    }
    try {
      const r = await client.callTool({ name: 'no_such_tool', arguments: {} });
      // A server may also answer an unknown tool with an isError result; ours uses JSON-RPC.
      check(`${tag}unknown tool is a protocol error`, false, r);
    } catch (error) {
      check(`${tag}unknown tool is a protocol error`, /no_such_tool|-32602|not found/i.test(String(error?.message ?? error)), String(error));
    }
  } finally {
    await client.close();
  }
}

await finish(run, parseArgs(process.argv.slice(2), 'weather_client.mjs'));
