"""Writes the models corpus: the JSON Schemas pydantic and zod write for the kinds of models MCP
tools take and return (the Python SDK derives every tool's `inputSchema` and `outputSchema` from
pydantic models, the TypeScript SDK from zod schemas), in the JSON-Schema-Test-Suite's format,
one file per topic (`models_zod.json` from zod.mjs).

Each group is one model's schema (pydantic's `model_json_schema()` in validation mode, and in
serialization mode where that differs; zod's `z.toJSONSchema` for input and for output), with
the instances the library itself writes for sample values (pydantic's `model_dump(mode="json")`,
in full and as a client would send them, without what it left unset; zod's parsed values and
the values as sent), and mutations of them (a member of another kind, a required member left
out, an unknown member added). Every instance is labelled by Python's `jsonschema`, not by the
library: the schema is the contract.

tests/models.rs runs the fidelity harness over this corpus. The corpus is committed, so the test
depends neither on this script nor on Python; to regenerate it (with pydantic 2.14.4 and
jsonschema 4.26.0, as in the interop virtualenv `./scripts/test` makes, and node with zod 4.6.7,
as in the interop node folder it makes):

    target/interop/venv/bin/python crates/schemcp-fidelity/models/generate.py crates/schemcp-fidelity/models/corpus target/interop/node

and update the floors in tests/models.rs to what the harness then measures.
"""

import datetime
import decimal
import enum
import ipaddress
import json
import os
import subprocess
import sys
import uuid
from typing import Annotated, Any, Generic, Literal, Optional, TypeVar, Union

from jsonschema import Draft202012Validator
from pydantic import (
    AnyUrl,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    SecretStr,
    computed_field,
)


# --- scalars and constraints -------------------------------------------------------------

class Weather(BaseModel):
    """The seed page's WeatherData."""
    temperature: float = Field(description="Degrees Celsius.")
    humidity: float = Field(ge=0, le=1)
    conditions: str


class Search(BaseModel):
    query: str = Field(min_length=1, max_length=200)
    limit: int = Field(default=10, ge=1, le=100)
    offset: int = Field(default=0, ge=0)
    exact: bool = False
    score: float = Field(default=0.5, gt=0, lt=1)
    step: int = Field(default=5, multiple_of=5)
    code: str = Field(default="AB12", pattern=r"^[A-Z]{2}[0-9]{2}$")


class Stamps(BaseModel):
    at: datetime.datetime
    day: datetime.date
    clock: Optional[datetime.time] = None
    lasting: Optional[datetime.timedelta] = None
    id: uuid.UUID
    host: ipaddress.IPv4Address
    host6: Optional[ipaddress.IPv6Address] = None
    link: AnyUrl
    price: decimal.Decimal
    secret: Optional[SecretStr] = None


class Anything(BaseModel):
    payload: Any
    maybe: Any = None
    extras: dict[str, Any] = {}


SCALARS = {
    Weather: [
        {"temperature": 16.2, "humidity": 0.83, "conditions": "Overcast"},
        {"temperature": -3, "humidity": 0, "conditions": ""},
    ],
    Search: [
        {"query": "rust"},
        {"query": "mcp", "limit": 100, "offset": 7, "exact": True, "score": 0.25, "step": 15, "code": "ZZ99"},
    ],
    Stamps: [
        {"at": "2026-12-05T09:00:00+02:00", "day": "2026-12-05", "id": "6f1c2c3e-9a4b-4c7d-8e2f-0a1b2c3d4e5f",
         "host": "10.0.0.1", "link": "https://example.com/a", "price": "12.50"},
        {"at": "2026-01-01T00:00:00Z", "day": "2026-01-01", "clock": "12:30:00", "lasting": "PT1H",
         "id": "00000000-0000-0000-0000-000000000000", "host": "127.0.0.1", "host6": "::1",
         "link": "http://localhost:8000/", "price": 3, "secret": "hunter2"},
    ],
    Anything: [
        {"payload": {"a": [1, "two", None]}},
        {"payload": 7, "maybe": "x", "extras": {"k": [True]}},
        {"payload": None},
    ],
}


# --- collections -------------------------------------------------------------------------

class Point(BaseModel):
    x: float
    y: float


class Collections(BaseModel):
    tags: list[str]
    counts: dict[str, int] = {}
    unique: set[int] = set()
    frozen: frozenset[str] = frozenset()
    pair: tuple[int, str] = (0, "")
    rest: tuple[int, ...] = ()
    points: list[Point] = []
    grid: list[list[float]] = []
    by_name: dict[str, Point] = {}
    maybe_list: Optional[list[Optional[int]]] = None


class Matrix(RootModel[list[list[int]]]):
    pass


class Names(RootModel[dict[str, list[str]]]):
    pass


