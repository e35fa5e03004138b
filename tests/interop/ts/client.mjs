// What the TypeScript interop clients share: the PASS/FAIL lines, the arguments, connecting with
// either SDK (v1 is `@modelcontextprotocol/sdk`'s `Client`, initialize handshake and Ajv's
// draft-07 class; v2 is `@modelcontextprotocol/client`, Ajv 2020, `--mode auto` probing
// `server/discover`), and the exit status.

let passed = 0;
let failed = 0;

export function check(name, ok, seen) {
  if (ok) {
    passed++;
    console.log(`PASS ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}`);
    if (seen !== undefined) {
      console.log(`     saw: ${typeof seen === 'string' ? seen : JSON.stringify(seen)}`);
    }
  }
}

export const equal = (a, b) => JSON.stringify(a) === JSON.stringify(b);
export const close = (a, b) => typeof a === 'number' && Math.abs(a - b) < 1e-9;
export const texts = (r) => (r.content ?? []).map((c) => c.text);
export const sameKeys = (o, keys) =>
  o !== null && typeof o === 'object' && equal(Object.keys(o).sort(), [...keys].sort());

export function parseArgs(argv, script) {
  const args = { sdk: null, mode: null, url: null, command: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--sdk') args.sdk = argv[++i];
    else if (argv[i] === '--mode') args.mode = argv[++i];
    else if (argv[i] === '--url') args.url = argv[++i];
    else if (argv[i] === '--stdio') {
      args.command = argv.slice(i + 1);
      break;
    }
  }
  if (!['v1', 'v2'].includes(args.sdk) || !['legacy', 'auto'].includes(args.mode)) {
    console.error(`usage: ${script} --sdk v1|v2 --mode legacy|auto (--url URL | --stdio CMD...)`);
    process.exit(2);
  }
  if (args.sdk === 'v1' && args.mode !== 'legacy') {
    console.error('the v1 SDK only speaks the initialize handshake: use --mode legacy');
    process.exit(2);
  }
  return args;
}

export async function connect(args) {
  if (args.sdk === 'v1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client({ name: 'schemcp-interop-sdk1', version: '0.0.0' });
    let transport;
    if (args.url) {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      transport = new StreamableHTTPClientTransport(new URL(args.url));
    } else {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      transport = new StdioClientTransport({ command: args.command[0], args: args.command.slice(1), stderr: 'inherit' });
    }
    await client.connect(transport);
    return client;
  }
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const options = args.mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {};
  const client = new Client({ name: 'schemcp-interop-client2', version: '0.0.0' }, options);
  let transport;
  if (args.url) {
    transport = new StreamableHTTPClientTransport(new URL(args.url));
  } else {
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    transport = new StdioClientTransport({ command: args.command[0], args: args.command.slice(1), stderr: 'inherit' });
  }
  await client.connect(transport);
  return client;
}

export async function call(client, tag, name, args) {
  try {
    return await client.callTool({ name, arguments: args });
  } catch (error) {
    check(`${tag}${name} ${JSON.stringify(args)} did not throw`, false, `${error?.stack ?? error}`);
    return null;
  }
}

// Runs `run(args)`, counts a throw as a failure, prints the counts and exits 1 on any failure
// (or when nothing was checked).
export async function finish(run, args) {
  try {
    await run(args);
  } catch (error) {
    check(`[${args.sdk} ${args.mode}] session ran to the end`, false, `${error?.stack ?? error}`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}
