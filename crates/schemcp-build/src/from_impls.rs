//! typify writes `impl From<T> for Enum` for each newtype variant of an untagged enum. Two
//! variants can hold the same type: `{"anyOf": [{"type": "array", "items": {}}, {"type":
//! "array", "uniqueItems": true}]}` has two `Vec<Value>` variants, since neither keyword
//! beside `type` changes the Rust type, and the two impls of `From<Vec<Value>>` did not
//! compile. Neither impl is *the* conversion, so [`drop_ambiguous_from_impls`] drops both;
//! the variants stay (validation tells the branches apart).

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericArgument, Item, PathArguments};

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
}
