//! typify output the generator must not emit: code that compiles into a type no value fits,
//! or that does not compile at all. [`refusal`] says why; the generator then probes the
//! schemas one by one, and the one whose code this is is refused at its pointer (or typed as
//! `serde_json::Value` with the opt-in).

use std::collections::{BTreeMap, BTreeSet};

use quote::ToTokens;
use syn::{Fields, GenericArgument, Item, PathArguments, Type};

use crate::fields::{derived, json_name, member_name, vec_items};
use crate::from_impls::conversion_impl;

/// What the schemas behind a file say has no value, so that typify's enums without variants
/// for them are right.
pub(crate) struct NoValue<'a> {
    /// Whether the enum without variants of that name may come from a schema that rejects
    /// every value somewhere (`false`, `"not": {}`, `"enum": []`): it may be used anywhere.
    pub(crate) anywhere: &'a dyn Fn(&str) -> bool,
    /// Members some merge leaves no value
    /// ([`members_merges_leave_no_value`](crate::schema::members_merges_leave_no_value)): an
    /// enum without variants is right as the type of a member of these names, and only there.
    pub(crate) members: &'a BTreeSet<String>,
}

/// Why `file` must not be emitted, if it must not. The types are named in typify's working
/// names there, which mean nothing to the author; the caller names the schema's pointer.
pub(crate) fn refusal(file: &syn::File, no_value: &NoValue<'_>) -> Option<String> {
    if let Some(name) = without_variants(file, no_value) {
        return Some(format!(
            "typify gives it a type no value fits (`enum {name} {{}}`), where the schema accepts \
             values, so every call would be refused"
        ));
    }
    if let Some(name) = constructor_short_of_fields(file) {
        return Some(format!(
            "{BROKEN_DEFAULT} (`{name}(..)` is given fewer values than it holds)"
        ));
    }
    if let Some((_, member)) = declared_twice(file) {
        return Some(format!(
            "typify declares the member `{member}` twice in one type, which no value fits"
        ));
    }
    uncomparable_value_list(file).map(|_| {
        "typify checks this schema's values against a list of values of a type it cannot \
         compare, and the code would not compile"
            .to_string()
    })
}

/// Part of the refusal for a default typify writes as code that does not compile: the
/// generator then converts that schema again without its defaults
/// ([`crate::examples::untypable_defaults`]).
pub(crate) const BROKEN_DEFAULT: &str =
    "typify writes a default of this schema as code that does not compile";

/// The first tuple struct of `file` that some expression calls with fewer values than it has
/// fields. typify writes a `null` default of a union with a newtype variant as
/// `Union::Integer(UnionInteger())`.
fn constructor_short_of_fields(file: &syn::File) -> Option<String> {
    struct Calls<'a> {
        fields: &'a BTreeMap<String, usize>,
        short: Option<String>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Calls<'_> {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if let syn::Expr::Path(path) = &*call.func
                && let Some(last) = path.path.segments.last()
                && let Some(&count) = self.fields.get(&last.ident.to_string())
                && call.args.len() < count
            {
                self.short.get_or_insert_with(|| last.ident.to_string());
            }
            syn::visit::visit_expr_call(self, call);
        }

        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            if let Some(items) = vec_items(mac) {
                items.iter().for_each(|item| self.visit_expr(item));
            }
        }
    }
    let fields: BTreeMap<String, usize> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Struct(s) if matches!(s.fields, Fields::Unnamed(_)) => {
                Some((s.ident.to_string(), s.fields.len()))
            }
            _ => None,
        })
        .collect();
    let mut calls = Calls {
        fields: &fields,
        short: None,
    };
    syn::visit::Visit::visit_file(&mut calls, file);
    calls.short
}

/// The first enum in `file` without variants that `no_value` does not account for. typify
/// makes one for a schema that accepts no value, and also where it merges the branches of
/// mixed `allOf`/`anyOf`/`oneOf` wrongly (e.g. a `required` member beside an `anyOf` whose one
/// branch is closed without it).
fn without_variants(file: &syn::File, no_value: &NoValue<'_>) -> Option<String> {
    file.items.iter().find_map(|item| match item {
        Item::Enum(item) if item.variants.is_empty() => {
            Some(item.ident.to_string()).filter(|name| {
                !(no_value.anywhere)(name) && !only_for_members(file, name, no_value.members)
            })
        }
        _ => None,
    })
}

