//! Schema-aware walking of JSON Schema documents: only keywords whose values are schemas are
//! entered, so data that merely looks like a schema (`enum`, `const`, `default`, `examples`) and
//! properties that happen to be named `default` are handled correctly.

use serde_json::{Value, json};

use crate::names::pascal;

/// How a keyword holds subschemas.
enum Children {
    /// `{ name: schema }`
    Named,
    /// `schema`, or for `items` a draft-07 array of schemas
    One,
    /// `[schema]`
    List,
}

fn children(keyword: &str) -> Option<Children> {
    Some(match keyword {
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            Children::Named
        }
        "items"
        | "additionalProperties"
        | "not"
        | "if"
        | "then"
        | "else"
        | "contains"
        | "propertyNames"
        | "additionalItems"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => Children::One,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Children::List,
        _ => return None,
    })
}

/// Calls `f` on every direct subschema of `object` (through the keywords [`children`] knows).
fn for_each_child_mut(object: &mut serde_json::Map<String, Value>, f: &mut dyn FnMut(&mut Value)) {
    for (keyword, value) in object.iter_mut() {
        match (children(keyword), value) {
            (Some(Children::Named), Value::Object(map)) => map.values_mut().for_each(&mut *f),
            (Some(Children::One | Children::List), Value::Array(list)) => {
                list.iter_mut().for_each(&mut *f)
            }
            (Some(Children::One), child) => f(child),
            _ => {}
        }
    }
}

/// Escapes a JSON pointer segment.
pub(crate) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Calls `f` with every subschema of `schema` (itself included) and its pointer. With
/// `skip_root_defs`, the root's `$defs`/`definitions` are not entered (they are walked as
/// definitions of their own).
pub(crate) fn for_each_subschema(
    schema: &Value,
    pointer: &str,
    skip_root_defs: bool,
    f: &mut dyn FnMut(&serde_json::Map<String, Value>, &str),
) {
    let Value::Object(object) = schema else {
        return;
    };
    f(object, pointer);
    for (keyword, value) in object {
        if skip_root_defs && (keyword == "$defs" || keyword == "definitions") {
            continue;
        }
        let here = format!("{pointer}/{}", escape(keyword));
        match (children(keyword), value) {
            (Some(Children::Named), Value::Object(map)) => {
                for (name, child) in map {
                    for_each_subschema(child, &format!("{here}/{}", escape(name)), false, f);
                }
            }
            (Some(Children::One | Children::List), Value::Array(list)) => {
                for (i, child) in list.iter().enumerate() {
                    for_each_subschema(child, &format!("{here}/{i}"), false, f);
                }
            }
            (Some(Children::One), child) => for_each_subschema(child, &here, false, f),
            _ => {}
        }
    }
}

/// Removes every `not` whose subschema typify cannot read exactly, from the copy of a schema
/// the generator converts (the served schema, which the runtime validates, keeps it).
///
/// `not` only ever rejects values, so without it a type accepts more, never less; validation
/// still enforces it. typify reads only a negated `true`/`false`, `{}` (no value) and `enum` /
/// `const` lists; in anything else it ignores keywords it does not know
/// (`unevaluatedProperties`, `dependentSchemas`, ...) or turns untypable parts into
/// `serde_json::Value`, which under `not` would make the type reject everything, or panics.
pub(crate) fn drop_opaque_nots(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    let readable = |negated: &Value| match negated {
        Value::Bool(_) => true,
        Value::Object(o) => o.keys().all(|k| {
            matches!(
                k.as_str(),
                "enum" | "const" | "$comment" | "description" | "title"
            )
        }),
        _ => false,
    };
    if object.get("not").is_some_and(|negated| !readable(negated)) {
        object.shift_remove("not");
    }
    for_each_child_mut(object, &mut drop_opaque_nots);
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
    let patterns = match object.get("patternProperties") {
        Some(Value::Object(patterns)) => patterns.len(),
        _ => return,
    };
    let checked_keys = patterns == 1
        && !object.contains_key("properties")
        && object.get("additionalProperties") == Some(&Value::Bool(false))
        && object["patternProperties"]
            .as_object()
            .is_some_and(|p| p.keys().all(|k| same_in_generated_code(k)));
    if checked_keys {
        return;
    }
    object.shift_remove("patternProperties");
    object.insert("additionalProperties".into(), json!({}));
}

