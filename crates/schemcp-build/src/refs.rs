//! Local references made into what typify resolves: `#/$defs/<name>`.
//!
//! typify follows only references to `$defs` entries. A contract may also point at the root
//! (`#`, zod's recursion), at any JSON pointer (`#/properties/a`), at an `$anchor`, or use
//! `$dynamicRef`; [`hoist_refs`] gives each such target a definition of its own in the copy
//! of the schema the generator converts, and the served schema stays as written.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::names::pascal;
use crate::schema::{
    decode_segment, escape, for_each_child_mut, for_each_ref_mut, for_each_subschema,
    keyword_place, mentions,
};

/// Reads every `$dynamicRef` as the `$ref` it amounts to in a schema that is one resource: no
/// `$id` below the root, and no `$dynamicAnchor` name declared twice. A `$dynamicRef` then
/// resolves to the outermost `$dynamicAnchor` of its name in the dynamic scope, and every
/// resource in that scope is this one, so it lands where a `$ref` would. (In a schema that
/// embeds resources, [`inline_resources`](schemcp_contract::resources::inline_resources) has
/// already read every `$dynamicRef` that lands in one place whatever the path; beside one that
/// does not, the `$id`s stay, and this leaves it alone.) Where `$ref` is already there, the
/// reference joins the `allOf`, where it applies in place just the same. Anything else is left
/// for the generator to refuse (or degrade).
pub(crate) fn static_dynamic_refs(
    root: &serde_json::Map<String, Value>,
) -> std::borrow::Cow<'_, serde_json::Map<String, Value>> {
    if !mentions(root, &["$dynamicRef"]) {
        return std::borrow::Cow::Borrowed(root);
    }
    let whole = Value::Object(root.clone());
    let mut one_resource = true;
    let mut dynamic_anchors = BTreeSet::new();
    for_each_subschema(&whole, "", false, &mut |object, pointer| {
        if !pointer.is_empty() && object.contains_key("$id") {
            one_resource = false;
        }
        if let Some(anchor) = object.get("$dynamicAnchor") {
            one_resource &= dynamic_anchors.insert(anchor.to_string());
        }
    });
    let mut copy = whole;
    if one_resource {
        static_refs(&mut copy);
    }
    match copy {
        Value::Object(object) => std::borrow::Cow::Owned(object),
        _ => std::borrow::Cow::Borrowed(root),
    }
}

fn static_refs(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut static_refs);
    if let Some(Value::String(reference)) = object.shift_remove("$dynamicRef") {
        schemcp_contract::resources::add_ref(object, reference);
    }
}

