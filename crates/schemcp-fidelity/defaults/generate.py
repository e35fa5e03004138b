"""Writes the defaults corpus: random object schemas, nested up to two levels (inline, through
`$defs` and inside arrays and `anyOf [.., null]`), with `default`s on members and on whole
objects written the way authors write them (empty arrays, maps, `null` in nullable members,
objects with some or all members) and on members of many shapes (tagged unions, mixed enums,
`format`s, `prefixItems`, integers with a minimum), in the JSON-Schema-Test-Suite's format, each with up to 6
generated instances and 3 mutated ones, labelled by Python's `jsonschema`.

Object defaults are where generated code once failed to compile (a default naming an optional
array, map or nullable member, at any depth, `vec![..]` items included; a member left out of a
default whose type has no `Default`; a `null` default typify wrote as a newtype without its
value) and where typify refused whole schemas it could not hold a default for. tests/defaults.rs runs the fidelity harness over
this corpus. The corpus is committed, so the test does not depend on this script or on Python;
to regenerate it (with jsonschema installed):

    python3 crates/schemcp-fidelity/defaults/generate.py crates/schemcp-fidelity/defaults/corpus

and update the floors in tests/defaults.rs to what the harness then measures.
"""

import json
import random
import sys

from jsonschema import Draft202012Validator


def leaf(rnd):
    """A member that is not an object of its own."""
    return rnd.choice([
        {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"},
        {"type": ["string", "null"]}, {"type": ["integer", "null"]},
        {"anyOf": [{"type": "string"}, {"type": "null"}]},
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"type": "string", "enum": ["lo", "hi"]},
        {"type": "array", "items": {"type": ["integer", "null"]}},
        {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        {"type": "string", "pattern": "^[a-z]*$"},
        {"type": "string", "minLength": 1},
        {"type": "integer", "minimum": 1},
        {"type": "integer", "minimum": 0},
        {"type": "number", "minimum": 0, "maximum": 1},
        {"type": "string", "format": "date"},
        {"type": "string", "format": "uuid"},
        {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2, "maxItems": 2},
        {"const": "fixed"},
        {"type": ["string", "integer"]},
        {"enum": ["a", 1, None]},
        {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "c"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"const": "s"}, "w": {"type": "integer"}}, "required": ["kind"]}]},
        {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"id": {"type": "integer"}}}]},
        {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
    ])

NAMES = ["alpha", "beta", "gamma", "delta", "eps"]

def obj(rnd, depth, defs):
    props = {}
    for name in rnd.sample(NAMES, rnd.randint(1, 4)):
        r = rnd.random()
        if depth > 0 and r < 0.25:
            props[name] = obj(rnd, depth - 1, defs)
        elif depth > 0 and r < 0.35:
            d = "D%d" % len(defs)
            defs[d] = None  # reserved: a definition made inside this one takes the next name
            defs[d] = obj(rnd, depth - 1, defs)
            props[name] = {"$ref": "#/$defs/" + d}
        elif depth > 0 and r < 0.42:
            props[name] = {"anyOf": [obj(rnd, depth - 1, defs), {"type": "null"}]}
        elif depth > 0 and r < 0.48:
            props[name] = {"type": "array", "items": obj(rnd, depth - 1, defs)}
        else:
            props[name] = leaf(rnd)
    s = {"type": "object", "properties": props}
    req = [n for n in props if rnd.random() < 0.4]
    if req:
        s["required"] = req
    if rnd.random() < 0.3:
        s["additionalProperties"] = False
    return s

def resolve(s, root):
    if "$ref" in s:
        return root["$defs"][s["$ref"].split("/")[-1]]
    return s

