//! Arrays whose first positions each have a schema of their own (`prefixItems`) and that may
//! stop early: what the generator makes of a `prefixItems` array of variable length.
//!
//! A Rust tuple holds arrays of one length only, so a schema such as
//! `{"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}]}` (where `[]`,
//! `[1]`, `[1, "a"]` and `[1, "a", true]` are all valid) becomes `Prefix2<f64, String>`: one
//! `Option` per position, in order, and the positions past the prefix (typed by the schema's
//! `items`, any JSON value when it has none) in a `Vec`.
//!
//! ```
//! use schemcp_runtime::prefix_items::Prefix2;
//! use serde_json::json;
//!
//! let short: Prefix2<f64, String> = serde_json::from_value(json!([1.5])).unwrap();
//! assert_eq!(short, Prefix2(Some(1.5), None, vec![]));
//! let long: Prefix2<f64, String> = serde_json::from_value(json!([1.5, "a", true])).unwrap();
//! assert_eq!(long.2, vec![json!(true)]);
//! assert_eq!(serde_json::to_value(&long).unwrap(), json!([1.5, "a", true]));
//! ```
//!
//! The positions of a valid array are filled from the first: a value with a position set after
//! an empty one (or items past an empty position) has no JSON form, and serializing it fails
//! with an error that names the position, so such a result is reported, never sent.
//!
//! ```
//! use schemcp_runtime::prefix_items::Prefix2;
//!
//! let gap: Prefix2<f64, String> = Prefix2(None, Some("a".into()), vec![]);
//! let error = serde_json::to_value(&gap).unwrap_err();
//! assert!(error.to_string().contains("position 1"), "{error}");
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{self, Serialize, SerializeSeq, Serializer};

/// The type of a position whose schema is `false` (or of the items past the prefix when
/// `items` is `false`): no JSON value is valid there, so no value of this type exists, and a
/// `Vec<NoValue>` is always empty.
///
/// ```
/// use schemcp_runtime::prefix_items::NoValue;
/// assert!(serde_json::from_value::<NoValue>(serde_json::json!(null)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NoValue {}

impl Serialize for NoValue {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

impl<'de> Deserialize<'de> for NoValue {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(de::Error::custom(
            "no value is valid here (the schema is `false`)",
        ))
    }
}

macro_rules! prefix {
    ($(#[$doc:meta])* $name:ident, $len:literal, rest $rest:tt; $($ty:ident $index:tt),+) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name<$($ty,)+ R = serde_json::Value>($(pub Option<$ty>,)+ pub Vec<R>);

        impl<$($ty,)+ R> Default for $name<$($ty,)+ R> {
            fn default() -> Self {
                $name($(prefix!(@none $index),)+ Vec::new())
            }
        }

        impl<$($ty: Serialize,)+ R: Serialize> Serialize for $name<$($ty,)+ R> {
            fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
                // The first empty position ends the array: nothing may follow it.
                let mut end: Option<usize> = None;
                $(
                    match (&self.$index, end) {
                        (Some(_), Some(empty)) => return Err(gap::<Ser::Error>($index, empty)),
                        (None, None) => end = Some($index),
                        _ => {}
                    }
                )+
                if let (Some(empty), false) = (end, self.$rest.is_empty()) {
                    return Err(gap::<Ser::Error>($len, empty));
                }
                let filled = end.unwrap_or($len);
                let mut seq = serializer.serialize_seq(Some(filled + self.$rest.len()))?;
                $(
                    if let Some(value) = &self.$index {
                        seq.serialize_element(value)?;
                    }
                )+
                for value in &self.$rest {
                    seq.serialize_element(value)?;
                }
                seq.end()
            }
        }

        impl<'de, $($ty: Deserialize<'de>,)+ R: Deserialize<'de>> Deserialize<'de>
            for $name<$($ty,)+ R>
        {
            fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
                struct Positions<$($ty,)+ R>(PhantomData<$name<$($ty,)+ R>>);

                impl<'de, $($ty: Deserialize<'de>,)+ R: Deserialize<'de>> Visitor<'de>
                    for Positions<$($ty,)+ R>
                {
                    type Value = $name<$($ty,)+ R>;

                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        write!(f, "an array (its first {} positions typed one by one)", $len)
                    }

                    fn visit_seq<Seq: SeqAccess<'de>>(self, mut seq: Seq) -> Result<Self::Value, Seq::Error> {
                        let mut value = $name::default();
                        'filled: {
                            $(
                                match seq.next_element()? {
                                    Some(item) => value.$index = Some(item),
                                    None => break 'filled,
                                }
                            )+
                            while let Some(item) = seq.next_element()? {
                                value.$rest.push(item);
                            }
                        }
                        Ok(value)
                    }
                }

                deserializer.deserialize_seq(Positions(PhantomData))
            }
        }
    };
    (@none $index:tt) => { None };
}

