//! Names for the variants typify can only number.
//!
//! typify names a union's variants after the branches' titles, `$ref`s or kinds, and numbers
//! all of them (`Variant0`, `Variant1`, ...) when two names are alike, as two object branches
//! without a `title` always are (both `Object`). A `match` on `Variant0 { email, .. }` says
//! nothing to its reader, and the numbers move when a branch is added. [`name_union_variants`]
//! names them after what tells them apart, in the generated code.

use std::collections::{BTreeMap, BTreeSet};

use quote::{format_ident, quote};
use syn::visit_mut::{self, VisitMut};
use syn::{Fields, Item, Type};

use crate::fields::{json_name, member_name, serde_flag};
use crate::names::distinct;

/// Renames the numbered variants of every untagged enum of `file` ([`variant_names`]), in
/// the enum's own `impl`s too (typify's `From` for each newtype variant), and the types typify
/// named after them. An enum whose variants another item names keeps its numbers.
pub(crate) fn name_union_variants(file: &mut syn::File) {
    let tags = one_value_enums(file);
    let planned: Vec<(usize, Vec<String>)> = file
        .items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| match item {
            Item::Enum(union) => Some((i, variant_names(union, &tags)?)),
            _ => None,
        })
        .collect();
    // Enum name -> numbered variant name -> new name. To begin with, the variants typify named
    // itself (tagged enums too): types named after such a variant by its number
    // (`{Enum}Variant1{Member}`, see `normalize::name_members_apart`) take its name.
    let mut renames: BTreeMap<String, BTreeMap<String, String>> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Enum(union) => Some(union),
            _ => None,
        })
        .map(|union| {
            let named = union.variants.iter().enumerate().filter_map(|(i, v)| {
                let numbered = format!("Variant{i}");
                (v.ident != numbered).then(|| (numbered, v.ident.to_string()))
            });
            (union.ident.to_string(), named.collect())
        })
        .collect();
    if planned.is_empty() {
        rename_variant_types(file, &renames);
        return;
    }
    let texts: Vec<String> = file
        .items
        .iter()
        .map(|item| quote!(#item).to_string())
        .collect();
    // (index, type) of every `impl` block for a plain type name.
    let impls_of: BTreeSet<(usize, String)> = file
        .items
        .iter()
        .enumerate()
        .filter_map(|(j, item)| match item {
            Item::Impl(block) => Some((j, impl_self(block)?)),
            _ => None,
        })
        .collect();
    for (i, names) in planned {
        let Item::Enum(union) = &mut file.items[i] else {
            unreachable!("planned for an enum");
        };
        let enum_name = union.ident.to_string();
        let named_elsewhere = texts.iter().enumerate().any(|(j, text)| {
            j != i
                && !impls_of.contains(&(j, enum_name.clone()))
                && union
                    .variants
                    .iter()
                    .any(|v| names_variant(text, &enum_name, &v.ident.to_string()))
        });
        if named_elsewhere {
            continue;
        }
        let mut map = BTreeMap::new();
        for (variant, name) in union.variants.iter_mut().zip(names) {
            map.insert(variant.ident.to_string(), name.clone());
            variant.ident = format_ident!("{name}");
        }
        renames.insert(enum_name, map);
    }
    for item in &mut file.items {
        if let Item::Impl(block) = item
            && let Some(names) = impl_self(block).and_then(|name| renames.get(&name))
        {
            Renamer(names).visit_item_impl_mut(block);
        }
    }
    rename_variant_types(file, &renames);
}

/// The enums of `file` with a single unit variant (what a `const` string becomes): their name
/// and that value as JSON writes it.
fn one_value_enums(file: &syn::File) -> BTreeMap<String, String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            Item::Enum(e) => match e.variants.iter().collect::<Vec<_>>()[..] {
                [only] if matches!(only.fields, Fields::Unit) => {
                    Some((e.ident.to_string(), json_name(&only.attrs, &only.ident)))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// New names for the variants of an untagged enum that typify could only number
/// (`Variant0`, `Variant1`, ...: two object branches without a title are both `Object` to it,
/// and a tagged union stays untagged where a variant's member may be `null`, see
/// `schema::marked_branches_stay_structs`). Where every variant is a struct that requires one
/// member, each with a value of its own (a tag: `{"kind": {"const": "circle"}, ...}`), they
/// are named after that value (`Circle`), as typify names a tagged enum's variants. Otherwise
/// a struct variant is named after the member that tells it apart, the first it requires that
/// no other variant declares, or else the first it declares alone (`{email}` and `{phone}`
/// become `Email` and `Phone`), as typify itself names a variant holding one required member
/// after it; the other variants by the kind of value they hold, as typify names them
/// (`Number`, `String`, `NotObject`, ...). A union with one struct names it `Object`, the
/// others by their kinds. `None` unless the names come out distinct.
/// `tags`: [`one_value_enums`].
fn variant_names(union: &syn::ItemEnum, tags: &BTreeMap<String, String>) -> Option<Vec<String>> {
    let numbered = union
        .variants
        .iter()
        .enumerate()
        .all(|(i, v)| v.ident == format!("Variant{i}"));
    let structs = union
        .variants
        .iter()
        .filter(|v| matches!(v.fields, Fields::Named(_)))
        .count();
    if !numbered || !serde_flag(&union.attrs, "untagged") {
        return None;
    }
    // One struct among values of other kinds ("a filter object, or anything but an object"):
    // the struct is the `Object`, as typify names an object beside other kinds.
    if structs == 1 && union.variants.len() > 1 {
        // Not beside a union typify named after a numbered variant (`{Enum}Variant0`).
        let own = union.ident.to_string();
        let names: Vec<String> = union
            .variants
            .iter()
            .map(|v| match v.fields {
                Fields::Named(_) => Some("Object".to_string()),
                _ => kind_name(&v.fields).filter(|name| !name.starts_with(&own)),
            })
            .collect::<Option<_>>()?;
        return distinct(&names).then_some(names);
    }
    if structs < 2 {
        return None;
    }
    let fields: Vec<Vec<(String, bool)>> = union
        .variants
        .iter()
        .map(|v| {
            v.fields
                .iter()
                .filter_map(|f| {
                    let required = crate::optional::option_inner(&f.ty).is_none();
                    Some((member_name(f)?, required))
                })
                .collect()
        })
        .collect();
    if let Some(names) = tag_names(union, tags) {
        return Some(names);
    }
    let mut names = Vec::new();
    for (i, (variant, own)) in union.variants.iter().zip(&fields).enumerate() {
        if !matches!(variant.fields, Fields::Named(_)) {
            names.push(kind_name(&variant.fields)?);
            continue;
        }
        let alone = |(name, _): &&(String, bool)| {
            fields
                .iter()
                .enumerate()
                .all(|(j, other)| j == i || other.iter().all(|(n, _)| n != name))
        };
        let required = own.iter().filter(|(_, required)| *required).find(alone);
        let (name, _) = required.or_else(|| own.iter().find(alone))?;
        names.push(crate::names::pascal(name));
    }
    distinct(&names).then_some(names)
}

/// The variants of `union` named after the value of a tag (see [`variant_names`]): the first
/// member every variant requires with a one-value enum ([`one_value_enums`]), where the values
/// differ from variant to variant.
fn tag_names(union: &syn::ItemEnum, tags: &BTreeMap<String, String>) -> Option<Vec<String>> {
    // Per variant: required member -> the tag value its type holds.
    let tagged: Vec<BTreeMap<String, &String>> = union
        .variants
        .iter()
        .map(|v| {
            let Fields::Named(named) = &v.fields else {
                return None;
            };
            Some(
                named
                    .named
                    .iter()
                    .filter_map(|f| {
                        let Type::Path(path) = &f.ty else { return None };
                        let value = tags.get(&path.path.segments.last()?.ident.to_string())?;
                        Some((json_name(&f.attrs, f.ident.as_ref()?), value))
                    })
                    .collect(),
            )
        })
        .collect::<Option<_>>()?;
    let (first, rest) = tagged.split_first()?;
    first.keys().find_map(|member| {
        let values: Vec<&String> = std::iter::once(first)
            .chain(rest)
            .map(|members| members.get(member).copied())
            .collect::<Option<_>>()?;
        let names: Vec<String> = values.iter().map(|v| crate::names::pascal(v)).collect();
        distinct(&names).then_some(names)
    })
}

/// The name typify gives a variant of one kind of value (`Number` for `f64`, `String`,
/// `Array`, ...), or the name of the type it holds (`NotObject`, a definition's type).
fn kind_name(fields: &Fields) -> Option<String> {
    let Fields::Unnamed(unnamed) = fields else {
        return matches!(fields, Fields::Unit).then(|| "Null".to_string());
    };
    let [field] = unnamed.unnamed.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let Type::Path(path) = &field.ty else {
        return None;
    };
    let last = path.path.segments.last()?.ident.to_string();
    let kind = match last.as_str() {
        "f64" | "f32" => "Number",
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" => "Integer",
        "NonZeroU64" | "NonZeroU32" | "NonZeroI64" => "Integer",
        "String" => "String",
        "bool" => "Boolean",
        "Vec" => "Array",
        "Box" | "Option" => return None,
        other => other,
    };
    Some(kind.to_string())
}

/// Renames the types typify named after a numbered variant (`{Enum}Variant0{Member}`, for an
/// inline object or enum in it) after the variant's new name (`renames`: enum name ->
/// numbered name -> new name), where no item of the file has that name yet.
fn rename_variant_types(
    file: &mut syn::File,
    renames: &BTreeMap<String, BTreeMap<String, String>>,
) {
    let taken: BTreeSet<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Struct(s) => Some(s.ident.to_string()),
            Item::Enum(e) => Some(e.ident.to_string()),
            Item::Type(t) => Some(t.ident.to_string()),
            Item::Mod(m) => Some(m.ident.to_string()),
            Item::Trait(t) => Some(t.ident.to_string()),
            _ => None,
        })
        .collect();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for (union, variants) in renames {
        for (old, new) in variants {
            let (old, new) = (format!("{union}{old}"), format!("{union}{new}"));
            for ty in &taken {
                let Some(rest) = ty.strip_prefix(&old) else {
                    continue;
                };
                // `Variant1` is not the start of `Variant10`.
                if rest.starts_with(|c: char| c.is_ascii_digit()) {
                    continue;
                }
                let renamed = format!("{new}{rest}");
                if !taken.contains(&renamed) && !names.values().any(|n| *n == renamed) {
                    names.insert(ty.clone(), renamed);
                }
            }
        }
    }
    if !names.is_empty() {
        Renamer(&names).visit_file_mut(file);
    }
}

/// Renames identifiers, and the `` `Name` `` typify writes as a type's doc comment.
struct Renamer<'a>(&'a BTreeMap<String, String>);

