//! Schemas with keywords for some kinds of value and no `type`: `{"properties": ...}` also
//! accepts `12`, `{"minimum": 0, "maxLength": 3}` accepts every value but negative numbers and
//! long strings. Where the typed part of each kind holds every valid value of that kind, such a
//! schema is typed exactly, as an untagged enum of a variant per kind and the runtime's type for
//! every other kind of value (`schemcp_runtime::other_kinds`).

use serde_json::{Map, Value, json};

use crate::names::listed;
use crate::normalize::{name_after_parent, prefix_items_refusal, runtime_type};

/// Each kind [`other_than`] types, in the order the runtime names its types after them: the
/// enum variant of its typed value, and the word for it in those names.
const KINDS: [(&str, &str); 4] = [
    ("object", "Object"),
    ("array", "Array"),
    ("string", "String"),
    ("number", "Number"),
];

/// Whether `name` (a type's last path segment) is one of the runtime's types for the kinds of
/// value a schema's keywords leave open (`NotObject`, `NotStringOrNumber`, ...), all of which
/// hold `null`.
pub(crate) fn is_other_kinds(name: &str) -> bool {
    let Some(words) = name.strip_prefix("Not") else {
        return false;
    };
    (1..1 << KINDS.len()).any(|set: usize| {
        let kinds: Vec<&str> = KINDS
            .iter()
            .enumerate()
            .filter(|(i, _)| set & 1 << i != 0)
            .map(|(_, (kind, _))| *kind)
            .collect();
        other_kinds_name(&kinds) == words
    })
}

/// The schema typify reads as the runtime's type for every value but those of `kinds`.
fn any_other(kinds: &[&str]) -> Value {
    let other = other_kinds_type(kinds);
    runtime_type(&format!("other_kinds::{other}"), Vec::new())
}

/// Makes a schema that only negates kinds of value (`{"not": {"type": "object"}}`, see
/// [`negated_kinds`]) the runtime's type for every other value (`NotObject`), which is exact;
/// returns whether it did. GitHub's MCP server writes "a filter object, or anything but an
/// object" so.
pub(crate) fn type_negated_kinds(object: &mut Map<String, Value>) -> bool {
    let Some(kinds) = negated_kinds(object) else {
        return false;
    };
    object.shift_remove("not");
    if let Value::Object(typed) = any_other(&kinds) {
        object.extend(typed);
    }
    true
}

/// The kinds of value a schema that only negates them denies (`{"not": {"type": "object"}}`:
/// `["object"]`), where the runtime has a type for every other value; `None` for any other
/// schema.
fn negated_kinds(object: &Map<String, Value>) -> Option<Vec<&'static str>> {
    const BESIDE: [&str; 3] = ["description", "title", "$comment"];
    let negated = object.get("not")?.as_object()?;
    if !object
        .keys()
        .all(|k| k == "not" || BESIDE.contains(&k.as_str()))
        || !negated
            .keys()
            .all(|k| k == "type" || BESIDE.contains(&k.as_str()))
    {
        return None;
    }
    let named: Vec<&str> = match negated.get("type")? {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    // `integer` has no such type: "anything but an integer" holds `1.5`.
    let kinds: Vec<&'static str> = KINDS
        .iter()
        .map(|(kind, _)| *kind)
        .filter(|kind| named.contains(kind))
        .collect();
    (!kinds.is_empty() && named.iter().all(|kind| kinds.contains(kind))).then_some(kinds)
}

/// The variant [`split`] names after `kind` (`Object` for `object`).
pub(crate) fn variant(kind: &str) -> &'static str {
    KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, variant)| *variant)
        .expect("other_than returns one of these kinds")
}

/// The runtime's type for every value but those of `kinds` (in [`KINDS`] order):
/// `NotObject`, `NotStringOrNumber`.
pub(crate) fn other_kinds_type(kinds: &[&str]) -> String {
    format!("Not{}", other_kinds_name(kinds))
}

