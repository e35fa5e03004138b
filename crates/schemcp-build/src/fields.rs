//! Members whose names typify sanitizes alike (`foo-bar` and `foo_bar`, `foo"bar` and
//! `foo\nbar`, `@type` and `type`) would become the same Rust field: typify 0.8 emits both, and
//! the code does not compile. [`distinct_fields`] gives every field after the first a numbered
//! identifier (`foo_bar_2`); serde's `rename` keeps each member's JSON name, so nothing changes
//! on the wire.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Delimiter, TokenTree};
use syn::visit_mut::{self, VisitMut};
use syn::{Fields, Ident, Item, Type};

use crate::schema::NULLABLE_OPTIONAL;

/// Renames colliding fields of every struct and struct variant in `file`, and the field names
/// in the struct expressions and patterns of that type's `impl` blocks (typify writes
/// `Self { a: ..., b: ... }` in its `Default` impls, fields in declaration order). Returns the
/// renamed members as `(struct or variant, JSON name, new field)`.
///
/// Which field keeps the plain identifier: a flattened one (`extra`, the members no property
/// names), else one whose JSON name is that identifier, else the first.
pub(crate) fn distinct_fields(file: &mut syn::File) -> Vec<(String, String, String)> {
    let mut renamed = Vec::new();
    // (type the `impl` blocks are for, last segment of the path naming the fields) -> plain
    // identifier -> the identifiers its fields now have, in declaration order
    let mut renames: BTreeMap<(String, String), BTreeMap<String, Vec<Ident>>> = BTreeMap::new();
    for item in &mut file.items {
        match item {
            Item::Struct(item) => {
                let owner = item.ident.to_string();
                if let Fields::Named(fields) = &mut item.fields {
                    let idents = distinct(fields, &owner, &mut renamed);
                    if !idents.is_empty() {
                        renames.insert((owner.clone(), "Self".into()), idents.clone());
                        renames.insert((owner.clone(), owner), idents);
                    }
                }
            }
            // typify's struct variants (an object branch of an untagged enum).
            Item::Enum(item) => {
                let owner = item.ident.to_string();
                for variant in &mut item.variants {
                    if let Fields::Named(fields) = &mut variant.fields {
                        let name = variant.ident.to_string();
                        let idents = distinct(fields, &format!("{owner}::{name}"), &mut renamed);
                        if !idents.is_empty() {
                            renames.insert((owner.clone(), name), idents);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if renames.is_empty() {
        return renamed;
    }
    for item in &mut file.items {
        let Item::Impl(block) = item else {
            continue;
        };
        let Type::Path(path) = &*block.self_ty else {
            continue;
        };
        let Some(owner) = path.path.segments.last().map(|s| s.ident.to_string()) else {
            continue;
        };
        Renamer {
            owner: &owner,
            renames: &renames,
        }
        .visit_item_impl_mut(block);
    }
    renamed
}

/// Renames the colliding fields of one struct or struct variant (`owner`, for `renamed`), and
/// returns the identifiers of each collision's fields, in declaration order.
fn distinct(
    fields: &mut syn::FieldsNamed,
    owner: &str,
    renamed: &mut Vec<(String, String, String)>,
) -> BTreeMap<String, Vec<Ident>> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, field) in fields.named.iter().enumerate() {
        if let Some(ident) = &field.ident {
            groups.entry(ident.to_string()).or_default().push(i);
        }
    }
    let mut idents_of = BTreeMap::new();
    if groups.values().all(|g| g.len() == 1) {
        return idents_of;
    }
    let mut taken: BTreeSet<String> = groups.keys().map(|k| bare(k).to_string()).collect();
    let mut fields: Vec<&mut syn::Field> = fields.named.iter_mut().collect();
    for (ident, group) in groups.into_iter().filter(|(_, g)| g.len() > 1) {
        let keeper = group
            .iter()
            .copied()
            .find(|&i| serde_flag(&fields[i].attrs, "flatten"))
            .or_else(|| {
                group.iter().copied().find(|&i| {
                    json_name(
                        &fields[i].attrs,
                        fields[i].ident.as_ref().expect("a named field"),
                    ) == bare(&ident)
                })
            })
            .unwrap_or(group[0]);
        let mut next = 2;
        let mut idents = Vec::new();
        for &i in &group {
            let old = fields[i].ident.clone().expect("a named field");
            if i == keeper {
                idents.push(old);
                continue;
            }
            while taken.contains(&format!("{}_{next}", bare(&ident))) {
                next += 1;
            }
            let new = format!("{}_{next}", bare(&ident));
            taken.insert(new.clone());
            let json = json_name(
                &fields[i].attrs,
                fields[i].ident.as_ref().expect("a named field"),
            );
            if !serde_flag(&fields[i].attrs, "rename") {
                fields[i]
                    .attrs
                    .push(syn::parse_quote!(#[serde(rename = #json)]));
            }
            renamed.push((owner.to_string(), json, new.clone()));
            let new = Ident::new(&new, old.span());
            fields[i].ident = Some(new.clone());
            idents.push(new);
        }
        idents_of.insert(ident, idents);
    }
    idents_of
}

/// Renames fields in the struct expressions and patterns of one type's `impl` block
/// (`Self { .. }`, `Self::Variant { .. }`), the n-th use of a shared identifier becoming the
/// n-th field's new one.
struct Renamer<'a> {
    owner: &'a str,
    renames: &'a BTreeMap<(String, String), BTreeMap<String, Vec<Ident>>>,
}

impl Renamer<'_> {
    fn idents(&self, path: &syn::Path) -> Option<&BTreeMap<String, Vec<Ident>>> {
        let last = path.segments.last()?.ident.to_string();
        self.renames.get(&(self.owner.to_string(), last))
    }
}

/// Gives the n-th member named like a collision the n-th new identifier; `shorthand` turns
/// `Self { a }` into `Self { a_2: a }` and is called for those.
fn rename_members<'m>(
    members: impl Iterator<Item = (&'m mut syn::Member, bool)>,
    idents: &BTreeMap<String, Vec<Ident>>,
    mut shorthand: impl FnMut(usize, Ident),
) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (position, (member, short)) in members.enumerate() {
        let syn::Member::Named(ident) = member else {
            continue;
        };
        let key = ident.to_string();
        let Some(new) = idents.get(&key) else {
            continue;
        };
        let n = seen.entry(key).or_default();
        if let Some(new) = new.get(*n) {
            if short && new != ident {
                shorthand(position, ident.clone());
            }
            *ident = new.clone();
        }
        *n += 1;
    }
}

impl VisitMut for Renamer<'_> {
    fn visit_expr_struct_mut(&mut self, expr: &mut syn::ExprStruct) {
        if let Some(idents) = self.idents(&expr.path) {
            let mut short = Vec::new();
            rename_members(
                expr.fields
                    .iter_mut()
                    .map(|f| (&mut f.member, f.colon_token.is_none())),
                idents,
                |position, old| short.push((position, old)),
            );
            for (position, old) in short {
                let field = &mut expr.fields[position];
                field.expr = syn::parse_quote!(#old);
                field.colon_token = Some(Default::default());
            }
        }
        visit_mut::visit_expr_struct_mut(self, expr);
    }

    fn visit_pat_struct_mut(&mut self, pat: &mut syn::PatStruct) {
        if let Some(idents) = self.idents(&pat.path) {
            let mut short = Vec::new();
            rename_members(
                pat.fields
                    .iter_mut()
                    .map(|f| (&mut f.member, f.colon_token.is_none())),
                idents,
                |position, old| short.push((position, old)),
            );
            for (position, old) in short {
                let field = &mut pat.fields[position];
                *field.pat = syn::parse_quote!(#old);
                field.colon_token = Some(Default::default());
            }
        }
        visit_mut::visit_pat_struct_mut(self, pat);
    }
}

/// The identifiers of `path`'s segments, in order (`super::Options` is `["super", "Options"]`).
pub(crate) fn segment_names(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// The items of a `vec![a, b, ..]`, which syn leaves as tokens; `None` for any other macro.
pub(crate) fn vec_items(
    mac: &syn::Macro,
) -> Option<syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>> {
    let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
    mac.path
        .is_ident("vec")
        .then(|| mac.parse_body_with(parser).ok())
        .flatten()
}

/// An identifier without its raw prefix (`r#type` is `type`).
fn bare(ident: &str) -> &str {
    ident.trim_start_matches("r#")
}

/// The JSON name of a field or variant: its `#[serde(rename = "...")]`, or its identifier.
pub(crate) fn json_name(attrs: &[syn::Attribute], ident: &Ident) -> String {
    read_member(attrs, ident).1
}

/// The JSON member a named field reads and writes ([`json_name`]); `None` for a flattened or
/// unnamed field. Its `serde` attributes are read once.
pub(crate) fn member_name(field: &syn::Field) -> Option<String> {
    let (flattened, name) = read_member(&field.attrs, field.ident.as_ref()?);
    (!flattened).then_some(name)
}

/// Whether `attrs` flatten the field, and its JSON name.
fn read_member(attrs: &[syn::Attribute], ident: &Ident) -> (bool, String) {
    let mut flattened = false;
    let mut renamed = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let (Ok(options) | Err(options)) = read_serde(attr);
        for (option, value) in options {
            match (option.as_str(), value) {
                ("flatten", _) => flattened = true,
                // A member marked nullable-optional is still named as written.
                ("rename", Some(value)) => {
                    renamed = Some(value.trim_end_matches(NULLABLE_OPTIONAL).to_string());
                }
                _ => {}
            }
        }
    }
    let name = renamed.unwrap_or_else(|| bare(&ident.to_string()).to_string());
    (flattened, name)
}

/// The last segment of each path a `#[derive(..)]` attribute lists (`Deserialize` for
/// `::serde::Deserialize`), or `None` for any other attribute.
pub(crate) fn derived(attr: &syn::Attribute) -> Option<Vec<Ident>> {
    let syn::Meta::List(list) = &attr.meta else {
        return None;
    };
    if !list.path.is_ident("derive") {
        return None;
    }
    let mut names = Vec::new();
    let mut last = None;
    for tree in list.tokens.clone() {
        match tree {
            TokenTree::Ident(ident) => last = Some(ident),
            TokenTree::Punct(p) if p.as_char() == ',' => names.extend(last.take()),
            _ => {}
        }
    }
    names.extend(last);
    Some(names)
}

/// The paths a `#[derive(..)]` attribute lists, or `None` for any other attribute.
pub(crate) fn derive_paths(
    attr: &syn::Attribute,
) -> Option<syn::punctuated::Punctuated<syn::Path, syn::Token![,]>> {
    if !attr.path().is_ident("derive") {
        return None;
    }
    attr.parse_args_with(syn::punctuated::Punctuated::parse_terminated)
        .ok()
}

/// `#[serde(<options>)]`, built as syntax: the finishing passes write one per wrapped field,
/// and parsing each from tokens was most of their time.
pub(crate) fn serde_attribute(options: proc_macro2::TokenStream) -> syn::Attribute {
    syn::Attribute {
        pound_token: Default::default(),
        style: syn::AttrStyle::Outer,
        bracket_token: Default::default(),
        meta: syn::Meta::List(syn::MetaList {
            path: Ident::new("serde", proc_macro2::Span::call_site()).into(),
            delimiter: syn::MacroDelimiter::Paren(Default::default()),
            tokens: options,
        }),
    }
}

/// `::std::option::Option<inner>`, built as syntax (see [`serde_attribute`]).
pub(crate) fn std_option_of(inner: Type) -> Type {
    let segment =
        |name: &str| syn::PathSegment::from(Ident::new(name, proc_macro2::Span::call_site()));
    let mut option = segment("Option");
    option.arguments = syn::PathArguments::AngleBracketed(syn::AngleBracketedGenericArguments {
        colon2_token: None,
        lt_token: Default::default(),
        args: [syn::GenericArgument::Type(inner)].into_iter().collect(),
        gt_token: Default::default(),
    });
    Type::Path(syn::TypePath {
        attrs: Vec::new(),
        qself: None,
        path: syn::Path {
            leading_colon: Some(Default::default()),
            segments: [segment("std"), segment("option"), option]
                .into_iter()
                .collect(),
        },
    })
}

/// Whether a `#[serde(...)]` attribute names `flag` (with or without a value).
pub(crate) fn serde_flag(attrs: &[syn::Attribute], flag: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
        .any(|attr| {
            let (Ok(options) | Err(options)) = read_serde(attr);
            options.iter().any(|(option, _)| option == flag)
        })
}

/// A `serde` option: its name and, for `name = "value"`, the value.
pub(crate) type SerdeOption = (String, Option<String>);

/// The options of one `#[serde(...)]` attribute, in order: `Ok` if each is plain (`name` or
/// `name = "value"`), else `Err` with those before the first that is not.
///
/// Read from the tokens rather than parsed as syn's nested meta, which parses every value as
/// an expression: each pass over the generated types asks this of every field, and that parse
/// was a measurable share of the generator's time on large sets.
pub(crate) fn read_serde(attr: &syn::Attribute) -> Result<Vec<SerdeOption>, Vec<SerdeOption>> {
    let mut options = Vec::new();
    let syn::Meta::List(list) = &attr.meta else {
        return Err(options);
    };
    let mut tokens = list.tokens.clone().into_iter();
    let is = |tree: &TokenTree, c: char| matches!(tree, TokenTree::Punct(p) if p.as_char() == c);
    while let Some(tree) = tokens.next() {
        let TokenTree::Ident(name) = tree else {
            return Err(options);
        };
        let value = match tokens.next() {
            None => None,
            Some(comma) if is(&comma, ',') => None,
            Some(equals) if is(&equals, '=') => {
                let Some(value) = tokens.next().and_then(string_literal) else {
                    return Err(options);
                };
                match tokens.next() {
                    None => {}
                    Some(comma) if is(&comma, ',') => {}
                    Some(_) => return Err(options),
                }
                Some(value)
            }
            Some(_) => return Err(options),
        };
        options.push((name.to_string(), value));
    }
    Ok(options)
}

/// The value of a string literal token (also inside an invisible group, as interpolated tokens
/// may be).
fn string_literal(tree: TokenTree) -> Option<String> {
    match tree {
        TokenTree::Literal(literal) => string_value(&literal),
        TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
            let mut inner = group.stream().into_iter();
            let only = inner.next()?;
            inner.next().is_none().then_some(())?;
            string_literal(only)
        }
        _ => None,
    }
}

/// The value of `literal` if it is a string literal. Every pass over the generated types reads
/// the strings of `#[serde(...)]` attributes; most hold no escape and no raw-string hashes, and
/// those are read from the literal's text as written rather than through syn's literal parser,
/// which took a measurable share of the generator's time on large sets.
pub(crate) fn string_value(literal: &proc_macro2::Literal) -> Option<String> {
    let text = literal.to_string();
    if let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'))
        && !inner.contains(['\\', '"'])
    {
        return Some(inner.to_string());
    }
    match syn::Lit::new(literal.clone()) {
        syn::Lit::Str(string) => Some(string.value()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::*;

    #[test]
    fn syntax_built_by_hand_is_the_parsed_syntax() {
        // The generated file is printed from the tree: print both trees.
        let mut built: syn::File = syn::parse_quote! {
            pub struct T {
                pub a: ::std::vec::Vec<T>,
            }
        };
        let Item::Struct(item) = &mut built.items[0] else {
            unreachable!()
        };
        let field = item.fields.iter_mut().next().expect("a field");
        field
            .attrs
            .push(serde_attribute(quote::quote!(rename = "a b", default)));
        field.ty = std_option_of(field.ty.clone());
        let parsed: syn::File = syn::parse_quote! {
            pub struct T {
                #[serde(rename = "a b", default)]
                pub a: ::std::option::Option<::std::vec::Vec<T>>,
            }
        };
        assert_eq!(
            prettyplease::unparse(&built),
            prettyplease::unparse(&parsed)
        );
        assert_eq!(
            built.to_token_stream().to_string(),
            parsed.to_token_stream().to_string()
        );
    }

    #[test]
    fn colliding_fields_get_numbered_identifiers_and_keep_their_json_names() {
        let mut file: syn::File = syn::parse_quote! {
            pub struct T {
                #[serde(rename = "foo-bar")]
                pub foo_bar: i64,
                pub foo_bar: String,
                #[serde(rename = "foo\"bar")]
                pub foo_bar: bool,
                pub foo_bar_2: u8,
                #[serde(rename = "@type")]
                pub type_: String,
                #[serde(flatten)]
                pub extra: Map,
                pub extra: i64,
            }
            impl ::std::default::Default for T {
                fn default() -> Self {
                    Self {
                        foo_bar: 1,
                        foo_bar: String::new(),
                        foo_bar: true,
                        foo_bar_2: 0,
                        type_: String::new(),
                        extra: Map::new(),
                        extra,
                    }
                }
            }
        };
        let renamed = distinct_fields(&mut file);
        assert_eq!(
            renamed,
            [
                ("T".into(), "extra".into(), "extra_2".into()),
                ("T".into(), "foo-bar".into(), "foo_bar_3".into()),
                ("T".into(), "foo\"bar".into(), "foo_bar_4".into()),
            ]
        );
        let code = file.to_token_stream().to_string();
        let expected: syn::File = syn::parse_quote! {
            pub struct T {
                #[serde(rename = "foo-bar")]
                pub foo_bar_3: i64,
                pub foo_bar: String,
                #[serde(rename = "foo\"bar")]
                pub foo_bar_4: bool,
                pub foo_bar_2: u8,
                #[serde(rename = "@type")]
                pub type_: String,
                #[serde(flatten)]
                pub extra: Map,
                #[serde(rename = "extra")]
                pub extra_2: i64,
            }
            impl ::std::default::Default for T {
                fn default() -> Self {
                    Self {
                        foo_bar_3: 1,
                        foo_bar: String::new(),
                        foo_bar_4: true,
                        foo_bar_2: 0,
                        type_: String::new(),
                        extra: Map::new(),
                        extra_2: extra,
                    }
                }
            }
        };
        assert_eq!(code, expected.to_token_stream().to_string());
    }

    #[test]
    fn struct_variants_are_renamed_too() {
        let mut file: syn::File = syn::parse_quote! {
            pub enum P {
                Object {
                    #[serde(rename = "a-b")]
                    a_b: i64,
                    #[serde(rename = "a\"b")]
                    a_b: i64,
                },
                NotObject(NotObject),
            }
            impl P {
                fn both(&self) -> i64 {
                    match self {
                        Self::Object { a_b: x, a_b: y } => x + y,
                        Self::NotObject(_) => 0,
                    }
                }
            }
        };
        let renamed = distinct_fields(&mut file);
        assert_eq!(
            renamed,
            [("P::Object".into(), "a\"b".into(), "a_b_2".into())]
        );
        let expected: syn::File = syn::parse_quote! {
            pub enum P {
                Object {
                    #[serde(rename = "a-b")]
                    a_b: i64,
                    #[serde(rename = "a\"b")]
                    a_b_2: i64,
                },
                NotObject(NotObject),
            }
            impl P {
                fn both(&self) -> i64 {
                    match self {
                        Self::Object { a_b: x, a_b_2: y } => x + y,
                        Self::NotObject(_) => 0,
                    }
                }
            }
        };
        assert_eq!(
            file.to_token_stream().to_string(),
            expected.to_token_stream().to_string()
        );
    }

    #[test]
    fn structs_without_collisions_are_left_alone() {
        let mut file: syn::File = syn::parse_quote! {
            pub struct T { pub a: i64, #[serde(rename = "a-b")] pub a_b: i64 }
        };
        let before = file.to_token_stream().to_string();
        assert!(distinct_fields(&mut file).is_empty());
        assert_eq!(file.to_token_stream().to_string(), before);
    }

    #[test]
    fn serde_options_are_read_in_order_up_to_the_first_that_is_not_plain() {
        let attr: syn::Attribute = syn::parse_quote! {
            #[serde(rename = "a\"b", default, skip_serializing_if = "::std::option::Option::is_none")]
        };
        assert_eq!(
            read_serde(&attr),
            Ok(vec![
                ("rename".into(), Some("a\"b".into())),
                ("default".into(), None),
                (
                    "skip_serializing_if".into(),
                    Some("::std::option::Option::is_none".into())
                ),
            ])
        );
        let attr: syn::Attribute = syn::parse_quote!(#[serde(crate = "x", flatten,)]);
        assert_eq!(
            read_serde(&attr),
            Ok(vec![
                ("crate".into(), Some("x".into())),
                ("flatten".into(), None)
            ])
        );
        for attr in [
            syn::parse_quote!(#[serde(default, rename(serialize = "a"), flatten)]),
            syn::parse_quote!(#[serde(default, rename = 1, flatten)]),
            syn::parse_quote!(#[serde(default, rename = "a" "b")]),
            syn::parse_quote!(#[serde(default, a::b)]),
        ] {
            let attr: syn::Attribute = attr;
            assert_eq!(read_serde(&attr), Err(vec![("default".into(), None)]));
        }
        // Interpolated tokens may stand in an invisible group.
        let value = TokenTree::Group(proc_macro2::Group::new(Delimiter::None, quote::quote!("v")));
        let attr: syn::Attribute = syn::parse_quote!(#[serde(rename = #value)]);
        assert_eq!(
            read_serde(&attr),
            Ok(vec![("rename".into(), Some("v".into()))])
        );
    }

    #[test]
    fn string_values_read_as_rust_reads_them() {
        let value = |tokens: &str| {
            let literal: proc_macro2::Literal = tokens.parse().unwrap();
            string_value(&literal)
        };
        assert_eq!(value(r#""foo-bar""#).as_deref(), Some("foo-bar"));
        assert_eq!(value(r#""""#).as_deref(), Some(""));
        assert_eq!(value(r#""a\"b\\c\u{e9}""#).as_deref(), Some("a\"b\\cé"));
        assert_eq!(value(r###"r#"a"b"#"###).as_deref(), Some("a\"b"));
        assert_eq!(value(r#"b"x""#), None);
        assert_eq!(value("1"), None);
    }

    #[test]
    fn json_names_and_flags_come_from_serde_attributes() {
        let field: syn::Field = syn::parse_quote! {
            #[serde(default)]
            #[serde(rename = "foo-bar", skip_serializing_if = "Option::is_none")]
            pub r#foo_bar: Option<i64>
        };
        let ident = field.ident.as_ref().unwrap();
        assert_eq!(json_name(&field.attrs, ident), "foo-bar");
        assert!(serde_flag(&field.attrs, "default"));
        assert!(serde_flag(&field.attrs, "skip_serializing_if"));
        assert!(!serde_flag(&field.attrs, "flatten"));
        assert_eq!(member_name(&field).as_deref(), Some("foo-bar"));
        let field: syn::Field = syn::parse_quote!(#[serde(flatten)] pub r#type: i64);
        assert_eq!(
            json_name(&field.attrs, field.ident.as_ref().unwrap()),
            "type"
        );
        assert_eq!(member_name(&field), None);
        let field: syn::Field = syn::parse_quote!(pub r#type: i64);
        assert_eq!(member_name(&field).as_deref(), Some("type"));
        let field: syn::Field = syn::parse_quote!(
            #[serde(rename = "x")]
            i64
        );
        assert_eq!(member_name(&field), None);
    }

    #[test]
    fn derived_names_are_the_last_segments() {
        let attr: syn::Attribute =
            syn::parse_quote!(#[derive(::serde::Deserialize, Clone, serde::Serialize)]);
        let names: Vec<String> = derived(&attr)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names, ["Deserialize", "Clone", "Serialize"]);
        assert!(derived(&syn::parse_quote!(#[serde(default)])).is_none());
    }
}
