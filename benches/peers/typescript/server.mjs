// Benchmark peer: get_weather on the TypeScript MCP SDK's McpServer (@modelcontextprotocol/sdk,
// pinned in tests/interop/package-lock.json) with a zod input and output schema; the SDK
// validates the structured output against the output schema on every call.
//
// The driver copies this file beside the pinned node_modules so its bare imports resolve.
//
// Usage: node server.mjs                 (stdio)
//        node server.mjs --http HOST:PORT   (Streamable HTTP at /mcp, stateful sessions)

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const PRECISE = {
  London: { temperature: 16.2, humidity: 0.83, conditions: 'Overcast' },
  Cairo: { temperature: 34.1, humidity: 0.21, conditions: 'Sunny' },
  Reykjavik: { temperature: 4.4, humidity: 0.76, conditions: 'Light snow' },
};

function build() {
  const server = new McpServer({ name: 'bench-typescript', version: '0.1.0' });
  server.registerTool(
    'get_weather',
    {
      title: 'Weather',
      description: 'Current weather for a city.',
      inputSchema: { city: z.string().describe('City name, e.g. London.') },
      outputSchema: {
        temperature: z.number().describe('Degrees Celsius.'),
        humidity: z.number().min(0).max(1).describe('Relative humidity, 0 to 1.'),
        conditions: z.string(),
      },
    },
    async ({ city }) => {
      const data = PRECISE[city];
      if (!data) {
        return { isError: true, content: [{ type: 'text', text: `unknown city ${JSON.stringify(city)}` }] };
      }
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
    },
  );
  return server;
}

const args = process.argv.slice(2);
if (args[0] === '--http' && args[1]) {
  const [host, port] = [args[1].slice(0, args[1].lastIndexOf(':')), Number(args[1].slice(args[1].lastIndexOf(':') + 1))];
  const sessions = new Map();
  const httpServer = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(port, host, () => console.error(`listening on http://${host}:${port}/mcp`));
} else {
  await build().connect(new StdioServerTransport());
}
