//! Schema-aware walking of JSON Schema documents: only keywords whose values are schemas are
//! entered, so data that merely looks like a schema (`enum`, `const`, `default`, `examples`) and
//! properties that happen to be named `default` are handled correctly.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use schemcp_contract::json::push_token;
use serde_json::{Value, json};

use crate::branch_kinds::union_kinds;
use crate::names::listed;
use crate::normalize::outside_tagged_patterns;

/// How a keyword holds subschemas.
pub(crate) enum Children {
    /// `{ name: schema }`
    Named,
    /// `schema`, or for `items` a draft-07 array of schemas
    One,
    /// `[schema]`
    List,
}

pub(crate) fn children(keyword: &str) -> Option<Children> {
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
pub(crate) fn for_each_child_mut(
    object: &mut serde_json::Map<String, Value>,
    f: &mut dyn FnMut(&mut Value),
) {
    for_each_child_mut_under(object, &|_| true, f);
}

/// [`for_each_child_mut`], through the keywords `under` accepts only.
pub(crate) fn for_each_child_mut_under(
    object: &mut serde_json::Map<String, Value>,
    under: &dyn Fn(&str) -> bool,
    f: &mut dyn FnMut(&mut Value),
) {
    for (keyword, value) in object.iter_mut().filter(|(k, _)| under(k)) {
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

/// The subschemas `value` holds under `keyword` (none where [`children`] knows no schemas),
/// without building pointers.
pub(crate) fn subschemas<'a>(keyword: &str, value: &'a Value) -> Subschemas<'a> {
    match (children(keyword), value) {
        (Some(Children::Named), Value::Object(map)) => Subschemas::Named(map.values()),
        (Some(Children::One | Children::List), Value::Array(list)) => Subschemas::List(list.iter()),
        (Some(Children::One), child) => Subschemas::One(Some(child)),
        _ => Subschemas::One(None),
    }
}

/// What [`subschemas`] returns.
pub(crate) enum Subschemas<'a> {
    Named(serde_json::map::Values<'a>),
    List(std::slice::Iter<'a, Value>),
    One(Option<&'a Value>),
}

impl<'a> Iterator for Subschemas<'a> {
    type Item = &'a Value;

    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Subschemas::Named(values) => values.next(),
            Subschemas::List(list) => list.next(),
            Subschemas::One(one) => one.take(),
        }
    }
}

/// Whether `object` or any subschema below it has one of `keywords`; no pointers are built,
/// so it is cheap enough to decide whether a rewrite has anything to do.
pub(crate) fn mentions(object: &serde_json::Map<String, Value>, keywords: &[&str]) -> bool {
    let below = |child: &Value| child.as_object().is_some_and(|o| mentions(o, keywords));
    object.iter().any(|(keyword, value)| {
        keywords.contains(&keyword.as_str()) || subschemas(keyword, value).any(below)
    })
}

/// Whether `schema` rejects every value somewhere typify makes a type of it (an enum without
/// variants): `false` as the schema itself, a definition, a branch or an item; `"not": {}`;
/// `"enum": []`. `false` elsewhere is a rule typify reads otherwise (`additionalProperties:
/// false` closes an object, a member declared `false` is left out) or does not type at all.
/// An `allOf` branch that refers to a definition counts with the kinds the definition's `type`
/// allows (`kinds_of`, by reference): `{"allOf": [{"type": "number"}, {"$ref":
/// "#/$defs/Name"}]}` with `Name` a string has no value either.
pub(crate) fn says_no_value(
    schema: &Value,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) -> bool {
    const TYPED: [&str; 7] = [
        "$defs",
        "definitions",
        "allOf",
        "anyOf",
        "oneOf",
        "items",
        "prefixItems",
    ];
    let object = match schema {
        Value::Bool(accepts) => return !accepts,
        Value::Object(object) => object,
        _ => return false,
    };
    let accepts_all =
        |v: &Value| *v == Value::Bool(true) || v.as_object().is_some_and(|o| o.is_empty());
    // A list of `null` alone leaves nothing for the type beside the `Option`.
    let no_value_but_null = |values: &Vec<Value>| values.iter().all(Value::is_null);
    if object
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(no_value_but_null)
        || object.get("const") == Some(&Value::Null)
        || object.get("not").is_some_and(accepts_all)
        || disjoint_types(object, kinds_of)
    {
        return true;
    }
    let below = |keyword: &str, child: &Value| match child {
        Value::Bool(false) => TYPED.contains(&keyword),
        child => says_no_value(child, kinds_of),
    };
    object
        .iter()
        .filter(|(keyword, _)| *keyword != "not")
        .any(|(keyword, value)| subschemas(keyword, value).any(|child| below(keyword, child)))
}

/// The members some merge in `schema` leaves no value, so that where that merge holds they
/// must be absent, and typify rightly types them as an enum without variants. typify merges
/// an object with its `allOf`, `anyOf` and `oneOf` branches (and the schemas they reference,
/// resolved by `target`), at any depth, and the branches with each other, except two of one
/// `anyOf` or `oneOf` list. Where one of two pieces it merges declares a member the other does
/// not, the other's `additionalProperties` applies to it there, and may allow none of its
/// kinds: Renovate's `{"$ref": "#", "additionalProperties": {"type": "string"}}` lets none of
/// the root's array members in; beside `"additionalProperties": {"type": "integer"}` an
/// `anyOf` branch's `"b": {"type": ["string", "null"]}` lets `b` in nowhere; and a `oneOf`
/// branch `{"additionalProperties": {"type": "integer"}}` lets no `"c": {"type": "string"}`
/// declared around it in.
///
/// A schema whose merged pieces both declare a member with kinds that share none leaves no
/// member out here: typify may then leave out whole merges that values match with the member
/// absent (see [`crate::normalize::absent_unmeetable_members`]), and an enum without variants
/// in its type is the sign of such a mistype, not of a member that must be absent.
pub(crate) fn members_merges_leave_no_value<'a>(
    schema: &'a Value,
    target: &dyn Fn(&str) -> Option<&'a Value>,
) -> BTreeSet<String> {
    let mut absent = BTreeSet::new();
    collect_merge_absent(schema, true, target, &mut absent);
    absent
}

/// Reads `schema` as one type's merge where it `holds` it; an `allOf`/`anyOf`/`oneOf` branch
/// does not: its pieces are read with those of the schema holding it, gate included.
fn collect_merge_absent<'a>(
    schema: &'a Value,
    holds: bool,
    target: &dyn Fn(&str) -> Option<&'a Value>,
    absent: &mut BTreeSet<String>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    if holds {
        absent_in_merge(object, target, absent);
    }
    for (keyword, value) in object {
        for child in subschemas(keyword, value) {
            collect_merge_absent(child, !merged(keyword), target, absent);
        }
    }
}

/// Adds to `absent` what the merge of `object`'s pieces leaves no value.
fn absent_in_merge<'a>(
    object: &'a serde_json::Map<String, Value>,
    target: &dyn Fn(&str) -> Option<&'a Value>,
    absent: &mut BTreeSet<String>,
) {
    let mut pieces = Vec::new();
    collect_pieces(object, &mut Vec::new(), &mut 0, target, &mut pieces);
    let merged: Vec<(&Piece<'_>, &Piece<'_>)> = pieces
        .iter()
        .enumerate()
        .flat_map(|(i, p)| pieces[i + 1..].iter().map(move |q| (p, q)))
        .filter(|(p, q)| p.merges_with(q))
        .collect();
    let kinds = |member: &Value| kinds_through_refs(member, target);
    if !merged.iter().any(|(p, q)| p.conflicts_with(q, &kinds)) {
        for (p, q) in merged {
            p.leaves_no_value_with(q, &kinds, absent);
            q.leaves_no_value_with(p, &kinds, absent);
        }
    }
}

