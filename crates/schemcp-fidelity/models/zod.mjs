// Prints, as JSON, the schemas zod 4 writes (`z.toJSONSchema`, JSON Schema 2020-12) for models
// of the kinds MCP tools take and return, with sample values as zod parses them (what a
// TypeScript server returns). `generate.py` runs it and labels the instances; the argument is
// the folder whose `node_modules` holds zod (the interop one `./scripts/test` installs).
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(path.resolve(process.argv[2]), "noop.js"));
const { z } = require("zod");

const point = z.object({ x: z.number(), y: z.number() });
const tree = z.object({
  label: z.string(),
  get children() {
    return z.array(tree).optional();
  },
});
const cat = z.object({ kind: z.literal("cat"), meows: z.number().int() });
const dog = z.object({ kind: z.literal("dog"), barks: z.number() });

const models = {
  ZodWeather: [
    z.object({
      temperature: z.number().describe("Degrees Celsius."),
      humidity: z.number().min(0).max(1),
      conditions: z.string(),
    }),
    [{ temperature: 16.2, humidity: 0.83, conditions: "Overcast" }],
  ],
  ZodSearch: [
    z.object({
      query: z.string().min(1).max(200),
      limit: z.number().int().min(1).max(100).default(10),
      offset: z.number().int().nonnegative().optional(),
      exact: z.boolean().default(false),
      score: z.number().gt(0).lt(1).optional(),
      code: z.string().regex(/^[A-Z]{2}[0-9]{2}$/).optional(),
    }),
    [{ query: "rust" }, { query: "mcp", limit: 100, offset: 7, exact: true, score: 0.25, code: "ZZ99" }],
  ],
  ZodFormats: [
    z.object({
      email: z.email(),
      link: z.url(),
      id: z.uuid(),
      at: z.iso.datetime({ offset: true }),
      day: z.iso.date(),
      host: z.ipv4().optional(),
      host6: z.ipv6().optional(),
    }),
    [
      { email: "a@example.com", link: "https://example.com", id: "6f1c2c3e-9a4b-4c7d-8e2f-0a1b2c3d4e5f", at: "2026-12-05T09:00:00+02:00", day: "2026-12-05" },
      { email: "b@example.org", link: "http://localhost:8000/x", id: "00000000-0000-4000-8000-000000000000", at: "2026-01-01T00:00:00Z", day: "2026-01-01", host: "10.0.0.1", host6: "::1" },
    ],
  ],
  ZodCollections: [
    z.object({
      tags: z.array(z.string()),
      counts: z.record(z.string(), z.number().int()).optional(),
      pair: z.tuple([z.number(), z.string()]).optional(),
      rest: z.tuple([z.string()], z.number()).optional(),
      points: z.array(point).default([]),
      nonEmpty: z.array(z.string()).nonempty().optional(),
    }),
    [{ tags: [] }, { tags: ["a"], counts: { x: 1 }, pair: [1.5, "a"], rest: ["s", 1, 2], points: [{ x: 1, y: 2 }], nonEmpty: ["n"] }],
  ],
  ZodChoices: [
    z.object({
      color: z.enum(["red", "green", "light-blue"]),
      mode: z.literal("fast").or(z.literal("slow")).default("fast"),
      version: z.literal("v1"),
      level: z.union([z.literal(1), z.literal(2)]).optional(),
      method: z.enum(["GET", "get", "+"]).optional(),
    }),
    [{ color: "red", version: "v1" }, { color: "light-blue", mode: "slow", version: "v1", level: 2, method: "+" }],
  ],
  ZodNested: [
    z.object({
      name: z.string(),
      home: z.object({ street: z.string(), zip: z.string().nullable() }),
      work: z.object({ street: z.string() }).nullish(),
      tree: tree.optional(),
    }),
    [
      { name: "Ada", home: { street: "1 Lane", zip: null } },
      { name: "Bob", home: { street: "2 Road", zip: "75001" }, work: null, tree: { label: "r", children: [{ label: "a", children: [] }] } },
    ],
  ],
  ZodUnions: [
    z.object({
      pet: z.discriminatedUnion("kind", [cat, dog]),
      id: z.union([z.number().int(), z.string()]),
      either: z.union([point, z.array(point)]).optional(),
      loose: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
      both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })).optional(),
    }),
    [
      { pet: { kind: "cat", meows: 3 }, id: 5 },
      { pet: { kind: "dog", barks: 1.5 }, id: "five", either: [{ x: 1, y: 1 }], loose: ["a"], both: { a: "x", b: 2 } },
      { pet: { kind: "dog", barks: 2 }, id: 0, either: { x: 0, y: 0 }, loose: null },
    ],
  ],
  ZodStrictness: [
    z.object({
      closed: z.strictObject({ a: z.number() }).optional(),
      open: z.looseObject({ a: z.number() }).optional(),
      plain: z.object({ a: z.number() }).optional(),
      anything: z.any().optional(),
      unknown: z.unknown().optional(),
    }),
    [{}, { closed: { a: 1 }, open: { a: 1, extra: [true] }, plain: { a: 2 }, anything: { x: 1 }, unknown: [1] }],
  ],
};

const out = [];
for (const [name, [schema, samples]] of Object.entries(models)) {
  for (const io of ["input", "output"]) {
    out.push({
      name,
      mode: io,
      schema: z.toJSONSchema(schema, { io }),
      samples: samples.map((sample) => schema.parse(sample)),
      sent: samples,
    });
  }
}
process.stdout.write(JSON.stringify(out));
