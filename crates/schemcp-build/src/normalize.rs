//! Rewrites of the copy of a schema the generator converts (never the schema served or
//! validated) into forms typify reads exactly: what typify cannot read and that only ever
//! rejects values is left to validation; what it would misread is written the way it means.
//! None of them makes a type reject a value the schema accepts.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use schemcp_contract::json::{json_equal, uri_fragment};
use schemcp_contract::keywords::{ANNOTATIONS, COUNTS, IN_PLACE_APPLICATORS, VOCABULARY};

use crate::names::pascal;
use crate::schema::{
    Children, branches, children, common_kinds, constrains, declared_kinds, escape,
    for_each_child_mut, for_each_subschema, keyword_kind, mentions, open_branch, plain_reference,
    type_kinds,
};

/// Removes every `not` whose subschema typify cannot read exactly, from the copy of a schema
/// the generator converts (the served schema, which the runtime validates, keeps it).
///
/// `not` only ever rejects values, so without it a type accepts more, never less; validation
/// still enforces it. typify reads only a negated `true`/`false`, `{}` (no value) and `enum` /
/// `const` lists of booleans, of numbers or of strings; in anything else it ignores keywords it does not know
/// (`unevaluatedProperties`, `dependentSchemas`, ...) or turns untypable parts into
/// `serde_json::Value`, which under `not` would make the type reject everything, or panics.
/// A schema that only negates kinds of value (`{"not": {"type": "object"}}`) is typed instead,
/// as the runtime's type for the other kinds (`NotObject`).
pub(crate) fn drop_opaque_nots(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    if crate::other_kinds::type_negated_kinds(object) {
        return;
    }
    let readable = |negated: &Value| match negated {
        Value::Bool(_) => true,
        Value::Object(o) => {
            let listed = o.keys().all(|k| {
                matches!(
                    k.as_str(),
                    "enum" | "const" | "$comment" | "description" | "title"
                )
            });
            // typify infers the type of the values it denies: all booleans, all numbers or all
            // strings. It panics on `null`, arrays, objects, a mix, or no value at all.
            let values = o.get("enum").and_then(Value::as_array);
            let values = values.into_iter().flatten().chain(o.get("const"));
            let kinds: Option<BTreeSet<u8>> = values
                .map(|value| match value {
                    Value::Bool(_) => Some(0),
                    Value::Number(_) => Some(1),
                    Value::String(_) => Some(2),
                    _ => None,
                })
                .collect();
            let lists = o.contains_key("enum") || o.contains_key("const");
            listed && (!lists || kinds.is_some_and(|kinds| kinds.len() == 1))
        }
        _ => false,
    };
    if object.get("not").is_some_and(|negated| !readable(negated))
        && let Some(negated) = object.shift_remove("not")
        && object.contains_key("properties")
        && fewer_members_may_match(&negated, object.get("properties"))
    {
        // Fewer members may match what `not` denies: `{"zz": 1}` against `"not":
        // {"maxProperties": 0}` came back as `{}`, which a result cannot be.
        keep_undeclared(object);
    }
    for_each_child_mut(object, &mut drop_opaque_nots);
}

/// The keywords that say what happens to members `properties` does not declare.
const EVALUATING: [&str; 3] = [
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
];

/// Whether typify's struct for `object` drops the members it does not declare: nothing says
/// what happens to them ([`EVALUATING`]).
fn drops_undeclared(object: &serde_json::Map<String, Value>) -> bool {
    EVALUATING.iter().all(|k| !object.contains_key(*k))
}

/// Keeps the members `object` does not declare, in the schema typify converts, where its
/// struct would drop them: `additionalProperties: {}` makes them a flattened `extra` map
/// beside the declared members.
fn keep_undeclared(object: &mut serde_json::Map<String, Value>) {
    if drops_undeclared(object) {
        object.insert("additionalProperties".into(), json!({}));
    }
}

/// Makes typify read an object branch of an `anyOf`/`oneOf` as a struct variant: typify's
/// tagged-enum patterns (externally, adjacently and internally tagged) take only objects
/// without `minProperties`, and it does not check `minProperties` on a struct. Callers add it
/// where the branch's own members already imply it.
pub(crate) fn outside_tagged_patterns(branch: &mut serde_json::Map<String, Value>) {
    branch.entry("minProperties").or_insert(json!(1));
}

/// Whether an object that matches none of `negated` may match it once members outside
/// `declared` (the holder's `properties`) are dropped: some keyword of it (or of its
/// `allOf`/`anyOf`/`oneOf` branches) holds fewer members to a rule (`maxProperties`,
/// `propertyNames`, `additionalProperties`, ...), or declares a member the holder does not.
/// `required` and `minProperties` only ever fail on fewer members, so the negation of them
/// only ever holds.
fn fewer_members_may_match(negated: &Value, declared: Option<&Value>) -> bool {
    let Value::Object(negated) = negated else {
        return false;
    };
    negated
        .iter()
        .any(|(keyword, value)| match keyword.as_str() {
            "maxProperties" | "propertyNames" | "dependentRequired" | "dependentSchemas"
            | "not" | "if" | "$ref" | "$dynamicRef" => true,
            k if EVALUATING.contains(&k) => true,
            "properties" => value.as_object().is_some_and(|members| {
                members
                    .keys()
                    .any(|name| declared.and_then(|d| d.get(name)).is_none())
            }),
            "allOf" | "anyOf" | "oneOf" => value.as_array().is_some_and(|branches| {
                branches
                    .iter()
                    .any(|b| fewer_members_may_match(b, declared))
            }),
            _ => false,
        })
}

/// Keeps the members `patternProperties` describe, in the schema typify converts. typify ignores
/// `patternProperties` except in one shape (no `properties`, one pattern, `additionalProperties:
/// false`), which it makes a map whose keys are checked against the pattern; in every other
/// shape the members that match a pattern would be dropped (`{"patternProperties": ...}` alone
/// became an empty struct) or, beside `additionalProperties: false`, rejected. There the pattern
/// members (and any other) go into a map of `serde_json::Value` instead (`additionalProperties:
/// {}`: a flattened `extra` map beside the declared members); validation enforces the patterns.
pub(crate) fn open_pattern_properties(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut open_pattern_properties);
    if !matches!(object.get("patternProperties"), Some(Value::Object(_))) || checked_key_map(object)
    {
        return;
    }
    object.shift_remove("patternProperties");
    object.insert("additionalProperties".into(), json!({}));
}

/// Whether typify makes `object` a map whose keys are checked against its one pattern: no
/// `properties`, one `patternProperties` entry (whose pattern generated code can spell), and
/// `additionalProperties: false`.
fn checked_key_map(object: &serde_json::Map<String, Value>) -> bool {
    !object.contains_key("properties")
        && object.get("additionalProperties") == Some(&Value::Bool(false))
        && object
            .get("patternProperties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.len() == 1 && p.keys().all(|k| same_in_generated_code(k)))
}

/// Keeps the members an open object does not declare where a `minProperties` counts them, in
/// the schema typify converts (`additionalProperties: {}`: a flattened `extra` map beside the
/// declared members). Dropped as in other open objects, they took a valid value below its
/// count: `{"zz": 1}` against `{"properties": {"b": ...}, "minProperties": 1}` came back as
/// `{}`, which a result cannot be. Runs before [`untag_open_lone_members`], whose
/// `minProperties` is no author's. So do the objects inside the items of an array with
/// `uniqueItems` (written in place: a definition is shared with other schemas), which tells
/// items apart by every member: `[{"zz": true}, {}]` against `{"items": {"properties": {"a":
/// ...}}, "uniqueItems": true}` came back as `[{}, {}]`.
pub(crate) fn keep_counted_members(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut keep_counted_members);
    let counts = object
        .get("minProperties")
        .and_then(Value::as_f64)
        .is_some_and(|n| n >= 1.0);
    if counts {
        keep_undeclared(object);
    }
    if object.get("uniqueItems") == Some(&Value::Bool(true)) {
        for keyword in ["items", "prefixItems"] {
            if let Some(items) = object.get_mut(keyword) {
                keep_undeclared_within(items);
            }
        }
    }
}

/// [`keep_undeclared`] on every object schema (one with `properties`) in `schema`.
fn keep_undeclared_within(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            for_each_child_mut(object, &mut keep_undeclared_within);
            if object.contains_key("properties") {
                keep_undeclared(object);
            }
        }
        // `prefixItems`: a schema per position.
        Value::Array(positions) => positions.iter_mut().for_each(keep_undeclared_within),
        _ => {}
    }
}

/// Keeps typify from reading a `oneOf` or `anyOf` of objects with one required member each as
/// an externally tagged enum (`{"x": 1.5}` as `X(1.5)`) where such an object allows other
/// members: typify takes that shape whatever `additionalProperties` says, and serde's
/// externally tagged enums take a map of exactly one key, so a valid `{"x": 1.5, "y": 2}` was
/// rejected. Those objects get the `minProperties: 1` their required member already implies,
/// which typify's pattern excludes, and become struct variants. With `additionalProperties:
/// false` everywhere the tagged enum holds every valid value, and stays. Only the shape
/// typify tags externally is touched: every branch such an object or a string `enum`/`const`,
/// the member names distinct (internally tagged unions, whose variants share their tag
/// member, are read as they were).
pub(crate) fn untag_open_lone_members(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut untag_open_lone_members);
    let lone_member = |branch: &serde_json::Map<String, Value>| -> Option<String> {
        let properties = branch.get("properties")?.as_object()?;
        let required = branch.get("required")?.as_array()?;
        let plain = [
            "minProperties",
            "maxProperties",
            "patternProperties",
            "propertyNames",
        ]
        .iter()
        .all(|k| !branch.contains_key(*k))
            && branch
                .get("additionalProperties")
                .is_none_or(|a| *a == json!(false));
        (plain && properties.len() == 1 && required.len() == 1)
            .then(|| required[0].as_str().map(str::to_string))
            .flatten()
    };
    let string_values = |branch: &serde_json::Map<String, Value>| {
        let values = match (branch.get("enum"), branch.get("const")) {
            (Some(Value::Array(values)), None) => values.iter().all(Value::is_string),
            (None, Some(value)) => value.is_string(),
            _ => false,
        };
        values && branch.get("type").is_none_or(|t| t == "string")
    };
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = object.get_mut(keyword) else {
            continue;
        };
        let mut names = BTreeSet::new();
        let mut open = false;
        let tagged = branches.iter().all(|branch| {
            let Some(branch) = branch.as_object() else {
                return false;
            };
            match lone_member(branch) {
                Some(name) => {
                    open |= !branch.contains_key("additionalProperties");
                    names.insert(name)
                }
                None => string_values(branch),
            }
        });
        if !tagged || !open {
            continue;
        }
        for branch in branches.iter_mut().filter_map(Value::as_object_mut) {
            if lone_member(branch).is_some() && !branch.contains_key("additionalProperties") {
                outside_tagged_patterns(branch);
            }
        }
    }
}

/// Puts the `anyOf`/`oneOf` branches that declare more members first, where one declares all
/// of another's and more, in the copy of a schema the generator converts. typify makes such a
/// union an untagged enum, and serde takes the first variant that reads a value: with
/// `[{name}, {name, email}]` (pydantic's `Union[Base, Derived]`), `{"name": "a", "email": "b"}`
/// was read by the first variant, which dropped `email`. The branches apply to the value in any
/// order, so reordering them changes nothing but which variant is tried first. Unions where no
/// branch declares all of another's members, and tagged ones (every branch gives one member a
/// different constant value, so the tag picks the variant), are left as written. `declared`
/// gives a branch's `properties` (`None` where it cannot tell, which leaves the union alone).
pub(crate) fn supersets_first(
    schema: &mut Value,
    declared: &dyn Fn(&Value) -> Option<serde_json::Map<String, Value>>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| supersets_first(child, declared));
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.get_mut(keyword) else {
            continue;
        };
        let Some(members) = branches.iter().map(declared).collect::<Option<Vec<_>>>() else {
            continue;
        };
        let sets: Vec<BTreeSet<&String>> = members.iter().map(|m| m.keys().collect()).collect();
        let out_of_order = (0..sets.len()).any(|i| {
            (i + 1..sets.len())
                .any(|j| sets[j].len() > sets[i].len() && sets[j].is_superset(&sets[i]))
        });
        if !out_of_order || tagged(&members) {
            continue;
        }
        // A strict superset is larger, so the largest first puts every one before its subsets.
        let mut order: Vec<(usize, Value)> = sets
            .iter()
            .map(BTreeSet::len)
            .zip(std::mem::take(branches))
            .collect();
        order.sort_by_key(|(len, _)| std::cmp::Reverse(*len));
        *branches = order.into_iter().map(|(_, branch)| branch).collect();
    }
}

/// Whether one member names the variant of every branch: a `const` (or one-value `enum`) in
/// each, all different.
fn tagged(members: &[serde_json::Map<String, Value>]) -> bool {
    let constant = |schema: &Value| match (schema.get("const"), schema.get("enum")) {
        (Some(value), _) => Some(value.clone()),
        (None, Some(Value::Array(values))) if values.len() == 1 => Some(values[0].clone()),
        _ => None,
    };
    members.first().is_some_and(|first| {
        first.keys().any(|name| {
            let values: Option<Vec<Value>> = members
                .iter()
                .map(|m| m.get(name).and_then(constant))
                .collect();
            values.is_some_and(|values| {
                values
                    .iter()
                    .enumerate()
                    .all(|(i, v)| !values[..i].contains(v))
            })
        })
    })
}

/// Whether the generated code checks `pattern` as the validator does. typify's string
/// newtypes test their pattern with `regress` without the Unicode flag, where `\p{Letter}` is
/// a plain `p`; the validator reads it as a Unicode property. Such a newtype would reject
/// strings the schema accepts.
fn same_in_generated_code(pattern: &str) -> bool {
    !pattern.contains("\\p{") && !pattern.contains("\\P{")
}

/// Leaves out of the schema typify converts what the generated code would read narrower than
/// the validator:
/// - every `pattern` it would read differently ([`same_in_generated_code`]): the string stays
///   a `String`, and validation enforces the pattern;
/// - `"format": "float"` (OpenAPI's), which typify types as `f32`: `0.1` came back as
///   `0.10000000149011612` and `1e300` as `null`. The number is an `f64`, which holds every
///   `f32` exactly;
/// - every `format` typify does not type ([`TYPED_FORMATS`]): the type is the same without
///   it, but typify merges two different ones into a member without values (a `regex` beside
///   `additionalProperties` of `uri`s), though a string can be both.
pub(crate) fn drop_narrower_readings(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut drop_narrower_readings);
    if let Some(Value::String(pattern)) = object.get("pattern")
        && !same_in_generated_code(pattern)
    {
        object.shift_remove("pattern");
    }
    let typed = |format: &Value| format.as_str().is_some_and(|f| TYPED_FORMATS.contains(&f));
    if object
        .get("format")
        .is_some_and(|f| f == "float" || !typed(f))
    {
        object.shift_remove("format");
    }
}

/// The `format`s typify gives a type of their own: native types for strings, widths for
/// integers (and `float`, left out above).
const TYPED_FORMATS: [&str; 16] = [
    "uuid",
    "date",
    "date-time",
    "ip",
    "ipv4",
    "ipv6",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int",
    "int32",
    "uint",
    "uint32",
    "int64",
    "uint64",
];

/// Declares every member a schema requires but does not declare as `{}` (what an undeclared
/// member may hold), in the schema typify converts. typify merges such a `required` into the
/// branches of a `oneOf` or `anyOf` beside it as a member no value can have:
/// `{"required": ["c"], "oneOf": [{..}, {"required": ["d"]}]}` gave the second variant no
/// values at all (an empty enum), and a valid `{"c": 1, "d": 2}` was refused.
pub(crate) fn declare_required_members(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut declare_required_members);
    let names = required_names(Some(&*schema));
    if let Value::Object(object) = schema {
        declare_members(object, &names);
    }
}

