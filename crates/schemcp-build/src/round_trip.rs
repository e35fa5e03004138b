//! Whether an example survives the generated type, decided at build time.
//!
//! An example is documentation other languages read, so an example the generated type would
//! change (a member dropped, a default filled in, `1.0` that an `i64` refuses, an explicit
//! `null` read as absent) is a build error naming the member's pointer. The build cannot run
//! serde on a type it has not compiled yet, so this follows serde's derive rules over the
//! final generated code instead: structs, unit enums, newtypes, aliases, the standard
//! containers and numbers. What it cannot follow (untagged or tagged enums, custom
//! conversions) is [`Verdict::Unknown`], and the generated `#[cfg(test)]` round trip, which
//! runs every example through the real type, stays the check for those.

use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap};

use proc_macro2::TokenStream;
use quote::quote;
use schemcp_contract::keywords::IN_PLACE_APPLICATORS;
use serde_json::Value;
use syn::{Fields, GenericArgument, Item, PathArguments, Type};

use crate::emit::{Return, ToolItem};
use crate::fields::SerdeOption;
use crate::optional::{option_inner, serde_options_of};
use crate::other_kinds::is_other_kinds;
use crate::schema::{Children, children, escape, for_each_subschema, unescape};
use crate::types::Problem;

/// Fills each tool's `examples` with those that have a type of their own: of the input and
/// output roots and of the members, items and map values below them, then those of `defs`
/// (`(tool, pointer, type)` of every `$defs` entry), a definition several tools share (a
/// definitions file) once, for the first tool that uses it. `files` are the tool files, by
/// tool.
///
/// An example of a schema with no type of its own (an `anyOf` branch, a `then`) goes through
/// the type of the nearest schema it applies in place of, when it is valid there too: that
/// type holds every valid value, so it must give this one back unchanged.
pub(crate) fn add_examples(
    types: &syn::File,
    tools: &mut [ToolItem],
    files: &[&serde_json::Map<String, Value>],
    defs: Vec<(usize, String, TokenStream)>,
) -> Result<(), String> {
    // The types are indexed, and a schema's type parsed, only where some schema holds examples.
    let items = OnceCell::new();
    let indexed = || items.get_or_init(|| Items::of(types));
    let parse = |ty: TokenStream| syn::parse2::<Type>(ty).map_err(|e| e.to_string());
    for (tool, file) in tools.iter_mut().zip(files) {
        let output = match &tool.output {
            Return::Structured(ty) | Return::Wrapped(ty) => Some(ty.clone()),
            _ => None,
        };
        for (key, ty) in [
            ("inputSchema", Some(tool.input.clone())),
            ("outputSchema", output),
        ] {
            let (Some(ty), Some(schema)) = (ty, file.get(key)) else {
                continue;
            };
            let site = Site {
                kind_root: schema,
                at: "",
                base: format!("/{key}"),
            };
            let sites = example_sites(&site);
            if !sites.is_empty() {
                let found = examples_under(indexed(), &parse(ty)?, &site, sites);
                tool.examples.extend(found);
            }
        }
    }
    let mut seen = BTreeSet::new();
    for (t, pointer, ty) in defs {
        // `/inputSchema/$defs/Day`: the schema `inputSchema` of the tool file, then the rest.
        let Some((key, rest)) = pointer[1..].split_once('/') else {
            continue;
        };
        let Some(kind_root) = files[t].get(key) else {
            continue;
        };
        let at = format!("/{rest}");
        let site = Site {
            kind_root,
            at: &at,
            base: pointer.clone(),
        };
        let sites = example_sites(&site);
        if sites.is_empty() {
            continue;
        }
        let ty = crate::emit::rewrite_type(ty)?;
        for example in examples_under(indexed(), &parse(ty.clone())?, &site, sites) {
            let relative = example.0[pointer.len()..].to_string();
            if seen.insert((ty.to_string(), relative, example.2.clone())) {
                tools[t].examples.push(example);
            }
        }
    }
    Ok(())
}

/// Where [`examples_under`] looks: the subschema at `at` of a tool's input or output schema
/// `kind_root`, whose pointer from the tool file's root is `base`.
struct Site<'a> {
    kind_root: &'a Value,
    at: &'a str,
    base: String,
}

