//! The generated file around the types: the trait, the catalog and the dispatch glue.

use std::convert::Infallible;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::{from_impls, initializers, optional, rewrite, union_names, unions};

/// What the trait needs to know about one tool. `T` holds a Rust type: tokens while the
/// generator works on it, text ([`Glue::new`]) to cross to the thread that prints the glue.
pub(crate) struct ToolItem<T = TokenStream> {
    pub method: String,
    /// Doc comment lines, each with its leading space.
    pub doc: Vec<String>,
    pub input: T,
    pub output: Return<T>,
    /// The `examples` of the input and output schemas with a type of their own (the roots, and
    /// members, items and map values below them): `(pointer, type, example JSON)`, checked by a
    /// generated test to round-trip through the type; filled by `round_trip::add_examples`.
    pub examples: Vec<(String, T, String)>,
    /// The tool's name, for messages.
    pub name: String,
}

impl<T> ToolItem<T> {
    /// The item without its examples, each type converted by `f`: to text to cross to the
    /// glue's thread ([`Glue::new`]), and lexed again there ([`Glue::render`]).
    fn retyped<U, E>(&self, f: impl Fn(&T) -> Result<U, E>) -> Result<ToolItem<U>, E> {
        Ok(ToolItem {
            method: self.method.clone(),
            doc: self.doc.clone(),
            input: f(&self.input)?,
            output: match &self.output {
                Return::Structured(ty) => Return::Structured(f(ty)?),
                Return::Wrapped(ty) => Return::Wrapped(f(ty)?),
                Return::Text => Return::Text,
                Return::WrappedText => Return::WrappedText,
            },
            examples: Vec::new(),
            name: self.name.clone(),
        })
    }
}

/// What a tool's method returns.
pub(crate) enum Return<T = TokenStream> {
    /// Structured content of this type.
    Structured(T),
    /// `schemcp_runtime::Output<T>`, for `_meta` and extra content.
    Wrapped(T),
    /// No `outputSchema`: text content.
    Text,
    /// No `outputSchema`, wrapped: `schemcp_runtime::Output<String>`.
    WrappedText,
}

/// What the generated file holds after the types: the trait, the catalog constant and the
/// dispatch glue (the examples test is printed apart, [`render_examples`]). It holds text, not
/// tokens (which cannot cross threads), so that it is printed on another core while the types
/// are finished and printed ([`Glue::render`] beside [`render_types`]): for a thousand tools,
/// the glue was a tenth of the generator's time.
pub(crate) struct Glue {
    header_source: String,
    trait_name: String,
    catalog_file: String,
    tools: Vec<ToolItem<String>>,
}

/// The passes over typify's output that make the final types: conversions two variants share
/// left out and those of one-element tuples mended, optional members kept as sent, variants
/// typify could only number named, untagged unions of objects read by best fit, and paths
/// through the runtime's re-exports. Done before [`render_types`] so that the examples can be
/// followed through the very types the user compiles.
pub(crate) fn finish_types(types: &mut syn::File) {
    from_impls::drop_ambiguous_from_impls(types);
    from_impls::mend_one_tuple_from_impls(types);
    let wrapped = optional::keep_optional_members(types);
    initializers::mend_defaults(types, &wrapped);
    union_names::name_union_variants(types);
    unions::best_fit_unions(types);
    rewrite::rewrite_file(types);
}

impl Glue {
    /// The glue for `tools`, generated from `header_source`, under a trait named `trait_name`;
    /// their examples are printed apart ([`render_examples`]), once the types are final.
    pub(crate) fn new(
        header_source: &str,
        trait_name: &str,
        catalog_file: &str,
        tools: &[ToolItem],
    ) -> Glue {
        let text = |ty: &TokenStream| Ok::<_, Infallible>(ty.to_string());
        let tools = tools
            .iter()
            .map(|tool| {
                let Ok(tool) = tool.retyped(text);
                tool
            })
            .collect();
        Glue {
            header_source: header_source.to_string(),
            trait_name: trait_name.to_string(),
            catalog_file: catalog_file.to_string(),
            tools,
        }
    }

    /// The glue's text, as prettyplease prints it.
    pub(crate) fn render(self) -> Result<String, String> {
        let tools = self
            .tools
            .iter()
            .map(|tool| tool.retyped(|ty| ty.parse::<TokenStream>()))
            .collect::<Result<Vec<ToolItem>, _>>()
            .map_err(|e| format!("a type does not lex again: {e}"))?;
        let tokens = glue_tokens(
            &self.header_source,
            &self.trait_name,
            &self.catalog_file,
            &tools,
        );
        let glue: syn::File =
            syn::parse2(tokens).map_err(|e| format!("the generated glue does not parse: {e}"))?;
        Ok(prettyplease::unparse(&glue))
    }
}

