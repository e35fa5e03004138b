//! Points typify's output at the runtime's re-exports, so a user's crate needs no direct
//! dependency on serde, serde_json, regress, chrono or uuid.

use proc_macro2::{Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::quote;
use syn::visit_mut::{self, VisitMut};

use crate::fields::{derived, serde_attribute};

/// Crates typify's output may name that the runtime re-exports under `__private`.
const REEXPORTED: [&str; 5] = ["serde", "serde_json", "regress", "chrono", "uuid"];
const PRIVATE: [&str; 2] = ["schemcp_runtime", "__private"];
const SERDE_CRATE: &str = "::schemcp_runtime::__private::serde";
/// What typify is told to write in front of the name of a crate registered with
/// `Builder::extern_crate`, so its paths are told apart from typify's own (`chrono::Utc`
/// from `x-rust-type` is the user's, not one to rewrite) and then written as the user's.
const EXTERN_MARK: &str = "__schemcp_extern__";

/// The name typify writes for the extern crate `name` (`serde-json` as `serde_json`).
pub(crate) fn extern_marked(name: &str) -> String {
    format!("{EXTERN_MARK}{}", name.replace('-', "_"))
}

/// Rewrites every re-exported crate path in `file` and tells serde's derives where serde lives.
pub(crate) fn rewrite_file(file: &mut syn::File) {
    Rewriter.visit_file_mut(file);
}

/// Rewrites the paths in a stand-alone type, e.g. a trait method's return type.
pub(crate) fn rewrite_type(ty: &mut syn::Type) {
    Rewriter.visit_type_mut(ty);
}

struct Rewriter;

fn is_reexported(ident: &Ident) -> bool {
    REEXPORTED.iter().any(|name| ident == name)
}

/// Whether `path` names chrono's `Utc`.
fn is_utc(path: &syn::Path) -> bool {
    path.segments.first().is_some_and(|s| s.ident == "chrono")
        && path.segments.last().is_some_and(|s| s.ident == "Utc")
}

impl VisitMut for Rewriter {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        // A type `x-rust-type` names, from a crate the user's package depends on itself.
        if let Some(first) = path.segments.first_mut()
            && let Some(name) = first.ident.to_string().strip_prefix(EXTERN_MARK)
        {
            first.ident = Ident::new(name, first.ident.span());
            path.leading_colon = Some(Default::default());
            return visit_mut::visit_path_mut(self, path);
        }
        // typify types `format: date-time` as `DateTime<Utc>`, which reads
        // `2024-06-01T09:00:00+02:00` as `07:00Z`: the sender's offset, data a calendar needs,
        // was lost. `FixedOffset` keeps it (and writes a zero offset as `Z`, as read).
        if path.segments.last().is_some_and(|s| s.ident == "DateTime")
            && let syn::PathArguments::AngleBracketed(arguments) =
                &mut path.segments.last_mut().expect("a segment").arguments
        {
            for argument in arguments.args.iter_mut() {
                if let syn::GenericArgument::Type(syn::Type::Path(zone)) = argument
                    && zone.qself.is_none()
                    && is_utc(&zone.path)
                {
                    *argument = syn::parse_quote!(::chrono::offset::FixedOffset);
                }
            }
        }
        // A lone `serde` without `::` is the `#[serde(...)]` helper attribute, not the crate.
        let crate_path = path.leading_colon.is_some() || path.segments.len() > 1;
        if crate_path
            && path
                .segments
                .first()
                .is_some_and(|s| is_reexported(&s.ident))
        {
            let old = std::mem::take(&mut path.segments);
            path.leading_colon = Some(Default::default());
            path.segments = PRIVATE
                .iter()
                .map(|name| syn::PathSegment::from(Ident::new(name, Span::call_site())))
                .chain(old)
                .collect();
        }
        visit_mut::visit_path_mut(self, path);
    }

    // `<D::Error as ::serde::de::Error>::custom`: the trait is the first `qself.position`
    // segments of the path, so segments inserted in front must move that boundary too.
    fn visit_type_path_mut(&mut self, ty: &mut syn::TypePath) {
        let before = ty.path.segments.len();
        visit_mut::visit_type_path_mut(self, ty);
        if let Some(qself) = &mut ty.qself {
            qself.position += ty.path.segments.len() - before;
        }
    }

    fn visit_expr_path_mut(&mut self, expr: &mut syn::ExprPath) {
        let before = expr.path.segments.len();
        visit_mut::visit_expr_path_mut(self, expr);
        if let Some(qself) = &mut expr.qself {
            qself.position += expr.path.segments.len() - before;
        }
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        // Macro arguments are opaque tokens to syn (typify builds `vec![::serde_json::from_str(..)]`).
        mac.tokens = rewrite_tokens(std::mem::take(&mut mac.tokens));
        visit_mut::visit_macro_mut(self, mac);
    }

    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        // typify writes each description as one `#[doc]`; see `doc_text`.
        if let syn::Meta::NameValue(doc) = &mut attr.meta
            && doc.path.is_ident("doc")
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &mut doc.value
            && let Some(shown) = crate::doc_text::for_rustdoc(&text.value())
        {
            *text = syn::LitStr::new(&shown, text.span());
            return;
        }
        if let syn::Meta::List(list) = &mut attr.meta {
            if list.path.is_ident("derive") {
                // Derive lists are tokens too. They name plain paths, so the token-level
                // rewrite reads them as the syntax one would, without parsing every list.
                list.tokens = rewrite_tokens(std::mem::take(&mut list.tokens));
                return;
            }
            if list.path.is_ident("serde") {
                // `skip_serializing_if = "::serde_json::Map::is_empty"` names paths in strings.
                list.tokens = rewrite_string_literals(std::mem::take(&mut list.tokens));
                return;
            }
        }
        visit_mut::visit_attribute_mut(self, attr);
    }

    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        visit_mut::visit_item_struct_mut(self, item);
        add_serde_crate(&mut item.attrs);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        visit_mut::visit_item_enum_mut(self, item);
        add_serde_crate(&mut item.attrs);
    }
}