/// The runtime's type for every value but those of `kinds` (in [`KINDS`] order), without its
/// `Not`: `Object`, `StringOrNumber`, `ObjectArrayOrString`.
fn other_kinds_name(kinds: &[&str]) -> String {
    let words: Vec<&str> = kinds
        .iter()
        .filter_map(|kind| KINDS.iter().find(|(k, _)| k == kind).map(|(_, w)| *w))
        .collect();
    match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{}Or{last}", rest.concat()),
        None => String::new(),
    }
}

/// The kinds an untyped schema can be typed as exactly, each for the values of its kind, in
/// [`KINDS`] order; `None` where the schema is not so typed. Keywords of one kind: see
/// [`one_kind`]. Keywords of several kinds (`{"minimum": 0, "maxLength": 3}`) apply each to
/// its own kind only, so the schema is the union of each kind's keywords alone, and each of
/// those must be typed exactly by [`one_kind`].
pub(crate) fn other_than(target: &Value) -> Option<Vec<&'static str>> {
    if let Some(kind) = one_kind(target) {
        return Some(vec![kind]);
    }
    let parts = kind_parts(target.as_object()?)?;
    (parts.len() > 1
        && parts
            .iter()
            .all(|(kind, part)| one_kind(&Value::Object(part.clone())) == Some(*kind)))
    .then(|| parts.iter().map(|(kind, _)| *kind).collect())
}

/// `object`'s keywords by the kind of value they are for, in [`KINDS`] order, leaving out
/// annotations; `None` where a keyword is for no one kind (`enum`, `not`, `if`, ...). Object
/// applicators (`allOf`, `anyOf`, `oneOf`) go with the object keywords: [`one_kind`] then
/// accepts them only where their branches declare members and nothing else.
fn kind_parts(object: &Map<String, Value>) -> Option<Vec<(&'static str, Map<String, Value>)>> {
    let mut parts: Vec<(&'static str, Map<String, Value>)> = Vec::new();
    for (key, value) in object {
        let key = key.as_str();
        if NEUTRAL.contains(&key) {
            continue;
        }
        let kind = if OBJECT.contains(&key) || ["allOf", "anyOf", "oneOf"].contains(&key) {
            "object"
        } else if ARRAY.contains(&key) || key == "uniqueItems" {
            "array"
        } else if STRING.contains(&key) {
            "string"
        } else if NUMBER.contains(&key) {
            "number"
        } else {
            return None;
        };
        match parts.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, part)) => {
                part.insert(key.to_string(), value.clone());
            }
            None => parts.push((kind, Map::from_iter([(key.to_string(), value.clone())]))),
        }
    }
    parts.sort_by_key(|(kind, _)| KINDS.iter().position(|(k, _)| k == kind));
    Some(parts)
}

/// The untagged enum `schema` becomes for the `kinds` [`other_than`] found: a branch per kind,
/// typed from its keywords (all of them for one kind, else that kind's), then the runtime's
/// type for every other value. Each branch is titled after its kind (`Object`, `NotObject`),
/// so the variants are named so rather than `Variant0`. `description` stays on the enum, and
/// so does `default`, which is a value of the whole schema, of whichever kind.
pub(crate) fn split(mut schema: Map<String, Value>, kinds: &[&str]) -> Map<String, Value> {
    let mut split = Map::new();
    if let Some(value) = schema.get("description") {
        split.insert("description".into(), value.clone());
    }
    if let Some(value) = schema.shift_remove("default") {
        split.insert("default".into(), value);
    }
    let parts = match kinds {
        [kind] => vec![(*kind, schema)],
        _ => kind_parts(&schema).expect("other_than split these keywords"),
    };
    let mut branches: Vec<Value> = parts
        .into_iter()
        .map(|(kind, part)| typed_branch(kind, part))
        .collect();
    let mut any_other = any_other(kinds);
    name_after_parent(&mut any_other, &other_kinds_type(kinds));
    branches.push(any_other);
    split.insert("oneOf".into(), Value::Array(branches));
    split
}

