//! Merges typify would unroll without end.
//!
//! typify merges a reference with what stands beside it (`{"$ref": "#/$defs/Node",
//! "required": ["id"]}`, an `allOf` with a `$ref` branch) by copying the definition in. Where
//! the definition holds, at any depth, a merge that copies it in again (a tree whose children
//! refine the tree), typify copies without end until the stack overflows, and the build script
//! aborts without a word. A reference on its own stops the copying: typify names its target.
//! So [`unending`] finds every merge that leads back to itself, and the generator moves each
//! into a definition of its own, leaving a reference where it stood.

use std::collections::{BTreeMap, BTreeSet};

use schemcp_contract::keywords::ANNOTATIONS;
use serde_json::Value;

use crate::schema::{branches, for_each_subschema, subschemas};

/// Keywords typify reads nothing from where they stand beside a `$ref`.
fn inert(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword)
        || keyword.starts_with("x-")
        || matches!(
            keyword,
            "$ref" | "$defs" | "definitions" | "$anchor" | "$dynamicAnchor" | "$schema" | "$id"
        )
}

/// The references `object` makes typify copy in, if it is a merge: its own `$ref` beside
/// keywords typify reads, or an `allOf`, or an `anyOf`/`oneOf` beside such keywords (typify
/// merges what stands beside into each branch). The references are those of the object and
/// of its branches, in place, at any depth.
pub(crate) fn merged_refs(object: &serde_json::Map<String, Value>) -> Vec<&str> {
    let read_beside = |unions: &[&str]| {
        object
            .keys()
            .any(|k| !inert(k) && !unions.contains(&k.as_str()))
    };
    let merges = object.contains_key("allOf")
        || object.contains_key("$ref") && read_beside(&[])
        || (object.contains_key("anyOf") || object.contains_key("oneOf"))
            && read_beside(&["anyOf", "oneOf"]);
    let mut refs = Vec::new();
    if merges {
        in_place_refs(object, &mut refs);
    }
    refs
}

fn in_place_refs<'a>(object: &'a serde_json::Map<String, Value>, refs: &mut Vec<&'a str>) {
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        refs.push(reference);
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        for branch in branches(object, keyword)
            .iter()
            .filter_map(Value::as_object)
        {
            in_place_refs(branch, refs);
        }
    }
}

/// A merge in one schema of a set: where it stands (a JSON pointer within that schema) and
/// the schemas of the set (indices) it copies in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Merge {
    pub(crate) pointer: String,
    pub(crate) copies: BTreeSet<usize>,
}

/// Every merge in `schema`, in walk order (a merge before those inside it), with its
/// references resolved by `resolve` (one it cannot resolve copies nothing in).
pub(crate) fn merges(schema: &Value, resolve: &dyn Fn(&str) -> Option<usize>) -> Vec<Merge> {
    let mut found = Vec::new();
    for_each_subschema(schema, "", true, &mut |object, pointer| {
        let refs = merged_refs(object);
        if !refs.is_empty() {
            found.push(Merge {
                pointer: pointer.to_string(),
                copies: refs.into_iter().filter_map(resolve).collect(),
            });
        }
    });
    found
}

/// What the merges in `schema` copy in, all together, found without building pointers: most
/// sets have no merge that leads back to itself, and [`merges`] builds a pointer for every
/// subschema.
pub(crate) fn copied(schema: &Value, resolve: &dyn Fn(&str) -> Option<usize>) -> BTreeSet<usize> {
    fn walk(value: &Value, resolve: &dyn Fn(&str) -> Option<usize>, found: &mut BTreeSet<usize>) {
        let Value::Object(object) = value else {
            return;
        };
        found.extend(merged_refs(object).into_iter().filter_map(resolve));
        for (keyword, value) in object {
            for child in subschemas(keyword, value) {
                walk(child, resolve, found);
            }
        }
    }
    let mut found = BTreeSet::new();
    walk(schema, resolve, &mut found);
    found
}

/// The schemas reachable from `starts` (themselves included) through `edges`, what each
/// schema's merges copy in ([`copied`]).
fn reachable(starts: &BTreeSet<usize>, edges: &[BTreeSet<usize>]) -> BTreeSet<usize> {
    let mut seen = starts.clone();
    let mut todo: Vec<usize> = starts.iter().copied().collect();
    while let Some(i) = todo.pop() {
        for &next in edges.get(i).into_iter().flatten() {
            if seen.insert(next) {
                todo.push(next);
            }
        }
    }
    seen
}

/// Whether a schema of the set copies itself in, given what each one's merges copy in
/// ([`copied`]): only then does [`unending`] find anything.
pub(crate) fn copies_itself(edges: &[BTreeSet<usize>]) -> bool {
    (0..edges.len()).any(|i| reachable(&edges[i], edges).contains(&i))
}

/// The merges of `set` (each schema's, by index) that copy in, directly or through the merges
/// of what they copy (`edges`, as [`copies_itself`] takes them), the schema they stand in:
/// `(schema index, merge)`, in the order given.
pub(crate) fn unending<'a>(
    set: &'a [Vec<Merge>],
    edges: &[BTreeSet<usize>],
) -> Vec<(usize, &'a Merge)> {
    set.iter()
        .enumerate()
        .flat_map(|(i, merges)| merges.iter().map(move |merge| (i, merge)))
        .filter(|(i, merge)| reachable(&merge.copies, edges).contains(i))
        .collect()
}

