"""Writes the shapes corpus: random schemas of every kind of value, nested up to three levels,
mixing the keywords the JSON-Schema-Test-Suite tests one at a time (type lists, schemas without
`type`, numeric and string bounds, tuples, maps, recursion through `$defs`, nullable members,
unions of kinds, `if`/`then`/`else`, `not`), in the suite's format. Each schema gets up to 8
valid and 4 invalid instances: values drawn to fit the schema, then mutated (a member of another
kind, a required member left out, an unknown member, an item past a tuple, integers past 64
bits), every one labelled by Python's `jsonschema`, not by this script.

A second family, `refs*.json`, draws schemas made of definitions that reference each other:
aliases (a definition that is a `$ref`), mutual recursion through members, items, maps and
nullable unions, references with keywords beside them, and `allOf` merges of references.

A third, `evaluated*.json`, draws objects and arrays whose keywords read each other or what
other schemas evaluate: `allOf` parts, `if`/`then`/`else` on a tag, `dependentSchemas` and
`dependentRequired`, `patternProperties` beside `properties`, `propertyNames`, references with
keywords beside them (to definitions without a `type`), `unevaluatedProperties` and
`unevaluatedItems` around all of these, `contains` with its counts, `not` over members, tagged
unions, and `enum`/`const` of objects and arrays.

A fourth, `lists*.json` (folder `lists`), draws `prefixItems` beside a list of types and the
keywords of the kinds listed (and of one not listed), as the root, a member, the items of an
array, a union branch or a shared definition.

A fifth, `names*.json` (folder `names`), draws the first family's schemas with names that
Rust, serde or typify read alike or take for themselves: members whose names differ only in
case or punctuation (`fooBar`, `foo_bar`, `foo-bar`), with no letter at all (`""`, `_`, `-`)
or named like keywords and prelude items (`type`, `self`, `Option`, `Ok`); definitions named
`String`, `Value`, `Input` or `a/b`; repeated titles; `enum` strings that make alike variants.

The unions, defaults and models corpora cover objects; this one covers the rest, and the
integers no 64-bit type holds. tests/shapes.rs runs the fidelity harness over it, the first two
families (folder `corpus`) apart from the third (folder `evaluated`) and the fourth: one crate
of generated code for all three took twice as long to compile as the two crates. The corpus is
committed, so the test depends neither on this script nor on Python; to regenerate it (with
jsonschema 4.26.0, as in the interop virtualenv `./scripts/test` makes):

    target/interop/venv/bin/python crates/schemcp-fidelity/shapes/generate.py crates/schemcp-fidelity/shapes

and update the floors in tests/shapes.rs to what the harness then measures.
"""

import copy
import json
import os
import random
import sys

from jsonschema import Draft202012Validator

SEEDS = [21, 22, 23, 31, 32, 33, 34, 35, 36]
# The refs family (`linked`), drawn from its own seeds.
REF_SEEDS = [41, 42, 43, 44]
# The evaluated family (`evaluated`).
EVALUATED_SEEDS = [51, 52]
# The lists family (`listed`).
LIST_SEEDS = [61]
# The names family (`named_root`).
NAME_SEEDS = [71]
SCHEMAS_PER_SEED = 100
NAMES = ["a", "b", "c", "kind", "x-y", "type"]
STRINGS = ["", "a", "ab", "abc", "hello world", "ÿ€😀", "line\nbreak", "q\"uote", "2024-01-02", "0"]
# Integers no i64 holds, and one no u64 holds either: JSON Schema's integers are unbounded.
BIG = [2**63, 2**64, -(2**63) - 1]
# Whether `draw` merges the parts of an object first (`e_draw`): for the evaluated family only,
# so the other families draw as they always have.
MERGING_PARTS = False
# Whether the schemas draw their names from the names family's pools (and get titles).
NAMING = False
HARD_NAMES = ["fooBar", "foo_bar", "foo-bar", "FooBar", "foo bar", "foo.bar", "type", "self", "Self",
              "crate", "super", "match", "r#type", "async", "gen", "try", "1st", "", " ", "_", "__", "-",
              "$ref", "@id", "ü", "名前", "a\"b", "a\\b", "value", "Value", "default", "serde", "std",
              "Option", "Some", "None", "Box", "String", "Vec", "Result", "Ok", "Err", "a", "A"]
