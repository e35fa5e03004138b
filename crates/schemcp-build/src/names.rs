//! Rust identifiers from tool and schema names.

use heck::{ToPascalCase, ToSnakeCase};
use unicode_ident::is_xid_continue;

/// A type name in PascalCase that typify keeps unchanged: typify re-sanitizes every name it is
/// given with the same heck rules, so handing it a fixed point keeps our name and its name in
/// agreement (and keeps names derived from it, like `{Parent}{Property}`, predictable).
pub(crate) fn pascal(input: &str) -> String {
    let cleaned: String = input
        .replace('\'', "")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let mut out = cleaned.to_pascal_case();
    match out.chars().next() {
        None => out = "X".to_string(),
        Some(c) if !(c.is_alphabetic() || c == '_') => out = format!("X{out}"),
        Some(_) => {}
    }
    if !is_plain_type_name(&out) && syn::parse_str::<syn::Ident>(&out).is_err() {
        out.push('_');
    }
    out
}

/// Whether `name` is an identifier without asking syn's lexer (which the generator would do
/// for every schema it names): an ASCII capital then ASCII letters and digits, and not `Self`,
/// the only keyword that starts with a capital.
fn is_plain_type_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
        && name != "Self"
}

/// typify 0.8's `sanitize` in PascalCase, before it makes the result an identifier: quotes
/// dropped, every character that cannot go on an identifier a word break (`foo.bar` and
/// `foo-bar` are both `FooBar`).
pub(crate) fn typify_pascal(input: &str) -> String {
    input
        .replace('\'', "")
        .replace(|c| !is_xid_continue(c), "-")
        .to_pascal_case()
}

/// Whether no two of `names` are alike.
pub(crate) fn distinct(names: &[String]) -> bool {
    names
        .iter()
        .enumerate()
        .all(|(i, name)| !names[..i].contains(name))
}

/// `words` listed for a diagnostic: `a`, `a and b`, `a, b and c` (`conjunction` in place of
/// `and`: `listed(&["x", "y", "z"], "or")` is `x, y or z`); `None` for none.
pub(crate) fn listed<S: AsRef<str>>(words: &[S], conjunction: &str) -> Option<String> {
    let (last, rest) = words.split_last()?;
    let last = last.as_ref();
    Some(if rest.is_empty() {
        last.to_string()
    } else {
        let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
        format!("{} {conjunction} {last}", rest.join(", "))
    })
}

/// A method name in snake_case; `None` when nothing identifier-like is left.
pub(crate) fn snake(input: &str) -> Option<String> {
    let cleaned: String = input
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect();
    let mut out = cleaned.to_snake_case();
    if out.is_empty() {
        return None;
    }
    if out.starts_with(|c: char| c.is_numeric()) {
        out = format!("_{out}");
    }
    if syn::parse_str::<syn::Ident>(&out).is_err() {
        out.push('_');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_names() {
        assert_eq!(pascal("get_weather"), "GetWeather");
        assert_eq!(pascal("weather.v2-beta"), "WeatherV2Beta");
        assert_eq!(pascal("WeatherData"), "WeatherData");
        assert_eq!(pascal("3d"), "X3d");
        assert_eq!(pascal("self"), "Self_");
        assert_eq!(pascal("Self"), "Self_");
        assert_eq!(pascal("über"), "Über");
        // A fixed point, which the collision detection relies on.
        for name in ["GetWeatherInput", "HttpConfig", "Foo2", "X3d"] {
            assert_eq!(pascal(name), name);
        }
    }

    #[test]
    fn plain_type_names_are_identifiers() {
        for name in [
            "A", "Self", "Selfish", "Ab9", "A_b", "Über", "a", "9A", "", "Fn",
        ] {
            if is_plain_type_name(name) {
                assert!(syn::parse_str::<syn::Ident>(name).is_ok(), "{name}");
            }
        }
        assert!(!is_plain_type_name("Self"));
        assert!(is_plain_type_name("Selfish"));
    }

    #[test]
    fn snake_names() {
        assert_eq!(snake("get_weather").as_deref(), Some("get_weather"));
        assert_eq!(
            snake("weather.get-Forecast").as_deref(),
            Some("weather_get_forecast")
        );
        assert_eq!(snake("getWeather").as_deref(), Some("get_weather"));
        assert_eq!(snake("type").as_deref(), Some("type_"));
        assert_eq!(snake("2fa").as_deref(), Some("_2fa"));
        assert_eq!(snake("--"), None);
    }
}
