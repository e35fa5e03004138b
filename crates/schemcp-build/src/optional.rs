//! Optional members that keep what was sent.
//!
//! typify gives an optional array or map member the type `Vec<T>` / `BTreeMap<K, V>` with
//! `skip_serializing_if = "...::is_empty"`, so `{"tags": []}` reads as `{}` and is sent back
//! as `{}`; and it gives an optional member that may be `null` (`{}`, a `$ref` to one) the type
//! `Option<Value>`, where serde reads an explicit `null` as absent. Both drop a member of a
//! valid value. Here such members become `Option<Vec<T>>` / `Option<BTreeMap<K, V>>`, skipped
//! only when absent, and `Option<Value>` members read `null` as `Some(Value::Null)` (through
//! the runtime's `present`). An optional member whose schema allows `null` reaches typify
//! marked and required ([`crate::schema::mark_nullable_optionals`]), so its type holds `null`;
//! here it gets the `Option` for absence back: `Option<Option<T>>`, `null` being `Some(None)`.

use std::collections::{BTreeMap, BTreeSet};

use quote::quote;
use syn::{Field, GenericArgument, PathArguments, Type};

use crate::fields::{SerdeOption, read_serde, segment_names, serde_attribute, std_option_of};
use crate::other_kinds::is_other_kinds;
use crate::schema::NULLABLE_OPTIONAL;

/// Rewrites the optional members of every struct (and struct variant) in typify's output (before its paths are
/// pointed at the runtime's re-exports); returns the fields it wrapped, for
/// [`crate::initializers::mend_defaults`].
pub(crate) fn keep_optional_members(file: &mut syn::File) -> Wrapped {
    // Aliases and transparent newtypes of a type that holds `null` hold it too, at any depth.
    let mut value_aliases = BTreeSet::new();
    loop {
        let found: BTreeSet<String> = file
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Type(alias) if holds_null(&alias.ty, &value_aliases) => {
                    Some(alias.ident.to_string())
                }
                syn::Item::Struct(newtype)
                    if is_transparent(&newtype.attrs)
                        && newtype.fields.len() == 1
                        && newtype
                            .fields
                            .iter()
                            .all(|f| holds_null(&f.ty, &value_aliases)) =>
                {
                    Some(newtype.ident.to_string())
                }
                _ => None,
            })
            .collect();
        if found.len() == value_aliases.len() {
            break;
        }
        value_aliases = found;
    }
    // Owner (`Struct`, or `Enum::Variant`) -> the fields now wrapped in an `Option`.
    let mut wrapped: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut keep = |owner: String, field: &mut Field| {
        if keep_member(field, &value_aliases)
            && let Some(ident) = &field.ident
        {
            wrapped.entry(owner).or_default().insert(ident.to_string());
        }
    };
    for item in &mut file.items {
        match item {
            syn::Item::Struct(item) => {
                let owner = item.ident.to_string();
                for field in item.fields.iter_mut() {
                    keep(owner.clone(), field);
                }
            }
            // typify inlines an object branch of an untagged enum as a struct variant.
            syn::Item::Enum(item) => {
                for variant in item.variants.iter_mut() {
                    let owner = format!("{}::{}", item.ident, variant.ident);
                    for field in variant.fields.iter_mut() {
                        keep(owner.clone(), field);
                    }
                }
            }
            _ => {}
        }
    }
    wrapped
}

/// Owner (`Struct`, or `Enum::Variant`) -> the fields [`keep_optional_members`] wrapped in an
/// `Option`.
pub(crate) type Wrapped = BTreeMap<String, BTreeSet<String>>;

/// Every option of every `serde` attribute in `attrs`, in order; `None` if one is not a plain
/// option.
pub(crate) fn serde_options_of(attrs: &[syn::Attribute]) -> Option<Vec<SerdeOption>> {
    let mut options = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        options.extend(read_serde(attr).ok()?);
    }
    Some(options)
}

/// The index of a field's `serde` attribute and its options, in order.
fn serde_options(field: &Field) -> Option<(usize, Vec<SerdeOption>)> {
    let (index, attr) = field
        .attrs
        .iter()
        .enumerate()
        .find(|(_, a)| a.path().is_ident("serde"))?;
    Some((index, read_serde(attr).ok()?))
}

