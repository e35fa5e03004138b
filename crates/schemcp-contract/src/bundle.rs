//! Making each served schema self-contained.
//!
//! A reference that leaves the schema's own document (by path, or by the `$id` of a schema in
//! the folder) is replaced by `#/$defs/<Name>`, and the schema it named is copied into the root
//! `$defs` under that name, without a root `$id` or `$schema`. Copies are rewritten the
//! same way, relative to the file they came from, until nothing points outside. Names:
//!
//! - a pointer ref (`common.json#/$defs/Address`) takes its last segment, `Address`;
//! - a whole-file ref (`address.json`) takes the file's `title`, else its stem, in PascalCase;
//! - a name already used in that `$defs` (by the schema's own definitions or by a copy from a
//!   different origin) gets the first free suffix `2`, `3`, ... in first-reference order,
//!   which walks the schema in document order and then each copy in the order it was added.
//!
//! One origin (file + pointer) is copied once per schema, so recursive and shared
//! definitions stay one definition. An origin inside another copied origin is not copied
//! again: `common.json#/$defs/Address/properties/street`, beside a reference to
//! `common.json#/$defs/Address`, becomes `#/$defs/Address/properties/street`.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;

use serde_json::{Map, Value};

use crate::Origin;
use crate::json::uri_fragment;
use crate::load::{Files, Target, has_scheme};
use crate::locate::{escape_token, split_pointer, within};
use crate::schema::{self, Walk};

struct Names {
    taken: HashSet<String>,
    assigned: HashMap<Target, String>,
    pending: VecDeque<(String, Target)>,
}

impl Names {
    fn name_for(&mut self, files: &Files, target: &Target) -> String {
        if let Some(name) = self.assigned.get(target) {
            return name.clone();
        }
        let base = base_name(files, target);
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        self.assigned.insert(target.clone(), name.clone());
        self.pending.push_back((name.clone(), target.clone()));
        name
    }
}

fn base_name(files: &Files, target: &Target) -> String {
    let last = split_pointer(&target.pointer).and_then(|segments| segments.last().cloned());
    if let Some(last) = last.filter(|s| !s.is_empty()) {
        return last;
    }
    let title = files
        .value(target)
        .get("title")
        .and_then(Value::as_str)
        .map(pascal_case);
    let stem = || {
        let key = &files.list[target.file].key;
        pascal_case(
            &Path::new(key)
                .file_stem()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default(),
        )
    };
    title.filter(|t| !t.is_empty()).unwrap_or_else(stem)
}

fn pascal_case(s: &str) -> String {
    let words = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let out: String = words
        .map(|w| {
            let mut chars = w.chars();
            let first = chars
                .next()
                .map(|c| c.to_uppercase().collect::<String>())
                .unwrap_or_default();
            first + chars.as_str()
        })
        .collect();
    if out.is_empty() {
        "Schema".to_string()
    } else {
        out
    }
}

/// Rewrites every reference in `value` (which sits at `at` in file `file`) that leaves the
/// served document `served` (tool file, schema pointer): those written in the served schema
/// itself and landing inside it stay as written; a copy's reference back into the served schema
/// becomes a local pointer; everything else becomes a copied definition.
fn rewrite(
    files: &Files,
    value: &mut Value,
    (file, at): (usize, &str),
    served: (usize, &str),
    names: &mut Names,
) {
    let copied = (file, at) != served;
    let doc_root = files.doc_root(file, at);
    for (rel, keyword, reference) in schema::refs(value, "", Walk::All) {
        let holder = format!("{at}{rel}");
        // Loading already rejected every reference that does not resolve.
        let Ok(target) = files.resolve_ref(file, &doc_root, &holder, &reference) else {
            continue;
        };
        let into_served = target.file == served.0 && within(&target.pointer, served.1);
        // A reference by the schema's own `$id` becomes a local one, as the copies' do: the
        // `{"result"}` wrapper for older clients re-points local references only. One written
        // inside an embedded resource stays as written: it resolves against that resource, and
        // loading made sure it lands in this document.
        let in_resource = files.in_embedded(file, &doc_root, &holder);
        if into_served && !copied && (!has_scheme(&reference) || in_resource) {
            continue;
        }
        let local = if into_served {
            format!("#{}", uri_fragment(&target.pointer[served.1.len()..]))
        } else {
            let name = names.name_for(files, &target);
            format!("#/$defs/{}", uri_fragment(&escape_token(&name)))
        };
        if let Some(Value::Object(schema)) = value.pointer_mut(&rel) {
            schema.insert(keyword.into(), Value::String(local));
        }
    }
}