/// Every `examples` in the site's schema (itself included), as `(pointer inside that schema,
/// the examples)`.
fn example_sites(site: &Site<'_>) -> Vec<(String, Vec<Value>)> {
    let mut sites = Vec::new();
    let Some(schema) = site.kind_root.pointer(site.at) else {
        return sites;
    };
    for_each_subschema(schema, "", false, &mut |object, pointer| {
        if let Some(Value::Array(examples)) = object.get("examples") {
            sites.push((pointer.to_string(), examples.clone()));
        }
    });
    sites
}

/// Of the examples at `sites` ([`example_sites`]), those whose values have a Rust type under
/// `root` ([`type_at`]), as `(pointer, type, example JSON)` with pointers from the tool file's
/// root.
fn examples_under(
    types: &Items<'_>,
    root: &Type,
    site: &Site<'_>,
    sites: Vec<(String, Vec<Value>)>,
) -> Vec<(String, TokenStream, String)> {
    let (Value::Object(kind_root), Some(schema)) =
        (site.kind_root, site.kind_root.pointer(site.at))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (pointer, examples) in sites {
        // The type, and the validator of the schema it stands for when that is not the
        // example's own (whose examples were already validated).
        let (ty, ancestor) = match type_at(types, root, &pointer) {
            Some(ty) => (ty, None),
            None => {
                let Some((ancestor, ty)) = in_place_ancestors(schema, &pointer)
                    .into_iter()
                    .find_map(|a| Some((a.clone(), type_at(types, root, &a)?)))
                else {
                    continue;
                };
                let document =
                    crate::examples::document(kind_root, &format!("{}{ancestor}", site.at));
                // A schema that does not compile was reported by the examples check.
                let Ok(validator) = jsonschema::validator_for(&document) else {
                    continue;
                };
                (ty, Some(validator))
            }
        };
        for (i, example) in examples.iter().enumerate() {
            if ancestor.as_ref().is_some_and(|v| !v.is_valid(example)) {
                continue;
            }
            found.push((
                format!("{}{pointer}/examples/{i}", site.base),
                quote!(#ty),
                example.to_string(),
            ));
        }
    }
    found
}

/// The schemas that the subschema at `pointer` of `schema` applies in place of (the same
/// value, through `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else` or
/// `dependentSchemas` only), nearest first. Empty when the subschema applies to a member or
/// item of its parent.
fn in_place_ancestors(schema: &Value, pointer: &str) -> Vec<String> {
    let segments: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let mut chain = Vec::new();
    let (mut current, mut here, mut i) = (schema, String::new(), 0);
    while i < segments.len() {
        let keyword = segments[i].as_str();
        let Some(value) = current.get(keyword) else {
            return Vec::new();
        };
        let next = segments.get(i + 1);
        let (child, used) = match (children(keyword), value) {
            (Some(Children::Named), Value::Object(map)) => (next.and_then(|n| map.get(n)), 2),
            (Some(Children::One | Children::List), Value::Array(list)) => (
                next.and_then(|n| n.parse::<usize>().ok())
                    .and_then(|n| list.get(n)),
                2,
            ),
            (Some(Children::One), child) => (Some(child), 1),
            _ => (None, 0),
        };
        let Some(child) = child else {
            return Vec::new();
        };
        if IN_PLACE_APPLICATORS.contains(&keyword) {
            chain.push(here.clone());
        } else {
            chain.clear();
        }
        for segment in &segments[i..i + used] {
            here.push('/');
            here.push_str(&escape(segment));
        }
        (current, i) = (child, i + used);
    }
    chain.reverse();
    chain
}

/// Every example of `tools` that the generated `types` (after every rewrite) would change, as a
/// build error pointing at the member that changes.
pub(crate) fn lossy_examples(types: &syn::File, tools: &[ToolItem]) -> Vec<Problem> {
    let types = &Items::of(types);
    let mut problems = Vec::new();
    for (t, tool) in tools.iter().enumerate() {
        for (pointer, ty, json) in &tool.examples {
            // Both were made from values this crate just wrote; a failure here is left to the
            // generated test, which compiles them.
            let (Ok(ty), Ok(example)) = (
                syn::parse2::<Type>(ty.clone()),
                serde_json::from_str::<Value>(json),
            ) else {
                continue;
            };
            if let Verdict::Lost { at, why } = check(types, &ty, &example) {
                problems.push(Problem {
                    tool: Some(t),
                    pointer: format!("{pointer}{at}"),
                    code: "lossy-example",
                    message: format!(
                        "the example does not round-trip through the generated type: {why}"
                    ),
                    help: Some(
                        "change the example, or the schema so that its type keeps the example \
                         as written"
                            .into(),
                    ),
                });
            }
        }
    }
    problems
}

/// What following serde's rules says of one example.
#[derive(Debug, PartialEq)]
pub(crate) enum Verdict {
    /// Serializes back equal to itself (JSON Schema equality: `1` equals `1.0`).
    Kept,
    /// Changed or refused by the type: `at` is the pointer inside the example.
    Lost { at: String, why: String },
    /// Follows a rule this module does not model; left to the generated test.
    Unknown,
}

/// Why following stopped.
enum Stop {
    Lost(String, String),
    Unknown,
}

/// Follows `example` through `ty`, one of `types`.
fn check(types: &Items<'_>, ty: &Type, example: &Value) -> Verdict {
    match types.value(ty, example, "") {
        Ok(()) => Verdict::Kept,
        Err(Stop::Lost(at, why)) => Verdict::Lost { at, why },
        Err(Stop::Unknown) => Verdict::Unknown,
    }
}

/// The named items of the generated code (after every rewrite), by name.
struct Items<'a> {
    items: HashMap<String, &'a Item>,
}