/// The kinds of value a member schema allows, as [`kinds_through_refs`] reads them.
type Kinds<'k> = dyn Fn(&Value) -> Option<BTreeSet<String>> + 'k;

/// The kinds of value `member` allows
/// ([`allowed_kinds`](crate::normalize::allowed_kinds)), or where it says none itself, those
/// of the schema its `$ref` names, and so on: a member whose `type` is its reference's is
/// written as the reference alone by then.
fn kinds_through_refs<'a>(
    member: &Value,
    target: &dyn Fn(&str) -> Option<&'a Value>,
) -> Option<BTreeSet<String>> {
    // References may go round; a chain this long says nothing of kinds anyway.
    const FOLLOWED: usize = 8;
    let mut schema = member;
    for _ in 0..FOLLOWED {
        if let Some(kinds) = crate::normalize::allowed_kinds(schema) {
            return Some(kinds);
        }
        schema = target(schema.get("$ref")?.as_str()?)?;
    }
    None
}

/// An object schema typify merges into a type, with the alternatives taken to reach it: the
/// `anyOf`/`oneOf` list (numbered in walk order) and the branch chosen there.
struct Piece<'a> {
    object: &'a serde_json::Map<String, Value>,
    chosen: Vec<(usize, usize)>,
}

impl Piece<'_> {
    /// Whether typify merges the two: no list where they take different branches.
    fn merges_with(&self, other: &Piece<'_>) -> bool {
        !std::ptr::eq(self.object, other.object)
            && !self
                .chosen
                .iter()
                .any(|(list, branch)| other.chosen.iter().any(|(l, b)| l == list && b != branch))
    }

    /// Whether both declare a member with kinds that share none.
    fn conflicts_with(&self, other: &Piece<'_>, kinds: &Kinds<'_>) -> bool {
        let (Some(Value::Object(mine)), Some(Value::Object(theirs))) = (
            self.object.get("properties"),
            other.object.get("properties"),
        ) else {
            return false;
        };
        mine.iter().any(|(name, member)| {
            theirs
                .get(name)
                .and_then(kinds)
                .zip(kinds(member))
                .is_some_and(|(a, b)| a.is_disjoint(&b))
        })
    }

    /// Adds to `absent` the members `self` declares, `other` does not, and `other`'s
    /// `additionalProperties` allows no value of.
    fn leaves_no_value_with(
        &self,
        other: &Piece<'_>,
        kinds: &Kinds<'_>,
        absent: &mut BTreeSet<String>,
    ) {
        // `additionalProperties` does not apply where `patternProperties` may.
        let Some(allowed) = other
            .object
            .get("additionalProperties")
            .and_then(Value::as_object)
            .filter(|_| !other.object.contains_key("patternProperties"))
            .and_then(declared_kinds)
        else {
            return;
        };
        let theirs = other.object.get("properties").and_then(Value::as_object);
        let Some(Value::Object(members)) = self.object.get("properties") else {
            return;
        };
        for (name, member) in members {
            let additional = theirs.is_none_or(|theirs| !theirs.contains_key(name));
            if additional && kinds(member).is_some_and(|kinds| kinds.is_disjoint(&allowed)) {
                absent.insert(name.trim_end_matches(NULLABLE_OPTIONAL).to_string());
            }
        }
    }
}

/// Adds `object`, the schema it references and every branch merged into it, at any depth, to
/// `pieces`. A referenced schema's own branches are not followed: a reference may lead back.
fn collect_pieces<'a>(
    object: &'a serde_json::Map<String, Value>,
    chosen: &mut Vec<(usize, usize)>,
    lists: &mut usize,
    target: &dyn Fn(&str) -> Option<&'a Value>,
    pieces: &mut Vec<Piece<'a>>,
) {
    pieces.push(Piece {
        object,
        chosen: chosen.clone(),
    });
    if let Some(Value::Object(referenced)) =
        object.get("$ref").and_then(Value::as_str).and_then(target)
    {
        pieces.push(Piece {
            object: referenced,
            chosen: chosen.clone(),
        });
    }
    for keyword in MERGED {
        let list = *lists;
        *lists += 1;
        for (i, branch) in branches(object, keyword).iter().enumerate() {
            let Value::Object(branch) = branch else {
                continue;
            };
            let alternative = keyword != "allOf";
            if alternative {
                chosen.push((list, i));
            }
            collect_pieces(branch, chosen, lists, target, pieces);
            if alternative {
                chosen.pop();
            }
        }
    }
}

/// Whether `object` and its `allOf` branches name kinds (`type`) no value has at once, such as
/// `"allOf": [{"type": "number"}, {"type": "string"}]`.
fn disjoint_types(
    object: &serde_json::Map<String, Value>,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) -> bool {
    // A `$ref` applies in place: a part's values are among those of the definition it names.
    let kinds = |part: &serde_json::Map<String, Value>| {
        declared_kinds(part).or_else(|| kinds_of(part.get("$ref")?.as_str()?))
    };
    branches(object, "allOf")
        .iter()
        .filter_map(Value::as_object)
        .chain([object])
        .filter_map(kinds)
        .reduce(intersect)
        .is_some_and(|common| common.is_empty())
}

/// The kinds of value every one of `parts` allows ([`declared_kinds`]), as a value that must
/// match them all has; `None` where none has a `type`.
pub(crate) fn common_kinds<'a>(
    parts: impl IntoIterator<Item = &'a serde_json::Map<String, Value>>,
) -> Option<BTreeSet<String>> {
    parts
        .into_iter()
        .filter_map(declared_kinds)
        .reduce(intersect)
}

fn intersect(common: BTreeSet<String>, kinds: BTreeSet<String>) -> BTreeSet<String> {
    common.intersection(&kinds).cloned().collect()
}

/// The kinds of value `schema`'s `type` allows, `integer` included where `number` is (an
/// integer is a number); `None` without a `type`.
pub(crate) fn declared_kinds(schema: &serde_json::Map<String, Value>) -> Option<BTreeSet<String>> {
    type_kinds(schema.get("type")?)
}

/// The kinds of value a `type` keyword's value allows, as [`declared_kinds`] gives them.
pub(crate) fn type_kinds(kind: &Value) -> Option<BTreeSet<String>> {
    let mut kinds: BTreeSet<String> = match kind {
        Value::String(kind) => [kind.clone()].into(),
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => return None,
    };
    if kinds.contains("number") {
        kinds.insert("integer".to_string());
    }
    Some(kinds)
}

/// The one kind of value `keyword` constrains (`items`: `array`), or `None` for a keyword
/// that applies to every kind.
pub(crate) fn keyword_kind(keyword: &str) -> Option<&'static str> {
    TYPED_KEYWORDS
        .iter()
        .find(|(_, keywords)| keywords.contains(&keyword))
        .map(|(kind, _)| *kind)
}

/// Whether keywords for values of `kind` ([`keyword_kind`]) constrain some value of `kinds`
/// (as [`type_kinds`] gives them): number keywords apply to integers too.
pub(crate) fn constrains(kinds: &BTreeSet<String>, kind: &str) -> bool {
    kinds.contains(kind) || kind == "number" && kinds.contains("integer")
}

pub(crate) use schemcp_contract::json::escape_token as escape;

/// The segment [`escape`] was given back (a JSON pointer's, not a URI fragment's: see
/// [`decode_segment`]).
pub(crate) fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
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
    // One pointer buffer for the whole walk, grown and cut back segment by segment: most
    // callers only look at a few of the pointers.
    let mut at = pointer.to_string();
    walk_subschemas(object, &mut at, skip_root_defs, f);
}