impl VisitMut for Renamer<'_> {
    fn visit_ident_mut(&mut self, ident: &mut proc_macro2::Ident) {
        if let Some(new) = self.0.get(&ident.to_string()) {
            *ident = proc_macro2::Ident::new(new, ident.span());
        }
    }

    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        if let syn::Meta::NameValue(doc) = &mut attr.meta
            && doc.path.is_ident("doc")
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &doc.value
            && let Some(new) = text
                .value()
                .strip_prefix('`')
                .and_then(|t| t.strip_suffix('`'))
                .and_then(|name| self.0.get(name))
        {
            let text = format!("`{new}`");
            doc.value = syn::parse_quote!(#text);
        }
        visit_mut::visit_attribute_mut(self, attr);
    }
}

/// The type an `impl` block is for, where it is a plain name.
fn impl_self(block: &syn::ItemImpl) -> Option<String> {
    match &*block.self_ty {
        Type::Path(path) if path.qself.is_none() && path.path.segments.len() == 1 => {
            Some(path.path.segments[0].ident.to_string())
        }
        _ => None,
    }
}

/// Whether the tokens `text` (as `quote` writes them, spaced) name `Enum::Variant`, as a
/// path of their own (not the end of a longer name).
fn names_variant(text: &str, enum_name: &str, variant: &str) -> bool {
    let path = format!("{enum_name} :: {variant}");
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(&path)
        .any(|(at, _)| !text[..at].ends_with(ident) && !text[at + path.len()..].starts_with(ident))
}