/// Writes `true` as the `{}` it equals where typify reads the two differently, in the schema
/// typify converts:
/// - a member schema: typify merges a `true` member wrongly beside `allOf`/`anyOf`/`oneOf`.
///   Beside a closed object it gave `{"properties": {"bar": true}}` no values at all (an
///   empty enum, which refused every call), and with `required` in a branch it declared the
///   member twice (`foo` and a `foo_2` renamed to `foo` that no value can satisfy). It merges
///   `{}` correctly.
/// - `additionalProperties`: typify keeps the other members for `{}` (a flattened `extra`
///   map) and drops them for `true`. An author who writes `true` (pydantic's
///   `extra="allow"`, zod's `passthrough`) says they are part of the value.
pub(crate) fn true_as_empty(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut true_as_empty);
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for member in properties.values_mut() {
            if *member == Value::Bool(true) {
                *member = json!({});
            }
        }
    }
    if let Some(other) = object.get_mut("additionalProperties")
        && *other == Value::Bool(true)
    {
        *other = json!({});
    }
}

/// Rewrites every fixed-length `prefixItems` array (in the copy of a schema the generator
/// converts) to the draft-07 form typify reads as a Rust tuple: `items` as the list of element
/// schemas, `additionalItems` for the elements past them, `minItems` = `maxItems` = the
/// length. Fixed length means `type: "array"` with `minItems` equal to the largest length the
/// schema allows (its `maxItems`, or the number of `prefixItems` when `items` is `false`), so
/// the tuple holds every valid array exactly. Any other `prefixItems` is left for the
/// generator to refuse (or, with `fallback_to_value`, to type as `serde_json::Value`).
pub(crate) fn closed_tuples(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut closed_tuples);
    let Some(Value::Array(prefix)) = object.get("prefixItems") else {
        return;
    };
    let n = prefix.len() as u64;
    let count = |keyword: &str| object.get(keyword).and_then(Value::as_u64);
    let max = match (object.get("items"), count("maxItems")) {
        (Some(Value::Bool(false)), Some(max)) => Some(max.min(n)),
        (Some(Value::Bool(false)), None) => Some(n),
        (_, max) => max,
    };
    let fixed = object.get("type") == Some(&Value::String("array".into()))
        && max.is_some_and(|max| max > 0 && count("minItems") == Some(max))
        && !object.contains_key("uniqueItems")
        && !object.contains_key("contains");
    let Some(length) = max.filter(|_| fixed) else {
        return;
    };
    let prefix = object.shift_remove("prefixItems").expect("checked above");
    let rest = object.shift_remove("items");
    object.insert("items".into(), prefix);
    if let Some(rest) = rest.filter(|_| length > n) {
        object.insert("additionalItems".into(), rest);
    }
    object.insert("minItems".into(), length.into());
    object.insert("maxItems".into(), length.into());
}

/// Array keywords that may stand beside a variable-length `prefixItems` the generator types as
/// a runtime `PrefixN` (see [`open_tuples`]), besides annotations: constraints that validation
/// enforces and that the type holds every valid array of anyway.
const BESIDE_PREFIX_ITEMS: [&str; 9] = [
    "type",
    "prefixItems",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
];

/// Keywords that name a schema or hold definitions, and say nothing of its values: references
/// to them were resolved (and what they name copied into the root's `$defs`) before typing.
pub(crate) const IDENTIFIERS: [&str; 6] = [
    "$id",
    "$schema",
    "$anchor",
    "$dynamicAnchor",
    "$defs",
    "definitions",
];

/// Why a schema with `prefixItems` cannot become a type (once [`closed_tuples`] has taken the
/// fixed-length ones), or `None` if [`open_tuples`] types it. `type` may still be missing:
/// the untyped-schema rules then decide whether it is typed as an array.
pub(crate) fn prefix_items_refusal(object: &serde_json::Map<String, Value>) -> Option<String> {
    let Value::Array(prefix) = object.get("prefixItems")? else {
        return Some("`prefixItems` must be an array of schemas".into());
    };
    if prefix.is_empty() || prefix.len() > MAX_PREFIX_POSITIONS {
        return Some(format!(
            "the generator types `prefixItems` of 1 to {} positions; this one has {}",
            MAX_PREFIX_POSITIONS,
            prefix.len()
        ));
    }
    // Beside no in-place applicator, `unevaluatedItems` becomes `items` (`settle_unevaluated`),
    // unless `contains` also evaluates items.
    let settles = |k: &str| k == "unevaluatedItems" && !object.contains_key("contains");
    if let Some(other) = object.keys().find(|k| {
        let k = k.as_str();
        !BESIDE_PREFIX_ITEMS.contains(&k)
            && !ANNOTATIONS.contains(&k)
            && !IDENTIFIERS.contains(&k)
            && ![PREFIX_MARKER, POSITION_MARKER, SUFFIX_MARKER].contains(&k)
            && !settles(k)
    }) {
        return Some(format!(
            "the generator does not type `prefixItems` beside `{other}` (only beside {})",
            BESIDE_PREFIX_ITEMS[2..]
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    match object.get("type") {
        None => None,
        Some(Value::String(kind)) if kind == "array" => None,
        Some(_) => Some(
            "the generator types `prefixItems` only with `\"type\": \"array\"`, a list of \
             types or no `type` (each beside keywords for one kind of value)"
                .into(),
        ),
    }
}

/// Whether a schema only constrains arrays (and says nothing of other kinds of value): array
/// keywords, `"type": "array"`, and annotations.
pub(crate) fn only_narrows_arrays(object: &serde_json::Map<String, Value>) -> bool {
    object
        .iter()
        .all(|(keyword, value)| match keyword.as_str() {
            "type" => value == "array",
            "unevaluatedItems" | "$anchor" | "$dynamicAnchor" => true,
            k => BESIDE_PREFIX_ITEMS.contains(&k) || ANNOTATIONS.contains(&k),
        })
}

/// Leaves out of the copy of a schema the generator converts a `$ref`, `oneOf`, `anyOf` or
/// `allOf` beside `prefixItems` whose target or every branch [`only_narrows_arrays`]
/// (`array_only` says so of a reference). typify cannot merge `prefixItems` with them, so the
/// schema was `serde_json::Value`; they only ever reject arrays the holder's own keywords
/// accept, so the type without them holds every valid value, and validation enforces them.
/// What they evaluate is no longer seen by the holder's `unevaluatedItems`, which is then
/// read as `items: {}`: every item past the positions is kept as any value.
pub(crate) fn drop_array_narrowing_beside_prefix(
    schema: &mut Value,
    array_only: &dyn Fn(&str) -> bool,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        drop_array_narrowing_beside_prefix(child, array_only)
    });
    if !object.contains_key("prefixItems") {
        return;
    }
    let narrows = |branch: &Value| match branch {
        Value::Bool(true) => true,
        Value::Object(branch) => match branch.get("$ref").and_then(Value::as_str) {
            Some(reference) => branch.len() == 1 && array_only(reference),
            None => only_narrows_arrays(branch),
        },
        _ => false,
    };
    let mut dropped = false;
    if object
        .get("$ref")
        .and_then(Value::as_str)
        .is_some_and(array_only)
    {
        object.shift_remove("$ref");
        dropped = true;
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(keyword)
            && branches.iter().all(narrows)
        {
            object.shift_remove(keyword);
            dropped = true;
        }
    }
    if dropped
        && !object.contains_key("items")
        && object
            .shift_remove("unevaluatedItems")
            .is_some_and(|rest| rest != json!(true))
    {
        object.insert("items".into(), json!({}));
    }
}

/// The number of positions of the runtime's largest `PrefixN`
/// (`schemcp_runtime::prefix_items::MAX_POSITIONS`).
const MAX_PREFIX_POSITIONS: usize = 12;

/// Keywords that only ever reject values of a schema that also has a type without them, and
/// that typify cannot read (it panics on `if`, errors on `contains`) or reads for nothing:
/// the type without them accepts more, never less, and validation enforces them.
pub(crate) const NARROWING_ONLY: [&str; 8] = [
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
];

/// Drops [`NARROWING_ONLY`] keywords from the copy of a schema the generator converts (like
/// [`drop_opaque_nots`]), so `{"type": "array", "items": ..., "contains": ...}` and an object
/// with `if`/`then` are typed by what they hold. The caller first opens the
/// `unevaluatedProperties` and `unevaluatedItems` that could see the members or items they
/// evaluate, in place or through a reference
/// ([`open_unevaluated`](crate::openings::open_unevaluated)).
///
/// The members these keywords require or declare stay members of the type: an object that
/// must have `c` (`"allOf": [{"required": ["c"]}]`, `"then": {"required": ["c"]}`) but does not
/// declare it would have lost `c`, and with it its validity; one declared only under a
/// condition (`"then": {"properties": {"attributes": ...}}`, in place or in an `allOf` branch,
/// as GitHub's issue forms declare each kind of form item) was dropped from a valid value.
/// Each becomes a member of any value (`serde_json::Value`, which is what the member may hold
/// when the condition does not apply), required where every value has it (`allOf`), optional
/// elsewhere.
pub(crate) fn drop_narrowing(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    // Only where the type is a struct that drops the members it does not declare (where they
    // are refused, or kept in a map, nothing is lost).
    let struct_holder = object.get("type") == Some(&json!("object")) && drops_undeclared(object);
    let mut always = BTreeSet::new();
    let mut sometimes = BTreeSet::new();
    if struct_holder {
        let conditions = branches(object, "allOf")
            .iter()
            .filter_map(Value::as_object)
            .chain([&*object]);
        for condition in conditions {
            for keyword in ["then", "else"] {
                sometimes.extend(required_names(condition.get(keyword)));
                sometimes.extend(declared_names(condition.get(keyword)));
            }
        }
        if let Some(Value::Object(dependents)) = object.get("dependentSchemas") {
            sometimes.extend(dependents.values().flat_map(|d| required_names(Some(d))));
            sometimes.extend(dependents.values().flat_map(|d| declared_names(Some(d))));
        }
        if let Some(Value::Object(dependents)) = object.get("dependentRequired") {
            let names = dependents.values().filter_map(Value::as_array).flatten();
            sometimes.extend(names.filter_map(Value::as_str).map(str::to_string));
        }
    }
    for keyword in NARROWING_ONLY {
        object.shift_remove(keyword);
    }
    // `anyOf: [{"required": ["a"]}, {"required": ["b"]}]` ("a or b must be given") says nothing
    // about what a member holds, so it says nothing to the type either.
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(keyword)
            && !branches.is_empty()
            && branches.iter().all(only_counts)
        {
            if struct_holder {
                let names = branches.iter().flat_map(|b| required_names(Some(b)));
                if keyword == "allOf" {
                    always.extend(names);
                } else {
                    sometimes.extend(names);
                }
            }
            object.shift_remove(keyword);
        }
    }
    // Those every value has join `required`, and `declare_required_members` declares them with
    // every other required member; the others are declared here.
    declare_members(object, &sometimes);
    if !always.is_empty()
        && let Value::Array(required) = object.entry("required").or_insert_with(|| json!([]))
    {
        for name in &always {
            if !required.iter().any(|r| r == name.as_str()) {
                required.push(Value::String(name.clone()));
            }
        }
    }
    for_each_child_mut(object, &mut drop_narrowing);
}

/// The names `schema` declares in its `properties`.
fn declared_names(schema: Option<&Value>) -> Vec<String> {
    match schema.and_then(|s| s.get("properties")) {
        Some(Value::Object(members)) => members.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The names `schema` lists in its `required`.
pub(crate) fn required_names(schema: Option<&Value>) -> Vec<String> {
    match schema.and_then(|s| s.get("required")) {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Declares each of `names` that `object` does not declare as a member of any value (`{}`).
fn declare_members<'a>(
    object: &mut serde_json::Map<String, Value>,
    names: impl IntoIterator<Item = &'a String>,
) {
    let mut names = names.into_iter().peekable();
    if names.peek().is_none() {
        return;
    }
    if let Value::Object(properties) = object.entry("properties").or_insert_with(|| json!({})) {
        for name in names {
            properties.entry(name.clone()).or_insert_with(|| json!({}));
        }
    }
}

/// Whether `branch` only constrains how many members or items a value has, or how long or
/// large it is (`required`, `minLength`, `maximum`, ...), rejects what its `not` matches, or
/// accepts everything: a schema that never shapes a type. MCP's embedded resource has text,
/// a blob, or neither: `"oneOf": [{"required": ["text"], "not": {"required": ["blob"]}}, ..,
/// {"not": {"anyOf": [{"required": ["text"]}, {"required": ["blob"]}]}}]`, whose last branch
/// is `{}` once its `not` is dropped ([`drop_opaque_nots`]).
fn only_counts(branch: &Value) -> bool {
    // Besides the counts: bounds, which members must be there, and `not`, which only rejects.
    const BOUNDS: [&str; 10] = [
        "not",
        "required",
        "dependentRequired",
        "uniqueItems",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ];
    match branch {
        Value::Bool(accepts) => *accepts,
        Value::Object(object) => object.keys().all(|k| {
            [COUNTS, &BOUNDS, ANNOTATIONS]
                .iter()
                .any(|l| l.contains(&k.as_str()))
        }),
        _ => false,
    }
}

/// Gives every `propertyNames` subschema without a `type` the `"type": "string"` it means
/// (property names are strings), so `{"maxLength": 3}` there is not taken for a schema that
/// also accepts other kinds of values. A boolean one is dropped: `true` says nothing, and
/// `false` (no member at all) only rejects, which validation does. So is one beside
/// `properties`: typify makes a struct that does not read it, and panics where it merges such
/// an object with another (a member declared beside an `allOf` and in one of its branches).
pub(crate) fn type_property_names(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut type_property_names);
    if matches!(object.get("propertyNames"), Some(Value::Bool(_)))
        || object.contains_key("properties")
    {
        object.shift_remove("propertyNames");
    }
    if let Some(Value::Object(names)) = object.get_mut("propertyNames")
        && !names.contains_key("type")
        && !names.contains_key("$ref")
    {
        names.insert("type".into(), json!("string"));
    }
}

/// Rewrites `const: X` to the `enum: [X]` it means, in the copy of a schema the generator
/// converts, where no `enum` stands beside it. typify ignores `const` (so `{"const": 2}` became
/// `serde_json::Value`, and `{"type": "string", "const": "v1"}` a `String`), but reads a
/// one-value `enum`: a one-variant enum for a string, a checked newtype for a number, so the
/// type itself rejects any other value. Integral floats are written as integers, and an integer
/// without `type` gets `"type": "integer"` (an integer newtype, not `f64`): JSON Schema counts
/// `2.0` equal to `2` and an integer, and the runtime decodes integral floats as integers.
pub(crate) fn const_as_enum(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut const_as_enum);
    if object.contains_key("enum") {
        return;
    }
    if let Some(mut value) = object.shift_remove("const") {
        integral_floats_as_integers(&mut value);
        // typify reads an untyped number `enum` as `f64`, which writes `2` back as `2.0`.
        if value.is_i64() || value.is_u64() {
            object.entry("type").or_insert(json!("integer"));
        }
        object.insert("enum".into(), json!([value]));
    }
}

/// Writes every float without a fraction in `value` (within `i64`/`u64`) as an integer.
fn integral_floats_as_integers(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
                *value = json!(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_floats_as_integers),
        Value::Object(members) => members.values_mut().for_each(integral_floats_as_integers),
        _ => {}
    }
}

/// Writes counts given as integral floats (`"maxLength": 2.0`, which JSON Schema allows) as
/// integers, in the copy of a schema the generator converts: typify's schema model reads
/// counts as unsigned integers and rejects the whole schema otherwise.
pub(crate) fn integral_counts(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut integral_counts);
    for keyword in COUNTS {
        if let Some(count) = object.get_mut(*keyword)
            && let Some(f) = count.as_f64().filter(|_| count.is_f64())
            && f.fract() == 0.0
            && (0.0..=u32::MAX as f64).contains(&f)
        {
            *count = json!(f as u64);
        }
    }
}