fn walk_subschemas(
    object: &serde_json::Map<String, Value>,
    pointer: &mut String,
    skip_root_defs: bool,
    f: &mut dyn FnMut(&serde_json::Map<String, Value>, &str),
) {
    f(object, pointer);
    for (keyword, value) in object {
        if skip_root_defs && (keyword == "$defs" || keyword == "definitions") {
            continue;
        }
        let Some(kind) = children(keyword) else {
            continue;
        };
        let here = pointer.len();
        push_token(pointer, keyword);
        let mut child_at =
            |pointer: &mut String, segment: &dyn std::fmt::Display, child: &Value| {
                if let Value::Object(child) = child {
                    let there = pointer.len();
                    write!(pointer, "/{segment}").expect("writing to a String");
                    walk_subschemas(child, pointer, false, f);
                    pointer.truncate(there);
                }
            };
        match (kind, value) {
            (Children::Named, Value::Object(map)) => {
                for (name, child) in map {
                    child_at(pointer, &escape(name), child);
                }
            }
            (Children::One | Children::List, Value::Array(list)) => {
                for (i, child) in list.iter().enumerate() {
                    child_at(pointer, &i, child);
                }
            }
            (Children::One, Value::Object(child)) => walk_subschemas(child, pointer, false, f),
            _ => {}
        }
        pointer.truncate(here);
    }
}

/// Like [`for_each_subschema`] from the root, then into every place a local reference
/// (`#/components/schemas/a`) names that the walk did not reach: a definition kept outside
/// `$defs` is a subschema only through the references to it. Each subschema is seen once.
pub(crate) fn for_each_reached_subschema(
    root: &Value,
    f: &mut dyn FnMut(&serde_json::Map<String, Value>, &str),
) {
    // The places the walk from the root reaches need no record: only what is outside them.
    let mut pending = Vec::new();
    for_each_subschema(root, "", false, &mut |object, pointer| {
        pending.extend(outside_target(object));
        f(object, pointer);
    });
    let mut seen: BTreeSet<String> = BTreeSet::new();
    while !pending.is_empty() {
        // Sorted, walked in that order: the same places in the same order on every run.
        pending.sort();
        pending.dedup();
        let start = pending.remove(0);
        let Some(schema) = root.pointer(&start).filter(|_| !seen.contains(&start)) else {
            continue;
        };
        for_each_subschema(schema, &start, false, &mut |object, pointer| {
            if seen.insert(pointer.to_string()) {
                pending.extend(outside_target(object));
                f(object, pointer);
            }
        });
    }
}

/// The JSON pointer `object`'s `$ref` names, where a walk by keywords does not reach it.
fn outside_target(object: &serde_json::Map<String, Value>) -> Option<String> {
    let fragment = object.get("$ref")?.as_str()?.strip_prefix("#/")?;
    let segments: Vec<String> = fragment.split('/').map(decode_segment).collect();
    if keyword_place(&segments) {
        return None;
    }
    let escaped: Vec<Cow<'_, str>> = segments.iter().map(|s| escape(s)).collect();
    Some(format!("/{}", escaped.join("/")))
}

/// Whether the place `segments` (unescaped) name is one a walk by keywords reaches from the
/// root ([`for_each_subschema`]): `properties/a/items`, not `components/schemas/a`, nor
/// `properties` (a map of schemas, not one).
pub(crate) fn keyword_place(segments: &[String]) -> bool {
    let mut rest = segments.iter();
    while let Some(keyword) = rest.next() {
        match children(keyword) {
            Some(Children::Named) => {
                if rest.next().is_none() {
                    return false;
                }
            }
            Some(Children::List) => {
                if rest.next().is_none_or(|s| s.parse::<usize>().is_err()) {
                    return false;
                }
            }
            Some(Children::One) => {
                // Draft-07's `items` may hold a list of schemas.
                let mut ahead = rest.clone();
                if ahead.next().is_some_and(|s| s.parse::<usize>().is_ok()) {
                    rest = ahead;
                }
            }
            None => return false,
        }
    }
    true
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
/// A member with a `default` other than `null` is left as it is: typify fills a missing one in
/// with the default (absence never reaches the type) and keeps `null` in the type, so nothing
/// is dropped; required, typify ignored the default and it was never filled in.
/// `nullable(reference)` says whether a `$ref` target may be `null`.
///
/// typify merges an `allOf`/`anyOf`/`oneOf` branch with the schema around it, so a member must
/// be marked in both or in neither: marked in one only, typify saw two members (`c` and
/// `c\u{1}`) and declared both, or gave the type no values. So a branch does not mark a member
/// the schema around it requires or declares (that schema marks it, and renames it in its
/// branches, where it marks it), and a schema does not mark a member one of its `allOf`
/// branches declares as never `null` (merged, the member cannot be `null`; marked, it was
/// required with a type no value has), nor one that closed branches leave out (a closed
/// `allOf` branch, or every branch of an `anyOf` or `oneOf`, at any depth), which is never
/// there.
pub(crate) fn mark_nullable_optionals(schema: &mut Value, nullable: &dyn Fn(&str) -> bool) {
    mark_nullable_optionals_in(schema, nullable, &[], &BTreeSet::new());
}

/// Keeps every `anyOf`/`oneOf` branch that [`mark_nullable_optionals`] marked a member of a
/// struct variant ([`outside_tagged_patterns`], which the marked member, required there,
/// implies). Marked, the member is required in what typify reads, and a branch of a tag and
/// that member alone took typify's adjacently tagged pattern with the marked name as its
/// content (`#[serde(tag = "kind", content = "b\u{1}")]`), which refused every value: the
/// member is `b`, and it may be left out. A branch of the marked member alone took the
/// externally tagged one.
pub(crate) fn marked_branches_stay_structs(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut marked_branches_stay_structs);
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(list)) = object.get_mut(keyword) else {
            continue;
        };
        for branch in list.iter_mut().filter_map(Value::as_object_mut) {
            let marked = branch
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.keys().any(|k| k.ends_with(NULLABLE_OPTIONAL)));
            if marked {
                outside_tagged_patterns(branch);
            }
        }
    }
}

/// [`mark_nullable_optionals`] below a schema that names `named_around` and leaves out
/// `left_out_around` (members a branch may declare but a closed schema typify merges it with
/// does not: `{"allOf": [{"properties": {"a": ..}, "additionalProperties": false},
/// {"properties": {"d": ..}}]}` never has a `d`).
fn mark_nullable_optionals_in(
    schema: &mut Value,
    nullable: &dyn Fn(&str) -> bool,
    named_around: &[String],
    left_out_around: &BTreeSet<String>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    let mut in_branches = Named::default();
    for keyword in MERGED {
        for branch in branches(object, keyword) {
            collect_named(branch, &mut in_branches);
        }
    }
    let left_out: BTreeSet<String> = in_branches
        .marked
        .into_iter()
        .chain(in_branches.unmarked)
        .filter(|name| leaves_out(object, name))
        .chain(left_out_around.iter().cloned())
        .collect();
    let mut never_null = BTreeSet::new();
    for branch in branches(object, "allOf") {
        declared_never_null(branch, nullable, &mut never_null);
    }
    let required: Vec<String> = match object.get("required") {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|name| name.as_str().map(str::to_string))
            .collect(),
        None => Vec::new(),
        Some(_) => return,
    };
    let around: Vec<String> = named_around
        .iter()
        .cloned()
        .chain(required.iter().cloned())
        .chain(declared_names(object))
        .collect();
    for_each_child_mut_under(object, &merged, &mut |child| {
        mark_nullable_optionals_in(child, nullable, &around, &left_out)
    });
    // Branches typify merges with each other must mark a member alike, or the merged type
    // declares it twice (`a` and `a\u{1}`) and no value fits it. Where one marks a member
    // that another names unmarked, the other is renamed too: merged, the member is required
    // (the marking branch requires it) and holds what both allow, and it gets its `Option`
    // for absence back like any marked member.
    let apart: Vec<String> = marked_apart(object).into_iter().collect();
    if !apart.is_empty() {
        for_each_child_mut_under(object, &merged, &mut |child| {
            mark_in_branches(child, &apart)
        });
    }
    for_each_child_mut_under(object, &|k| !merged(k), &mut |child| {
        mark_nullable_optionals_in(child, nullable, &[], &BTreeSet::new())
    });
    // A member this schema leaves open (`{}`, which typify types `Value` and keeps `null` in)
    // takes a branch's type where typify merges them: `Option<String>` for `["string",
    // "null"]`, where `null` reads as absent. So it is marked when a branch declares it as
    // possibly `null`.
    let nullable_in_branches: BTreeSet<String> = MERGED
        .iter()
        .flat_map(|keyword| branches(object, keyword))
        .filter_map(|branch| branch.get("properties").and_then(Value::as_object))
        .flatten()
        .filter(|(_, member)| may_be_null(member, nullable))
        .map(|(name, _)| name.clone())
        .collect();
    // Marked, a member is required, and a closed branch that does not declare it has no values
    // once typify merges it with this schema. Where the branches leave it out (see
    // `leaves_out`), the member is never there: marked, the type had no values at all;
    // unmarked, it loses nothing.
    let never_there: BTreeSet<String> = declared_names(object)
        .filter(|name| leaves_out(object, name) || left_out_around.contains(name))
        .collect();
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    let marked: Vec<String> = properties
        .iter()
        .filter(|(name, schema)| {
            !required.contains(name)
                && !named_around.contains(name)
                && !never_null.contains(name.as_str())
                && !never_there.contains(name.as_str())
                && schema.get("default").is_none_or(Value::is_null)
                && (may_be_null(schema, nullable)
                    || (!speaks_of_null(schema) && nullable_in_branches.contains(name.as_str())))
        })
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
    // typify merges the branches with this schema: the same member must have the same name in
    // them, or the merged type declares it twice (`b` and `b\u{1}`), and no value fits it.
    for_each_child_mut_under(object, &merged, &mut |branch| {
        mark_in_branches(branch, &marked)
    });
}

