//! Counterexample search: deterministic candidate values from schemas, placed at the changed
//! location inside a whole instance, and checked against both full schemas.

use serde_json::{Map, Value, json};

use crate::Direction;
use crate::engine::normalize;

/// One step from an instance's root to the changed location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    Prop(String),
    Index(usize),
}

const MAX_CANDIDATES: usize = 120;

fn validator(schema: &Value) -> Option<jsonschema::Validator> {
    // Formats are asserted: a format change is reported as breaking, and a client that checks
    // formats is exactly who it breaks.
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .ok()
}

pub(crate) fn matches(pattern: &str, name: &str) -> bool {
    jsonschema::options()
        .build(&json!({"pattern": pattern}))
        .is_ok_and(|v| v.is_valid(&json!(name)))
}

const NAME_SAMPLES: &[&str] = &[
    "a", "x", "A", "abc", "x-a", "a_b", "0", "1", "a1", "X1", "foo", "id", "_", "aa", "key",
];

pub(crate) fn name_matching(pattern: &str) -> Option<String> {
    NAME_SAMPLES
        .iter()
        .find(|s| matches(pattern, s))
        .map(|s| s.to_string())
}

pub(crate) struct Checker<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    old: Option<jsonschema::Validator>,
    new: Option<jsonschema::Validator>,
    dir: Direction,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(old_root: &'a Value, new_root: &'a Value, dir: Direction) -> Checker<'a> {
        Checker {
            old_root,
            new_root,
            old: validator(old_root),
            new: validator(new_root),
            dir,
        }
    }

    fn breaks(&self, v: &Value) -> bool {
        let (Some(o), Some(n)) = (&self.old, &self.new) else {
            return false;
        };
        match self.dir {
            Direction::Input => o.is_valid(v) && !n.is_valid(v),
            Direction::Output => n.is_valid(v) && !o.is_valid(v),
        }
    }

    /// A whole instance that breaks a consumer, if one can be found within the bounds.
    pub(crate) fn find(
        &self,
        path: &[Seg],
        old_hints: &[Value],
        new_hints: &[Value],
    ) -> Option<Value> {
        let mut local = Vec::new();
        for h in old_hints {
            local.extend(
                Gen {
                    root: self.old_root,
                }
                .values(h, 0),
            );
        }
        for h in new_hints {
            local.extend(
                Gen {
                    root: self.new_root,
                }
                .values(h, 0),
            );
        }
        local.extend(any_values());
        dedup(&mut local);
        let scaffolds = [
            (self.old_root, false),
            (self.new_root, false),
            (self.old_root, true),
            (self.new_root, true),
        ];
        // The surroundings of the changed location do not depend on the candidate: build each
        // scaffold once and only swap the value at `path`.
        let pointer: String = path
            .iter()
            .map(|seg| match seg {
                Seg::Prop(p) => format!("/{}", p.replace('~', "~0").replace('/', "~1")),
                Seg::Index(i) => format!("/{i}"),
            })
            .collect();
        let built: Vec<Value> = scaffolds
            .iter()
            .map(|&(root, full)| Gen { root }.embed(root, path, Value::Null, full, 0))
            .collect();
        for c in &local {
            for scaffold in &built {
                let mut inst = scaffold.clone();
                match inst.pointer_mut(&pointer) {
                    Some(slot) => *slot = c.clone(),
                    None => continue,
                }
                if self.breaks(&inst) {
                    return Some(inst);
                }
            }
        }
        // Bounded search over whole instances generated from both roots.
        let mut whole = Gen {
            root: self.old_root,
        }
        .values(self.old_root, 0);
        whole.extend(
            Gen {
                root: self.new_root,
            }
            .values(self.new_root, 0),
        );
        dedup(&mut whole);
        whole.into_iter().find(|v| self.breaks(v))
    }
}

fn dedup(v: &mut Vec<Value>) {
    let mut seen = Vec::new();
    v.retain(|x| {
        if seen.contains(x) {
            false
        } else {
            seen.push(x.clone());
            true
        }
    });
}