/// How the branches of the copy of a schema the generator converts say what they accept, for
/// the passes that settle its unions ([`drop_repeated_branches`], [`settle_boolean_branches`]).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Branches {
    /// As the schema writes them.
    AsWritten,
    /// After passes that leave keywords to validation ([`drop_opaque_nots`], `drop_narrowing`):
    /// a branch may accept more than the schema's, so two `oneOf` branches that accept the
    /// same values now, or every value, did not have to in the schema. `{"oneOf": [{"not":
    /// {"type": "number"}}, {"type": "array"}, {"not": {"type": "string"}}]}` accepts `"x"`;
    /// read as written once both `not`s were dropped, it was an array.
    Loosened,
}

/// Simplifies the unions of the copy of a schema the generator converts, keeping every value
/// they accept. In an `anyOf`, a branch that is only an `anyOf` is replaced by its branches (a
/// value matches one of `[[A, B], C]` when it matches one of `[A, B, C]`), and a branch equal
/// to an earlier one but for annotations is left out. In a `oneOf` as written, branches equal
/// to another (but for annotations) can never be the one that matches, and become `false`
/// (which [`settle_boolean_branches`] then settles): the type may take a value that also
/// matches them, which validation rejects. In a [`Branches::Loosened`] `oneOf` such a branch
/// may still match in the schema: the first is kept, as in an `anyOf`, and the type may take
/// more than the schema, which validation rejects. typify panicked on `"anyOf": [{"type":
/// "null"}, {"type": "null"}]` and on the same `oneOf`, and gave up on `"anyOf": [{"anyOf":
/// [X, {"type": "null"}]}, {"type": "null"}]` (no unique name).
pub(crate) fn drop_repeated_branches(schema: &mut Value, reading: Branches) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| drop_repeated_branches(child, reading));
    if let Some(Value::Array(branches)) = object.get_mut("anyOf") {
        let mut kept: Vec<Value> = Vec::with_capacity(branches.len());
        for branch in branches.drain(..) {
            let inner = match branch {
                Value::Object(mut only) if only.len() == 1 && only.contains_key("anyOf") => {
                    match only.shift_remove("anyOf") {
                        Some(Value::Array(inner)) => inner,
                        Some(other) => vec![json!({ "anyOf": other })],
                        None => unreachable!("checked above"),
                    }
                }
                other => vec![other],
            };
            for branch in inner {
                if !kept.iter().any(|k| same_values(k, &branch)) {
                    kept.push(branch);
                }
            }
        }
        *branches = kept;
    }
    if let Some(Value::Array(branches)) = object.get_mut("oneOf") {
        if reading == Branches::Loosened {
            let mut kept: Vec<Value> = Vec::with_capacity(branches.len());
            for branch in branches.drain(..) {
                if !kept.iter().any(|k| same_values(k, &branch)) {
                    kept.push(branch);
                }
            }
            *branches = kept;
            return;
        }
        let repeated: Vec<bool> = (0..branches.len())
            .map(|i| (0..branches.len()).any(|j| j != i && same_values(&branches[j], &branches[i])))
            .collect();
        for (branch, repeated) in branches.iter_mut().zip(repeated) {
            if repeated {
                *branch = Value::Bool(false);
            }
        }
    }
}

/// Whether two schemas are equal but for their annotations (`{"$ref": R}` and `{"$ref": R,
/// "description": ...}`), and so accept the same values.
fn same_values(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            // Compared in place: a union's branches are compared pairwise.
            fn said(o: &serde_json::Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
                o.iter().filter(|(k, _)| !ANNOTATIONS.contains(&k.as_str()))
            }
            said(a).count() == said(b).count() && said(a).all(|(k, v)| b.get(k) == Some(v))
        }
        _ => a == b,
    }
}

/// Writes an `anyOf` or `oneOf` of one branch as the `allOf` branch it amounts to (a value
/// matches one of one branch, or exactly one, when it matches that branch), in the copy of a
/// schema the generator converts. typify merges a `oneOf` with what stands beside it by
/// joining it with the `not` of its siblings, branch by branch, and it lost members that way:
/// beside an `anyOf`, `"oneOf": [{"properties": {"a": ..}, "additionalProperties": false}]`
/// left every variant without `a`, and `{"a": "x"}` was refused. As an `allOf` branch it is
/// merged as one.
pub(crate) fn single_branches_as_all_of(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut single_branches_as_all_of);
    for keyword in ["anyOf", "oneOf"] {
        if !matches!(object.get(keyword), Some(Value::Array(branches)) if branches.len() == 1) {
            continue;
        }
        let Some(Value::Array(mut branches)) = object.shift_remove(keyword) else {
            continue;
        };
        let branch = branches.remove(0);
        match object.entry("allOf").or_insert_with(|| json!([])) {
            Value::Array(all_of) => all_of.push(branch),
            // Not a schema typify reads anyway; validation reports it.
            _ => {
                object.insert(keyword.to_string(), json!([branch]));
            }
        }
    }
    inline_lone_all_of(object);
}

/// Writes a schema that is one inline `allOf` branch and annotations as that branch with the
/// annotations: typify panicked on `{"title": ..., "allOf": [{"type": "string", "minLength":
/// 2}]}`, the shape a `prefixItems` position takes once it is titled for its type's name
/// (`finish_tuples`). A branch that is a reference, names a resource or anchor, or holds
/// definitions stays a branch, as does one whose annotations the holder's would overwrite.
fn inline_lone_all_of(object: &mut serde_json::Map<String, Value>) {
    let lone = match object.get("allOf") {
        Some(Value::Array(branches)) if branches.len() == 1 => match &branches[0] {
            Value::Object(branch) => branch,
            _ => return,
        },
        _ => return,
    };
    let kept_apart = [
        "$ref",
        "$dynamicRef",
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$defs",
    ];
    let only_annotations = object
        .keys()
        .all(|k| k == "allOf" || ANNOTATIONS.contains(&k.as_str()));
    if !only_annotations
        || kept_apart.iter().any(|k| lone.contains_key(*k))
        || object.keys().any(|k| k != "allOf" && lone.contains_key(k))
    {
        return;
    }
    let Some(Value::Array(mut branches)) = object.shift_remove("allOf") else {
        return;
    };
    let Value::Object(branch) = branches.remove(0) else {
        return;
    };
    let annotations = std::mem::replace(object, branch);
    object.extend(annotations);
}

/// Settles `allOf`, `anyOf` and `oneOf` whose branches are all boolean schemas (or `{}`, which
/// is `true`), in the copy of a schema the generator converts (typify panics on them): `true`
/// matches every value and `false` none, so each says "every value" (the keyword is dropped)
/// or "no value" (the whole schema becomes `false`). Beside other branches, the boolean ones
/// that never count are left out. Boolean branches produce no annotations, so `unevaluated*`
/// keywords see the same either way. A [`Branches::Loosened`] `oneOf` of several `true`s may
/// have matched once in the schema, so it says "every value" too.
pub(crate) fn settle_boolean_branches(schema: &mut Value, reading: Branches) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| settle_boolean_branches(child, reading));
    let mut matches_nothing = false;
    // `{}` matches every value and produces no annotations: it is `true`.
    let boolean = |b: &Value| match b {
        Value::Object(o) if o.is_empty() => Some(true),
        other => other.as_bool(),
    };
    for keyword in ["allOf", "anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.get_mut(keyword) else {
            continue;
        };
        // Beside other branches, a branch that never counts is left out: `true` in an `allOf`,
        // `false` in an `anyOf` or `oneOf` (typify panics on a `false` branch). A `false` in an
        // `allOf` matches nothing. A `true` that counts (in an `anyOf`, or a `oneOf`, where it
        // means "anything the others do not match") is written as the `{}` it equals: typify
        // panics on `true` there and reads `{}` as a variant that holds any value.
        if branches.iter().any(|b| boolean(b).is_none()) {
            let all_of = keyword == "allOf";
            if all_of && branches.iter().any(|b| boolean(b) == Some(false)) {
                matches_nothing = true;
            }
            let never_counts = Some(all_of);
            branches.retain(|b| boolean(b) != never_counts);
            for branch in branches.iter_mut() {
                if *branch == Value::Bool(true) {
                    *branch = json!({});
                }
            }
            continue;
        }
        let trues = branches.iter().filter(|b| boolean(b) == Some(true)).count();
        let every_value = match keyword {
            "allOf" => trues == branches.len(),
            "anyOf" => trues > 0,
            _ => trues == 1 || reading == Branches::Loosened && trues > 0,
        };
        object.shift_remove(keyword);
        matches_nothing |= !every_value;
    }
    if matches_nothing {
        *schema = Value::Bool(false);
    }
}

/// Folds an `anyOf` or `oneOf` whose branches are each only a list of values (`enum`, the same
/// `type` or none, annotations, keywords of no vocabulary) into the one `enum` it means, in the
/// copy of a schema the generator converts: the values of every branch for an `anyOf`, those
/// of exactly one branch for a `oneOf`. It is the common way to document each value
/// (`oneOf: [{"const": "a", "description": ...}, ...]`). typify makes a type per branch
/// instead, and merges each into whatever stands beside a reference to the holder: Azure
/// Pipelines' 259 task names beside 259 task branches became 67,859 types that rustc could not
/// compile in 16 GB. Runs after [`const_as_enum`].
pub(crate) fn fold_value_branches(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut fold_value_branches);
    if object.contains_key("enum") {
        return;
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.get(keyword) else {
            continue;
        };
        let Some(kind) = value_branches_kind(branches) else {
            continue;
        };
        // A `type` beside that is not the branches' own would have to be met as well.
        if kind.is_some() && object.get("type").is_some_and(|t| Some(t) != kind.as_ref()) {
            continue;
        }
        let lists: Vec<&Vec<Value>> = branches
            .iter()
            .filter_map(|b| b.get("enum").and_then(Value::as_array))
            .collect();
        let mut values: Vec<Value> = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            for value in list.iter() {
                // A value two `oneOf` branches list matches both, so the `oneOf` refuses it.
                let elsewhere = lists
                    .iter()
                    .enumerate()
                    .any(|(j, other)| j != i && other.iter().any(|v| json_equal(v, value)));
                if (keyword == "anyOf" || !elsewhere)
                    && !values.iter().any(|v| json_equal(v, value))
                {
                    values.push(value.clone());
                }
            }
        }
        object.shift_remove(keyword);
        if let Some(kind) = kind {
            object.entry("type").or_insert(kind);
        }
        object.insert("enum".into(), Value::Array(values));
        return;
    }
}

/// Narrows what an `allOf`/`anyOf`/`oneOf` branch says of a member the holder lists the values
/// of (`properties.P.enum`) to the listed values the branch's schema accepts, in the copy of a
/// schema the generator converts. The holder's list applies to every value anyway, so the
/// branch accepts exactly those. It is how a branch picks its case (Azure Pipelines'
/// `{"task": {"pattern": "^PowerShell@2$"}}` beside 254 task names): typify does not read the
/// pattern against the list, and gave every branch a copy of all 254 names, so the first branch
/// took every value. A branch none of whose values is listed holds no value, which its type
/// then says. Each branch schema is checked with the validator the runtime uses; one with a
/// reference is left alone.
pub(crate) fn narrow_listed_members(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut narrow_listed_members);
    let Some(Value::Object(properties)) = object.get("properties") else {
        return;
    };
    let listed: Vec<(String, Vec<Value>)> = properties
        .iter()
        .filter_map(|(name, member)| {
            let values = member.get("enum")?.as_array()?;
            Some((name.clone(), values.clone()))
        })
        .collect();
    if listed.is_empty() {
        return;
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.get_mut(keyword) else {
            continue;
        };
        for branch in branches {
            let Some(Value::Object(members)) = branch.get_mut("properties") else {
                continue;
            };
            for (name, values) in &listed {
                let Some(Value::Object(member)) = members.get_mut(name) else {
                    continue;
                };
                if mentions(member, &["$ref", "$dynamicRef", "$recursiveRef"]) {
                    continue;
                }
                let Ok(validator) = jsonschema::validator_for(&Value::Object(member.clone()))
                else {
                    continue;
                };
                let kept: Vec<Value> = values
                    .iter()
                    .filter(|v| validator.is_valid(v))
                    .cloned()
                    .collect();
                member.retain(|k, _| ANNOTATIONS.contains(&k.as_str()) && k != "default");
                if kept.len() < values.len() {
                    member.insert("enum".into(), Value::Array(kept));
                }
            }
        }
    }
}

/// Leaves out of `allOf` and `anyOf` branches, in the schema typify converts, each member
/// declaration that can only mean "absent": one with no value in common (kinds that share
/// none, or `false`) with the member the schema around it declares (for an `anyOf` branch), or
/// with what the schema around and the other `allOf` branches declare of it (for an `allOf`
/// branch), where nothing there requires the member. Where one of those may be `null`, typify
/// merged them into a member without values and left the whole branch out, as if it matched
/// nothing: beside `{"id": {"type": ["string", "null"]}, "context": {}}`, the `anyOf` branches
/// `{"properties": {"id": {"type": "integer"}}, "required": ["legacy_id"]}` and
/// `{"properties": {"context": {"type": "string"}}, "required": ["id"]}` were typed as the
/// second alone, which refused `{"legacy_id": 7, "context": {}}`. Without its declaration,
/// the branch reads the member as the schema around it does: the type accepts more, never
/// less (no valid value has the member), and validation enforces the rest. A member that
/// `allOf` makes absent from every value is left out of the schema around and its `anyOf`
/// branches too: declared there, it was still read for its `null` (see
/// `schema::mark_nullable_optionals`), which made it required where typify merges, though no
/// value has it.
///
/// Branches of a `oneOf` keep theirs, and so do those of an `anyOf` beside one: typify joins
/// each branch of a `oneOf` with the `not` of the others, so a looser branch would make its
/// siblings narrower.
pub(crate) fn absent_unmeetable_members(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut absent_unmeetable_members);
    let absent = absent_through_all_of(object);
    if !absent.is_empty() {
        let mut drop_absent = |schema: &mut Value| {
            if let Some(Value::Object(members)) = schema.get_mut("properties") {
                members.retain(|name, _| !absent.contains(name));
            }
        };
        drop_absent(schema);
        for keyword in ["allOf", "anyOf"] {
            if let Some(Value::Array(branches)) = schema.get_mut(keyword) {
                branches.iter_mut().for_each(&mut drop_absent);
            }
        }
    }
    let Value::Object(object) = schema else {
        return;
    };
    if object.contains_key("oneOf") {
        return;
    }
    let required_around = required_names(Some(&*schema));
    let Some(Value::Object(around)) = schema.get("properties") else {
        return;
    };
    let kinds_around: Vec<(String, BTreeSet<String>)> = around
        .iter()
        .filter(|(name, _)| !required_around.contains(name))
        .filter_map(|(name, member)| Some((name.clone(), allowed_kinds(member)?)))
        .collect();
    let Some(Value::Array(branches)) = schema.get_mut("anyOf") else {
        return;
    };
    for branch in branches {
        let required_here = required_names(Some(&*branch));
        let Some(Value::Object(members)) = branch.get_mut("properties") else {
            continue;
        };
        members.retain(|name, member| {
            let Some((_, around)) = kinds_around.iter().find(|(n, _)| n == name) else {
                return true;
            };
            let unmeetable = allowed_kinds(member).is_some_and(|kinds| kinds.is_disjoint(around));
            !unmeetable || required_here.contains(name)
        });
    }
}

