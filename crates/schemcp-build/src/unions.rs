//! Untagged unions of objects read by the variant that declares most of the value's members.
//!
//! typify makes a `oneOf`/`anyOf` of objects an `#[serde(untagged)]` enum, which serde reads
//! with the first variant that accepts the value. An object that allows members it does not
//! declare accepts the members of its siblings too, so for pydantic's `Union[Cat, Dog]` a
//! `Dog` (`{"name": "rex", "barks": 3}`) was read as a `Cat` named `rex`, and `barks`, which
//! the schema declares, was dropped. [`best_fit_unions`] gives such enums a `Deserialize` that
//! tries the variants in order of how many of the value's members each declares
//! (`schemcp_runtime::unions::best_fit`), reading no struct from an array
//! (`schemcp_runtime::unions::Strict`); serialization stays serde's derive.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::{Fields, GenericArgument, Item, PathArguments, Type};

use crate::fields::{derive_paths, member_name, serde_flag};

/// Gives every untagged enum of `file` that holds a struct, or another such enum, a
/// `Deserialize` by best fit in place of the derived one, placed right after the enum. Works
/// on typify's output before its paths are pointed at the runtime's re-exports.
pub(crate) fn best_fit_unions(file: &mut syn::File) {
    let mut structs = struct_members(file);
    add_unions_of_structs(file, &mut structs);
    let items = std::mem::take(&mut file.items);
    for mut item in items {
        let by_fit = match &mut item {
            Item::Enum(union) => best_fit(union, &structs),
            _ => None,
        };
        file.items.push(item);
        file.items.extend(by_fit);
    }
}

/// The JSON names of the members an object declares.
type Declared = BTreeSet<String>;

/// The `Deserialize` by best fit for `union`, with serde's derive dropped from it, if it needs
/// one: where a variant holds a struct. serde's derive reads the first variant that fits,
/// which for objects that allow other members is not the one that declares them, and it
/// reads a struct from an array too (its members in order), so a variant holding an object
/// member read `{"v": [1]}` meant for a sibling whose `v` is an array as `{"v": {"x": 1}}`.
/// Unions of scalars, arrays of scalars and the like keep serde's derive.
fn best_fit(union: &mut syn::ItemEnum, structs: &BTreeMap<String, Declared>) -> Option<Item> {
    if !read_by_fit(union, structs) {
        return None;
    }
    let deny_unknown = serde_flag(&union.attrs, "deny_unknown_fields");
    let declared: Vec<Declared> = union
        .variants
        .iter()
        .map(|variant| variant_members(&variant.fields, structs))
        .collect();
    if !drop_derive(&mut union.attrs, "Deserialize") {
        return None;
    }
    Some(deserialize_by_fit(union, deny_unknown, &declared))
}

/// Whether `union` is one that [`best_fit`] reads: untagged, without serde options on its
/// variants, and with a variant that holds a struct (or a union that does).
fn read_by_fit(union: &syn::ItemEnum, structs: &BTreeMap<String, Declared>) -> bool {
    union.generics.params.is_empty()
        && serde_flag(&union.attrs, "untagged")
        // A variant with serde options of its own reads differently from its shadow.
        && !union.variants.iter().any(|v| has_serde(&v.attrs))
        && union
            .variants
            .iter()
            .any(|v| matches!(v.fields, Fields::Named(_)) || mentions_struct(&v.fields, structs))
}

/// Adds to `structs` every union [`best_fit`] reads, as declaring what any of its variants
/// declares. A union of such unions (typify's `anyOf` beside a `oneOf`, one enum per
/// branch) is then read by best fit too: with serde's derive, its first variant took a
/// value its own best fit could only read by changing it (an explicit `null` read as an
/// absent member), though a later variant kept it.
fn add_unions_of_structs(file: &syn::File, structs: &mut BTreeMap<String, Declared>) {
    let unions: Vec<&syn::ItemEnum> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Enum(union) => Some(union),
            _ => None,
        })
        .collect();
    // Until nothing is added: a union may hold one declared after it.
    loop {
        let mut added = false;
        for union in &unions {
            let name = union.ident.to_string();
            if structs.contains_key(&name) || !read_by_fit(union, structs) {
                continue;
            }
            let declared = union
                .variants
                .iter()
                .flat_map(|variant| variant_members(&variant.fields, structs))
                .collect();
            structs.insert(name, declared);
            added = true;
        }
        if !added {
            return;
        }
    }
}

