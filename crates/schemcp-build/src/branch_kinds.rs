//! Keywords for one kind of value written beside the `anyOf`/`oneOf` that says the kinds.
//!
//! Real schemas often say a value's kinds in a union and its object (or array, string, number)
//! keywords beside it. GitLab CI's `workflow.rules` items:
//!
//! ```json
//! {"anyOf": [{"type": "object"}, {"type": "array", "items": {"type": "string"}}],
//!  "properties": {"when": {"enum": ["always", "never"]}}, "additionalProperties": false}
//! ```
//!
//! The schema has no `type`, but its union only lets objects and arrays through, and the
//! keywords beside it apply to the objects. Read as they stand, the keywords would make typify
//! pick one kind for the whole schema, so the generator used to give up on it (a
//! `serde_json::Value`). Written into the branches of their kinds, each branch is a schema
//! typify reads: the object branch a struct, the array branch a `Vec`.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::normalize::{allowed_kinds, stays_around};
use crate::schema::{constrains, for_each_child_mut, keyword_kind};

/// Rewrites, in the copy of a schema the generator converts, every schema without `type` that
/// holds keywords for one kind of value beside an `anyOf` or `oneOf` whose branches each say
/// their kinds, `{K, "anyOf": [B1, .., Bn]}`, to `{"anyOf": [B1 ∧ K1, .., Bn ∧ Kn]}`, where `Ki`
/// is the part of `K` for the kinds `Bi` allows (merged into `Bi`, or beside it in an `allOf`
/// where `Bi` is a reference, or has one of those keywords or one they would read differently
/// there, see [`apart`]).
///
/// The two accept the same values. A keyword for one kind accepts every value of another, so
/// `Bi ∧ K` is `Bi ∧ Ki`; and a value matches `K` and some (exactly one) `Bi` exactly when it
/// matches some (exactly one) `Bi ∧ K`. Annotations and definitions stay where they are.
///
/// `allOf`, `not` and `if`/`then`/`else` stay beside the union ([`BESIDE`]). Left as it is
/// where a branch does not say its kinds (no `type`, `enum`, `const` or reference to a
/// definition with a `type`), beside keywords that see which members or items the branches
/// evaluate (`unevaluatedProperties`, `unevaluatedItems`), which moved into one branch would
/// read it alone, beside anything else (a `$ref`, ...), and where a branch has an
/// `unevaluated*` keyword, which would see what moved in.
/// `kinds_of(reference)` is the kinds a definition's `type` allows.
pub(crate) fn kind_keywords_into_branches(
    schema: &mut Value,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        kind_keywords_into_branches(child, kinds_of)
    });
    let Some(union) = the_union(object) else {
        return;
    };
    // `unevaluated*` read what the branches evaluate: moved into one, or beside what moved
    // in, they would read something else.
    let evaluating = |schema: &serde_json::Map<String, Value>| {
        schema.keys().any(|k| k.starts_with("unevaluated"))
    };
    let moved: Vec<String> = object
        .keys()
        .filter(|k| keyword_kind(k).is_some())
        .cloned()
        .collect();
    let only_these = object.keys().all(|k| {
        k == union || stays_around(k) || moved.contains(k) || BESIDE.contains(&k.as_str())
    });
    if moved.is_empty() || !only_these {
        return;
    }
    let Some(Value::Array(branches)) = object.get(union) else {
        return;
    };
    if evaluating(object) || branches.iter().filter_map(Value::as_object).any(evaluating) {
        // Left beside the union; where the union lets one kind of value through, that is the
        // schema's `type`, written out so the keywords are read as that kind's (a tagged
        // union with `unevaluatedProperties: false` beside it is an object), not as keywords
        // that let every other kind through.
        if !object.contains_key("type")
            && let Some((_, kinds)) = union_kinds(object, kinds_of)
            && let Some(kind) = sole_kind(&kinds)
            && moved
                .iter()
                .all(|k| keyword_kind(k).is_some_and(|of| constrains(&kinds, of)))
        {
            object.insert("type".into(), Value::String(kind.into()));
        }
        return;
    }
    let Some(kinds) = branches
        .iter()
        .map(|branch| branch_kinds(branch, kinds_of))
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    let keywords: Vec<(String, Value)> = moved
        .iter()
        .filter_map(|k| Some((k.clone(), object.shift_remove(k)?)))
        .collect();
    let Some(Value::Array(branches)) = object.get_mut(union) else {
        return;
    };
    for (branch, kinds) in branches.iter_mut().zip(kinds) {
        let applies =
            |keyword: &str| keyword_kind(keyword).is_some_and(|kind| constrains(&kinds, kind));
        let own: serde_json::Map<String, Value> = keywords
            .iter()
            .filter(|(k, _)| applies(k))
            .cloned()
            .collect();
        if own.is_empty() {
            continue;
        }
        match branch {
            Value::Object(inline) if !inline.contains_key("$ref") && apart(inline, &own) => {
                inline.extend(own);
            }
            _ => {
                let alone = std::mem::take(branch);
                *branch = serde_json::json!({ "allOf": [alone, Value::Object(own)] });
            }
        }
    }
}

