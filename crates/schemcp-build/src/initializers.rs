//! typify's default values, mended where they do not fit the final types.
//!
//! typify writes each `default` as Rust: a `Default` impl, or a function in `mod defaults` that
//! a field's `#[serde(default = "...")]` names, building structs field by field. Two things
//! there do not fit the types the generator finally emits:
//! - fields [`crate::optional`] wrapped in an `Option` (optional arrays and maps, members that
//!   may be `null`) are still given the bare value;
//! - a member the default object leaves out is written `Default::default()`, though the field
//!   has a default of its own (`NonZeroU64` has no `Default` at all, so that did not compile,
//!   and where it did, the value was not what reading the default object would give);
//! - an empty value of a newtype is written `Default::default()` too, and a newtype (around a
//!   `Vec`, say) has no `Default` (Mergify's `{"and": []}` did not compile): it is the
//!   newtype around the default of what it holds.

use std::collections::{BTreeMap, BTreeSet};

use quote::quote;
use syn::visit_mut::{self, VisitMut};
use syn::{Fields, Item, Type};

use crate::fields::{derive_paths, segment_names, vec_items};
use crate::optional::{Wrapped, serde_options_of};

/// Mends every default value in `file`; `wrapped` from
/// [`crate::optional::keep_optional_members`].
pub(crate) fn mend_defaults(file: &mut syn::File, wrapped: &Wrapped) {
    let mut own_defaults: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut field_types: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut note = |owner: String, fields: &Fields| {
        for field in fields {
            let Some(ident) = &field.ident else { continue };
            if let Type::Path(path) = &field.ty
                && let [name] = segment_names(&path.path).as_slice()
            {
                field_types
                    .entry(owner.clone())
                    .or_default()
                    .insert(ident.to_string(), name.clone());
            }
            let options = serde_options_of(&field.attrs).unwrap_or_default();
            if let Some((_, Some(function))) = options.iter().find(|(n, _)| n == "default") {
                own_defaults
                    .entry(owner.clone())
                    .or_default()
                    .insert(ident.to_string(), function.clone());
            }
        }
    };
    for item in &file.items {
        match item {
            Item::Struct(item) => note(item.ident.to_string(), &item.fields),
            Item::Enum(item) => {
                for variant in &item.variants {
                    note(
                        format!("{}::{}", item.ident, variant.ident),
                        &variant.fields,
                    );
                }
            }
            _ => {}
        }
    }
    let newtypes = newtypes_without_default(file);
    if wrapped.is_empty() && own_defaults.is_empty() && newtypes.is_empty() {
        return;
    }
    Initializers {
        wrapped,
        own_defaults: &own_defaults,
        field_types: &field_types,
        newtypes: &newtypes,
        self_type: None,
        in_defaults: false,
    }
    .visit_file_mut(file);
}

struct Initializers<'a> {
    wrapped: &'a Wrapped,
    /// Owner -> field -> the function its `#[serde(default = "...")]` names.
    own_defaults: &'a BTreeMap<String, BTreeMap<String, String>>,
    /// Owner -> field -> its type, where that is a plain name (`ListOfRuleConditions`).
    field_types: &'a BTreeMap<String, BTreeMap<String, String>>,
    /// Tuple structs of one field without `Default`.
    newtypes: &'a BTreeSet<String>,
    /// The type of the `impl` block being visited, for `Self { .. }`.
    self_type: Option<String>,
    /// Inside `mod defaults`, where the functions a field names are one module up.
    in_defaults: bool,
}

impl Initializers<'_> {
    /// The owner a struct expression builds: `Struct` or `Enum::Variant`.
    fn owner(&self, path: &syn::Path) -> Option<String> {
        Some(match segment_names(path).as_slice() {
            [.., last] if last == "Self" => self.self_type.clone()?,
            [.., owner, variant] if owner == "Self" => {
                format!("{}::{variant}", self.self_type.as_ref()?)
            }
            // `Enum::Variant`, where a module path (`super::Options`) is lower case.
            [.., owner, variant] if owner.starts_with(char::is_uppercase) => {
                format!("{owner}::{variant}")
            }
            [.., last] => last.clone(),
            [] => return None,
        })
    }
}

