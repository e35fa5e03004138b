//! Inline schemas that typify would give one name.
//!
//! typify names an inline schema after the type that holds it: a member's schema
//! `{Holder}{Member}`, the items of an array `{Holder}Item`, the values of a struct's other
//! members `{Holder}ExtraValue` and of a map `{Map}Value`. Where two different schemas get one
//! name, it silently reuses the type it made first for the second: members `fooBar` and
//! `foo_bar` of one object (both `{Holder}FooBar`) read the first one's type, and a member
//! `""`, `"_"` or `"-"` (named like its holder) replaced the holder's own struct, every other
//! member lost. [`name_inline_types_apart`] gives each schema after the first a name of its
//! own, through the mark [`finish_tuples`](crate::normalize::finish_tuples) turns into a title.

use std::collections::{BTreeMap, BTreeSet};

use heck::ToSnakeCase;
use serde_json::{Map, Value};

use crate::names::typify_pascal;
use crate::normalize::{POSITION_MARKER, option_part, type_enum_of_one_kind};
use crate::schema::{Children, canonical, children};

/// The name typify gives a schema: relative to the class's own name (scope 0) or to a schema
/// typify names some other way (a title, a union's branch, a merged part), each its own scope.
type Name = (usize, String);

/// Rounds of renaming: a renamed schema's members take its new name, so a round can make a
/// new pair alike; one round has been enough for every schema seen so far.
const ROUNDS: usize = 8;

/// Marks, in a class's schema as typify will read it, every inline schema that would be named
/// like a different one before it, with a name of its own (`{Holder}FooBar2`; `{Holder}X` for a
/// member whose name has no letter or digit, as its field is `x`).
pub(crate) fn name_inline_types_apart(schema: &mut Value) {
    for _ in 0..ROUNDS {
        let mut counts: BTreeMap<Name, usize> = BTreeMap::new();
        walk(schema, (0, String::new()), &mut 0, &mut |name, _| {
            *counts.entry(name.clone()).or_default() += 1;
        });
        if counts.values().all(|&n| n < 2) {
            return;
        }
        // Each name's distinct schemas, in the order typify meets them.
        let mut contents: BTreeMap<Name, Vec<String>> = BTreeMap::new();
        let repeated = |name: &Name| counts.get(name).is_some_and(|&n| n > 1);
        walk(schema, (0, String::new()), &mut 0, &mut |name, object| {
            if repeated(name) {
                let content = canonical(&Value::Object(object.clone()));
                let seen = contents.entry(name.clone()).or_default();
                if !seen.contains(&content) {
                    seen.push(content);
                }
            }
        });
        let mut taken: BTreeSet<String> = counts
            .keys()
            .filter(|(scope, _)| *scope == 0)
            .map(|(_, name)| name.clone())
            .collect();
        let mut renames: BTreeMap<(Name, String), String> = BTreeMap::new();
        for (name, schemas) in contents.into_iter().filter(|(_, s)| s.len() > 1) {
            for content in schemas.into_iter().skip(1) {
                let stem = if name.1.is_empty() { "X" } else { &name.1 };
                let start = if name.1.is_empty() { 1 } else { 2 };
                let renamed = (start..)
                    .map(|n| match n {
                        1 => stem.to_string(),
                        n => format!("{stem}{n}"),
                    })
                    .find(|candidate| !taken.contains(candidate))
                    .expect("an unbounded candidate list has a free name");
                taken.insert(renamed.clone());
                renames.insert((name.clone(), content), renamed);
            }
        }
        walk(schema, (0, String::new()), &mut 0, &mut |name, object| {
            if !repeated(name) {
                return;
            }
            let content = canonical(&Value::Object(object.clone()));
            if let Some(renamed) = renames.get(&(name.clone(), content)) {
                type_enum_of_one_kind(object);
                object.insert(POSITION_MARKER.into(), Value::String(renamed.clone()));
            }
        });
    }
}

/// The names typify gives the inline schemas of `schema` after where they stand, relative to
/// the class's own name (`FooBar` for `{Class}FooBar`; the class itself is `""`).
pub(crate) fn place_names(schema: &Value) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    walk(
        &mut schema.clone(),
        (0, String::new()),
        &mut 0,
        &mut |name, _| {
            if name.0 == 0 {
                names.insert(name.1.clone());
            }
        },
    );
    names
}