impl<'a> Items<'a> {
    fn of(file: &'a syn::File) -> Self {
        let items = file
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Struct(s) => Some((s.ident.to_string(), item)),
                Item::Enum(e) => Some((e.ident.to_string(), item)),
                Item::Type(t) => Some((t.ident.to_string(), item)),
                _ => None,
            })
            .collect();
        Items { items }
    }
}

/// The Rust type that holds a value of the subschema at `pointer` inside the schema whose type
/// is `root`, where the generated code gives it one: a chain of `/properties/<name>` (the
/// field's type, without the `Option` that only says the member may be absent), `/items` and
/// `/additionalProperties`. `None` anywhere else (enums, nested `$defs`, untyped parts); a
/// `$defs` entry is followed from its own type.
fn type_at(types: &Items<'_>, root: &Type, pointer: &str) -> Option<Type> {
    let mut ty = root.clone();
    let mut segments = pointer.split('/').skip(1).map(unescape);
    while let Some(segment) = segments.next() {
        ty = types.unaliased(&ty);
        let (name, arguments) = last_segment(&ty)?;
        let arguments: Vec<Type> = arguments.into_iter().cloned().collect();
        ty = match (segment.as_str(), name.as_str(), arguments.as_slice()) {
            ("items", "Vec", [inner]) => inner.clone(),
            // The runtime's `PrefixN<positions..., R>` (see `normalize::open_tuples`).
            ("prefixItems", prefix, [positions @ .., _])
                if prefix_len(prefix) == Some(positions.len()) =>
            {
                let i: usize = segments.next()?.parse().ok()?;
                positions.get(i)?.clone()
            }
            ("items", prefix, [positions @ .., rest])
                if prefix_len(prefix) == Some(positions.len()) =>
            {
                rest.clone()
            }
            ("additionalProperties", "BTreeMap" | "HashMap" | "IndexMap" | "Map", [_, inner]) => {
                inner.clone()
            }
            ("properties", _, []) => {
                let member = segments.next()?;
                let Some(Item::Struct(s)) = types.items.get(&name) else {
                    return None;
                };
                types.field_type(s, &member)?
            }
            _ => return None,
        };
    }
    Some(ty)
}

impl Items<'_> {
    /// `ty` with type aliases and `Box` seen through.
    fn unaliased(&self, ty: &Type) -> Type {
        let mut ty = ty.clone();
        for _ in 0..32 {
            match last_segment(&ty) {
                Some((name, arguments)) if name == "Box" && arguments.len() == 1 => {
                    ty = arguments[0].clone();
                }
                Some((name, arguments)) if arguments.is_empty() => match self.items.get(&name) {
                    Some(Item::Type(alias)) if alias.generics.params.is_empty() => {
                        ty = (*alias.ty).clone();
                    }
                    _ => break,
                },
                _ => break,
            }
        }
        ty
    }

    /// The type of the member `wire` of struct `s`, without the `Option` of an optional member.
    fn field_type(&self, s: &syn::ItemStruct, wire: &str) -> Option<Type> {
        for field in &s.fields {
            let options = serde_options_of(&field.attrs)?;
            if options.iter().any(|(n, _)| n == "flatten") {
                continue;
            }
            if wire_name(field, &options).as_deref() != Some(wire) {
                continue;
            }
            return match option_inner(&field.ty) {
                Some(inner) if skipped_when_none(&options) => Some(inner.clone()),
                _ => Some(field.ty.clone()),
            };
        }
        None
    }
}

