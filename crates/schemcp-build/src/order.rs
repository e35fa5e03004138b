//! Struct fields in the order the schema declares its members.
//!
//! typify 0.8 sorts a struct's fields by name, and serde writes members in field order, so a
//! result declared `temperature, humidity, conditions` went out as `conditions, humidity,
//! temperature`, in `structuredContent` and in the text block the model reads. The Python and
//! TypeScript SDKs write members as declared, and so does prost for its fields.
//! [`DeclaredOrders::apply`] puts each struct's fields back in the order of the schema it was
//! made from.
//!
//! The generated code does not say which schema a struct came from, so a struct is matched by
//! its members: the schemas that hold exactly those members as typify merges them (those of
//! `properties`, of a `$ref`'s target and of `allOf` branches, in the order those keywords are
//! written, then the `required` names none declares; for a union's variant, one `anyOf` or
//! `oneOf` branch's after them). When all of them hold the members in one order, the fields
//! take it. A struct matched by no schema, or by schemas that disagree, keeps typify's order:
//! a guess would make the order depend on what else the contract holds. Flattened fields
//! (`extra`, the members no property names) stay last, where typify puts them.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;
use syn::{Fields, FieldsNamed, Item};

use crate::fields::member_name;
use crate::schema::{NULLABLE_OPTIONAL, subschemas};

/// Declared member orders of a set of schemas, keyed by the members they declare.
#[derive(Default)]
pub(crate) struct DeclaredOrders {
    /// `None` where two schemas declare the same members in different orders.
    by_members: HashMap<BTreeSet<String>, Option<Vec<String>>>,
}