COLLECTIONS = {
    Collections: [
        {"tags": []},
        {"tags": ["a", "b"], "counts": {"x": 1}, "unique": [3, 1], "frozen": ["f"], "pair": [2, "two"],
         "rest": [1, 2, 3], "points": [{"x": 1, "y": 2.5}], "grid": [[1.5], []],
         "by_name": {"o": {"x": 0, "y": 0}}, "maybe_list": [1, None, 3]},
    ],
    Matrix: [[[1, 2], [3]], []],
    Names: [{"a": ["b"]}, {}],
}


# --- enums and literals ------------------------------------------------------------------

class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"
    LIGHT_BLUE = "light-blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Choices(BaseModel):
    color: Color
    level: Level = Level.LOW
    mode: Literal["fast", "slow"] = "fast"
    version: Literal["v1"] = "v1"
    mixed: Literal["auto", 0, 1] = "auto"
    shade: Optional[Color] = None
    palette: list[Color] = []
    method: Literal["GET", "get", "+", "-"] = "GET"


ENUMS = {
    Choices: [
        {"color": "red"},
        {"color": "light-blue", "level": 2, "mode": "slow", "mixed": 1, "shade": "green",
         "palette": ["red", "red"], "method": "get"},
        {"color": "green", "mixed": 0, "method": "+"},
    ],
}


# --- nested, optional, recursive, generic ------------------------------------------------

class Address(BaseModel):
    street: str
    city: str
    zip: Optional[str] = None


class Person(BaseModel):
    name: str
    home: Address
    work: Optional[Address] = None
    previous: list[Address] = []
    nickname: Optional[str] = Field(default=None, description="What friends say.")


class Tree(BaseModel):
    label: str
    children: list["Tree"] = []
    parent: Optional["Tree"] = None


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int
    next: Optional[str] = None


class Defaults(BaseModel):
    where: Address = Address(street="Main St", city="Springfield")
    tags: list[str] = ["a"]
    ratio: float = 1.0
    label: Optional[str] = "none"
    nothing: Optional[int] = None


NESTED = {
    Person: [
        {"name": "Ada", "home": {"street": "1 Lane", "city": "London"}},
        {"name": "Bob", "home": {"street": "2 Road", "city": "Paris", "zip": "75001"},
         "work": {"street": "3 Ave", "city": "Lyon"}, "previous": [{"street": "x", "city": "y", "zip": None}],
         "nickname": "B"},
    ],
    Tree: [
        {"label": "root"},
        {"label": "root", "children": [{"label": "a", "children": [{"label": "b"}]}], "parent": {"label": "up"}},
    ],
    Page[Point]: [{"items": [], "total": 0}, {"items": [{"x": 1, "y": 2}], "total": 1, "next": "c2"}],
    Page[str]: [{"items": ["a"], "total": 1}],
    Defaults: [{}, {"where": {"street": "s", "city": "c"}, "tags": [], "ratio": 2, "label": None, "nothing": 3}],
}


# --- unions ------------------------------------------------------------------------------

class Cat(BaseModel):
    pet_type: Literal["cat"] = "cat"
    meows: int


class Dog(BaseModel):
    pet_type: Literal["dog"] = "dog"
    barks: float


class Lizard(BaseModel):
    pet_type: Literal["reptile", "lizard"]
    scales: bool


class Owner(BaseModel):
    pet: Annotated[Union[Cat, Dog, Lizard], Field(discriminator="pet_type")]
    pets: list[Annotated[Union[Cat, Dog], Field(discriminator="pet_type")]] = []


class Plain(BaseModel):
    """A union without a discriminator, read by the variant that fits best."""
    pet: Union[Cat, Dog]
    id: Union[int, str]
    amount: Union[int, float] = 0
    either: Optional[Union[Point, list[Point]]] = None
    loose: Union[str, list[str], None] = None


class Base(BaseModel):
    id: int


class Derived(Base):
    name: str


class Hierarchy(BaseModel):
    thing: Union[Base, Derived]
    things: list[Union[Derived, Base]] = []


UNIONS = {
    Owner: [
        {"pet": {"pet_type": "cat", "meows": 3}},
        {"pet": {"pet_type": "lizard", "scales": True}, "pets": [{"pet_type": "dog", "barks": 1.5}, {"meows": 1, "pet_type": "cat"}]},
    ],
    Plain: [
        {"pet": {"meows": 2}, "id": 5},
        {"pet": {"barks": 2.5}, "id": "five", "amount": 2.5, "either": [{"x": 1, "y": 1}], "loose": ["a"]},
        {"pet": {"pet_type": "dog", "barks": 1}, "id": 0, "either": {"x": 0, "y": 0}, "loose": "s"},
    ],
    Hierarchy: [
        {"thing": {"id": 1}},
        {"thing": {"id": 1, "name": "n"}, "things": [{"id": 2}, {"id": 3, "name": "m"}]},
    ],
}


# --- names and configuration -------------------------------------------------------------