fn lost<T>(at: &str, why: impl Into<String>) -> Result<T, Stop> {
    Err(Stop::Lost(at.to_string(), why.into()))
}

/// The number of positions of the runtime's `PrefixN`, from its name.
fn prefix_len(name: &str) -> Option<usize> {
    name.strip_prefix("Prefix")?.parse().ok()
}

/// The last segment of a path type and its type arguments.
fn last_segment(ty: &Type) -> Option<(String, Vec<&Type>)> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    let arguments = match &last.arguments {
        PathArguments::None => Vec::new(),
        PathArguments::AngleBracketed(list) => list
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        PathArguments::Parenthesized(_) => return None,
    };
    Some((last.ident.to_string(), arguments))
}

/// What a number the type reads as `name` keeps: `None` for a type that is not a number.
fn number_fits(name: &str, number: &serde_json::Number) -> Option<bool> {
    let integer = |min: i128, max: i128| {
        let value = number
            .as_i64()
            .map(i128::from)
            .or_else(|| number.as_u64().map(i128::from));
        value.is_some_and(|v| (min..=max).contains(&v))
    };
    Some(match name {
        "f64" => true,
        "i8" => integer(i8::MIN.into(), i8::MAX.into()),
        "i16" => integer(i16::MIN.into(), i16::MAX.into()),
        "i32" => integer(i32::MIN.into(), i32::MAX.into()),
        "i64" => integer(i64::MIN.into(), i64::MAX.into()),
        "u8" => integer(0, u8::MAX.into()),
        "u16" => integer(0, u16::MAX.into()),
        "u32" => integer(0, u32::MAX.into()),
        "u64" => integer(0, u64::MAX.into()),
        "NonZeroU8" => integer(1, u8::MAX.into()),
        "NonZeroU16" => integer(1, u16::MAX.into()),
        "NonZeroU32" => integer(1, u32::MAX.into()),
        "NonZeroU64" => integer(1, u64::MAX.into()),
        "NonZeroI64" => integer(i64::MIN.into(), i64::MAX.into()) && number.as_i64() != Some(0),
        _ => return None,
    })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Items<'_> {
    fn value(&self, ty: &Type, value: &Value, at: &str) -> Result<(), Stop> {
        if let Type::Tuple(tuple) = ty {
            let Value::Array(items) = value else {
                return lost(at, format!("{} where the type reads an array", kind(value)));
            };
            if tuple.elems.is_empty() || tuple.elems.len() != items.len() {
                return Err(Stop::Unknown);
            }
            for (i, (ty, item)) in tuple.elems.iter().zip(items).enumerate() {
                self.value(ty, item, &format!("{at}/{i}"))?;
            }
            return Ok(());
        }
        let Some((name, arguments)) = last_segment(ty) else {
            return Err(Stop::Unknown);
        };
        match (name.as_str(), arguments.as_slice(), value) {
            // Outside a struct field, `None` serializes as `null` again.
            ("Option", [_], Value::Null) => Ok(()),
            ("Option" | "Box", [inner], _) => self.value(inner, value, at),
            ("Vec", [inner], Value::Array(items)) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, item)| self.value(inner, item, &format!("{at}/{i}"))),
            ("BTreeMap" | "HashMap" | "IndexMap" | "Map", [key, inner], Value::Object(members)) => {
                if last_segment(key).is_none_or(|(k, _)| k != "String") {
                    return Err(Stop::Unknown);
                }
                members.iter().try_for_each(|(member, item)| {
                    self.value(inner, item, &format!("{at}/{}", escape(member)))
                })
            }
            ("String", [], Value::String(_)) | ("bool", [], Value::Bool(_)) => Ok(()),
            // Any value, or any value but one kind (the example validated, so not that kind).
            ("Value", [], _) => Ok(()),
            (other, [], _) if is_other_kinds(other) => Ok(()),
            ("NoValue", [], _) => lost(at, "the type holds no value here (its schema is `false`)"),
            // The runtime's `PrefixN<positions..., R>`: position by position, then the rest.
            (prefix, [positions @ .., rest], Value::Array(items))
                if prefix_len(prefix) == Some(positions.len()) =>
            {
                items.iter().enumerate().try_for_each(|(i, item)| {
                    let ty = positions.get(i).copied().unwrap_or(rest);
                    self.value(ty, item, &format!("{at}/{i}"))
                })
            }
            (number, [], Value::Number(n)) if number_fits(number, n).is_some() => {
                match n.as_f64() {
                    _ if number_fits(number, n) == Some(true) => Ok(()),
                    Some(f) if n.is_f64() && f.fract() == 0.0 => lost(
                        at,
                        format!(
                            "`{n}` is written as a fraction, which the type's `{number}` does not read; write it as `{f:.0}`"
                        ),
                    ),
                    _ => lost(at, format!("`{n}` does not fit the type's `{number}`")),
                }
            }
            ("Option" | "Box" | "Vec" | "BTreeMap" | "HashMap" | "IndexMap" | "Map", ..)
            | ("String" | "bool", [], _) => {
                lost(at, format!("{} where the type reads `{name}`", kind(value)))
            }
            (number, [], _) if ["f64", "i64", "u64"].contains(&number) => lost(
                at,
                format!("{} where the type reads `{number}`", kind(value)),
            ),
            (_, [], _) => match self.items.get(&name) {
                Some(item) => self.item(item, value, at),
                None => Err(Stop::Unknown),
            },
            _ => Err(Stop::Unknown),
        }
    }

    fn item(&self, item: &Item, value: &Value, at: &str) -> Result<(), Stop> {
        match item {
            Item::Type(alias) if alias.generics.params.is_empty() => {
                self.value(&alias.ty, value, at)
            }
            Item::Enum(e) if e.generics.params.is_empty() => {
                let container = serde_options_of(&e.attrs).ok_or(Stop::Unknown)?;
                if container.iter().any(|(name, _)| name != "crate")
                    || e.variants.iter().any(|v| !matches!(v.fields, Fields::Unit))
                {
                    return Err(Stop::Unknown);
                }
                let Value::String(text) = value else {
                    return lost(at, format!("{} where the type reads a string", kind(value)));
                };
                for variant in &e.variants {
                    let options = serde_options_of(&variant.attrs).ok_or(Stop::Unknown)?;
                    if options.iter().any(|(name, _)| name != "rename") {
                        return Err(Stop::Unknown);
                    }
                    let wire = option(&options, "rename")
                        .map_or_else(|| variant.ident.to_string(), str::to_string);
                    if wire == *text {
                        return Ok(());
                    }
                }
                lost(at, format!("\"{text}\" is none of the type's values"))
            }
            Item::Struct(s) if s.generics.params.is_empty() => {
                let container = serde_options_of(&s.attrs).ok_or(Stop::Unknown)?;
                let names: Vec<&str> = container.iter().map(|(n, _)| n.as_str()).collect();
                match &s.fields {
                    Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                        let inner = &fields.unnamed[0].ty;
                        if names.iter().all(|n| ["crate", "transparent"].contains(n)) {
                            return self.value(inner, value, at);
                        }
                        // A constrained string: read through `TryFrom<String>` and written
                        // back as that string (the example already met the constraint).
                        let via_string = option(&container, "try_from") == Some("String")
                            && option(&container, "into") == Some("String")
                            && names
                                .iter()
                                .all(|n| ["crate", "try_from", "into"].contains(n));
                        if via_string && matches!(value, Value::String(_)) {
                            return Ok(());
                        }
                        Err(Stop::Unknown)
                    }
                    Fields::Named(_) => {
                        if names
                            .iter()
                            .any(|n| !["crate", "deny_unknown_fields"].contains(n))
                        {
                            return Err(Stop::Unknown);
                        }
                        self.fields(s, names.contains(&"deny_unknown_fields"), value, at)
                    }
                    _ => Err(Stop::Unknown),
                }
            }
            _ => Err(Stop::Unknown),
        }
    }

    fn fields(
        &self,
        s: &syn::ItemStruct,
        deny_unknown: bool,
        value: &Value,
        at: &str,
    ) -> Result<(), Stop> {
        let Value::Object(members) = value else {
            return lost(
                at,
                format!("{} where the type reads an object", kind(value)),
            );
        };
        let mut unclaimed: Vec<&String> = members.keys().collect();
        let mut rest = None;
        for field in &s.fields {
            let options = serde_options_of(&field.attrs).ok_or(Stop::Unknown)?;
            let known = [
                "rename",
                "default",
                "skip_serializing_if",
                "deserialize_with",
                "flatten",
            ];
            if options.iter().any(|(n, _)| !known.contains(&n.as_str())) {
                return Err(Stop::Unknown);
            }
            let has = |name: &str| options.iter().any(|(n, _)| n == name);
            if has("flatten") {
                if rest.is_some() {
                    return Err(Stop::Unknown);
                }
                rest = Some(&field.ty);
                continue;
            }
            let Some(wire) = wire_name(field, &options) else {
                return Err(Stop::Unknown);
            };
            let deserialize_with = option(&options, "deserialize_with");
            if deserialize_with.is_some_and(|with| !with.ends_with("__private::present")) {
                return Err(Stop::Unknown);
            }
            let skip = option(&options, "skip_serializing_if");
            let option_inner = option_inner(&field.ty);
            let at_member = format!("{at}/{}", escape(&wire));
            match members.get(&wire) {
                Some(member) => {
                    unclaimed.retain(|m| **m != wire);
                    match (option_inner, member) {
                        // `present` reads an explicit `null` as `Some` of the inner type.
                        (Some(inner), _) if deserialize_with.is_some() => {
                            self.value(inner, member, &at_member)?
                        }
                        (Some(_), Value::Null) if skipped_when_none(&options) => {
                            return lost(
                                &at_member,
                                "an explicit `null` is read as absent and is not written back",
                            );
                        }
                        _ => self.value(&field.ty, member, &at_member)?,
                    }
                }
                None => {
                    let default = options.iter().find(|(n, _)| n == "default");
                    if matches!(default, Some((_, Some(_)))) && skip.is_some() {
                        // A default from a function, maybe skipped again: not followed here.
                        return Err(Stop::Unknown);
                    }
                    let skipped_when_default = match (default, option_inner, skip) {
                        // `Default::default()` of an `Option` is `None`, skipped again.
                        (Some((_, None)) | None, Some(_), Some(_)) => skipped_when_none(&options),
                        (Some((_, None)), None, Some(s)) => {
                            s.ends_with("Vec::is_empty") || s.ends_with("Map::is_empty")
                        }
                        _ => false,
                    };
                    if skipped_when_default {
                        continue;
                    }
                    // The member is not in the example: point at the object that lacks it.
                    return lost(
                        at,
                        match (default, option_inner) {
                            (Some(_), _) => {
                                format!("`{wire}` is absent, and the type fills in its default")
                            }
                            (None, Some(_)) => {
                                format!("`{wire}` is absent, and the type writes it back as `null`")
                            }
                            (None, None) => format!("`{wire}` is absent, and the type requires it"),
                        },
                    );
                }
            }
        }
        match rest {
            Some(ty) => {
                let Some((name, arguments)) = last_segment(ty) else {
                    return Err(Stop::Unknown);
                };
                if !["Map", "BTreeMap", "HashMap", "IndexMap"].contains(&name.as_str())
                    || arguments.len() != 2
                {
                    return Err(Stop::Unknown);
                }
                for member in unclaimed {
                    let at_member = format!("{at}/{}", escape(member));
                    self.value(arguments[1], &members[member], &at_member)?;
                }
                Ok(())
            }
            None => match unclaimed.first() {
                None => Ok(()),
                Some(member) if deny_unknown => lost(
                    &format!("{at}/{}", escape(member)),
                    format!("`{member}` is not a member the type accepts"),
                ),
                Some(member) => lost(
                    &format!("{at}/{}", escape(member)),
                    format!(
                        "`{member}` is dropped: the generated struct `{}` has no field for it",
                        s.ident
                    ),
                ),
            },
        }
    }
}

