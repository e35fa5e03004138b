#!/usr/bin/env python3
"""The Python `mcp` client (pinned in tests/interop/requirements.txt) against examples/form-builder,
whose `describe_form` takes and returns JSON Schemas (members that `$ref` the 2020-12 metaschema).

Usage:
  form_client.py --mode auto|legacy --stdio SERVER_COMMAND [ARGS...]
  form_client.py --mode auto|legacy --url http://127.0.0.1:PORT/mcp

`auto` lands on 2026-07-28, where the output schema arrives as written; `legacy` on 2025-11-25,
where the metaschema reference arrives as `"type": ["object", "boolean"]`. The client validates
structuredContent against outputSchema itself (its validator knows the metaschema), so every
success row also proves the served schema and the result agree there.

Prints one PASS/FAIL line per check and 'N passed, M failed' last; exits 1 if anything failed.
"""
from mcp import Client

from interop import check, serve

META = "https://json-schema.org/draft/2020-12/schema"
PERSON = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}


async def run(server, mode):
    legacy = mode == "legacy"
    tag = f"[{mode}] "
    async with Client(server, mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        check(tag + "tools/list names", sorted(tools) == ["describe_form"], sorted(tools))
        served = (tools["describe_form"].output_schema or {}).get("properties", {}).get("schema")
        want = ({"description": "The schema described.", "type": ["object", "boolean"]} if legacy
                else {"$ref": META, "description": "The schema described."})
        check(tag + "outputSchema's metaschema member", served == want, served)

        r = await client.call_tool("describe_form", {"schema": PERSON})
        check(tag + "a schema: its fields and the schema back",
              not r.is_error and r.structured_content == {"fields": ["name", "age"], "schema": PERSON},
              r)
        r = await client.call_tool("describe_form", {"schema": True})
        check(tag + "true is a schema", not r.is_error and r.structured_content == {"fields": [], "schema": True},
              r)
        r = await client.call_tool("describe_form", {"schema": {"type": 12}})
        text = r.content[0].text if r.content else ""
        check(tag + "an object that is no schema is refused, naming the member",
              r.is_error and r.structured_content is None and text.startswith(
                  "invalid arguments for tool describe_form: /schema/type: "), r)
        r = await client.call_tool("describe_form", {"schema": 12})
        text = r.content[0].text if r.content else ""
        check(tag + "a number is no schema", r.is_error and "/schema: " in text, r)


if __name__ == "__main__":
    serve(run, __doc__)