/// Whether the generated code checks `pattern` as the validator does. typify's string
/// newtypes test their pattern with `regress` without the Unicode flag, where `\p{Letter}` is
/// a plain `p`; the validator reads it as a Unicode property. Such a newtype would reject
/// strings the schema accepts.
fn same_in_generated_code(pattern: &str) -> bool {
    !pattern.contains("\\p{") && !pattern.contains("\\P{")
}

/// Leaves out of the schema typify converts every `pattern` the generated code would read
/// differently from the validator ([`same_in_generated_code`]): the string stays a `String`,
/// and validation enforces the pattern.
pub(crate) fn drop_unicode_patterns(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut drop_unicode_patterns);
    if let Some(Value::String(pattern)) = object.get("pattern")
        && !same_in_generated_code(pattern)
    {
        object.shift_remove("pattern");
    }
}

/// Appended to the name of an optional member that may be `null`, in the schema typify reads.
/// typify's field names drop it (`fooBar\u{1}` is still `foo_bar`) and its `rename` keeps it,
/// so [`crate::optional`] can find the member in the generated code.
pub(crate) const NULLABLE_OPTIONAL: char = '\u{1}';

/// Marks every optional member that may be `null` and makes it required, in the schema typify
/// converts (not the one served or validated). typify types an optional member as `Option<T>`
/// and a member that may be `null` as `Option<T>` too, so for one that is both, `null` and
/// absent would read alike and an explicit `null` would be dropped. Required, the member gets
/// the type that holds `null`; [`crate::optional`] then wraps it in an `Option` for absence.
/// `nullable(reference)` says whether a `$ref` target may be `null`.
pub(crate) fn mark_nullable_optionals(schema: &mut Value, nullable: &dyn Fn(&str) -> bool) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        mark_nullable_optionals(child, nullable)
    });
    let required: Vec<String> = match object.get("required") {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|name| name.as_str().map(str::to_string))
            .collect(),
        None => Vec::new(),
        Some(_) => return,
    };
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    let marked: Vec<String> = properties
        .iter()
        .filter(|(name, schema)| !required.contains(name) && may_be_null(schema, nullable))
        .map(|(name, _)| name.clone())
        .collect();
    if marked.is_empty() {
        return;
    }
    // Rebuilt in order: the order of properties is the order of fields.
    *properties = std::mem::take(properties)
        .into_iter()
        .map(|(name, schema)| match marked.contains(&name) {
            true => (format!("{name}{NULLABLE_OPTIONAL}"), schema),
            false => (name, schema),
        })
        .collect();
    let mut required: Vec<Value> = required.into_iter().map(Value::String).collect();
    required.extend(
        marked
            .iter()
            .map(|name| Value::String(format!("{name}{NULLABLE_OPTIONAL}"))),
    );
    object.insert("required".into(), Value::Array(required));
}

