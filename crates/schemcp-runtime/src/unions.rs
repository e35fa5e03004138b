//! Reading a value into the variant of an untagged union that declares most of its members.
//!
//! serde's `#[serde(untagged)]` reads a value with the first variant that accepts it. For a
//! union of objects that allow members they do not declare (pydantic's `Union[Cat, Dog]`,
//! where neither model forbids extra members), the first variant accepts nearly everything: a
//! `Dog` sent as `{"name": "rex", "barks": 3}` was read as a `Cat` named `rex`, and `barks`
//! was dropped. The generator gives such unions a `Deserialize` that calls [`best_fit`]
//! instead: the variants are tried in order of how many of the value's members each
//! declares, and declaration order among equals, as serde would.
//!
//! ```
//! use schemcp_runtime::unions::best_fit;
//! use serde::Deserialize;
//! use serde_json::{Value, json};
//!
//! #[derive(Deserialize, Debug, PartialEq)]
//! struct Cat { name: String, meows: Option<i64> }
//! #[derive(Deserialize, Debug, PartialEq)]
//! struct Dog { name: String, barks: i64 }
//! #[derive(Debug, PartialEq)]
//! enum Pet { Cat(Cat), Dog(Dog) }
//!
//! fn read(value: &Value) -> Result<Pet, serde_json::Error> {
//!     best_fit(value, "Pet", &[
//!         (&["meows", "name"], |v| Cat::deserialize(v).map(Pet::Cat)),
//!         (&["barks", "name"], |v| Dog::deserialize(v).map(Pet::Dog)),
//!     ])
//! }
//!
//! let rex = read(&json!({"name": "rex", "barks": 3})).unwrap();
//! assert_eq!(rex, Pet::Dog(Dog { name: "rex".into(), barks: 3 }));
//! // Equally good fits go to the variant declared first.
//! let tom = read(&json!({"name": "tom"})).unwrap();
//! assert_eq!(tom, Pet::Cat(Cat { name: "tom".into(), meows: None }));
//! ```

use serde::de::Error;
use serde_json::Value;

/// One variant of a union: the JSON names of the members it declares, and how to read a value
/// as that variant.
pub type Variant<T> = (
    &'static [&'static str],
    fn(&Value) -> Result<T, serde_json::Error>,
);

/// Reads `value` with the first of `variants` that accepts it, trying those that declare more
/// of its members first (declaration order among equals, and for values that are not
/// objects). `union` names the type in the error when no variant accepts the value.
///
/// ```
/// use schemcp_runtime::unions::best_fit;
/// use serde_json::json;
///
/// let error = best_fit::<i64, serde_json::Error>(&json!("x"), "Count", &[
///     (&[], |v| serde::Deserialize::deserialize(v)),
/// ])
/// .unwrap_err();
/// assert_eq!(error.to_string(), "data did not match any variant of untagged enum Count");
/// ```
pub fn best_fit<T, E: Error>(value: &Value, union: &str, variants: &[Variant<T>]) -> Result<T, E> {
    let fit = |members: &[&str]| match value {
        Value::Object(object) => members.iter().filter(|m| object.contains_key(**m)).count(),
        _ => 0,
    };
    let mut order: Vec<(usize, &Variant<T>)> = variants
        .iter()
        .map(|variant| (fit(variant.0), variant))
        .collect();
    // Stable, so equals keep their declaration order.
    order.sort_by_key(|(fit, _)| std::cmp::Reverse(*fit));
    order
        .into_iter()
        .find_map(|(_, (_, read))| read(value).ok())
        .ok_or_else(|| {
            E::custom(format_args!(
                "data did not match any variant of untagged enum {union}"
            ))
        })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Small {
        id: String,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Wide {
        id: String,
        w: Option<f64>,
    }

    #[derive(Debug, PartialEq)]
    enum Shape {
        Small(Small),
        Wide(Wide),
        Count(i64),
    }

    fn read(value: Value) -> Result<Shape, serde_json::Error> {
        best_fit(
            &value,
            "Shape",
            &[
                (&["id"], |v| Small::deserialize(v).map(Shape::Small)),
                (&["id", "w"], |v| Wide::deserialize(v).map(Shape::Wide)),
                (&[], |v| i64::deserialize(v).map(Shape::Count)),
            ],
        )
    }

    #[test]
    fn the_variant_declaring_most_members_reads_the_value() {
        let wide = read(json!({"id": "a", "w": 2.5})).unwrap();
        assert_eq!(
            wide,
            Shape::Wide(Wide {
                id: "a".into(),
                w: Some(2.5)
            })
        );
    }

    #[test]
    fn equal_fits_and_other_kinds_keep_declaration_order() {
        assert_eq!(
            read(json!({"id": "a"})).unwrap(),
            Shape::Small(Small { id: "a".into() })
        );
        assert_eq!(read(json!(3)).unwrap(), Shape::Count(3));
    }

    #[test]
    fn a_better_fit_that_does_not_read_the_value_gives_way() {
        // `w` is declared by `Wide`, which cannot read a string there.
        let small = read(json!({"id": "a", "w": "wide"})).unwrap();
        assert_eq!(small, Shape::Small(Small { id: "a".into() }));
    }

    #[test]
    fn no_fitting_variant_is_an_error_naming_the_union() {
        let error = read(json!("x")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "data did not match any variant of untagged enum Shape"
        );
    }
}
