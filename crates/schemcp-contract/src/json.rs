//! JSON helpers the loader, the generator and the fidelity harness share, so each reads values
//! and pointers the same way.

use std::borrow::Cow;

use serde_json::Value;

/// Equal as JSON Schema defines equality: numbers by value (`1` equals `1.0`), objects
/// regardless of member order. Integers are compared as integers, so two beyond `f64`'s
/// precision stay apart.
///
/// ```
/// use schemcp_contract::json::json_equal;
/// use serde_json::json;
/// assert!(json_equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
/// assert!(!json_equal(&json!(9007199254740993_u64), &json!(9007199254740992_u64)));
/// ```
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A JSON pointer (or one of its tokens) written as a URI fragment: what may not stand in one
/// as it is (a space, `%`, `"`) percent-encoded, so a `$ref` built from it stays a valid URI.
///
/// ```
/// assert_eq!(schemcp_contract::json::uri_fragment("/A b%c~1d"), "/A%20b%25c~1d");
/// ```
pub fn uri_fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One JSON pointer token escaped (`~` as `~0`, `/` as `~1`); borrowed when there is nothing to
/// escape, as almost always.
///
/// ```
/// assert_eq!(schemcp_contract::json::escape_token("a/b~c"), "a~1b~0c");
/// assert_eq!(schemcp_contract::json::escape_token("name"), "name");
/// ```
pub fn escape_token(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Appends `/token`, escaped, to `pointer`: walks grow one pointer buffer and cut it back rather
/// than format a new pointer for every subschema.
///
/// ```
/// let mut pointer = String::from("/properties");
/// schemcp_contract::json::push_token(&mut pointer, "a/b");
/// assert_eq!(pointer, "/properties/a~1b");
/// ```
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape_token(token));
}

/// `s` with every `%XX` escape decoded, as a URI fragment is read before it is taken as a JSON
/// pointer; kept as written when the bytes decoded are not UTF-8.
///
/// ```
/// assert_eq!(schemcp_contract::json::percent_decode("/a%20b%25c~1d"), "/a b%c~1d");
/// assert_eq!(schemcp_contract::json::percent_decode("%zz%"), "%zz%");
/// ```
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}