#[cfg(test)]
mod tests {
    use proc_macro2::TokenStream;

    use super::*;

    fn run(source: TokenStream) -> String {
        let mut file: syn::File = syn::parse2(source).unwrap();
        name_union_variants(&mut file);
        prettyplease::unparse(&file)
    }

    #[test]
    fn numbered_struct_variants_are_named_after_the_member_that_tells_them_apart() {
        let out = run(quote! {
            ///`ContactVariant1Kind`
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub enum ContactVariant1Kind { Home, Work }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Contact {
                Variant0 { id: String, email: String },
                Variant1 { id: String, phone: Option<String>, kind: ContactVariant1Kind },
            }
            impl From<&ContactVariant1Kind> for ContactVariant1Kind {
                fn from(value: &ContactVariant1Kind) -> Self { value.clone() }
            }
        });
        let flat: String = out.split_whitespace().collect();
        // `phone` is optional, `kind` required: the required member names the variant.
        assert!(
            flat.contains("pubenumContact{Email{id:String,email:String},Kind{"),
            "{out}"
        );
        assert!(flat.contains("///`ContactKindKind`"), "{out}");
        assert!(
            flat.contains("implFrom<&ContactKindKind>forContactKindKind"),
            "{out}"
        );
        assert!(!out.contains("Variant1Kind"), "{out}");
    }

