//! The openings: where an `unevaluatedProperties` or `unevaluatedItems` keyword, or an
//! `allOf`/`anyOf` branch, decides which members or items a value may have in a way that
//! depends on the value, the copy of the schema typify converts keeps every such member or item
//! (a map of any value, `items: {}`) and leaves the deciding to validation. The type only gets
//! wider, so it holds every valid value. Definitions are shared, so what they evaluate is
//! worked out once per tool ([`evaluates_in_place`]) and followed through references.

use serde_json::{Value, json};

use schemcp_contract::keywords::IN_PLACE_APPLICATORS;

use crate::normalize::{NARROWING_ONLY, REFERENCES};
use crate::schema::{Children, children, for_each_child_mut};

/// Opens `unevaluatedProperties` and `unevaluatedItems` (other than `true`) that could see
/// what a [`NARROWING_ONLY`] keyword evaluates, in the copy of a schema the generator converts,
/// so those keywords can be left to validation too: which members or items they leave to
/// `unevaluated*` depends on the instance (`if` the payment is by card, `then` `card_number`
/// is evaluated), so the type keeps every member the declared ones do not name in a map of any
/// value (`additionalProperties: {}`), and every item past the positions as any value
/// (`items: {}`). Validation enforces the rest. Such a keyword seen through a reference counts
/// too (`reference_evaluates` says what a definition evaluates, through its own references).
pub(crate) fn open_unevaluated(
    schema: &mut Value,
    reference_evaluates: &dyn Fn(&str) -> Evaluates,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        open_unevaluated(child, reference_evaluates)
    });
    let restricts = |object: &serde_json::Map<String, Value>, keyword: &str| {
        object.get(keyword).is_some_and(|v| *v != json!(true))
    };
    let (properties, items) = (
        restricts(object, "unevaluatedProperties"),
        restricts(object, "unevaluatedItems"),
    );
    if !properties && !items {
        return;
    }
    let (own, through_references) = seen_in_place(object, reference_evaluates);
    if !own.narrowing && !through_references.is_some_and(|t| t.narrowing) {
        return;
    }
    if properties {
        object.shift_remove("unevaluatedProperties");
        object
            .entry("additionalProperties")
            .or_insert_with(|| json!({}));
    }
    if items {
        object.shift_remove("unevaluatedItems");
        object.entry("items").or_insert_with(|| json!({}));
    }
}

/// Keywords that decide which members a schema allows beyond the ones it declares, and the
/// keyword of its holder that sees what they evaluate.
const EVALUATING_MEMBERS: ([&str; 3], &str, &str) = (
    [
        "additionalProperties",
        "unevaluatedProperties",
        "patternProperties",
    ],
    "unevaluatedProperties",
    "additionalProperties",
);
/// The same for items: which items a branch evaluates decides what `unevaluatedItems` sees.
const EVALUATING_ITEMS: ([&str; 3], &str, &str) = (
    ["prefixItems", "items", "unevaluatedItems"],
    "unevaluatedItems",
    "items",
);
/// Keywords by which a schema says what kind of value it holds.
const OWN_KIND: [&str; 5] = ["type", "enum", "const", "$ref", "$dynamicRef"];

/// Leaves out, in the copy of a schema the generator converts, what `allOf` and `anyOf`
/// branches say about members or items they do not declare (`additionalProperties`,
/// `unevaluatedProperties`, `patternProperties`; `prefixItems`, `items`, `unevaluatedItems`),
/// where the schema holding them is typed from them: it has no `type` of its own (typify would
/// merge such branches into a type that drops or rejects what the others allow), or its own
/// `unevaluated*` keyword (other than `true`) sees what they evaluate
/// (`{"allOf": [{"unevaluatedProperties": true}], "unevaluatedProperties": false}` allows every
/// member, which the merged struct dropped). Both applicators only ever accept more when a
/// branch does, so the type holds every valid value; the holder keeps every member the
/// declared ones do not name in a map of any value (`additionalProperties: {}`), and every item
/// past its positions as any value (`items: {}`), unless it says itself what they hold.
/// Validation enforces the rest. A `oneOf` is left alone (a wider branch can make two match,
/// which rejects the value). Where the holder reaches a reference in place, the definition it
/// names is shared and stays as written: only the holder's `unevaluated*` keyword is opened,
/// and only if the definition (`reference_evaluates`) or a branch evaluates the rest.
pub(crate) fn open_evaluating_branches(
    schema: &mut Value,
    reference_evaluates: &dyn Fn(&str) -> Evaluates,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for_each_child_mut(object, &mut |child| {
        open_evaluating_branches(child, reference_evaluates)
    });
    let holds = [
        "allOf",
        "anyOf",
        "unevaluatedProperties",
        "unevaluatedItems",
    ];
    if !holds.iter().any(|k| object.contains_key(*k)) {
        return;
    }
    let untyped = !OWN_KIND.iter().any(|k| object.contains_key(*k));
    let (_, through_references) = seen_in_place(object, reference_evaluates);
    let applicators = ["allOf", "anyOf"];
    for (side, (evaluating, unevaluated, rest)) in [EVALUATING_MEMBERS, EVALUATING_ITEMS]
        .into_iter()
        .enumerate()
    {
        let sees = object.get(unevaluated).is_some_and(|v| *v != json!(true));
        if let Some(through) = through_references {
            // A definition is shared: it stays as written, and the keyword that sees what
            // it evaluates keeps every member or item instead.
            if sees && [through.members, through.items][side] {
                object.shift_remove(unevaluated);
                object.entry(rest).or_insert_with(|| json!({}));
            }
            continue;
        }
        let evaluates = |branch: &Value| {
            branch
                .as_object()
                .is_some_and(|b| evaluating.iter().any(|k| b.contains_key(*k)))
        };
        let branches_evaluate = applicators.iter().any(|k| {
            object
                .get(*k)
                .and_then(Value::as_array)
                .is_some_and(|branches| branches.iter().any(evaluates))
        });
        if !branches_evaluate || !(untyped || sees) {
            continue;
        }
        for applicator in applicators {
            if let Some(Value::Array(branches)) = object.get_mut(applicator) {
                // A branch that says its own kind is typed on its own (`{"type": "array",
                // "items": ...}` stays a `Vec` of its items) unless the holder sees into it.
                let merged = |branch: &serde_json::Map<String, Value>| {
                    sees || !OWN_KIND.iter().any(|k| branch.contains_key(*k))
                };
                for branch in branches
                    .iter_mut()
                    .filter_map(Value::as_object_mut)
                    .filter(|b| merged(b))
                {
                    for keyword in evaluating {
                        branch.shift_remove(keyword);
                    }
                }
            }
        }
        if object.shift_remove(unevaluated).is_some() {
            object.entry(rest).or_insert_with(|| json!({}));
        }
    }
}