/// Whether the type `name` is used in `file`, and only as the type of members named in
/// `members` (alone, or in an `Option` or a `Box`).
fn only_for_members(file: &syn::File, name: &str, members: &BTreeSet<String>) -> bool {
    let mut uses = 0;
    for item in &file.items {
        let fields: Vec<&syn::Field> = match item {
            Item::Struct(item) => item.fields.iter().collect(),
            Item::Enum(item) => item.variants.iter().flat_map(|v| &v.fields).collect(),
            Item::Type(alias) if mentions(&alias.ty, name) => return false,
            _ => continue,
        };
        for field in fields.into_iter().filter(|f| mentions(&f.ty, name)) {
            let member = field
                .ident
                .as_ref()
                .map(|ident| json_name(&field.attrs, ident));
            if !member.is_some_and(|m| members.contains(&m)) || !holds_only(&field.ty, name) {
                return false;
            }
            uses += 1;
        }
    }
    uses > 0
}

/// Whether the tokens of `ty` name `name` anywhere.
fn mentions(ty: &Type, name: &str) -> bool {
    fn within(tokens: proc_macro2::TokenStream, name: &str) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => ident == name,
            proc_macro2::TokenTree::Group(group) => within(group.stream(), name),
            _ => false,
        })
    }
    within(ty.to_token_stream(), name)
}