/// Rewrites, in the copy of a schema the generator converts, a list of `type`s beside
/// `prefixItems` into a `oneOf` of a branch per kind, each with the keywords for its kind:
/// `{"type": ["array", "null"], "prefixItems": [..]}` is `{"oneOf": [{"type": "array",
/// "prefixItems": [..]}, {"type": "null"}]}`, which the generator types as an `Option` of the
/// runtime's `PrefixN`. typify reads a list of types as such a union itself, but keeps
/// `prefixItems` beside it, where no `PrefixN` can stand (see `normalize::open_tuples`); the
/// array branch alone can hold it. A list of one kind, or a `type` other than `"array"`, is
/// that kind's schema: `{"type": "string", "prefixItems": [..]}` is `{"type": "string"}`.
///
/// The two accept the same values: the kinds are disjoint (`integer` goes with `number` where
/// both are listed), a keyword for one kind accepts every value of another, and each kind's
/// keywords move together, so `items` and `unevaluatedItems` still see the `prefixItems`
/// beside them. A keyword for a kind the list leaves out accepts every value it allows, and
/// goes. Left as it is (and refused at `prefixItems`) beside anything but keywords for one
/// kind, annotations and definitions.
pub(crate) fn type_list_as_branches(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut type_list_as_branches);
    let listed: Vec<String> = match object.get("type") {
        Some(Value::String(kind)) if kind != "array" => vec![kind.clone()],
        Some(Value::Array(listed)) => {
            let Some(listed) = listed
                .iter()
                .map(|kind| kind.as_str().map(str::to_string))
                .collect()
            else {
                return;
            };
            listed
        }
        _ => return,
    };
    if !object.contains_key("prefixItems")
        || !object
            .keys()
            .all(|k| k == "type" || stays_around(k) || keyword_kind(k).is_some())
    {
        return;
    }
    let mut kinds: Vec<&str> = Vec::new();
    for kind in &listed {
        let kind = match kind.as_str() {
            "integer" if listed.iter().any(|k| k == "number") => "number",
            kind => kind,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let moved: Vec<String> = object
        .keys()
        .filter(|k| keyword_kind(k).is_some())
        .cloned()
        .collect();
    let keywords: Vec<(String, Value)> = moved
        .into_iter()
        .filter_map(|k| {
            let value = object.shift_remove(&k)?;
            Some((k, value))
        })
        .collect();
    object.shift_remove("type");
    let mut branches: Vec<serde_json::Map<String, Value>> = kinds
        .iter()
        .map(|kind| serde_json::Map::from_iter([("type".to_string(), Value::from(*kind))]))
        .collect();
    for (keyword, value) in keywords {
        let of = keyword_kind(&keyword).expect("kept above");
        for (branch, kind) in branches.iter_mut().zip(&kinds) {
            if constrains(&BTreeSet::from([kind.to_string()]), of) {
                branch.insert(keyword.clone(), value.clone());
            }
        }
    }
    match <[_; 1]>::try_from(branches) {
        Ok([one]) => object.extend(one),
        Err(branches) => {
            object.insert(
                "oneOf".into(),
                Value::Array(branches.into_iter().map(Value::Object).collect()),
            );
        }
    }
}

/// The one kind `kinds` amounts to (`integer` and `number` together are `number`), if one.
fn sole_kind(kinds: &BTreeSet<String>) -> Option<&str> {
    match kinds.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [kind] => Some(kind),
        ["integer", "number"] => Some("number"),
        _ => None,
    }
}