/// The members that `allOf` branches of `object` declare and that no value can have: what
/// `object` and its branches declare of each shares no kind, and none of them requires it.
fn absent_through_all_of(object: &serde_json::Map<String, Value>) -> BTreeSet<String> {
    if !matches!(object.get("allOf"), Some(Value::Array(_))) {
        return BTreeSet::new();
    }
    let merged = all_of_members(object);
    merged
        .kinds
        .into_iter()
        .filter(|(name, common)| {
            common.is_empty()
                && merged.in_branches.contains(name)
                && !merged.required.contains(name)
        })
        .map(|(name, _)| name.to_string())
        .collect()
}

/// What `object` and its `allOf` branches, which every value matches, say of its members.
pub(crate) struct AllOfMembers<'a> {
    /// The names any of them requires.
    pub required: BTreeSet<&'a str>,
    /// Per member declared with kinds said ([`allowed_kinds`]), the kinds those declarations
    /// share: a value's member must match them all.
    pub kinds: BTreeMap<&'a str, BTreeSet<String>>,
    /// The members an `allOf` branch declares.
    pub in_branches: BTreeSet<&'a str>,
}

/// [`AllOfMembers`] of `object`.
pub(crate) fn all_of_members(object: &serde_json::Map<String, Value>) -> AllOfMembers<'_> {
    let mut merged = AllOfMembers {
        required: BTreeSet::new(),
        kinds: BTreeMap::new(),
        in_branches: BTreeSet::new(),
    };
    let all_of = match object.get("allOf") {
        Some(Value::Array(all_of)) => all_of.as_slice(),
        _ => &[],
    };
    let parts = std::iter::once(object).chain(all_of.iter().filter_map(Value::as_object));
    for (i, part) in parts.enumerate() {
        if let Some(Value::Array(names)) = part.get("required") {
            merged
                .required
                .extend(names.iter().filter_map(Value::as_str));
        }
        let Some(Value::Object(members)) = part.get("properties") else {
            continue;
        };
        for (name, member) in members {
            if i > 0 {
                merged.in_branches.insert(name.as_str());
            }
            if let Some(allowed) = allowed_kinds(member) {
                merged
                    .kinds
                    .entry(name)
                    .and_modify(|common| common.retain(|k| allowed.contains(k)))
                    .or_insert(allowed);
            }
        }
    }
    merged
}

/// What [`member_kinds`] gives for a member schema, and no kind for `false`.
pub(crate) fn allowed_kinds(member: &Value) -> Option<BTreeSet<String>> {
    match member {
        Value::Bool(false) => Some(BTreeSet::new()),
        Value::Object(member) => member_kinds(member),
        _ => None,
    }
}

/// The kinds of value `member` allows: its `type`'s ([`declared_kinds`]), or else those of the
/// values its `enum` lists ([`kinds_of`], a float also counting as an integer, since `1.0` is
/// one); `None` where it says neither.
fn member_kinds(member: &serde_json::Map<String, Value>) -> Option<BTreeSet<String>> {
    declared_kinds(member).or_else(|| {
        let values = member.get("enum")?.as_array()?;
        type_kinds(&Value::Array(kinds_of(values)))
    })
}

/// Whether `branches` are each only a list of values (see [`fold_value_branches`]), and the
/// `type` they all give (`Some(None)` where none gives one).
fn value_branches_kind(branches: &[Value]) -> Option<Option<Value>> {
    let mut kind: Option<Option<Value>> = None;
    for branch in branches {
        let branch = branch.as_object()?;
        branch.get("enum")?.as_array()?;
        let only_values = branch
            .keys()
            .all(|k| k == "enum" || k == "type" || inert(k));
        if !only_values {
            return None;
        }
        let this = branch.get("type").cloned();
        match &kind {
            None => kind = Some(this),
            Some(seen) if *seen == this => {}
            Some(_) => return None,
        }
    }
    kind
}

/// Whether `key` says nothing of the values a schema accepts: an annotation, or a key of no
/// vocabulary (`markdownDescription`, `doNotSuggest`), which validators ignore.
fn inert(key: &str) -> bool {
    ANNOTATIONS.contains(&key) || !VOCABULARY.contains(&key)
}

/// Rewrites an `enum` without `type` whose values are of more than one kind besides `null`
/// (`["auto", 1, 2]`, which typify cannot type: it panics) to the `oneOf` of one typed `enum`
/// per kind that it means, in the copy of a schema the generator converts. The kinds are
/// disjoint, so exactly one branch holds each value; typify makes it an untagged enum. One of
/// integers only (and maybe `null`) gets the `"type": "integer"` it means, so it is an integer
/// type, not an `f64` that writes `2` back as `2.0`.
pub(crate) fn split_mixed_enums(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut split_mixed_enums);
    if object.keys().any(|k| k != "enum" && !inert(k)) {
        return;
    }
    let Some(Value::Array(values)) = object.get("enum") else {
        return;
    };
    let integral = values
        .iter()
        .filter_map(Value::as_number)
        .all(|n| n.is_i64() || n.is_u64());
    let kind = |value: &Value| match json_kind(value) {
        "integer" if !integral => "number",
        kind => kind,
    };
    let mut kinds: Vec<(&str, Vec<Value>)> = Vec::new();
    for value in values {
        match kinds.iter_mut().find(|(k, _)| *k == kind(value)) {
            Some((_, list)) => list.push(value.clone()),
            None => kinds.push((kind(value), vec![value.clone()])),
        }
    }
    let non_null: Vec<&str> = kinds
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| *k != "null")
        .collect();
    if non_null == ["integer"] {
        // typify reads an untyped number `enum` as `f64`, which writes `2` back as `2.0`.
        let null = kinds.len() > 1;
        object.insert(
            "type".into(),
            if null {
                json!(["integer", "null"])
            } else {
                json!("integer")
            },
        );
        return;
    }
    if non_null.len() < 2 {
        return;
    }
    let branches: Vec<Value> = kinds
        .into_iter()
        .map(|(kind, values)| match kind {
            "null" => json!({ "type": "null" }),
            _ => json!({ "type": kind, "enum": values }),
        })
        .collect();
    object.shift_remove("enum");
    object.insert("oneOf".into(), Value::Array(branches));
}

/// The JSON Schema type of `value`: `integer` for a number without a fraction, else its kind.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether `keyword` stays beside the `allOf` [`split_ref_siblings`] makes: annotations,
/// definitions, and the `unevaluated*` keywords, which see the members both branches evaluate.
fn stays_beside_ref(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword)
        || matches!(
            keyword,
            "$defs"
                | "definitions"
                | "$anchor"
                | "$dynamicAnchor"
                | "allOf"
                | "unevaluatedProperties"
                | "unevaluatedItems"
        )
}

/// Rewrites `{"$ref": R, "properties": ...}` (in the copy of a schema the generator converts)
/// to the `allOf` it means in 2020-12, where `$ref` applies in place beside its siblings:
/// `{"allOf": [{"$ref": R}, {"properties": ...}]}`. typify reads that by merging both into one
/// type; beside `properties` it would keep one of them and drop the other's members.
pub(crate) fn split_ref_siblings(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut split_ref_siblings);
    // Beside `type` alone, typify asserts the definition says the same `type` (a `type` that
    // does is dropped before this, see `drop_vacuous_ref_siblings`); merged, the two meet.
    let type_alone = || {
        let mut read = object
            .keys()
            .filter(|k| !stays_beside_ref(k) && *k != "$ref");
        read.next().is_some_and(|k| k == "type") && read.next().is_none()
    };
    if !object.contains_key("$ref") || !(object.contains_key("properties") || type_alone()) {
        return;
    }
    let Some(reference) = object.shift_remove("$ref") else {
        return;
    };
    let siblings: Vec<String> = object
        .keys()
        .filter(|k| !stays_beside_ref(k))
        .cloned()
        .collect();
    let mut rest = serde_json::Map::new();
    for keyword in siblings {
        if let Some(value) = object.shift_remove(&keyword) {
            rest.insert(keyword, value);
        }
    }
    let mut branches = vec![json!({ "$ref": reference }), Value::Object(rest)];
    if let Some(Value::Array(existing)) = object.shift_remove("allOf") {
        branches.extend(existing);
    }
    object.insert("allOf".into(), Value::Array(branches));
}

/// Whether a definition can be copied in place of a `$ref` to it by
/// [`inline_open_references`]: it says no kind of value (no `type`, `enum`, `const`), only
/// keywords for kinds of value and annotations, so nothing in it depends on where it stands
/// (no identifier, reference or applicator at its top).
pub(crate) fn open_keywords_only(schema: &Value) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };
    object.keys().any(|k| keyword_kind(k).is_some())
        && object
            .keys()
            .all(|k| keyword_kind(k).is_some() || ANNOTATIONS.contains(&k.as_str()))
}

/// Rewrites `{"$ref": R, ...}` where `R` is a definition [`open_keywords_only`] accepts
/// (`{"properties": ...}` without a `type`) into `{"allOf": [<R copied>], ...}`, which means
/// the same in 2020-12 (a `$ref` applies in place, like an `allOf` branch, and
/// `unevaluatedProperties` sees through both). `definition(R)` gives that definition.
///
/// `R`'s own type is an enum of its object type and every other kind of value; typify merged
/// that enum with the keywords beside the reference into a plain struct, which refused the
/// other kinds the schema accepts (`7` against `{"$ref": R, "unevaluatedProperties": false}`)
/// or, beside `"type": "object"`, dropped `R`'s members. Copied in, the schema is read like
/// any schema whose keywords sit in `allOf` branches. A plain reference (annotations,
/// identifiers or definitions beside it) stays: it is `R`'s type.
pub(crate) fn inline_open_references(
    schema: &mut Value,
    definition: &dyn Fn(&str) -> Option<Value>,
) {
    inline_open_references_within(schema, definition, &mut Vec::new());
}

/// [`inline_open_references`], inside the copies of the definitions `inlining` names: a
/// reference to one of them there stays as written, or a definition that references itself
/// would be copied forever.
fn inline_open_references_within(
    schema: &mut Value,
    definition: &dyn Fn(&str) -> Option<Value>,
    inlining: &mut Vec<String>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        inline_open_references_within(child, definition, inlining)
    });
    // Identifiers and definitions beside the reference constrain nothing.
    let beside = object.keys().any(|k| {
        k != "$ref" && !IDENTIFIERS.contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str())
    });
    let Some(reference) = object
        .get("$ref")
        .and_then(Value::as_str)
        .filter(|r| beside && !inlining.iter().any(|i| i == r))
        .map(str::to_string)
    else {
        return;
    };
    let Some(mut copy) = definition(&reference) else {
        return;
    };
    // The copy may hold references beside keywords too.
    inlining.push(reference);
    inline_open_references_within(&mut copy, definition, inlining);
    inlining.pop();
    object.shift_remove("$ref");
    match object.get_mut("allOf") {
        Some(Value::Array(branches)) => branches.push(copy),
        _ => {
            object.insert("allOf".into(), json!([copy]));
        }
    }
}

/// Drops what stands beside a `$ref` but cannot constrain a value the reference accepts:
/// keywords for kinds of value the definition's `type` excludes (`items` beside a reference to
/// an object), and a `type` that allows every kind the definition does. `kinds_of(reference)`
/// is the definition's [`declared_kinds`], if it has a `type`.
///
/// Renovate's configuration schema writes `{"type": "object", "$ref": "#", "items": ...}` for
/// each of its managers. typify merges a reference with keywords beside it by copying the
/// definition in, and the definition holds the same reference again: it never stopped (see
/// [`crate::recursion`]). Dropped, what is left is a reference, which typify names.
pub(crate) fn drop_vacuous_ref_siblings(
    schema: &mut Value,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        drop_vacuous_ref_siblings(child, kinds_of)
    });
    let Some(kinds) = object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(kinds_of)
    else {
        return;
    };
    object.retain(|keyword, value| match keyword.as_str() {
        "type" => !type_kinds(value).is_some_and(|allowed| kinds.is_subset(&allowed)),
        keyword => keyword_kind(keyword).is_none_or(|kind| constrains(&kinds, kind)),
    });
}

/// Whether `keyword` evaluates members or items in place: beside one, which members
/// `unevaluatedProperties` (or items `unevaluatedItems`) applies to depends on the instance.
pub(crate) fn in_place(keyword: &str) -> bool {
    IN_PLACE_APPLICATORS.contains(&keyword) || REFERENCES.contains(&keyword)
}

/// The references, which apply another schema to the same value, as in-place applicators do.
pub(crate) const REFERENCES: [&str; 3] = ["$ref", "$dynamicRef", "$recursiveRef"];

/// Rewrites `{"anyOf": A, "oneOf": O, ...}` to `{"allOf": [{"anyOf": A}, {"oneOf": O}], ...}`
/// in the copy of a schema the generator converts: typify asserts that a schema has one of the
/// two only, and panicked on such a schema. Both apply to the value in place, so as branches
/// of an `allOf` they mean the same, annotations included; typify merges them into one type.
pub(crate) fn separate_any_of_from_one_of(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut separate_any_of_from_one_of);
    if !(object.contains_key("anyOf") && object.contains_key("oneOf")) {
        return;
    }
    let mut branches = Vec::new();
    for keyword in ["anyOf", "oneOf"] {
        if let Some(branch) = object.shift_remove(keyword) {
            branches.push(json!({ keyword: branch }));
        }
    }
    match object.get_mut("allOf") {
        Some(Value::Array(all_of)) => all_of.extend(branches),
        _ => {
            object.insert("allOf".into(), Value::Array(branches));
        }
    }
}

/// At most this many branches come out of distributing one `oneOf`; past it the schema is left
/// to typify's own merge.
const MAX_DISTRIBUTED: usize = 64;

/// Rewrites every `oneOf` that typify would merge with keywords beside it, `{S, "oneOf": [B1,
/// .., Bn]}` (or `{S, "allOf": [A, .., {"oneOf": [..]}]}`), in the copy of a schema the
/// generator converts, to the `oneOf` of each branch joined with them: `{"oneOf": [{S,
/// "allOf": [A, .., B1]}, ..]}`. The two accept the same values: a value matches `S` and
/// exactly one `Bi` exactly when it matches exactly one `S ∧ Bi`. Keywords typify does not
/// merge (annotations, `$defs`) stay around the new `oneOf`.
///
/// typify joins each branch with the schema around it and with the `not` of every other
/// branch, and subtracts an object member by member, where ¬(P ∧ Q) is ¬P ∨ ¬Q: branches that
/// declare a shared member as `{}` (Drone CI's pipelines) each lose that member to `false`,
/// and a required one leaves the union without variants; subtracting an `anyOf` member from a
/// `$ref` one (Travis CI's `deployment`: one provider's `api_key` a reference to a secret,
/// another's an `anyOf` of that reference and an object) trips its assertion
/// `a.reference.is_none()`. The generator does this only for a schema typify's own merge fails
/// on or gives a type no value fits ([`crate::types`]), so that every other type stays as it
/// was. A branch that clearly holds no value once joined ([`holds_no_value`])
/// is left out, as typify leaves out a branch it cannot merge, so that it is not a variant
/// without values.
pub(crate) fn distribute_every_one_of(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut distribute_every_one_of);
    distribute_here(object);
}

/// Keywords that stay around the new `oneOf`: typify merges none of them.
pub(crate) fn stays_around(keyword: &str) -> bool {
    inert(keyword)
        || matches!(
            keyword,
            "$defs" | "definitions" | "$anchor" | "$dynamicAnchor" | "$id" | "$schema"
        )
}

/// Where the `oneOf` that typify would merge is: the schema's own, or the `allOf` branch at
/// this index that holds a `oneOf` alone.
#[derive(Clone, Copy)]
enum Union {
    Own,
    InAllOf(usize),
}