HARD_DEFINITIONS = ["Input", "Output", "Error", "Value", "Option", "String", "Vec", "Box", "Result", "self",
                    "node", "Node", "node-x", "node_x", "NodeX", "1", "a/b", "a~b", "Map", "Default", "Some",
                    "ProbeInput", "NotObject", "Prefix2", "JsonSchema", "NoValue", "serde_json", "type"]
HARD_TITLES = ["Weather Data", "weather_data", "WeatherData", "Input", "Output", "Probe", "", "123",
               "Ünïcode", "Node", "Error", "Value", "Self", "a b", "Value Value"]
HARD_STRINGS = ["a", "A", "a-", "_a", "", " ", "1", "-1", "foo bar", "fooBar", "foo_bar", "null", "true",
                "Self", "self", "type", "ü", "😀", "a\"b", "Variant0", "Other"]
POOL = [None, True, False, 0, 1, -1, 7, 1.0, 2.5, -0.5, 1e300, "", "a", "xyz", [], [1], ["a", 2], {}, {"a": 1}]


def names():
    return HARD_NAMES if NAMING else NAMES


def strings():
    return HARD_STRINGS if NAMING else STRINGS


def scalar(rnd):
    schema = plain_scalar(rnd)
    if NAMING:
        if schema.get("type") == "string" and rnd.random() < 0.3:
            schema["enum"] = rnd.sample(HARD_STRINGS, rnd.randint(1, 5))
        elif schema.get("type") == "string" and rnd.random() < 0.1:
            schema["const"] = rnd.choice(HARD_STRINGS)
        if rnd.random() < 0.15:
            schema["title"] = rnd.choice(HARD_TITLES)
    return schema


def plain_scalar(rnd):
    kind = rnd.choice(["string", "integer", "number", "boolean", "null"])
    schema = {"type": kind}
    if kind == "string":
        if rnd.random() < 0.3:
            schema["minLength"] = rnd.randint(0, 2)
        if rnd.random() < 0.3:
            schema["maxLength"] = rnd.randint(2, 6)
        if rnd.random() < 0.15:
            schema["pattern"] = rnd.choice(["^[a-z]*$", "b", "^.{0,3}$"])
        if rnd.random() < 0.15:
            schema["enum"] = rnd.sample(strings(), rnd.randint(1, 3))
        if rnd.random() < 0.1:
            schema["format"] = rnd.choice(["email", "date", "uri"])
    elif kind in ("integer", "number"):
        if rnd.random() < 0.35:
            schema["minimum"] = rnd.choice([0, 1, -5, 0.5])
        if rnd.random() < 0.25:
            schema["maximum"] = rnd.choice([10, 100, 2**32])
        if rnd.random() < 0.1:
            schema["exclusiveMinimum"] = 0
        if rnd.random() < 0.1:
            schema["multipleOf"] = rnd.choice([2, 0.5])
        if rnd.random() < 0.1:
            schema["enum"] = rnd.sample([0, 1, 2, 3.5, -1], 2)
    return schema