/// Calls `visit` with the name typify gives every schema of `schema` (not those with a `$ref`
/// or a Rust type of the runtime's), parents first, after which the schema's members take the
/// name `visit` may have changed.
fn walk(
    schema: &mut Value,
    name: Name,
    scopes: &mut usize,
    visit: &mut dyn FnMut(&Name, &mut Map<String, Value>),
) {
    let Some(object) = option_part(schema) else {
        return;
    };
    let mut name = match object.get(POSITION_MARKER) {
        Some(Value::String(path)) => (0, path.clone()),
        _ => name,
    };
    // A title names the schema, and what typify derives from it: a scope of its own, which
    // the schema itself opens (a member `""` of it would take the title's name).
    if object.contains_key("title") {
        name = fresh_scope(scopes);
    }
    if !object.contains_key("$ref") && !object.contains_key("x-rust-type") {
        visit(&name, object);
        if let Some(Value::String(path)) = object.get(POSITION_MARKER) {
            name = (0, path.clone());
        }
    }
    let struct_values = object.contains_key("properties");
    for (keyword, value) in object.iter_mut() {
        match (keyword.as_str(), value) {
            ("properties", Value::Object(members)) => {
                for (member, child) in members.iter_mut() {
                    let child_name = (name.0, format!("{}{}", name.1, suffix(member)));
                    walk(child, child_name, scopes, visit);
                }
            }
            ("items", child @ Value::Object(_)) => {
                walk(child, (name.0, format!("{}Item", name.1)), scopes, visit);
            }
            ("additionalProperties", child) => {
                let values = if struct_values { "ExtraValue" } else { "Value" };
                walk(
                    child,
                    (name.0, format!("{}{values}", name.1)),
                    scopes,
                    visit,
                );
            }
            // typify names what it makes of the other subschemas (union branches, merged
            // parts) in ways this does not follow: each is a scope of its own, so only its
            // own members are told apart.
            (keyword, Value::Object(map)) if matches!(children(keyword), Some(Children::Named)) => {
                for child in map.values_mut() {
                    walk(child, fresh_scope(scopes), scopes, visit);
                }
            }
            (keyword, Value::Array(list)) if children(keyword).is_some() => {
                for child in list {
                    walk(child, fresh_scope(scopes), scopes, visit);
                }
            }
            (keyword, child) if children(keyword).is_some() => {
                walk(child, fresh_scope(scopes), scopes, visit);
            }
            _ => {}
        }
    }
}

fn fresh_scope(scopes: &mut usize) -> Name {
    *scopes += 1;
    (*scopes, String::new())
}

/// What typify appends to its holder's name for a member's type: the member's name in
/// snake_case, then sanitized to PascalCase as typify sanitizes names (`fooBar`, `foo_bar` and
/// `foo-bar` are all `FooBar`; `""`, `"_"` and `"-"` add nothing).
fn suffix(member: &str) -> String {
    typify_pascal(&member.to_snake_case())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn suffixes_follow_typify() {
        assert_eq!(suffix("fooBar"), "FooBar");
        assert_eq!(suffix("foo_bar"), "FooBar");
        assert_eq!(suffix("foo-bar"), "FooBar");
        assert_eq!(suffix("foo bar"), "FooBar");
        for nothing in ["", "_", "-", "__", " "] {
            assert_eq!(suffix(nothing), "");
        }
    }

    #[test]
    fn members_named_alike_are_named_apart() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "fooBar": {"enum": ["a"]},
                "foo_bar": {"enum": ["b"]},
                "": {"type": "object", "properties": {"count": {"type": "integer"}}},
                "user": {"type": "object", "properties": {"status": {"enum": ["on"]}}},
                "userStatus": {"enum": ["off"]},
                "same": {"enum": ["c"]},
                "s-ame": {"enum": ["c"]}
            }
        });
        name_inline_types_apart(&mut schema);
        let mark = |pointer: &str| {
            schema
                .pointer(pointer)
                .unwrap()
                .get(POSITION_MARKER)
                .cloned()
        };
        assert_eq!(mark("/properties/fooBar"), None);
        assert_eq!(mark("/properties/foo_bar"), Some(json!("FooBar2")));
        assert_eq!(mark("/properties/"), Some(json!("X")));
        assert_eq!(mark("/properties/user/properties/status"), None);
        assert_eq!(mark("/properties/userStatus"), Some(json!("UserStatus2")));
        // The same schema under one name is one type: nothing to tell apart.
        assert_eq!(mark("/properties/s-ame"), None);
    }
}
