//! typify writes `impl From<T> for Enum` for each newtype variant of an untagged enum. Two
//! variants can hold the same type: `{"anyOf": [{"type": "array", "items": {}}, {"type":
//! "array", "uniqueItems": true}]}` has two `Vec<Value>` variants, since neither keyword
//! beside `type` changes the Rust type, and the two impls of `From<Vec<Value>>` did not
//! compile. Neither impl is *the* conversion, so [`drop_ambiguous_from_impls`] drops both;
//! the variants stay (validation tells the branches apart).
//!
//! typify also writes the impl for a variant that holds a tuple of one element (a fixed-length
//! `prefixItems` of one position, `Array((String,))`) as for one with a field per element:
//! `Self::Array(value.0)`, which did not compile; [`mend_one_tuple_from_impls`] passes the
//! tuple whole.

use std::collections::{HashMap, HashSet};

use quote::ToTokens;
use syn::visit_mut::{self, VisitMut};
use syn::{Expr, Fields, GenericArgument, Item, PathArguments, Type};

/// Removes every `impl From<T> for S` of `file` that is not the only one for that `T` and `S`.
pub(crate) fn drop_ambiguous_from_impls(file: &mut syn::File) {
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    for item in &file.items {
        if let Some(key) = from_impl(item) {
            *seen.entry(key).or_default() += 1;
        }
    }
    if seen.values().all(|&n| n == 1) {
        return;
    }
    file.items
        .retain(|item| from_impl(item).is_none_or(|key| seen[&key] == 1));
}

/// Rewrites `Self::V(value.0)` to `Self::V(value)` in every `impl From<(T,)> for S` whose
/// variant `V` of enum `S` holds the one-element tuple itself.
pub(crate) fn mend_one_tuple_from_impls(file: &mut syn::File) {
    let one_tuple = |ty: &Type| matches!(ty, Type::Tuple(tuple) if tuple.elems.len() == 1);
    // (enum, variant) of each variant whose one field is a one-element tuple.
    let mut holders: HashSet<(String, String)> = HashSet::new();
    for item in &file.items {
        let Item::Enum(item) = item else { continue };
        for variant in &item.variants {
            if let Fields::Unnamed(fields) = &variant.fields
                && let [field] = fields.unnamed.iter().collect::<Vec<_>>()[..]
                && one_tuple(&field.ty)
            {
                holders.insert((item.ident.to_string(), variant.ident.to_string()));
            }
        }
    }
    if holders.is_empty() {
        return;
    }
    struct Whole<'a> {
        holders: &'a HashSet<(String, String)>,
        enum_name: String,
    }
    impl VisitMut for Whole<'_> {
        fn visit_expr_call_mut(&mut self, call: &mut syn::ExprCall) {
            visit_mut::visit_expr_call_mut(self, call);
            let Expr::Path(path) = &*call.func else {
                return;
            };
            let segments: Vec<String> = path
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let [first, variant] = &segments[..] else {
                return;
            };
            if first != "Self"
                || !self
                    .holders
                    .contains(&(self.enum_name.clone(), variant.clone()))
            {
                return;
            }
            if let [Expr::Field(field)] = &mut call.args.iter_mut().collect::<Vec<_>>()[..]
                && matches!(&field.member, syn::Member::Unnamed(index) if index.index == 0)
            {
                let whole = (*field.base).clone();
                call.args[0] = whole;
            }
        }
    }
    for item in &mut file.items {
        let enum_name = match conversion_impl(item, "From") {
            Some((block, from)) if one_tuple(from) => block.self_ty.to_token_stream().to_string(),
            _ => continue,
        };
        let mut whole = Whole {
            holders: &holders,
            enum_name,
        };
        whole.visit_item_mut(item);
    }
}

/// `(S, T)` of an `impl From<T> for S`.
fn from_impl(item: &Item) -> Option<(String, String)> {
    let (block, from) = conversion_impl(item, "From")?;
    Some((
        block.self_ty.to_token_stream().to_string(),
        from.to_token_stream().to_string(),
    ))
}

/// The impl block and `T` of an `impl {conversion}<T> for S` (`From`, `TryFrom`).
pub(crate) fn conversion_impl<'i>(
    item: &'i Item,
    conversion: &str,
) -> Option<(&'i syn::ItemImpl, &'i syn::Type)> {
    let Item::Impl(block) = item else {
        return None;
    };
    let (path, _) = block.trait_.as_ref()?;
    let last = path.segments.last()?;
    if last.ident != conversion {
        return None;
    }
    let PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.iter().collect::<Vec<_>>()[..] {
        [GenericArgument::Type(from)] => Some((block, from)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_impls_of_one_conversion_go_and_the_others_stay() {
        let mut file: syn::File = syn::parse_quote! {
            pub enum Lists { Variant0(Vec<Value>), Variant1(Vec<Value>), Named(String) }
            impl ::std::convert::From<Vec<Value>> for Lists {
                fn from(value: Vec<Value>) -> Self { Self::Variant0(value) }
            }
            impl ::std::convert::From<Vec<Value>> for Lists {
                fn from(value: Vec<Value>) -> Self { Self::Variant1(value) }
            }
            impl ::std::convert::From<String> for Lists {
                fn from(value: String) -> Self { Self::Named(value) }
            }
            impl ::std::convert::From<Vec<Value>> for Other {
                fn from(value: Vec<Value>) -> Self { Self(value) }
            }
        };
        drop_ambiguous_from_impls(&mut file);
        let left: Vec<_> = file.items.iter().filter_map(from_impl).collect();
        assert_eq!(
            left,
            [
                ("Lists".to_string(), "String".to_string()),
                ("Other".to_string(), "Vec < Value >".to_string()),
            ]
        );
        assert_eq!(file.items.len(), 3, "the enum stays");
    }

    #[test]
    fn a_variant_holding_a_one_element_tuple_is_given_it_whole() {
        let mut file: syn::File = syn::parse_quote! {
            pub enum Either { Integer(i64), Array((String,)), Pair(String, i64) }
            impl ::std::convert::From<(String,)> for Either {
                fn from(value: (String,)) -> Self { Self::Array(value.0) }
            }
            impl ::std::convert::From<(String, i64)> for Either {
                fn from(value: (String, i64)) -> Self { Self::Pair(value.0, value.1) }
            }
        };
        mend_one_tuple_from_impls(&mut file);
        let expected: syn::File = syn::parse_quote! {
            pub enum Either { Integer(i64), Array((String,)), Pair(String, i64) }
            impl ::std::convert::From<(String,)> for Either {
                fn from(value: (String,)) -> Self { Self::Array(value) }
            }
            impl ::std::convert::From<(String, i64)> for Either {
                fn from(value: (String, i64)) -> Self { Self::Pair(value.0, value.1) }
            }
        };
        assert_eq!(
            file.to_token_stream().to_string(),
            expected.to_token_stream().to_string()
        );
    }
}
