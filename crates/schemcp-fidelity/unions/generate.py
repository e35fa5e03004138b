"""Writes the union corpus: random object schemas with allOf/anyOf/oneOf branches, in the
JSON-Schema-Test-Suite's format, each with up to 6 valid and 3 invalid instances labelled by
Python's `jsonschema` (the reference the runtime's validator is checked against).

The JSON Schema Test Suite has few schemas where typify merges object branches, and that is
where typify's types went wrong (empty enums, members declared twice, required members dropped).
tests/unions.rs runs the fidelity harness over this corpus. The corpus is committed, so the
test does not depend on this script or on Python; to regenerate it (with jsonschema installed):

    python3 crates/schemcp-fidelity/unions/generate.py crates/schemcp-fidelity/unions/corpus

and update the floors in tests/unions.rs to what the harness then measures.
"""

import json
import os
import random
import sys

from jsonschema import Draft202012Validator

SEEDS = [11, 12, 13, 14, 15]
SCHEMAS_PER_SEED = 150
NAMES = ["a", "b", "c"]
MEMBERS = [
    True,
    {},
    {"type": "string"},
    {"type": "integer"},
    {"type": ["string", "null"]},
    {"const": "x"},
    {"type": "object", "properties": {"z": {"type": "integer"}}},
    {"type": "array", "items": {"type": "integer"}},
]
# "d" is never declared: the instances also carry members no schema names.
VALUES = ["x", "y", 1, None, {"z": 1}, {"z": "q"}, [], [1], True]


def object_schema(rnd, depth, typed=None):
    schema = {}
    if typed if typed is not None else rnd.random() < 0.6:
        schema["type"] = "object"
    declared = rnd.sample(NAMES, rnd.randint(0, 3))
    if declared:
        schema["properties"] = {name: rnd.choice(MEMBERS) for name in declared}
    required = [name for name in NAMES if rnd.random() < 0.3]
    if required:
        schema["required"] = required
    other = rnd.random()
    if other < 0.25:
        schema["additionalProperties"] = False
    elif other < 0.35:
        schema["additionalProperties"] = True
    elif other < 0.45:
        schema["additionalProperties"] = {}
    elif other < 0.5:
        schema["additionalProperties"] = {"type": "integer"}
    if depth > 0 and rnd.random() < 0.7:
        for keyword in rnd.sample(["allOf", "anyOf", "oneOf"], rnd.randint(1, 2)):
            schema[keyword] = [
                object_schema(rnd, depth - 1, typed=rnd.random() < 0.5)
                for _ in range(rnd.randint(1, 3))
            ]
    if rnd.random() < 0.1:
        schema["unevaluatedProperties"] = False
    return schema


def instance(rnd):
    return {name: rnd.choice(VALUES) for name in rnd.sample(NAMES + ["d"], rnd.randint(0, 4))}


def groups(seed):
    rnd = random.Random(seed)
    out = []
    for index in range(SCHEMAS_PER_SEED):
        schema = object_schema(rnd, 1, typed=True)
        validator = Draft202012Validator(schema)
        tests, seen = [], set()
        for _ in range(400):
            data = instance(rnd)
            key = json.dumps(data, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            valid = validator.is_valid(data)
            have = sum(1 for t in tests if t["valid"] == valid)
            if have < (6 if valid else 3):
                tests.append({"description": key, "data": data, "valid": valid})
        if any(t["valid"] for t in tests):
            out.append({"description": f"u{seed}-{index}", "schema": schema, "tests": tests})
    return out


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for seed in SEEDS:
        with open(os.path.join(folder, f"unions{seed}.json"), "w") as f:
            json.dump(groups(seed), f, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()