/// Applicators that stay beside the union. They apply to the same value, so a value matches `K`,
/// the union and one of them `A` exactly when it matches the rewritten union and `A`; and none
/// sees what the keywords around it evaluate, as `unevaluated*` would.
const BESIDE: [&str; 5] = ["allOf", "not", "if", "then", "else"];

/// Keywords whose meaning depends on others in the same schema: `additionalProperties` applies
/// to the members `properties` and `patternProperties` do not name, `items` to the items past
/// `prefixItems`, `minContains` counts what `contains` matches.
const DEPENDENT: [(&str, &[&str]); 6] = [
    ("additionalProperties", &["properties", "patternProperties"]),
    (
        "unevaluatedProperties",
        &["properties", "patternProperties", "additionalProperties"],
    ),
    ("items", &["prefixItems"]),
    ("unevaluatedItems", &["prefixItems", "items", "contains"]),
    ("minContains", &["contains"]),
    ("maxContains", &["contains"]),
];

/// Whether `moved` can be written into `branch` and mean the same there: no keyword of `moved`
/// is in `branch`, and neither holds a keyword that would read one of the other's
/// ([`DEPENDENT`]). Merged into a branch with `properties`, an `additionalProperties: false`
/// would let those members through; beside it, in an `allOf`, it does not. One that accepts
/// every value (`true`, `{}`) reads nothing.
fn apart(branch: &serde_json::Map<String, Value>, moved: &serde_json::Map<String, Value>) -> bool {
    let accepts_all = |value: &Value| {
        *value == Value::Bool(true) || value.as_object().is_some_and(|o| o.is_empty())
    };
    let reads = |a: &serde_json::Map<String, Value>, b: &serde_json::Map<String, Value>| {
        DEPENDENT.iter().any(|(dependent, on)| {
            a.get(*dependent).is_some_and(|value| !accepts_all(value))
                && on.iter().any(|k| b.contains_key(*k))
        })
    };
    moved.keys().all(|k| !branch.contains_key(k)) && !reads(branch, moved) && !reads(moved, branch)
}

/// The one `anyOf` or `oneOf` of `object` (`None` with neither or both).
fn the_union(object: &serde_json::Map<String, Value>) -> Option<&'static str> {
    match (object.get("anyOf"), object.get("oneOf")) {
        (Some(Value::Array(_)), None) => Some("anyOf"),
        (None, Some(Value::Array(_))) => Some("oneOf"),
        _ => None,
    }
}

/// The `anyOf` or `oneOf` of `object` and the kinds of value it lets through, where every
/// branch says its kinds (see [`branch_kinds`]). Diagnostics for keywords beside it name the
/// kinds: `{"anyOf": [{"type": "object"}, {"type": "string"}], "properties": ...}` does not
/// accept every kind of value, only objects and strings.
pub(crate) fn union_kinds(
    object: &serde_json::Map<String, Value>,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) -> Option<(&'static str, BTreeSet<String>)> {
    let union = the_union(object)?;
    let mut kinds = BTreeSet::new();
    for branch in object.get(union)?.as_array()? {
        kinds.extend(branch_kinds(branch, kinds_of)?);
    }
    Some((union, kinds))
}

