//! JSON pointer -> position in the source text.

use std::ops::Range;

use jsonc_parser::ast::{ObjectPropName, Value as Ast};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};

/// A position in a contract file: 1-based line and column (in characters) of the start of
/// `byte_range`, which covers the whole JSON value.
///
/// ```
/// let loc = schemcp_contract::locate("{\n  \"a\": 1\n}", "/a").unwrap();
/// assert_eq!((loc.line, loc.column, loc.byte_range), (2, 8, 9..10));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// Bytes of the value in the source text.
    pub byte_range: Range<usize>,
}

impl Location {
    /// The location of `byte_range` in `source`.
    ///
    /// ```
    /// use schemcp_contract::Location;
    /// let loc = Location::at("ab\ncd", 4..5);
    /// assert_eq!((loc.line, loc.column), (2, 2));
    /// ```
    pub fn at(source: &str, byte_range: Range<usize>) -> Location {
        let start = floor_char_boundary(source, byte_range.start.min(source.len()));
        let before = &source[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = source[line_start..start].chars().count() + 1;
        let end = floor_char_boundary(source, byte_range.end.clamp(start, source.len()));
        Location {
            line,
            column,
            byte_range: start..end,
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Finds the value that the JSON pointer `pointer` (RFC 6901, `~0` for `~`, `~1` for `/`) names
/// in `source`, or `None` when the text is not JSON or the pointer names nothing. The empty
/// pointer names the whole document.
///
/// ```
/// let src = r#"{ "a/b": { "m~n": [10, 20] } }"#;
/// let loc = schemcp_contract::locate(src, "/a~1b/m~0n/1").unwrap();
/// assert_eq!(&src[loc.byte_range.clone()], "20");
/// assert_eq!((loc.line, loc.column), (1, 24));
/// ```
pub fn locate(source: &str, pointer: &str) -> Option<Location> {
    locate_span(source, pointer, false).map(|r| Location::at(source, r))
}

/// Like [`locate`], but for an object member it spans the member's key rather than its value,
/// which is where an author looks for an unknown or misspelt key.
pub(crate) fn locate_key(source: &str, pointer: &str) -> Option<Location> {
    locate_span(source, pointer, true).map(|r| Location::at(source, r))
}

fn locate_span(source: &str, pointer: &str, key: bool) -> Option<Range<usize>> {
    let segments = split_pointer(pointer)?;
    // Strict JSON only: the files are served as JSON, so comments must not make a pointer resolve.
    let options = ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        ..ParseOptions::default()
    };
    let parsed = jsonc_parser::parse_to_ast(source, &CollectOptions::default(), &options).ok()?;
    let mut node = parsed.value.as_ref()?;
    let mut key_range = None;
    for segment in &segments {
        match node {
            Ast::Object(object) => {
                // The last duplicate wins, as it does in serde_json.
                let prop = object
                    .properties
                    .iter()
                    .rev()
                    .find(|p| prop_name(&p.name) == segment)?;
                key_range = Some(match &prop.name {
                    ObjectPropName::String(s) => s.range,
                    ObjectPropName::Word(w) => w.range,
                });
                node = &prop.value;
            }
            Ast::Array(array) => {
                let index = array_index(segment)?;
                key_range = None;
                node = array.elements.get(index)?;
            }
            _ => return None,
        }
    }
    let range = match (key, key_range) {
        (true, Some(k)) => k,
        _ => node.range(),
    };
    Some(range.start..range.end)
}

fn prop_name<'a>(name: &'a ObjectPropName<'a>) -> &'a str {
    name.as_str()
}

fn array_index(segment: &str) -> Option<usize> {
    let leading_zero = segment.len() > 1 && segment.starts_with('0');
    if leading_zero || segment.is_empty() || !segment.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    segment.parse().ok()
}

/// Splits a JSON pointer into unescaped reference tokens; `None` if it is not a pointer.
pub(crate) fn split_pointer(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape_token).collect()
}

fn unescape_token(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

pub(crate) use crate::json::escape_token;

/// Resolves a JSON pointer against a value (serde_json's own `pointer` does the same, but this
/// one shares the token rules above so a pointer that locates also resolves).
pub(crate) fn resolve<'a>(
    value: &'a serde_json::Value,
    pointer: &str,
) -> Option<&'a serde_json::Value> {
    let mut node = value;
    for segment in split_pointer(pointer)? {
        node = match node {
            serde_json::Value::Object(map) => map.get(&segment)?,
            serde_json::Value::Array(items) => items.get(array_index(&segment)?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Whether the JSON pointer `pointer` is `root` or below it (`/a/b` is within `/a`, `/ab`
/// is not).
pub(crate) fn within(pointer: &str, root: &str) -> bool {
    pointer
        .strip_prefix(root)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "{\n  \"a/b\": 1,\n  \"c~d\": { \"x\": [true, {\"~1\": null}] },\n  \"\": \"empty\",\n  \"é\": \"ü\"\n}\n";

    fn text(pointer: &str) -> Option<&'static str> {
        locate(SRC, pointer).map(|l| &SRC[l.byte_range])
    }

    #[test]
    fn root_pointer_is_the_whole_document() {
        let loc = locate(SRC, "").unwrap();
        assert_eq!((loc.line, loc.column), (1, 1));
        assert_eq!(&SRC[loc.byte_range], SRC.trim_end());
    }

    #[test]
    fn tilde_one_is_a_slash() {
        assert_eq!(text("/a~1b"), Some("1"));
        assert_eq!(text("/a/b"), None);
    }

    #[test]
    fn tilde_zero_is_a_tilde_and_is_decoded_after_tilde_one() {
        assert_eq!(text("/c~0d/x/0"), Some("true"));
        // `~01` is `~1` literally, not `/`.
        assert_eq!(text("/c~0d/x/1/~01"), Some("null"));
        assert_eq!(text("/c~0d/x/1/~1"), None);
    }

    #[test]
    fn bad_escapes_and_indices_name_nothing() {
        assert_eq!(text("/c~2d"), None);
        assert_eq!(text("/c~0d/x/01"), None);
        assert_eq!(text("/c~0d/x/2"), None);
        assert_eq!(text("/c~0d/x/-"), None);
        assert_eq!(text("a"), None);
    }

    #[test]
    fn empty_key_and_line_column() {
        let loc = locate(SRC, "/").unwrap();
        assert_eq!(&SRC[loc.byte_range.clone()], "\"empty\"");
        assert_eq!((loc.line, loc.column), (4, 7));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let loc = locate(SRC, "/é").unwrap();
        assert_eq!(&SRC[loc.byte_range.clone()], "\"ü\"");
        assert_eq!((loc.line, loc.column), (5, 8));
    }

    #[test]
    fn key_span_points_at_the_key() {
        let loc = locate_key(SRC, "/c~0d").unwrap();
        assert_eq!(&SRC[loc.byte_range.clone()], "\"c~d\"");
        assert_eq!((loc.line, loc.column), (3, 3));
    }

    #[test]
    fn invalid_json_locates_nothing() {
        assert_eq!(locate("{\"a\": 1,}", "/a"), None);
        assert_eq!(locate("// c\n{\"a\": 1}", "/a"), None);
    }

    #[test]
    fn resolve_agrees_with_locate() {
        let value: serde_json::Value = serde_json::from_str(SRC).unwrap();
        assert_eq!(
            resolve(&value, "/c~0d/x/1/~01"),
            Some(&serde_json::Value::Null)
        );
        assert_eq!(resolve(&value, "/a~1b"), Some(&serde_json::json!(1)));
        assert_eq!(resolve(&value, "/nope"), None);
    }
}
