//! typify names the variants of a string `enum` after its values, and panics when two values
//! give the same name (`+` and `-` both become `X`, `GET` and `get` both `Get`), so a
//! calculator's `["+", "-", "*", "/"]` could not be typed; and it names `+1` and `-1` `plus1`
//! and `minus1`, which warn in the user's crate. [`name_variants`] gives those values,
//! in the copy of the schema typify converts, placeholders that typify names `Plus`, `Minus`,
//! `Star`, `Slash` (characters spelled out, then numbered where names are still alike), and
//! [`restore_values`] writes the values back into the generated code. The placeholder is the
//! name followed by the value's bytes as private-use characters, which typify's naming drops
//! and the generated code carries in its string literals (`rename`, `FromStr`, `Display`).

use proc_macro2::{Group, Literal, TokenStream, TokenTree};
use quote::ToTokens;
use serde_json::Value;
use syn::{Item, Type};
use unicode_ident::{is_xid_continue, is_xid_start};

use crate::names::{distinct, typify_pascal};
use crate::schema::for_each_child_mut_under;

/// Starts the value's bytes in a placeholder; each byte `b` follows as `BYTES + b`.
const MARK: char = '\u{E000}';
const BYTES: u32 = 0xE100;

/// Replaces, below `schema` (itself included), the values of every string `enum` whose
/// variant names typify cannot make unique with placeholders, and a `default` among them with
/// its placeholder. Returns whether it replaced any. An `enum` under `not` names no variants
/// and is left alone.
pub(crate) fn name_variants(schema: &mut Value) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };
    let mut replaced = false;
    for_each_child_mut_under(object, &|keyword| keyword != "not", &mut |child| {
        replaced |= name_variants(child)
    });
    let Some(Value::Array(values)) = object.get("enum") else {
        return replaced;
    };
    let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
    let Some(placeholders) = placeholders(&strings) else {
        return replaced;
    };
    let placeholder = |value: &Value| {
        let i = strings.iter().position(|s| Some(*s) == value.as_str())?;
        Some(Value::String(placeholders[i].clone()))
    };
    let values: Vec<Value> = values
        .iter()
        .map(|v| placeholder(v).unwrap_or_else(|| v.clone()))
        .collect();
    if let Some(default) = object.get("default").and_then(placeholder) {
        object.insert("default".into(), default);
    }
    object.insert("enum".into(), Value::Array(values));
    true
}

/// The placeholders for `values`, or `None` when typify names them all apart by itself.
fn placeholders(values: &[&str]) -> Option<Vec<String>> {
    let first: Vec<String> = values.iter().map(|v| typify_name(v)).collect();
    // typify names `+1` and `-1` (GitHub's reactions) `plus1` and `minus1`, which a crate that
    // denies warnings refuses as variant names (`non_camel_case_types`).
    let lowercase = first
        .iter()
        .any(|name| name.starts_with(char::is_lowercase));
    if !lowercase {
        if distinct(&first) {
            return None;
        }
        // typify tries once more with `_` and every non-identifier character as `X`.
        let second: Vec<String> = values
            .iter()
            .map(|v| typify_name(&v.replace(|c| c == '_' || !is_xid_continue(c), "X")))
            .collect();
        if distinct(&second) {
            return None;
        }
    }
    let mut names: Vec<String> = values
        .iter()
        .zip(&first)
        .map(|(value, name)| {
            if first.iter().filter(|n| *n == name).count() > 1 {
                typify_name(&spelled(value))
            } else {
                upper_first(name)
            }
        })
        .collect();
    for i in 0..names.len() {
        if names[..i].contains(&names[i]) {
            let mut n = 2;
            while names.contains(&format!("{}{n}", names[i])) {
                n += 1;
            }
            names[i] = format!("{}{n}", names[i]);
        }
    }
    Some(
        values
            .iter()
            .zip(names)
            .map(|(value, mut name)| {
                name.push(MARK);
                name.extend(
                    value
                        .bytes()
                        .map(|b| char::from_u32(BYTES + u32::from(b)).expect("a private-use char")),
                );
                name
            })
            .collect(),
    )
}

/// The variant name typify 0.8 gives a string value (its `sanitize` in Pascal case).
fn typify_name(value: &str) -> String {
    let name = match value {
        "+1" => "plus1".to_string(),
        "-1" => "minus1".to_string(),
        _ => typify_pascal(value),
    };
    let name = match name.chars().next() {
        None => "X".to_string(),
        Some(c) if is_xid_start(c) => name,
        Some(_) => format!("X{name}"),
    };
    if name == "Self" { "Self_".into() } else { name }
}

