//! The schema comparison: walks two schemas side by side and classifies every difference by its
//! effect on the set of accepted values.

use std::collections::{BTreeSet, HashMap, HashSet};

use schemcp_contract::keywords::{ANNOTATIONS, COUNTS};
use serde_json::{Map, Value, json};

use crate::generate::{self, Seg};
use crate::{Change, Direction, Effect, Severity, fingerprint};

/// Keys that never change what validates (annotations, and where definitions and identifiers
/// live); they do not stop a node from being a plain wrapper.
fn inert(key: &str) -> bool {
    ANNOTATIONS.contains(&key)
        || matches!(
            key,
            "$defs" | "definitions" | "$schema" | "$id" | "$anchor" | "$dynamicAnchor" | RUST_TYPE
        )
}

/// typify's extension naming the Rust type generated code uses for a schema: validators
/// ignore it, so it changes what the server's own code holds, never what goes over the wire.
const RUST_TYPE: &str = "x-rust-type";

/// Keys this module understands, besides the counts (`keywords::COUNTS`); a difference in
/// any other key is `unclassified`.
const KNOWN: &[&str] = &[
    "type",
    "enum",
    "const",
    "required",
    "properties",
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "items",
    "prefixItems",
    "contains",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "pattern",
    "format",
    "uniqueItems",
    "dependentRequired",
    "dependentSchemas",
    "if",
    "then",
    "else",
    "not",
    "allOf",
    "anyOf",
    "oneOf",
    "$ref",
];

pub(crate) struct Raw {
    pub rule: &'static str,
    pub old_ptr: Option<String>,
    pub new_ptr: Option<String>,
    pub effect: Effect,
    pub message: String,
    pub path: Vec<Seg>,
    /// Schemas (relative to the old and new roots) whose sample values are likely
    /// counterexamples.
    pub old_hints: Vec<Value>,
    pub new_hints: Vec<Value>,
    pub unclassified: bool,
}

struct Ctx<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    out: Vec<Raw>,
    visiting: HashSet<(String, String)>,
}

/// Names for a keyword whose value is a subschema, compared as a whole.
struct Names {
    added: &'static str,
    removed: &'static str,
    narrowed: &'static str,
    extended: &'static str,
    changed: &'static str,
}

macro_rules! names {
    ($p:literal) => {
        Names {
            added: concat!($p, "-added"),
            removed: concat!($p, "-removed"),
            narrowed: concat!($p, "-narrowed"),
            extended: concat!($p, "-extended"),
            changed: concat!($p, "-changed"),
        }
    };
}

fn join(p: &str, k: &str) -> String {
    format!("{p}/{}", k.replace('~', "~0").replace('/', "~1"))
}

fn is_false(v: Option<&Value>) -> bool {
    v == Some(&Value::Bool(false))
}

/// Resolves a local `$ref` (`#`, `#/...`) against `root`.
pub(crate) fn resolve<'v>(root: &'v Value, r: &str) -> Option<(&'v Value, String)> {
    let frag = r.strip_prefix('#')?;
    let frag = schemcp_contract::json::percent_decode(frag);
    root.pointer(&frag).map(|v| (v, frag))
}