/// The members one branch of `object` marks and another branch typify merges with it names
/// unmarked. typify merges every `allOf` branch with every other branch, and each `anyOf` or
/// `oneOf` branch with the branches of the other keywords, not with the rest of its own list.
fn marked_apart(object: &serde_json::Map<String, Value>) -> BTreeSet<String> {
    let named: Vec<(&str, usize, Named)> = MERGED
        .iter()
        .flat_map(|keyword| {
            branches(object, keyword)
                .iter()
                .enumerate()
                .map(move |(i, branch)| (*keyword, i, named_in(branch)))
        })
        .collect();
    let mut apart = BTreeSet::new();
    for (keyword, i, this) in &named {
        for (other_keyword, j, other) in &named {
            if keyword != other_keyword || (*keyword == "allOf" && i != j) {
                apart.extend(this.marked.intersection(&other.unmarked).cloned());
            }
        }
    }
    apart
}

/// The members a branch and the branches merged into it declare or require, by plain name.
#[derive(Default)]
struct Named {
    marked: BTreeSet<String>,
    unmarked: BTreeSet<String>,
}

/// What `branch` and the branches merged into it name, at any depth.
fn named_in(branch: &Value) -> Named {
    let mut named = Named::default();
    collect_named(branch, &mut named);
    named
}

fn collect_named(schema: &Value, named: &mut Named) {
    let Value::Object(object) = schema else {
        return;
    };
    let required = crate::normalize::required_names(Some(schema));
    for name in declared_names(object).chain(required) {
        match name.strip_suffix(NULLABLE_OPTIONAL) {
            Some(plain) => named.marked.insert(plain.to_string()),
            None => named.unmarked.insert(name),
        };
    }
    for keyword in MERGED {
        for branch in branches(object, keyword) {
            collect_named(branch, named);
        }
    }
}

/// Whether `schema` itself allows no member it does not declare (`additionalProperties:
/// false`, or `unevaluatedProperties: false` where nothing else here evaluates others), with
/// no `patternProperties` beside.
pub(crate) fn closed_here(schema: &serde_json::Map<String, Value>) -> bool {
    if schema.contains_key("patternProperties") {
        return false;
    }
    match schema.get("additionalProperties") {
        Some(additional) => *additional == Value::Bool(false),
        // `unevaluatedProperties` also sees what in-place applicators here evaluate, and an
        // `additionalProperties` other than `false` evaluates every other member.
        None => {
            !schema.keys().any(|k| crate::normalize::in_place(k))
                && schema.get("unevaluatedProperties") == Some(&Value::Bool(false))
        }
    }
}

/// Whether no value of `schema` has the member `name`: `schema` is closed without declaring
/// it, or its branches leave it out (an `allOf` branch, or every branch of an `anyOf` or
/// `oneOf`), at any depth.
fn leaves_out(schema: &serde_json::Map<String, Value>, name: &str) -> bool {
    let leave_out = |branch: &Value| branch.as_object().is_some_and(|b| leaves_out(b, name));
    closed_here(schema) && !declared_names(schema).any(|declared| declared == name)
        || branches(schema, "allOf").iter().any(leave_out)
        || ["anyOf", "oneOf"].iter().any(|keyword| {
            let branches = branches(schema, keyword);
            !branches.is_empty() && branches.iter().all(leave_out)
        })
}

/// The keywords whose branches typify merges with the schema that holds them.
const MERGED: [&str; 3] = ["allOf", "anyOf", "oneOf"];

fn merged(keyword: &str) -> bool {
    MERGED.contains(&keyword)
}

/// The branches `object` lists under `keyword` (none when it has no such list).
pub(crate) fn branches<'a>(
    object: &'a serde_json::Map<String, Value>,
    keyword: &str,
) -> &'a [Value] {
    object
        .get(keyword)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// Adds to `names` the members `schema` and its own `allOf` branches declare with a schema
/// that does not allow `null`.
fn declared_never_null(
    schema: &Value,
    nullable: &dyn Fn(&str) -> bool,
    names: &mut BTreeSet<String>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    // What says nothing of `null` (`{}`, `true`, only bounds) allows it.
    let never_null = |member: &Value| speaks_of_null(member) && !may_be_null(member, nullable);
    if let Some(Value::Object(properties)) = object.get("properties") {
        names.extend(
            properties
                .iter()
                .filter(|(_, member)| never_null(member))
                .map(|(name, _)| name.clone()),
        );
    }
    for branch in branches(object, "allOf") {
        declared_never_null(branch, nullable, names);
    }
}

/// The names `object` declares in `properties`.
fn declared_names(object: &serde_json::Map<String, Value>) -> impl Iterator<Item = String> + '_ {
    object
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.keys().cloned())
}

/// Whether `member` says whether it allows `null`: a `false` schema, or one with a keyword that
/// names the kinds or values it allows. `{}`, `true` and bounds alone say nothing (and allow it).
fn speaks_of_null(member: &Value) -> bool {
    match member {
        Value::Bool(accepts) => !accepts,
        Value::Object(o) => ["$ref", "type", "enum", "const", "anyOf", "oneOf"]
            .iter()
            .any(|k| o.contains_key(*k)),
        _ => false,
    }
}

/// Renames the `marked` members in the `properties` and `required` of `schema` and of its own
/// `allOf`/`anyOf`/`oneOf` branches, as [`mark_nullable_optionals`] renamed them around them.
fn mark_in_branches(schema: &mut Value, marked: &[String]) {
    let Value::Object(object) = schema else {
        return;
    };
    let mark = |name: &str| {
        marked
            .iter()
            .any(|m| m == name)
            .then(|| format!("{name}{NULLABLE_OPTIONAL}"))
    };
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        *properties = std::mem::take(properties)
            .into_iter()
            .map(|(name, schema)| (mark(&name).unwrap_or(name), schema))
            .collect();
    }
    // A closed branch that does not declare a marked member: the member is not left out by
    // every branch (it would not be marked), so this is one `anyOf`/`oneOf` branch of several,
    // or inside one. Marked, the member is required where typify merges, and the branch had no
    // values: typify left it out, and values that match it were refused. Declared as any
    // value, the branch reads the member as the schema around it does; its type accepts more,
    // never less, and validation enforces the rest.
    if closed_here(object) {
        let declared: BTreeSet<String> = declared_names(object).collect();
        let missing: Vec<String> = marked
            .iter()
            .map(|name| format!("{name}{NULLABLE_OPTIONAL}"))
            .filter(|name| !declared.contains(name))
            .collect();
        if !missing.is_empty()
            && let Value::Object(properties) =
                object.entry("properties").or_insert_with(|| json!({}))
        {
            for name in missing {
                properties.insert(name, json!({}));
            }
        }
    }
    if let Some(Value::Array(required)) = object.get_mut("required") {
        for name in required.iter_mut() {
            if let Some(marked) = name.as_str().and_then(mark) {
                *name = Value::String(marked);
            }
        }
    }
    for_each_child_mut_under(object, &merged, &mut |branch| {
        mark_in_branches(branch, marked)
    });
}