/// Why a value with a position set after an empty one cannot be serialized.
fn gap<E: ser::Error>(set: usize, empty: usize) -> E {
    E::custom(format!(
        "position {set} of a `prefixItems` array is set but position {empty} is empty: \
         the positions of an array are filled from the first"
    ))
}

prefix!(
    /// An array with one typed position that may be missing (see the [module](self) docs).
    ///
    /// ```
    /// use schemcp_runtime::prefix_items::Prefix1;
    /// let empty: Prefix1<i64> = serde_json::from_value(serde_json::json!([])).unwrap();
    /// assert_eq!(empty, Prefix1(None, vec![]));
    /// ```
    Prefix1, 1, rest 1; A 0
);
prefix!(
    /// An array whose first two positions are typed and may be missing (see the
    /// [module](self) docs).
    Prefix2, 2, rest 2; A 0, B 1
);
prefix!(
    /// Three typed positions, then the rest (see the [module](self) docs).
    Prefix3, 3, rest 3; A 0, B 1, C 2
);
prefix!(
    /// Four typed positions, then the rest (see the [module](self) docs).
    Prefix4, 4, rest 4; A 0, B 1, C 2, D 3
);
prefix!(
    /// Five typed positions, then the rest (see the [module](self) docs).
    Prefix5, 5, rest 5; A 0, B 1, C 2, D 3, E 4
);
prefix!(
    /// Six typed positions, then the rest (see the [module](self) docs).
    Prefix6, 6, rest 6; A 0, B 1, C 2, D 3, E 4, F 5
);
prefix!(
    /// Seven typed positions, then the rest (see the [module](self) docs).
    Prefix7, 7, rest 7; A 0, B 1, C 2, D 3, E 4, F 5, G 6
);
prefix!(
    /// Eight typed positions, then the rest (see the [module](self) docs).
    Prefix8, 8, rest 8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7
);
prefix!(
    /// Nine typed positions, then the rest (see the [module](self) docs).
    Prefix9, 9, rest 9; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8
);
prefix!(
    /// Ten typed positions, then the rest (see the [module](self) docs).
    Prefix10, 10, rest 10; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9
);
prefix!(
    /// Eleven typed positions, then the rest (see the [module](self) docs).
    Prefix11, 11, rest 11; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10
);
prefix!(
    /// Twelve typed positions, then the rest (see the [module](self) docs).
    Prefix12, 12, rest 12; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11
);

/// The most positions a generated `PrefixN` type has; a variable-length `prefixItems` with
/// more is refused by the generator.
pub const MAX_POSITIONS: usize = 12;

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn every_length_round_trips() {
        for sent in [
            json!([]),
            json!([1]),
            json!([1, "a"]),
            json!([1, "a", true, null]),
        ] {
            let typed: Prefix2<i64, String> = serde_json::from_value(sent.clone()).unwrap();
            assert_eq!(serde_json::to_value(&typed).unwrap(), sent);
        }
    }

    #[test]
    fn a_wrong_position_is_rejected_with_serdes_message() {
        let error = serde_json::from_value::<Prefix2<i64, String>>(json!([1, 2])).unwrap_err();
        assert!(error.to_string().contains("expected a string"), "{error}");
        let error = serde_json::from_value::<Prefix1<i64>>(json!({ "0": 1 })).unwrap_err();
        assert!(error.to_string().contains("an array"), "{error}");
    }

    #[test]
    fn typed_rest_and_no_rest() {
        let typed: Prefix1<String, i64> = serde_json::from_value(json!(["a", 1, 2])).unwrap();
        assert_eq!(typed, Prefix1(Some("a".into()), vec![1, 2]));
        assert!(serde_json::from_value::<Prefix1<String, NoValue>>(json!(["a", 1])).is_err());
        let closed: Prefix1<String, NoValue> = serde_json::from_value(json!(["a"])).unwrap();
        assert_eq!(serde_json::to_value(&closed).unwrap(), json!(["a"]));
    }

    #[test]
    fn a_gap_fails_to_serialize_naming_both_positions() {
        let gap: Prefix3<i64, i64, i64> = Prefix3(Some(1), None, Some(3), vec![]);
        let error = serde_json::to_value(&gap).unwrap_err().to_string();
        assert!(
            error.contains("position 2") && error.contains("position 1 is empty"),
            "{error}"
        );
        let rest: Prefix1<i64> = Prefix1(None, vec![Value::Null]);
        let error = serde_json::to_value(&rest).unwrap_err().to_string();
        assert!(
            error.contains("position 1") && error.contains("position 0 is empty"),
            "{error}"
        );
    }

    #[test]
    fn twelve_positions() {
        let sent = json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
        type Twelve = Prefix12<u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8>;
        let typed: Twelve = serde_json::from_value(sent.clone()).unwrap();
        assert_eq!(typed.11, Some(12));
        assert_eq!(serde_json::to_value(&typed).unwrap(), sent);
    }
}