/// serde's derives default to `::serde`, which the user's crate does not have.
fn add_serde_crate(attrs: &mut Vec<syn::Attribute>) {
    let derives_serde = attrs
        .iter()
        .filter_map(derived)
        .flatten()
        .any(|name| name == "Serialize" || name == "Deserialize");
    if !derives_serde {
        return;
    }
    let position = attrs
        .iter()
        .rposition(|attr| attr.path().is_ident("derive"))
        .map_or(0, |p| p + 1);
    attrs.insert(position, serde_attribute(quote!(crate = #SERDE_CRATE)));
}

/// Token-level version of the path rewrite, for macro arguments.
fn rewrite_tokens(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(group) => {
                let mut new = Group::new(group.delimiter(), rewrite_tokens(group.stream()));
                new.set_span(group.span());
                out.push(TokenTree::Group(new));
            }
            TokenTree::Ident(ident) if is_reexported(ident) && starts_path(&trees, i) => {
                let leading = preceded_by_path_sep(&trees, i);
                if !leading {
                    out.extend(path_sep());
                }
                for name in PRIVATE {
                    out.push(TokenTree::Ident(Ident::new(name, ident.span())));
                    out.extend(path_sep());
                }
                out.push(tree.clone());
            }
            _ => out.push(tree.clone()),
        }
    }
    out.into_iter().collect()
}

fn path_sep() -> [TokenTree; 2] {
    [
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
    ]
}

fn is_colon(tree: Option<&TokenTree>) -> bool {
    matches!(tree, Some(TokenTree::Punct(p)) if p.as_char() == ':')
}

/// `serde` followed by `::`, and not itself the tail of a longer path (`foo::serde::x`) or a
/// field (`x.serde`).
fn starts_path(trees: &[TokenTree], i: usize) -> bool {
    if !(is_colon(trees.get(i + 1)) && is_colon(trees.get(i + 2))) {
        return false;
    }
    if preceded_by_path_sep(trees, i) {
        // `::serde::` is a crate path unless an identifier comes before the `::`.
        return !matches!(
            i.checked_sub(3).and_then(|j| trees.get(j)),
            Some(TokenTree::Ident(_))
        );
    }
    !matches!(i.checked_sub(1).and_then(|j| trees.get(j)), Some(TokenTree::Punct(p)) if p.as_char() == '.')
}

fn preceded_by_path_sep(trees: &[TokenTree], i: usize) -> bool {
    i >= 2 && is_colon(trees.get(i - 1)) && is_colon(trees.get(i - 2))
}

/// Rewrites crate paths inside the string literals of a `#[serde(...)]` attribute.
fn rewrite_string_literals(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(group) => {
                let mut new =
                    Group::new(group.delimiter(), rewrite_string_literals(group.stream()));
                new.set_span(group.span());
                TokenTree::Group(new)
            }
            TokenTree::Literal(lit) => match crate::fields::string_value(&lit) {
                Some(text) => {
                    let value = rewrite_path_text(&text);
                    if value == text {
                        TokenTree::Literal(lit)
                    } else {
                        TokenTree::Literal(proc_macro2::Literal::string(&value))
                    }
                }
                None => TokenTree::Literal(lit),
            },
            other => other,
        })
        .collect()
}