/// Whether `schema` itself says `null` is one of its values (a `type`, `enum` or `const`, or
/// one branch of an `anyOf`/`oneOf` that does), or has no constraint at all.
pub(crate) fn may_be_null(schema: &Value, nullable: &dyn Fn(&str) -> bool) -> bool {
    let object = match schema {
        Value::Bool(accepts) => return *accepts,
        Value::Object(object) => object,
        _ => return false,
    };
    if let Some(Value::String(reference)) = object.get("$ref") {
        return nullable(reference);
    }
    let null_type = match object.get("type") {
        Some(Value::String(kind)) => Some(kind == "null"),
        Some(Value::Array(kinds)) => Some(kinds.iter().any(|k| k == "null")),
        _ => None,
    };
    let null_enum = match (object.get("enum"), object.get("const")) {
        (Some(Value::Array(values)), _) => Some(values.contains(&Value::Null)),
        (_, Some(value)) => Some(value.is_null()),
        _ => None,
    };
    let branches = ["anyOf", "oneOf"]
        .iter()
        .find_map(|k| match object.get(*k) {
            Some(Value::Array(list)) => Some(list.iter().any(|b| may_be_null(b, nullable))),
            _ => None,
        });
    match (null_type, null_enum, branches) {
        (None, None, None) => false,
        (t, e, b) => t != Some(false) && e != Some(false) && b != Some(false),
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

/// Keywords that may stand beside a variable-length `prefixItems` the generator types as a
/// runtime `PrefixN` (see [`open_tuples`]): annotations, and array constraints that validation
/// enforces and that the type holds every valid array of anyway.
const BESIDE_PREFIX_ITEMS: [&str; 15] = [
    "type",
    "prefixItems",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "title",
    "description",
    "$comment",
    "examples",
    "deprecated",
    PREFIX_MARKER,
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
    if let Some(other) = object
        .keys()
        .find(|k| !BESIDE_PREFIX_ITEMS.contains(&k.as_str()) && !settles(k))
    {
        return Some(format!(
            "the generator does not type `prefixItems` beside `{other}` (only beside {})",
            BESIDE_PREFIX_ITEMS[2..9]
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
            "the generator types `prefixItems` only with `\"type\": \"array\"` (a list of \
             types, or another kind, would need a type holding other values as well)"
                .into(),
        ),
    }
}

/// The number of positions of the runtime's largest `PrefixN`
/// (`schemcp_runtime::prefix_items::MAX_POSITIONS`).
const MAX_PREFIX_POSITIONS: usize = 12;

/// Keywords that only ever reject values of a schema that also has a type without them, and
/// that typify cannot read (it panics on `if`, errors on `contains`) or reads for nothing:
/// the type without them accepts more, never less, and validation enforces them.
const NARROWING_ONLY: [&str; 8] = [
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
/// with `if`/`then` are typed by what they hold. The caller keeps them where an
/// `unevaluatedProperties` or `unevaluatedItems` could see the members or items they evaluate.
pub(crate) fn drop_narrowing(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
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
            object.shift_remove(keyword);
        }
    }
    for_each_child_mut(object, &mut drop_narrowing);
}

/// Whether `branch` only constrains how many members or items a value has, or how long or
/// large it is (`required`, `minLength`, `maximum`, ...): a schema that never shapes a type.
fn only_counts(branch: &Value) -> bool {
    const COUNTS: [&str; 18] = [
        "required",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "description",
        "$comment",
        "title",
    ];
    match branch {
        Value::Object(object) => {
            !object.is_empty() && object.keys().all(|k| COUNTS.contains(&k.as_str()))
        }
        _ => false,
    }
}

/// Whether `unevaluatedProperties` or `unevaluatedItems` appears anywhere in `schema`.
pub(crate) fn has_unevaluated(schema: &Value) -> bool {
    let mut found = false;
    for_each_subschema(schema, "", false, &mut |object, _| {
        found |=
            object.contains_key("unevaluatedProperties") || object.contains_key("unevaluatedItems");
    });
    found
}

/// Gives every `propertyNames` subschema without a `type` the `"type": "string"` it means
/// (property names are strings), so `{"maxLength": 3}` there is not taken for a schema that
/// also accepts other kinds of values. A boolean one is dropped: `true` says nothing, and
/// `false` (no member at all) only rejects, which validation does.
pub(crate) fn type_property_names(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut type_property_names);
    if let Some(Value::Bool(_)) = object.get("propertyNames") {
        object.shift_remove("propertyNames");
    }
    if let Some(Value::Object(names)) = object.get_mut("propertyNames")
        && !names.contains_key("type")
        && !names.contains_key("$ref")
    {
        names.insert("type".into(), json!("string"));
    }
}

/// Rewrites an `enum` without `type` whose values are of more than one kind besides `null`
/// (`["auto", 1, 2]`, which typify cannot type: it panics) to the `oneOf` of one typed `enum`
/// per kind that it means, in the copy of a schema the generator converts. The kinds are
/// disjoint, so exactly one branch holds each value; typify makes it an untagged enum.
pub(crate) fn split_mixed_enums(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut split_mixed_enums);
    const BESIDE: [&str; 6] = [
        "enum",
        "title",
        "description",
        "$comment",
        "default",
        "examples",
    ];
    if object.keys().any(|k| !BESIDE.contains(&k.as_str())) {
        return;
    }
    let Some(Value::Array(values)) = object.get("enum") else {
        return;
    };
    let integral = values
        .iter()
        .filter_map(Value::as_number)
        .all(|n| n.is_i64() || n.is_u64());
    let kind = |value: &Value| match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) if integral => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let mut kinds: Vec<(&str, Vec<Value>)> = Vec::new();
    for value in values {
        match kinds.iter_mut().find(|(k, _)| *k == kind(value)) {
            Some((_, list)) => list.push(value.clone()),
            None => kinds.push((kind(value), vec![value.clone()])),
        }
    }
    if kinds.iter().filter(|(k, _)| *k != "null").count() < 2 {
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

/// Keywords that stay beside the `allOf` [`split_ref_siblings`] makes: annotations,
/// definitions, and the `unevaluated*` keywords, which see the members both branches evaluate.
const STAY_BESIDE_REF: [&str; 14] = [
    "title",
    "description",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$defs",
    "definitions",
    "$anchor",
    "allOf",
    "unevaluatedProperties",
    "unevaluatedItems",
];

/// Rewrites `{"$ref": R, "properties": ...}` (in the copy of a schema the generator converts)
/// to the `allOf` it means in 2020-12, where `$ref` applies in place beside its siblings:
/// `{"allOf": [{"$ref": R}, {"properties": ...}]}`. typify reads that by merging both into one
/// type; beside `properties` it would keep one of them and drop the other's members.
pub(crate) fn split_ref_siblings(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut split_ref_siblings);
    if !object.contains_key("$ref") || !object.contains_key("properties") {
        return;
    }
    let Some(reference) = object.shift_remove("$ref") else {
        return;
    };
    let siblings: Vec<String> = object
        .keys()
        .filter(|k| !STAY_BESIDE_REF.contains(&k.as_str()))
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

/// Keywords that evaluate members or items in place: beside them, which members
/// `unevaluatedProperties` (or items `unevaluatedItems`) applies to depends on the instance.
const IN_PLACE_APPLICATORS: [&str; 11] = [
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "dependentSchemas",
];

/// Rewrites `unevaluatedProperties` and `unevaluatedItems` (in the copy of a schema the
/// generator converts) where they mean the same as `additionalProperties` and `items`, which
/// typify reads: beside no in-place applicator, the members left unevaluated are exactly those
/// `properties` and `patternProperties` do not name, and the items left are those past
/// `prefixItems` (unless `contains` evaluates some of them too, which depends on their
/// values). Beside `additionalProperties` (or `items`), nothing is left for them to apply to.
pub(crate) fn settle_unevaluated(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut settle_unevaluated);
    if IN_PLACE_APPLICATORS.iter().any(|k| object.contains_key(*k)) {
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
pub(crate) fn open_tuples(schema: &mut Value) {
    open_tuples_at(schema, "");
}

/// On a `prefixItems` array [`finish_tuples`] converts.
const PREFIX_MARKER: &str = "x-schemcp-prefix";
/// On a position (or the `items` past them): the name its type takes after its parent's.
const POSITION_MARKER: &str = "x-schemcp-position";

fn open_tuples_at(schema: &mut Value, path: &str) {
    let Value::Object(object) = schema else {
        return;
    };
    for (keyword, value) in object.iter_mut() {
        match (children(keyword), value) {
            (Some(Children::Named), Value::Object(map)) => {
                for (name, child) in map.iter_mut() {
                    open_tuples_at(child, &format!("{path}{}", pascal(name)));
                }
            }
            (Some(Children::One | Children::List), Value::Array(list)) => {
                for (i, child) in list.iter_mut().enumerate() {
                    open_tuples_at(child, &format!("{path}{}{i}", pascal(keyword)));
                }
            }
            (Some(Children::One), child) => {
                open_tuples_at(child, &format!("{path}{}", pascal(keyword)))
            }
            _ => {}
        }
    }
    if !object.contains_key("prefixItems")
        || object.get("type") != Some(&json!("array"))
        || prefix_items_refusal(object).is_some()
    {
        return;
    }
    let mark = |schema: &mut Value, name: String| {
        if let Value::Object(object) = schema
            && !object.contains_key("title")
            && !object.contains_key("$ref")
        {
            object.insert(POSITION_MARKER.into(), Value::String(name));
        }
    };
    if let Some(Value::Array(prefix)) = object.get_mut("prefixItems") {
        for (i, position) in prefix.iter_mut().enumerate() {
            mark(position, format!("{path}Position{i}"));
        }
    }
    if let Some(items) = object.get_mut("items") {
        mark(items, format!("{path}Item"));
    }
    object.insert(PREFIX_MARKER.into(), Value::Bool(true));
}

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
    let rust_type = |path: &str, parameters: Vec<Value>| {
        json!({ "x-rust-type": {
            "crate": "schemcp-runtime",
            "version": "*",
            "path": format!("schemcp_runtime::prefix_items::{path}"),
            "parameters": parameters,
        }})
    };
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
    for keyword in ["title", "description"] {
        if let Some(value) = object.shift_remove(keyword) {
            replacement[keyword] = value;
        }
    }
    *schema = replacement;
}

/// Keywords that constrain only one kind of JSON value, by the kind typify infers from them.
const TYPED_KEYWORDS: [(&str, &[&str]); 4] = [
    (
        "object",
        &[
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
        ],
    ),
    (
        "array",
        &[
            "items",
            "prefixItems",
            "contains",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        ],
    ),
    (
        "string",
        &[
            "pattern",
            "minLength",
            "maxLength",
            "format",
            "contentEncoding",
            "contentMediaType",
        ],
    ),
    (
        "number",
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ],
    ),
];