/// Renames, in every object `default` below `schema`, the members [`mark_nullable_optionals`]
/// marked, and gives the ones it leaves out a `null` (absent: the marked member is an `Option`
/// that `null` leaves `None`). `resolve` gives the `properties` of a reference's target.
pub(crate) fn mark_defaults(
    schema: &mut Value,
    resolve: &dyn Fn(&str) -> Option<serde_json::Map<String, Value>>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| mark_defaults(child, resolve));
    if let (Some(properties), Some(Value::Object(default))) =
        (properties_of(object, resolve), object.get_mut("default"))
    {
        mark_default(default, &properties, resolve);
    }
}

/// The `properties` of `schema`, or of the target of its `$ref`.
fn properties_of(
    schema: &serde_json::Map<String, Value>,
    resolve: &dyn Fn(&str) -> Option<serde_json::Map<String, Value>>,
) -> Option<serde_json::Map<String, Value>> {
    match schema.get("properties").and_then(Value::as_object) {
        Some(properties) => Some(properties.clone()),
        None => schema.get("$ref").and_then(Value::as_str).and_then(resolve),
    }
}

fn mark_default(
    default: &mut serde_json::Map<String, Value>,
    properties: &serde_json::Map<String, Value>,
    resolve: &dyn Fn(&str) -> Option<serde_json::Map<String, Value>>,
) {
    for (name, schema) in properties {
        let plain = name.trim_end_matches(NULLABLE_OPTIONAL);
        if plain.len() != name.len() {
            let value = default.shift_remove(plain).unwrap_or(Value::Null);
            default.insert(name.clone(), value);
        }
        // Members whose own members may be marked, inline or through a reference.
        let nested = schema.as_object().and_then(|s| properties_of(s, resolve));
        if let (Some(nested), Some(Value::Object(inner))) = (nested, default.get_mut(name)) {
            mark_default(inner, &nested, resolve);
        }
    }
}

/// Whether `schema` itself says `null` is one of its values (a `type`, `enum` or `const`, or
/// one branch of an `anyOf`/`oneOf` that does), or has no constraint at all.
pub(crate) fn may_be_null(schema: &Value, nullable: &dyn Fn(&str) -> bool) -> bool {
    says_null(schema, nullable) == Some(true)
}