fn distribute_here(object: &mut serde_json::Map<String, Value>) {
    // `unevaluated*` would see other annotations in a branch of its own.
    if object.keys().any(|k| k.starts_with("unevaluated")) {
        return;
    }
    let is_union = |branch: &Value| {
        branch
            .as_object()
            .is_some_and(|b| b.contains_key("oneOf") && b.keys().all(|k| k == "oneOf" || inert(k)))
    };
    let all_of = match object.get("allOf") {
        Some(Value::Array(all_of)) => Some(all_of),
        Some(_) => return,
        None => None,
    };
    let union = if object.contains_key("oneOf") {
        Union::Own
    } else if let Some(at) = all_of.and_then(|a| a.iter().position(is_union)) {
        Union::InAllOf(at)
    } else {
        return;
    };
    let branches = match union {
        Union::Own => object.get("oneOf"),
        Union::InAllOf(at) => all_of.and_then(|a| a[at].get("oneOf")),
    };
    let Some(Value::Array(branches)) = branches else {
        return;
    };
    let beside: Vec<String> = object
        .keys()
        .filter(|k| !stays_around(k) && *k != "oneOf")
        .cloned()
        .collect();
    let merged_with_nothing = match union {
        Union::Own => beside.is_empty(),
        Union::InAllOf(_) => beside.len() == 1 && all_of.is_some_and(|a| a.len() == 1),
    };
    if merged_with_nothing || branches.len() > MAX_DISTRIBUTED {
        return;
    }
    let branches = branches.clone();
    let mut around = serde_json::Map::new();
    for keyword in beside {
        if let Some(value) = object.shift_remove(&keyword) {
            around.insert(keyword, value);
        }
    }
    match union {
        Union::Own => {
            object.shift_remove("oneOf");
        }
        Union::InAllOf(at) => {
            if let Some(Value::Array(all_of)) = around.get_mut("allOf") {
                all_of.remove(at);
            }
        }
    }
    let joined: Vec<serde_json::Map<String, Value>> = branches
        .into_iter()
        .map(|branch| {
            let mut joined = around.clone();
            match joined.get_mut("allOf") {
                Some(Value::Array(all_of)) => all_of.push(branch),
                _ => {
                    joined.insert("allOf".into(), Value::Array(vec![branch]));
                }
            }
            joined
        })
        .collect();
    let some_hold_values = joined.iter().any(|j| !holds_no_value(j));
    let one_of = joined
        .into_iter()
        .filter(|j| !some_hold_values || !holds_no_value(j))
        .map(|mut joined| {
            // Another `oneOf` among the `allOf` branches is distributed in turn.
            distribute_here(&mut joined);
            Value::Object(joined)
        })
        .collect();
    object.insert("oneOf".into(), Value::Array(one_of));
}

/// Whether `schema` clearly accepts no value, reading it and its inline `allOf` branches at
/// any depth (a reference says nothing here): a branch is `false`, their `type`s share no
/// kind, or an object is required to have a member that one of them closes out (closed
/// without declaring it, as `schema::closed_here` reads closed, or the member declared
/// `false`).
/// Never `true` for a schema that accepts a value.
fn holds_no_value(schema: &serde_json::Map<String, Value>) -> bool {
    fn parts<'a>(schema: &'a serde_json::Map<String, Value>, out: &mut Vec<&'a Value>) {
        if let Some(Value::Array(all_of)) = schema.get("allOf") {
            for branch in all_of {
                out.push(branch);
                if let Value::Object(branch) = branch {
                    parts(branch, out);
                }
            }
        }
    }
    let mut found = Vec::new();
    parts(schema, &mut found);
    if found.contains(&&Value::Bool(false)) {
        return true;
    }
    let objects: Vec<&serde_json::Map<String, Value>> = std::iter::once(schema)
        .chain(found.into_iter().filter_map(Value::as_object))
        .collect();
    let Some(kinds) = common_kinds(objects.iter().copied()) else {
        return false;
    };
    if kinds.is_empty() {
        return true;
    }
    if kinds.len() > 1 || !kinds.contains("object") {
        return false;
    }
    let required: BTreeSet<&str> = objects
        .iter()
        .filter_map(|part| part.get("required")?.as_array())
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    objects.iter().any(|part| {
        let properties = part.get("properties").and_then(Value::as_object);
        let closed = crate::schema::closed_here(part);
        required
            .iter()
            .any(|name| match properties.and_then(|p| p.get(*name)) {
                Some(member) => *member == Value::Bool(false),
                None => closed,
            })
    })
}

/// Settles the unions of objects (`oneOf`, `anyOf`) in the copy of a schema the generator
/// converts, so that their type gives every valid value back (`declared` gives a branch's
/// `properties`, through a `$ref`).
///
/// Some open inline object branches keep the members they do not declare in a map
/// (`additionalProperties: {}`, which means what absence does):
/// - beside a closed inline branch (`additionalProperties: false`): typify puts one
///   `deny_unknown_fields` on the whole enum when any variant has it, so an open variant
///   refused members its schema allows (`{"a": 1, "c": 2}` against `{a}` beside a closed
///   `{b}`); a variant with a map is read without it (`unions::best_fit_unions`);
/// - where it lacks a member a sibling declares. In an `anyOf` a value may match both
///   (`{"email": ..., "phone": ...}` against `{email}` and `{phone}`), and whichever variant
///   read it dropped the other's. In a `oneOf` the sibling's member may be there with a value
///   the sibling refuses (`{"c": [1]}` against `{a}` and `{c: integer}` matches `{a}` only);
///   dropped, the value would match both, and be invalid (a member the sibling requires
///   cannot do that, and is dropped as an open object's members are). Not where one member holds a
///   different constant in every branch: a value then matches one branch only, and typify
///   tags the enum by that member.
///
/// An `anyOf` (with no `oneOf` beside it) becomes a `oneOf` where typify's type for it would
/// not give every valid value back: where a branch leaves its kind open (no `type`, `$ref`,
/// `enum` or `const`), typify makes it a struct of optional flattened parts, which only objects
/// fit; where two branches declare a member of the same name, serde hands each member of that
/// struct to the first part that names it, so the second part missed it (`{"id": "a", "h": 2}`
/// against `{id, w}` and `{id, h}` came back as `{"id": "a"}`); and where a branch got a map,
/// which would also take the members of the parts after it. As a `oneOf` it is an untagged
/// enum with one variant per branch (an open branch typed as its kind or any other kind of
/// value, see `types::untyped`), read by the variant that declares most of the value's members
/// (`unions::best_fit_unions`). Every value valid for the `anyOf` is valid for a branch, so
/// one of the variants holds it. Validation still reads the `anyOf`. A branch that only
/// refers to a definition leaving its kind open (`open_ref`) is open too: typify made
/// `anyOf: [{"$ref": "#/$defs/anything"}, {"type": "string"}]` such a struct, which refused
/// every string. Two branches of one kind make it a `oneOf` too (`kinds_of` gives the kinds
/// of a definition a `$ref` names), see [`overlapping_kinds`].
pub(crate) fn settle_object_unions(
    schema: &mut Value,
    declared: &dyn Fn(&Value) -> Option<serde_json::Map<String, Value>>,
    open_ref: &dyn Fn(&str) -> bool,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        settle_object_unions(child, declared, open_ref, kinds_of)
    });
    let one_of = object.contains_key("oneOf");
    let of_objects = object.get("type").is_some_and(|t| t == "object");
    let Some(Value::Array(branches)) = object.get_mut(if one_of { "oneOf" } else { "anyOf" })
    else {
        return;
    };
    // An inline object branch without `properties` declares no member (`{"required": [..]}`).
    let members: Vec<Option<serde_json::Map<String, Value>>> = branches
        .iter()
        .map(|b| declared(b).or_else(|| inline_object(b, of_objects).then(Default::default)))
        .collect();
    let sets: Vec<Option<BTreeSet<String>>> = members
        .iter()
        .map(|m| m.as_ref().map(|m| m.keys().cloned().collect()))
        .collect();
    let all: Option<Vec<serde_json::Map<String, Value>>> = members.into_iter().collect();
    let tagged = all.is_some_and(|all| tagged(&all));
    // What a `oneOf` branch requires (nothing known through a `$ref`): a member a sibling
    // requires cannot make that sibling match once dropped, so it need not be kept.
    let required: Vec<BTreeSet<String>> = branches
        .iter()
        .map(|b| match one_of {
            true => required_names(Some(b)).into_iter().collect(),
            false => BTreeSet::new(),
        })
        .collect();
    let keep: Vec<bool> = beside_closed(branches, of_objects)
        .into_iter()
        .zip(branches.iter().zip(&sets))
        .enumerate()
        .map(|(i, (beside, (branch, own)))| {
            let lacks = |(j, set): (usize, &Option<BTreeSet<String>>)| {
                j != i
                    && set.as_ref().zip(own.as_ref()).is_some_and(|(s, o)| {
                        s.iter().any(|m| !o.contains(m) && !required[j].contains(m))
                    })
            };
            beside
                || !tagged
                    && open_inline_object(branch, of_objects)
                    && sets.iter().enumerate().any(lacks)
        })
        .collect();
    if one_of {
        keep_other_members(branches, &keep);
        return;
    }
    if !share_a_member(&sets)
        && !keep.contains(&true)
        && !branches
            .iter()
            .any(|branch| open_branch(branch) || plain_reference(branch).is_some_and(open_ref))
        && !overlapping_kinds(branches, kinds_of)
    {
        return;
    }
    keep_other_members(branches, &keep);
    let branches = object.shift_remove("anyOf").expect("an `anyOf`");
    object.insert("oneOf".into(), branches);
}

/// Whether two of `branches` accept values of one kind where not every branch is an object
/// schema: typify takes branches it cannot tell apart for parts of a struct, flattened, which
/// only objects fit. Travis' `step` (`anyOf: [{"enum": ["skip"]}, {"type": "string"},
/// {"type": "array", ...}]`) became such a struct, and refused every array and string.
/// A branch whose kinds are not known (a `$ref` to a definition without `type`) is left out:
/// two that say theirs and overlap are enough (`[{"type": "integer"}, {"$ref": <an integer>},
/// {"$ref": <anything>}]` was such a struct, which refused every integer).
fn overlapping_kinds(
    branches: &[Value],
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) -> bool {
    let kinds: Vec<BTreeSet<String>> = branches
        .iter()
        .filter_map(|branch| {
            if let Some(reference) = plain_reference(branch) {
                return kinds_of(reference);
            }
            let branch = branch.as_object()?;
            if let Some(kinds) = declared_kinds(branch) {
                return Some(kinds);
            }
            let values = branch.get("enum")?.as_array()?;
            Some(values.iter().map(|v| json_kind(v).to_string()).collect())
        })
        .collect();
    if kinds.iter().all(|k| k.iter().all(|kind| kind == "object")) {
        return false;
    }
    kinds
        .iter()
        .enumerate()
        .any(|(i, a)| kinds[i + 1..].iter().any(|b| !a.is_disjoint(b)))
}

/// A branch that is an object schema of its own (not a `$ref`). Beside `"type": "object"`
/// (`of_objects`), a branch that names no kind is one too: typify merges the kind into it.
fn inline_object(branch: &Value, of_objects: bool) -> bool {
    let Value::Object(branch) = branch else {
        return false;
    };
    let names_no_kind = || {
        ["type", "enum", "const"]
            .iter()
            .all(|k| !branch.contains_key(*k))
    };
    !branch.contains_key("$ref")
        && (branch.get("type").is_some_and(|t| t == "object")
            || branch.contains_key("properties")
            || of_objects && names_no_kind())
}

/// An inline object branch that allows members it does not declare.
fn open_inline_object(branch: &Value, of_objects: bool) -> bool {
    inline_object(branch, of_objects)
        && branch
            .get("additionalProperties")
            .is_none_or(|rest| *rest == json!(true))
}

/// Which of `branches` are open inline objects beside a closed inline one.
fn beside_closed(branches: &[Value], of_objects: bool) -> Vec<bool> {
    let closed = branches.iter().any(|b| {
        inline_object(b, of_objects) && b.get("additionalProperties") == Some(&json!(false))
    });
    branches
        .iter()
        .map(|b| closed && open_inline_object(b, of_objects))
        .collect()
}

/// Gives the branches marked in `keep` a map for the members they do not declare.
fn keep_other_members(branches: &mut [Value], keep: &[bool]) {
    for (branch, keep) in branches.iter_mut().zip(keep) {
        if *keep && let Value::Object(branch) = branch {
            branch.insert("additionalProperties".into(), json!({}));
        }
    }
}

/// Whether two of the member sets declare a member of the same name.
fn share_a_member(sets: &[Option<BTreeSet<String>>]) -> bool {
    let mut names = BTreeSet::new();
    sets.iter().flatten().any(|members| {
        let shared = members.iter().any(|name| names.contains(name));
        names.extend(members.iter().cloned());
        shared
    })
}

/// Rewrites `unevaluatedProperties` and `unevaluatedItems` (in the copy of a schema the
/// generator converts) where they mean the same as `additionalProperties` and `items`, which
/// typify reads: beside no in-place applicator, the members left unevaluated are exactly those
/// `properties` and `patternProperties` do not name, and the items left are those past
/// `prefixItems` (unless `contains` evaluates some of them too, which depends on their
/// values). Beside `additionalProperties` (or `items`), nothing is left for them to apply to.
///
/// Beside an in-place applicator, which members are left depends on the instance: there an
/// `unevaluatedProperties` schema other than `true` and `false` (members the applicators do
/// not declare are valid if they match it) keeps them in a map of any value
/// (`additionalProperties: {}`), beside the declared members, never dropped; validation
/// checks them. `false` leaves no member to keep, and `true` is read as a plain open object.
pub(crate) fn settle_unevaluated(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut settle_unevaluated);
    if object.keys().any(|k| in_place(k)) {
        // Beside `anyOf`, `false` keeps the members of every branch that matched, and typify
        // makes a variant per branch: the first that reads the value would drop the others'.
        let open_rest = |rest: &Value| {
            rest.is_object() && *rest != json!({})
                || *rest == json!(false) && object.contains_key("anyOf")
        };
        if object.get("unevaluatedProperties").is_some_and(open_rest)
            && !object.contains_key("additionalProperties")
        {
            object.shift_remove("unevaluatedProperties");
            object.insert("additionalProperties".into(), json!({}));
        }
        return;
    }
    if let Some(rest) = object.shift_remove("unevaluatedProperties")
        && !object.contains_key("additionalProperties")
    {
        object.insert("additionalProperties".into(), rest);
    }
    if !object.contains_key("contains")
        && let Some(rest) = object.shift_remove("unevaluatedItems")
        && !object.contains_key("items")
    {
        object.insert("items".into(), rest);
    }
}

/// Marks every `prefixItems` array of variable length that [`prefix_items_refusal`] accepts
/// and that has `"type": "array"` (in the copy of a schema the generator converts) for
/// [`finish_tuples`], which makes it the runtime's `PrefixN<..., R>`: one `Option` per
/// position, in order, and the items past the prefix in a `Vec<R>`, `R` typed by `items` (any
/// value without it, none when it is `false`). That holds every valid array exactly, a shorter
/// one included; `minItems` and the like stay with validation.
///
/// The schemas stay where they are until then, so references in them are found and renamed
/// like any other. typify converts type parameters without a name to derive nested type
/// names from, so each position is marked with the path its name takes after its parent's.
/// The same walk names the members of union branches that typify would name alike
/// ([`name_members_apart`]).
pub(crate) fn open_tuples(schema: &mut Value) {
    open_tuples_at(schema, "", "");
}

/// On a `prefixItems` array [`finish_tuples`] converts.
const PREFIX_MARKER: &str = "x-schemcp-prefix";
/// On a position (or the `items` past them): the name its type takes after its parent's.
pub(crate) const POSITION_MARKER: &str = "x-schemcp-position";