/// The kinds of value `branch` allows, where it says them: a `type`, an `enum` or `const`, a
/// reference to a definition with a `type`, or `false` (none).
fn branch_kinds(
    branch: &Value,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) -> Option<BTreeSet<String>> {
    allowed_kinds(branch).or_else(|| {
        let object = branch.as_object()?;
        if let Some(value) = object.get("const") {
            return allowed_kinds(&serde_json::json!({ "enum": [value] }));
        }
        kinds_of(object.get("$ref")?.as_str()?)
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rewritten(mut schema: Value) -> Value {
        let kinds_of = |reference: &str| {
            (reference == "#/$defs/Text").then(|| BTreeSet::from(["string".to_string()]))
        };
        kind_keywords_into_branches(&mut schema, &kinds_of);
        schema
    }

    #[test]
    fn keywords_beside_a_union_go_to_the_branches_of_their_kind() {
        let gitlab = json!({
            "description": "A rule.",
            "anyOf": [
                { "type": "object" },
                { "type": "array", "minItems": 1, "items": { "type": "string" } }
            ],
            "properties": { "when": { "type": "string" } },
            "additionalProperties": false
        });
        assert_eq!(
            rewritten(gitlab),
            json!({
                "description": "A rule.",
                "anyOf": [
                    {
                        "type": "object",
                        "properties": { "when": { "type": "string" } },
                        "additionalProperties": false
                    },
                    { "type": "array", "minItems": 1, "items": { "type": "string" } }
                ]
            })
        );
        // GitHub's `eventObject`: an object or `null`.
        assert_eq!(
            rewritten(json!({
                "oneOf": [{ "type": "object" }, { "type": "null" }],
                "additionalProperties": true
            })),
            json!({
                "oneOf": [{ "type": "object", "additionalProperties": true }, { "type": "null" }]
            })
        );
    }

    #[test]
    fn a_branch_that_already_has_the_keyword_or_is_a_reference_gets_an_all_of() {
        let schema = json!({
            "oneOf": [
                { "type": "string", "maxLength": 9 },
                { "$ref": "#/$defs/Text" },
                { "enum": [1, 2] },
                false
            ],
            "maxLength": 3,
            "minimum": 1
        });
        assert_eq!(
            rewritten(schema),
            json!({
                "oneOf": [
                    { "allOf": [{ "type": "string", "maxLength": 9 }, { "maxLength": 3 }] },
                    { "allOf": [{ "$ref": "#/$defs/Text" }, { "maxLength": 3 }] },
                    { "enum": [1, 2], "minimum": 1 },
                    false
                ]
            })
        );
    }

    #[test]
    fn keywords_that_read_each_other_are_not_merged_into_one_schema() {
        // Merged, the `additionalProperties: false` beside would let the branch's `a` through;
        // the schema allows objects without members only.
        let schema = json!({
            "anyOf": [
                { "type": "object", "properties": { "a": {} } },
                { "type": "array", "prefixItems": [{ "type": "string" }] },
                { "type": "string" }
            ],
            "additionalProperties": false,
            "items": { "type": "integer" },
            "maxLength": 2
        });
        assert_eq!(
            rewritten(schema),
            json!({
                "anyOf": [
                    {
                        "allOf": [
                            { "type": "object", "properties": { "a": {} } },
                            { "additionalProperties": false }
                        ]
                    },
                    {
                        "allOf": [
                            { "type": "array", "prefixItems": [{ "type": "string" }] },
                            { "items": { "type": "integer" } }
                        ]
                    },
                    { "type": "string", "maxLength": 2 }
                ]
            })
        );
        // `additionalProperties: true` reads nothing: Azure Pipelines' `phaseTargetMatrix`.
        let azure = json!({
            "anyOf": [{ "type": "object", "additionalProperties": true }, { "type": "string" }],
            "patternProperties": { "^[a-z]+$": { "type": "integer" } }
        });
        assert_eq!(
            rewritten(azure)["anyOf"][0],
            json!({
                "type": "object",
                "additionalProperties": true,
                "patternProperties": { "^[a-z]+$": { "type": "integer" } }
            })
        );
    }

    #[test]
    fn applicators_beside_the_union_stay_beside_it() {
        // `allOf`, `not`, `if`/`then`/`else` apply to the same value as the union: the value
        // must match them and the union either way.
        let schema = json!({
            "anyOf": [{ "type": "object" }, { "type": "string" }],
            "properties": { "a": { "type": "integer" } },
            "allOf": [{ "required": ["a"] }],
            "not": { "const": "x" },
            "if": { "type": "string" },
            "then": { "minLength": 1 },
            "else": { "minProperties": 1 }
        });
        assert_eq!(
            rewritten(schema),
            json!({
                "anyOf": [
                    { "type": "object", "properties": { "a": { "type": "integer" } } },
                    { "type": "string" }
                ],
                "allOf": [{ "required": ["a"] }],
                "not": { "const": "x" },
                "if": { "type": "string" },
                "then": { "minLength": 1 },
                "else": { "minProperties": 1 }
            })
        );
    }

    #[test]
    fn a_union_of_branches_that_say_their_kinds_has_their_kinds() {
        let kinds_of = |reference: &str| {
            (reference == "#/$defs/Text").then(|| BTreeSet::from(["string".to_string()]))
        };
        let kinds = |schema: Value| {
            union_kinds(schema.as_object().unwrap(), &kinds_of)
                .map(|(union, kinds)| (union, kinds.into_iter().collect::<Vec<_>>()))
        };
        assert_eq!(
            kinds(json!({
                "oneOf": [{ "type": "object" }, { "$ref": "#/$defs/Text" }, { "const": null }, false]
            })),
            Some((
                "oneOf",
                vec!["null".into(), "object".into(), "string".into()]
            ))
        );
        assert_eq!(
            kinds(json!({ "anyOf": [{ "enum": [1, "a"] }] })),
            Some(("anyOf", vec!["integer".into(), "string".into()]))
        );
        // An open branch, a reference to a definition without `type`, both unions, none.
        for open in [
            json!({ "anyOf": [{ "type": "object" }, { "minLength": 1 }] }),
            json!({ "anyOf": [{ "$ref": "#/$defs/Open" }] }),
            json!({ "anyOf": [{ "type": "object" }], "oneOf": [{ "type": "string" }] }),
            json!({ "properties": {} }),
        ] {
            assert_eq!(kinds(open), None);
        }
    }

    #[test]
    fn a_union_that_does_not_say_every_kind_is_left_as_it_is() {
        for schema in [
            // A branch of open kind, and a reference to a definition without `type`.
            json!({ "anyOf": [{ "type": "object" }, { "minLength": 1 }], "properties": {} }),
            json!({ "anyOf": [{ "type": "object" }, true], "properties": {} }),
            json!({ "anyOf": [{ "$ref": "#/$defs/Open" }], "properties": {} }),
            // Keywords that apply beside them.
            json!({ "anyOf": [{ "type": "object" }], "properties": {}, "$ref": "#/$defs/Text" }),
            json!({ "anyOf": [{ "type": "object" }], "properties": {}, "type": "object" }),
            // Keywords that read what the branches evaluate, where the union lets more than
            // one kind through.
            json!({ "anyOf": [{ "type": "object" }, { "type": "string" }], "unevaluatedProperties": false }),
            // Both unions, or nothing to move.
            json!({ "anyOf": [{ "type": "object" }], "oneOf": [{ "type": "object" }], "required": [] }),
            json!({ "anyOf": [{ "type": "object" }], "title": "T" }),
        ] {
            assert_eq!(rewritten(schema.clone()), schema);
        }
    }

    /// Keywords that read what the branches evaluate stay beside the union; where it lets one
    /// kind through, that kind is written out as the `type` (a tagged union closed by
    /// `unevaluatedProperties: false` is an object, not a schema every other kind passes).
    #[test]
    fn a_union_of_one_kind_says_the_type_of_keywords_that_stay_beside_it() {
        let tagged = json!({
            "oneOf": [
                { "type": "object", "properties": { "kind": { "const": "a" } } },
                { "$ref": "#/$defs/Text" }
            ],
            "unevaluatedProperties": false
        });
        let mut expected = tagged.clone();
        expected["oneOf"][1] = json!({ "type": "object" });
        let mut object = expected.clone();
        object["type"] = json!("object");
        assert_eq!(rewritten(expected), object);
        let branch = json!({
            "anyOf": [{ "type": "object", "unevaluatedProperties": false }],
            "properties": {}
        });
        let mut typed = branch.clone();
        typed["type"] = json!("object");
        assert_eq!(rewritten(branch), typed);
        // Integers are numbers.
        let numbers = json!({
            "anyOf": [{ "type": "integer" }, { "type": "number", "unevaluatedItems": false }],
            "minimum": 0
        });
        let mut typed = numbers.clone();
        typed["type"] = json!("number");
        assert_eq!(rewritten(numbers), typed);
        assert_eq!(rewritten(tagged.clone()), tagged, "`Text` is a string");
    }

    #[test]
    fn nested_schemas_are_rewritten_too() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": { "anyOf": [{ "type": "object" }, { "type": "string" }], "required": ["x"] }
            }
        });
        assert_eq!(
            rewritten(schema)["properties"]["a"],
            json!({ "anyOf": [{ "type": "object", "required": ["x"] }, { "type": "string" }] })
        );
    }

    #[test]
    fn a_list_of_types_beside_prefix_items_is_a_branch_per_kind() {
        let split = |mut schema: Value| {
            type_list_as_branches(&mut schema);
            schema
        };
        let pair = json!([{ "type": "number" }, { "type": "number" }]);
        assert_eq!(
            split(json!({
                "description": "Where, if known.",
                "type": ["array", "null"],
                "prefixItems": pair,
                "unevaluatedItems": false,
                "minLength": 2
            })),
            json!({
                "description": "Where, if known.",
                "oneOf": [
                    { "type": "array", "prefixItems": pair, "unevaluatedItems": false },
                    { "type": "null" }
                ]
            })
        );
        // `integer` goes with `number`, whose keywords are its own too.
        assert_eq!(
            split(json!({
                "type": ["integer", "array", "number"],
                "prefixItems": pair,
                "minimum": 0
            })),
            json!({
                "oneOf": [
                    { "type": "number", "minimum": 0 },
                    { "type": "array", "prefixItems": pair }
                ]
            })
        );
        // One kind is that kind's schema.
        assert_eq!(
            split(json!({ "type": "string", "prefixItems": pair, "maxLength": 3 })),
            json!({ "type": "string", "maxLength": 3 })
        );
        assert_eq!(
            split(json!({ "type": ["array"], "prefixItems": pair })),
            json!({ "type": "array", "prefixItems": pair })
        );
        // Nested, and left as written beside a keyword for no one kind, or without
        // `prefixItems`.
        for kept in [
            json!({ "type": ["array", "null"], "prefixItems": pair, "enum": [null] }),
            json!({ "type": ["array", "null"], "items": { "type": "string" } }),
            json!({ "type": "array", "prefixItems": pair }),
        ] {
            assert_eq!(split(kept.clone()), kept);
        }
        assert_eq!(
            split(json!({ "items": { "type": ["array", "null"], "prefixItems": pair } })),
            json!({
                "items": { "oneOf": [{ "type": "array", "prefixItems": pair }, { "type": "null" }] }
            })
        );
    }
}