impl VisitMut for Initializers<'_> {
    /// typify writes an array default as `vec![..]`, whose items syn leaves as tokens: they
    /// are parsed, visited and written back.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        if let Some(mut items) = vec_items(mac) {
            for item in items.iter_mut() {
                self.visit_expr_mut(item);
            }
            mac.tokens = quote!(#items);
        }
    }

    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        let outer = self.in_defaults;
        self.in_defaults = module.ident == "defaults";
        visit_mut::visit_item_mod_mut(self, module);
        self.in_defaults = outer;
    }

    fn visit_item_impl_mut(&mut self, block: &mut syn::ItemImpl) {
        let outer = self.self_type.take();
        if let Type::Path(path) = &*block.self_ty {
            self.self_type = path.path.segments.last().map(|s| s.ident.to_string());
        }
        visit_mut::visit_item_impl_mut(self, block);
        self.self_type = outer;
    }

    fn visit_expr_struct_mut(&mut self, expr: &mut syn::ExprStruct) {
        visit_mut::visit_expr_struct_mut(self, expr);
        let Some(owner) = self.owner(&expr.path) else {
            return;
        };
        let wrapped = self.wrapped.get(&owner);
        let own_defaults = self.own_defaults.get(&owner);
        for field in expr.fields.iter_mut() {
            let syn::Member::Named(ident) = &field.member else {
                continue;
            };
            if field.colon_token.is_none() {
                continue;
            }
            let name = ident.to_string();
            if let Some(function) = own_defaults.and_then(|d| d.get(&name))
                && is_default_call(&field.expr)
            {
                // typify's paths are written from the module of the types.
                let function = if self.in_defaults {
                    format!("super::{function}")
                } else {
                    function.clone()
                };
                if let Ok(function) = syn::parse_str::<syn::ExprPath>(&function) {
                    field.expr = syn::parse_quote!(#function());
                }
                continue;
            }
            let newtype = self
                .field_types
                .get(&owner)
                .and_then(|types| types.get(&name))
                .filter(|ty| self.newtypes.contains(*ty));
            if let Some(newtype) = newtype
                && is_default_call(&field.expr)
            {
                let prefix = if self.in_defaults { "super::" } else { "" };
                if let Ok(path) = syn::parse_str::<syn::ExprPath>(&format!("{prefix}{newtype}")) {
                    field.expr = syn::parse_quote!(#path(::std::default::Default::default()));
                }
                continue;
            }
            if wrapped.is_some_and(|w| w.contains(&name)) && !leaves_absent(&field.expr) {
                let value = &field.expr;
                field.expr = syn::parse_quote!(::std::option::Option::Some(#value));
            }
        }
    }
}

/// The tuple structs of one field in `file` that neither derive nor implement `Default`.
fn newtypes_without_default(file: &syn::File) -> BTreeSet<String> {
    let implemented: BTreeSet<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Impl(block) => {
                let (trait_path, _) = block.trait_.as_ref()?;
                let Type::Path(ty) = &*block.self_ty else {
                    return None;
                };
                let names = segment_names(trait_path);
                (names.last()? == "Default").then(|| ty.path.segments.last())?
            }
            _ => None,
        })
        .map(|segment| segment.ident.to_string())
        .collect();
    file.items
        .iter()
        .filter_map(|item| match item {
            Item::Struct(item)
                if matches!(&item.fields, Fields::Unnamed(fields) if fields.unnamed.len() == 1)
                    && !item
                        .attrs
                        .iter()
                        .filter_map(derive_paths)
                        .flatten()
                        .any(|path| path.segments.last().is_some_and(|s| s.ident == "Default")) =>
            {
                Some(item.ident.to_string())
            }
            _ => None,
        })
        .filter(|name| !implemented.contains(name))
        .collect()
}

/// `Default::default()`.
fn is_default_call(expr: &syn::Expr) -> bool {
    let syn::Expr::Call(call) = expr else {
        return false;
    };
    let syn::Expr::Path(path) = &*call.func else {
        return false;
    };
    call.args.is_empty()
        && matches!(segment_names(&path.path).as_slice(), [.., owner, f] if owner == "Default" && f == "default")
}

/// `None` or `Default::default()`: an initializer that leaves a wrapped member absent.
fn leaves_absent(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Path(path) => path.path.segments.last().is_some_and(|s| s.ident == "None"),
        expr => is_default_call(expr),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optional::keep_optional_members;

    fn rewritten(code: proc_macro2::TokenStream) -> String {
        let mut file: syn::File = syn::parse2(code).unwrap();
        let wrapped = keep_optional_members(&mut file);
        mend_defaults(&mut file, &wrapped);
        prettyplease::unparse(&file)
    }

    #[test]
    fn default_values_of_wrapped_members_are_wrapped() {
        let code = rewritten(quote! {
            pub struct Options {
                #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
                pub tags: ::std::vec::Vec<::std::string::String>,
                #[serde(rename = "cursor\u{1}")]
                pub cursor: ::std::option::Option<::std::string::String>,
                #[serde(rename = "note\u{1}")]
                pub note: ::std::option::Option<::std::string::String>,
                #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
                pub rest: ::std::vec::Vec<i64>,
                pub limit: i64,
            }
            impl ::std::default::Default for Options {
                fn default() -> Self {
                    Self {
                        tags: vec!["a".to_string()],
                        cursor: ::std::option::Option::Some("x".to_string()),
                        note: ::std::option::Option::None,
                        rest: Default::default(),
                        limit: 3_i64,
                    }
                }
            }
            pub mod defaults {
                pub(super) fn t_options() -> super::Options {
                    super::Options { tags: vec![], cursor: None, note: None, rest: vec![1], limit: 1 }
                }
                pub(super) fn t_list() -> ::std::vec::Vec<super::Options> {
                    vec![super::Options { tags: vec![], cursor: None, note: None, rest: vec![2], limit: 2 }]
                }
            }
            pub enum Shape {
                Options {
                    #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")]
                    pub sides: ::std::vec::Vec<i64>,
                    pub tags: ::std::vec::Vec<i64>,
                },
            }
            impl ::std::default::Default for Shape {
                fn default() -> Self {
                    Self::Options { sides: vec![3], tags: vec![4] }
                }
            }
        });
        let expected = quote! {
            impl ::std::default::Default for Options {
                fn default() -> Self {
                    Self {
                        tags: ::std::option::Option::Some(vec!["a".to_string()]),
                        cursor: ::std::option::Option::Some(::std::option::Option::Some("x".to_string())),
                        note: ::std::option::Option::None,
                        rest: Default::default(),
                        limit: 3_i64,
                    }
                }
            }
            pub mod defaults {
                pub(super) fn t_options() -> super::Options {
                    super::Options {
                        tags: ::std::option::Option::Some(vec![]),
                        cursor: None,
                        note: None,
                        rest: ::std::option::Option::Some(vec![1]),
                        limit: 1,
                    }
                }
                pub(super) fn t_list() -> ::std::vec::Vec<super::Options> {
                    vec![
                        super::Options {
                            tags: ::std::option::Option::Some(vec![]),
                            cursor: None,
                            note: None,
                            rest: ::std::option::Option::Some(vec![2]),
                            limit: 2
                        }
                    ]
                }
            }
            pub enum Shape {
                Options {
                    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                    pub sides: ::std::option::Option<::std::vec::Vec<i64>>,
                    pub tags: ::std::vec::Vec<i64>,
                },
            }
            impl ::std::default::Default for Shape {
                fn default() -> Self {
                    Self::Options { sides: ::std::option::Option::Some(vec![3]), tags: vec![4] }
                }
            }
        };
        // prettyplease leaves a macro's tokens as they are spaced: compare without spaces.
        let squash = |text: &str| text.split_whitespace().collect::<String>();
        let expected = prettyplease::unparse(&syn::parse2(expected).unwrap());
        assert!(squash(&code).ends_with(&squash(&expected)), "{code}");
    }

    #[test]
    fn an_empty_newtype_is_the_newtype_around_an_empty_value() {
        let code = rewritten(quote! {
            pub struct Conditions(pub ::std::vec::Vec<::std::string::String>);
            #[derive(Default)]
            pub struct Names(pub ::std::vec::Vec<::std::string::String>);
            pub struct And {
                pub and: Conditions,
                pub names: Names,
            }
            pub mod defaults {
                pub(super) fn rule() -> ::std::vec::Vec<super::And> {
                    vec![super::And { and: Default::default(), names: Default::default() }]
                }
            }
        });
        let squash = |text: &str| text.split_whitespace().collect::<String>();
        assert!(
            squash(&code).contains(&squash(
                "super::And { and: super::Conditions(::std::default::Default::default()), \
                 names: Default::default() }"
            )),
            "{code}"
        );
    }

    #[test]
    fn a_member_left_out_of_a_default_gets_its_own_default() {
        let code = rewritten(quote! {
            pub struct Item {
                #[serde(default = "defaults::default_nzu64::<::std::num::NonZeroU64, 5>")]
                pub alpha: ::std::num::NonZeroU64,
                #[serde(default)]
                pub beta: bool,
            }
            impl ::std::default::Default for Holder {
                fn default() -> Self {
                    Self { items: vec![Item { alpha: Default::default(), beta: Default::default() }] }
                }
            }
            pub mod defaults {
                pub(super) fn holder_item() -> super::Item {
                    super::Item { alpha: Default::default(), beta: true }
                }
            }
        });
        let squash = |text: &str| text.split_whitespace().collect::<String>();
        let code = squash(&code);
        assert!(
            code.contains(&squash(
                "Item { alpha : defaults::default_nzu64::<::std::num::NonZeroU64, 5>(), \
                 beta : Default::default() }"
            )),
            "{code}"
        );
        assert!(
            code.contains(&squash(
                "super::Item { alpha: super::defaults::default_nzu64::<::std::num::NonZeroU64, 5>(), \
                 beta: true, }"
            )),
            "{code}"
        );
    }
}