class Names2(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    type_: str = Field(alias="type")
    self_: Optional[int] = Field(default=None, alias="self")
    match_: Optional[bool] = Field(default=None, alias="match")
    content_type: Optional[str] = Field(default=None, alias="content-type")
    content_type_plain: Optional[str] = Field(default=None, alias="content_type")
    user_name: Optional[str] = Field(default=None, alias="userName")
    at_id: Optional[str] = Field(default=None, alias="@id")


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    a: int
    b: Optional[str] = None


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: int


class Computed(BaseModel):
    width: float
    height: float

    @computed_field
    @property
    def area(self) -> float:
        return self.width * self.height


class Documented(BaseModel):
    model_config = ConfigDict(
        title="A documented model",
        json_schema_extra={"examples": [{"name": "x", "size": 1}]},
    )
    name: str = Field(examples=["x", "y"], description="The name.")
    size: int = Field(json_schema_extra={"examples": [1, 2]})


CONFIG = {
    Names2: [
        {"type": "t"},
        {"type": "t", "self": 1, "match": True, "content-type": "a", "content_type": "b", "userName": "u", "@id": "i"},
    ],
    Closed: [{"a": 1}, {"a": 2, "b": "x"}],
    Open: [{"a": 1}, {"a": 1, "more": [1], "other": {"x": None}}],
    Computed: [{"width": 2, "height": 3}],
    Documented: [{"name": "x", "size": 1}],
}

TOPICS = {
    "models_scalars": SCALARS,
    "models_collections": COLLECTIONS,
    "models_enums": ENUMS,
    "models_nested": NESTED,
    "models_unions": UNIONS,
    "models_config": CONFIG,
}


def other_kind(value):
    """A value of another kind than `value`."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, (int, float)):
        return "7"
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"x": value}
    if isinstance(value, dict):
        return [value]
    return 7


def mutations(instance):
    """Instances one change away from `instance`."""
    out = []
    if isinstance(instance, dict):
        for key in instance:
            changed = dict(instance)
            changed[key] = other_kind(instance[key])
            out.append((f"{key} of another kind", changed))
            missing = {k: v for k, v in instance.items() if k != key}
            out.append((f"without {key}", missing))
        out.append(("an unknown member", {**instance, "zzz_unknown": 1}))
    elif isinstance(instance, list):
        out.append(("an item of another kind", instance + ["not-an-item"]))
    out.append(("another kind", other_kind(instance)))
    return out


def pydantic_groups(model, samples):
    """One group per schema pydantic writes for `model`, with the instances it writes."""
    schemas = {"validation": model.model_json_schema(mode="validation")}
    serialization = model.model_json_schema(mode="serialization")
    if serialization != schemas["validation"]:
        schemas["serialization"] = serialization
    dumped = []
    for sample in samples:
        value = model.model_validate(sample)
        dumped.append(("in full", value.model_dump(mode="json", by_alias=True)))
        dumped.append(("as sent", value.model_dump(mode="json", by_alias=True, exclude_unset=True)))
    return [labelled(f"{model.__name__} ({mode})", schema, dumped) for mode, schema in schemas.items()]


def labelled(name, schema, dumped):
    """A group: `schema` with the instances `dumped` and their mutations, labelled by
    `jsonschema`."""
    validator = Draft202012Validator(schema)
    tests = []
    seen = []

    def add(description, data):
        if any(data == s for s in seen):
            return
        seen.append(data)
        tests.append({"description": description, "data": data, "valid": validator.is_valid(data)})

    for how, dump in dumped:
        add(f"{name} {how}: {json.dumps(dump)[:80]}", dump)
    for how, dump in dumped:
        for what, mutated in mutations(dump):
            add(f"{name} with {what}", mutated)
    return {"description": name, "schema": schema, "tests": tests}


def zod_groups(node_dir):
    """The groups of zod.mjs: zod 4's schemas for input and output, with the values as zod
    parses them and as they were sent."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zod.mjs")
    printed = subprocess.run(["node", script, node_dir], check=True, capture_output=True).stdout
    groups = []
    for entry in json.loads(printed):
        dumped = [("parsed", s) for s in entry["samples"]] + [("as sent", s) for s in entry["sent"]]
        groups.append(labelled(f"{entry['name']} ({entry['mode']})", entry["schema"], dumped))
    return groups


def main(out_dir, node_dir):
    topics = {
        topic: [g for model, samples in models.items() for g in pydantic_groups(model, samples)]
        for topic, models in TOPICS.items()
    }
    topics["models_zod"] = zod_groups(node_dir)
    for topic, groups in topics.items():
        with open(f"{out_dir}/{topic}.json", "w") as f:
            json.dump(groups, f, indent=1, sort_keys=False)
            f.write("\n")
        valid = sum(t["valid"] for g in groups for t in g["tests"])
        total = sum(len(g["tests"]) for g in groups)
        print(f"{topic}: {len(groups)} groups, {valid} valid and {total - valid} invalid instances")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "target/interop/node")
