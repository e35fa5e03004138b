//! Any JSON value but one kind: the other half of a schema that uses the keywords of one kind
//! of value and has no `type`.
//!
//! `{"properties": {"name": {"type": "string"}}}` accepts every object whose `name` is a
//! string, and also `12`, `"x"`, `null` and `[]`: object keywords say nothing about other kinds
//! of value. A struct alone would reject those, so the generator makes such a schema an
//! untagged enum of the typed value and [`NotObject`] (or [`NotArray`], [`NotString`],
//! [`NotNumber`]; number keywords such as `minimum` type their own kind as [`Number`]):
//!
//! ```
//! use schemcp_runtime::other_kinds::NotObject;
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize, serde::Serialize)]
//! struct Person {
//!     name: Option<String>,
//! }
//!
//! // What the generator writes for the schema above, with a warning that it has no `type`.
//! #[derive(serde::Deserialize, serde::Serialize)]
//! #[serde(untagged)]
//! enum Named {
//!     Object(Person),
//!     NotObject(NotObject),
//! }
//!
//! let twelve: Named = serde_json::from_value(json!(12)).unwrap();
//! let Named::NotObject(other) = twelve else { unreachable!() };
//! assert_eq!(other.as_value(), &json!(12));
//! ```
//!
//! Keywords of several kinds (`{"minimum": 0, "maxLength": 3}`: numbers of at least 0, strings
//! of at most 3 characters, and every other value) make a variant per kind and one for the rest,
//! here [`NotStringOrNumber`]; the types for the rest are named after the kinds they exclude, in
//! the order object, array, string, number.
//!
//! Each type holds only values of the other kinds, whichever way it is made:
//!
//! ```
//! use schemcp_runtime::other_kinds::NotObject;
//! use serde_json::json;
//!
//! assert!(NotObject::try_from(json!({ "name": 1 })).is_err());
//! assert!(serde_json::from_value::<NotObject>(json!({})).is_err());
//! let twelve = NotObject::try_from(json!(12)).unwrap();
//! assert_eq!(serde_json::to_value(&twelve).unwrap(), json!(12));
//! ```

use std::fmt;

use serde_json::Value;

/// Any JSON number, held exactly as it was read (an integer stays an integer, `1.0` a float):
/// the typed side of a schema with number keywords (`minimum`, `multipleOf`, ...) and no
/// `type`, whose bounds validation enforces.
///
/// ```
/// use schemcp_runtime::other_kinds::Number;
/// use serde_json::json;
///
/// let big: Number = serde_json::from_value(json!(9007199254740993_u64)).unwrap();
/// assert_eq!(big.as_u64(), Some(9007199254740993));
/// ```
pub use serde_json::Number;

/// A value of a kind a [`NotObject`] (or any other type here) excludes.
#[derive(Debug, Clone, PartialEq)]
pub struct KindError {
    excluded: &'static str,
}

impl fmt::Display for KindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected any JSON value but {}", self.excluded)
    }
}

impl std::error::Error for KindError {}