/// Subschemas that use keywords of one kind of value (`properties`, `pattern`, ...) but say
/// nothing about the instance's type: no `type` there nor on a schema they are combined with
/// (`allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/`else`/`dependentSchemas` of a typed schema), no
/// `enum`, `const` or `$ref`. In JSON Schema such a schema accepts every other kind of value
/// (`{"properties": ...}` accepts `12`), but typify infers the kind from the keywords, so its
/// type would reject valid values. Also `anyOf` with an untyped branch, which typify mistypes
/// (`$ref` beside `properties` is split into an `allOf` by [`split_ref_siblings`]). Returns
/// `(pointer, why)`. `typed_ref` says whether a `$ref` names a definition with a `type` (or an
/// `enum` or `const`), which then says the kind of an `allOf` it is a branch of.
pub(crate) fn untyped_subschemas(
    schema: &Value,
    pointer: &str,
    inherited: bool,
    skip_root_defs: bool,
    typed_ref: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    fn walk(
        schema: &Value,
        pointer: &str,
        inherited: bool,
        skip_defs: bool,
        typed_ref: &dyn Fn(&str) -> bool,
        out: &mut Vec<(String, String)>,
    ) {
        let Value::Object(object) = schema else {
            return;
        };
        let says_kind = |schema: &serde_json::Map<String, Value>| {
            ["type", "enum", "const"]
                .iter()
                .any(|k| schema.contains_key(*k))
                || schema
                    .get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(typed_ref)
        };
        // Every `allOf` branch applies to the value, so one that says its kind says it for all:
        // `{"allOf": [{"$ref": "#/$defs/Base"}, {"required": ["id"]}]}` is a `Base`.
        let kind_in_all_of = object
            .get("allOf")
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().filter_map(Value::as_object).any(says_kind));
        let typed = inherited || object.contains_key("type") || kind_in_all_of;
        let pinned = ["enum", "const", "$ref"]
            .iter()
            .any(|k| object.contains_key(*k));
        if !typed && !pinned {
            let found = TYPED_KEYWORDS.iter().find_map(|(kind, keywords)| {
                keywords
                    .iter()
                    .find(|k| object.contains_key(**k))
                    .map(|k| format!("`{k}` (a keyword for {kind} values)"))
            });
            if let Some(found) = found {
                out.push((
                    pointer.to_string(),
                    format!(
                        "this schema uses {found} but has no `type`, so it also accepts every \
                         other kind of JSON value, which a Rust type inferred from it would reject"
                    ),
                ));
            }
        }
        // typify turns `anyOf` into a struct of optional flattened parts, which only objects
        // fit; a branch that does not say what it is may be a number or a string.
        if let Some(Value::Array(branches)) = object.get("anyOf") {
            let open = branches.iter().any(|b| match b {
                Value::Object(b) => !["type", "$ref", "enum", "const"]
                    .iter()
                    .any(|k| b.contains_key(*k)),
                _ => true,
            });
            if open {
                out.push((
                    pointer.to_string(),
                    "this `anyOf` has a branch without a `type`; typify would make it a struct \
                     that only objects fit"
                        .into(),
                ));
            }
        }
        for (keyword, value) in object {
            if skip_defs && (keyword == "$defs" || keyword == "definitions") {
                continue;
            }
            // Schemas that apply to the same instance keep what is known about its type.
            let same_instance = matches!(
                keyword.as_str(),
                "allOf" | "anyOf" | "oneOf" | "not" | "if" | "then" | "else" | "dependentSchemas"
            );
            // `then` applies only when `if` matched, so `if`'s type holds there too.
            let if_typed =
                keyword == "then" && object.get("if").is_some_and(|i| i.get("type").is_some());
            let inherit = same_instance && (typed || if_typed);
            let here = format!("{pointer}/{}", escape(keyword));
            match (children(keyword), value) {
                (Some(Children::Named), Value::Object(map)) => {
                    for (name, child) in map {
                        let at = format!("{here}/{}", escape(name));
                        walk(child, &at, inherit, false, typed_ref, out);
                    }
                }
                (Some(Children::One | Children::List), Value::Array(list)) => {
                    for (i, child) in list.iter().enumerate() {
                        walk(
                            child,
                            &format!("{here}/{i}"),
                            inherit,
                            false,
                            typed_ref,
                            out,
                        );
                    }
                }
                (Some(Children::One), child) => walk(child, &here, inherit, false, typed_ref, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(
        schema,
        pointer,
        inherited,
        skip_root_defs,
        typed_ref,
        &mut out,
    );
    out
}

/// Calls `f` with every `$ref` string of `schema` (outside the root's definitions), mutably, in
/// the same order [`for_each_subschema`] visits them.
pub(crate) fn for_each_ref_mut(schema: &mut Value, root: bool, f: &mut dyn FnMut(&mut String)) {
    let Value::Object(object) = schema else {
        return;
    };
    for (keyword, value) in object.iter_mut() {
        if root && (keyword == "$defs" || keyword == "definitions") {
            continue;
        }
        match (children(keyword), value) {
            (_, Value::String(reference)) if keyword == "$ref" => f(reference),
            (Some(Children::Named), Value::Object(map)) => {
                for child in map.values_mut() {
                    for_each_ref_mut(child, false, f);
                }
            }
            (Some(Children::One | Children::List), Value::Array(list)) => {
                for child in list {
                    for_each_ref_mut(child, false, f);
                }
            }
            (Some(Children::One), child) => for_each_ref_mut(child, false, f),
            _ => {}
        }
    }
}

/// The text of a JSON value with object keys sorted, for comparing schemas by content.
pub(crate) fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.clone(), sorted(v)))
                        .collect(),
                )
            }
            Value::Array(list) => Value::Array(list.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}

