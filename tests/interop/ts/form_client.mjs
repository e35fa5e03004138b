// The TypeScript MCP clients (pinned in tests/interop/package-lock.json) against
// examples/form-builder, whose `describe_form` takes and returns JSON Schemas (members that `$ref`
// the 2020-12 metaschema).
//
// Usage:
//   node form_client.mjs --sdk v1|v2 --mode legacy|auto --stdio SERVER_COMMAND [ARGS...]
//   node form_client.mjs --sdk v1|v2 --mode legacy|auto --url http://127.0.0.1:PORT/mcp
//
// v1 compiles every output schema with Ajv's draft-07 class, which has no 2020-12 metaschema: the
// reference as written made its listTools() throw, so clients before 2026-07-28 receive it as
// `"type": ["object", "boolean"]`. v2 (Ajv 2020) on 2026-07-28 receives it as written. Both
// validate structuredContent against outputSchema, so every success row also proves the served
// schema compiles and validates in them.
//
// Prints one PASS/FAIL line per check and 'N passed, M failed' last; exits 1 if anything failed.

import { call, check, connect, equal, finish, parseArgs, texts } from './client.mjs';

const META = 'https://json-schema.org/draft/2020-12/schema';
const PERSON = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } };

async function run(args) {
  const legacy = args.mode === 'legacy';
  const tag = `[${args.sdk} ${args.mode} ${args.url ? 'http' : 'stdio'}] `;
  const client = await connect(args);
  try {
    const listed = await client.listTools();
    const tools = Object.fromEntries(listed.tools.map((t) => [t.name, t]));
    check(`${tag}tools/list names`, equal(Object.keys(tools), ['describe_form']), listed);
    const served = tools.describe_form?.outputSchema?.properties?.schema;
    const want = legacy
      ? { description: 'The schema described.', type: ['object', 'boolean'] }
      : { $ref: META, description: 'The schema described.' };
    check(`${tag}outputSchema's metaschema member`, equal(served, want), served);

    let r = await call(client, tag, 'describe_form', { schema: PERSON });
    if (r) {
      check(
        `${tag}a schema: its fields and the schema back`,
        !r.isError && equal(r.structuredContent, { fields: ['name', 'age'], schema: PERSON }),
        r,
      );
    }
    r = await call(client, tag, 'describe_form', { schema: true });
    if (r) {
      check(`${tag}true is a schema`, !r.isError && equal(r.structuredContent, { fields: [], schema: true }), r);
    }
    r = await call(client, tag, 'describe_form', { schema: { type: 12 } });
    if (r) {
      check(
        `${tag}an object that is no schema is refused, naming the member`,
        r.isError === true &&
          r.structuredContent === undefined &&
          texts(r)[0]?.startsWith('invalid arguments for tool describe_form: /schema/type: '),
        r,
      );
    }
    r = await call(client, tag, 'describe_form', { schema: 12 });
    if (r) {
      check(`${tag}a number is no schema`, r.isError === true && texts(r)[0]?.includes('/schema: '), r);
    }
  } finally {
    await client.close();
  }
}

await finish(run, parseArgs(process.argv.slice(2), 'form_client.mjs'));