/// Whether `ty` is `name`, or `name` in `Option`s and `Box`es.
fn holds_only(ty: &Type, name: &str) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    match &last.arguments {
        PathArguments::None => last.ident == name,
        PathArguments::AngleBracketed(args) if last.ident == "Option" || last.ident == "Box" => {
            match args.args.first() {
                Some(GenericArgument::Type(inner)) if args.args.len() == 1 => {
                    holds_only(inner, name)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// The first struct or struct variant in `file` that has two fields for one JSON member, as
/// `(type, member)`. typify declares a member twice in some merges of `allOf`/`oneOf`
/// branches (once optional, once required); once
/// [`distinct_fields`](crate::fields::distinct_fields) has numbered them the code compiles,
/// but serde then fails every value with a "missing field" or "duplicate field" error, so the
/// generator must not emit it.
fn declared_twice(file: &syn::File) -> Option<(String, String)> {
    let twice = |fields: &Fields| {
        let mut seen = BTreeSet::new();
        fields
            .iter()
            .filter_map(member_name)
            .find(|name| !seen.insert(name.clone()))
    };
    file.items.iter().find_map(|item| match item {
        Item::Struct(item) => twice(&item.fields).map(|m| (item.ident.to_string(), m)),
        Item::Enum(item) => item
            .variants
            .iter()
            .find_map(|v| twice(&v.fields).map(|m| (format!("{}::{}", item.ident, v.ident), m))),
        _ => None,
    })
}

/// The first type whose `TryFrom` checks a value against a list (`[..].contains(&value)`, what
/// typify writes for an `enum` or `const`) of a type in `file` that does not derive
/// `PartialEq`. typify does so where it merges a `const` into an object (the code does not
/// compile: "can't compare").
fn uncomparable_value_list(file: &syn::File) -> Option<String> {
    // Every struct and enum of the file, and whether it derives `PartialEq`.
    let comparable: BTreeMap<String, bool> = file
        .items
        .iter()
        .filter_map(|item| {
            let (ident, attrs) = match item {
                Item::Struct(s) => (&s.ident, &s.attrs),
                Item::Enum(e) => (&e.ident, &e.attrs),
                _ => return None,
            };
            let derives = attrs
                .iter()
                .filter_map(derived)
                .flatten()
                .any(|name| name == "PartialEq");
            Some((ident.to_string(), derives))
        })
        .collect();
    file.items.iter().find_map(|item| {
        let (block, Type::Path(inner)) = conversion_impl(item, "TryFrom")? else {
            return None;
        };
        let inner = inner.path.segments.last()?.ident.to_string();
        let checks_a_list = block
            .to_token_stream()
            .to_string()
            .contains("contains (& value)");
        (checks_a_list && comparable.get(&inner) == Some(&false)).then_some(inner)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::distinct_fields;

    /// Accounts for no enum without variants.
    fn nothing() -> NoValue<'static> {
        static NONE: BTreeSet<String> = BTreeSet::new();
        NoValue {
            anywhere: &|_| false,
            members: &NONE,
        }
    }

    #[test]
    fn a_member_declared_twice_is_found_after_numbering() {
        // What typify gave `{"properties": {"foo": true}, "oneOf": [.., {"required": ["foo"]}]}`.
        let mut file: syn::File = syn::parse_quote! {
            pub enum T {
                A { foo: Option<Value> },
                B { foo: Option<Value>, foo: Value },
            }
            pub struct Fine {
                #[serde(rename = "foo-bar")]
                pub foo_bar: i64,
                pub foo_bar: String,
            }
        };
        distinct_fields(&mut file);
        assert_eq!(
            declared_twice(&file),
            Some(("T::B".to_string(), "foo".to_string()))
        );
        file.items.remove(0);
        assert_eq!(declared_twice(&file), None);
    }

    #[test]
    fn a_value_list_of_a_type_without_partial_eq_is_refused() {
        // What typify gave for an object member merged with `{"const": "x"}`.
        let file = |derive: syn::Attribute| -> syn::File {
            syn::parse_quote! {
                pub struct C(Inner);
                impl ::std::convert::TryFrom<Inner> for C {
                    type Error = String;
                    fn try_from(value: Inner) -> Result<Self, String> {
                        if ![].contains(&value) { Err("invalid value".into()) } else { Ok(Self(value)) }
                    }
                }
                #derive
                pub struct Inner { pub z: Option<i64> }
            }
        };
        let broken = file(syn::parse_quote!(#[derive(Clone, Debug)]));
        assert_eq!(uncomparable_value_list(&broken), Some("Inner".to_string()));
        assert_eq!(
            refusal(&broken, &nothing()).as_deref(),
            Some(
                "typify checks this schema's values against a list of values of a type it \
                 cannot compare, and the code would not compile"
            )
        );
        let fine = file(syn::parse_quote!(#[derive(Clone, Debug, PartialEq)]));
        assert_eq!(uncomparable_value_list(&fine), None);
    }

    #[test]
    fn an_enum_without_variants_is_refused_unless_a_schema_says_no_value() {
        let file: syn::File = syn::parse_quote! {
            pub enum Fine { A }
            pub enum Never {}
        };
        assert_eq!(
            without_variants(&file, &nothing()),
            Some("Never".to_string())
        );
        assert_eq!(
            refusal(&file, &nothing()).as_deref(),
            Some(
                "typify gives it a type no value fits (`enum Never {}`), where the schema \
                 accepts values, so every call would be refused"
            )
        );
        let never = |name: &str| name == "Never";
        let anywhere = NoValue {
            anywhere: &never,
            members: &BTreeSet::new(),
        };
        assert_eq!(refusal(&file, &anywhere), None);
    }

    #[test]
    fn an_enum_without_variants_is_kept_only_as_the_type_of_members_with_no_value() {
        // What typify gave a `oneOf` branch whose `additionalProperties` rules out `c`.
        let file: syn::File = syn::parse_quote! {
            pub enum T {
                Variant0 { c: Option<String> },
                Variant1 {
                    #[serde(rename = "c\u{1}")]
                    c: ::std::option::Option<::std::boxed::Box<TVariant1C>>,
                },
            }
            pub struct Other { pub c: Option<TVariant1C> }
            pub enum TVariant1C {}
        };
        let found = |file: &syn::File, member: &str| {
            let members = [member.to_string()].into();
            let no_value = NoValue {
                anywhere: &|_| false,
                members: &members,
            };
            without_variants(file, &no_value)
        };
        assert_eq!(found(&file, "c"), None);
        assert_eq!(found(&file, "d"), Some("TVariant1C".into()));
        // Anywhere else (a list's items, a variant's value, an alias, unused), it is refused.
        for elsewhere in [
            syn::parse_quote! { pub struct L { pub c: Vec<TVariant1C> } },
            syn::parse_quote! { pub enum U { A(TVariant1C) } },
            syn::parse_quote! { pub type A = TVariant1C; },
        ] {
            let mut file = file.clone();
            file.items.push(elsewhere);
            assert_eq!(found(&file, "c"), Some("TVariant1C".into()));
        }
        let unused = syn::parse_quote! { pub enum TVariant1C {} };
        assert_eq!(found(&unused, "c"), Some("TVariant1C".into()));
    }

    #[test]
    fn a_tuple_struct_given_fewer_values_is_refused() {
        let file: syn::File = syn::parse_quote! {
            pub struct UnionInteger(i64);
            pub enum Union { Integer(UnionInteger), Null }
            impl Default for Holder {
                fn default() -> Self { Self { list: vec![Union::Integer(UnionInteger())] } }
            }
        };
        assert_eq!(
            constructor_short_of_fields(&file),
            Some("UnionInteger".into())
        );
        assert!(
            refusal(&file, &nothing())
                .unwrap()
                .starts_with(BROKEN_DEFAULT)
        );
        let fine: syn::File = syn::parse_quote! {
            pub struct UnionInteger(i64);
            fn f() -> UnionInteger { UnionInteger(1) }
        };
        assert_eq!(constructor_short_of_fields(&fine), None);
    }
}