/// Rewrites paths in Rust source text by running the token rewrite over it.
fn rewrite_path_text(text: &str) -> String {
    // Only a re-exported crate's name before `::` changes, and most literals (the JSON names in
    // `rename`) hold neither: they are not worth tokenizing.
    if !text.contains("::") || !REEXPORTED.iter().any(|name| text.contains(name)) {
        return text.to_string();
    }
    let Ok(tokens) = text.parse::<TokenStream>() else {
        return text.to_string();
    };
    let rewritten = rewrite_tokens(tokens.clone());
    if rewritten.to_string() == tokens.to_string() {
        return text.to_string();
    }
    // Token printing spaces every token apart; serde re-parses the string, so squeeze it back.
    rewritten
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" ::", "::")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: &str) -> String {
        let mut file: syn::File = syn::parse_str(source).unwrap();
        rewrite_file(&mut file);
        prettyplease::unparse(&file)
    }

    #[test]
    fn rewrites_paths_derives_macros_and_strings() {
        let out = run(r#"
            #[derive(::serde::Deserialize, serde::Serialize, Clone)]
            #[serde(deny_unknown_fields)]
            pub struct A {
                #[serde(default, skip_serializing_if = "::serde_json::Map::is_empty")]
                pub m: ::serde_json::Map<String, serde_json::Value>,
                pub u: ::uuid::Uuid,
                pub d: chrono::DateTime<::chrono::offset::Utc>,
            }
            fn f() -> Vec<::serde_json::Value> {
                static P: ::std::sync::LazyLock<::regress::Regex> =
                    ::std::sync::LazyLock::new(|| ::regress::Regex::new("x").unwrap());
                vec![::serde_json::from_str("1").unwrap(), serde_json::json!(null)]
            }
            impl<'de> ::serde::Deserialize<'de> for B {
                fn deserialize<D>(d: D) -> Result<Self, D::Error> where D: ::serde::Deserializer<'de> {
                    Err(<D::Error as ::serde::de::Error>::custom("x"))
                }
            }
            pub mod m { pub struct NotSerde { pub serde: u8 } }
        "#);
        for needle in [
            "::serde::",
            "::serde_json::",
            "::uuid::",
            "::chrono::",
            "::regress::",
        ] {
            let stray = out.replace(&format!("::schemcp_runtime::__private{needle}"), "");
            assert!(!stray.contains(needle), "{needle} left in:\n{out}");
        }
        assert!(
            out.contains("#[serde(crate = \"::schemcp_runtime::__private::serde\")]"),
            "{out}"
        );
        assert_eq!(out.matches("#[serde(crate").count(), 1, "{out}");
        assert!(out.contains("#[serde(deny_unknown_fields)]"), "{out}");
        assert!(
            out.contains(
                r#"skip_serializing_if = "::schemcp_runtime::__private::serde_json::Map::is_empty""#
            ),
            "{out}"
        );
        assert!(out.contains("pub serde: u8"), "{out}");
        // A qualified path keeps the whole (rewritten) trait inside `<... as ...>`.
        assert!(
            out.contains("<D::Error as ::schemcp_runtime::__private::serde::de::Error>::custom"),
            "{out}"
        );
        assert!(
            out.contains("::schemcp_runtime::__private::chrono::DateTime<"),
            "{out}"
        );
        assert!(
            out.contains(
                "DateTime<\n        ::schemcp_runtime::__private::chrono::offset::FixedOffset,"
            ),
            "{out}"
        );
        assert!(!out.contains("Utc"), "{out}");
    }
}