/// What each named struct of `file` declares, the members of structs it flattens included
/// (typify's `anyOf` structs flatten one per branch).
fn struct_members(file: &syn::File) -> BTreeMap<String, Declared> {
    let structs: BTreeMap<String, &syn::ItemStruct> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Struct(s) if s.generics.params.is_empty() => Some((s.ident.to_string(), s)),
            _ => None,
        })
        .collect();
    structs
        .keys()
        .map(|name| {
            let mut members = BTreeSet::new();
            collect(name, &structs, &mut members, &mut BTreeSet::new());
            (name.clone(), members)
        })
        .collect()
}

fn collect<'a>(
    name: &'a str,
    structs: &'a BTreeMap<String, &'a syn::ItemStruct>,
    members: &mut BTreeSet<String>,
    seen: &mut BTreeSet<&'a str>,
) {
    let Some(item) = structs.get(name) else {
        return;
    };
    let Fields::Named(fields) = &item.fields else {
        return;
    };
    if !seen.insert(name) {
        return;
    }
    for field in &fields.named {
        if let Some(name) = member_name(field) {
            members.insert(name);
        } else if let Some(inner) = named(&field.ty)
            && let Some((key, _)) = structs.get_key_value(inner.as_str())
        {
            collect(key, structs, members, seen);
        }
    }
}

/// What a variant declares: its own fields, or what the struct it wraps declares.
fn variant_members(fields: &Fields, structs: &BTreeMap<String, Declared>) -> Declared {
    match fields {
        Fields::Named(named) => named.named.iter().filter_map(member_name).collect(),
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => named(&unnamed.unnamed[0].ty)
            .and_then(|name| structs.get(&name).cloned())
            .unwrap_or_default(),
        _ => Declared::default(),
    }
}

/// The name of the type `ty` holds, through `Box` and `Option`.
fn named(ty: &Type) -> Option<String> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident == "Box" || last.ident == "Option" {
        let PathArguments::AngleBracketed(arguments) = &last.arguments else {
            return None;
        };
        return match arguments.args.first()? {
            GenericArgument::Type(inner) => named(inner),
            _ => None,
        };
    }
    (path.qself.is_none() && last.arguments.is_empty()).then(|| last.ident.to_string())
}

/// Whether a type in `fields` names one of `structs`, at any depth (`Vec<Point>`).
fn mentions_struct(fields: &Fields, structs: &BTreeMap<String, Declared>) -> bool {
    fields.iter().any(|field| {
        let mut found = false;
        let mut visit = |ident: &syn::Ident| found |= structs.contains_key(&ident.to_string());
        for_each_ident(&field.ty, &mut visit);
        found
    })
}

fn for_each_ident(ty: &Type, visit: &mut dyn FnMut(&syn::Ident)) {
    match ty {
        Type::Path(path) => {
            for segment in &path.path.segments {
                visit(&segment.ident);
                if let PathArguments::AngleBracketed(arguments) = &segment.arguments {
                    for argument in &arguments.args {
                        if let GenericArgument::Type(inner) = argument {
                            for_each_ident(inner, visit);
                        }
                    }
                }
            }
        }
        Type::Tuple(tuple) => tuple.elems.iter().for_each(|t| for_each_ident(t, visit)),
        Type::Array(array) => for_each_ident(&array.elem, visit),
        _ => {}
    }
}

fn has_flatten(fields: &Fields) -> bool {
    fields.iter().any(|f| serde_flag(&f.attrs, "flatten"))
}

fn has_serde(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("serde"))
}