/// Makes every local reference a `#/$defs/<name>` reference, which is all typify resolves: a
/// reference to the root (`#`; one by the root's own `$id` already reads so, see
/// [`inline_resources`](schemcp_contract::resources::inline_resources)), to a JSON pointer
/// elsewhere (`#/properties/a`, `#/$defs/A/items`) or to an `$anchor` (`#node`) gets a copy of its target
/// in `$defs` under a new name, and is pointed there. Copies are made until no such reference
/// is left (a copy may contain references too; each target is copied once, so recursion ends).
/// Only the schema the generator converts changes; the served schema is as written.
///
/// Each target is one type, not a copy typed beside the original: where a target stands, it
/// becomes a reference to its copy too (deepest targets first, so an outer copy refers to the
/// inner one). The root cannot, so its copy is named `root_name`, the root's own type name,
/// and made from the final root (`classes` joins members of one name and content): a
/// recursive tool input is `struct Input { child: Option<Box<Input>> }`.
///
/// Also gives, for each copy, its name in `$defs` and the pointer of the place it was copied
/// from, so a problem found in the copy is reported where the author wrote it.
pub(crate) fn hoist_refs(
    root: &serde_json::Map<String, Value>,
    root_name: &str,
) -> (serde_json::Map<String, Value>, Vec<(String, String)>) {
    let original = Value::Object(root.clone());
    let mut anchors: BTreeMap<String, String> = BTreeMap::new();
    for_each_subschema(&original, "", false, &mut |object, pointer| {
        // A `$ref` to a `$dynamicAnchor` resolves to it as to an `$anchor`.
        for keyword in ["$anchor", "$dynamicAnchor"] {
            if let Some(Value::String(anchor)) = object.get(keyword) {
                anchors
                    .entry(anchor.clone())
                    .or_insert_with(|| pointer.to_string());
            }
        }
    });
    // The JSON pointer a local reference points at, unless it already names a definition.
    let target = |reference: &str| -> Option<String> {
        let fragment = reference.strip_prefix('#')?;
        if fragment.is_empty() {
            return Some(String::new());
        }
        if let Some(pointer) = fragment.strip_prefix('/') {
            let is_def = ["$defs/", "definitions/"].iter().any(|d| {
                pointer
                    .strip_prefix(d)
                    .is_some_and(|key| !key.is_empty() && !key.contains('/'))
            });
            return (!is_def).then(|| format!("/{pointer}"));
        }
        anchors.get(fragment).cloned()
    };
    // An anchor on a definition's root is that definition.
    let def_of = |pointer: &str| -> Option<String> {
        ["/$defs/", "/definitions/"].iter().find_map(|d| {
            let key = pointer.strip_prefix(d)?;
            (!key.is_empty() && !key.contains('/')).then(|| format!("#{pointer}"))
        })
    };
    let anchored_defs = |schema: &mut Value| {
        for_each_ref_mut(schema, false, &mut |reference| {
            if let Some(anchored) = reference
                .strip_prefix('#')
                .and_then(|a| anchors.get(a))
                .and_then(|p| def_of(p))
            {
                *reference = anchored;
            }
        });
    };
    let mut schema = original.clone();
    let mut copies: BTreeMap<String, String> = BTreeMap::new();
    // (JSON pointer, definition) of every target whose place now refers to its copy.
    let mut replaced: Vec<(String, String)> = Vec::new();
    let mut root_copy: Option<String> = None;
    let mut moved: Vec<(String, String)> = Vec::new();
    let mut taken: BTreeSet<String> = ["$defs", "definitions"]
        .iter()
        .filter_map(|k| root.get(*k).and_then(Value::as_object))
        .flat_map(|defs| defs.keys().cloned())
        .collect();
    for _ in 0..64 {
        anchored_defs(&mut schema);
        let mut pending: Vec<String> = Vec::new();
        for_each_ref_mut(&mut schema, false, &mut |reference| {
            if let Some(pointer) = target(reference)
                && !copies.contains_key(&pointer)
                && !pending.contains(&pointer)
            {
                pending.push(pointer);
            }
        });
        if pending.is_empty() {
            break;
        }
        // Deepest first: a target inside another is replaced by its reference before the outer
        // one is copied, so the outer copy refers to it too.
        pending.sort_by_key(|p| std::cmp::Reverse(p.matches('/').count()));
        for pointer in pending {
            let escaped = pointer
                .split('/')
                .map(decode_segment)
                .map(|s| escape(&s).into_owned())
                .collect::<Vec<_>>()
                .join("/");
            // Where the target stands now: inside the copy of an outer target already replaced.
            let place = replaced
                .iter()
                .filter(|(outer, _)| {
                    escaped
                        .strip_prefix(outer.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
                })
                .max_by_key(|(outer, _)| outer.len())
                .map_or_else(
                    || escaped.clone(),
                    |(outer, name)| format!("/$defs/{}{}", escape(name), &escaped[outer.len()..]),
                );
            let found = if pointer.is_empty() {
                // Filled in from the final schema below.
                Some(Value::Null)
            } else {
                schema
                    .pointer(&place)
                    .or_else(|| original.pointer(&escaped))
                    .cloned()
            };
            // A dangling reference stays as it is and is reported (or degraded) later.
            let Some(found) = found else { continue };
            let base = if pointer.is_empty() {
                root_name.to_string()
            } else {
                pointer
                    .rsplit('/')
                    .map(decode_segment)
                    .find(|s| !s.is_empty() && s.parse::<usize>().is_err() && !is_keyword(s))
                    .unwrap_or_else(|| "Ref".into())
            };
            let base = pascal(&base);
            let base = if base.is_empty() {
                "Ref".to_string()
            } else {
                base
            };
            let name = std::iter::once(base.clone())
                .chain((2..).map(|n| format!("{base}{n}")))
                .find(|n| !taken.contains(n))
                .expect("an unbounded list has a free name");
            taken.insert(name.clone());
            if let Value::Object(object) = &mut schema {
                let defs = object
                    .entry("$defs")
                    .or_insert_with(|| Value::Object(serde_json::Map::new()));
                if let Value::Object(defs) = defs {
                    defs.insert(name.clone(), found);
                }
            }
            // The schema where the target stands refers to the copy too, so the two are one
            // type (`a` and a `$ref` to `#/properties/a` both hold an `A`), not twins that
            // cannot be assigned to each other. Only a schema's place: a `$ref` into
            // `examples` or `const` names a value, which stays as written.
            if pointer.is_empty() {
                root_copy = Some(name.clone());
            } else if keyword_place(
                &pointer
                    .split('/')
                    .skip(1)
                    .map(decode_segment)
                    .collect::<Vec<_>>(),
            ) && let Some(place) = schema.pointer_mut(&place)
            {
                *place = json!({ "$ref": format!("#/$defs/{}", escape(&name)) });
                replaced.push((escaped.clone(), name.clone()));
            }
            moved.push((name.clone(), escaped));
            copies.insert(pointer, name);
        }
        for_each_ref_mut(&mut schema, false, &mut |reference| {
            if let Some(name) = target(reference).and_then(|p| copies.get(&p)) {
                *reference = format!("#/$defs/{}", escape(name));
            }
        });
    }
    // The root's copy is the root as it ends up, references rewritten, so the two are alike.
    if let (Some(name), Value::Object(object)) = (root_copy, &mut schema) {
        let mut whole = object.clone();
        for keyword in ["$defs", "definitions", "$schema", "$id", "title"] {
            whole.shift_remove(keyword);
        }
        if let Some(Value::Object(defs)) = object.get_mut("$defs") {
            defs.insert(name, Value::Object(whole));
        }
    }
    match schema {
        Value::Object(object) => (object, moved),
        _ => (root.clone(), moved),
    }
}

/// Keywords that hold subschemas, which make poor type names.
fn is_keyword(segment: &str) -> bool {
    matches!(
        segment,
        "properties"
            | "items"
            | "additionalProperties"
            | "patternProperties"
            | "allOf"
            | "anyOf"
            | "oneOf"
            | "not"
            | "$defs"
            | "definitions"
            | "prefixItems"
            | "contains"
    )
}
