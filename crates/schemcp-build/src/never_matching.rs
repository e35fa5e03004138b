//! `anyOf`/`oneOf` branches of an object that no value can match.
//!
//! Random object unions (the union corpus, `u11-94`) have branches that require a member the
//! schema around declares with other kinds: `{"type": "object", "properties": {"b": {"type":
//! "object"}}, "oneOf": [.., {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}`.
//! No value matches that branch, and typify, merging the declarations, gave the whole schema a
//! type without values, which the generator then had to give up on (`serde_json::Value`).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::normalize::{all_of_members, allowed_kinds, required_names};
use crate::schema::{declared_kinds, for_each_child_mut};

/// Replaces with `false`, in the copy of a schema the generator converts, each `anyOf`/`oneOf`
/// branch of an object schema (`"type": "object"`) that requires a member, or stands beside a
/// schema that requires it, whose declaration in the branch shares no kind with what the
/// schema and its `allOf` branches declare of it. Such a branch matches no value, and neither
/// does `false`: the schema accepts the same values, `oneOf` counts the same matches, and a
/// failed branch gives `unevaluated*` no annotations either way. `settle_boolean_branches`
/// then leaves the `false` out.
pub(crate) fn drop_never_matching_branches(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut drop_never_matching_branches);
    if declared_kinds(object) != Some(BTreeSet::from(["object".to_string()])) {
        return;
    }
    let around = all_of_members(object);
    let never_matching: Vec<(&'static str, usize)> = ["anyOf", "oneOf"]
        .into_iter()
        .filter_map(|keyword| Some((keyword, object.get(keyword)?.as_array()?)))
        .flat_map(|(keyword, branches)| {
            branches
                .iter()
                .enumerate()
                .filter(|(_, branch)| {
                    let required = required_names(Some(branch));
                    let Some(Value::Object(members)) = branch.get("properties") else {
                        return false;
                    };
                    members.iter().any(|(name, member)| {
                        (around.required.contains(name.as_str()) || required.contains(name))
                            && allowed_kinds(member)
                                .zip(around.kinds.get(name.as_str()))
                                .is_some_and(|(here, around)| here.is_disjoint(around))
                    })
                })
                .map(move |(i, _)| (keyword, i))
        })
        .collect();
    for (keyword, i) in never_matching {
        schema[keyword][i] = Value::Bool(false);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn dropped(mut schema: Value) -> Value {
        drop_never_matching_branches(&mut schema);
        schema
    }

    #[test]
    fn a_branch_that_requires_a_member_of_other_kinds_matches_nothing() {
        let schema = json!({
            "type": "object",
            "properties": { "b": { "type": ["object", "null"] } },
            "allOf": [{ "properties": { "b": { "type": ["object", "string"] } } }],
            "oneOf": [
                { "properties": { "b": { "type": "string" } }, "required": ["b"] },
                { "properties": { "b": { "type": "object" } }, "required": ["b"] },
                { "properties": { "b": { "type": "integer" } } }
            ],
            "anyOf": [{ "properties": { "b": { "enum": [1, 2] } }, "required": ["b"] }]
        });
        let out = dropped(schema);
        // `b` is an object where present: a string never is.
        assert_eq!(out["oneOf"][0], json!(false));
        assert_ne!(out["oneOf"][1], json!(false));
        // Not required, so a value without `b` matches the third.
        assert_ne!(out["oneOf"][2], json!(false));
        assert_eq!(out["anyOf"][0], json!(false));
    }

    #[test]
    fn a_member_the_schema_around_requires_counts_too() {
        let schema = json!({
            "type": "object",
            "properties": { "b": { "type": "string" } },
            "required": ["b"],
            "anyOf": [{ "properties": { "b": { "type": "integer" } } }, { "required": ["c"] }]
        });
        assert_eq!(
            dropped(schema)["anyOf"],
            json!([false, { "required": ["c"] }])
        );
    }

    #[test]
    fn branches_of_schemas_that_may_not_be_objects_are_left_alone() {
        // A string matches the branch: `required` and `properties` say nothing of it.
        for schema in [
            json!({
                "properties": { "b": { "type": "string" } },
                "anyOf": [{ "properties": { "b": { "type": "integer" } }, "required": ["b"] }]
            }),
            json!({
                "type": ["object", "string"],
                "properties": { "b": { "type": "string" } },
                "anyOf": [{ "properties": { "b": { "type": "integer" } }, "required": ["b"] }]
            }),
            // Kinds not said: nothing is known.
            json!({
                "type": "object",
                "properties": { "b": { "minLength": 1 } },
                "anyOf": [{ "properties": { "b": { "type": "integer" } }, "required": ["b"] }]
            }),
        ] {
            assert_eq!(dropped(schema.clone()), schema);
        }
    }
}