macro_rules! other_than {
    ($(#[$doc:meta])* $name:ident, $($is:ident)||+, $kind:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(Value);

        impl $name {
            /// The value.
            pub fn as_value(&self) -> &Value {
                &self.0
            }

            /// The value, taken out.
            pub fn into_value(self) -> Value {
                self.0
            }
        }

        impl TryFrom<Value> for $name {
            type Error = KindError;

            fn try_from(value: Value) -> Result<Self, KindError> {
                if $(value.$is())||+ {
                    Err(KindError { excluded: $kind })
                } else {
                    Ok(Self(value))
                }
            }
        }

        impl From<$name> for Value {
            fn from(value: $name) -> Value {
                value.0
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                Self::try_from(Value::deserialize(deserializer)?).map_err(serde::de::Error::custom)
            }
        }
    };
}

other_than!(
    /// Any JSON value but an object: what a schema with object keywords (`properties`, ...)
    /// and no `type` accepts besides objects.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObject;
    /// use serde_json::json;
    ///
    /// let null = NotObject::try_from(json!(null)).unwrap();
    /// assert_eq!(serde_json::Value::from(null), json!(null));
    /// let error = NotObject::try_from(json!({})).unwrap_err();
    /// assert_eq!(error.to_string(), "expected any JSON value but an object");
    /// ```
    NotObject,
    is_object,
    "an object"
);

other_than!(
    /// Any JSON value but an array: what a schema with array keywords (`items`, ...) and no
    /// `type` accepts besides arrays.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotArray;
    /// use serde_json::json;
    ///
    /// assert!(serde_json::from_value::<NotArray>(json!([1])).is_err());
    /// let object: NotArray = serde_json::from_value(json!({ "a": [1] })).unwrap();
    /// assert_eq!(object.as_value()["a"], json!([1]));
    /// ```
    NotArray,
    is_array,
    "an array"
);

other_than!(
    /// Any JSON value but a number: what a schema with number keywords (`minimum`,
    /// `multipleOf`, ...) and no `type` accepts besides numbers.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotNumber::try_from(json!(1.5)).is_err());
    /// assert!(serde_json::from_value::<NotNumber>(json!(7)).is_err());
    /// assert_eq!(NotNumber::try_from(json!("7")).unwrap().into_value(), json!("7"));
    /// ```
    NotNumber,
    is_number,
    "a number"
);

other_than!(
    /// Any JSON value but a string: what a schema with string keywords (`minLength`,
    /// `pattern`, ...) and no `type` accepts besides strings.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotString;
    /// use serde_json::json;
    ///
    /// assert!(NotString::try_from(json!("x")).is_err());
    /// assert_eq!(NotString::try_from(json!(1.5)).unwrap().into_value(), json!(1.5));
    /// ```
    NotString,
    is_string,
    "a string"
);

other_than!(
    /// Any JSON value but an object or an array: what a schema with keywords for object and array
    /// values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObjectOrArray;
    /// use serde_json::json;
    ///
    /// assert!(NotObjectOrArray::try_from(json!([1])).is_err());
    /// assert_eq!(NotObjectOrArray::try_from(json!("x")).unwrap().into_value(), json!("x"));
    /// ```
    NotObjectOrArray,
    is_object || is_array,
    "an object or an array"
);

other_than!(
    /// Any JSON value but an object or a string: what a schema with keywords for object and string
    /// values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObjectOrString;
    /// use serde_json::json;
    ///
    /// assert!(NotObjectOrString::try_from(json!("x")).is_err());
    /// assert_eq!(NotObjectOrString::try_from(json!([1])).unwrap().into_value(), json!([1]));
    /// ```
    NotObjectOrString,
    is_object || is_string,
    "an object or a string"
);

other_than!(
    /// Any JSON value but an object or a number: what a schema with keywords for object and number
    /// values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObjectOrNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotObjectOrNumber::try_from(json!(1.5)).is_err());
    /// assert_eq!(NotObjectOrNumber::try_from(json!([1])).unwrap().into_value(), json!([1]));
    /// ```
    NotObjectOrNumber,
    is_object || is_number,
    "an object or a number"
);

other_than!(
    /// Any JSON value but an array or a string: what a schema with keywords for array and string
    /// values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotArrayOrString;
    /// use serde_json::json;
    ///
    /// assert!(NotArrayOrString::try_from(json!("x")).is_err());
    /// let kept = NotArrayOrString::try_from(json!({"a": 1})).unwrap();
    /// assert_eq!(kept.into_value(), json!({"a": 1}));
    /// ```
    NotArrayOrString,
    is_array || is_string,
    "an array or a string"
);

other_than!(
    /// Any JSON value but an array or a number: what a schema with keywords for array and number
    /// values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotArrayOrNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotArrayOrNumber::try_from(json!(1.5)).is_err());
    /// let kept = NotArrayOrNumber::try_from(json!({"a": 1})).unwrap();
    /// assert_eq!(kept.into_value(), json!({"a": 1}));
    /// ```
    NotArrayOrNumber,
    is_array || is_number,
    "an array or a number"
);

other_than!(
    /// Any JSON value but a string or a number: what a schema with keywords for string and number
    /// values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotStringOrNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotStringOrNumber::try_from(json!(1.5)).is_err());
    /// let kept = NotStringOrNumber::try_from(json!({"a": 1})).unwrap();
    /// assert_eq!(kept.into_value(), json!({"a": 1}));
    /// ```
    NotStringOrNumber,
    is_string || is_number,
    "a string or a number"
);

other_than!(
    /// Any JSON value but an object, an array or a string: what a schema with keywords for object,
    /// array and string values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObjectArrayOrString;
    /// use serde_json::json;
    ///
    /// assert!(NotObjectArrayOrString::try_from(json!("x")).is_err());
    /// assert_eq!(NotObjectArrayOrString::try_from(json!(1.5)).unwrap().into_value(), json!(1.5));
    /// ```
    NotObjectArrayOrString,
    is_object || is_array || is_string,
    "an object, an array or a string"
);

other_than!(
    /// Any JSON value but an object, an array or a number: what a schema with keywords for object,
    /// array and number values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObjectArrayOrNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotObjectArrayOrNumber::try_from(json!(1.5)).is_err());
    /// assert_eq!(NotObjectArrayOrNumber::try_from(json!("x")).unwrap().into_value(), json!("x"));
    /// ```
    NotObjectArrayOrNumber,
    is_object || is_array || is_number,
    "an object, an array or a number"
);

other_than!(
    /// Any JSON value but an object, a string or a number: what a schema with keywords for object,
    /// string and number values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObjectStringOrNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotObjectStringOrNumber::try_from(json!(1.5)).is_err());
    /// assert_eq!(NotObjectStringOrNumber::try_from(json!([1])).unwrap().into_value(), json!([1]));
    /// ```
    NotObjectStringOrNumber,
    is_object || is_string || is_number,
    "an object, a string or a number"
);

other_than!(
    /// Any JSON value but an array, a string or a number: what a schema with keywords for array,
    /// string and number values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotArrayStringOrNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotArrayStringOrNumber::try_from(json!(1.5)).is_err());
    /// let kept = NotArrayStringOrNumber::try_from(json!({"a": 1})).unwrap();
    /// assert_eq!(kept.into_value(), json!({"a": 1}));
    /// ```
    NotArrayStringOrNumber,
    is_array || is_string || is_number,
    "an array, a string or a number"
);

other_than!(
    /// Any JSON value but an object, an array, a string or a number: what a schema with keywords
    /// for object, array, string and number values and no `type` accepts besides those.
    ///
    /// ```
    /// use schemcp_runtime::other_kinds::NotObjectArrayStringOrNumber;
    /// use serde_json::json;
    ///
    /// assert!(NotObjectArrayStringOrNumber::try_from(json!(1.5)).is_err());
    /// let kept = NotObjectArrayStringOrNumber::try_from(json!(null)).unwrap();
    /// assert_eq!(kept.into_value(), json!(null));
    /// ```
    NotObjectArrayStringOrNumber,
    is_object || is_array || is_string || is_number,
    "an object, an array, a string or a number"
);
