//! Reading a value into the variant of an untagged union that declares most of its members.
//!
//! serde's `#[serde(untagged)]` reads a value with the first variant that accepts it. For a
//! union of objects that allow members they do not declare (pydantic's `Union[Cat, Dog]`,
//! where neither model forbids extra members), the first variant accepts nearly everything: a
//! `Dog` sent as `{"name": "rex", "barks": 3}` was read as a `Cat` named `rex`, and `barks`
//! was dropped. The generator gives such unions a `Deserialize` that calls [`best_fit`]
//! instead: the variants are tried in order of how many of the value's members each
//! declares, and declaration order among equals, as serde would; the first that reads the
//! value without changing it is taken.
//!
//! ```
//! use schemcp_runtime::unions::best_fit;
//! use serde::{Deserialize, Serialize};
//! use serde_json::{Value, json};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Cat { name: String, #[serde(skip_serializing_if = "Option::is_none")] meows: Option<i64> }
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Dog { name: String, barks: i64 }
//! #[derive(Serialize, Debug, PartialEq)]
//! #[serde(untagged)]
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

use serde::Serialize;
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

/// Reads `value` with the variant that keeps it, trying those that declare more of its members
/// first (declaration order among equals, and for values that are not objects). A variant
/// keeps the value when writing what it read gives back every member of the value, unchanged
/// (a default it fills in adds one); the first that does is taken. When none does (a member no
/// variant declares is dropped), the first variant that accepts the value is. `union` names
/// the type in the error when no variant accepts the value.
///
/// Keeping matters where a variant accepts a value it changes: serde reads an explicit `null`
/// as an absent optional member, so a variant declaring `b` as an optional object read
/// `{"b": null}` as `{}`, while the variant the schema gives that value keeps `b` in its map
/// of other members.
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
pub fn best_fit<T: Serialize, E: Error>(
    value: &Value,
    union: &str,
    variants: &[Variant<T>],
) -> Result<T, E> {
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
    let mut first_accepting = None;
    for (_, (_, read)) in order {
        let Ok(read) = read(Strict(value)) else {
            continue;
        };
        if keeps(value, &read) {
            return Ok(read);
        }
        first_accepting.get_or_insert(read);
    }
    first_accepting.ok_or_else(|| {
        E::custom(format_args!(
            "data did not match any variant of untagged enum {union}"
        ))
    })
}

/// Whether `read`, written back, holds all of `value` (see [`kept`]).
fn keeps(value: &Value, read: &impl Serialize) -> bool {
    serde_json::to_value(read).is_ok_and(|written| kept(value, &written))
}

/// Whether `written` holds `sent`: the same, except that objects may have more members (a
/// default filled in), at any depth; numbers compared by value as JSON Schema compares them
/// (`2` and `2.0` are equal).
fn kept(sent: &Value, written: &Value) -> bool {
    match (sent, written) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => a == b,
                _ => a.as_f64() == b.as_f64(),
            },
        },
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| kept(a, b))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(name, a)| b.get(name).is_some_and(|b| kept(a, b))),
        (a, b) => a == b,
    }
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

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Small {
        id: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Wide {
        id: String,
        w: Option<f64>,
    }

    #[derive(Serialize, Debug, PartialEq)]
    #[serde(untagged)]
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
    fn a_variant_that_keeps_the_value_beats_a_better_fit_that_changes_it() {
        // The schema's `oneOf`: `{b?: object}` closed, or any object. `{"b": null}` is only
        // the second's, but serde reads the `null` as an absent `b` in the first.
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        #[serde(deny_unknown_fields)]
        struct Closed {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            b: Option<Small>,
        }
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct Open {
            #[serde(flatten)]
            extra: serde_json::Map<String, Value>,
        }
        #[derive(Serialize, Debug, PartialEq)]
        #[serde(untagged)]
        enum Either {
            Closed(Closed),
            Open(Open),
        }
        let read = |value: Value| {
            best_fit::<_, serde_json::Error>(
                &value,
                "Either",
                &[
                    (&["b"], |v| Closed::deserialize(v).map(Either::Closed)),
                    (&[], |v| Open::deserialize(v).map(Either::Open)),
                ],
            )
            .unwrap()
        };
        let kept = read(json!({"b": null}));
        assert_eq!(serde_json::to_value(&kept).unwrap(), json!({"b": null}));
        assert!(matches!(kept, Either::Open(_)), "{kept:?}");
        // The better fit still reads what it keeps.
        let closed = read(json!({"b": {"id": "x"}}));
        assert!(matches!(closed, Either::Closed(_)), "{closed:?}");
    }

    #[test]
    fn a_value_is_kept_with_its_numbers_equal_in_value_and_defaults_added() {
        assert!(kept(&json!({"w": [1, 2]}), &json!({"w": [1.0, 2]})));
        assert!(kept(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(!kept(&json!(-1), &json!(u64::MAX)));
        assert!(!kept(&json!({"w": 1}), &json!({"w": 1.5})));
        assert!(kept(&json!({"w": {}}), &json!({"w": {"x": 9}})));
        assert!(!kept(&json!({"w": 1, "x": null}), &json!({"w": 1})));
        assert!(!kept(&json!([1]), &json!([1, 1])));
    }

    #[test]
    fn a_variant_that_fills_in_a_default_keeps_the_value() {
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct Cat {
            name: String,
            #[serde(default = "nine")]
            lives: i64,
        }
        fn nine() -> i64 {
            9
        }
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct Dog {
            name: String,
        }
        #[derive(Serialize, Debug, PartialEq)]
        #[serde(untagged)]
        enum Pet {
            Cat(Cat),
            Dog(Dog),
        }
        // Both read `{"name": "tom"}`; the first declared, which adds `lives`, still keeps it.
        let pet = best_fit::<_, serde_json::Error>(
            &json!({"name": "tom"}),
            "Pet",
            &[
                (&["lives", "name"], |v| Cat::deserialize(v).map(Pet::Cat)),
                (&["name"], |v| Dog::deserialize(v).map(Pet::Dog)),
            ],
        )
        .unwrap();
        assert!(matches!(pet, Pet::Cat(_)), "{pet:?}");
    }

    #[test]
    fn when_no_variant_keeps_the_value_the_first_that_reads_it_does() {
        // `x` is declared by no variant: both drop it, and the order decides as before.
        let wide = read(json!({"id": "a", "w": 1, "x": 2})).unwrap();
        assert!(matches!(wide, Shape::Wide(_)), "{wide:?}");
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
        // Both variants drop `z`, so neither keeps the value and the first that reads it is
        // taken: serde's own reading would take `v: [1]` as the point `{x: 1}`.
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct Point {
            x: Option<i64>,
        }
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct At {
            v: Point,
        }
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct List {
            v: Vec<i64>,
        }
        #[derive(Serialize, Debug, PartialEq)]
        #[serde(untagged)]
        enum Pick {
            At(At),
            List(List),
        }
        let read = |value: Value| {
            best_fit::<Pick, serde_json::Error>(
                &value,
                "Pick",
                &[
                    (&["v"], |v| At::deserialize(v).map(Pick::At)),
                    (&["v"], |v| List::deserialize(v).map(Pick::List)),
                ],
            )
        };
        assert_eq!(
            read(json!({"v": [1], "z": 0})).unwrap(),
            Pick::List(List { v: vec![1] })
        );
        assert_eq!(
            read(json!({"v": {"x": 2}, "z": 0})).unwrap(),
            Pick::At(At {
                v: Point { x: Some(2) }
            })
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