/// `name` with its first letter upper case (`plus1` is `Plus1`).
fn upper_first(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Words for the characters [`spelled`] spells out; any other is its code point (`u2192`).
const WORDS: [(char, &str); 36] = [
    ('+', "plus"),
    ('-', "minus"),
    ('*', "star"),
    ('/', "slash"),
    ('\\', "backslash"),
    ('%', "percent"),
    ('^', "caret"),
    ('=', "equals"),
    ('<', "less"),
    ('>', "greater"),
    ('!', "bang"),
    ('?', "question"),
    ('&', "and"),
    ('|', "pipe"),
    ('~', "tilde"),
    ('@', "at"),
    ('#', "hash"),
    ('$', "dollar"),
    ('.', "dot"),
    (',', "comma"),
    (':', "colon"),
    (';', "semicolon"),
    ('_', "underscore"),
    (' ', "space"),
    ('\t', "tab"),
    ('\n', "newline"),
    ('\r', "return"),
    ('"', "quote"),
    ('\'', "apostrophe"),
    ('`', "backtick"),
    ('(', "open"),
    ('[', "open"),
    ('{', "open"),
    (')', "close"),
    (']', "close"),
    ('}', "close"),
];

/// `value` with each character that is not a letter or digit spelled out as a word.
fn spelled(value: &str) -> String {
    let mut words = String::new();
    for c in value.chars() {
        if c.is_alphanumeric() {
            words.push(c);
            continue;
        }
        words.push(' ');
        match WORDS.iter().find(|(w, _)| *w == c) {
            Some((_, word)) => words.push_str(word),
            None => words.push_str(&format!("u{:04x}", u32::from(c))),
        }
        words.push(' ');
    }
    words
}

/// Writes the values back over their placeholders in the string literals of every enum whose
/// variants carry one, and of the `impl` blocks for it.
pub(crate) fn restore_values(file: &mut syn::File) -> Result<(), String> {
    let carries = |tokens: &TokenStream| {
        let text = tokens.to_string();
        text.contains(MARK) || text.contains("\\u{e000}")
    };
    let enums: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Enum(e) if carries(&e.to_token_stream()) => Some(e.ident.to_string()),
            _ => None,
        })
        .collect();
    if enums.is_empty() {
        return Ok(());
    }
    for item in &mut file.items {
        let owner = match item {
            Item::Enum(e) => e.ident.to_string(),
            Item::Impl(block) => match &*block.self_ty {
                Type::Path(path) => match path.path.segments.last() {
                    Some(segment) => segment.ident.to_string(),
                    None => continue,
                },
                _ => continue,
            },
            _ => continue,
        };
        if enums.contains(&owner) {
            let restored = restore(item.to_token_stream());
            *item = syn::parse2(restored)
                .map_err(|e| format!("the enum `{owner}` with its values back: {e}"))?;
        }
    }
    Ok(())
}

fn restore(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(group) => {
                let mut restored = Group::new(group.delimiter(), restore(group.stream()));
                restored.set_span(group.span());
                TokenTree::Group(restored)
            }
            TokenTree::Literal(literal) => {
                let Ok(string) = syn::parse2::<syn::LitStr>(literal.to_token_stream()) else {
                    return TokenTree::Literal(literal);
                };
                let value = string.value();
                if !value.contains(MARK) {
                    return TokenTree::Literal(literal);
                }
                let mut restored = Literal::string(&decode(&value));
                restored.set_span(literal.span());
                TokenTree::Literal(restored)
            }
            other => other,
        })
        .collect()
}