    #[test]
    fn struct_variants_with_a_tag_are_named_after_its_values() {
        // What a tagged union typify leaves untagged looks like (a variant's member may be
        // `null`): each variant requires `kind`, a one-value enum of its own.
        let out = run(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub enum ShapeVariant0Kind { #[serde(rename = "circle")] Circle }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub enum ShapeVariant1Kind { #[serde(rename = "unit-square")] UnitSquare }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Shape {
                Variant0 { kind: ShapeVariant0Kind, radius: Option<Option<f64>> },
                Variant1 { kind: ShapeVariant1Kind, label: String },
            }
        });
        let flat: String = out.split_whitespace().collect();
        assert!(
            flat.contains("pubenumShape{Circle{kind:ShapeCircleKind,")
                && flat.contains("UnitSquare{kind:ShapeUnitSquareKind,label:String}"),
            "{out}"
        );
        // Two variants with one value, or a variant without the member: named as before.
        let out = run(quote! {
            pub enum AVariant0Kind { #[serde(rename = "x")] X }
            pub enum AVariant1Kind { #[serde(rename = "x")] X }
            #[serde(untagged)]
            pub enum A { Variant0 { kind: AVariant0Kind, b: String }, Variant1 { kind: AVariant1Kind, c: String } }
            #[serde(untagged)]
            pub enum B { Variant0 { kind: AVariant0Kind, b: String }, Variant1 { c: String } }
        });
        let flat: String = out.split_whitespace().collect();
        assert!(
            flat.contains("pubenumA{B{") && flat.contains("pubenumB{Kind{"),
            "{out}"
        );
    }

    #[test]
    fn other_variants_are_named_by_kind_and_the_enums_own_impls_follow() {
        let out = run(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Expr {
                Variant0(f64),
                Variant1 { args: Vec<Expr>, op: String },
                Variant2 { scope: Option<String>, var: String },
                Variant3(NotObject),
            }
            impl From<f64> for Expr {
                fn from(value: f64) -> Self { Self::Variant0(value) }
            }
        });
        let flat: String = out.split_whitespace().collect();
        assert!(flat.contains("pubenumExpr{Number(f64),Args{"), "{out}");
        assert!(
            flat.contains("Var{scope:Option<String>,var:String},NotObject(NotObject),}"),
            "{out}"
        );
        assert!(flat.contains("Self::Number(value)"), "{out}");
    }

    #[test]
    fn variants_named_elsewhere_or_not_told_apart_keep_their_numbers() {
        let source = quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Subset {
                Variant0 { name: String },
                Variant1 { name: String, email: Option<String> },
            }
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Named { Variant0 { a: String }, Variant1 { b: String } }
            pub fn named() -> Named { Named::Variant0 { a: String::new() } }
        };
        let out = run(source);
        let flat: String = out.split_whitespace().collect();
        assert!(flat.contains("pubenumSubset{Variant0{"), "{out}");
        assert!(flat.contains("pubenumNamed{Variant0{"), "{out}");
    }

    #[test]
    fn an_enum_whose_variants_hold_another_numbered_enum_names_both() {
        // `Outer` mentions `Inner` and a `Variant0` of its own, which is no variant of `Inner`.
        let out = run(quote! {
            #[serde(untagged)]
            pub enum Outer { Variant0(Inner), Variant1 { id: String }, Variant2 { key: String } }
            #[serde(untagged)]
            pub enum Inner { Variant0 { a: String }, Variant1 { b: String } }
        });
        let flat: String = out.split_whitespace().collect();
        assert!(
            flat.contains("pubenumOuter{Inner(Inner),Id{id:String},Key{key:String},}"),
            "{out}"
        );
        assert!(
            flat.contains("pubenumInner{A{a:String},B{b:String},}"),
            "{out}"
        );
    }
}