/// Decodes one JSON pointer segment as typify does (`~1`, `~0`, then percent-escapes).
pub(crate) fn decode_segment(segment: &str) -> String {
    let unescaped = segment.replace("~1", "/").replace("~0", "~");
    let bytes = unescaped.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
        {
            let hex = [bytes[i + 1], bytes[i + 2]];
            let hex = std::str::from_utf8(&hex).unwrap_or("00");
            out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or(unescaped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prefix_positions_match_the_runtime() {
        assert_eq!(
            MAX_PREFIX_POSITIONS,
            schemcp_runtime::prefix_items::MAX_POSITIONS
        );
    }

    #[test]
    fn walks_schemas_not_data() {
        let schema = json!({
            "properties": {
                "default": { "$ref": "#/$defs/A" },
                "e": { "enum": [{ "$ref": "not a ref" }], "default": { "$ref": "nor this" } }
            },
            "items": [{ "$ref": "#/$defs/B" }],
            "$defs": { "A": { "$ref": "#/$defs/C" } }
        });
        let mut pointers = Vec::new();
        for_each_subschema(&schema, "", true, &mut |_, p| pointers.push(p.to_string()));
        assert_eq!(
            pointers,
            ["", "/properties/default", "/properties/e", "/items/0"]
        );
        let mut refs = Vec::new();
        for_each_ref_mut(&mut schema.clone(), true, &mut |r| refs.push(r.clone()));
        assert_eq!(refs, ["#/$defs/A", "#/$defs/B"]);
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
                "nested": { "items": { "not": { "$ref": "#/$defs/A" } } }
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
                    "nested": { "items": {} }
                },
                "$defs": { "A": {} }
            })
        );
    }

    #[test]
    fn optional_members_that_may_be_null_are_marked_and_required() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "id": { "type": "string" },
                "note": { "type": ["string", "null"] },
                "level": { "enum": ["low", null] },
                "either": { "anyOf": [{ "type": "integer" }, { "type": "null" }] },
                "never_null": { "type": ["string", "null"], "enum": ["a"] },
                "kept": { "type": ["string", "null"] },
                "shared": { "$ref": "#/$defs/Maybe" },
                "inner": {
                    "type": "object",
                    "properties": { "n": { "const": null } }
                }
            },
            "required": ["id", "kept"]
        });
        mark_nullable_optionals(&mut schema, &|reference| reference == "#/$defs/Maybe");
        let marked = |name: &str| format!("{name}{NULLABLE_OPTIONAL}");
        let properties: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            properties,
            [
                "id".to_string(),
                marked("note"),
                marked("level"),
                marked("either"),
                "never_null".to_string(),
                "kept".to_string(),
                marked("shared"),
                "inner".to_string(),
            ]
            .iter()
            .collect::<Vec<_>>()
        );
        assert_eq!(
            schema["required"],
            json!([
                "id",
                "kept",
                marked("note"),
                marked("level"),
                marked("either"),
                marked("shared")
            ])
        );
        assert_eq!(
            schema["properties"]["inner"]["required"],
            json!([marked("n")])
        );
    }

    #[test]
    fn patterns_the_generated_code_reads_differently_are_left_to_validation() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "word": { "type": "string", "pattern": "\\p{Letter}cole" },
                "code": { "type": "string", "pattern": "^[A-Z]{3}$" },
                "keys": {
                    "type": "object",
                    "patternProperties": { "^\\p{digit}+$": { "type": "string" } },
                    "additionalProperties": false
                }
            }
        });
        drop_unicode_patterns(&mut schema);
        open_pattern_properties(&mut schema);
        assert_eq!(
            schema["properties"],
            json!({
                "word": { "type": "string" },
                "code": { "type": "string", "pattern": "^[A-Z]{3}$" },
                "keys": { "type": "object", "additionalProperties": {} }
            })
        );
    }

    #[test]
    fn canonical_ignores_key_order() {
        assert_eq!(
            canonical(&json!({"a": 1, "b": [{"y": 1, "x": 2}]})),
            canonical(&json!({"b": [{"x": 2, "y": 1}], "a": 1}))
        );
    }

    #[test]
    fn decodes_segments() {
        assert_eq!(decode_segment("a~1b~0c%20d"), "a/b~c d");
        assert_eq!(decode_segment("100%"), "100%");
    }
}