/// What [`split`] made of a schema with keywords for `kinds`, for its `other-kinds` warning
/// (`it is an enum of a Rust type for object values (`Object`) and ...`), and the help that
/// suggests the `type` the author may have meant.
pub(crate) fn described(kinds: &[&str]) -> (String, String) {
    let listed = |words: &[String], and| listed(words, and).expect("at least one kind");
    let variants = listed(
        &kinds
            .iter()
            .map(|k| format!("`{}`", variant(k)))
            .collect::<Vec<_>>(),
        "and",
    );
    let names: Vec<String> = kinds.iter().map(|k| k.to_string()).collect();
    let words = |and| listed(&names, and);
    let split = format!(
        "it is an enum of {} for {} values ({variants}) and any other kind of value (`{}`)",
        if kinds.len() == 1 {
            "a Rust type"
        } else {
            "Rust types"
        },
        words("and"),
        other_kinds_type(kinds)
    );
    let meant = match kinds {
        [one] => format!("\"{one}\""),
        several => format!("[\"{}\"]", several.join("\", \"")),
    };
    let help = format!(
        "if only {} values are meant, add `\"type\": {meant}`",
        words("or")
    );
    (split, help)
}

/// The branch of [`split`] for the values of `kind`, from the keywords `typed` for it.
fn typed_branch(kind: &str, mut typed: Map<String, Value>) -> Value {
    if kind == "number" {
        // typify reads numbers as `f64`, which cannot hold every integer; validation
        // enforces the bounds.
        typed = runtime_type("other_kinds::Number", Vec::new())
            .as_object()
            .cloned()
            .expect("an object");
    }
    typed.shift_remove("description");
    typed.shift_remove("title");
    if kind == "string" {
        // Annotations (2020-12): every string is valid, so the type is `String`.
        for annotation in [
            "format",
            "contentEncoding",
            "contentMediaType",
            "contentSchema",
        ] {
            typed.shift_remove(annotation);
        }
    }
    if kind != "number" {
        typed.insert("type".into(), json!(kind));
    }
    let closing = typed
        .get("additionalProperties")
        .or_else(|| typed.get("unevaluatedProperties"));
    if kind == "object" && closing.is_none_or(|a| *a == json!(true)) {
        typed.shift_remove("unevaluatedProperties");
        // typify drops unknown members for `true` (or none) but keeps them in a flattened map
        // for the equivalent `{}`.
        typed.insert("additionalProperties".into(), json!({}));
    }
    let mut typed = Value::Object(typed);
    name_after_parent(&mut typed, variant(kind));
    typed
}

/// Annotations, and identifiers: `$anchor` only names the schema for references (resolved
/// before this). A `default` goes on the enum (see [`split`]).
const NEUTRAL: [&str; 7] = [
    "default",
    "description",
    "title",
    "$comment",
    "examples",
    "$anchor",
    "$dynamicAnchor",
];

/// Keywords for objects. Only these, so no in-place applicator: `unevaluated*` then means
/// `additionalProperties` / `items` (see `normalize::settle_unevaluated`).
const OBJECT: [&str; 8] = [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "unevaluatedProperties",
    "propertyNames",
];

/// Keywords for arrays (and `uniqueItems`, which typify reads as a set).
const ARRAY: [&str; 8] = [
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
];