/// Rewrites one field; whether its type was wrapped in an `Option`.
fn keep_member(field: &mut Field, value_aliases: &BTreeSet<String>) -> bool {
    let Some((index, options)) = serde_options(field) else {
        return false;
    };
    let value = |name: &str| {
        options
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    };
    let has = |name: &str| options.iter().any(|(n, _)| n == name);
    let skip = value("skip_serializing_if").map(|v| v.replace(' ', ""));
    let mut rename = value("rename").map(str::to_string);
    let boxed = boxed_option(&field.ty).cloned();
    // (wrap the type in an `Option`, read a present `null` as `Some`)
    let (wrap, present) = match rename
        .as_deref()
        .and_then(|r| r.strip_suffix(NULLABLE_OPTIONAL))
    {
        // Made required so that its type holds `null` (`schema::mark_nullable_optionals`);
        // absent is the `Option` around that.
        Some(name) => {
            let name = name.to_string();
            let as_ident = field.ident.as_ref().is_some_and(|ident| *ident == name);
            rename = (!as_ident).then_some(name);
            (true, true)
        }
        None if has("flatten") || has("deserialize_with") || has("with") => return false,
        // typify breaks a cycle through an optional member by boxing its `Option<T>` whole,
        // and writes `default` without `skip_serializing_if`: an absent member went out as
        // `null`, which its schema refuses.
        None if has("default") && skip.is_none() && boxed.is_some() => {
            let inner = boxed.as_ref().expect("matched");
            field.ty = syn::parse_quote!(::std::option::Option<::std::boxed::Box<#inner>>);
            (false, holds_null(inner, value_aliases))
        }
        None if has("default")
            && skip
                .as_deref()
                .is_some_and(|s| s.ends_with("Vec::is_empty") || s.ends_with("Map::is_empty")) =>
        {
            (true, false)
        }
        None if !has("default")
            && skip.as_deref() == Some("::std::option::Option::is_none")
            && option_inner(&field.ty).is_some_and(|inner| holds_null(inner, value_aliases)) =>
        {
            (false, true)
        }
        None => return false,
    };
    if wrap {
        let ty = std::mem::replace(&mut field.ty, Type::Verbatim(Default::default()));
        field.ty = std_option_of(ty);
    }
    let rename = rename.map(|name| quote!(rename = #name,));
    let present =
        present.then(|| quote!(deserialize_with = "::schemcp_runtime::__private::present",));
    field.attrs[index] = serde_attribute(quote! {
        #rename
        default,
        #present
        skip_serializing_if = "::std::option::Option::is_none"
    });
    wrap
}

fn is_transparent(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("serde")
            && read_serde(attr).is_ok_and(
                |options| matches!(options.as_slice(), [(name, None)] if name == "transparent"),
            )
    })
}

/// `T` of `Box<Option<T>>`.
fn boxed_option(ty: &Type) -> Option<&Type> {
    option_inner(generic_inner(ty, "Box")?)
}

/// `T` of `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    generic_inner(ty, "Option")
}

/// `T` of `Wrapper<T>` (by the last segment's name).
fn generic_inner<'a>(ty: &'a Type, wrapper: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.first()? {
        GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

/// Whether `ty` reads `null` as a value of its own: `serde_json::Value`, an alias of it, or the
/// runtime's "any value but one kind" types.
fn holds_null(ty: &Type, value_aliases: &BTreeSet<String>) -> bool {
    let Type::Path(path) = ty else { return false };
    match segment_names(&path.path).as_slice() {
        [.., a, b] if a == "serde_json" && b == "Value" => true,
        [.., last] if is_other_kinds(last) => true,
        [only] => value_aliases.contains(only),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(code: proc_macro2::TokenStream) -> String {
        let mut file: syn::File = syn::parse2(code).unwrap();
        keep_optional_members(&mut file);
        prettyplease::unparse(&file)
    }

    #[test]
    fn empty_collections_and_null_are_kept() {
        let code = rewritten(quote! {
            pub type Any = ::serde_json::Value;
            #[serde(transparent)]
            pub struct Wrapped(pub Any);
            pub struct Input {
                #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
                pub tags: ::std::vec::Vec<::std::string::String>,
                #[serde(rename = "la-bels", default, skip_serializing_if = ":: std :: collections :: BTreeMap::is_empty")]
                pub la_bels: ::std::collections::BTreeMap<::std::string::String, i64>,
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub anything: ::std::option::Option<::serde_json::Value>,
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub any: ::std::option::Option<Any>,
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub wrapped: ::std::option::Option<Wrapped>,
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub name: ::std::option::Option<::std::string::String>,
                #[serde(flatten)]
                pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                #[serde(default = "defaults::input_days")]
                pub days: ::std::vec::Vec<i64>,
            }
        });
        let expected = quote! {
            pub type Any = ::serde_json::Value;
            #[serde(transparent)]
            pub struct Wrapped(pub Any);
            pub struct Input {
                #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                pub tags: ::std::option::Option<::std::vec::Vec<::std::string::String>>,
                #[serde(rename = "la-bels", default, skip_serializing_if = "::std::option::Option::is_none")]
                pub la_bels: ::std::option::Option<::std::collections::BTreeMap<::std::string::String, i64>>,
                #[serde(default, deserialize_with = "::schemcp_runtime::__private::present", skip_serializing_if = "::std::option::Option::is_none")]
                pub anything: ::std::option::Option<::serde_json::Value>,
                #[serde(default, deserialize_with = "::schemcp_runtime::__private::present", skip_serializing_if = "::std::option::Option::is_none")]
                pub any: ::std::option::Option<Any>,
                #[serde(default, deserialize_with = "::schemcp_runtime::__private::present", skip_serializing_if = "::std::option::Option::is_none")]
                pub wrapped: ::std::option::Option<Wrapped>,
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub name: ::std::option::Option<::std::string::String>,
                #[serde(flatten)]
                pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                #[serde(default = "defaults::input_days")]
                pub days: ::std::vec::Vec<i64>,
            }
        };
        assert_eq!(code, prettyplease::unparse(&syn::parse2(expected).unwrap()));
    }

    #[test]
    fn a_boxed_option_is_an_option_of_a_box() {
        // typify boxes a cycle through an optional member where it enters the cycle, around the
        // `Option`, and writes `default` alone: `None` went out as `"next": null`.
        let code = rewritten(quote! {
            pub struct Node {
                #[serde(default)]
                pub next: ::std::boxed::Box<::std::option::Option<Node>>,
            }
        });
        let expected = quote! {
            pub struct Node {
                #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                pub next: ::std::option::Option<::std::boxed::Box<Node>>,
            }
        };
        assert_eq!(code, prettyplease::unparse(&syn::parse2(expected).unwrap()));
    }
}