fn any_values() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(1.5),
        json!(""),
        json!("a"),
        json!([]),
        json!({}),
    ]
}

struct Gen<'a> {
    root: &'a Value,
}

fn num(m: &Map<String, Value>, k: &str) -> Option<f64> {
    m.get(k).and_then(Value::as_f64)
}

fn n2v(x: f64, integer: bool) -> Option<Value> {
    if !x.is_finite() {
        return None;
    }
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Some(json!(x as i64))
    } else if integer {
        None
    } else {
        Some(json!(x))
    }
}

fn format_sample(f: &str) -> Option<&'static str> {
    Some(match f {
        "date" => "2024-01-31",
        "date-time" => "2024-01-31T12:00:00Z",
        "time" => "12:00:00Z",
        "email" | "idn-email" => "user@example.com",
        "uri" | "iri" => "https://example.com/a",
        "uri-reference" | "iri-reference" => "/a",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "hostname" | "idn-hostname" => "example.com",
        "duration" => "P1D",
        "regex" => "^a$",
        "json-pointer" => "/a",
        "relative-json-pointer" => "0",
        "uri-template" => "/a/{b}",
        _ => return None,
    })
}

impl Gen<'_> {
    fn norm(&self, v: &Value) -> Value {
        normalize(self.root, v, "").0
    }

    /// The first candidate, meant to be valid: used to fill required siblings.
    fn filler(&self, s: &Value, depth: usize) -> Value {
        self.values(s, depth)
            .into_iter()
            .next()
            .unwrap_or(Value::Null)
    }

    /// `allOf` branches folded into one object so that fillers see every constraint.
    fn flatten(&self, s: &Value, depth: usize) -> Map<String, Value> {
        let s = self.norm(s);
        let mut m = match &s {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        };
        if depth > 6 {
            return m;
        }
        if let Some(all) = m.remove("allOf").and_then(|a| a.as_array().cloned()) {
            for b in all {
                let bm = self.flatten(&b, depth + 1);
                for (k, v) in bm {
                    match (k.as_str(), m.get_mut(&k)) {
                        ("properties", Some(Value::Object(p))) => {
                            if let Value::Object(q) = v {
                                for (pk, pv) in q {
                                    p.entry(pk).or_insert(pv);
                                }
                            }
                        }
                        ("required", Some(Value::Array(r))) => {
                            if let Value::Array(q) = v {
                                for x in q {
                                    if !r.contains(&x) {
                                        r.push(x);
                                    }
                                }
                            }
                        }
                        (_, Some(_)) => {}
                        (_, None) => {
                            m.insert(k, v);
                        }
                    }
                }
            }
        }
        m
    }

    pub(crate) fn values(&self, s: &Value, depth: usize) -> Vec<Value> {
        let s = self.norm(s);
        let mut out = Vec::new();
        match &s {
            Value::Bool(false) => return out,
            Value::Bool(true) => return any_values(),
            Value::Object(_) => {}
            _ => return any_values(),
        }
        if depth > 5 {
            return vec![Value::Null];
        }
        let m = self.flatten(&s, depth);
        if let Some(c) = m.get("const") {
            out.push(c.clone());
        }
        if let Some(e) = m.get("enum").and_then(Value::as_array) {
            out.extend(e.iter().cloned());
        }
        if let Some(e) = m.get("examples").and_then(Value::as_array) {
            out.extend(e.iter().cloned());
        }
        if let Some(d) = m.get("default") {
            out.push(d.clone());
        }
        for k in ["anyOf", "oneOf"] {
            if let Some(bs) = m.get(k).and_then(Value::as_array) {
                let mut base = m.clone();
                base.remove(k);
                for b in bs {
                    let mut merged = base.clone();
                    for (bk, bv) in self.flatten(b, depth + 1) {
                        merged.insert(bk, bv);
                    }
                    out.extend(self.values(&Value::Object(merged), depth + 1));
                }
                dedup(&mut out);
                out.truncate(MAX_CANDIDATES);
                return out;
            }
        }
        let types: Vec<String> = match m.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect(),
            _ => {
                let mut t = vec![];
                let has = |ks: &[&str]| ks.iter().any(|k| m.contains_key(*k));
                if has(&[
                    "properties",
                    "required",
                    "additionalProperties",
                    "patternProperties",
                    "minProperties",
                    "maxProperties",
                    "propertyNames",
                    "dependentRequired",
                    "dependentSchemas",
                ]) {
                    t.push("object".to_string());
                }
                if has(&[
                    "items",
                    "prefixItems",
                    "minItems",
                    "maxItems",
                    "uniqueItems",
                    "contains",
                ]) {
                    t.push("array".into());
                }
                if has(&["minLength", "maxLength", "pattern", "format"]) {
                    t.push("string".into());
                }
                if has(&[
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ]) {
                    t.push("number".into());
                }
                if t.is_empty() && out.is_empty() {
                    out.extend(any_values());
                }
                t
            }
        };
        for t in &types {
            match t.as_str() {
                "null" => out.push(Value::Null),
                "boolean" => out.extend([json!(true), json!(false)]),
                "integer" => out.extend(self.numbers(&m, true)),
                "number" => out.extend(self.numbers(&m, false)),
                "string" => out.extend(self.strings(&m)),
                "array" => out.extend(self.arrays(&m, depth)),
                "object" => out.extend(self.objects(&m, depth)),
                _ => {}
            }
        }
        // Off-type values catch type narrowing.
        if !types.is_empty() {
            out.extend(any_values());
        }
        dedup(&mut out);
        out.truncate(MAX_CANDIDATES);
        out
    }

    fn numbers(&self, m: &Map<String, Value>, integer: bool) -> Vec<Value> {
        let lo =
            num(m, "minimum")
                .or(num(m, "exclusiveMinimum")
                    .map(|x| if integer { x.floor() + 1.0 } else { x + 0.5 }));
        let hi = num(m, "maximum")
            .or(num(m, "exclusiveMaximum").map(|x| if integer { x.ceil() - 1.0 } else { x - 0.5 }));
        let mult = num(m, "multipleOf");
        let mut best = lo.unwrap_or(0.0).max(if hi.is_some_and(|h| h < 0.0) {
            f64::MIN
        } else {
            0.0
        });
        if lo.is_none()
            && let Some(h) = hi
        {
            best = best.min(h);
        }
        if let Some(k) = mult {
            best = (best / k).ceil() * k;
        }
        if integer {
            best = best.ceil();
        }
        let mut xs = vec![best];
        for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(x) = num(m, k) {
                xs.extend([x, x - 1.0, x + 1.0]);
                if !integer {
                    xs.extend([x - 0.5, x + 0.5]);
                }
            }
        }
        if let Some(k) = mult {
            xs.extend([k, k * 2.0, k * 3.0, k * 1.5, k / 2.0]);
            if let Some(l) = lo {
                let s = (l / k).ceil() * k;
                xs.extend([s, s + k]);
            }
        }
        xs.extend([0.0, 1.0, -1.0, 2.0, 3.0, 7.0, 10.0, 100.0]);
        if !integer {
            xs.extend([0.5, 1.5, -0.5]);
        }
        xs.into_iter().filter_map(|x| n2v(x, integer)).collect()
    }

    fn strings(&self, m: &Map<String, Value>) -> Vec<Value> {
        let min = num(m, "minLength").map(|x| x as usize);
        let max = num(m, "maxLength").map(|x| x as usize);
        let pattern = m.get("pattern").and_then(Value::as_str);
        let mut xs: Vec<String> = Vec::new();
        if let Some(f) = m
            .get("format")
            .and_then(Value::as_str)
            .and_then(format_sample)
        {
            xs.push(f.into());
        }
        if let Some(p) = pattern {
            for s in NAME_SAMPLES.iter().chain(
                [
                    "abc123",
                    "ABC",
                    "a-b-c",
                    "2024-01-31",
                    "user@example.com",
                    "12345",
                    "hello world",
                ]
                .iter(),
            ) {
                if matches(p, s) {
                    xs.push(s.to_string());
                }
            }
        }
        let target = min.unwrap_or(1).max(1).min(max.unwrap_or(usize::MAX));
        xs.push("a".repeat(target.min(64)));
        for n in [min, max].into_iter().flatten() {
            for k in [n.saturating_sub(1), n, n + 1] {
                if k <= 256 {
                    xs.push("a".repeat(k));
                }
            }
        }
        xs.extend([
            "".into(),
            "a".into(),
            "abc".into(),
            "not a formatted value".into(),
            "A1".into(),
        ]);
        for f in ["date", "date-time", "email", "uri", "uuid", "ipv4"] {
            xs.push(format_sample(f).unwrap_or("").into());
        }
        xs.into_iter().map(Value::String).collect()
    }

    fn arrays(&self, m: &Map<String, Value>, depth: usize) -> Vec<Value> {
        let pre: Vec<Value> = m
            .get("prefixItems")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let items = m.get("items").cloned().unwrap_or(Value::Bool(true));
        let item_vals = self.values(&items, depth + 1);
        let fill = item_vals.first().cloned().unwrap_or(Value::Null);
        let tuple: Vec<Value> = pre.iter().map(|p| self.filler(p, depth + 1)).collect();
        let min = num(m, "minItems").map_or(0, |x| x as usize);
        let max = num(m, "maxItems").map(|x| x as usize);
        let mut out = Vec::new();
        let with_len = |n: usize, distinct: bool| -> Value {
            let mut a = tuple.clone();
            a.truncate(n);
            let mut i = 0;
            while a.len() < n {
                let v = if distinct {
                    item_vals
                        .get(i % item_vals.len().max(1))
                        .cloned()
                        .unwrap_or(Value::Null)
                } else {
                    fill.clone()
                };
                a.push(v);
                i += 1;
            }
            Value::Array(a)
        };
        let base = min.max(tuple.len()).max(1).min(max.unwrap_or(usize::MAX));
        out.push(with_len(base, true));
        out.push(with_len(base, false));
        for n in [Some(min), max].into_iter().flatten() {
            for k in [n.saturating_sub(1), n, n + 1] {
                if k <= 32 {
                    out.push(with_len(k, true));
                    out.push(with_len(k, false));
                }
            }
        }
        out.push(json!([]));
        out.push(with_len(tuple.len() + 1, false));
        out.push(with_len(2, false));
        for (i, p) in pre.iter().enumerate() {
            for c in self.values(p, depth + 1).into_iter().take(12) {
                let mut a = tuple.clone();
                a[i] = c;
                out.push(Value::Array(a));
            }
        }
        for c in item_vals.iter().take(16) {
            let mut a = tuple.clone();
            a.push(c.clone());
            while a.len() < min {
                a.push(fill.clone());
            }
            out.push(Value::Array(a));
        }
        if let Some(c) = m.get("contains") {
            for v in self.values(c, depth + 1).into_iter().take(12) {
                out.push(json!([v]));
                out.push(json!([v.clone(), v]));
            }
        }
        out
    }

    fn objects(&self, m: &Map<String, Value>, depth: usize) -> Vec<Value> {
        let (props, required) = properties_and_required(m);
        let fillers: Map<String, Value> = props
            .iter()
            .map(|(k, s)| (k.clone(), self.filler(s, depth + 1)))
            .collect();
        let fill = |k: &str| fillers.get(k).cloned().unwrap_or(json!("a"));
        let mut base = Map::new();
        for r in &required {
            base.insert(r.clone(), fill(r));
        }
        let mut full = base.clone();
        for k in props.keys() {
            full.insert(k.clone(), fill(k));
        }
        let mut out = vec![
            Value::Object(base.clone()),
            Value::Object(full.clone()),
            json!({}),
        ];
        for k in props.keys() {
            if !required.contains(k) {
                let mut o = base.clone();
                o.insert(k.clone(), fill(k));
                out.push(Value::Object(o));
            }
        }
        for r in &required {
            let mut o = full.clone();
            o.remove(r);
            out.push(Value::Object(o));
        }
        let mut extra = full.clone();
        extra.insert("extraProperty".into(), json!("a"));
        out.push(Value::Object(extra));
        if let Some(ap) = m.get("additionalProperties") {
            for v in self.values(ap, depth + 1).into_iter().take(10) {
                let mut o = full.clone();
                o.insert("extraProperty".into(), v);
                out.push(Value::Object(o));
            }
        }
        if let Some(pp) = m.get("patternProperties").and_then(Value::as_object) {
            for (pat, s) in pp {
                if let Some(name) = name_matching(pat) {
                    for v in self.values(s, depth + 1).into_iter().take(10) {
                        let mut o = base.clone();
                        o.insert(name.clone(), v);
                        out.push(Value::Object(o));
                    }
                }
            }
        }
        if let Some(pn) = m.get("propertyNames") {
            for v in self.values(pn, depth + 1).into_iter().take(12) {
                if let Value::String(name) = v {
                    let mut o = base.clone();
                    o.insert(name, json!("a"));
                    out.push(Value::Object(o));
                }
            }
        }
        if let Some(ds) = m.get("dependentSchemas").and_then(Value::as_object) {
            for (k, s) in ds {
                for v in self.values(s, depth + 1).into_iter().take(8) {
                    if let Value::Object(mut o) = v {
                        o.entry(k.clone()).or_insert_with(|| fill(k));
                        for (bk, bv) in &base {
                            o.entry(bk.clone()).or_insert(bv.clone());
                        }
                        out.push(Value::Object(o));
                    }
                }
            }
        }
        // Past the top levels only fillers are needed; varying every property there is what
        // would make the search exponential in the schema's depth.
        if depth >= 2 {
            return out;
        }
        for (k, s) in props.iter().take(16) {
            for v in self.values(s, depth + 1).into_iter().take(10) {
                let mut o = full.clone();
                o.insert(k.clone(), v.clone());
                out.push(Value::Object(o));
                let mut o = base.clone();
                o.insert(k.clone(), v);
                out.push(Value::Object(o));
            }
        }
        if let Some(dr) = m.get("dependentRequired").and_then(Value::as_object) {
            for (k, deps) in dr {
                let deps: Vec<&str> = deps
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut o = base.clone();
                o.entry(k.clone()).or_insert_with(|| fill(k));
                for d in &deps {
                    o.entry(d.to_string()).or_insert_with(|| fill(d));
                }
                out.push(Value::Object(o.clone()));
                for d in &deps {
                    let mut p = o.clone();
                    p.remove(*d);
                    out.push(Value::Object(p));
                }
            }
        }
        // Conditionals: values that satisfy the condition, alone and with each branch's samples.
        if let Some(cond) = m.get("if") {
            let with_base = |v: Value| -> Option<Value> {
                let Value::Object(mut o) = v else { return None };
                for (bk, bv) in &base {
                    o.entry(bk.clone()).or_insert(bv.clone());
                }
                Some(Value::Object(o))
            };
            let ifs: Vec<Value> = self
                .values(cond, depth + 1)
                .into_iter()
                .take(8)
                .filter_map(with_base)
                .collect();
            for k in ["then", "else"] {
                if let Some(b) = m.get(k) {
                    for bv in self.values(b, depth + 1).into_iter().take(8) {
                        for iv in &ifs {
                            if let (Value::Object(mut x), Value::Object(y)) =
                                (iv.clone(), bv.clone())
                            {
                                for (yk, yv) in y {
                                    x.insert(yk, yv);
                                }
                                out.push(Value::Object(x));
                            }
                        }
                    }
                }
            }
            out.extend(ifs);
        }
        let maxp = num(m, "maxProperties").map(|x| x as usize);
        let minp = num(m, "minProperties").map(|x| x as usize);
        for n in [minp, maxp].into_iter().flatten() {
            for k in [n.saturating_sub(1), n, n + 1] {
                if k <= 32 {
                    let mut o = base.clone();
                    let mut i = 0;
                    for p in props.keys() {
                        if o.len() >= k {
                            break;
                        }
                        o.entry(p.clone()).or_insert_with(|| fill(p));
                    }
                    while o.len() < k {
                        o.insert(format!("p{i}"), json!("a"));
                        i += 1;
                    }
                    if o.len() == k {
                        out.push(Value::Object(o));
                    }
                }
            }
        }
        out
    }

    /// What an object or array schema says about the value at `seg`.
    fn child(&self, s: &Value, seg: &Seg) -> Value {
        let m = self.flatten(s, 0);
        let branch_props = |m: &Map<String, Value>| -> Vec<Map<String, Value>> {
            let mut v = vec![m.clone()];
            for k in ["anyOf", "oneOf"] {
                if let Some(bs) = m.get(k).and_then(Value::as_array) {
                    v.extend(bs.iter().map(|b| self.flatten(b, 1)));
                }
            }
            v
        };
        match seg {
            Seg::Prop(name) => {
                for bm in branch_props(&m) {
                    if let Some(p) = bm.get("properties").and_then(|p| p.get(name)) {
                        return p.clone();
                    }
                    if let Some(pp) = bm.get("patternProperties").and_then(Value::as_object) {
                        for (pat, ps) in pp {
                            if matches(pat, name) {
                                return ps.clone();
                            }
                        }
                    }
                }
                m.get("additionalProperties")
                    .cloned()
                    .unwrap_or(Value::Bool(true))
            }
            Seg::Index(i) => {
                if let Some(p) = m.get("prefixItems").and_then(|p| p.get(*i)) {
                    return p.clone();
                }
                m.get("items").cloned().unwrap_or(Value::Bool(true))
            }
        }
    }

    /// A whole instance shaped by `s` with `leaf` placed at `path`.
    fn embed(&self, s: &Value, path: &[Seg], leaf: Value, full: bool, depth: usize) -> Value {
        let Some((seg, rest)) = path.split_first() else {
            return leaf;
        };
        let child = self.child(s, seg);
        let inner = self.embed(&child, rest, leaf, full, depth + 1);
        let m = self.flatten(s, 0);
        match seg {
            Seg::Prop(name) => {
                // Required siblings come from the branch that declares this property, if any.
                let mut src = m.clone();
                for k in ["anyOf", "oneOf"] {
                    if let Some(bs) = m.get(k).and_then(Value::as_array)
                        && let Some(b) = bs
                            .iter()
                            .map(|b| self.flatten(b, 1))
                            .find(|b| b.get("properties").and_then(|p| p.get(name)).is_some())
                    {
                        for (bk, bv) in b {
                            src.entry(bk).or_insert(bv);
                        }
                    }
                }
                let (props, required) = properties_and_required(&src);
                let mut o = Map::new();
                for (k, ps) in &props {
                    if required.contains(k) || full {
                        o.insert(k.clone(), self.filler(ps, depth + 1));
                    }
                }
                for r in &required {
                    o.entry(r.clone()).or_insert(json!("a"));
                }
                o.insert(name.clone(), inner);
                Value::Object(o)
            }
            Seg::Index(i) => {
                let pre = m
                    .get("prefixItems")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let items = m.get("items").cloned().unwrap_or(Value::Bool(true));
                let mut a: Vec<Value> = (0..*i)
                    .map(|j| self.filler(pre.get(j).unwrap_or(&items), depth + 1))
                    .collect();
                a.push(inner);
                let min = num(&m, "minItems").map_or(0, |x| x as usize);
                while a.len() < min {
                    a.push(self.filler(&items, depth + 1));
                }
                Value::Array(a)
            }
        }
    }
}

/// An object schema's `properties` (empty if none) and `required` names.
fn properties_and_required(m: &Map<String, Value>) -> (Map<String, Value>, Vec<String>) {
    let props = m
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    (props, required_names(m))
}

/// The names in a schema's `required` list (none when it has no list).
pub(crate) fn required_names(m: &Map<String, Value>) -> Vec<String> {
    m.get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}