/// Follows `$ref`s and unwraps one-branch combinators so that formatting-only restructurings
/// compare equal. Returns the effective schema and the pointer of the node it mostly came from.
pub(crate) fn normalize(root: &Value, v: &Value, ptr: &str) -> (Value, String) {
    let mut cur = v.clone();
    let mut p = ptr.to_string();
    for _ in 0..16 {
        let Some(o) = cur.as_object() else { break };
        if let Some(r) = o.get("$ref").and_then(Value::as_str) {
            let Some((target, tp)) = resolve(root, r) else {
                break;
            };
            let siblings: Map<String, Value> = o
                .iter()
                .filter(|(k, _)| *k != "$ref" && !inert(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if siblings.is_empty() {
                cur = target.clone();
                p = tp;
            } else {
                // A $ref with constraints beside it: both apply, so merge them.
                let mut m = target.as_object().cloned().unwrap_or_default();
                for (k, v) in siblings {
                    m.insert(k, v);
                }
                cur = Value::Object(m);
            }
            continue;
        }
        let live: Vec<&String> = o.keys().filter(|k| !inert(k)).collect();
        if live.len() == 1 {
            let k = live[0].as_str();
            if matches!(k, "allOf" | "anyOf" | "oneOf")
                && let Some([one]) = o[k].as_array().map(Vec::as_slice)
            {
                p = format!("{p}/{k}/0");
                cur = one.clone();
                continue;
            }
        }
        break;
    }
    if cur == json!({}) {
        cur = Value::Bool(true);
    }
    (cur, p)
}

fn live_keys(o: &Map<String, Value>) -> Vec<&str> {
    o.keys().map(String::as_str).filter(|k| !inert(k)).collect()
}

/// `{"anyOf": [X, {"type": "null"}]}` (or oneOf) as X.
fn split_null(v: &Value, p: &str) -> Option<(Value, String)> {
    let o = v.as_object()?;
    let live = live_keys(o);
    if live.len() != 1 || !matches!(live[0], "anyOf" | "oneOf") {
        return None;
    }
    let k = live[0];
    let arr = o[k].as_array()?;
    if arr.len() != 2 {
        return None;
    }
    let null = json!({"type": "null"});
    let i = arr.iter().position(|b| *b == null)?;
    Some((arr[1 - i].clone(), format!("{p}/{k}/{}", 1 - i)))
}

fn types(o: &Map<String, Value>) -> Option<BTreeSet<String>> {
    match o.get("type")? {
        Value::String(s) => Some([s.clone()].into()),
        Value::Array(a) => Some(
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect(),
        ),
        _ => None,
    }
}

fn covers(set: &BTreeSet<String>, t: &str) -> bool {
    set.contains(t) || (t == "integer" && set.contains("number"))
}

fn subset(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    a.iter().all(|t| covers(b, t))
}

fn accepts_null(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(o) => types(o).is_none_or(|t| t.contains("null")),
        _ => false,
    }
}

impl<'a> Ctx<'a> {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        rule: &'static str,
        op: Option<String>,
        np: Option<String>,
        effect: Effect,
        message: String,
        path: &[Seg],
        hints: (Vec<Value>, Vec<Value>),
    ) {
        self.out.push(Raw {
            rule,
            old_ptr: op,
            new_ptr: np,
            effect,
            message,
            path: path.to_vec(),
            old_hints: hints.0,
            new_hints: hints.1,
            unclassified: false,
        });
    }

    /// `keyword` appeared in the new schema where the old had none: it narrows.
    fn added(
        &mut self,
        rule: &'static str,
        np: &str,
        keyword: &str,
        message: String,
        path: &[Seg],
        hints: (Vec<Value>, Vec<Value>),
    ) {
        let at = Some(join(np, keyword));
        self.push(rule, None, at, Effect::Narrows, message, path, hints);
    }

    /// `keyword` of the old schema is gone from the new one: it widens.
    fn removed(
        &mut self,
        rule: &'static str,
        op: &str,
        keyword: &str,
        message: String,
        path: &[Seg],
        hints: (Vec<Value>, Vec<Value>),
    ) {
        let at = Some(join(op, keyword));
        self.push(rule, at, None, Effect::Widens, message, path, hints);
    }

    /// The combined effect of the differences between two subschemas, without reporting them.
    fn probe(&mut self, o: &Value, op: &str, n: &Value, np: &str, path: &[Seg]) -> Effect {
        let mark = self.out.len();
        self.compare(o, op, n, np, path, 0);
        let e = self.out[mark..].iter().fold(Effect::None, |acc, r| {
            acc.combine(if r.unclassified {
                Effect::Changes
            } else {
                r.effect
            })
        });
        self.out.truncate(mark);
        e
    }

    #[allow(clippy::too_many_arguments)]
    fn whole(
        &mut self,
        names: &Names,
        what: &str,
        o: Option<&Value>,
        op: &str,
        n: Option<&Value>,
        np: &str,
        path: &[Seg],
        hints: (Vec<Value>, Vec<Value>),
    ) {
        match (o, n) {
            (None, Some(_)) => self.push(
                names.added,
                None,
                Some(np.into()),
                Effect::Narrows,
                format!("{what} added"),
                path,
                hints,
            ),
            (Some(_), None) => self.push(
                names.removed,
                Some(op.into()),
                None,
                Effect::Widens,
                format!("{what} removed"),
                path,
                hints,
            ),
            (Some(a), Some(b)) if a != b => {
                let e = self.probe(a, op, b, np, path);
                let (rule, word) = match e {
                    Effect::None => return,
                    Effect::Narrows => (names.narrowed, "narrowed"),
                    Effect::Widens => (names.extended, "extended"),
                    Effect::Changes => (names.changed, "changed"),
                };
                self.push(
                    rule,
                    Some(op.into()),
                    Some(np.into()),
                    e,
                    format!("{what} {word}"),
                    path,
                    hints,
                );
            }
            _ => {}
        }
    }

    fn compare(&mut self, o: &Value, op: &str, n: &Value, np: &str, path: &[Seg], depth: usize) {
        if depth > 48 {
            return;
        }
        let (o, op) = normalize(self.old_root, o, op);
        let (n, np) = normalize(self.new_root, n, np);
        if o == n && op == np && !contains_ref(&o) {
            return;
        }
        let key = (op.clone(), np.clone());
        if !self.visiting.insert(key.clone()) {
            return;
        }
        self.compare_norm(&o, &op, &n, &np, path, depth);
        self.visiting.remove(&key);
    }

    fn compare_norm(
        &mut self,
        o: &Value,
        op: &str,
        n: &Value,
        np: &str,
        path: &[Seg],
        depth: usize,
    ) {
        let hints = || (vec![o.clone()], vec![n.clone()]);
        if o == n && !contains_ref(o) {
            return;
        }
        match (o, n) {
            (Value::Bool(false), Value::Bool(false)) => return,
            (Value::Bool(false), _) => {
                self.push(
                    "schema-allowed",
                    Some(op.into()),
                    Some(np.into()),
                    Effect::Widens,
                    "a value that was forbidden (false schema) is now allowed".into(),
                    path,
                    hints(),
                );
                return;
            }
            (_, Value::Bool(false)) => {
                self.push(
                    "schema-forbidden",
                    Some(op.into()),
                    Some(np.into()),
                    Effect::Narrows,
                    "the schema is now false: no value is allowed".into(),
                    path,
                    hints(),
                );
                return;
            }
            _ => {}
        }
        // Nullable through a two-branch union with {"type":"null"}.
        match (split_null(o, op), split_null(n, np)) {
            (None, Some((inner, ip))) if !accepts_null(o) => {
                self.push(
                    "nullable-added",
                    Some(op.into()),
                    Some(np.into()),
                    Effect::Widens,
                    "null is now accepted".into(),
                    path,
                    hints(),
                );
                return self.compare(o, op, &inner, &ip, path, depth + 1);
            }
            (Some((inner, ip)), None) if !accepts_null(n) => {
                self.push(
                    "nullable-removed",
                    Some(op.into()),
                    Some(np.into()),
                    Effect::Narrows,
                    "null is no longer accepted".into(),
                    path,
                    hints(),
                );
                return self.compare(&inner, &ip, n, np, path, depth + 1);
            }
            (Some((a, ap)), Some((b, bp))) => {
                return self.compare(&a, &ap, &b, &bp, path, depth + 1);
            }
            _ => {}
        }
        // A plain union on one side only: the other side is a one-branch union.
        if let (Some(ok), Some(nk)) = (pure_sum(o), pure_sum(n)) {
            if ok == nk {
                return self.sum(ok, &o[ok], op, &n[nk], np, path, depth);
            }
        } else if let Some(nk) = pure_sum(n) {
            if !is_object_with(o, &["anyOf", "oneOf", "allOf"]) {
                return self.sum(nk, &json!([o]), &sum_anchor(op), &n[nk], np, path, depth);
            }
        } else if let Some(ok) = pure_sum(o)
            && !is_object_with(n, &["anyOf", "oneOf", "allOf"])
        {
            return self.sum(ok, &o[ok], op, &json!([n]), &sum_anchor(np), path, depth);
        }
        // A plain intersection on one side only: the other side is a one-branch intersection.
        let pure_all = |v: &Value| v.as_object().is_some_and(|o| live_keys(o) == ["allOf"]);
        let no_all = |v: &Value| !is_object_with(v, &["allOf"]);
        if pure_all(n) && no_all(o) {
            let wrapped = json!({"allOf": [o]});
            return self.keywords(
                wrapped.as_object().unwrap(),
                &sum_anchor(op),
                n.as_object().unwrap(),
                np,
                path,
                depth,
            );
        }
        if pure_all(o) && no_all(n) {
            let wrapped = json!({"allOf": [n]});
            return self.keywords(
                o.as_object().unwrap(),
                op,
                wrapped.as_object().unwrap(),
                &sum_anchor(np),
                path,
                depth,
            );
        }
        let empty = Map::new();
        let om = o.as_object().unwrap_or(&empty);
        let nm = n.as_object().unwrap_or(&empty);
        self.keywords(om, op, nm, np, path, depth);
    }

    #[allow(clippy::too_many_arguments)]
    fn sum(
        &mut self,
        kind: &str,
        oa: &Value,
        op: &str,
        na: &Value,
        np: &str,
        path: &[Seg],
        depth: usize,
    ) {
        let empty = vec![];
        let oa = oa.as_array().unwrap_or(&empty);
        let na = na.as_array().unwrap_or(&empty);
        let (added, removed) = match kind {
            "anyOf" => ("any-of-branch-added", "any-of-branch-removed"),
            _ => ("one-of-branch-added", "one-of-branch-removed"),
        };
        let opb = |i: usize| {
            if op.ends_with("/~sum") {
                op.trim_end_matches("/~sum").to_string()
            } else {
                format!("{op}/{kind}/{i}")
            }
        };
        let npb = |i: usize| {
            if np.ends_with("/~sum") {
                np.trim_end_matches("/~sum").to_string()
            } else {
                format!("{np}/{kind}/{i}")
            }
        };
        let (pairs, only_o, only_n) = match_branches(self.old_root, oa, self.new_root, na);
        for (i, j) in pairs {
            self.compare(&oa[i], &opb(i), &na[j], &npb(j), path, depth + 1);
        }
        for j in only_n {
            self.push(
                added,
                Some(op.trim_end_matches("/~sum").into()),
                Some(npb(j)),
                Effect::Widens,
                format!("{kind} branch {j} added: more values are accepted"),
                path,
                (vec![], vec![na[j].clone()]),
            );
        }
        for i in only_o {
            self.push(
                removed,
                Some(opb(i)),
                Some(np.trim_end_matches("/~sum").into()),
                Effect::Narrows,
                format!("{kind} branch {i} removed: fewer values are accepted"),
                path,
                (vec![oa[i].clone()], vec![]),
            );
        }
    }

    fn keywords(
        &mut self,
        om: &Map<String, Value>,
        op: &str,
        nm: &Map<String, Value>,
        np: &str,
        path: &[Seg],
        depth: usize,
    ) {
        let o = Value::Object(om.clone());
        let n = Value::Object(nm.clone());
        let here = || (vec![o.clone()], vec![n.clone()]);
        let kp = |p: &str, k: &str| join(p, k);

        // Annotations.
        for (k, rule) in [
            ("default", "default"),
            ("deprecated", "deprecated"),
            ("readOnly", "read-only"),
            ("writeOnly", "write-only"),
            ("description", "schema-description"),
            ("title", "schema-title"),
            (RUST_TYPE, "rust-type"),
        ] {
            let (a, b) = (om.get(k), nm.get(k));
            if a != b {
                let rule: &'static str = match (rule, a.is_none(), b.is_none()) {
                    ("default", true, _) => "default-added",
                    ("default", _, true) => "default-removed",
                    ("default", _, _) => "default-changed",
                    ("deprecated", ..) => "deprecated-changed",
                    ("read-only", ..) => "read-only-changed",
                    ("write-only", ..) => "write-only-changed",
                    ("schema-description", ..) => "schema-description-changed",
                    ("rust-type", ..) => "rust-type-changed",
                    _ => "schema-title-changed",
                };
                self.push(
                    rule,
                    a.map(|_| kp(op, k)),
                    b.map(|_| kp(np, k)),
                    Effect::None,
                    if k == RUST_TYPE {
                        format!(
                            "`{k}` changed from {} to {}: the Rust type the server's generated \
                             code uses; validation and clients are unaffected",
                            show(a),
                            show(b)
                        )
                    } else {
                        format!("`{k}` changed from {} to {}", show(a), show(b))
                    },
                    path,
                    (vec![], vec![]),
                );
            }
        }

        // type
        match (types(om), types(nm)) {
            (None, Some(t)) => self.added(
                "type-added",
                np,
                "type",
                format!("type restricted to {}", list(&t)),
                path,
                here(),
            ),
            (Some(t), None) => self.removed(
                "type-removed",
                op,
                "type",
                format!("type restriction {} removed", list(&t)),
                path,
                here(),
            ),
            (Some(a), Some(b)) => {
                let (sub, sup) = (subset(&a, &b), subset(&b, &a));
                if !(sub && sup) {
                    let strip = |s: &BTreeSet<String>| {
                        s.iter()
                            .filter(|t| *t != "null")
                            .cloned()
                            .collect::<BTreeSet<_>>()
                    };
                    let (sa, sb) = (strip(&a), strip(&b));
                    let same_but_null = subset(&sa, &sb) && subset(&sb, &sa);
                    let (rule, eff) = if same_but_null && b.contains("null") {
                        ("nullable-added", Effect::Widens)
                    } else if same_but_null {
                        ("nullable-removed", Effect::Narrows)
                    } else if sub {
                        ("type-widened", Effect::Widens)
                    } else if sup {
                        ("type-narrowed", Effect::Narrows)
                    } else {
                        ("type-changed", Effect::Changes)
                    };
                    self.push(
                        rule,
                        Some(kp(op, "type")),
                        Some(kp(np, "type")),
                        eff,
                        format!("type {} became {}", list(&a), list(&b)),
                        path,
                        here(),
                    );
                }
            }
            (None, None) => {}
        }

        // enum
        match (
            om.get("enum").and_then(Value::as_array),
            nm.get("enum").and_then(Value::as_array),
        ) {
            (None, Some(_)) => self.added(
                "enum-added",
                np,
                "enum",
                "values restricted to an enum".into(),
                path,
                here(),
            ),
            (Some(_), None) => self.removed(
                "enum-removed",
                op,
                "enum",
                "enum restriction removed".into(),
                path,
                here(),
            ),
            (Some(a), Some(b)) => {
                let gained: Vec<&Value> = b.iter().filter(|v| !a.contains(v)).collect();
                let lost: Vec<&Value> = a.iter().filter(|v| !b.contains(v)).collect();
                let (rule, eff) = match (gained.is_empty(), lost.is_empty()) {
                    (true, true) => ("", Effect::None),
                    (false, true) => ("enum-extended", Effect::Widens),
                    (true, false) => ("enum-narrowed", Effect::Narrows),
                    (false, false) => ("enum-changed", Effect::Changes),
                };
                if !rule.is_empty() {
                    self.push(
                        rule,
                        Some(kp(op, "enum")),
                        Some(kp(np, "enum")),
                        eff,
                        format!(
                            "enum values added: {}; removed: {}",
                            vals(&gained),
                            vals(&lost)
                        ),
                        path,
                        here(),
                    );
                }
            }
            _ => {}
        }

        // const
        match (om.get("const"), nm.get("const")) {
            (None, Some(b)) => self.added(
                "const-added",
                np,
                "const",
                format!("value fixed to {b}"),
                path,
                here(),
            ),
            (Some(a), None) => self.removed(
                "const-removed",
                op,
                "const",
                format!("value no longer fixed to {a}"),
                path,
                here(),
            ),
            (Some(a), Some(b)) if a != b => self.push(
                "const-changed",
                Some(kp(op, "const")),
                Some(kp(np, "const")),
                Effect::Changes,
                format!("constant changed from {a} to {b}"),
                path,
                here(),
            ),
            _ => {}
        }

        // required
        let (ro, rn) = (generate::required_names(om), generate::required_names(nm));
        for (i, r) in rn.iter().enumerate() {
            if !ro.contains(r) {
                self.push(
                    "required-added",
                    None,
                    Some(format!("{}/{i}", kp(np, "required"))),
                    Effect::Narrows,
                    format!("property `{r}` is now required"),
                    path,
                    here(),
                );
            }
        }
        for (i, r) in ro.iter().enumerate() {
            if !rn.contains(r) {
                self.push(
                    "required-removed",
                    Some(format!("{}/{i}", kp(op, "required"))),
                    None,
                    Effect::Widens,
                    format!("property `{r}` is no longer required"),
                    path,
                    here(),
                );
            }
        }

        // properties
        let props = |m: &Map<String, Value>| {
            m.get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (po, pn) = (props(om), props(nm));
        let mut names: Vec<&String> = po.keys().collect();
        names.extend(pn.keys().filter(|k| !po.contains_key(*k)));
        for name in names {
            let sub: Vec<Seg> = path
                .iter()
                .cloned()
                .chain([Seg::Prop(name.clone())])
                .collect();
            let opp = kp(&kp(op, "properties"), name);
            let npp = kp(&kp(np, "properties"), name);
            match (po.get(name), pn.get(name)) {
                (Some(a), Some(b)) => self.compare(a, &opp, b, &npp, &sub, depth + 1),
                (None, Some(b)) => {
                    let (model, eff_schema, ep) = effective(om, op, name);
                    let e = self.probe(&eff_schema, &ep, b, &npp, &sub);
                    let rule = match model {
                        Model::Open => "property-added-to-open-content-model",
                        Model::Closed => "property-added-to-closed-content-model",
                        Model::Partial => "property-added-to-partially-open-content-model",
                    };
                    self.push(
                        rule,
                        None,
                        Some(npp),
                        e,
                        format!("property `{name}` added"),
                        &sub,
                        (vec![eff_schema], vec![b.clone()]),
                    );
                }
                (Some(a), None) => {
                    let (model, eff_schema, ep) = effective(nm, np, name);
                    let e = self.probe(a, &opp, &eff_schema, &ep, &sub);
                    let rule = match model {
                        Model::Open => "property-removed-from-open-content-model",
                        Model::Closed => "property-removed-from-closed-content-model",
                        Model::Partial => "property-removed-from-partially-open-content-model",
                    };
                    self.push(
                        rule,
                        Some(opp),
                        None,
                        e,
                        format!("property `{name}` removed"),
                        &sub,
                        (vec![a.clone()], vec![eff_schema]),
                    );
                }
                (None, None) => {}
            }
        }

        // additionalProperties / unevaluatedProperties
        let extra = extra_name(&po, &pn);
        let esub: Vec<Seg> = path
            .iter()
            .cloned()
            .chain([Seg::Prop(extra.clone())])
            .collect();
        for (k, added, removed, nn) in [
            (
                "additionalProperties",
                "additional-properties-added",
                "additional-properties-removed",
                names!("additional-properties"),
            ),
            (
                "unevaluatedProperties",
                "unevaluated-properties-added",
                "unevaluated-properties-removed",
                names!("unevaluated-properties"),
            ),
        ] {
            let (a, b) = (om.get(k), nm.get(k));
            if a == b {
                continue;
            }
            let ex = |v: Option<&Value>| {
                vec![
                    json!({"type": "object", "properties": {extra.clone(): v.cloned().unwrap_or(Value::Bool(true))}}),
                ]
            };
            if !is_false(a) && is_false(b) {
                self.push(
                    removed,
                    a.map(|_| kp(op, k)),
                    Some(kp(np, k)),
                    Effect::Narrows,
                    format!("`{k}` is now false: unknown properties are rejected"),
                    &esub,
                    (ex(a), vec![]),
                );
            } else if is_false(a) && !is_false(b) {
                self.push(
                    added,
                    Some(kp(op, k)),
                    b.map(|_| kp(np, k)),
                    Effect::Widens,
                    format!("`{k}` is no longer false: unknown properties are accepted"),
                    &esub,
                    (vec![], ex(b)),
                );
            } else {
                let t = Value::Bool(true);
                self.whole(
                    &nn,
                    &format!("`{k}`"),
                    Some(a.unwrap_or(&t)),
                    &kp(op, k),
                    Some(b.unwrap_or(&t)),
                    &kp(np, k),
                    &esub,
                    (vec![a.unwrap_or(&t).clone()], vec![b.unwrap_or(&t).clone()]),
                );
            }
        }

        // patternProperties
        let pats = |m: &Map<String, Value>| {
            m.get("patternProperties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (pao, pan) = (pats(om), pats(nm));
        let mut keys: Vec<&String> = pao.keys().collect();
        keys.extend(pan.keys().filter(|k| !pao.contains_key(*k)));
        for k in keys {
            let pname = generate::name_matching(k).unwrap_or_else(|| "a".into());
            let sub: Vec<Seg> = path.iter().cloned().chain([Seg::Prop(pname)]).collect();
            let (a, b) = (pao.get(k), pan.get(k));
            self.whole(
                &names!("pattern-property"),
                &format!("pattern property `{k}`"),
                a,
                &kp(&kp(op, "patternProperties"), k),
                b,
                &kp(&kp(np, "patternProperties"), k),
                &sub,
                (
                    a.into_iter().cloned().collect(),
                    b.into_iter().cloned().collect(),
                ),
            );
        }

        // propertyNames, contains, not, dependentSchemas: compared as a whole at this location.
        for (k, nn) in [
            ("propertyNames", names!("property-names")),
            ("contains", names!("contains")),
        ] {
            let (a, b) = (om.get(k), nm.get(k));
            if a != b {
                self.whole(
                    &nn,
                    &format!("`{k}`"),
                    a,
                    &kp(op, k),
                    b,
                    &kp(np, k),
                    path,
                    here(),
                );
            }
        }
        // A `$ref` that `normalize` could not follow names the 2020-12 metaschema, the one
        // document outside the folder the loader lets a reference name: "a JSON Schema", a
        // constraint like any other.
        let metaschema = |m: &Map<String, Value>| {
            m.get("$ref")
                .and_then(Value::as_str)
                .is_some_and(schemcp_contract::names_metaschema)
        };
        match (metaschema(om), metaschema(nm)) {
            (false, true) => self.push(
                "metaschema-ref-added",
                None,
                Some(kp(np, "$ref")),
                Effect::Narrows,
                "the value must now be a JSON Schema (`$ref` to the 2020-12 metaschema)".into(),
                path,
                here(),
            ),
            (true, false) => self.push(
                "metaschema-ref-removed",
                Some(kp(op, "$ref")),
                None,
                Effect::Widens,
                "the value no longer has to be a JSON Schema (`$ref` to the 2020-12 metaschema \
                 removed)"
                    .into(),
                path,
                here(),
            ),
            _ => {}
        }
        match (om.get("not"), nm.get("not")) {
            (None, Some(_)) => self.added(
                "not-added",
                np,
                "not",
                "`not` added: values matching it are rejected".into(),
                path,
                here(),
            ),
            (Some(_), None) => self.removed(
                "not-removed",
                op,
                "not",
                "`not` removed".into(),
                path,
                here(),
            ),
            (Some(a), Some(b)) if a != b => {
                // Whatever the negated schema gains, the whole loses.
                let e = self
                    .probe(a, &kp(op, "not"), b, &kp(np, "not"), path)
                    .flip();
                let rule = match e {
                    Effect::Narrows => "not-narrowed",
                    Effect::Widens => "not-extended",
                    Effect::Changes => "not-changed",
                    Effect::None => "",
                };
                if !rule.is_empty() {
                    let hints = (
                        vec![o.clone(), a.clone(), b.clone()],
                        vec![n.clone(), a.clone(), b.clone()],
                    );
                    self.push(
                        rule,
                        Some(kp(op, "not")),
                        Some(kp(np, "not")),
                        e,
                        "`not` changed".into(),
                        path,
                        hints,
                    );
                }
            }
            _ => {}
        }
        let deps = |m: &Map<String, Value>, k: &str| {
            m.get(k)
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (dso, dsn) = (deps(om, "dependentSchemas"), deps(nm, "dependentSchemas"));
        let mut keys: Vec<&String> = dso.keys().collect();
        keys.extend(dsn.keys().filter(|k| !dso.contains_key(*k)));
        for k in keys {
            let (a, b) = (dso.get(k), dsn.get(k));
            self.whole(
                &names!("dependent-schema"),
                &format!("dependent schema for `{k}`"),
                a,
                &kp(&kp(op, "dependentSchemas"), k),
                b,
                &kp(&kp(np, "dependentSchemas"), k),
                path,
                here(),
            );
        }
        let (dro, drn) = (deps(om, "dependentRequired"), deps(nm, "dependentRequired"));
        let mut keys: Vec<&String> = dro.keys().collect();
        keys.extend(drn.keys().filter(|k| !dro.contains_key(*k)));
        for k in keys {
            let set = |v: Option<&Value>| -> BTreeSet<String> {
                v.and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(String::from)
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let (a, b) = (dro.get(k), drn.get(k));
            let (sa, sb) = (set(a), set(b));
            let (rule, eff) = match (a.is_some(), b.is_some()) {
                (false, true) => ("dependent-required-added", Effect::Narrows),
                (true, false) => ("dependent-required-removed", Effect::Widens),
                _ if sa == sb => continue,
                _ if sa.is_subset(&sb) => ("dependent-required-narrowed", Effect::Narrows),
                _ if sb.is_subset(&sa) => ("dependent-required-extended", Effect::Widens),
                _ => ("dependent-required-changed", Effect::Changes),
            };
            let dp = |p: &str| kp(&kp(p, "dependentRequired"), k);
            self.push(
                rule,
                a.map(|_| dp(op)),
                b.map(|_| dp(np)),
                eff,
                format!(
                    "properties required with `{k}`: {} became {}",
                    list(&sa),
                    list(&sb)
                ),
                path,
                here(),
            );
        }

        // items / prefixItems
        let pre = |m: &Map<String, Value>| {
            m.get("prefixItems")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let (pio, pin) = (pre(om), pre(nm));
        let t = Value::Bool(true);
        let (io, inn) = (om.get("items"), nm.get("items"));
        if pio.is_empty() && pin.is_empty() {
            if io != inn {
                let sub: Vec<Seg> = path.iter().cloned().chain([Seg::Index(0)]).collect();
                self.compare(
                    io.unwrap_or(&t),
                    &kp(op, "items"),
                    inn.unwrap_or(&t),
                    &kp(np, "items"),
                    &sub,
                    depth + 1,
                );
            }
        } else {
            let max = pio.len().max(pin.len());
            for i in 0..max {
                let sub: Vec<Seg> = path.iter().cloned().chain([Seg::Index(i)]).collect();
                let ipo = format!("{}/{i}", kp(op, "prefixItems"));
                let ipn = format!("{}/{i}", kp(np, "prefixItems"));
                match (pio.get(i), pin.get(i)) {
                    (Some(a), Some(b)) => self.compare(a, &ipo, b, &ipn, &sub, depth + 1),
                    (None, Some(b)) => {
                        let eo = io.unwrap_or(&t);
                        let e = self.probe(eo, &kp(op, "items"), b, &ipn, &sub);
                        self.push(
                            "item-added",
                            None,
                            Some(ipn),
                            e,
                            format!("tuple item {i} added"),
                            &sub,
                            (vec![eo.clone()], vec![b.clone()]),
                        );
                    }
                    (Some(a), None) => {
                        let en = inn.unwrap_or(&t);
                        let e = self.probe(a, &ipo, en, &kp(np, "items"), &sub);
                        self.push(
                            "item-removed",
                            Some(ipo),
                            None,
                            e,
                            format!("tuple item {i} removed"),
                            &sub,
                            (vec![a.clone()], vec![en.clone()]),
                        );
                    }
                    _ => {}
                }
            }
            if io != inn {
                let sub: Vec<Seg> = path.iter().cloned().chain([Seg::Index(max)]).collect();
                if !is_false(io) && is_false(inn) {
                    self.push(
                        "additional-items-removed",
                        io.map(|_| kp(op, "items")),
                        Some(kp(np, "items")),
                        Effect::Narrows,
                        "items beyond the tuple are now rejected".into(),
                        &sub,
                        (vec![io.unwrap_or(&t).clone()], vec![]),
                    );
                } else if is_false(io) && !is_false(inn) {
                    self.push(
                        "additional-items-added",
                        Some(kp(op, "items")),
                        inn.map(|_| kp(np, "items")),
                        Effect::Widens,
                        "items beyond the tuple are now accepted".into(),
                        &sub,
                        (vec![], vec![inn.unwrap_or(&t).clone()]),
                    );
                } else {
                    self.whole(
                        &names!("additional-items"),
                        "items beyond the tuple",
                        Some(io.unwrap_or(&t)),
                        &kp(op, "items"),
                        Some(inn.unwrap_or(&t)),
                        &kp(np, "items"),
                        &sub,
                        (
                            vec![io.unwrap_or(&t).clone()],
                            vec![inn.unwrap_or(&t).clone()],
                        ),
                    );
                }
            }
        }

        // Bounds.
        for (k, is_min, a, r, inc, dec) in BOUNDS {
            let num = |m: &Map<String, Value>| m.get(*k).and_then(Value::as_f64);
            let (x, y) = (num(om), num(nm));
            let (rule, eff) = match (x, y) {
                (None, Some(_)) => (*a, Effect::Narrows),
                (Some(_), None) => (*r, Effect::Widens),
                (Some(x), Some(y)) if y > x => (
                    *inc,
                    if *is_min {
                        Effect::Narrows
                    } else {
                        Effect::Widens
                    },
                ),
                (Some(x), Some(y)) if y < x => (
                    *dec,
                    if *is_min {
                        Effect::Widens
                    } else {
                        Effect::Narrows
                    },
                ),
                _ => continue,
            };
            self.push(
                rule,
                x.map(|_| kp(op, k)),
                y.map(|_| kp(np, k)),
                eff,
                format!("`{k}` {} became {}", show(om.get(*k)), show(nm.get(*k))),
                path,
                here(),
            );
        }

        // multipleOf
        let mo = |m: &Map<String, Value>| m.get("multipleOf").and_then(Value::as_f64);
        let ratio_int = |a: f64, b: f64| {
            let r = a / b;
            (r - r.round()).abs() < 1e-9
        };
        let mult = match (mo(om), mo(nm)) {
            (None, Some(_)) => Some(("multiple-of-added", Effect::Narrows)),
            (Some(_), None) => Some(("multiple-of-removed", Effect::Widens)),
            (Some(a), Some(b)) if a != b && ratio_int(b, a) => {
                Some(("multiple-of-increased", Effect::Narrows))
            }
            (Some(a), Some(b)) if a != b && ratio_int(a, b) => {
                Some(("multiple-of-decreased", Effect::Widens))
            }
            (Some(a), Some(b)) if a != b => Some(("multiple-of-changed", Effect::Changes)),
            _ => None,
        };
        if let Some((rule, eff)) = mult {
            self.push(
                rule,
                om.get("multipleOf").map(|_| kp(op, "multipleOf")),
                nm.get("multipleOf").map(|_| kp(np, "multipleOf")),
                eff,
                format!(
                    "`multipleOf` {} became {}",
                    show(om.get("multipleOf")),
                    show(nm.get("multipleOf"))
                ),
                path,
                here(),
            );
        }

        // pattern, format
        for (k, added, removed, changed) in [
            (
                "pattern",
                "pattern-added",
                "pattern-removed",
                "pattern-changed",
            ),
            ("format", "format-added", "format-removed", "format-changed"),
        ] {
            let (a, b) = (om.get(k), nm.get(k));
            let (rule, eff) = match (a, b) {
                (None, Some(_)) => (added, Effect::Narrows),
                (Some(_), None) => (removed, Effect::Widens),
                (Some(x), Some(y)) if x != y => (changed, Effect::Changes),
                _ => continue,
            };
            self.push(
                rule,
                a.map(|_| kp(op, k)),
                b.map(|_| kp(np, k)),
                eff,
                format!("`{k}` {} became {}", show(a), show(b)),
                path,
                here(),
            );
        }

        // uniqueItems
        let uq = |m: &Map<String, Value>| m.get("uniqueItems") == Some(&Value::Bool(true));
        match (uq(om), uq(nm)) {
            (false, true) => self.added(
                "unique-items-added",
                np,
                "uniqueItems",
                "items must now be unique".into(),
                path,
                here(),
            ),
            (true, false) => self.push(
                "unique-items-removed",
                Some(kp(op, "uniqueItems")),
                nm.get("uniqueItems").map(|_| kp(np, "uniqueItems")),
                Effect::Widens,
                "items no longer need to be unique".into(),
                path,
                here(),
            ),
            _ => {}
        }

        // if / then / else
        let (ifo, ifn) = (om.get("if"), nm.get("if"));
        match (ifo, ifn) {
            (None, Some(_)) => self.added(
                "if-then-else-added",
                np,
                "if",
                "conditional (`if`/`then`/`else`) added".into(),
                path,
                here(),
            ),
            (Some(_), None) => self.removed(
                "if-then-else-removed",
                op,
                "if",
                "conditional (`if`/`then`/`else`) removed".into(),
                path,
                here(),
            ),
            (Some(a), Some(b)) if a != b => self.push(
                "if-changed",
                Some(kp(op, "if")),
                Some(kp(np, "if")),
                Effect::Changes,
                "the `if` condition changed".into(),
                path,
                here(),
            ),
            (Some(_), Some(_)) => {
                for (k, nn) in [("then", names!("then")), ("else", names!("else"))] {
                    let (a, b) = (om.get(k), nm.get(k));
                    if a != b {
                        self.whole(
                            &nn,
                            &format!("`{k}` branch"),
                            a,
                            &kp(op, k),
                            b,
                            &kp(np, k),
                            path,
                            here(),
                        );
                    }
                }
            }
            (None, None) => {}
        }

        // allOf: every branch applies, so a new branch narrows.
        let arr = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_array).cloned();
        let (ao, an) = (
            arr(om, "allOf").unwrap_or_default(),
            arr(nm, "allOf").unwrap_or_default(),
        );
        if ao != an {
            let (pairs, only_o, only_n) = match_branches(self.old_root, &ao, self.new_root, &an);
            for (i, j) in pairs {
                self.compare(
                    &ao[i],
                    &branch(op, "allOf", i),
                    &an[j],
                    &branch(np, "allOf", j),
                    path,
                    depth + 1,
                );
            }
            for j in only_n {
                let what = match an[j].get("required") {
                    Some(r) if an[j].as_object().is_some_and(|o| o.len() == 1) => {
                        format!(" (now requires {r})")
                    }
                    _ => String::new(),
                };
                self.push(
                    "all-of-branch-added",
                    None,
                    Some(branch(np, "allOf", j)),
                    Effect::Narrows,
                    format!("allOf branch {j} added{what}: every value must also match it"),
                    path,
                    here(),
                );
            }
            for i in only_o {
                self.push(
                    "all-of-branch-removed",
                    Some(branch(op, "allOf", i)),
                    None,
                    Effect::Widens,
                    format!("allOf branch {i} removed"),
                    path,
                    here(),
                );
            }
        }
        // anyOf / oneOf next to other keywords.
        let (ka, kb) = (
            ["anyOf", "oneOf"].into_iter().find(|k| om.contains_key(*k)),
            ["anyOf", "oneOf"].into_iter().find(|k| nm.contains_key(*k)),
        );
        match (ka, kb) {
            (Some(a), Some(b)) if a == b => {
                if om[a] != nm[b] {
                    self.sum(a, &om[a], op, &nm[b], np, path, depth);
                }
            }
            (Some(a), Some(b)) => {
                // Same branches: oneOf accepts a subset of what anyOf accepts.
                let same = {
                    let (x, y) = (
                        om[a].as_array().cloned().unwrap_or_default(),
                        nm[b].as_array().cloned().unwrap_or_default(),
                    );
                    x.len() == y.len() && x.iter().all(|v| y.contains(v))
                };
                let eff = match (same, a) {
                    (true, "anyOf") => Effect::Narrows,
                    (true, _) => Effect::Widens,
                    _ => Effect::Changes,
                };
                self.push(
                    "combined-type-changed",
                    Some(kp(op, a)),
                    Some(kp(np, b)),
                    eff,
                    format!("`{a}` became `{b}`"),
                    path,
                    here(),
                )
            }
            (None, Some(b)) => {
                let rule = if b == "anyOf" {
                    "any-of-added"
                } else {
                    "one-of-added"
                };
                self.push(
                    rule,
                    None,
                    Some(kp(np, b)),
                    Effect::Narrows,
                    format!("`{b}` added"),
                    path,
                    here(),
                );
            }
            (Some(a), None) => {
                let rule = if a == "anyOf" {
                    "any-of-removed"
                } else {
                    "one-of-removed"
                };
                self.push(
                    rule,
                    Some(kp(op, a)),
                    None,
                    Effect::Widens,
                    format!("`{a}` removed"),
                    path,
                    here(),
                );
            }
            (None, None) => {}
        }

        // Anything else: never call it compatible.
        let mut unknown: Vec<&String> = om
            .keys()
            .chain(nm.keys().filter(|k| !om.contains_key(*k)))
            .collect();
        unknown.retain(|k| {
            let k = k.as_str();
            !KNOWN.contains(&k) && !COUNTS.contains(&k) && !inert(k) && om.get(k) != nm.get(k)
        });
        for k in unknown {
            self.out.push(Raw {
                rule: "unclassified",
                old_ptr: om.get(k).map(|_| kp(op, k)),
                new_ptr: nm.get(k).map(|_| kp(np, k)),
                effect: Effect::Changes,
                message: format!("`{k}` changed and its effect is not understood: review by hand"),
                path: path.to_vec(),
                old_hints: vec![o.clone()],
                new_hints: vec![n.clone()],
                unclassified: true,
            });
        }
    }
}

const BOUNDS: &[(&str, bool, &str, &str, &str, &str)] = &[
    (
        "minLength",
        true,
        "min-length-added",
        "min-length-removed",
        "min-length-increased",
        "min-length-decreased",
    ),
    (
        "maxLength",
        false,
        "max-length-added",
        "max-length-removed",
        "max-length-increased",
        "max-length-decreased",
    ),
    (
        "minItems",
        true,
        "min-items-added",
        "min-items-removed",
        "min-items-increased",
        "min-items-decreased",
    ),
    (
        "maxItems",
        false,
        "max-items-added",
        "max-items-removed",
        "max-items-increased",
        "max-items-decreased",
    ),
    (
        "minProperties",
        true,
        "min-properties-added",
        "min-properties-removed",
        "min-properties-increased",
        "min-properties-decreased",
    ),
    (
        "maxProperties",
        false,
        "max-properties-added",
        "max-properties-removed",
        "max-properties-increased",
        "max-properties-decreased",
    ),
    (
        "minContains",
        true,
        "min-contains-added",
        "min-contains-removed",
        "min-contains-increased",
        "min-contains-decreased",
    ),
    (
        "maxContains",
        false,
        "max-contains-added",
        "max-contains-removed",
        "max-contains-increased",
        "max-contains-decreased",
    ),
    (
        "minimum",
        true,
        "minimum-added",
        "minimum-removed",
        "minimum-increased",
        "minimum-decreased",
    ),
    (
        "maximum",
        false,
        "maximum-added",
        "maximum-removed",
        "maximum-increased",
        "maximum-decreased",
    ),
    (
        "exclusiveMinimum",
        true,
        "exclusive-minimum-added",
        "exclusive-minimum-removed",
        "exclusive-minimum-increased",
        "exclusive-minimum-decreased",
    ),
    (
        "exclusiveMaximum",
        false,
        "exclusive-maximum-added",
        "exclusive-maximum-removed",
        "exclusive-maximum-increased",
        "exclusive-maximum-decreased",
    ),
];

enum Model {
    Open,
    Closed,
    Partial,
}

/// What an object schema says about a property it does not list.
fn effective(m: &Map<String, Value>, p: &str, name: &str) -> (Model, Value, String) {
    if let Some(pp) = m.get("patternProperties").and_then(Value::as_object) {
        for (pat, s) in pp {
            if generate::matches(pat, name) {
                return (
                    Model::Partial,
                    s.clone(),
                    join(&join(p, "patternProperties"), pat),
                );
            }
        }
    }
    let extra = m
        .get("additionalProperties")
        .or_else(|| m.get("unevaluatedProperties"));
    match extra {
        None | Some(Value::Bool(true)) => (
            Model::Open,
            Value::Bool(true),
            join(p, "additionalProperties"),
        ),
        Some(Value::Bool(false)) => (
            Model::Closed,
            Value::Bool(false),
            join(p, "additionalProperties"),
        ),
        Some(s) if *s == json!({}) => (
            Model::Open,
            Value::Bool(true),
            join(p, "additionalProperties"),
        ),
        Some(s) => (Model::Partial, s.clone(), join(p, "additionalProperties")),
    }
}

fn extra_name(a: &Map<String, Value>, b: &Map<String, Value>) -> String {
    let mut n = String::from("extraProperty");
    while a.contains_key(&n) || b.contains_key(&n) {
        n.push('_');
    }
    n
}

/// Equal text with a `$ref` inside can still mean different schemas: the target may differ.
fn contains_ref(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.contains_key("$ref") || o.values().any(contains_ref),
        Value::Array(a) => a.iter().any(contains_ref),
        _ => false,
    }
}

fn is_object_with(v: &Value, keys: &[&str]) -> bool {
    v.as_object()
        .is_some_and(|o| keys.iter().any(|k| o.contains_key(*k)))
}

fn pure_sum(v: &Value) -> Option<&'static str> {
    let o = v.as_object()?;
    let live = live_keys(o);
    match live.as_slice() {
        ["anyOf"] => Some("anyOf"),
        ["oneOf"] => Some("oneOf"),
        _ => None,
    }
}

fn branch(p: &str, kind: &str, i: usize) -> String {
    match p.strip_suffix("/~sum") {
        Some(base) => base.to_string(),
        None => format!("{p}/{kind}/{i}"),
    }
}

/// Marks a pointer that stands for a whole non-union schema treated as a one-branch union.
fn sum_anchor(p: &str) -> String {
    format!("{p}/~sum")
}

/// Pairs branches: identical ones first (after normalizing), then the rest by position.
fn match_branches(
    or: &Value,
    oa: &[Value],
    nr: &Value,
    na: &[Value],
) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let on: Vec<Value> = oa.iter().map(|b| normalize(or, b, "").0).collect();
    let nn: Vec<Value> = na.iter().map(|b| normalize(nr, b, "").0).collect();
    let mut used_n = vec![false; na.len()];
    let mut used_o = vec![false; oa.len()];
    let mut pairs = Vec::new();
    for i in 0..oa.len() {
        if let Some(j) = (0..na.len()).find(|&j| !used_n[j] && on[i] == nn[j]) {
            used_n[j] = true;
            used_o[i] = true;
            pairs.push((i, j));
        }
    }
    let rest_o: Vec<usize> = (0..oa.len()).filter(|&i| !used_o[i]).collect();
    let rest_n: Vec<usize> = (0..na.len()).filter(|&j| !used_n[j]).collect();
    // Leftovers pair up by position only when the counts agree; otherwise the extra ones are
    // what was added or removed and pairing would blame the wrong branch.
    if rest_o.len() == rest_n.len() {
        pairs.extend(rest_o.iter().copied().zip(rest_n.iter().copied()));
        pairs.sort();
        return (pairs, vec![], vec![]);
    }
    pairs.sort();
    (pairs, rest_o, rest_n)
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(none)".into(), Value::to_string)
}

fn list(s: &BTreeSet<String>) -> String {
    let v: Vec<&str> = s.iter().map(String::as_str).collect();
    format!("[{}]", v.join(", "))
}

fn vals(v: &[&Value]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Compares one side (input or output) of one tool.
fn schema_changes(tool: &str, dir: Direction, base: &str, old: &Value, new: &Value) -> Vec<Change> {
    if old == new {
        return Vec::new();
    }
    let mut cx = Ctx {
        old_root: old,
        new_root: new,
        out: vec![],
        visiting: HashSet::new(),
    };
    cx.compare(old, "", new, "", &[], 0);
    // Compiling both validators is the expensive part; only breaking changes need them.
    let checker = std::cell::OnceCell::new();
    let checker = || checker.get_or_init(|| generate::Checker::new(old, new, dir));
    cx.out
        .into_iter()
        .map(|r| {
            let mut severity = if r.unclassified {
                Severity::Warning
            } else {
                r.effect.severity(Some(dir))
            };
            let mut message = r.message;
            let mut counterexample = None;
            if severity == Severity::Breaking || r.unclassified {
                counterexample = checker().find(&r.path, &r.old_hints, &r.new_hints);
                match (&counterexample, r.unclassified) {
                    (Some(_), _) => severity = Severity::Breaking,
                    (None, false) => {
                        severity = Severity::Warning;
                        message.push_str(" (no counterexample found: review by hand)");
                    }
                    (None, true) => {}
                }
            }
            let full = |p: Option<String>| p.map(|p| format!("{base}{}", p.replace("/~sum", "")));
            let old_pointer = full(r.old_ptr);
            let new_pointer = full(r.new_ptr);
            let fp_ptr = new_pointer
                .clone()
                .or(old_pointer.clone())
                .unwrap_or_default();
            Change {
                rule: r.rule,
                tool: tool.into(),
                direction: Some(dir),
                fingerprint: fingerprint(r.rule, tool, Some(dir), &fp_ptr),
                old_pointer,
                new_pointer,
                effect: r.effect,
                severity,
                message,
                counterexample,
                ignored: false,
                ignore_reason: None,
            }
        })
        .collect()
}

const HINTS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

pub(crate) fn diff_tools(old: &[Map<String, Value>], new: &[Map<String, Value>]) -> Vec<Change> {
    let name = |t: &Map<String, Value>| {
        t.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let index = |list: &[Map<String, Value>]| -> HashMap<String, usize> {
        list.iter().enumerate().map(|(i, t)| (name(t), i)).collect()
    };
    let (old_index, new_index) = (index(old), index(new));
    let in_old = |n: &str| old_index.get(n).map(|&i| &old[i]);
    let in_new = |n: &str| new_index.get(n).map(|&i| &new[i]);
    let without_name = |t: &Map<String, Value>| {
        let mut t = t.clone();
        t.remove("name");
        t.remove("title");
        t
    };
    let mut out = Vec::new();
    let tool_change =
        |rule: &'static str, tool: &str, ptr: &str, severity: Severity, message: String| Change {
            rule,
            tool: tool.into(),
            direction: None,
            old_pointer: None,
            new_pointer: None,
            effect: Effect::None,
            severity,
            message,
            counterexample: None,
            fingerprint: fingerprint(rule, tool, None, ptr),
            ignored: false,
            ignore_reason: None,
        };
    for o in old {
        let n = name(o);
        if in_new(&n).is_none() {
            let renamed = new
                .iter()
                .find(|t| in_old(&name(t)).is_none() && without_name(t) == without_name(o))
                .map(name);
            let hint = renamed
                .map(|r| {
                    format!(
                        " (same contract as new tool `{r}`: renamed? clients calling `{n}` break)"
                    )
                })
                .unwrap_or_default();
            let mut c = tool_change(
                "tool-removed",
                &n,
                "",
                Severity::Breaking,
                format!("tool `{n}` removed{hint}"),
            );
            c.old_pointer = Some(String::new());
            out.push(c);
        }
    }
    for t in new {
        let n = name(t);
        let Some(o) = in_old(&n) else {
            let renamed = old
                .iter()
                .find(|x| in_new(&name(x)).is_none() && without_name(x) == without_name(t))
                .map(name);
            let hint = renamed
                .map(|r| format!(" (same contract as removed tool `{r}`: renamed?)"))
                .unwrap_or_default();
            let mut c = tool_change(
                "tool-added",
                &n,
                "",
                Severity::Info,
                format!("tool `{n}` added{hint}"),
            );
            c.new_pointer = Some(String::new());
            out.push(c);
            continue;
        };
        for (k, rule) in [
            ("description", "description-changed"),
            ("title", "title-changed"),
        ] {
            if o.get(k) != t.get(k) {
                let mut c = tool_change(
                    rule,
                    &n,
                    &format!("/{k}"),
                    Severity::Info,
                    format!("tool `{k}` changed"),
                );
                c.old_pointer = o.get(k).map(|_| format!("/{k}"));
                c.new_pointer = t.get(k).map(|_| format!("/{k}"));
                out.push(c);
            }
        }
        let ann = |m: &Map<String, Value>| {
            m.get("annotations")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (ao, an) = (ann(o), ann(t));
        let mut keys: Vec<&String> = ao.keys().collect();
        keys.extend(an.keys().filter(|k| !ao.contains_key(*k)));
        for k in keys {
            if ao.get(k) != an.get(k) {
                let hint = HINTS.contains(&k.as_str());
                let (rule, sev) = if hint {
                    ("annotation-hint-changed", Severity::Warning)
                } else {
                    ("annotation-changed", Severity::Info)
                };
                let p = join("/annotations", k);
                let mut c = tool_change(
                    rule,
                    &n,
                    &p,
                    sev,
                    format!(
                        "annotation `{k}` changed from {} to {}",
                        show(ao.get(k)),
                        show(an.get(k))
                    ),
                );
                c.old_pointer = ao.get(k).map(|_| p.clone());
                c.new_pointer = an.get(k).map(|_| p.clone());
                out.push(c);
            }
        }
        let empty = json!({});
        out.extend(schema_changes(
            &n,
            Direction::Input,
            "/inputSchema",
            o.get("inputSchema").unwrap_or(&empty),
            t.get("inputSchema").unwrap_or(&empty),
        ));
        match (o.get("outputSchema"), t.get("outputSchema")) {
            (None, Some(_)) => {
                let mut c = tool_change(
                    "output-schema-added",
                    &n,
                    "/outputSchema",
                    Severity::Info,
                    "output schema added: structured results are now declared".into(),
                );
                c.new_pointer = Some("/outputSchema".into());
                c.direction = Some(Direction::Output);
                out.push(c);
            }
            (Some(_), None) => {
                let mut c = tool_change(
                    "output-schema-removed",
                    &n,
                    "/outputSchema",
                    Severity::Breaking,
                    "output schema removed: clients relying on structured results break".into(),
                );
                c.old_pointer = Some("/outputSchema".into());
                c.direction = Some(Direction::Output);
                out.push(c);
            }
            (Some(a), Some(b)) => {
                out.extend(schema_changes(&n, Direction::Output, "/outputSchema", a, b))
            }
            (None, None) => {}
        }
    }
    out
}
