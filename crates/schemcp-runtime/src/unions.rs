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

use serde::de::value::{BorrowedStrDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error, IntoDeserializer, Unexpected,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;
use serde_json::Value;

/// One variant of a union: the JSON names of the members it declares, and how to read a value
/// as that variant.
pub type Variant<T> = (
    &'static [&'static str],
    fn(Strict<'_>) -> Result<T, serde_json::Error>,
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
        .find_map(|(_, (_, read))| read(Strict(value)).ok())
        .ok_or_else(|| {
            E::custom(format_args!(
                "data did not match any variant of untagged enum {union}"
            ))
        })
}

/// A [`Value`] read as serde_json reads a `&Value`, except that a struct is never read from an
/// array. serde's derived `Deserialize` for a struct also takes its members in order from an
/// array, so while a union tried its variants, `{"v": [1]}` was read by the variant whose `v`
/// is an object `{x}` as `{"v": {"x": 1}}`: a value the schema gives the other variant, changed.
/// [`best_fit`] reads every variant through this, nested values included.
///
/// ```
/// use schemcp_runtime::unions::Strict;
/// use serde::Deserialize;
/// use serde_json::json;
///
/// #[derive(Deserialize, Debug)]
/// struct Point { x: i64 }
///
/// let array = json!([1]);
/// assert!(serde_json::from_value::<Point>(array.clone()).is_ok()); // serde's reading
/// assert!(Point::deserialize(Strict(&array)).is_err());
/// assert_eq!(Point::deserialize(Strict(&json!({"x": 1}))).unwrap().x, 1);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Strict<'a>(pub &'a Value);

impl<'de> Deserializer<'de> for Strict<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => n.clone().deserialize_any(visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => {
                let mut items = SeqDeserializer::new(items.iter().map(Strict));
                let value = visitor.visit_seq(&mut items)?;
                items.end()?;
                Ok(value)
            }
            Value::Object(members) => {
                let mut members =
                    MapDeserializer::new(members.iter().map(|(k, v)| (Key(k), Strict(v))));
                let value = visitor.visit_map(&mut members)?;
                members.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Array(_) => Err(de::Error::invalid_type(Unexpected::Seq, &visitor)),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(name) => visitor.visit_enum(BorrowedStrDeserializer::new(name)),
            Value::Object(members) if members.len() == 1 => {
                let (name, value) = members.iter().next().expect("one member");
                visitor.visit_enum(OneKey { name, value })
            }
            _ => Err(de::Error::invalid_type(
                Unexpected::Other("a value that is neither a string nor a one-member map"),
                &visitor,
            )),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map identifier
    }
}

impl<'de> IntoDeserializer<'de, serde_json::Error> for Strict<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// A member name, lent to the reader as serde_json lends it.
struct Key<'a>(&'a str);

impl<'de> IntoDeserializer<'de, serde_json::Error> for Key<'de> {
    type Deserializer = BorrowedStrDeserializer<'de, serde_json::Error>;

    fn into_deserializer(self) -> Self::Deserializer {
        BorrowedStrDeserializer::new(self.0)
    }
}

/// An enum written as a map of one member, the variant's name to its value.
struct OneKey<'a> {
    name: &'a str,
    value: &'a Value,
}

impl<'de> EnumAccess<'de> for OneKey<'de> {
    type Error = serde_json::Error;
    type Variant = Strict<'de>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Strict<'de>), Self::Error> {
        let name = seed.deserialize(BorrowedStrDeserializer::<Self::Error>::new(self.name))?;
        Ok((name, Strict(self.value)))
    }
}

impl<'de> VariantAccess<'de> for Strict<'de> {
    type Error = serde_json::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        serde::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, Self::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_struct("", fields, visitor)
    }
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
    fn strict_reads_what_serde_json_reads_except_structs_from_arrays() {
        use std::collections::BTreeMap;

        #[derive(Deserialize, Debug, PartialEq)]
        enum Mode {
            Fast,
            Slow,
            Every(u32),
            Window { from: i64, to: i64 },
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct Inner {
            x: Option<i64>,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct All {
            name: String,
            ratio: f64,
            count: u8,
            nothing: Option<Option<bool>>,
            modes: Vec<Mode>,
            pair: (i64, String),
            inner: Inner,
            boxed: Box<Inner>,
            map: BTreeMap<String, Value>,
            #[serde(flatten)]
            extra: serde_json::Map<String, Value>,
        }
        let value = json!({
            "name": "n", "ratio": 0.5, "count": 3, "nothing": null,
            "modes": ["Fast", {"Every": 2}, {"Window": {"from": 1, "to": 2}}, "Slow"],
            "pair": [1, "a"], "inner": {"x": 1}, "boxed": {}, "map": {"k": [1, {"a": null}]},
            "other": {"deep": [true]}
        });
        let strict = All::deserialize(Strict(&value)).unwrap();
        assert_eq!(
            strict,
            serde_json::from_value::<All>(value.clone()).unwrap()
        );
        let mut as_array = value.clone();
        as_array["inner"] = json!([1]);
        assert!(serde_json::from_value::<All>(as_array.clone()).is_ok());
        let error = All::deserialize(Strict(&as_array)).unwrap_err();
        assert!(
            error.to_string().contains("invalid type: sequence"),
            "{error}"
        );
    }

    #[test]
    fn a_variant_whose_member_is_an_object_does_not_read_an_array_there() {
        #[derive(Deserialize, Debug, PartialEq)]
        struct Point {
            x: Option<i64>,
        }
        #[derive(Debug, PartialEq)]
        enum Pick {
            Point(Option<Point>),
            List(Option<Vec<i64>>),
        }
        let read = |value: Value| {
            best_fit::<Pick, serde_json::Error>(
                &value,
                "Pick",
                &[
                    (&["v"], |v| Option::<Point>::deserialize(v).map(Pick::Point)),
                    (&["v"], |v| {
                        Option::<Vec<i64>>::deserialize(v).map(Pick::List)
                    }),
                ],
            )
        };
        assert_eq!(read(json!([1])).unwrap(), Pick::List(Some(vec![1])));
        assert_eq!(
            read(json!({"x": 2})).unwrap(),
            Pick::Point(Some(Point { x: Some(2) }))
        );
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