def value(rnd, s, root, full=False):
    """A valid value of `s`; objects get each optional member at random, or all with `full`."""
    s = resolve(s, root)
    if "anyOf" in s:
        return value(rnd, rnd.choice(s["anyOf"]), root, full)
    if "oneOf" in s:
        return value(rnd, rnd.choice(s["oneOf"]), root, full)
    if "const" in s:
        return s["const"]
    if "prefixItems" in s:
        return [value(rnd, p, root) for p in s["prefixItems"]]
    if s.get("format") == "date":
        return rnd.choice(["2026-12-04", "1999-01-31"])
    if s.get("format") == "uuid":
        return "123e4567-e89b-12d3-a456-426614174000"
    if s.get("pattern"):
        return rnd.choice(["abc", ""])
    if s.get("minLength"):
        return rnd.choice(["x", "hello"])
    if s.get("uniqueItems"):
        return rnd.sample([1, 2, 3], rnd.randint(0, 2))
    if s.get("minimum") == 1:
        return rnd.choice([1, 5])
    if s.get("minimum") == 0 and s.get("type") == "integer":
        return rnd.choice([0, 5])
    if s.get("maximum") == 1:
        return rnd.choice([0, 0.5, 1])
    if "enum" in s:
        return rnd.choice(s["enum"])
    t = s.get("type")
    if isinstance(t, list):
        t = rnd.choice(t)
    if t == "string": return rnd.choice(["x", "", "hello"])
    if t == "integer": return rnd.choice([0, 3, -7])
    if t == "number": return rnd.choice([1.5, 2, -0.25])
    if t == "boolean": return rnd.choice([True, False])
    if t == "null": return None
    if t == "array": return [value(rnd, s["items"], root) for _ in range(rnd.randint(0, 2))]
    if t == "object":
        if "properties" not in s:
            return {k: value(rnd, s["additionalProperties"], root) for k in rnd.sample(["k1", "k2"], rnd.randint(0, 2))}
        out = {}
        for n, p in s["properties"].items():
            if full or n in s.get("required", []) or rnd.random() < 0.6:
                out[n] = value(rnd, p, root, full)
        return out
    return None

def add_defaults(rnd, s, root):
    """Member defaults on optional members, and defaults of whole objects."""
    for sub in walk(s):
        if sub.get("type") == "object" and "properties" in sub:
            for n, p in sub["properties"].items():
                if "$ref" in p: continue
                if n not in sub.get("required", []) and rnd.random() < 0.3:
                    p["default"] = value(rnd, p, root, full=rnd.random() < 0.5)
            if rnd.random() < 0.25:
                sub["default"] = value(rnd, sub, root, full=rnd.random() < 0.5)

def walk(s):
    yield s
    if isinstance(s, dict):
        for k in ("properties", "$defs"):
            for v in s.get(k, {}).values():
                yield from walk(v)
        for k in ("anyOf", "oneOf"):
            for v in s.get(k, []):
                yield from walk(v)
        if isinstance(s.get("items"), dict):
            yield from walk(s["items"])

def mutate(rnd, v):
    """A member set to a value of another kind, or another kind of value altogether."""
    if isinstance(v, dict) and v:
        k = rnd.choice(list(v))
        v = dict(v); v[k] = rnd.choice([12, "q", None, [1], {"z": 1}])
        return v
    return rnd.choice([12, "q", None, [1]])

def main(seed, out):
    rnd = random.Random(seed)
    groups = []
    for i in range(120):
        defs = {}
        s = obj(rnd, 2, defs)
        if defs:
            s["$defs"] = defs
        add_defaults(rnd, s, s)
        v = Draft202012Validator(s)
        tests = []
        seen = set()
        for _ in range(12):
            inst = value(rnd, s, s)
            key = json.dumps(inst, sort_keys=True)
            if key in seen: continue
            seen.add(key)
            tests.append({"description": "v", "data": inst, "valid": v.is_valid(inst)})
            if len(tests) >= 6: break
        for _ in range(3):
            inst = mutate(rnd, value(rnd, s, s))
            tests.append({"description": "m", "data": inst, "valid": v.is_valid(inst)})
        groups.append({"description": "d%d-%d" % (seed, i), "schema": s, "tests": tests})
    # One group per line: a regenerated corpus diffs by group.
    with open("%s/defaults%d.json" % (out, seed), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(g) for g in groups) + "\n]\n")

SEEDS = [41, 42]

if __name__ == "__main__":
    for seed in SEEDS:
        main(seed, sys.argv[1])