impl DeclaredOrders {
    /// Reads the order of every object schema in `schemas` and their subschemas, without
    /// following references.
    #[cfg(test)]
    pub(crate) fn collect<'a>(schemas: impl IntoIterator<Item = &'a Value>) -> Self {
        let mut orders = DeclaredOrders::default();
        for schema in schemas {
            orders.read(schema, &|_| None);
        }
        orders
    }

    /// Reads the order of every object schema in `schema` and its subschemas; `resolve` gives
    /// the schema a `$ref` there names.
    pub(crate) fn read<'a>(&mut self, schema: &Value, resolve: Resolve<'a, '_>) {
        let Value::Object(object) = schema else {
            return;
        };
        let holds_members = ["properties", "required", "$ref", "allOf", "anyOf", "oneOf"];
        if holds_members.iter().any(|k| object.contains_key(*k)) {
            for order in declared_orders(object, resolve) {
                self.add(order);
            }
        }
        for (keyword, value) in object {
            subschemas(keyword, value).for_each(|child| self.read(child, resolve));
        }
    }

    fn add(&mut self, order: Vec<String>) {
        let members: BTreeSet<String> = order.iter().cloned().collect();
        if members.len() < 2 || members.len() != order.len() {
            return;
        }
        self.by_members
            .entry(members)
            .and_modify(|known| {
                if known.as_ref() != Some(&order) {
                    *known = None;
                }
            })
            .or_insert(Some(order));
    }

    /// Reorders the fields of every struct and struct variant in `file` that some schema
    /// declares unambiguously.
    pub(crate) fn apply(&self, file: &mut syn::File) {
        if self.by_members.is_empty() {
            return;
        }
        for item in &mut file.items {
            match item {
                Item::Struct(item) => {
                    if let Fields::Named(fields) = &mut item.fields {
                        self.reorder(fields);
                    }
                }
                Item::Enum(item) => {
                    for variant in &mut item.variants {
                        if let Fields::Named(fields) = &mut variant.fields {
                            self.reorder(fields);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn reorder(&self, fields: &mut FieldsNamed) {
        let named: Vec<Option<String>> = fields.named.iter().map(member_name).collect();
        let members: BTreeSet<String> = named.iter().flatten().cloned().collect();
        if members.len() != named.iter().flatten().count() {
            return;
        }
        let Some(Some(order)) = self.by_members.get(&members) else {
            return;
        };
        let position = |name: &Option<String>| match name {
            Some(name) => order.iter().position(|n| n == name).unwrap_or(usize::MAX),
            None => usize::MAX,
        };
        let mut keyed: Vec<(usize, syn::Field)> = named
            .iter()
            .map(position)
            .zip(std::mem::take(&mut fields.named))
            .collect();
        // Stable: flattened fields keep their places relative to each other, after the rest.
        keyed.sort_by_key(|(position, _)| *position);
        fields.named = keyed.into_iter().map(|(_, field)| field).collect();
    }
}

/// The schema a `$ref` names, where the generator knows it.
pub(crate) type Resolve<'a, 'r> = &'r dyn Fn(&str) -> Option<&'a Value>;

/// The member orders a struct made from `object` can have: its own members; and for each
/// `anyOf`/`oneOf` branch, those followed by the branch's own, as the branch's variant has
/// them.
fn declared_orders<'a>(
    object: &serde_json::Map<String, Value>,
    resolve: Resolve<'a, '_>,
) -> Vec<Vec<String>> {
    let common = own(object, resolve, 0);
    let mut orders = vec![common.clone()];
    for keyword in ["anyOf", "oneOf"] {
        let branches = object.get(keyword).and_then(Value::as_array);
        for branch in branches.into_iter().flatten().filter_map(Value::as_object) {
            let mut order = common.clone();
            append(&mut order, own(branch, resolve, 0));
            orders.push(order);
        }
    }
    orders
}

/// The members `object` holds as typify merges them, in the order its keywords are written:
/// `properties` (without those declared `false`, which typify leaves out), a `$ref`'s target's
/// members, each `allOf` branch's; then the `required` names none of them declares. Marks for
/// nullable optional members are dropped, as [`member_name`] drops them.
fn own<'a>(
    object: &serde_json::Map<String, Value>,
    resolve: Resolve<'a, '_>,
    depth: usize,
) -> Vec<String> {
    // Deep enough for any inheritance chain written by hand; a cycle stops here.
    const DEPTH: usize = 8;
    let unmarked = |name: &str| name.trim_end_matches(NULLABLE_OPTIONAL).to_string();
    let mut order = Vec::new();
    for (keyword, value) in object {
        match (keyword.as_str(), value) {
            ("properties", Value::Object(properties)) => append(
                &mut order,
                properties
                    .iter()
                    .filter(|(_, schema)| **schema != Value::Bool(false))
                    .map(|(name, _)| unmarked(name))
                    .collect(),
            ),
            ("$ref", Value::String(reference)) if depth < DEPTH => {
                if let Some(Value::Object(target)) = resolve(reference) {
                    append(&mut order, own(target, resolve, depth + 1));
                }
            }
            ("allOf", Value::Array(branches)) if depth < DEPTH => {
                for branch in branches.iter().filter_map(Value::as_object) {
                    append(&mut order, own(branch, resolve, depth + 1));
                }
            }
            _ => {}
        }
    }
    let required = object.get("required").and_then(Value::as_array);
    let required = required.into_iter().flatten().filter_map(Value::as_str);
    append(&mut order, required.map(unmarked).collect());
    order
}

fn append(order: &mut Vec<String>, more: Vec<String>) {
    for name in more {
        if !order.contains(&name) {
            order.push(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;
    use serde_json::json;

    use super::*;

    fn run(schemas: &[Value], code: proc_macro2::TokenStream) -> String {
        let mut file: syn::File = syn::parse2(code).unwrap();
        DeclaredOrders::collect(schemas).apply(&mut file);
        prettyplease::unparse(&file)
    }

    fn unparse(code: proc_macro2::TokenStream) -> String {
        prettyplease::unparse(&syn::parse2(code).unwrap())
    }

    #[test]
    fn fields_follow_the_declared_order() {
        let schema = json!({
            "type": "object",
            "properties": {
                "temperature": { "type": "number" },
                "humidity": { "type": "number" },
                "conditions": { "type": "string" }
            },
            "required": ["temperature", "humidity", "conditions"]
        });
        let code = quote! {
            pub struct WeatherData {
                pub conditions: String,
                pub humidity: f64,
                pub temperature: f64,
            }
        };
        let expected = quote! {
            pub struct WeatherData {
                pub temperature: f64,
                pub humidity: f64,
                pub conditions: String,
            }
        };
        assert_eq!(run(&[schema], code), unparse(expected));
    }

    #[test]
    fn renamed_marked_and_flattened_members_are_placed_by_their_json_names() {
        let schema = json!({
            "type": "object",
            "properties": {
                "zone\u{1}": { "type": ["string", "null"] },
                "@type": { "type": "string" },
                "ignored": false
            },
            "required": ["b"],
            "additionalProperties": { "type": "integer" }
        });
        let code = quote! {
            pub enum Shape {
                Point {
                    b: Value,
                    #[serde(rename = "@type")]
                    type_: String,
                    #[serde(rename = "zone\u{1}")]
                    zone: Option<Option<String>>,
                    #[serde(flatten)]
                    extra: Map,
                },
            }
        };
        let expected = quote! {
            pub enum Shape {
                Point {
                    #[serde(rename = "zone\u{1}")]
                    zone: Option<Option<String>>,
                    #[serde(rename = "@type")]
                    type_: String,
                    b: Value,
                    #[serde(flatten)]
                    extra: Map,
                },
            }
        };
        assert_eq!(run(&[schema], code), unparse(expected));
    }

    #[test]
    fn schemas_that_disagree_or_differ_leave_typify_order() {
        let ab = json!({ "properties": { "a": {}, "b": {} } });
        let ba = json!({ "$defs": { "X": { "properties": { "b": {}, "a": {} } } } });
        let abc = json!({ "properties": { "c": {}, "b": {}, "a": {} } });
        let code = quote! {
            pub struct Two { pub a: i64, pub b: i64 }
            pub struct Merged { pub a: i64, pub b: i64, pub c: i64, pub d: i64 }
        };
        assert_eq!(run(&[ab, ba, abc], code.clone()), unparse(code));
    }

    #[test]
    fn members_merged_from_inline_branches_follow_the_holder_then_the_branch() {
        let schema = json!({
            "properties": { "title": {} },
            "allOf": [{ "properties": { "owner": {} } }],
            "anyOf": [
                { "properties": { "zip": {} }, "required": ["zip"] },
                { "properties": { "region": {} } }
            ]
        });
        let code = quote! {
            pub enum Place {
                Region { owner: String, region: String, title: String },
                Zip { owner: String, title: String, zip: String },
            }
            pub struct Record { pub owner: String, pub title: String }
        };
        let expected = quote! {
            pub enum Place {
                Region { title: String, owner: String, region: String },
                Zip { title: String, owner: String, zip: String },
            }
            pub struct Record { pub title: String, pub owner: String }
        };
        assert_eq!(run(&[schema], code), unparse(expected));
    }

    #[test]
    fn members_of_a_referenced_base_come_first() {
        let base = json!({ "properties": { "name": {}, "id": {} }, "required": ["name", "id"] });
        let schema = json!({
            "allOf": [
                { "$ref": "#/$defs/Base" },
                { "properties": { "zeta": {}, "alpha": {} } }
            ]
        });
        let resolve = |reference: &str| (reference == "#/$defs/Base").then_some(&base);
        let mut orders = DeclaredOrders::default();
        orders.read(&schema, &resolve);
        let mut file: syn::File = syn::parse2(quote! {
            pub struct Pet { pub alpha: i64, pub id: i64, pub name: String, pub zeta: String }
        })
        .unwrap();
        orders.apply(&mut file);
        let expected = quote! {
            pub struct Pet { pub name: String, pub id: i64, pub zeta: String, pub alpha: i64 }
        };
        assert_eq!(prettyplease::unparse(&file), unparse(expected));
    }

    #[test]
    fn data_that_looks_like_a_schema_is_not_read() {
        let schema = json!({
            "type": "object",
            "properties": { "a": {}, "b": {} },
            "default": { "properties": { "b": 1, "a": 2 } },
            "examples": [{ "properties": { "b": 1, "a": 2 } }]
        });
        let code = quote! { pub struct T { pub b: i64, pub a: i64 } };
        let expected = quote! { pub struct T { pub a: i64, pub b: i64 } };
        assert_eq!(run(&[schema], code), unparse(expected));
    }
}