/// The bundled `key` schema of tool file `tool`, and `(pointer into the Tool, origin)` for each
/// definition copied into it.
pub(crate) fn bundle(files: &Files, tool: usize, key: &str) -> (Value, Vec<(String, Origin)>) {
    let root = format!("/{}", escape_token(key));
    let mut schema = files
        .value(&Target {
            file: tool,
            pointer: root.clone(),
        })
        .clone();
    let taken = match schema.get("$defs") {
        Some(Value::Object(defs)) => defs.keys().cloned().collect(),
        _ => HashSet::new(),
    };
    let mut names = Names {
        taken,
        assigned: HashMap::new(),
        pending: VecDeque::new(),
    };
    rewrite(files, &mut schema, (tool, &root), (tool, &root), &mut names);
    let mut copies = Vec::new();
    while let Some((name, target)) = names.pending.pop_front() {
        let mut copy = files.value(&target).clone();
        // A copy's names and dialect stay with its file. In `$defs` a `$id` (the copied root's,
        // or that of a resource embedded in it) would start a resource of its own, against
        // which the references rewritten below, each to its place read from the served root,
        // would no longer resolve; and `$schema` belongs at a resource's root only (the loader
        // holds every file to 2020-12, the dialect of the schema the copy goes into).
        if let Value::Object(root) = &mut copy {
            root.shift_remove("$schema");
        }
        let mut named = Vec::new();
        schema::visit(&copy, "", Walk::All, &mut |at, schema| {
            if schema.get("$id").is_some_and(Value::is_string) {
                named.push(at.to_string());
            }
        });
        for at in named {
            if let Some(Value::Object(schema)) = copy.pointer_mut(&at) {
                schema.shift_remove("$id");
            }
        }
        rewrite(
            files,
            &mut copy,
            (target.file, &target.pointer),
            (tool, &root),
            &mut names,
        );
        copies.push((name, copy, target));
    }
    let copies = fold_nested_copies(&mut schema, copies);
    let mut origins = Vec::new();
    if let (Value::Object(map), false) = (&mut schema, copies.is_empty()) {
        let defs = map
            .entry("$defs")
            .or_insert_with(|| Value::Object(Map::new()));
        if !defs.is_object() {
            *defs = Value::Object(Map::new());
        }
        let defs = defs.as_object_mut().expect("made an object above");
        for (name, copy, target) in copies {
            origins.push((
                format!("{root}/$defs/{}", escape_token(&name)),
                Origin {
                    file: files.list[target.file].path.clone(),
                    pointer: target.pointer,
                },
            ));
            defs.insert(name, copy);
        }
    }
    (schema, origins)
}

/// Drops the copies whose origin lies inside another copy's origin, pointing their references
/// into that copy instead (`#/$defs/Address/properties/street`, not a `Street` of its own):
/// one schema stays one definition, and so one generated type. Not below the other's `$defs`.
fn fold_nested_copies(
    schema: &mut Value,
    copies: Vec<(String, Value, Target)>,
) -> Vec<(String, Value, Target)> {
    let local = |name: &str| format!("#/$defs/{}", uri_fragment(&escape_token(name)));
    let mut moved: HashMap<String, String> = HashMap::new();
    // What lies below `outer`, or `None`: a definition of the outer schema's own is no part
    // of its type (nothing is generated for it twice), and stays a definition of the bundle.
    let below = |target: &Target, outer: &Target| {
        let inside = outer.file == target.file
            && outer.pointer != target.pointer
            && within(&target.pointer, &outer.pointer);
        let rest = inside.then(|| target.pointer[outer.pointer.len()..].to_string())?;
        let own_definition = rest
            .split('/')
            .any(|token| token == "$defs" || token == "definitions");
        (!own_definition).then_some(rest)
    };
    for (name, _, target) in &copies {
        let outermost = copies
            .iter()
            .filter_map(|(outer, _, at)| Some((outer, below(target, at)?)))
            .min_by_key(|(_, rest)| std::cmp::Reverse(rest.len()));
        if let Some((outer, rest)) = outermost {
            moved.insert(
                local(name),
                format!("{}{}", local(outer), uri_fragment(&rest)),
            );
        }
    }
    if moved.is_empty() {
        return copies;
    }
    let repoint = |value: &mut Value| {
        for (at, keyword, reference) in schema::refs(value, "", Walk::All) {
            if let (Some(to), Some(Value::Object(holder))) =
                (moved.get(&reference), value.pointer_mut(&at))
            {
                holder.insert(keyword.into(), Value::String(to.clone()));
            }
        }
    };
    repoint(schema);
    copies
        .into_iter()
        .filter(|(name, _, _)| !moved.contains_key(&local(name)))
        .map(|(name, mut copy, target)| {
            repoint(&mut copy);
            (name, copy, target)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_case_joins_words() {
        assert_eq!(pascal_case("weather_data"), "WeatherData");
        assert_eq!(pascal_case("get-forecast.v2"), "GetForecastV2");
        assert_eq!(pascal_case("WeatherData"), "WeatherData");
        assert_eq!(pascal_case("Street address"), "StreetAddress");
        assert_eq!(pascal_case("__"), "Schema");
    }

    #[test]
    fn fragments_escape_what_uris_cannot_hold() {
        assert_eq!(uri_fragment("A b%c~1d"), "A%20b%25c~1d");
    }
}