/// The types' text, as prettyplease prints them, each item allowed the lints a schema may
/// trip.
pub(crate) fn render_types(mut types: syn::File) -> String {
    let allow: syn::Attribute = syn::parse_quote!(#[allow(dead_code, clippy::all)]);
    for item in &mut types.items {
        allow_lints(item, &allow);
    }
    prettyplease::unparse(&types)
}

/// The test module of the tools' examples (none when no example has a type), as prettyplease
/// prints it.
pub(crate) fn render_examples(tools: &[ToolItem]) -> Result<String, String> {
    let tokens = examples_test(tools);
    if tokens.is_empty() {
        return Ok(String::new());
    }
    let module: syn::File =
        syn::parse2(tokens).map_err(|e| format!("the examples test does not parse: {e}"))?;
    Ok(prettyplease::unparse(&module))
}

/// The generated Rust file: the header, the types, the glue, then the examples test.
/// prettyplease prints a file item by item, each ending its own last line, so the parts
/// printed apart read as the whole printed at once.
pub(crate) fn file_text(header_source: &str, parts: [&str; 3]) -> String {
    let [types, glue, examples] = parts;
    format!(
        "// @generated by schemcp-build from {header_source}. Do not edit.\n\n{types}{glue}{examples}"
    )
}

/// The trait, the catalog constant and the dispatch glue.
fn glue_tokens(
    header_source: &str,
    trait_name: &str,
    catalog_file: &str,
    tools: &[ToolItem],
) -> TokenStream {
    let trait_ident = format_ident!("{}", trait_name);
    let methods = tools.iter().map(|tool| {
        let method = format_ident!("{}", tool.method);
        let input = &tool.input;
        let output = match &tool.output {
            Return::Structured(ty) => ty.clone(),
            Return::Wrapped(ty) => quote!(::schemcp_runtime::Output<#ty>),
            Return::Text => quote!(::std::string::String),
            Return::WrappedText => quote!(::schemcp_runtime::Output<::std::string::String>),
        };
        let doc = &tool.doc;
        quote! {
            #(#[doc = #doc])*
            fn #method(&self, input: #input, cx: &::schemcp_runtime::ToolContext)
                -> impl ::std::future::Future<
                    Output = ::std::result::Result<#output, ::schemcp_runtime::ToolError>,
                > + ::std::marker::Send;
        }
    });
    let arms = tools.iter().enumerate().map(|(index, tool)| {
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        let method = format_ident!("{}", tool.method);
        let input = &tool.input;
        let returned = match &tool.output {
            Return::Structured(_) => quote!(::schemcp_runtime::Returned::structured(&output)),
            Return::Wrapped(_) => quote!(::schemcp_runtime::Returned::from_output(output)),
            Return::Text => quote!(::std::result::Result::Ok(
                ::schemcp_runtime::Returned::text(output)
            )),
            Return::WrappedText => quote!(::std::result::Result::Ok(
                ::schemcp_runtime::Returned::from_text_output(output)
            )),
        };
        quote! {
            #index => {
                let input: #input = ::schemcp_runtime::__private::decode_arguments(arguments)?;
                let output = #trait_ident::#method(&self.0, input, cx).await?;
                #returned
            }
        }
    });
    let trait_doc = [
        format!(
            " The tools of `{}`: implement this, then serve it with [`server`].",
            header_source
        ),
        String::new(),
        " Each method gets arguments already validated against the tool's `inputSchema`; what it"
            .into(),
        " returns is validated against the `outputSchema` before it reaches the client.".into(),
    ];
    let dispatch_doc = format!(
        " Routes calls from the runtime to a [`{trait_ident}`] implementation by catalog position."
    );
    let tokens = quote! {
        #(#[doc = #trait_doc])*
        pub trait #trait_ident: ::std::marker::Send + ::std::marker::Sync + 'static {
            #(#methods)*
        }

        /// The `tools/list` catalog exactly as a 2026-07-28 client receives it, sorted by name.
        pub const CATALOG: &str = include_str!(#catalog_file);

        #[doc = #dispatch_doc]
        pub struct Dispatch<T>(pub T);

        impl<T: #trait_ident> ::schemcp_runtime::ToolSet for Dispatch<T> {
            fn catalog(&self) -> &'static str {
                CATALOG
            }

            fn call<'a>(
                &'a self,
                index: usize,
                arguments: ::schemcp_runtime::__private::serde_json::Value,
                cx: &'a ::schemcp_runtime::ToolContext,
            ) -> ::schemcp_runtime::__private::BoxFuture<
                'a,
                ::std::result::Result<::schemcp_runtime::Returned, ::schemcp_runtime::ToolError>,
            > {
                ::std::boxed::Box::pin(async move {
                    match index {
                        #(#arms)*
                        _ => ::std::result::Result::Err(::schemcp_runtime::ToolError::new(
                            ::std::format!("no tool at catalog index {index}"),
                        )),
                    }
                })
            }
        }

        /// An MCP server for `tools`; serve it with `schemcp_runtime::serve_stdio` or `serve_http`.
        /// Clients see this package's name and version as its `serverInfo`, unless `.with_info`
        /// or a handler added with `.with_handler` names the server.
        pub fn server<T: #trait_ident>(tools: T) -> ::schemcp_runtime::McpServer<Dispatch<T>> {
            ::schemcp_runtime::McpServer::new(Dispatch(tools))
                .with_default_info(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
        }
    };
    tokens
}