/// Keywords for strings. `format` and the `content*` keywords are annotations; the typed branch
/// leaves them out (see [`typed_branch`]), so typify does not parse strings into types that
/// reject some.
const STRING: [&str; 7] = [
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// Keywords for numbers.
const NUMBER: [&str; 5] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The kind an untyped schema can be typed as exactly for values of that kind, if any: its
/// keywords are all of one kind, and the typed part holds every valid value of that kind
/// faithfully. typify ignores `minItems`, `minProperties` and the like (the type accepts more,
/// validation enforces them); an object without `additionalProperties` keeps unknown members in
/// a map (see [`typed_branch`]), and members matching `patternProperties` are kept too (see
/// [`crate::normalize::open_pattern_properties`]). `prefixItems` becomes the runtime's
/// `PrefixN` (see [`crate::normalize::open_tuples`]), and `unevaluated*` beside no in-place
/// applicator means `additionalProperties` / `items` (see
/// [`crate::normalize::settle_unevaluated`]), except for
/// `unevaluatedItems` beside `contains`. String annotations (`format`, `content*`) are left
/// out of the typed branch, which is then `String`.
fn one_kind(target: &Value) -> Option<&'static str> {
    let Value::Object(object) = target else {
        return None;
    };
    let only = |allowed: &[&str]| {
        object
            .keys()
            .all(|k| NEUTRAL.contains(&k.as_str()) || allowed.contains(&k.as_str()))
    };
    // An `allOf`, `anyOf` or `oneOf` of schemas with object keywords only: any other kind of
    // value passes every branch, so the `NotObject` side holds every valid one (a `oneOf` of
    // two such branches rejects them all, which validation enforces). typify merges `allOf`
    // branches into one struct, and makes a variant per branch of the others. Branches only
    // declare members: one that evaluates the rest (`additionalProperties`,
    // `patternProperties`, `unevaluatedProperties`) would let members through that the
    // struct drops. In `allOf` and `anyOf` branches those keywords are left to validation
    // before this (`normalize::open_evaluating_branches`); a `oneOf` keeps them.
    const DECLARING: [&str; 5] = [
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "propertyNames",
    ];
    let declaring = |branch: &serde_json::Map<String, Value>| {
        branch
            .keys()
            .all(|k| NEUTRAL.contains(&k.as_str()) || DECLARING.contains(&k.as_str()))
    };
    let applicators: Vec<&str> = ["allOf", "anyOf", "oneOf"]
        .into_iter()
        .filter(|k| object.contains_key(*k))
        .collect();
    let object_branches = !applicators.is_empty()
        && applicators.iter().all(|k| {
            object.get(*k).and_then(Value::as_array).is_some_and(|b| {
                !b.is_empty() && b.iter().all(|b| b.as_object().is_some_and(declaring))
            })
        });
    // With such branches, their applicators are object keywords too.
    let own_keys_object_only = object.keys().all(|k| {
        NEUTRAL.contains(&k.as_str())
            || OBJECT.contains(&k.as_str())
            || object_branches && applicators.contains(&k.as_str())
    });
    if own_keys_object_only && (object_branches || OBJECT.iter().any(|k| object.contains_key(*k))) {
        Some("object")
    } else if prefix_items_refusal(object).is_none()
        // `contains` evaluates items too: which ones `unevaluatedItems` sees depends on them.
        && !(object.contains_key("contains") && object.contains_key("unevaluatedItems"))
        // typify reads `uniqueItems` as a set, which version 0.8 writes as a `Vec`: every item
        // kept, in order.
        && object.keys().all(|k| {
            let k = k.as_str();
            NEUTRAL.contains(&k) || ARRAY.contains(&k) || k == "uniqueItems"
        })
        && (ARRAY.iter().any(|k| object.contains_key(*k)) || object.contains_key("uniqueItems"))
        // typify errors on `contains`; it is left here only where an `unevaluated*` keyword
        // could see what it evaluates (see `normalize::drop_narrowing`).
        && (!object.contains_key("contains")
            || object.contains_key("items")
            || object.contains_key("unevaluatedItems")
            || object.contains_key("prefixItems"))
    {
        Some("array")
    } else if only(&STRING) && STRING.iter().any(|k| object.contains_key(*k)) {
        Some("string")
    } else if only(&NUMBER) && NUMBER.iter().any(|k| object.contains_key(*k)) {
        Some("number")
    } else {
        None
    }
}