/// Marks, for [`finish_tuples`], the members that two branches of one `anyOf`/`oneOf`
/// declare under one name with different schemas, each with a path of its own (`path`, named
/// as typify names what it passes: `allOf` branches add nothing since typify merges them into
/// their holder, `items` add `Item`, a union's branches `Variant{i}` and the one beside `null`
/// nothing; then `Variant{i}` and the member's name, as typify names the types of numbered
/// variants; see
/// [`crate::union_names`] for the names they end with). typify names a member's type after
/// the union and the member (`x` of either variant of `Root` is `RootX`), and where a name
/// repeats it silently reuses the type it made first: `{"kind": "p", "x": {"m": "hi"}}` came
/// back as `{"kind": "p", "x": {}}`, read with the other branch's `x`.
fn name_members_apart(branches: &mut [Value], path: &str) {
    let mut seen: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for branch in branches.iter() {
        let members = branch.get("properties").and_then(Value::as_object);
        for (name, member) in members.into_iter().flatten() {
            let schemas = seen.entry(name.clone()).or_default();
            if !schemas.iter().any(|s| json_equal(s, member)) {
                schemas.push(member.clone());
            }
        }
    }
    for (i, branch) in branches.iter_mut().enumerate() {
        let Some(Value::Object(members)) = branch.get_mut("properties") else {
            continue;
        };
        for (name, member) in members.iter_mut() {
            if seen.get(name).is_none_or(|schemas| schemas.len() < 2) {
                continue;
            }
            if let Some(member) = option_part(member)
                && !["title", "$ref", POSITION_MARKER]
                    .iter()
                    .any(|k| member.contains_key(*k))
            {
                let name = format!("{path}Variant{i}{}", pascal(name));
                member.insert(POSITION_MARKER.into(), Value::String(name));
            }
        }
    }
}

fn open_tuples_at(schema: &mut Value, path: &str, merged: &str) {
    let Value::Object(object) = schema else {
        return;
    };
    // A union typify types as `Option<X>` names `X` as it would have named the union.
    let option = option_branch(object).map(|(keyword, _)| keyword);
    for (keyword, value) in object.iter_mut() {
        match (children(keyword), value) {
            (Some(Children::Named), Value::Object(map)) => {
                for (name, child) in map.iter_mut() {
                    let name = pascal(name);
                    open_tuples_at(child, &format!("{path}{name}"), &format!("{merged}{name}"));
                }
            }
            (Some(Children::One | Children::List), Value::Array(list)) => {
                for (i, child) in list.iter_mut().enumerate() {
                    let at = format!("{}{i}", pascal(keyword));
                    // typify merges `allOf` branches into the type of their holder, and names
                    // a union's branches `Variant{i}`.
                    let merged = match keyword.as_str() {
                        "allOf" => merged.to_string(),
                        _ if option == Some(keyword.as_str()) => merged.to_string(),
                        "anyOf" | "oneOf" => format!("{merged}Variant{i}"),
                        _ => format!("{merged}{at}"),
                    };
                    open_tuples_at(child, &format!("{path}{at}"), &merged);
                }
            }
            (Some(Children::One), child) => {
                let at = pascal(keyword);
                // typify names an array's items `{Holder}Item`.
                let named = if keyword == "items" { "Item" } else { &at };
                open_tuples_at(child, &format!("{path}{at}"), &format!("{merged}{named}"))
            }
            _ => {}
        }
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = object.get_mut(keyword) {
            for branch in branches.iter_mut().filter_map(Value::as_object_mut) {
                if let Some(Value::String(suffix)) = branch.shift_remove(SUFFIX_MARKER) {
                    branch.insert(POSITION_MARKER.into(), json!(format!("{path}{suffix}")));
                }
            }
            name_members_apart(branches, merged);
        }
    }
    if !object.contains_key("prefixItems")
        || object.get("type") != Some(&json!("array"))
        || prefix_items_refusal(object).is_some()
    {
        return;
    }
    if let Some(Value::Array(prefix)) = object.get_mut("prefixItems") {
        for (i, position) in prefix.iter_mut().enumerate() {
            mark_position(position, format!("{path}Position{i}"));
        }
    }
    if let Some(items) = object.get_mut("items") {
        mark_position(items, format!("{path}Item"));
    }
    object.insert(PREFIX_MARKER.into(), Value::Bool(true));
}

/// Marks a position of a `prefixItems` array (or the `items` past them) with the name its type
/// takes, for [`finish_tuples`].
fn mark_position(schema: &mut Value, name: String) {
    // typify reads `anyOf: [X, {"type": "null"}]` as `Option<X>`, and names `X`, not the
    // `Option`: titled on the `anyOf`, an `X` that needs a name of its own (a checked
    // string) had none, and typify panicked. So it did where its rule for such a union is
    // wider than `[X, {"type": "null"}]` alone (a `description` beside, a `null` branch
    // with a `title` or written `"const": null`).
    let Some(object) = option_part(schema) else {
        return;
    };
    if object.contains_key("title") || object.contains_key("$ref") {
        return;
    }
    // typify names what it makes of a position after the title, but not what it derives from
    // a map (its keys and values) or from the values of an `enum` without `type`: in a
    // position those had no name, and typify panicked.
    let map = !object.contains_key("properties")
        && object.get("type").is_none_or(|kind| kind == "object");
    if map
        && checked_key_map(object)
        && let Some(Value::Object(patterns)) = object.shift_remove("patternProperties")
        && let Some((_, values)) = patterns.into_iter().next()
    {
        // Every member of a valid value matches the one pattern, so the map of its schema
        // holds every valid value; validation checks the keys.
        object.insert("additionalProperties".into(), values);
    }
    if map
        && !object.contains_key("patternProperties")
        && let Some(values) = object.get_mut("additionalProperties")
    {
        mark_position(values, format!("{name}Value"));
    }
    type_enum_of_one_kind(object);
    object.insert(POSITION_MARKER.into(), Value::String(name));
}

/// Gives an `enum` of values of one kind without `type` its `type`: typify names what it makes
/// of such an `enum` after its place, not after its `title` (an object or array one in a tuple
/// position had no name, and typify panicked; one named by [`POSITION_MARKER`] took the name
/// of its holder).
pub(crate) fn type_enum_of_one_kind(object: &mut serde_json::Map<String, Value>) {
    if object.contains_key("type") {
        return;
    }
    let Some(Value::Array(values)) = object.get("enum") else {
        return;
    };
    let kinds = kinds_of(values);
    if kinds.len() == 1 {
        set_type(object, kinds);
    }
}

/// `schema`, or for a union typify types as `Option<X>`, `X` (through nested ones): typify names
/// `X` as it would have named the union, whose own `title` it does not read. That is an
/// `anyOf` or `oneOf` beside annotations only, of one schema and schemas only `null` passes
/// (`"type": "null"`, `"const": null`, an `enum` of `null`s), as typify tells them.
pub(crate) fn option_part(schema: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    let Value::Object(object) = schema else {
        return None;
    };
    let Some((keyword, one)) = option_branch(object) else {
        return Some(object);
    };
    match object.get_mut(keyword) {
        Some(Value::Array(branches)) => option_part(&mut branches[one]),
        _ => unreachable!("option_branch found it"),
    }
}