/// The member name a named field reads and writes: its `rename`, or its identifier.
fn wire_name(field: &syn::Field, options: &[SerdeOption]) -> Option<String> {
    match option(options, "rename") {
        Some(rename) => Some(rename.to_string()),
        None => Some(
            field
                .ident
                .as_ref()?
                .to_string()
                .trim_start_matches("r#")
                .to_string(),
        ),
    }
}

/// Whether the field is left out when it is `None` (an `Option` that only marks absence).
fn skipped_when_none(options: &[SerdeOption]) -> bool {
    option(options, "skip_serializing_if").is_some_and(|skip| skip.ends_with("Option::is_none"))
}

fn option<'a>(options: &'a [SerdeOption], name: &str) -> Option<&'a str> {
    options
        .iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, v)| v.as_deref())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The generated code these tests follow examples through, written the way the generator
    /// writes it after every rewrite.
    fn types() -> syn::File {
        syn::parse_quote! {
            #[derive(Deserialize, Serialize)]
            #[serde(crate = "::schemcp_runtime::__private::serde")]
            pub struct Trip {
                pub city: ::std::string::String,
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub days: ::std::option::Option<::std::num::NonZeroU64>,
                #[serde(default = "defaults::trip_units")]
                pub units: Units,
                #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                pub stops: ::std::option::Option<::std::vec::Vec<Stop>>,
                #[serde(
                    rename = "fromPython",
                    default,
                    deserialize_with = "::schemcp_runtime::__private::present",
                    skip_serializing_if = "::std::option::Option::is_none"
                )]
                pub from_python: ::std::option::Option<::std::option::Option<i64>>,
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub note: ::std::option::Option<::schemcp_runtime::__private::serde_json::Value>,
            }
            #[derive(Deserialize, Serialize)]
            #[serde(crate = "::schemcp_runtime::__private::serde")]
            #[serde(deny_unknown_fields)]
            pub struct Stop {
                pub at: (f64, f64),
                pub name: Name,
            }
            #[derive(Deserialize, Serialize)]
            #[serde(crate = "::schemcp_runtime::__private::serde")]
            pub enum Units {
                #[serde(rename = "metric")]
                Metric,
                #[serde(rename = "imperial")]
                Imperial,
            }
            #[derive(Deserialize, Serialize)]
            #[serde(crate = "::schemcp_runtime::__private::serde", transparent)]
            pub struct Name(pub ::std::boxed::Box<::std::string::String>);
            #[derive(Deserialize, Serialize)]
            #[serde(crate = "::schemcp_runtime::__private::serde")]
            pub struct Open {
                pub id: i32,
                #[serde(flatten)]
                pub extra: ::schemcp_runtime::__private::serde_json::Map<
                    ::std::string::String,
                    ::schemcp_runtime::__private::serde_json::Value,
                >,
            }
            #[derive(Deserialize, Serialize)]
            #[serde(crate = "::schemcp_runtime::__private::serde", untagged)]
            pub enum Either {
                Trip(Trip),
                Open(Open),
            }
            pub type Trips = ::std::vec::Vec<Trip>;
        }
    }

    fn follow(ty: &str, example: Value) -> Verdict {
        check(&Items::of(&types()), &syn::parse_str(ty).unwrap(), &example)
    }

    fn lost(at: &str, why: &str) -> Verdict {
        Verdict::Lost {
            at: at.into(),
            why: why.into(),
        }
    }

    #[test]
    fn in_place_ancestors_stop_where_the_value_changes() {
        let schema = json!({
            "properties": {
                "then": { "anyOf": [{ "not": {} }] },
                "a": { "items": { "oneOf": [{}] } }
            },
            "dependentSchemas": { "x~y/z": { "then": {} } },
            "prefixItems": [{ "allOf": [{}] }]
        });
        for (pointer, expected) in [
            (
                "/properties/then/anyOf/0/not",
                vec!["/properties/then/anyOf/0", "/properties/then"],
            ),
            ("/properties/then", vec![]),
            ("/properties/a/items/oneOf/0", vec!["/properties/a/items"]),
            (
                "/dependentSchemas/x~0y~1z/then",
                vec!["/dependentSchemas/x~0y~1z", ""],
            ),
            ("/prefixItems/0/allOf/0", vec!["/prefixItems/0"]),
            ("/properties/missing/anyOf/0", vec![]),
        ] {
            assert_eq!(in_place_ancestors(&schema, pointer), expected, "{pointer}");
        }
    }

    #[test]
    fn examples_the_types_keep() {
        for (ty, example) in [
            ("Trip", json!({ "city": "Oslo", "units": "metric" })),
            (
                "Trip",
                json!({ "city": "Oslo", "units": "imperial", "days": 2, "fromPython": null,
                        "stops": [], "note": { "any": [1, "thing"] } }),
            ),
            (
                "Trip",
                json!({ "city": "Oslo", "units": "metric",
                        "stops": [{ "at": [59.9, 10.7], "name": "Sentrum" }] }),
            ),
            ("Open", json!({ "id": -3, "x": null, "y": [1, 2] })),
            ("Trips", json!([{ "city": "Oslo", "units": "metric" }])),
            ("::std::option::Option<i64>", json!(null)),
            ("f64", json!(7)),
            ("u64", json!(18446744073709551615u64)),
            (PAIR, json!([])),
            (PAIR, json!([3, "a", { "city": "Oslo", "units": "metric" }])),
        ] {
            assert_eq!(follow(ty, example.clone()), Verdict::Kept, "{ty} {example}");
        }
    }

    #[test]
    fn examples_the_types_change_point_at_the_member() {
        assert_eq!(
            follow(
                "Trip",
                json!({ "city": "Oslo", "units": "metric", "country": "NO" })
            ),
            lost(
                "/country",
                "`country` is dropped: the generated struct `Trip` has no field for it"
            )
        );
        assert_eq!(
            follow("Trip", json!({ "city": "Oslo" })),
            lost("", "`units` is absent, and the type fills in its default")
        );
        assert_eq!(
            follow(
                "Trip",
                json!({ "city": "Oslo", "units": "metric", "note": null })
            ),
            lost(
                "/note",
                "an explicit `null` is read as absent and is not written back"
            )
        );
        assert_eq!(
            follow(
                "Trip",
                json!({ "city": "Oslo", "units": "metric", "days": 2.0 })
            ),
            lost(
                "/days",
                "`2.0` is written as a fraction, which the type's `NonZeroU64` does not read; write it as `2`"
            )
        );
        assert_eq!(
            follow(
                "Trip",
                json!({ "city": "Oslo", "units": "metric", "days": 0 })
            ),
            lost("/days", "`0` does not fit the type's `NonZeroU64`")
        );
        assert_eq!(
            follow("Trip", json!({ "city": "Oslo", "units": "SI" })),
            lost("/units", "\"SI\" is none of the type's values")
        );
        assert_eq!(
            follow(
                "Trips",
                json!([{ "city": "Oslo", "units": "metric",
                         "stops": [{ "at": [1, 2], "name": "a", "x/y": 1 }] }])
            ),
            lost("/0/stops/0/x~1y", "`x/y` is not a member the type accepts")
        );
        assert_eq!(
            follow("Open", json!({ "id": 3000000000u64 })),
            lost("/id", "`3000000000` does not fit the type's `i32`")
        );
        assert_eq!(
            follow(PAIR, json!([3.0])),
            lost(
                "/0",
                "`3.0` is written as a fraction, which the type's `i64` does not read; write it as `3`"
            )
        );
        assert_eq!(
            follow(PAIR, json!([3, "a", { "city": "Oslo" }])),
            lost("/2", "`units` is absent, and the type fills in its default")
        );
        assert_eq!(
            follow(
                "::schemcp_runtime::prefix_items::Prefix1<i64, ::schemcp_runtime::prefix_items::NoValue>",
                json!([1, 2])
            ),
            lost("/1", "the type holds no value here (its schema is `false`)")
        );
    }

    /// A `prefixItems` array of variable length: two positions, then trips.
    const PAIR: &str = "::schemcp_runtime::prefix_items::Prefix2<i64, ::std::string::String, Trip>";

    #[test]
    fn nested_schemas_find_the_type_that_holds_their_values() {
        let at = |root: &str, pointer: &str| {
            let root: Type = syn::parse_str(root).unwrap();
            type_at(&Items::of(&types()), &root, pointer)
                .map(|ty| quote!(#ty).to_string().replace(' ', ""))
        };
        // An optional member's type without the `Option` that says it may be absent.
        assert_eq!(
            at("Trip", "/properties/days").as_deref(),
            Some("::std::num::NonZeroU64")
        );
        // A member that may be `null` keeps the `Option` that holds it.
        assert_eq!(
            at("Trip", "/properties/fromPython").as_deref(),
            Some("::std::option::Option<i64>")
        );
        assert_eq!(
            at("Trips", "/items/properties/stops/items/properties/name").as_deref(),
            Some("Name")
        );
        assert_eq!(at("Trip", "/properties/units").as_deref(), Some("Units"));
        assert_eq!(
            at("Open", "/additionalProperties").as_deref(),
            None,
            "a flattened map is not followed: its members share the object with the fields"
        );
        assert_eq!(at("Trip", "/properties/country"), None);
        assert_eq!(at("Trip", "/$defs/Units"), None);
        assert_eq!(at("Either", "/properties/city"), None);
        // A `prefixItems` position, and the items past the prefix.
        assert_eq!(
            at(PAIR, "/prefixItems/1").as_deref(),
            Some("::std::string::String")
        );
        assert_eq!(
            at(PAIR, "/items/properties/units").as_deref(),
            Some("Units")
        );
        assert_eq!(at(PAIR, "/prefixItems/2"), None);
    }

    #[test]
    fn what_serde_does_not_say_statically_is_left_to_the_generated_test() {
        assert_eq!(follow("Either", json!({ "id": 1 })), Verdict::Unknown);
        assert_eq!(follow("Missing", json!(1)), Verdict::Unknown);
        assert_eq!(
            follow(
                "::chrono::DateTime<::chrono::Utc>",
                json!("2020-01-01T00:00:00Z")
            ),
            Verdict::Unknown
        );
    }
}