/// `text` with each placeholder (a name, [`MARK`], the value's bytes) replaced by its value.
fn decode(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        // The name before the mark is dropped: it is alphanumeric, back to the last other char.
        let name_start = rest[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
            .last()
            .map_or(at, |(i, _)| i);
        out.push_str(&rest[..name_start]);
        let after = &rest[at + MARK.len_utf8()..];
        let bytes: Vec<u8> = after
            .chars()
            .map_while(|c| u8::try_from(u32::from(c).checked_sub(BYTES)?).ok())
            .collect();
        let used: usize = after.chars().take(bytes.len()).map(char::len_utf8).sum();
        out.push_str(&String::from_utf8_lossy(&bytes));
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn names(values: &[&str]) -> Option<Vec<String>> {
        placeholders(values).map(|p| {
            p.iter()
                .map(|p| p.split(MARK).next().unwrap().to_string())
                .collect()
        })
    }

    #[test]
    fn values_typify_names_apart_are_left_alone() {
        assert_eq!(names(&["metric", "imperial"]), None);
        assert_eq!(names(&["a.b", "ab"]), None);
        // The second try (`X` for what is not an identifier) tells these apart.
        assert_eq!(names(&["a--b", "a-b"]), None);
    }

    #[test]
    fn colliding_values_are_spelled_out_then_numbered() {
        assert_eq!(
            names(&["+", "-", "*", "/"]).unwrap(),
            ["Plus", "Minus", "Star", "Slash"]
        );
        assert_eq!(
            names(&["foo\nbar", "foo\"bar", "other"]).unwrap(),
            ["FooNewlineBar", "FooQuoteBar", "Other"]
        );
        assert_eq!(
            names(&["GET", "get", "post"]).unwrap(),
            ["Get", "Get2", "Post"]
        );
        assert_eq!(names(&["", " "]).unwrap(), ["X", "Space"]);
    }

    #[test]
    fn reactions_get_upper_camel_case_variants() {
        assert_eq!(
            names(&["+1", "-1", "laugh", "eyes"]).unwrap(),
            ["Plus1", "Minus1", "Laugh", "Eyes"]
        );
        assert_eq!(names(&["+1", "plus1"]).unwrap(), ["Plus1", "Plus12"]);
        assert_eq!(names(&["+1", "-1", "+"]).unwrap(), ["Plus1", "Minus1", "X"]);
    }

    #[test]
    fn placeholders_come_back_as_the_values() {
        let values = ["+", "é/ü", "\"quoted\"", ""];
        let placeholders = placeholders(&["-", "é/ü", "\"quoted\"", ""]).unwrap();
        assert_eq!(decode(&placeholders[1]), values[1]);
        assert_eq!(decode(&placeholders[2]), values[2]);
        assert_eq!(decode(&placeholders[3]), "");
        assert_eq!(
            decode(&format!("(\"{}\", {})", placeholders[0], placeholders[1])),
            "(\"-\", é/ü)"
        );
    }

    #[test]
    fn only_enums_typify_cannot_name_are_replaced_with_their_default() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "op": { "type": "string", "enum": ["+", "-"], "default": "-" },
                "units": { "enum": ["metric", "imperial"] },
                "other": { "not": { "enum": ["+", "-"] } }
            }
        });
        assert!(name_variants(&mut schema));
        let op = &schema["properties"]["op"];
        let placeholders: Vec<String> = op["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| decode(v.as_str().unwrap()))
            .collect();
        assert_eq!(placeholders, ["+", "-"]);
        assert_ne!(op["enum"][0], "+");
        assert_eq!(op["default"], op["enum"][1]);
        assert_eq!(
            schema["properties"]["units"]["enum"],
            json!(["metric", "imperial"])
        );
        assert_eq!(
            schema["properties"]["other"]["not"]["enum"],
            json!(["+", "-"])
        );
        assert!(!name_variants(&mut json!({ "enum": ["a", "b"] })));
    }

    #[test]
    fn restored_code_carries_the_values() {
        let [plus, minus]: [String; 2] = placeholders(&["+", "-"]).unwrap().try_into().unwrap();
        let mut file: syn::File = syn::parse_quote! {
            pub enum Op {
                #[serde(rename = #plus)]
                Plus,
                #[serde(rename = #minus)]
                Minus,
            }
            impl ::std::fmt::Display for Op {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    match *self {
                        Self::Plus => f.write_str(#plus),
                        Self::Minus => f.write_str(#minus),
                    }
                }
            }
            pub struct Other { pub name: String }
        };
        restore_values(&mut file).unwrap();
        let expected: syn::File = syn::parse_quote! {
            pub enum Op {
                #[serde(rename = "+")]
                Plus,
                #[serde(rename = "-")]
                Minus,
            }
            impl ::std::fmt::Display for Op {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    match *self {
                        Self::Plus => f.write_str("+"),
                        Self::Minus => f.write_str("-"),
                    }
                }
            }
            pub struct Other { pub name: String }
        };
        assert_eq!(
            file.to_token_stream().to_string(),
            expected.to_token_stream().to_string()
        );
    }
}