/// A `#[cfg(test)]` module (only when some example has a type) whose test deserializes every
/// such example into its generated type and checks that it serializes back to an equal
/// value (JSON Schema equality: `1` equals `1.0`). The build already checked that each example
/// validates; this checks the type does not lose or change any of it.
fn examples_test(tools: &[ToolItem]) -> TokenStream {
    let checks: Vec<TokenStream> = tools
        .iter()
        .flat_map(|tool| {
            tool.examples.iter().map(|(pointer, ty, json)| {
                let at = format!("tool `{}` {pointer}", tool.name);
                quote! {
                    {
                        let example: Value = serde_json::from_str(#json).unwrap();
                        let typed: #ty = serde_json::from_value(example.clone()).unwrap_or_else(
                            |e| panic!("{}: the example does not deserialize into the generated type: {}", #at, e),
                        );
                        let back = serde_json::to_value(typed).unwrap();
                        assert!(
                            same(&example, &back),
                            "{}: the example does not round-trip through the generated type: {} became {}",
                            #at, example, back
                        );
                    }
                }
            })
        })
        .collect();
    if checks.is_empty() {
        return TokenStream::new();
    }
    quote! {
        /// The contracts' `examples`, round-tripped through the generated types.
        #[cfg(test)]
        pub(crate) mod schemcp_examples {
            use super::*;
            use ::schemcp_runtime::__private::serde_json::{self, Value};

            /// Equal as JSON Schema defines it: numbers by value, members in any order.
            fn same(a: &Value, b: &Value) -> bool {
                match (a, b) {
                    (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
                        (Some(p), Some(q)) => p == q,
                        _ => x.as_u64().zip(y.as_u64()).map_or(x.as_f64() == y.as_f64(), |(p, q)| p == q),
                    },
                    (Value::Array(x), Value::Array(y)) => {
                        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
                    }
                    (Value::Object(x), Value::Object(y)) => {
                        x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
                    }
                    _ => a == b,
                }
            }

            /// Panics naming the tool and pointer of the first example that does not
            /// round-trip.
            pub(crate) fn check_examples() {
                #(#checks)*
            }

            #[test]
            fn examples_round_trip_through_the_generated_types() {
                check_examples();
            }
        }
    }
}

/// Rewrites one type's paths to the runtime's re-exports (for trait signatures).
pub(crate) fn rewrite_type(ty: TokenStream) -> Result<TokenStream, String> {
    let mut ty: syn::Type = syn::parse2(ty).map_err(|e| format!("not a type: {e}"))?;
    rewrite::rewrite_type(&mut ty);
    Ok(quote!(#ty))
}

/// Generated types are included into the user's crate, often a binary where an unused alias or a
/// field only serialized would warn; the schema, not the user, decides what exists.
fn allow_lints(item: &mut syn::Item, allow: &syn::Attribute) {
    let attr = allow.clone();
    match item {
        syn::Item::Struct(i) => i.attrs.push(attr),
        syn::Item::Enum(i) => i.attrs.push(attr),
        syn::Item::Type(i) => i.attrs.push(attr),
        syn::Item::Impl(i) => i.attrs.push(attr),
        syn::Item::Mod(i) => i.attrs.push(attr),
        syn::Item::Fn(i) => i.attrs.push(attr),
        syn::Item::Const(i) => i.attrs.push(attr),
        syn::Item::Static(i) => i.attrs.push(attr),
        _ => {}
    }
}