/// What each schema's merges copy in, all together, from its merges.
fn edges(set: &[Vec<Merge>]) -> Vec<BTreeSet<usize>> {
    set.iter()
        .map(|merges| {
            merges
                .iter()
                .flat_map(|m| m.copies.iter().copied())
                .collect()
        })
        .collect()
}

/// The merges plain typify unrolls without end in `root` read as typify reads it (`#` the root,
/// `#/$defs/<name>` and `#/definitions/<name>` its definitions, nothing moved or rewritten),
/// as JSON pointers. The fidelity harness cannot catch the stack overflow its typify baseline
/// ends in on such a schema, so it asks first.
pub(crate) fn unending_in_plain_schema(root: &Value) -> Vec<String> {
    let mut schemas: Vec<(String, &Value)> = vec![(String::new(), root)];
    let mut keys: BTreeMap<String, usize> = BTreeMap::from([("#".to_string(), 0)]);
    for keyword in ["$defs", "definitions"] {
        for (name, def) in root
            .get(keyword)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let escaped = crate::schema::escape(name);
            keys.insert(format!("#/{keyword}/{escaped}"), schemas.len());
            schemas.push((format!("/{keyword}/{escaped}"), def));
        }
    }
    let resolve = |reference: &str| keys.get(reference).copied();
    let set: Vec<Vec<Merge>> = schemas
        .iter()
        .map(|(_, schema)| merges(schema, &resolve))
        .collect();
    unending(&set, &edges(&set))
        .into_iter()
        .map(|(i, merge)| format!("{}{}", schemas[i].0, merge.pointer))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(reference: &str) -> Option<usize> {
        match reference {
            "#/$defs/Node" => Some(0),
            "#/$defs/Leaf" => Some(1),
            _ => None,
        }
    }

    #[test]
    fn merges_are_references_beside_what_typify_reads() {
        let plain = json!({ "$ref": "#/$defs/Node", "description": "d", "default": {} });
        assert!(merged_refs(plain.as_object().unwrap()).is_empty());
        let beside = json!({ "$ref": "#/$defs/Node", "required": ["id"] });
        assert_eq!(merged_refs(beside.as_object().unwrap()), ["#/$defs/Node"]);
        let all_of = json!({ "allOf": [{ "$ref": "#/$defs/Node" }, { "anyOf": [{ "$ref": "#/$defs/Leaf" }] }] });
        assert_eq!(
            merged_refs(all_of.as_object().unwrap()),
            ["#/$defs/Node", "#/$defs/Leaf"]
        );
        // Variants, each holding its reference by name.
        let union = json!({ "oneOf": [{ "$ref": "#/$defs/Node" }, { "$ref": "#/$defs/Leaf" }] });
        assert!(merged_refs(union.as_object().unwrap()).is_empty());
        let merged_union = json!({ "required": ["id"], "oneOf": [{ "$ref": "#/$defs/Node" }] });
        assert_eq!(
            merged_refs(merged_union.as_object().unwrap()),
            ["#/$defs/Node"]
        );
    }

    #[test]
    fn a_merge_that_copies_in_its_own_schema_is_unending() {
        let node = json!({
            "type": "object",
            "properties": {
                "child": { "$ref": "#/$defs/Node", "required": ["id"] },
                "leaf": { "allOf": [{ "$ref": "#/$defs/Leaf" }, { "required": ["x"] }] },
                "next": { "$ref": "#/$defs/Node" }
            }
        });
        let leaf = json!({ "type": "object", "properties": { "x": { "type": "integer" } } });
        let set = [merges(&node, &resolve), merges(&leaf, &resolve)];
        assert_eq!(set[0].len(), 2);
        let found = unending(&set, &edges(&set));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 0);
        assert_eq!(found[0].1.pointer, "/properties/child");
    }

    #[test]
    fn a_cycle_through_two_definitions_is_found_at_each_merge() {
        // Node copies Leaf in, and Leaf copies Node in: both merges unroll.
        let node =
            json!({ "properties": { "leaf": { "$ref": "#/$defs/Leaf", "minProperties": 1 } } });
        let leaf = json!({ "properties": { "up": { "allOf": [{ "$ref": "#/$defs/Node" }] } } });
        let set = [merges(&node, &resolve), merges(&leaf, &resolve)];
        let found: Vec<(usize, &str)> = unending(&set, &edges(&set))
            .into_iter()
            .map(|(i, m)| (i, m.pointer.as_str()))
            .collect();
        assert_eq!(found, [(0, "/properties/leaf"), (1, "/properties/up")]);
        let copied_in = [copied(&node, &resolve), copied(&leaf, &resolve)];
        assert!(copies_itself(&copied_in));
        // Named by a plain reference on one side, the cycle stops there.
        let leaf = json!({ "properties": { "up": { "$ref": "#/$defs/Node" } } });
        let set = [merges(&node, &resolve), merges(&leaf, &resolve)];
        assert!(unending(&set, &edges(&set)).is_empty());
        assert!(!copies_itself(&[
            copied(&node, &resolve),
            copied(&leaf, &resolve)
        ]));
    }

    #[test]
    fn a_plain_schema_is_read_as_typify_reads_it() {
        let root = json!({
            "type": "object",
            "properties": { "sub": { "type": "object", "$ref": "#", "items": {} } },
            "$defs": { "Node": { "properties": { "n": { "$ref": "#/$defs/Node", "minItems": 1 } } } }
        });
        assert_eq!(
            unending_in_plain_schema(&root),
            ["/properties/sub", "/$defs/Node/properties/n"]
        );
    }
}