/// Where the `X` of a union typify types as `Option<X>` stands in `object` (see
/// [`option_part`]): the union's keyword and `X`'s index; `None` for any other schema.
fn option_branch(object: &serde_json::Map<String, Value>) -> Option<(&'static str, usize)> {
    let mut unions = ["anyOf", "oneOf"]
        .into_iter()
        .filter(|k| object.contains_key(*k));
    let (Some(keyword), None) = (unions.next(), unions.next()) else {
        return None;
    };
    let beside_annotations = object
        .keys()
        .all(|k| k == keyword || ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-"));
    let Some(Value::Array(branches)) = object.get(keyword) else {
        return None;
    };
    let mut others = branches.iter().enumerate().filter(|(_, b)| !only_null(b));
    match (others.next(), others.next()) {
        (Some((one, _)), None) if branches.len() > 1 && beside_annotations => Some((keyword, one)),
        _ => None,
    }
}

/// Whether typify reads `schema` as admitting only `null`.
fn only_null(schema: &Value) -> bool {
    let null = Value::String("null".into());
    match schema {
        Value::Object(object) => {
            match (object.get("type"), object.get("const"), object.get("enum")) {
                (Some(Value::String(kind)), _, _) => kind == "null",
                (Some(Value::Array(kinds)), _, _) => kinds.iter().all(|k| *k == null),
                (None, Some(value), _) => value.is_null(),
                (None, None, Some(Value::Array(values))) => values.iter().all(Value::is_null),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Makes every schema that is a `$ref` to the whole 2020-12 metaschema, beside annotations
/// or a `type` only, the runtime's `JsonSchema` (an object or a boolean). The metaschema is
/// built into the validator, so the contract loader leaves the reference as written and the
/// served schema keeps it; validating against it rejects the objects that are no schema.
/// typify would have to type the metaschema itself, which is made of `$dynamicRef`s.
///
/// Not where it would be merged: an `allOf` branch, an `anyOf`/`oneOf` branch beside keywords
/// that are distributed into the branches, or a definition some reference merges (from such a
/// place, or with keywords beside it). A `JsonSchema` merged adds no field, so what the rest
/// declares would be dropped from every value; left as written, that reference is refused (or,
/// with the opt-in, degraded with everything that merges it).
pub(crate) fn metaschema_as_runtime_type(object: &mut serde_json::Map<String, Value>) {
    let mut root = Value::Object(std::mem::take(object));
    // The references that merge what they name (by the reference as written), and the
    // metaschema references that stand alone.
    let mut merged = BTreeSet::new();
    let mut alone = Vec::new();
    for_each_subschema(&root, "", false, &mut |schema, pointer| {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
            return;
        };
        if merging_holder(&root, "", pointer).is_some() || !only_beside_metaschema_ref(schema) {
            merged.insert(reference.to_string());
        } else if schemcp_contract::names_metaschema(reference) {
            alone.push(pointer.to_string());
        }
    });
    for pointer in alone {
        let definition = pointer
            .rsplit_once('/')
            .is_some_and(|(parent, _)| parent == "/$defs" || parent == "/definitions");
        if definition && merged.contains(&format!("#{}", uri_fragment(&pointer))) {
            continue;
        }
        if let Some(Value::Object(schema)) = root.pointer_mut(&pointer) {
            schema.shift_remove("$ref");
            schema.shift_remove("type");
            if let Value::Object(typed) = runtime_type("JsonSchema", Vec::new()) {
                schema.extend(typed);
            }
        }
    }
    if let Value::Object(root) = root {
        *object = root;
    }
}

/// Keys a `$ref` to the metaschema may have beside it and still be `JsonSchema`. The root's
/// definitions and identifiers are taken apart before typing; a `type` only narrows which of
/// the two kinds the metaschema allows, and validation enforces it.
fn only_beside_metaschema_ref(schema: &serde_json::Map<String, Value>) -> bool {
    schema.keys().all(|k| {
        ANNOTATIONS.contains(&k.as_str())
            || matches!(
                k.as_str(),
                "$ref" | "type" | "$schema" | "$id" | "$defs" | "definitions"
            )
    })
}

/// Whether the branches under `keyword` of `holder` are merged with something: every `allOf`
/// branch, and `anyOf`/`oneOf` branches where the holder has keywords that are distributed
/// into them.
fn branches_merge(holder: &serde_json::Map<String, Value>, keyword: &str) -> bool {
    match keyword {
        "allOf" => true,
        "anyOf" | "oneOf" => holder.keys().any(|k| {
            !(ANNOTATIONS.contains(&k.as_str())
                || matches!(
                    k.as_str(),
                    "anyOf" | "oneOf" | "type" | "$schema" | "$id" | "$defs" | "definitions"
                ))
        }),
        _ => false,
    }
}

/// The pointer of the schema that merges the branch at `pointer` (of `schema`, which stands at
/// `base`) with what stands around it, if it does (see [`branches_merge`]).
pub(crate) fn merging_holder<'p>(schema: &Value, base: &str, pointer: &'p str) -> Option<&'p str> {
    let (rest, index) = pointer.rsplit_once('/')?;
    let (holder, keyword) = rest.rsplit_once('/')?;
    index.parse::<usize>().ok()?;
    let object = schema.pointer(holder.strip_prefix(base)?)?.as_object()?;
    branches_merge(object, keyword).then_some(holder)
}

/// typify's `x-rust-type` for `schemcp_runtime::{path}<parameters...>`.
pub(crate) fn runtime_type(path: &str, parameters: Vec<Value>) -> Value {
    json!({ "x-rust-type": {
        "crate": "schemcp-runtime",
        "version": "*",
        "path": format!("schemcp_runtime::{path}"),
        "parameters": parameters,
    }})
}

/// Marks a branch of an applicator to be titled, by [`finish_tuples`], with the name of the
/// type its parent schema becomes followed by `suffix`: typify then names the branch's
/// variant `suffix` (it drops the common prefix of variant titles) and its type after it.
pub(crate) fn name_after_parent(branch: &mut Value, suffix: &str) {
    if let Value::Object(object) = branch {
        object.insert(SUFFIX_MARKER.into(), json!(suffix));
    }
}

/// On a branch [`name_after_parent`] marked: the suffix of its name.
const SUFFIX_MARKER: &str = "x-schemcp-suffix";

/// Converts what [`open_tuples`] marked, in the schema typify is given for a type named
/// `base`: each marked position is titled `base` followed by its path (the name typify would
/// have derived from its parent), and each marked array becomes typify's `x-rust-type` for
/// the runtime's `PrefixN`.
pub(crate) fn finish_tuples(schema: &mut Value, base: &str) {
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(Value::String(path)) = object.shift_remove(POSITION_MARKER) {
        object.insert("title".into(), Value::String(format!("{base}{path}")));
    }
    for_each_child_mut(object, &mut |child| finish_tuples(child, base));
    if object.shift_remove(PREFIX_MARKER).is_none() {
        return;
    }
    let rust_type =
        |path: &str, parameters| runtime_type(&format!("prefix_items::{path}"), parameters);
    let parameter = |schema: Value| match schema {
        // `false` admits no value; typify would make it an empty enum that needs a name.
        Value::Bool(false) => rust_type("NoValue", Vec::new()),
        Value::Bool(true) => json!({}),
        other => other,
    };
    let Some(Value::Array(prefix)) = object.shift_remove("prefixItems") else {
        unreachable!("open_tuples marks arrays with `prefixItems`")
    };
    let n = prefix.len();
    let mut parameters: Vec<Value> = prefix.into_iter().map(parameter).collect();
    parameters.push(parameter(object.shift_remove("items").unwrap_or(json!({}))));
    let mut replacement = rust_type(&format!("Prefix{n}"), parameters);
    // typify reads the `x-rust-type` alone, but classifies a union's branches by `type`: one
    // without it counted as an object, and `anyOf: [<tuple>, {"type": "boolean"}]` became a
    // struct of flattened parts that refused every array and boolean.
    replacement["type"] = json!("array");
    for keyword in ["title", "description"] {
        if let Some(value) = object.shift_remove(keyword) {
            replacement[keyword] = value;
        }
    }
    *schema = replacement;
}

/// A schema that may be `null` becomes `Option<T>` in typify, with `T` named after the schema
/// itself: as the root of a tool's schema, whose type is then an alias of that name, the alias
/// and `T` would collide (for a definition, see [`split_nullable_definition`]). The root is
/// rewritten to the `anyOf` of its non-null part, titled
/// `{name}Value`, and `null`, which typify types as `Option<{name}Value>`. Handled: a `type`
/// list with `"null"` beside keywords that `null` passes anyway, an `enum` listing `null`, and
/// an `anyOf`/`oneOf` typify reads as `Option<X>` ([`option_part`]).
pub(crate) fn name_nullable_root(object: &mut serde_json::Map<String, Value>, name: &str) {
    // Keywords a `null` does not pass by default (`enum`, `const` and the in-place
    // applicators): moving them off the `null` branch would change what it accepts.
    let not_for_null = |k: &str| k == "enum" || k == "const" || in_place(k);
    let inner_name = Value::String(format!("{name}Value"));
    let null_branch = json!({ "type": "null" });
    // The union as typify reads it (`option_branch`): a `null` branch with a `title` or
    // written `"const": null` is one too, and left untitled its `X` took the root's name.
    if let Some((keyword, one)) = option_branch(object) {
        if let Some(Value::Array(branches)) = object.get_mut(keyword)
            && let Some(other) = option_part(&mut branches[one])
            && !other.contains_key("title")
            && !other.contains_key("$ref")
        {
            other.insert("title".into(), inner_name);
        }
        return;
    }
    if let Some(Value::Array(values)) = object.get("enum") {
        if !values.contains(&Value::Null)
            || object
                .keys()
                .any(|k| !ANNOTATIONS.contains(&k.as_str()) && k != "type" && k != "enum")
        {
            return;
        }
        let values: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        let listed = non_null_kinds(object.shift_remove("type"));
        // Without a `type`, the values say it (the enum admits nothing else); typify needs it
        // to name the inner type rather than the whole.
        let kinds = if listed.is_empty() {
            kinds_of(&values)
        } else {
            listed
        };
        object.shift_remove("enum");
        let mut inner = serde_json::Map::new();
        inner.insert("title".into(), inner_name);
        set_type(&mut inner, kinds);
        inner.insert("enum".into(), Value::Array(values));
        object.insert("anyOf".into(), json!([Value::Object(inner), null_branch]));
        return;
    }
    let nullable_list = matches!(object.get("type"), Some(Value::Array(kinds)) if kinds.contains(&json!("null")) && kinds.len() > 1);
    if !nullable_list || object.keys().any(|k| not_for_null(k)) {
        return;
    }
    let kinds = non_null_kinds(object.shift_remove("type"));
    let moved: Vec<String> = object
        .keys()
        .filter(|k| !ANNOTATIONS.contains(&k.as_str()))
        .cloned()
        .collect();
    let mut inner = serde_json::Map::new();
    inner.insert("title".into(), inner_name);
    set_type(&mut inner, kinds);
    for keyword in moved {
        if let Some(value) = object.shift_remove(&keyword) {
            inner.insert(keyword, value);
        }
    }
    object.insert("anyOf".into(), json!([Value::Object(inner), null_branch]));
}

/// Splits a `$defs` entry that may be `null` (in the shapes [`name_nullable_root`] handles) into
/// the `anyOf` of a `$ref` to its non-null part and `null`, returning that part and the key
/// `key_for("Value")` gives it, to become a definition of its own, and where that part is in
/// the definition (a JSON pointer relative to it). typify makes a nullable
/// definition `struct D(Option<T>)` and names `T` after the definition whatever its title, so
/// the two would collide; as a definition `T` is named by its key (`DValue`).
pub(crate) fn split_nullable_definition(
    schema: &mut Value,
    key_for: impl FnOnce(&str) -> String,
) -> Option<(String, Value, String)> {
    const MARK: &str = "x-schemcp-nullable";
    let Value::Object(object) = schema else {
        return None;
    };
    // A branch of the definition's own `anyOf`/`oneOf` keeps its place; otherwise the part
    // is made of the definition's keywords.
    let had_branches = object.contains_key("anyOf") || object.contains_key("oneOf");
    let mut marked = object.clone();
    name_nullable_root(&mut marked, MARK);
    let mark = Value::String(format!("{MARK}Value"));
    let (keyword, index) = ["anyOf", "oneOf"].iter().find_map(|keyword| {
        let branches = marked.get(*keyword)?.as_array()?;
        let index = branches
            .iter()
            .position(|b| b.get("title") == Some(&mark))?;
        Some((*keyword, index))
    })?;
    let Some(Value::Object(branch)) = marked
        .get_mut(keyword)
        .and_then(Value::as_array_mut)
        .and_then(|branches| branches.get_mut(index))
    else {
        unreachable!("found above")
    };
    // A native type inside (`Option<String>`, `Option<Vec<T>>`, `Option<NaiveDate>`) has a name
    // of its own already; only what typify would name needs a definition.
    let named = |value: &serde_json::Map<String, Value>| {
        const NAMED: [&str; 10] = [
            "properties",
            "required",
            "enum",
            "const",
            "allOf",
            "anyOf",
            "oneOf",
            "minLength",
            "maxLength",
            "pattern",
        ];
        NAMED.iter().any(|k| value.contains_key(*k))
            || matches!(value.get("type"), Some(Value::Array(kinds)) if kinds.len() > 1)
    };
    if !named(branch) {
        return None;
    }
    let key = key_for("Value");
    let mut value = std::mem::take(branch);
    value.shift_remove("title");
    *branch = json!({ "$ref": format!("#/$defs/{}", escape(&key)) })
        .as_object()
        .cloned()
        .expect("an object");
    *object = marked;
    let at = if had_branches {
        format!("/{keyword}/{index}")
    } else {
        String::new()
    };
    Some((key, Value::Object(value), at))
}

/// The kinds a `type` lists, without `"null"`.
fn non_null_kinds(listed: Option<Value>) -> Vec<Value> {
    match listed {
        Some(Value::Array(kinds)) => kinds.into_iter().filter(|k| k != "null").collect(),
        Some(Value::String(kind)) if kind != "null" => vec![Value::String(kind)],
        _ => Vec::new(),
    }
}

/// The kinds of `values` (an integer and a fraction are both `number`).
fn kinds_of(values: &[Value]) -> Vec<Value> {
    let mut kinds: Vec<&str> = values.iter().map(json_kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    if kinds.contains(&"integer") && kinds.contains(&"number") {
        kinds.retain(|k| *k != "integer");
    }
    kinds.into_iter().map(|k| Value::String(k.into())).collect()
}

/// `type` as one kind or a list of them (none: no `type`).
fn set_type(object: &mut serde_json::Map<String, Value>, mut kinds: Vec<Value>) {
    match kinds.len() {
        0 => {}
        1 => {
            object.insert("type".into(), kinds.remove(0));
        }
        _ => {
            object.insert("type".into(), Value::Array(kinds));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn branches_of_values_fold_into_one_list() {
        let mut schema = json!({
            "description": "kept",
            "anyOf": [
                { "enum": ["a", "b"], "description": "first", "doNotSuggest": true },
                { "enum": ["b", "c"] }
            ]
        });
        fold_value_branches(&mut schema);
        assert_eq!(
            schema,
            json!({ "description": "kept", "enum": ["a", "b", "c"] })
        );
        // A value two `oneOf` branches list matches both: the `oneOf` refuses it.
        let mut schema = json!({ "oneOf": [
            { "type": "string", "enum": ["a", "b"] },
            { "type": "string", "enum": ["b", "c"] }
        ] });
        fold_value_branches(&mut schema);
        assert_eq!(schema, json!({ "type": "string", "enum": ["a", "c"] }));
        // `1` and `1.0` are one value to JSON Schema.
        let mut schema = json!({ "oneOf": [{ "enum": [1, [2.0]] }, { "enum": [1.0, 3] }] });
        fold_value_branches(&mut schema);
        assert_eq!(schema, json!({ "enum": [[2.0], 3] }));
        let mut schema = json!({ "anyOf": [{ "enum": [1, 2] }, { "enum": [1.0] }] });
        fold_value_branches(&mut schema);
        assert_eq!(schema, json!({ "enum": [1, 2] }));
        // Branches of other types, a keyword that narrows, or another `type` beside: as written.
        for written in [
            json!({ "anyOf": [{ "type": "string", "enum": ["a"] }, { "enum": [1] }] }),
            json!({ "anyOf": [{ "enum": ["a"], "minLength": 2 }, { "enum": ["b"] }] }),
            json!({ "type": "integer", "anyOf": [{ "type": "string", "enum": ["a"] }] }),
        ] {
            let mut schema = written.clone();
            fold_value_branches(&mut schema);
            assert_eq!(schema, written);
        }
    }

    #[test]
    fn keys_of_no_vocabulary_do_not_stop_a_mixed_enum_from_splitting() {
        // CircleCI's `version`: typify panicked on it, and the whole configuration became a
        // `serde_json::Value`.
        let mut schema = json!({ "enum": ["2.1", 2.1], "markdownDescription": "x" });
        split_mixed_enums(&mut schema);
        assert_eq!(
            schema,
            json!({
                "markdownDescription": "x",
                "oneOf": [
                    { "type": "string", "enum": ["2.1"] },
                    { "type": "number", "enum": [2.1] }
                ]
            })
        );
    }

    #[test]
    fn a_union_of_one_branch_is_that_branch_in_an_all_of() {
        let mut schema = json!({
            "properties": { "a": { "enum": ["x"] } },
            "allOf": [{ "required": ["a"] }],
            "oneOf": [{ "properties": { "a": { "type": "string" } }, "additionalProperties": false }],
            "anyOf": [{ "type": "object" }],
            "items": { "oneOf": [{ "type": "integer" }, { "type": "string" }] },
            "$defs": {
                "n": { "anyOf": [{ "type": "number" }] },
                "t": { "title": "T", "oneOf": [{ "type": "string", "minLength": 2 }] },
                "r": { "title": "R", "oneOf": [{ "$ref": "#/$defs/n" }] },
                "d": { "title": "D", "allOf": [{ "title": "Inner" }] }
            }
        });
        single_branches_as_all_of(&mut schema);
        assert_eq!(
            schema,
            json!({
                "properties": { "a": { "enum": ["x"] } },
                "allOf": [
                    { "required": ["a"] },
                    { "type": "object" },
                    { "properties": { "a": { "type": "string" } }, "additionalProperties": false }
                ],
                "items": { "oneOf": [{ "type": "integer" }, { "type": "string" }] },
                // A schema that is one inline branch and annotations is that branch.
                "$defs": {
                    "n": { "type": "number" },
                    "t": { "type": "string", "minLength": 2, "title": "T" },
                    "r": { "title": "R", "allOf": [{ "$ref": "#/$defs/n" }] },
                    "d": { "title": "D", "allOf": [{ "title": "Inner" }] }
                }
            })
        );
    }

    #[test]
    fn a_branch_member_the_schema_around_rules_out_is_left_to_the_schema_around() {
        let branches = json!([
            {
                "properties": {
                    "id": { "type": "integer" },
                    "kind": { "type": "string" },
                    "note": false,
                    "mode": { "type": "integer" },
                    "must": { "type": "integer" },
                    "size": { "type": "number" }
                },
                "required": ["must"]
            },
            { "properties": { "id": { "type": "string" } } }
        ]);
        let around = json!({
            "id": { "type": ["string", "null"] },
            "kind": { "type": "string" },
            "note": { "type": "string" },
            "mode": { "enum": ["fast", "slow"] },
            "must": { "type": "string" },
            "size": { "enum": [1.0] }
        });
        let mut schema = json!({ "properties": around, "anyOf": branches });
        absent_unmeetable_members(&mut schema);
        // `id` and `mode` share no kind with the members around; `note` is `false`; `must` is
        // required, so the branch holds no value and stays so; `1.0` is an integer too.
        assert_eq!(
            schema["anyOf"][0]["properties"],
            json!({
                "kind": { "type": "string" },
                "must": { "type": "integer" },
                "size": { "type": "number" }
            })
        );
        assert_eq!(schema["anyOf"][1], branches[1]);
        // In an `allOf`, what the schema around and every branch declare of a member counts,
        // and a member no value can have is left out of the schema around too.
        let mut schema = json!({
            "properties": { "b": { "type": ["string", "null"] }, "c": {}, "d": {} },
            "allOf": [
                { "properties": { "b": { "type": "string" }, "c": { "type": "integer" }, "d": false } },
                { "properties": { "c": { "type": ["string", "null"] }, "d": {} }, "required": ["d"] }
            ],
            "anyOf": [{ "properties": { "b": { "type": "string" }, "c": { "type": "string" } } }]
        });
        absent_unmeetable_members(&mut schema);
        assert_eq!(
            schema,
            json!({
                "properties": { "b": { "type": ["string", "null"] }, "d": {} },
                "allOf": [
                    { "properties": { "b": { "type": "string" }, "d": false } },
                    { "properties": { "d": {} }, "required": ["d"] }
                ],
                "anyOf": [{ "properties": { "b": { "type": "string" } } }]
            })
        );
        // Beside a `oneOf`, or in one, nothing changes.        assert_eq!(schema["anyOf"][1], branches[1]);
        // Beside a `oneOf`, or in one, nothing changes.
        for mut schema in [
            json!({ "properties": around, "anyOf": branches, "oneOf": [{}] }),
            json!({ "properties": around, "oneOf": branches }),
        ] {
            let before = schema.clone();
            absent_unmeetable_members(&mut schema);
            assert_eq!(schema, before);
        }
    }

    #[test]
    fn a_branch_narrows_a_listed_member_to_the_values_it_accepts() {
        let mut schema = json!({
            "properties": { "task": { "enum": ["A@1", "A@2", "B@1"] } },
            "anyOf": [
                { "properties": { "task": { "pattern": "^A@", "description": "A" } } },
                { "properties": { "task": { "pattern": "^C@" } } },
                { "properties": { "task": { "type": "string" } } },
                { "properties": { "task": { "$ref": "#/$defs/t" } } }
            ]
        });
        narrow_listed_members(&mut schema);
        assert_eq!(
            schema["anyOf"],
            json!([
                { "properties": { "task": { "description": "A", "enum": ["A@1", "A@2"] } } },
                { "properties": { "task": { "enum": [] } } },
                { "properties": { "task": {} } },
                { "properties": { "task": { "$ref": "#/$defs/t" } } }
            ])
        );
    }

    #[test]
    fn what_a_reference_rules_out_beside_it_is_dropped() {
        let kinds_of = |reference: &str| match reference {
            "#/$defs/Config" => Some(BTreeSet::from(["object".to_string()])),
            "#/$defs/Count" => Some(BTreeSet::from(["integer".to_string()])),
            _ => None,
        };
        // Renovate's managers: `items` cannot constrain an object, and `type` says nothing new.
        let mut schema = json!({
            "type": "object", "$ref": "#/$defs/Config", "items": {}, "minLength": 1,
            "required": ["a"], "description": "d"
        });
        drop_vacuous_ref_siblings(&mut schema, &kinds_of);
        assert_eq!(
            schema,
            json!({ "$ref": "#/$defs/Config", "required": ["a"], "description": "d" })
        );
        // An integer is a number: `minimum` constrains it, and `number` allows every integer.
        let mut schema = json!({ "type": "number", "$ref": "#/$defs/Count", "minimum": 1 });
        drop_vacuous_ref_siblings(&mut schema, &kinds_of);
        assert_eq!(schema, json!({ "$ref": "#/$defs/Count", "minimum": 1 }));
        // A narrower `type`, or one beside a definition without `type`, stays, and is merged
        // with the reference (typify asserted the two were equal).
        for mut schema in [
            json!({ "type": "string", "$ref": "#/$defs/Config" }),
            json!({ "type": "object", "$ref": "#/$defs/Open" }),
        ] {
            let reference = schema["$ref"].clone();
            let kind = schema["type"].clone();
            drop_vacuous_ref_siblings(&mut schema, &kinds_of);
            split_ref_siblings(&mut schema);
            assert_eq!(
                schema,
                json!({ "allOf": [{ "$ref": reference }, { "type": kind }] })
            );
        }
    }

    #[test]
    fn array_narrowing_beside_prefix_items_is_left_to_validation() {
        let array_only = |reference: &str| reference == "#/$defs/Pair";
        let mut schema = json!({
            "prefixItems": [{"const": "foo"}],
            "oneOf": [{"prefixItems": [true, {"const": "bar"}]}, {"prefixItems": [true, {"const": "baz"}]}],
            "$ref": "#/$defs/Pair",
            "unevaluatedItems": false
        });
        drop_array_narrowing_beside_prefix(&mut schema, &array_only);
        // What the dropped keywords evaluated is kept: every item past the position.
        assert_eq!(
            schema,
            json!({"prefixItems": [{"const": "foo"}], "items": {}})
        );
        // A branch that says something of other kinds stays, and so does the holder's keyword.
        let mut kept = json!({
            "prefixItems": [{"type": "string"}],
            "oneOf": [{"prefixItems": [true]}, {"type": "object"}],
            "$ref": "#/$defs/Other",
            "unevaluatedItems": false
        });
        let before = kept.clone();
        drop_array_narrowing_beside_prefix(&mut kept, &array_only);
        assert_eq!(kept, before);
    }

    #[test]
    fn open_branches_beside_a_closed_one_keep_other_members() {
        let declared = |branch: &Value| branch.get("properties")?.as_object().cloned();
        let mut schema = json!({"anyOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}}},
            {"type": "object", "additionalProperties": false},
            {"$ref": "#/$defs/Shared"}
        ]});
        settle_object_unions(&mut schema, &declared, &|_| false, &|_| None);
        // An enum, not typify's struct of flattened parts, where the map would take all.
        assert_eq!(
            schema,
            json!({"oneOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": {}},
                {"type": "object", "additionalProperties": false},
                {"$ref": "#/$defs/Shared"}
            ]})
        );
        // A `oneOf` branch keeps a sibling's optional member, which decides whether the
        // sibling matches, not one the sibling requires.
        let mut one_of = json!({"oneOf": [
            {"type": "object", "properties": {"a": {"const": "x"}}},
            {"type": "object", "properties": {"c": {"type": "integer"}}},
            {"type": "object", "properties": {"d": {}}, "required": ["d"]}
        ]});
        settle_object_unions(&mut one_of, &declared, &|_| false, &|_| None);
        let kept: Vec<bool> = (0..3)
            .map(|i| one_of["oneOf"][i].get("additionalProperties").is_some())
            .collect();
        assert_eq!(kept, [true, true, true]);
        let mut required = json!({"oneOf": [
            {"type": "object", "properties": {"x": {}}, "required": ["x"]},
            {"type": "object", "properties": {"y": {}}, "required": ["y"]}
        ]});
        let before = required.clone();
        settle_object_unions(&mut required, &declared, &|_| false, &|_| None);
        assert_eq!(required, before);
    }

    #[test]
    fn prefix_positions_match_the_runtime() {
        assert_eq!(
            MAX_PREFIX_POSITIONS,
            schemcp_runtime::prefix_items::MAX_POSITIONS
        );
    }

    #[test]
    fn const_becomes_a_one_value_enum_unless_an_enum_stands_beside_it() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "version": { "type": "string", "const": "v1" },
                "scale": { "const": 2.0 },
                "origin": { "const": { "x": 0.0, "y": [1.5, -3.0] } },
                "both": { "enum": [1, 2], "const": 2 }
            }
        });
        const_as_enum(&mut schema);
        assert_eq!(
            schema["properties"],
            json!({
                "version": { "type": "string", "enum": ["v1"] },
                "scale": { "type": "integer", "enum": [2] },
                "origin": { "enum": [{ "x": 0, "y": [1.5, -3] }] },
                "both": { "enum": [1, 2], "const": 2 }
            })
        );
    }

    #[test]
    fn unevaluated_members_beside_an_applicator_are_kept_in_a_map() {
        let settle = |mut schema: Value| {
            settle_unevaluated(&mut schema);
            schema
        };
        let composed = |rest: Value| {
            json!({
                "type": "object",
                "allOf": [{ "$ref": "#/$defs/Base" }],
                "unevaluatedProperties": rest
            })
        };
        let kept = settle(composed(json!({ "type": "integer" })));
        assert_eq!(kept["additionalProperties"], json!({}));
        assert!(kept.get("unevaluatedProperties").is_none(), "{kept}");
        // `false` leaves nothing to keep and `true` is a plain open object: both as written.
        for rest in [json!(false), json!(true)] {
            assert_eq!(settle(composed(rest.clone())), composed(rest));
        }
        // Beside no applicator it is `additionalProperties` itself.
        assert_eq!(
            settle(json!({ "unevaluatedProperties": { "type": "integer" } })),
            json!({ "additionalProperties": { "type": "integer" } })
        );
    }

    #[test]
    fn unique_items_keep_the_members_their_objects_do_not_declare() {
        let keep = |mut schema: Value| {
            keep_counted_members(&mut schema);
            schema
        };
        let open = json!({ "properties": { "a": { "type": "integer" } } });
        let kept = json!({
            "properties": { "a": { "type": "integer" } },
            "additionalProperties": {}
        });
        assert_eq!(
            keep(json!({ "items": { "items": open }, "uniqueItems": true })),
            json!({ "items": { "items": kept }, "uniqueItems": true })
        );
        assert_eq!(
            keep(json!({ "prefixItems": [open, { "type": "string" }], "uniqueItems": true })),
            json!({ "prefixItems": [kept, { "type": "string" }], "uniqueItems": true })
        );
        // Without `uniqueItems`, or closed: as they were.
        let plain = json!({ "items": open });
        assert_eq!(keep(plain.clone()), plain);
        let closed = json!({
            "items": { "properties": {}, "additionalProperties": false },
            "uniqueItems": true
        });
        assert_eq!(keep(closed.clone()), closed);
    }

    #[test]
    fn loosened_one_of_branches_keep_what_they_may_match() {
        let mut repeated = json!({ "oneOf": [{ "type": "string" }, { "type": "string" }, {}] });
        drop_repeated_branches(&mut repeated, Branches::Loosened);
        assert_eq!(repeated, json!({ "oneOf": [{ "type": "string" }, {}] }));
        let mut as_written = json!({ "oneOf": [{ "type": "string" }, { "type": "string" }] });
        drop_repeated_branches(&mut as_written, Branches::AsWritten);
        assert_eq!(as_written, json!({ "oneOf": [false, false] }));
        for (reading, settled) in [
            (Branches::AsWritten, json!(false)),
            (Branches::Loosened, json!({})),
        ] {
            let mut trues = json!({ "oneOf": [{}, {}] });
            settle_boolean_branches(&mut trues, reading);
            assert_eq!(trues, settled, "{reading:?}");
        }
    }

    #[test]
    fn all_boolean_branches_mean_every_value_or_none() {
        let settle = |mut schema: Value| {
            settle_boolean_branches(&mut schema, Branches::AsWritten);
            schema
        };
        let keeps = json!({ "type": "string" });
        for (keyword, branches, every_value) in [
            ("allOf", json!([true, true]), true),
            ("allOf", json!([true, false]), false),
            ("anyOf", json!([false, true]), true),
            ("anyOf", json!([false, false]), false),
            ("oneOf", json!([false, true, false]), true),
            ("oneOf", json!([true, true]), false),
            ("oneOf", json!([false, false]), false),
        ] {
            let settled = settle(json!({ "type": "string", keyword: branches }));
            let expected = if every_value { &keeps } else { &json!(false) };
            assert_eq!(&settled, expected, "{keyword}: {branches}");
        }
        // A branch that is not boolean may carry annotations or shape the type: left as is,
        // and so is a boolean branch that counts beside it (a `oneOf` with `true` means
        // "anything but the others"), written as `{}` (typify panicked on `true` there). One
        // that never counts is left out (typify panicked on `false` in a `oneOf`).
        let a = json!({ "properties": { "a": true } });
        for keyword in ["anyOf", "oneOf"] {
            assert_eq!(
                settle(json!({ keyword: [true, a] })),
                json!({ keyword: [{}, a] }),
                "{keyword}"
            );
        }
        let x = json!({ "enum": ["x"] });
        for (keyword, branches, settled) in [
            ("oneOf", json!([false, x, {}]), json!({ "oneOf": [x, {}] })),
            ("anyOf", json!([x, false]), json!({ "anyOf": [x] })),
            ("allOf", json!([true, x, {}]), json!({ "allOf": [x] })),
            ("allOf", json!([x, false]), json!(false)),
        ] {
            assert_eq!(settle(json!({ keyword: branches })), settled, "{keyword}");
        }
        // Nested schemas are settled too.
        assert_eq!(
            settle(json!({ "items": { "oneOf": [true, true] } })),
            json!({ "items": false })
        );
    }

    #[test]
    fn drops_only_the_nots_typify_cannot_read() {
        let mut schema = json!({
            "type": "object",
            "not": { "required": ["a"], "unevaluatedProperties": false },
            "properties": {
                "never": { "not": {} },
                "never_either": { "not": true },
                "no_red": { "type": "string", "not": { "enum": ["red"] } },
                "not_two": { "not": { "const": 2 } },
                "nested": { "items": { "not": { "$ref": "#/$defs/A" } } },
                // typify panicked on each of these.
                "not_null": { "not": { "enum": [null] } },
                "not_null_either": { "not": { "const": null } },
                "mixed": { "not": { "enum": [1, "a"] } },
                "listed": { "not": { "enum": [[1]] } },
                "empty": { "not": { "enum": [] } }
            },
            "$defs": { "A": { "not": { "anyOf": [true] } } }
        });
        drop_opaque_nots(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "never": { "not": {} },
                    "never_either": { "not": true },
                    "no_red": { "type": "string", "not": { "enum": ["red"] } },
                    "not_two": { "not": { "const": 2 } },
                    "nested": { "items": {} },
                    "not_null": {},
                    "not_null_either": {},
                    "mixed": {},
                    "listed": {},
                    "empty": {}
                },
                "$defs": { "A": {} },
                // `{"a": 1, "zz": 2}` is valid (`zz` is unevaluated there) and `{"a": 1}` is
                // not: the members the struct would drop are kept.
                "additionalProperties": {}
            })
        );
    }

    #[test]
    fn members_a_dropped_not_may_deny_are_kept() {
        let dropped = |negated: Value| {
            let mut schema = json!({
                "type": "object",
                "properties": { "a": { "type": "integer" } },
                "not": negated
            });
            drop_opaque_nots(&mut schema);
            assert!(schema.get("not").is_none(), "{schema}");
            schema.get("additionalProperties").cloned()
        };
        // `{"zz": 1}` is valid; without `zz`, `{}` is not.
        assert_eq!(dropped(json!({ "maxProperties": 0 })), Some(json!({})));
        assert_eq!(
            dropped(json!({ "propertyNames": { "const": "a" } })),
            Some(json!({}))
        );
        assert_eq!(
            dropped(json!({ "anyOf": [{ "properties": { "zz": false } }] })),
            Some(json!({}))
        );
        // Fewer members never make these hold: `required` and `minProperties` only fail on
        // fewer, and the holder declares `a`.
        assert_eq!(dropped(json!({ "required": ["zz"] })), None);
        assert_eq!(dropped(json!({ "minProperties": 2 })), None);
        assert_eq!(
            dropped(json!({ "properties": { "a": { "maximum": 3 } }, "required": ["a"] })),
            None
        );
    }

    #[test]
    fn patterns_and_formats_the_generated_code_reads_differently_are_left_to_validation() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "word": { "type": "string", "pattern": "\\p{Letter}cole" },
                "code": { "type": "string", "pattern": "^[A-Z]{3}$" },
                "keys": {
                    "type": "object",
                    "patternProperties": { "^\\p{digit}+$": { "type": "string" } },
                    "additionalProperties": false
                },
                "link": { "type": "string", "format": "uri" },
                "id": { "type": "string", "format": "uuid" },
                "count": { "type": "integer", "format": "int32" },
                "ratio": { "type": "number", "format": "float" }
            }
        });
        drop_narrower_readings(&mut schema);
        open_pattern_properties(&mut schema);
        assert_eq!(
            schema["properties"],
            json!({
                "word": { "type": "string" },
                "code": { "type": "string", "pattern": "^[A-Z]{3}$" },
                "keys": { "type": "object", "additionalProperties": {} },
                "link": { "type": "string" },
                "id": { "type": "string", "format": "uuid" },
                "count": { "type": "integer", "format": "int32" },
                "ratio": { "type": "number" }
            })
        );
    }

    #[test]
    fn every_one_of_is_joined_with_what_stands_beside_it() {
        let docker = json!({ "properties": { "kind": { "type": "string" } }, "additionalProperties": false });
        let exec = json!({ "required": ["shell"] });
        let mut schema = json!({
            "title": "Resource",
            "type": "object",
            "required": ["kind"],
            "$defs": { "d": {} },
            "oneOf": [
                { "allOf": [{ "$ref": "#/$defs/d" }, { "oneOf": [docker, exec] }] },
                { "required": ["data"] }
            ]
        });
        distribute_every_one_of(&mut schema);
        let around =
            |branches: Value| json!({ "type": "object", "required": ["kind"], "allOf": branches });
        assert_eq!(
            schema,
            json!({
                "title": "Resource",
                "$defs": { "d": {} },
                "oneOf": [
                    { "oneOf": [
                        around(json!([{ "allOf": [{ "$ref": "#/$defs/d" }, docker] }])),
                        around(json!([{ "allOf": [{ "$ref": "#/$defs/d" }, exec] }]))
                    ] },
                    around(json!([{ "required": ["data"] }]))
                ]
            })
        );
        // A branch that clearly holds no value once joined is left out: `kind` is required and
        // the branch is closed without it.
        let mut schema = json!({
            "type": "object",
            "required": ["kind"],
            "oneOf": [{ "additionalProperties": false }, { "required": ["a"] }]
        });
        distribute_every_one_of(&mut schema);
        assert_eq!(
            schema["oneOf"].as_array().map(Vec::len),
            Some(1),
            "{schema}"
        );
        // Left as they are: a `oneOf` alone, and one beside `unevaluatedProperties`.
        for unchanged in [
            json!({ "title": "t", "oneOf": [{ "type": "string" }, { "type": "integer" }] }),
            json!({ "type": "object", "oneOf": [exec], "unevaluatedProperties": false }),
        ] {
            let mut schema = unchanged.clone();
            distribute_every_one_of(&mut schema);
            assert_eq!(schema, unchanged);
        }
    }

    #[test]
    fn holds_no_value_only_where_no_value_fits() {
        let none = |schema: Value| holds_no_value(schema.as_object().unwrap());
        assert!(none(
            json!({ "type": "string", "allOf": [{ "type": "integer" }] })
        ));
        assert!(none(
            json!({ "type": "object", "required": ["a"], "allOf": [{ "additionalProperties": false }] })
        ));
        assert!(none(
            json!({ "type": "object", "required": ["a"], "allOf": [{ "properties": { "a": false } }] })
        ));
        assert!(none(json!({ "allOf": [{ "allOf": [false] }] })));
        // Without `type: object`, a string fits; declared, the member may be there; a
        // reference says nothing here.
        assert!(!none(
            json!({ "required": ["a"], "allOf": [{ "additionalProperties": false }] })
        ));
        assert!(!none(
            json!({ "type": "object", "required": ["a"], "allOf": [{ "properties": { "a": {} }, "additionalProperties": false }] })
        ));
        assert!(!none(
            json!({ "type": "number", "allOf": [{ "type": "integer" }] })
        ));
        assert!(!none(
            json!({ "type": "object", "required": ["a"], "allOf": [{ "$ref": "#/$defs/closed" }] })
        ));
        // `unevaluatedProperties: false` closes a branch only where nothing else in it
        // evaluates members.
        assert!(none(
            json!({ "type": "object", "required": ["a"], "allOf": [{ "unevaluatedProperties": false }] })
        ));
        assert!(!none(
            json!({ "type": "object", "required": ["a"], "allOf": [{ "additionalProperties": {}, "unevaluatedProperties": false }] })
        ));
        assert!(!none(
            json!({ "type": "object", "required": ["a"], "allOf": [{ "anyOf": [{ "properties": { "a": {} } }], "unevaluatedProperties": false }] })
        ));
    }
}