/// Removes `name` from the derive lists in `attrs`; whether it was there.
fn drop_derive(attrs: &mut [syn::Attribute], name: &str) -> bool {
    let mut dropped = false;
    for attr in attrs.iter_mut() {
        let Some(paths) = derive_paths(attr) else {
            continue;
        };
        let kept: Punctuated<syn::Path, syn::Token![,]> = paths
            .iter()
            .filter(|p| p.segments.last().is_none_or(|s| s.ident != name))
            .cloned()
            .collect();
        if kept.len() < paths.len() {
            dropped = true;
            *attr = syn::parse_quote!(#[derive(#kept)]);
        }
    }
    dropped
}

/// `impl Deserialize for` the union, trying the variants in the order `best_fit` picks.
fn deserialize_by_fit(union: &syn::ItemEnum, deny_unknown: bool, declared: &[Declared]) -> Item {
    let ident = &union.ident;
    let name = ident.to_string();
    let (shadows, variants): (Vec<_>, Vec<_>) = union
        .variants
        .iter()
        .zip(declared)
        .enumerate()
        .map(|(i, (variant, declared))| read_variant(i, variant, deny_unknown, declared))
        .unzip();
    syn::parse_quote! {
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
            where
                D: ::serde::Deserializer<'de>,
            {
                #(#shadows)*
                let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                ::schemcp_runtime::unions::best_fit::<Self, D::Error>(&value, #name, &[#(#variants),*])
            }
        }
    }
}

/// The `(members, reader)` entry of one variant for `best_fit`, and the struct it is read
/// through (the variant's fields with their serde options), where it is not one type.
fn read_variant(
    i: usize,
    variant: &syn::Variant,
    deny_unknown: bool,
    declared: &Declared,
) -> (Option<TokenStream>, TokenStream) {
    let tag = &variant.ident;
    let members = declared.iter();
    let entry = |read: TokenStream| {
        quote! {
            (&[#(#members),*], |value: ::schemcp_runtime::unions::Strict<'_>| #read)
        }
    };
    // A variant around one type reads as that type, as serde's derive reads it.
    if let Fields::Unnamed(unnamed) = &variant.fields
        && unnamed.unnamed.len() == 1
        && unnamed.unnamed[0].attrs.is_empty()
    {
        let ty = &unnamed.unnamed[0].ty;
        let read = quote!(<#ty as ::serde::Deserialize>::deserialize(value).map(Self::#tag));
        return (None, entry(read));
    }
    let shadow = format_ident!("__Variant{i}");
    let (fields, build) = match &variant.fields {
        Fields::Named(named) => {
            let idents: Vec<_> = named.named.iter().map(|f| &f.ident).collect();
            (
                quote!(#named),
                quote!(|#shadow { #(#idents),* }| Self::#tag { #(#idents),* }),
            )
        }
        Fields::Unnamed(unnamed) => {
            let idents: Vec<_> = (0..unnamed.unnamed.len())
                .map(|i| format_ident!("__{i}"))
                .collect();
            (
                quote!(#unnamed;),
                quote!(|#shadow(#(#idents),*)| Self::#tag(#(#idents),*)),
            )
        }
        Fields::Unit => (quote!(;), quote!(|#shadow| Self::#tag)),
    };
    // serde applies the enum's `deny_unknown_fields` to its struct variants; typify sets it
    // when any variant is closed, and a variant with a flattened map is open.
    let deny = (deny_unknown
        && matches!(variant.fields, Fields::Named(_))
        && !has_flatten(&variant.fields))
    .then(|| quote!(#[serde(deny_unknown_fields)]));
    let shadow_struct = quote! {
        #[derive(::serde::Deserialize)]
        #deny
        struct #shadow #fields
    };
    let read = quote!(<#shadow as ::serde::Deserialize>::deserialize(value).map(#build));
    (Some(shadow_struct), entry(read))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: TokenStream) -> String {
        let mut file: syn::File = syn::parse2(source).unwrap();
        best_fit_unions(&mut file);
        prettyplease::unparse(&file)
    }

    #[test]
    fn unions_of_objects_with_different_members_read_by_best_fit() {
        let out = run(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
            pub struct Cat { pub name: String, #[serde(rename = "meow-count")] pub meows: Option<i64> }
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
            pub struct Dog { pub name: String, pub barks: i64 }
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
            #[serde(untagged)]
            pub enum Pet {
                Cat(Cat),
                Dog(Box<Dog>),
                Other { id: String, #[serde(flatten)] extra: ::serde_json::Map<String, ::serde_json::Value> },
                Nothing,
            }
        });
        // Compared without whitespace, so line breaks do not matter.
        let flat: String = out.split_whitespace().collect();
        let has = |code: &str| flat.contains(&code.split_whitespace().collect::<String>());
        assert!(
            has("#[derive(::serde::Serialize, Clone, Debug)] #[serde(untagged)] pub enum Pet"),
            "{out}"
        );
        assert!(has(r#"&["meow-count", "name"]"#), "{out}");
        assert!(has(r#"&["barks", "name"]"#), "{out}");
        assert!(has(r#"&["id"]"#), "{out}");
        assert!(
            has("<Box<Dog> as ::serde::Deserialize>::deserialize(value).map(Self::Dog)"),
            "{out}"
        );
        assert!(!has("__Variant1"), "{out}");
        assert!(
            has("|__Variant2 { id, extra }| Self::Other { id, extra }"),
            "{out}"
        );
        assert!(has("|__Variant3| Self::Nothing"), "{out}");
        assert!(has("unions::best_fit::<Self, D::Error"), "{out}");
        assert!(has(r#"(&value, "Pet","#), "{out}");
    }

    #[test]
    fn unions_of_unions_of_objects_are_read_by_best_fit_too() {
        // Declared before the unions it holds, as typify may order them.
        let out = run(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Outer { Variant0(Left), Variant1(Right) }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Left { A { a: i64, b: Option<i64> } }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Right { A { a: i64, c: ::serde_json::Value }, B(Wrapped) }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub struct Wrapped { pub d: String }
        });
        let flat: String = out.split_whitespace().collect();
        assert!(flat.contains(r#"(&value,"Outer",&[(&["a","b"],"#), "{out}");
        assert!(flat.contains(r#"(&["a","c","d"],"#), "{out}");
        assert!(
            flat.contains("<Leftas::serde::Deserialize>::deserialize(value).map(Self::Variant0)"),
            "{out}"
        );
    }

    #[test]
    fn struct_variants_keep_the_enums_refusal_of_other_members() {
        let out = run(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub struct Open { pub id: String }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged, deny_unknown_fields)]
            pub enum Mixed { A(Open), B { id: String, w: f64 } }
        });
        let flat: String = out.split_whitespace().collect();
        assert!(
            flat.contains("#[serde(deny_unknown_fields)]struct__Variant1{id:String,w:f64,}"),
            "{out}"
        );
    }

    #[test]
    fn struct_variants_with_a_map_are_open_under_the_enums_refusal() {
        // Even with one object shape, serde's derive would refuse every member of `A`.
        let out = run(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged, deny_unknown_fields)]
            pub enum Mixed {
                A { id: String, #[serde(flatten)] extra: ::serde_json::Map<String, ::serde_json::Value> },
                B { id: String },
            }
        });
        let flat: String = out.split_whitespace().collect();
        assert!(
            flat.contains("#[derive(::serde::Deserialize)]struct__Variant0{"),
            "{out}"
        );
        assert!(
            flat.contains("#[serde(deny_unknown_fields)]struct__Variant1{id:String,}"),
            "{out}"
        );
    }

    #[test]
    fn unions_without_structs_and_tagged_unions_keep_serde_derive() {
        let source = quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub struct Person { pub name: String }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Either { Count(i64), Name(String), Names(Vec<String>) }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(tag = "kind")]
            pub enum Tagged { A(Person), B { id: String } }
        };
        let file: syn::File = syn::parse2(source.clone()).unwrap();
        assert_eq!(run(source), prettyplease::unparse(&file));
    }

    #[test]
    fn unions_holding_structs_read_no_struct_from_an_array() {
        // One object shape, or closed variants: first fit would pick right, but serde's derive
        // reads `Person` from `["bob"]`, a value `NotObject` holds.
        let out = run(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub struct Person { pub name: String }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Named { Object(Person), NotObject(NotObject) }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Listed { People(Vec<Person>), Count(i64) }
        });
        for union in ["Named", "Listed"] {
            assert!(
                out.contains(&format!("impl<'de> ::serde::Deserialize<'de> for {union}")),
                "{out}"
            );
        }
        assert!(
            out.contains("::schemcp_runtime::unions::Strict<'_>"),
            "{out}"
        );
    }
}