def untyped(rnd, depth, defs):
    """Keywords without `type`: every other kind of value passes them."""
    return rnd.choice([
        {"minLength": 1},
        {"maximum": 5},
        {"minItems": 1},
        {"properties": {"a": scalar(rnd)}},
        {"properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {"items": schema_(rnd, depth - 1, defs)},
        {"prefixItems": [scalar(rnd)]},
        {"minimum": 0, "maxLength": 3},
        {"enum": [1, "one", None, [1], {"a": 1}]},
        {"const": rnd.choice([{"a": [1, 2]}, [None, "x"], 3, "c"])},
        {},
        True,
    ])


def array(rnd, depth, defs):
    schema = {"type": "array"}
    form = rnd.random()
    if form < 0.5:
        schema["items"] = schema_(rnd, depth - 1, defs)
    elif form < 0.75:
        schema["prefixItems"] = [schema_(rnd, depth - 1, defs) for _ in range(rnd.randint(1, 3))]
        rest = rnd.random()
        if rest < 0.4:
            schema["items"] = False
        elif rest < 0.6:
            schema["items"] = scalar(rnd)
    elif form < 0.85:
        schema["contains"] = scalar(rnd)
    if rnd.random() < 0.25:
        schema["minItems"] = rnd.randint(0, 2)
    if rnd.random() < 0.2:
        schema["maxItems"] = rnd.randint(2, 4)
    if rnd.random() < 0.15:
        schema["uniqueItems"] = True
    return schema


def object_(rnd, depth, defs):
    schema = {"type": "object"} if rnd.random() < 0.85 else {}
    declared = rnd.sample(names(), rnd.randint(0, 4))
    if declared:
        schema["properties"] = {name: schema_(rnd, depth - 1, defs) for name in declared}
        required = [name for name in declared if rnd.random() < 0.4]
        if required:
            schema["required"] = required
    extra = rnd.random()
    if extra < 0.25:
        schema["additionalProperties"] = False
    elif extra < 0.45:
        schema["additionalProperties"] = schema_(rnd, depth - 1, defs)
    elif extra < 0.55:
        schema["patternProperties"] = {"^x-": scalar(rnd)}
        if rnd.random() < 0.5:
            schema["additionalProperties"] = False
    if rnd.random() < 0.1:
        schema["propertyNames"] = {"maxLength": 4}
    if rnd.random() < 0.1:
        schema["minProperties"] = 1
    if declared and rnd.random() < 0.1:
        schema["dependentRequired"] = {declared[0]: [rnd.choice(names())]}
    if declared and rnd.random() < 0.08:
        schema["if"] = {"properties": {declared[0]: {"const": 1}}, "required": [declared[0]]}
        schema["then"] = {"required": [rnd.choice(names())]}
    if NAMING and rnd.random() < 0.4:
        schema["title"] = rnd.choice(HARD_TITLES)
    return schema


def union(rnd, depth, defs):
    keyword = rnd.choice(["anyOf", "oneOf"])
    branches = [schema_(rnd, depth - 1, defs) for _ in range(rnd.randint(2, 3))]
    out = {keyword: branches}
    if NAMING and rnd.random() < 0.3:
        out["title"] = rnd.choice(HARD_TITLES)
    return out


def named_reference(rnd, depth, defs):
    name = rnd.choice([n for n in HARD_DEFINITIONS if n not in defs])
    defs[name] = {}
    body = schema_(rnd, depth - 1, defs)
    if isinstance(body, dict) and rnd.random() < 0.5:
        body["title"] = rnd.choice(HARD_TITLES)
    defs[name] = body
    return {"$ref": "#/$defs/" + name.replace("~", "~0").replace("/", "~1")}


def reference(rnd, depth, defs):
    if NAMING:
        return named_reference(rnd, depth, defs)
    if "node" not in defs and rnd.random() < 0.4:
        defs["node"] = {
            "type": "object",
            "properties": {
                "value": scalar(rnd),
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
            "required": ["value"],
        }
        return {"$ref": "#/$defs/node"}
    name = f"d{len(defs)}"
    # Taken before the definition is drawn, so a reference inside it gets a name of its own.
    defs[name] = {}
    defs[name] = schema_(rnd, depth - 1, defs)
    return {"$ref": f"#/$defs/{name}"}


def schema_(rnd, depth, defs):
    if depth <= 0:
        return scalar(rnd)
    pick = rnd.random()
    if pick < 0.22:
        return scalar(rnd)
    if pick < 0.32:
        kinds = rnd.sample(["string", "integer", "number", "boolean", "array", "object"], 2)
        if rnd.random() < 0.5:
            kinds.append("null")
        out = {"type": kinds}
        if "string" in kinds and rnd.random() < 0.4:
            out["maxLength"] = 3
        if "object" in kinds and rnd.random() < 0.5:
            out["properties"] = {"a": scalar(rnd)}
        if "array" in kinds and rnd.random() < 0.5:
            out["items"] = scalar(rnd)
        return out
    if pick < 0.40:
        return untyped(rnd, depth, defs)
    if pick < 0.55:
        return array(rnd, depth, defs)
    if pick < 0.75:
        return object_(rnd, depth, defs)
    if pick < 0.85:
        return union(rnd, depth, defs)
    if pick < 0.90:
        return {"anyOf": [schema_(rnd, depth - 1, defs), {"type": "null"}]}
    if pick < 0.97:
        return reference(rnd, depth, defs)
    return {"not": scalar(rnd)}


def root(rnd):
    defs = {}
    schema = schema_(rnd, 3, defs)
    if defs:
        schema = {"$defs": defs, **schema} if isinstance(schema, dict) else {"$defs": defs, "allOf": [schema]}
    return schema


def draw(rnd, schema, defs, depth=0):
    """A value meant to fit `schema` (often it does not: the label decides)."""
    if depth > 6 or rnd.random() < 0.05:
        return copy.deepcopy(rnd.choice(POOL))
    if schema is True or schema == {}:
        return copy.deepcopy(rnd.choice(POOL))
    if schema is False:
        return None
    if MERGING_PARTS:
        schema = e_draw(rnd, schema, defs, depth)
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1].replace("~1", "/").replace("~0", "~")
        return draw(rnd, defs.get(name, {}), defs, depth + 1)
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if "enum" in schema:
        return copy.deepcopy(rnd.choice(schema["enum"]))
    for keyword in ("anyOf", "oneOf", "allOf"):
        if keyword in schema:
            return draw(rnd, rnd.choice(schema[keyword]), defs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rnd.choice(kind)
    if kind is None:
        if "properties" in schema:
            kind = "object"
        elif "items" in schema or "prefixItems" in schema:
            kind = "array"
        else:
            kind = rnd.choice(["string", "integer", "object", "array", "null"])
    if kind == "null":
        return None
    if kind == "boolean":
        return rnd.random() < 0.5
    if kind == "integer":
        low = schema.get("minimum", -20)
        high = schema.get("maximum", 40)
        value = rnd.randint(int(low) if low == int(low) else int(low) + 1, int(high))
        if rnd.random() < 0.06:
            value = rnd.choice(BIG)
        if rnd.random() < 0.05:
            return float(value)
        return value
    if kind == "number":
        if rnd.random() < 0.4:
            return rnd.randint(0, 10)
        return rnd.choice([0.5, 2.5, 1e-7, 123.456, 6.02e23, -3.25])
    if kind == "string":
        return rnd.choice(strings())
    if kind == "array":
        items = [draw(rnd, s, defs, depth + 1) for s in schema.get("prefixItems", [])]
        rest = schema.get("items", {})
        if rest is not False:
            for _ in range(rnd.randint(0, 3)):
                items.append(draw(rnd, rest, defs, depth + 1))
        if "contains" in schema and rnd.random() < 0.8:
            items.append(draw(rnd, schema["contains"], defs, depth + 1))
        return items
    out = {}
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    for name, member in properties.items():
        if name in required or rnd.random() < 0.6:
            out[name] = draw(rnd, member, defs, depth + 1)
    extra = schema.get("additionalProperties", True)
    if "patternProperties" in schema and rnd.random() < 0.5:
        out["x-extra"] = draw(rnd, schema["patternProperties"]["^x-"], defs, depth + 1)
    if extra is not False and rnd.random() < 0.3:
        out["zz"] = draw(rnd, extra, defs, depth + 1)
    return out


# Member names of the evaluated family; the parts one object merges (`allOf`, `then`, ...)
# draw theirs apart where they can, so most merges have values (as most real ones do).
TAGGED = ["a", "b", "kind", "x-1"]
MORE = ["c", "d", "e-f", "g"]


def e_member(rnd, depth, defs):
    if depth <= 0 or rnd.random() < 0.55:
        return scalar(rnd)
    return evaluated(rnd, depth - 1, defs)


def e_members(rnd, depth, defs, names, k=None):
    chosen = rnd.sample(names, k if k is not None else rnd.randint(1, min(3, len(names))))
    return {name: e_member(rnd, depth, defs) for name in chosen}


def e_part(rnd, depth, defs, names):
    """An object schema merged into another (an `allOf` branch, `then`, a dependent schema)."""
    out = {"properties": e_members(rnd, depth, defs, names)}
    if rnd.random() < 0.4:
        out["required"] = rnd.sample(list(out["properties"]), 1)
    if rnd.random() < 0.2:
        out["type"] = "object"
    if rnd.random() < 0.1:
        out["additionalProperties"] = False
    return out


def evaluated(rnd, depth, defs):
    """A schema of the evaluated family."""
    pick = rnd.random()
    out = {"type": "object"} if rnd.random() < 0.7 else {}
    if pick < 0.12:
        if rnd.random() < 0.5:
            out["properties"] = e_members(rnd, depth, defs, TAGGED, 1)
        out["allOf"] = [e_part(rnd, depth, defs, MORE) for _ in range(rnd.randint(1, 2))]
        out["unevaluatedProperties"] = rnd.choice([False, scalar(rnd), True])
        return out
    if pick < 0.24:
        out["properties"] = {"kind": {"type": "string"}, **e_members(rnd, depth, defs, ["a", "b"], 1)}
        out["if"] = {"properties": {"kind": {"const": "x"}}, "required": ["kind"]}
        out["then"] = e_part(rnd, depth, defs, MORE)
        if rnd.random() < 0.7:
            out["else"] = e_part(rnd, depth, defs, MORE)
        if rnd.random() < 0.4:
            out["unevaluatedProperties"] = False
        return out
    if pick < 0.32:
        out["properties"] = e_members(rnd, depth, defs, TAGGED)
        first = next(iter(out["properties"]))
        out["dependentSchemas"] = {first: e_part(rnd, depth, defs, MORE)}
        if rnd.random() < 0.4:
            out["unevaluatedProperties"] = rnd.choice([False, scalar(rnd)])
        return out
    if pick < 0.42:
        out["properties"] = e_members(rnd, depth, defs, TAGGED)
        pattern = rnd.choice(["^a", "^x-", "^k", "[0-9]"])
        out["patternProperties"] = {pattern: e_member(rnd, depth, defs)}
        extra = rnd.random()
        if extra < 0.4:
            out["additionalProperties"] = False
        elif extra < 0.6:
            out["additionalProperties"] = scalar(rnd)
        elif extra < 0.8:
            out["unevaluatedProperties"] = False
        return out
    if pick < 0.48:
        if rnd.random() < 0.6:
            out["properties"] = e_members(rnd, depth, defs, TAGGED)
        out["propertyNames"] = rnd.choice([
            {"enum": ["a", "b", "zz"]}, {"pattern": "^[a-z]+$"}, {"maxLength": 1}, {"const": "a"},
        ])
        if rnd.random() < 0.3:
            out["additionalProperties"] = scalar(rnd)
        return out
    if pick < 0.56:
        name = f"e{len(defs)}"
        defs[name] = {}
        defs[name] = e_part(rnd, depth, defs, MORE)
        out = {"$ref": f"#/$defs/{name}"}
        if rnd.random() < 0.7:
            out["properties"] = e_members(rnd, depth, defs, TAGGED, 1)
        out["unevaluatedProperties"] = rnd.choice([False, scalar(rnd)])
        if rnd.random() < 0.5:
            out["type"] = "object"
        return out
    if pick < 0.66:
        out = {"type": "array"} if rnd.random() < 0.7 else {}
        form = rnd.random()
        if form < 0.4:
            out["prefixItems"] = [e_member(rnd, depth, defs) for _ in range(rnd.randint(1, 2))]
        elif form < 0.7:
            out["allOf"] = [{"prefixItems": [scalar(rnd)]}]
        if rnd.random() < 0.5:
            out["contains"] = scalar(rnd)
            if rnd.random() < 0.4:
                out["minContains"] = rnd.randint(0, 2)
            if rnd.random() < 0.3:
                out["maxContains"] = rnd.randint(1, 2)
        out["unevaluatedItems"] = rnd.choice([False, scalar(rnd), True])
        return out
    if pick < 0.72:
        out["properties"] = e_members(rnd, depth, defs, TAGGED)
        out["not"] = rnd.choice([
            {"required": [next(iter(out["properties"]))]},
            {"properties": {"a": {"const": 1}}, "required": ["a"]},
            {"type": "object", "maxProperties": 0},
        ])
        return out
    if pick < 0.80:
        branches = []
        for tag in rnd.sample(["p", "q", "r"], rnd.randint(2, 3)):
            branch = {
                "type": "object",
                "properties": {"kind": {"const": tag}, **e_members(rnd, depth, defs, ["a", "b", "x-1"], 1)},
                "required": ["kind"],
            }
            if rnd.random() < 0.3:
                branch["additionalProperties"] = False
            branches.append(branch)
        out = {rnd.choice(["oneOf", "anyOf"]): branches}
        if rnd.random() < 0.3:
            out["unevaluatedProperties"] = False
        if rnd.random() < 0.3:
            out["type"] = "object"
        return out
    if pick < 0.86:
        kind = rnd.choice(["object", "array", None])
        values = {
            "object": [{"a": 1}, {"a": [1, {"b": None}]}, {}],
            "array": [[1, "a"], [], [None]],
            None: [{"a": 1}, [1], "s", 2, None],
        }[kind]
        out = {"enum": rnd.sample(values, 2)} if rnd.random() < 0.6 else {"const": rnd.choice(values)}
        if kind:
            out["type"] = kind
        return out
    if pick < 0.93:
        out["properties"] = e_members(rnd, depth, defs, TAGGED)
        out["dependentRequired"] = {next(iter(out["properties"])): [rnd.choice(TAGGED)]}
        out["minProperties"] = rnd.randint(0, 2)
        if rnd.random() < 0.4:
            out["maxProperties"] = rnd.randint(1, 3)
        return out
    # `additionalProperties: false` in one `allOf` part refuses the other's members.
    closed = e_part(rnd, depth, defs, TAGGED)
    closed["additionalProperties"] = False
    return {"allOf": [closed, e_part(rnd, depth, defs, MORE)]}


def evaluated_root(rnd):
    defs = {}
    schema = evaluated(rnd, 2, defs)
    if defs:
        schema = {"$defs": defs, **schema}
    return schema


def e_draw(rnd, schema, defs, depth):
    """`draw` for the evaluated family: the parts an object merges (`allOf`, a reference,
    `then` or `else`, dependent schemas) are merged first, so drawn values mostly fit."""
    if not isinstance(schema, dict) or depth >= 6:
        return schema
    merged = {k: v for k, v in schema.items()
              if k not in ("allOf", "$ref", "if", "then", "else", "dependentSchemas", "not")}
    parts = list(schema.get("allOf", []))
    if "$ref" in schema:
        parts.append(defs.get(schema["$ref"].split("/")[-1], {}))
    if "then" in schema and rnd.random() < 0.5:
        parts.append(schema["then"])
        merged["properties"] = {**merged.get("properties", {}), "kind": {"const": "x"}}
    elif "else" in schema:
        parts.append(schema["else"])
    for dependent in schema.get("dependentSchemas", {}).values():
        if rnd.random() < 0.5:
            parts.append(dependent)
    for part in parts:
        for keyword, value in part.items() if isinstance(part, dict) else ():
            if keyword in ("properties", "patternProperties"):
                merged[keyword] = {**merged.get(keyword, {}), **value}
            elif keyword == "required":
                merged[keyword] = merged.get(keyword, []) + value
            else:
                merged.setdefault(keyword, value)
    if any(k in merged for k in ("prefixItems", "contains", "unevaluatedItems")):
        merged.setdefault("type", "array")
    if "^x-" not in merged.get("patternProperties", {"^x-": None}):
        del merged["patternProperties"]
    return merged


def mutate(rnd, value):
    """The value with one change somewhere inside it."""
    if isinstance(value, dict) and value and rnd.random() < 0.7:
        key = rnd.choice(list(value))
        choice = rnd.random()
        if choice < 0.3:
            del value[key]
        elif choice < 0.5:
            value["extra"] = copy.deepcopy(rnd.choice(POOL))
        else:
            value[key] = mutate(rnd, value[key])
        return value
    if isinstance(value, list) and value and rnd.random() < 0.7:
        i = rnd.randrange(len(value))
        if rnd.random() < 0.3:
            value.append(copy.deepcopy(rnd.choice(POOL)))
        else:
            value[i] = mutate(rnd, value[i])
        return value
    return copy.deepcopy(rnd.choice(POOL + BIG))


def linked(rnd, depth, defs, building):
    """A schema of the refs family: definitions that reference each other (aliases, mutual
    recursion through members, items, maps and nullable unions), references with keywords
    beside them, and `allOf` merges of references."""
    pick = rnd.random()
    if depth <= 0 or pick < 0.15:
        return scalar(rnd)
    if pick < 0.40:
        done = [name for name in defs if name not in building]
        if done and rnd.random() < 0.5:
            name = rnd.choice(done)
        else:
            name = f"d{len(defs)}"
            defs[name] = {}
            building.add(name)
            defs[name] = linked(rnd, depth - 1, defs, building)
            building.discard(name)
        out = {"$ref": f"#/$defs/{name}"}
        beside = rnd.random()
        if beside < 0.15:
            out["description"] = "see " + name
        elif beside < 0.25:
            out["type"] = rnd.choice(["object", "string", "integer", "array"])
        elif beside < 0.32:
            out["properties"] = {"extra": scalar(rnd)}
        elif beside < 0.38:
            out["default"] = None
        return out
    if pick < 0.55:
        a, b = f"d{len(defs)}", f"d{len(defs) + 1}"
        defs[a] = {"type": "object", "properties": {"b": {"$ref": f"#/$defs/{b}"}, "v": scalar(rnd)}}
        holder = rnd.choice(["items", "additionalProperties", "anyOf"])
        if holder == "items":
            defs[b] = {"type": "array", "items": {"$ref": f"#/$defs/{a}"}}
        elif holder == "additionalProperties":
            defs[b] = {"type": "object", "additionalProperties": {"$ref": f"#/$defs/{a}"}}
        else:
            defs[b] = {"anyOf": [{"$ref": f"#/$defs/{a}"}, {"type": "null"}]}
        return {"$ref": f"#/$defs/{a}"}
    if pick < 0.70:
        members = {n: linked(rnd, depth - 1, defs, building) for n in rnd.sample(NAMES, rnd.randint(1, 3))}
        out = {"type": "object", "properties": members, "required": rnd.sample(NAMES, 1)}
        if rnd.random() < 0.3:
            out["additionalProperties"] = linked(rnd, depth - 1, defs, building)
        return out
    if pick < 0.80:
        return {"allOf": [linked(rnd, depth - 1, defs, building), {"type": "object", "properties": {"z": scalar(rnd)}}]}
    if pick < 0.90:
        keyword = rnd.choice(["anyOf", "oneOf"])
        return {keyword: [linked(rnd, depth - 1, defs, building) for _ in range(rnd.randint(2, 3))]}
    return {"type": "array", "items": linked(rnd, depth - 1, defs, building)}


def linked_root(rnd):
    defs = {}
    schema = linked(rnd, 3, defs, set())
    if defs:
        schema = {"$defs": defs, **schema} if "$defs" not in schema else {"$defs": defs, "allOf": [schema]}
    return schema


def listed(rnd, depth, defs):
    """`prefixItems` beside a list of types and keywords of the kinds listed (and sometimes of
    one not listed, which then accepts every value): each kind's keywords apply to its own
    values only."""
    schema = array(rnd, depth, defs)
    if "prefixItems" not in schema:
        schema.pop("contains", None)
        schema["prefixItems"] = [schema_(rnd, depth - 1, defs) for _ in range(rnd.randint(1, 3))]
    others = rnd.sample(["string", "integer", "number", "boolean", "object", "null"], rnd.randint(1, 2))
    kinds = ["array"] + others
    rnd.shuffle(kinds)
    schema["type"] = kinds
    if "string" in kinds and rnd.random() < 0.5:
        schema["maxLength"] = 3
    if ("integer" in kinds or "number" in kinds) and rnd.random() < 0.5:
        schema["minimum"] = rnd.choice([0, 1.5])
    if "object" in kinds and rnd.random() < 0.6:
        schema["properties"] = {"a": scalar(rnd)}
        if rnd.random() < 0.5:
            schema["additionalProperties"] = False
    if rnd.random() < 0.2:
        schema["unevaluatedItems"] = schema.pop("items", rnd.choice([False, {"type": "string"}]))
    if "string" not in kinds and rnd.random() < 0.15:
        schema["minLength"] = 2
    if rnd.random() < 0.2:
        schema["description"] = "A list of kinds."
    return schema


def lists_root(rnd):
    defs = {}
    pick = rnd.random()
    if pick < 0.35:
        schema = listed(rnd, 2, defs)
    elif pick < 0.65:
        schema = {"type": "object", "properties": {"p": listed(rnd, 2, defs), "q": schema_(rnd, 1, defs)}}
        if rnd.random() < 0.5:
            schema["required"] = ["p"]
    elif pick < 0.8:
        schema = {"type": "array", "items": listed(rnd, 2, defs)}
    elif pick < 0.9:
        schema = {"anyOf": [listed(rnd, 2, defs), schema_(rnd, 1, defs)]}
    else:
        defs["pair"] = listed(rnd, 2, defs)
        schema = {"type": "object", "properties": {"p": {"$ref": "#/$defs/pair"}, "q": {"type": "array", "items": {"$ref": "#/$defs/pair"}}}}
    if defs:
        schema = {"$defs": defs, **schema} if isinstance(schema, dict) else {"$defs": defs, "allOf": [schema]}
    return schema


def named_root(rnd):
    defs = {}
    schema = schema_(rnd, 3, defs)
    if rnd.random() < 0.5:
        schema = {"type": "object", "properties": {rnd.choice(HARD_NAMES): schema, rnd.choice(HARD_NAMES): schema_(rnd, 2, defs)}}
    if defs:
        schema = {"$defs": defs, **schema} if isinstance(schema, dict) else {"$defs": defs, "allOf": [schema]}
    return schema


# (folder, file name prefix, group prefix, seeds, how a schema is drawn, attempts at
# instances, whether `draw` merges an object's parts first)
FAMILIES = [
    ("corpus", "shapes", "s", SEEDS, lambda rnd: root(rnd), 300, False),
    ("corpus", "refs", "r", REF_SEEDS, linked_root, 200, False),
    ("evaluated", "evaluated", "e", EVALUATED_SEEDS, evaluated_root, 300, True),
    ("lists", "lists", "l", LIST_SEEDS, lists_root, 300, False),
    ("names", "names", "n", NAME_SEEDS, named_root, 300, False),
]


def groups(seed, make_root=lambda rnd: root(rnd), prefix="s", attempts=300):
    rnd = random.Random(seed)
    out = []
    for index in range(SCHEMAS_PER_SEED):
        schema = make_root(rnd)
        defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
        validator = Draft202012Validator(schema)
        tests, seen = [], set()
        for attempt in range(attempts):
            data = draw(rnd, schema, defs)
            if attempt % 2:
                data = mutate(rnd, data)
            key = json.dumps(data, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            valid = validator.is_valid(data)
            have = sum(1 for t in tests if t["valid"] == valid)
            if have < (8 if valid else 4):
                tests.append({"description": key, "data": data, "valid": valid})
        if any(t["valid"] for t in tests):
            out.append({"description": f"{prefix}{seed}-{index}", "schema": schema, "tests": tests})
    return out


def main():
    global MERGING_PARTS, NAMING
    for folder, name, prefix, seeds, make_root, attempts, merging in FAMILIES:
        folder = os.path.join(sys.argv[1], folder)
        os.makedirs(folder, exist_ok=True)
        MERGING_PARTS = merging
        NAMING = name == "names"
        for seed in seeds:
            with open(os.path.join(folder, f"{name}{seed}.json"), "w") as f:
                json.dump(groups(seed, make_root, prefix, attempts), f, separators=(",", ":"))
                f.write("\n")


if __name__ == "__main__":
    main()