/// Whether `schema` says `null` is allowed (`Some(true)`), says it is not (`Some(false)`), or
/// says nothing of it (no `type`, `enum`, `const`, `$ref` or branches that do).
fn says_null(schema: &Value, nullable: &dyn Fn(&str) -> bool) -> Option<bool> {
    let object = match schema {
        Value::Bool(accepts) => return Some(*accepts),
        Value::Object(object) => object,
        _ => return Some(false),
    };
    if let Some(Value::String(reference)) = object.get("$ref") {
        return Some(nullable(reference));
    }
    // The runtime's `NotObject` (`NotArray`, ...) is every other kind of value, `null` too. A
    // type the contract names (never the runtime's) says what its schema's keywords say.
    if let Some(path) = schema.pointer("/x-rust-type/path").and_then(Value::as_str)
        && path.starts_with("schemcp_runtime::")
    {
        return Some(path.starts_with("schemcp_runtime::other_kinds::Not"));
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
    // `null` passes an `allOf` that no branch forbids it; it says so where a branch does
    // (`{"allOf": [{"type": "null"}]}`, as an `anyOf` of one branch is read).
    let all_of = match object.get("allOf") {
        Some(Value::Array(list)) => {
            let said: Vec<Option<bool>> = list.iter().map(|b| says_null(b, nullable)).collect();
            if said.contains(&Some(false)) {
                Some(false)
            } else if said.contains(&Some(true)) {
                Some(true)
            } else {
                None
            }
        }
        _ => None,
    };
    match [null_type, null_enum, branches, all_of] {
        [None, None, None, None] => None,
        said => Some(!said.contains(&Some(false))),
    }
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

/// The reference of a schema that is a `$ref` and annotations only (`{"$ref": R,
/// "description": ...}`): it accepts what `R` does.
pub(crate) fn plain_reference(branch: &Value) -> Option<&str> {
    let object = branch.as_object()?;
    let reference = object.get("$ref")?.as_str()?;
    object
        .keys()
        .all(|k| k == "$ref" || schemcp_contract::keywords::ANNOTATIONS.contains(&k.as_str()))
        .then_some(reference)
}

/// Whether an `anyOf` branch leaves its kind of value open: no `type`, `$ref`, `enum` or
/// `const` (or a boolean schema).
pub(crate) fn open_branch(branch: &Value) -> bool {
    match branch {
        Value::Object(b) => !["type", "$ref", "enum", "const"]
            .iter()
            .any(|k| b.contains_key(*k)),
        _ => true,
    }
}

/// Why `object`, which says no `type`, is not what a type inferred from its keywords holds:
/// it names the first kind-specific keyword, or `None` if it has none. Where an `anyOf` or
/// `oneOf` beside the keywords says which kinds get through (see
/// [`union_kinds`]; `kinds_of` gives a referenced
/// definition's), it names those instead of claiming every kind does.
///
/// ```text
/// {"anyOf": [{"type": "object"}, {"type": "string"}], "properties": {..}, "not": {..}}
/// this schema uses `properties` (a keyword for object values) but has no `type`, and the
/// `anyOf` beside it also lets string values through, ...
/// ```
pub(crate) fn untyped_message(
    object: &serde_json::Map<String, Value>,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) -> Option<String> {
    let reading = UntypedReading::of(object, kinds_of)?;
    let UntypedReading { keyword, kind, .. } = reading;
    let found = format!("`{keyword}` (a keyword for {kind} values)");
    Some(match reading.union {
        // Keywords of several kinds: name one of each.
        // Keywords of several kinds: one of each is named.
        None => format!(
            "this schema uses {} but has no `type`, so it also accepts every other kind of \
             JSON value, which a Rust type inferred from it would reject",
            listed(
                &kind_keywords(object)
                    .iter()
                    .map(|(keyword, kind)| format!("`{keyword}` (a keyword for {kind} values)"))
                    .collect::<Vec<_>>(),
                "and"
            )
            .unwrap_or(found)
        ),
        Some((union, None)) => format!(
            "this schema uses {found} beside {} `{union}` that lets only {kind} values through, \
             but has no `type` of its own",
            if union == "anyOf" { "an" } else { "a" }
        ),
        Some((union, Some(others))) => format!(
            "this schema uses {found} but has no `type`, and the `{union}` beside it also lets \
             {others} values through, which a Rust type inferred from the keywords would reject"
        ),
    })
}

/// What to do about a schema [`untyped_message`] describes: write the keywords in the union's
/// branches of their kind where a union beside them lets other kinds through, else add the
/// `type` they are for.
pub(crate) fn untyped_help(
    object: Option<&serde_json::Map<String, Value>>,
    kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
) -> String {
    let opt_in = "or opt in to `Builder::fallback_to_value(true)` to use serde_json::Value here";
    match object.and_then(|o| UntypedReading::of(o, kinds_of)) {
        Some(UntypedReading {
            keyword,
            kind,
            union: Some((union, Some(_))),
        }) => format!(
            "say where the keywords apply: write `{keyword}` (and the other keywords for {kind} \
             values) in the `{union}` branches for {kind} values instead of beside them, {opt_in}"
        ),
        reading => {
            let kind = reading.map_or("object", |r| r.kind);
            format!("say what the schema means (e.g. add `\"type\": \"{kind}\"`), {opt_in}")
        }
    }
}

/// What a schema without `type` says of its kind, for [`untyped_message`] and
/// [`untyped_help`]: its first keyword for one kind of value, and the `anyOf`/`oneOf` beside
/// it where that says its kinds, with the kinds it lets through besides the keyword's
/// (`None` where there are none).
struct UntypedReading {
    keyword: &'static str,
    kind: &'static str,
    union: Option<(&'static str, Option<String>)>,
}

impl UntypedReading {
    fn of(
        object: &serde_json::Map<String, Value>,
        kinds_of: &dyn Fn(&str) -> Option<BTreeSet<String>>,
    ) -> Option<UntypedReading> {
        let (keyword, kind) = first_kind_keyword(object)?;
        let union =
            union_kinds(object, kinds_of).map(|(union, kinds)| (union, other_kinds(&kinds, kind)));
        Some(UntypedReading {
            keyword,
            kind,
            union,
        })
    }
}

/// The first keyword of `object` for each kind of value ([`TYPED_KEYWORDS`]), with that kind.
fn kind_keywords(object: &serde_json::Map<String, Value>) -> Vec<(&'static str, &'static str)> {
    TYPED_KEYWORDS
        .iter()
        .filter_map(|(kind, keywords)| {
            keywords
                .iter()
                .find(|k| object.contains_key(**k))
                .map(|k| (*k, *kind))
        })
        .collect()
}

/// The first keyword of `object` for one kind of value ([`TYPED_KEYWORDS`]), with that kind.
fn first_kind_keyword(
    object: &serde_json::Map<String, Value>,
) -> Option<(&'static str, &'static str)> {
    TYPED_KEYWORDS.iter().find_map(|(kind, keywords)| {
        keywords
            .iter()
            .find(|k| object.contains_key(**k))
            .map(|k| (*k, *kind))
    })
}

/// The kinds in `kinds` that keywords for `kind` do not constrain, written for a message
/// (`string and null`), or `None` where there are none.
fn other_kinds(kinds: &BTreeSet<String>, kind: &str) -> Option<String> {
    let mut others: Vec<&str> = kinds
        .iter()
        .filter(|k| !constrains(&BTreeSet::from([k.to_string()]), kind))
        .map(String::as_str)
        .collect();
    // `number` says it for integers too.
    if others.contains(&"number") {
        others.retain(|k| *k != "integer");
    }
    listed(&others, "and")
}

/// What the definitions a schema references say about their kinds.
pub(crate) struct RefKinds<'a> {
    /// Whether a `$ref` names a definition with a `type` (or an `enum` or `const`), which then
    /// says the kind of an `allOf` it is a branch of.
    pub typed: &'a dyn Fn(&str) -> bool,
    /// The kinds a referenced definition's `type` allows.
    pub kinds_of: &'a dyn Fn(&str) -> Option<BTreeSet<String>>,
}

/// Subschemas that use keywords of one kind of value (`properties`, `pattern`, ...) but say
/// nothing about the instance's type: no `type` there nor on a schema they are combined with
/// (`allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/`else`/`dependentSchemas` of a typed schema), no
/// `enum`, `const` or `$ref`. In JSON Schema such a schema accepts every other kind of value
/// (`{"properties": ...}` accepts `12`), but typify infers the kind from the keywords, so its
/// type would reject valid values. Also `anyOf` with an untyped branch, which typify mistypes
/// (`$ref` beside `properties` is split into an `allOf` by
/// [`split_ref_siblings`](crate::normalize::split_ref_siblings)). Returns `(pointer, why)`.
pub(crate) fn untyped_subschemas(
    schema: &Value,
    pointer: &str,
    inherited: bool,
    skip_root_defs: bool,
    refs: &RefKinds<'_>,
) -> Vec<(String, String)> {
    fn walk(
        schema: &Value,
        pointer: &str,
        inherited: bool,
        skip_defs: bool,
        refs: &RefKinds<'_>,
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
                    .is_some_and(refs.typed)
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
        if !typed
            && !pinned
            && let Some(message) = untyped_message(object, refs.kinds_of)
        {
            out.push((pointer.to_string(), message));
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
            let Some(kind) = children(keyword) else {
                continue;
            };
            let here = format!("{pointer}/{}", escape(keyword));
            match (kind, value) {
                (Children::Named, Value::Object(map)) => {
                    for (name, child) in map {
                        let at = format!("{here}/{}", escape(name));
                        walk(child, &at, inherit, false, refs, out);
                    }
                }
                (Children::One | Children::List, Value::Array(list)) => {
                    for (i, child) in list.iter().enumerate() {
                        walk(child, &format!("{here}/{i}"), inherit, false, refs, out);
                    }
                }
                (Children::One, child) => walk(child, &here, inherit, false, refs, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(schema, pointer, inherited, skip_root_defs, refs, &mut out);
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
    schemcp_contract::json::percent_decode(&unescape(segment))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn untyped_diagnostics_name_the_kinds_a_union_beside_lets_through() {
        let no_refs = |_: &str| None;
        let message = |schema: Value| untyped_message(schema.as_object().unwrap(), &no_refs);
        let help = |schema: Value| untyped_help(schema.as_object(), &no_refs);
        let opt_in =
            "or opt in to `Builder::fallback_to_value(true)` to use serde_json::Value here";
        // No union: every kind gets through.
        assert_eq!(
            message(json!({ "minLength": 1 })).unwrap(),
            "this schema uses `minLength` (a keyword for string values) but has no `type`, so it \
             also accepts every other kind of JSON value, which a Rust type inferred from it \
             would reject"
        );
        assert_eq!(
            help(json!({ "minLength": 1 })),
            format!("say what the schema means (e.g. add `\"type\": \"string\"`), {opt_in}")
        );
        // A union of objects, arrays, integers and numbers: number keywords apply to both.
        let union = json!({
            "anyOf": [{ "type": "object" }, { "type": "array" }, { "type": "integer" }, { "enum": [1.5] }],
            "properties": {}
        });
        assert_eq!(
            message(union.clone()).unwrap(),
            "this schema uses `properties` (a keyword for object values) but has no `type`, and \
             the `anyOf` beside it also lets array and number values through, which a Rust type \
             inferred from the keywords would reject"
        );
        assert_eq!(
            help(union),
            format!(
                "say where the keywords apply: write `properties` (and the other keywords for \
                 object values) in the `anyOf` branches for object values instead of beside \
                 them, {opt_in}"
            )
        );
        assert_eq!(
            message(json!({ "oneOf": [{ "type": "number" }], "minimum": 1 })).unwrap(),
            "this schema uses `minimum` (a keyword for number values) beside a `oneOf` that \
             lets only number values through, but has no `type` of its own"
        );
        // An open branch: every kind again.
        assert!(
            message(json!({ "anyOf": [{ "type": "object" }, {}], "required": [] }))
                .unwrap()
                .contains("accepts every other kind")
        );
        assert_eq!(message(json!({ "anyOf": [{ "type": "object" }] })), None);
    }

    #[test]
    fn closed_only_where_nothing_evaluates_other_members() {
        let closed = |schema: Value| closed_here(schema.as_object().unwrap());
        assert!(closed(json!({ "additionalProperties": false })));
        assert!(closed(json!({ "unevaluatedProperties": false })));
        assert!(closed(
            json!({ "properties": { "a": {} }, "unevaluatedProperties": false })
        ));
        assert!(!closed(json!({ "additionalProperties": {} })));
        assert!(!closed(
            json!({ "additionalProperties": {}, "unevaluatedProperties": false })
        ));
        assert!(!closed(
            json!({ "additionalProperties": false, "patternProperties": { "^x": {} } })
        ));
        assert!(!closed(
            json!({ "allOf": [{ "properties": { "a": {} } }], "unevaluatedProperties": false })
        ));
    }

    #[test]
    fn keyword_places_are_schemas_a_walk_by_keywords_reaches() {
        let place = |p: &str| keyword_place(&p.split('/').map(str::to_string).collect::<Vec<_>>());
        assert!(place("properties/a/items/0/anyOf/1"));
        assert!(place("$defs/A/additionalProperties"));
        assert!(!place("properties"));
        assert!(!place("anyOf"));
        assert!(!place("components/schemas/A"));
        assert!(!place("properties/a/examples/0"));
    }

    #[test]
    fn definitions_outside_defs_are_reached_through_their_references() {
        let root = json!({
            "properties": { "a": { "$ref": "#/components/schemas/A" } },
            "components": { "schemas": {
                "A": { "properties": { "b": { "$ref": "#/components/schemas/B%20C" } } },
                "B C": { "default": 1 },
                "Unused": { "default": 2 }
            } }
        });
        let mut seen = Vec::new();
        for_each_reached_subschema(&root, &mut |_, pointer| seen.push(pointer.to_string()));
        assert_eq!(
            seen,
            [
                "",
                "/properties/a",
                "/components/schemas/A",
                "/components/schemas/A/properties/b",
                "/components/schemas/B C",
            ]
        );
    }

    #[test]
    fn members_closed_branches_leave_out() {
        let leaves_out = |schema: Value| super::leaves_out(schema.as_object().unwrap(), "n");
        let closed = json!({ "properties": { "m": {} }, "additionalProperties": false });
        let open = json!({ "properties": { "m": {} } });
        assert!(leaves_out(closed.clone()));
        assert!(!leaves_out(open.clone()));
        assert!(leaves_out(json!({ "oneOf": [closed, closed] })));
        assert!(!leaves_out(json!({ "anyOf": [closed, open] })));
        assert!(leaves_out(
            json!({ "allOf": [open, { "oneOf": [closed] }] })
        ));
        // `unevaluatedProperties` sees the members the `allOf` evaluates, `n` among them.
        assert!(!leaves_out(json!({
            "allOf": [{ "properties": { "n": {} } }],
            "unevaluatedProperties": false
        })));
        assert!(leaves_out(
            json!({ "properties": { "m": {} }, "unevaluatedProperties": false })
        ));
        assert!(!leaves_out(json!({
            "patternProperties": { "^n": {} },
            "additionalProperties": false
        })));
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

    /// A member one `allOf` branch declares and a closed sibling leaves out is never there:
    /// marked (required), typify's merge of the two had no value.
    #[test]
    fn a_member_a_closed_sibling_leaves_out_is_not_marked() {
        let mut schema = json!({
            "allOf": [
                { "type": "object", "properties": { "a": { "type": "string" } }, "additionalProperties": false },
                { "properties": {
                    "d": { "type": ["string", "null"] },
                    "e": { "x-rust-type": { "path": "schemcp_runtime::other_kinds::NotObject" } }
                } }
            ]
        });
        let before = schema.clone();
        mark_nullable_optionals(&mut schema, &|_| false);
        assert_eq!(schema, before);
        // Without the closed sibling, both may be `null` and are marked.
        schema["allOf"][0]
            .as_object_mut()
            .unwrap()
            .remove("additionalProperties");
        mark_nullable_optionals(&mut schema, &|_| false);
        let marked = |name: &str| format!("{name}{NULLABLE_OPTIONAL}");
        assert_eq!(
            schema["allOf"][1]["required"],
            json!([marked("d"), marked("e")])
        );
    }

    #[test]
    fn a_closed_branch_declares_a_member_its_siblings_leave_to_be_marked() {
        let mut schema = json!({
            "type": "object",
            "properties": { "note": { "type": ["string", "null"] }, "c": {} },
            "oneOf": [
                { "properties": { "c": {} }, "additionalProperties": false },
                { "properties": { "b": {} }, "required": ["b"] }
            ]
        });
        mark_nullable_optionals(&mut schema, &|_| false);
        let marked = format!("note{NULLABLE_OPTIONAL}");
        assert_eq!(schema["required"], json!([marked]));
        // Marked, `note` is required: the closed branch, which does not declare it, would
        // have no values in typify's merge.
        assert_eq!(
            schema["oneOf"][0]["properties"],
            json!({ "c": {}, marked.clone(): {} })
        );
        assert_eq!(schema["oneOf"][1]["properties"], json!({ "b": {} }));
        // Where every branch leaves it out, it is never there and not marked.
        let mut never = json!({
            "type": "object",
            "properties": { "note": { "type": ["string", "null"] } },
            "anyOf": [{ "additionalProperties": false }, { "properties": {}, "additionalProperties": false }]
        });
        mark_nullable_optionals(&mut never, &|_| false);
        assert_eq!(
            never["properties"],
            json!({ "note": { "type": ["string", "null"] } })
        );
    }

    #[test]
    fn branches_typify_merges_mark_a_member_alike() {
        let marked = format!("a{NULLABLE_OPTIONAL}");
        // The `allOf` branch marks `a`; the second `oneOf` branch, which typify merges with
        // it, names `a` too and is renamed with it.
        let mut schema = json!({
            "type": "object",
            "allOf": [{ "properties": { "a": { "type": ["string", "null"] } } }],
            "oneOf": [
                { "properties": { "c": {} }, "required": ["c"] },
                { "properties": { "a": { "const": "x" } }, "required": ["a"] }
            ]
        });
        mark_nullable_optionals(&mut schema, &|_| false);
        assert_eq!(schema["allOf"][0]["required"], json!([marked.clone()]));
        assert_eq!(schema["oneOf"][0]["properties"], json!({ "c": {} }));
        assert_eq!(
            schema["oneOf"][1]["properties"],
            json!({ marked.clone(): { "const": "x" } })
        );
        assert_eq!(schema["oneOf"][1]["required"], json!([marked.clone()]));
        // Branches of one `oneOf` are never merged with each other: each keeps its own.
        let mut apart = json!({
            "type": "object",
            "oneOf": [
                { "properties": { "a": { "type": ["string", "null"] } } },
                { "properties": { "a": { "type": "integer" } }, "required": ["a"] }
            ]
        });
        mark_nullable_optionals(&mut apart, &|_| false);
        assert_eq!(apart["oneOf"][0]["required"], json!([marked.clone()]));
        assert_eq!(apart["oneOf"][1]["required"], json!(["a"]));
        // Two `allOf` branches are merged with each other; so is one nested a level down.
        let mut nested = json!({
            "type": "object",
            "allOf": [
                { "allOf": [{ "properties": { "a": { "type": ["string", "null"] } } }] },
                { "properties": { "a": { "minLength": 1 } } }
            ]
        });
        mark_nullable_optionals(&mut nested, &|_| false);
        assert_eq!(
            nested["allOf"][1]["properties"],
            json!({ marked.clone(): { "minLength": 1 } })
        );
    }

    fn names<const N: usize>(names: [&str; N]) -> BTreeSet<String> {
        names.into_iter().map(str::to_string).collect()
    }

    #[test]
    fn a_merge_with_additional_properties_leaves_members_no_value() {
        let root = json!({
            "type": "object",
            "properties": { "labels": { "type": "array" }, "name": { "type": "string" } }
        });
        let target = |reference: &str| (reference == "#/$defs/Root").then_some(&root);
        // `labels` must be a string beside the reference, and is an array in it.
        let links = json!({ "$ref": "#/$defs/Root", "additionalProperties": { "type": "string" } });
        assert_eq!(
            members_merges_leave_no_value(&links, &target),
            names(["labels"])
        );
        let nested = json!({ "properties": { "p": { "allOf": [{ "$ref": "#/$defs/Root" }], "additionalProperties": { "type": "string" } } } });
        assert_eq!(
            members_merges_leave_no_value(&nested, &target),
            names(["labels"])
        );
        // Declared beside the reference, `labels` is not an additional property there.
        let declared = json!({
            "$ref": "#/$defs/Root",
            "properties": { "labels": {} },
            "additionalProperties": { "type": "string" }
        });
        assert_eq!(members_merges_leave_no_value(&declared, &target), names([]));
        let compatible = json!({ "$ref": "#/$defs/Root", "additionalProperties": { "type": ["string", "array"] } });
        assert_eq!(
            members_merges_leave_no_value(&compatible, &target),
            names([])
        );
        // A member written as a reference alone has the kinds of what it references.
        let object = json!({ "type": "object" });
        let by_reference = |reference: &str| (reference == "#/$defs/O").then_some(&object);
        let referenced = json!({
            "properties": { "o": { "$ref": "#/$defs/O" } },
            "anyOf": [{ "additionalProperties": { "type": "string" } }]
        });
        assert_eq!(
            members_merges_leave_no_value(&referenced, &by_reference),
            names(["o"])
        );
        let patterns = json!({
            "$ref": "#/$defs/Root",
            "patternProperties": { "^l": { "type": "array" } },
            "additionalProperties": { "type": "string" }
        });
        assert_eq!(members_merges_leave_no_value(&patterns, &target), names([]));
        // An inline branch's member is an additional property of the schema around it too,
        // and a member around a branch one of the branch's.
        for keyword in ["allOf", "anyOf", "oneOf"] {
            let mut inline = json!({
                "type": "object",
                "properties": { "a": { "type": "integer" } },
                "additionalProperties": { "type": "integer" }
            });
            inline[keyword] = json!([{ "properties": { "b": { "type": ["string", "null"] } } }]);
            assert_eq!(
                members_merges_leave_no_value(&inline, &|_| None),
                names(["b"]),
                "{keyword}"
            );
            // Declared around the branch, `b` is not an additional property.
            inline["properties"]["b"] = json!({});
            assert_eq!(
                members_merges_leave_no_value(&inline, &|_| None),
                names([]),
                "{keyword}"
            );
            let around = json!({
                "properties": { "c": { "type": ["string", "null"] } },
                keyword: [{ "additionalProperties": { "type": "integer" } }]
            });
            assert_eq!(
                members_merges_leave_no_value(&around, &|_| None),
                names(["c"]),
                "{keyword}"
            );
        }
        let shared_kind = json!({
            "additionalProperties": { "type": "integer" },
            "anyOf": [{ "properties": { "b": { "type": ["number", "null"] } } }]
        });
        assert_eq!(
            members_merges_leave_no_value(&shared_kind, &|_| None),
            names([])
        );
    }

    #[test]
    fn additional_properties_reach_the_members_of_every_piece_merged_with_them() {
        let absent = |schema: &Value| members_merges_leave_no_value(schema, &|_| None);
        // From one list's branch to another's, as normalized `anyOf` and `oneOf` side by
        // side become `allOf` branches.
        let lists = json!({
            "allOf": [
                { "oneOf": [{ "additionalProperties": { "type": "integer" } }, {}] },
                { "oneOf": [{ "properties": { "b": { "enum": ["x"] } } }, {}] }
            ]
        });
        assert_eq!(absent(&lists), names(["b"]));
        // Branches of one list are never merged with each other.
        let siblings = json!({
            "oneOf": [
                { "additionalProperties": { "type": "integer" } },
                { "properties": { "b": { "type": "string" } } }
            ]
        });
        assert_eq!(absent(&siblings), names([]));
        // Members declared in both pieces are not additional: typify merges what they allow.
        let declared = json!({
            "properties": { "a": { "type": "integer" } },
            "oneOf": [{ "properties": { "a": { "type": "string" } }, "additionalProperties": false }]
        });
        assert_eq!(absent(&declared), names([]));
        // Where merged pieces declare a member apart, typify may leave out whole merges: no
        // member is accounted for then.
        let mut apart = json!({
            "properties": { "a": { "type": "integer" } },
            "additionalProperties": { "type": "integer" },
            "oneOf": [{ "properties": { "a": { "type": "string" }, "b": { "type": "string" } } }]
        });
        assert_eq!(absent(&apart), names([]));
        // Only that schema's members: another's elsewhere in the document still count.
        let beside = json!({
            "properties": {
                "x": apart.clone(),
                "y": {
                    "additionalProperties": { "type": "integer" },
                    "anyOf": [{ "properties": { "d": { "type": "string" } } }]
                }
            }
        });
        assert_eq!(absent(&beside), names(["d"]));
        // Nor do the branches merged into such a schema, read on their own.
        let mut inner = apart.clone();
        inner["oneOf"].as_array_mut().unwrap().push(json!({
            "additionalProperties": { "type": "integer" },
            "allOf": [{ "properties": { "d": { "type": "string" } } }]
        }));
        assert_eq!(absent(&inner), names([]));
        apart["oneOf"][0]["properties"]["a"] = json!({ "type": "integer" });
        assert_eq!(absent(&apart), names(["b"]));
    }

    #[test]
    fn common_kinds_are_those_every_part_allows() {
        let parts = [
            json!({ "type": ["number", "string"] }),
            json!({ "minimum": 1 }),
            json!({ "type": "integer" }),
        ];
        let objects = parts.iter().filter_map(Value::as_object);
        assert_eq!(common_kinds(objects), Some(["integer".to_string()].into()));
        let none = [json!({ "type": "string" }), json!({ "type": "object" })];
        let objects = none.iter().filter_map(Value::as_object);
        assert_eq!(common_kinds(objects), Some(BTreeSet::new()));
        assert_eq!(common_kinds([json!({}).as_object().unwrap()]), None);
    }

    #[test]
    fn says_no_value_through_a_reference_in_an_all_of() {
        let schema = json!({ "allOf": [{ "type": "number" }, { "$ref": "#/$defs/Name" }] });
        let string = |r: &str| (r == "#/$defs/Name").then(|| BTreeSet::from(["string".into()]));
        assert!(says_no_value(&schema, &string));
        assert!(
            !says_no_value(&schema, &|_| None),
            "unknown without the definition's kinds"
        );
        let number = |_: &str| Some(BTreeSet::from(["number".into(), "integer".into()]));
        assert!(!says_no_value(&schema, &number));
    }

    #[test]
    fn says_no_value_where_typify_makes_a_type_without_values() {
        for schema in [
            json!(false),
            json!({ "anyOf": [{ "type": "string" }, false] }),
            json!({ "$defs": { "Never": false } }),
            json!({ "type": "array", "items": false }),
            json!({ "properties": { "a": { "not": {} } } }),
            json!({ "properties": { "a": { "enum": [] } } }),
            json!({ "enum": [null] }),
            json!({ "allOf": [{ "type": "number" }, { "type": "string" }] }),
            json!({ "type": ["string", "null"], "allOf": [{ "type": "integer" }] }),
        ] {
            assert!(says_no_value(&schema, &|_| None), "{schema}");
        }
        for schema in [
            json!({ "type": "object", "additionalProperties": false }),
            json!({ "properties": { "gone": false } }),
            json!({ "not": { "anyOf": [false] } }),
            json!({ "unevaluatedProperties": false, "propertyNames": { "enum": ["a"] } }),
            json!({ "not": { "const": 1 } }),
            json!({ "enum": [null, 1] }),
            json!({ "type": "integer", "allOf": [{ "type": ["number", "null"] }, {}] }),
        ] {
            assert!(!says_no_value(&schema, &|_| None), "{schema}");
        }
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
