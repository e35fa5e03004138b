//! JSON Schema 2020-12 keyword groups that the loader, the generator and the diff engine all
//! reason about, so each of them reads the same list.

/// Keywords that never change which values are valid: annotations (`default` and `examples`
/// included, which 2020-12 does not assert).
///
/// ```
/// assert!(schemcp_contract::keywords::ANNOTATIONS.contains(&"description"));
/// assert!(!schemcp_contract::keywords::ANNOTATIONS.contains(&"required"));
/// ```
pub const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Keywords that apply their subschemas to the same value as the schema they stand in
/// (besides the references, `$ref` and `$dynamicRef`, which do too).
///
/// ```
/// assert!(schemcp_contract::keywords::IN_PLACE_APPLICATORS.contains(&"allOf"));
/// assert!(!schemcp_contract::keywords::IN_PLACE_APPLICATORS.contains(&"properties"));
/// ```
pub const IN_PLACE_APPLICATORS: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
];

/// Keywords whose value is a count (a non-negative integer; 2020-12 also allows it written as a
/// float without a fraction, such as `2.0`).
///
/// ```
/// assert!(schemcp_contract::keywords::COUNTS.contains(&"maxLength"));
/// assert!(!schemcp_contract::keywords::COUNTS.contains(&"maximum"));
/// ```
pub const COUNTS: &[&str] = &[
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];

/// Every keyword of JSON Schema 2020-12, and of the drafts before it (`definitions`,
/// `dependencies`, `additionalItems`, `$recursiveRef`), annotations included: a key outside
/// this list belongs to no vocabulary, and validators ignore it (`markdownDescription`,
/// `doNotSuggest`).
///
/// ```
/// use schemcp_contract::keywords::VOCABULARY;
/// assert!(VOCABULARY.contains(&"pattern") && VOCABULARY.contains(&"description"));
/// assert!(!VOCABULARY.contains(&"markdownDescription"));
/// ```
pub const VOCABULARY: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "definitions",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];