/// What a schema evaluates in place beyond what it declares: members, items, and whether a
/// narrowing keyword's annotations (which depend on the value) are among them (see
/// [`evaluates_in_place`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Evaluates {
    pub(crate) members: bool,
    pub(crate) items: bool,
    /// A [`NARROWING_ONLY`] keyword applies in place, whose annotations depend on the value.
    pub(crate) narrowing: bool,
}

impl Evaluates {
    /// What an unknown schema (a reference that does not resolve) may do.
    pub(crate) const ALL: Evaluates = Evaluates {
        members: true,
        items: true,
        narrowing: true,
    };

    /// What either does.
    pub(crate) fn or(self, other: Evaluates) -> Evaluates {
        Evaluates {
            members: self.members || other.members,
            items: self.items || other.items,
            narrowing: self.narrowing || other.narrowing,
        }
    }
}

/// What `object` evaluates in place itself ([`evaluates_in_place`]), and what the definitions
/// it reaches in place through references evaluate (`None` without such a reference).
fn seen_in_place(
    object: &serde_json::Map<String, Value>,
    reference_evaluates: &dyn Fn(&str) -> Evaluates,
) -> (Evaluates, Option<Evaluates>) {
    let (own, references) = evaluates_in_place(object);
    let through = references
        .iter()
        .map(|reference| reference_evaluates(reference))
        .reduce(Evaluates::or);
    (own, through)
}

/// What `object` and the schemas that apply in place of it evaluate beyond what they declare
/// (`additionalProperties`, `items`, ...), and the references among them, which the caller
/// follows.
pub(crate) fn evaluates_in_place(
    object: &serde_json::Map<String, Value>,
) -> (Evaluates, Vec<String>) {
    let mut found = Evaluates::default();
    let mut references = Vec::new();
    in_place_subtree(object, &mut |o| {
        found.members |= EVALUATING_MEMBERS.0.iter().any(|k| o.contains_key(*k));
        found.items |= EVALUATING_ITEMS.0.iter().any(|k| o.contains_key(*k));
        found.narrowing |= NARROWING_ONLY.iter().any(|k| o.contains_key(*k));
        references.extend(
            REFERENCES
                .iter()
                .filter_map(|k| o.get(*k).and_then(Value::as_str))
                .map(str::to_string),
        );
    });
    (found, references)
}

/// Calls `f` with `object` and every subschema that applies to the same value through an
/// in-place applicator (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`,
/// `dependentSchemas`), at any depth.
fn in_place_subtree(
    object: &serde_json::Map<String, Value>,
    f: &mut dyn FnMut(&serde_json::Map<String, Value>),
) {
    f(object);
    for (keyword, value) in object {
        if !IN_PLACE_APPLICATORS.contains(&keyword.as_str()) {
            continue;
        }
        let subschemas: Vec<&Value> = match (children(keyword), value) {
            (Some(Children::Named), Value::Object(map)) => map.values().collect(),
            (Some(Children::One | Children::List), Value::Array(list)) => list.iter().collect(),
            (Some(Children::One), child) => vec![child],
            _ => Vec::new(),
        };
        for child in subschemas.into_iter().filter_map(Value::as_object) {
            in_place_subtree(child, f);
        }
    }
}
