//! The generator's rules against silent loss, on single schemas: what it cannot type is an
//! error naming the pointer, or, with `fallback_to_value(true)`, `serde_json::Value` with a
//! warning naming each pointer; never a panic, never code that does not compile.

use schemcp_build::Builder;
use serde_json::{Map, Value, json};

fn tool(output: Value) -> Map<String, Value> {
    json!({ "name": "t", "inputSchema": { "type": "object" }, "outputSchema": output })
        .as_object()
        .unwrap()
        .clone()
}

fn strict(output: Value) -> Result<(String, Vec<String>), Vec<String>> {
    Builder::new()
        .generate_unchecked("t", &tool(output))
        .map(|(files, warnings)| (files[0].1.clone(), warnings))
}

fn lenient(output: Value) -> (String, Vec<String>) {
    Builder::new()
        .fallback_to_value(true)
        // For the `x-rust-type` that makes typify fail (a type parameter it cannot read).
        .extern_crate("chrono", "*")
        .generate_unchecked("t", &tool(output))
        .map(|(files, warnings)| (files[0].1.clone(), warnings))
        .unwrap_or_else(|e| panic!("refused: {e:?}"))
}

/// The generated `enum` named `name`, up to its closing brace.
fn enum_body<'a>(code: &'a str, name: &str) -> &'a str {
    let start = code
        .find(&format!("pub enum {name} "))
        .unwrap_or_else(|| panic!("no enum {name}: {code}"));
    &code[start..start + code[start..].find("\n}").unwrap()]
}

#[test]
fn untyped_keywords_are_an_exact_enum_an_error_or_an_explicit_value() {
    // `{"properties": ...}` without `type` also accepts 12; an inferred struct would not. Its
    // keywords are all for objects, so the type is exact: a struct for objects, or any other
    // kind of value.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "a": { "properties": { "b": { "type": "string" } } } }
    }))
    .unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/properties/a [other-kinds] this schema uses"),
        "{warnings:?}"
    );
    assert!(
        code.contains("NotObject(::schemcp_runtime::other_kinds::NotObject),"),
        "{code}"
    );
    // Keywords of two kinds, each applying to its own kind only: exact too, a variant per
    // kind and one for every other kind of value.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "a": { "properties": {}, "items": { "type": "string" } } }
    }))
    .unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/properties/a [other-kinds] this schema uses"),
        "{warnings:?}"
    );
    let a = enum_body(&code, "TOutputA");
    assert!(
        a.contains("Array(::std::vec::Vec<::std::string::String>),")
            && a.contains("NotObjectOrArray(::schemcp_runtime::other_kinds::NotObjectOrArray),"),
        "{code}"
    );
    // Numbers are `serde_json::Number` (every number as it was read), strings checked.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "a": { "minimum": 0, "maxLength": 3, "description": "A limit." } }
    }))
    .unwrap();
    assert!(
        warnings[0].contains("(`String` and `Number`)")
            && warnings[0].contains("NotStringOrNumber"),
        "{warnings:?}"
    );
    let a = enum_body(&code, "TOutputA");
    assert!(
        a.contains("String(TOutputAString),")
            && a.contains("Number(::schemcp_runtime::other_kinds::Number),")
            && a.contains("NotStringOrNumber(::schemcp_runtime::other_kinds::NotStringOrNumber),"),
        "{code}"
    );
    assert!(code.contains("///A limit.\n"), "{code}");
    // A `default` beside them was refused with the schema; now the schema is typed, and the
    // default, which typify cannot hold in the runtime's types, is a warning.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "a": { "minimum": 1, "maxLength": 3, "default": 2 } }
    }))
    .unwrap();
    assert!(code.contains("pub enum TOutputA "), "{code}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("[untyped-default]")
                && w.contains("/outputSchema/properties/a/default")),
        "{warnings:?}"
    );
    // A member named "" is a field like any other (`x`, renamed ""), in the object part too.
    let (code, _) = strict(json!({
        "type": "object",
        "properties": { "a": { "properties": { "": { "type": "string" } } } }
    }))
    .unwrap();
    assert!(code.contains("#[serde(rename = \"\""), "{code}");
    // Where one kind's part has no exact type (`unevaluatedProperties` beside a `oneOf` with a
    // `$ref`, which declares members the struct cannot see): an error, or with the opt-in an
    // explicit Value.
    let schema = json!({
        "type": "object",
        "$defs": { "p": { "type": "object", "properties": { "c": { "type": "integer" } } } },
        "properties": {
            "a": {
                "properties": { "b": { "type": "string" } },
                "oneOf": [{ "$ref": "#/$defs/p" }, { "required": ["b"] }],
                "unevaluatedProperties": false
            }
        }
    });
    let errors = strict(schema.clone()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("/outputSchema/properties/a [untyped-schema] this schema uses"),
        "{errors:?}"
    );
    let (code, warnings) = lenient(schema);
    assert_eq!(
        warnings.len(),
        1,
        "only the untyped part degrades: {warnings:?}"
    );
    assert!(
        warnings[0].starts_with("/outputSchema/properties/a [fallback-to-value]"),
        "{warnings:?}"
    );
    assert!(code.contains("serde_json::Value"), "{code}");
    // A type on the schema it is combined with is enough.
    strict(json!({ "type": "string", "allOf": [{ "maxLength": 2 }] })).unwrap();
    // typify makes `anyOf` a struct of optional parts, which only objects fit: one with a
    // branch that leaves its kind open is typed as the `oneOf` it can be, a variant per branch.
    let (code, warnings) =
        strict(json!({ "anyOf": [{ "type": "integer" }, { "minimum": 2 }] })).unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/anyOf/1 [other-kinds]"),
        "{warnings:?}"
    );
    let output = enum_body(&code, "TOutput");
    assert!(
        output.contains("Variant0(i64),") && code.contains("#[serde(untagged)]"),
        "{code}"
    );
    assert!(
        code.contains("Number(::schemcp_runtime::other_kinds::Number)"),
        "{code}"
    );
    // Beside a `oneOf` too: the two become branches of an `allOf` (typify asserts a schema
    // has only one of them, and panicked), each typed as above.
    let (code, warnings) = strict(json!({
        "anyOf": [{ "type": "integer" }, { "minimum": 2 }],
        "oneOf": [{ "type": "integer" }, { "type": "string" }]
    }))
    .unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/anyOf/1 [other-kinds]"),
        "{warnings:?}"
    );
    assert!(code.contains("pub enum TOutput "), "{code}");
}

#[test]
fn properties_that_would_become_the_same_field_get_numbered_fields() {
    // typify 0.8 gives all three the field `foo_bar`, which does not compile.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            "foo\nbar": { "type": "number" },
            "foo\"bar": { "type": "string" },
            "foo_bar": { "type": "boolean" }
        },
        "required": ["foo\nbar", "foo\"bar", "foo_bar"]
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let start = code.find("pub struct TOutput ").expect("the struct");
    let output = &code[start..start + code[start..].find("\n}").unwrap()];
    let fields: Vec<&str> = output
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("pub foo_bar") || l.starts_with("#[serde(rename"))
        .collect();
    assert_eq!(
        fields,
        [
            r#"#[serde(rename = "foo\nbar")]"#,
            "pub foo_bar_2: f64,",
            r#"#[serde(rename = "foo\"bar")]"#,
            "pub foo_bar_3: ::std::string::String,",
            "pub foo_bar: bool,",
        ],
        "{output}"
    );
}

#[test]
fn unsupported_keywords_degrade_only_their_own_subschema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "pair": {
                "type": "array",
                "prefixItems": vec![json!({ "type": "integer" }); 13]
            },
            "name": { "type": "string" }
        },
        "required": ["pair", "name"]
    });
    let errors = strict(schema.clone()).unwrap_err();
    assert!(
        errors[0].starts_with("/outputSchema/properties/pair/prefixItems [unsupported-schema]"),
        "{errors:?}"
    );
    let (code, warnings) = lenient(schema);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/properties/pair [fallback-to-value]")
            && warnings[0].contains("`prefixItems`"),
        "{warnings:?}"
    );
    // The rest keeps its type.
    assert!(code.contains("pub name: ::std::string::String"), "{code}");
    assert!(
        code.contains("pub pair: ::schemcp_runtime::__private::serde_json::Value"),
        "{code}"
    );
}

#[test]
fn number_count_and_unique_keywords_without_type_are_exact_enums() {
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            // `$anchor` names the schema for references; it says nothing of values.
            "n": { "$anchor": "half", "minimum": 1, "multipleOf": 0.5 },
            // A count written as an integral float is a count (typify's model wants an integer).
            "s": { "maxLength": 2.0 },
            "u": { "uniqueItems": true }
        }
    }))
    .unwrap();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings.iter().all(|w| w.contains("[other-kinds]")),
        "{warnings:?}"
    );
    for variants in [
        "Number(::schemcp_runtime::other_kinds::Number),\n    NotNumber(::schemcp_runtime::other_kinds::NotNumber),",
        "NotString(::schemcp_runtime::other_kinds::NotString),",
        "Array(::std::vec::Vec<::schemcp_runtime::__private::serde_json::Value>),",
    ] {
        assert!(code.contains(variants), "{variants}: {code}");
    }
}

#[test]
fn an_all_of_of_member_declarations_without_type_is_one_struct_or_another_kind() {
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "p": {
            "allOf": [
                { "properties": { "a": { "type": "string" } }, "required": ["a"] },
                { "properties": { "b": { "type": "integer" } } }
            ],
            "unevaluatedProperties": false
        } }
    }))
    .unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/properties/p [other-kinds]"),
        "{warnings:?}"
    );
    let p = enum_body(&code, "TOutputP");
    assert!(
        p.contains("a: ::std::string::String,")
            && p.contains("b: ::std::option::Option<i64>,")
            && p.contains("NotObject(::schemcp_runtime::other_kinds::NotObject),"),
        "{code}"
    );
    // Likewise `anyOf` and `oneOf`: a variant per branch.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "p": {
            "properties": { "a": { "type": "string" } },
            "anyOf": [{ "required": ["a"] }, { "properties": { "b": { "type": "integer" } } }]
        } }
    }))
    .unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/properties/p [other-kinds]"),
        "{warnings:?}"
    );
    assert!(
        code.contains("NotObject(::schemcp_runtime::other_kinds::NotObject),"),
        "{code}"
    );
    // A branch that lets undeclared members through (`additionalProperties`) would have the
    // merged struct drop them: they are kept in a map beside the declared members instead.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "p": {
            "allOf": [{ "additionalProperties": true }],
            "properties": { "a": { "type": "string" } },
            "unevaluatedProperties": false
        } }
    }))
    .unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/properties/p [other-kinds]"),
        "{warnings:?}"
    );
    let p = enum_body(&code, "TOutputP");
    assert!(
        p.contains("a: ::std::option::Option<::std::string::String>,")
            && p.contains("#[serde(flatten)]")
            && p.contains("extra: ::schemcp_runtime::__private::serde_json::Map<"),
        "{p}"
    );
}

#[test]
fn const_values_are_types_that_hold_only_that_value() {
    // typify alone ignores `const`: `{"const": 2}` was `serde_json::Value`.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            "version": { "type": "string", "const": "v1" },
            "scale": { "const": 2 }
        },
        "required": ["version", "scale"]
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(code.contains("pub enum TOutputVersion"), "{code}");
    assert!(code.contains("V1,"), "{code}");
    assert!(code.contains("if ![2_i64].contains(&value)"), "{code}");
    // A tag written as `const` still makes an internally tagged enum.
    let (code, _) = strict(json!({
        "oneOf": [
            {
                "type": "object",
                "properties": { "kind": { "const": "circle" }, "r": { "type": "number" } },
                "required": ["kind", "r"]
            },
            {
                "type": "object",
                "properties": { "kind": { "const": "square" }, "side": { "type": "number" } },
                "required": ["kind", "side"]
            }
        ]
    }))
    .unwrap();
    assert!(code.contains("#[serde(tag = \"kind\")]"), "{code}");
}

#[test]
fn boolean_branches_settle_to_every_value_or_none() {
    // typify panics on each of these.
    let (code, warnings) = strict(json!({ "oneOf": [true, false, false] })).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(
        code.contains("pub type TOutput = ::schemcp_runtime::__private::serde_json::Value;"),
        "{code}"
    );
    let (code, warnings) = strict(json!({ "anyOf": [false, false] })).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(code.contains("pub enum TOutput {}"), "{code}");
    // A `true` beside other branches counts: in a `oneOf` it holds whatever the others do not
    // match, so its variant holds any value.
    for keyword in ["oneOf", "anyOf"] {
        let (code, warnings) = strict(json!({ keyword: [true, { "type": "string" }] }))
            .unwrap_or_else(|e| panic!("{keyword}: {e:?}"));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(
            code.contains("Variant0(::schemcp_runtime::__private::serde_json::Value)"),
            "{code}"
        );
    }
}

#[test]
fn boolean_schemas_are_schemas() {
    let (code, warnings) = strict(json!(true)).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(code.contains("serde_json::Value"), "{code}");
    // `false` accepts nothing; it still generates code (validation rejects every value).
    let (code, _) = strict(json!(false)).unwrap();
    assert!(code.contains("fn t("), "{code}");
}

#[test]
fn a_nullable_root_is_an_option_of_its_value() {
    // typify makes `Option<T>` around a `T` named like the schema itself, which would collide
    // with the root's alias: the generator names `T` `{Root}Value`.
    for schema in [
        json!({ "enum": [6, null] }),
        json!({ "type": ["string", "null"], "pattern": "^a" }),
        json!({ "type": ["object", "null"], "properties": { "a": { "type": "string" } } }),
        json!({ "anyOf": [{ "type": "object", "properties": { "a": { "type": "string" } } }, { "type": "null" }] }),
        json!({ "oneOf": [{ "type": "string", "enum": ["a"] }, { "type": "null" }] }),
    ] {
        let (code, warnings) = strict(schema.clone()).unwrap_or_else(|e| panic!("{schema}: {e:?}"));
        assert!(warnings.is_empty(), "{schema}: {warnings:?}");
        assert!(
            code.contains("pub type TOutput = ::std::option::Option<TOutputValue>;"),
            "{schema}: {code}"
        );
    }
}

#[test]
fn pointer_root_and_anchor_references_are_hoisted_into_definitions() {
    // typify resolves only `#/$defs/<name>`; the generator copies other local targets there.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            "a": { "type": "string", "minLength": 1 },
            "b": { "$ref": "#/properties/a" },
            "c": { "$ref": "#item" },
            "children": { "type": "array", "items": { "$ref": "#" } }
        },
        "required": ["a"],
        "$defs": { "X": { "$anchor": "item", "type": "integer" } }
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(code.contains("pub b: ::std::option::Option<A>"), "{code}");
    // The member the pointer names holds the same type, not a twin of it.
    assert!(code.contains("pub a: A,"), "{code}");
    assert!(code.contains("pub c: ::std::option::Option<X>"), "{code}");
    assert!(
        !code.contains("X2"),
        "an anchored definition is not copied: {code}"
    );
    // A reference to the root is the root's own type, not a twin of it.
    assert!(
        code.contains("pub children: ::std::option::Option<::std::vec::Vec<TOutput>>"),
        "{code}"
    );
    assert_eq!(code.matches("pub children:").count(), 1, "{code}");
    // A reference that names nothing is still refused at its pointer.
    let errors = strict(json!({ "type": "object", "properties": { "b": { "$ref": "#/nope" } } }))
        .unwrap_err();
    assert!(
        errors[0].starts_with("/outputSchema/properties/b/$ref [unsupported-ref]"),
        "{errors:?}"
    );
}

#[test]
fn a_pointer_target_inside_another_is_one_type_everywhere() {
    // `x` is a target inside the target `a`, which refers to the root: each is one type, used
    // where it stands and where it is referenced.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            "a": {
                "type": "object",
                "properties": { "x": { "type": "integer" }, "self": { "$ref": "#" } }
            },
            "c": { "$ref": "#/properties/a/properties/x" },
            "d": { "$ref": "#/properties/a" }
        }
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    for field in [
        "pub a: ::std::option::Option<A>",
        "pub d: ::std::option::Option<A>",
        "pub x: ::std::option::Option<X>",
        "pub c: ::std::option::Option<X>",
        "pub self_: ::std::option::Option<::std::boxed::Box<TOutput>>",
    ] {
        assert_eq!(code.matches(field).count(), 1, "{field}: {code}");
    }
    for ty in ["pub struct A ", "pub struct X(", "pub struct TOutput "] {
        assert_eq!(code.matches(ty).count(), 1, "{ty}: {code}");
    }
}

#[test]
fn a_nullable_definition_is_an_option_of_its_value() {
    // typify makes a nullable definition `struct E(Option<T>)` and names `T` after `E`; the
    // generator makes the non-null part a definition `EValue` of its own.
    for definition in [
        json!({ "enum": ["x", null] }),
        json!({ "type": ["object", "null"], "properties": { "a": { "type": "string" } } }),
        json!({ "oneOf": [{ "type": "string", "pattern": "^a" }, { "type": "null" }] }),
        json!({ "type": ["string", "integer", "null"] }),
    ] {
        let schema = json!({
            "type": "object",
            "properties": { "n": { "$ref": "#/$defs/E" } },
            "$defs": { "E": definition }
        });
        let (code, warnings) =
            strict(schema.clone()).unwrap_or_else(|e| panic!("{definition}: {e:?}"));
        assert!(warnings.is_empty(), "{definition}: {warnings:?}");
        assert!(
            code.contains("pub struct E(pub ::std::option::Option<EValue>);"),
            "{definition}: {code}"
        );
    }
    // Diagnostics inside the non-null part point where it is written.
    let (_, warnings) = strict(json!({
        "type": "object",
        "properties": { "n": { "$ref": "#/$defs/E" } },
        "$defs": { "E": { "oneOf": [
            { "type": "null" },
            { "type": "object", "properties": { "x": { "minLength": 1 } } }
        ] } }
    }))
    .unwrap();
    assert!(
        warnings[0].starts_with("/outputSchema/$defs/E/oneOf/1/properties/x [other-kinds]"),
        "{warnings:?}"
    );
    // The name is free of the other definitions' names.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": { "n": { "$ref": "#/$defs/E" }, "v": { "$ref": "#/$defs/EValue" } },
        "$defs": { "E": { "enum": ["x", null] }, "EValue": { "type": "integer" } }
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(
        code.contains("pub struct E(pub ::std::option::Option<EValue1>);")
            && code.contains("pub v: ::std::option::Option<EValue>,"),
        "{code}"
    );
    // A native type inside needs no name of its own.
    let (code, _) = strict(json!({
        "type": "object",
        "properties": { "n": { "$ref": "#/$defs/E" } },
        "$defs": { "E": { "type": ["string", "null"] } }
    }))
    .unwrap();
    assert!(
        code.contains("pub struct E(pub ::std::option::Option<::std::string::String>);"),
        "{code}"
    );
}

#[test]
fn a_definition_without_a_unique_name_is_reported_at_its_pointer() {
    // A titled branch keeps its title, which typify ignores inside `Option<T>`: `T` is named
    // like the definition.
    let schema = json!({
        "type": "object",
        "properties": { "n": { "$ref": "#/$defs/E" } },
        "$defs": { "E": { "anyOf": [{ "title": "Named", "enum": ["x"] }, { "type": "null" }] } }
    });
    let errors = strict(schema.clone()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("/outputSchema/$defs/E [type-name-collision]"),
        "{errors:?}"
    );
    let (code, warnings) = lenient(schema);
    assert!(
        warnings[0].starts_with("/outputSchema/$defs/E [fallback-to-value]"),
        "{warnings:?}"
    );
    assert!(code.contains("serde_json::Value"), "{code}");
}

#[test]
fn enum_values_typify_would_name_alike_get_spelled_out_variants() {
    // typify 0.8 panics on these ("Failed to make unique variant names"): all four are `X`.
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            "op": { "type": "string", "enum": ["+", "-", "*", "/"], "default": "*" },
            "method": { "enum": ["GET", "get"] }
        }
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    for expected in [
        "#[serde(rename = \"+\")]\n    Plus,",
        "#[serde(rename = \"/\")]\n    Slash,",
        "\"-\" => Ok(Self::Minus),",
        "Self::Star => f.write_str(\"*\"),",
        "#[serde(rename = \"get\")]\n    Get2,",
        "super::TOutputOp::Star",
    ] {
        assert!(code.contains(expected), "{expected} in {code}");
    }
    assert!(!code.contains('\u{e000}'), "{code}");
}

#[test]
fn negated_values_typify_cannot_infer_a_type_for_are_left_to_validation() {
    // typify panicked on each: it infers the denied values' type, and knows no `null`, array
    // or object there, nor a mix of kinds.
    for negated in [
        json!({ "enum": [null] }),
        json!({ "const": null }),
        json!({ "enum": [1, "a"] }),
        json!({ "enum": [[1]] }),
    ] {
        let schema = json!({ "type": "object", "properties": { "v": { "not": negated } } });
        let (code, warnings) = strict(schema).unwrap_or_else(|e| panic!("{negated}: {e:?}"));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(
            code.contains(
                "pub v: ::std::option::Option<::schemcp_runtime::__private::serde_json::Value>"
            ),
            "{negated}: {code}"
        );
    }
}

#[test]
fn a_type_without_values_for_a_schema_with_values_is_refused_or_a_value() {
    // typify merges `m`'s branches into `pub enum TOutputM {}`, though `m` may be left out:
    // the type would refuse `{}`.
    let schema = json!({
        "type": "object",
        "properties": { "m": { "allOf": [
            { "type": "object", "properties": { "a": { "type": "null" } }, "additionalProperties": false },
            { "properties": { "d": { "type": "number" } }, "required": ["d"] }
        ] } }
    });
    let errors = strict(schema.clone()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("/outputSchema [unsupported-schema]")
            && errors[0].contains("typify gives it a type no value fits (`enum TOutputM {}`)"),
        "{errors:?}"
    );
    let (code, warnings) = lenient(schema);
    assert!(
        code.contains("pub type TOutput = ::schemcp_runtime::__private::serde_json::Value;"),
        "{code}"
    );
    assert!(
        warnings[0].starts_with("/outputSchema [fallback-to-value]"),
        "{warnings:?}"
    );
    // typify merged these branches into `pub enum TOutput {}`, which refused `{"c": "x"}`,
    // while it read the `oneOf` branch of `c` and `b` (marked for its `null`) as an adjacently
    // tagged variant. Kept a struct, the branch merges into the one type its values have.
    let (code, warnings) = strict(json!({
        "type": "object",
        "required": ["c"],
        "anyOf": [{
            "properties": { "a": { "type": ["string", "null"] }, "c": { "const": "x" } },
            "additionalProperties": false
        }],
        "oneOf": [
            { "properties": { "c": true, "b": { "type": ["string", "null"] } } },
            { "properties": { "c": { "type": "array" }, "b": { "type": "integer" } }, "required": ["b"] }
        ]
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let squashed: String = code.split_whitespace().collect();
    assert!(
        squashed.contains(
            "pubstructTOutput{#[serde(default,deserialize_with=\"::schemcp_runtime::__private::present\",skip_serializing_if=\"::std::option::Option::is_none\")]puba:::std::option::Option<::std::option::Option<::std::string::String>>,pubc:TOutputC,}"
        ),
        "{code}"
    );
    // A schema that says no value is valid keeps its type without values.
    let (code, _) = strict(json!({ "anyOf": [false, false] })).unwrap();
    assert!(code.contains("pub enum TOutput {}"), "{code}");
}

#[test]
fn a_default_typify_cannot_hold_is_left_out_with_a_warning() {
    // `b` is valid in the open object, but its struct has no field for it: typify refused the
    // whole schema ("value does not conform to the given schema").
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            "n": { "type": "integer", "default": 2 },
            "v": {
                "type": "object",
                "properties": { "a": { "type": "string" } },
                "default": { "a": "x", "b": null }
            }
        }
    }))
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/outputSchema/properties/v [untyped-default]")
            && warnings[0].contains("`/outputSchema/properties/v/default`"),
        "{warnings:?}"
    );
    // The plain default stays.
    assert!(
        code.contains("#[serde(default = \"defaults::default_u64::<i64, 2>\")]"),
        "{code}"
    );
    // An `enum` value no instance can be (typify refused the whole schema for it) is a warning
    // and left out; with nothing left, no value fits the type, as no value fits the schema.
    let (code, warnings) = strict(json!({ "type": "integer", "enum": [1.5] })).unwrap();
    assert_eq!(
        warnings,
        [
            "/outputSchema/enum/0 [unreachable-value] `enum` value 1.5 can never be valid here (1.5 is not of type \"integer\"); the generated type leaves it out"
        ]
    );
    assert!(code.contains("pub enum TOutput {}"), "{code}");
}

#[test]
fn a_type_beside_a_reference_is_merged_with_it() {
    // typify asserted that a `type` beside a `$ref` is the definition's own, and panicked.
    let (code, warnings) = strict(json!({
        "type": "object",
        "$defs": { "Any": {} },
        "properties": { "a": { "type": "object", "$ref": "#/$defs/Any" } }
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(code.contains("pub a: ::std::option::Option<"), "{code}");
    assert!(
        !code.contains("pub a: ::std::option::Option<Any>"),
        "{code}"
    );
}

#[test]
fn a_schema_that_merges_itself_in_is_refused_not_unrolled() {
    // No member between the definition and its reference: no type holds it, and typify would
    // recurse until the stack overflowed.
    let schema = json!({
        "type": "object",
        "$defs": { "A": { "allOf": [{ "$ref": "#/$defs/A" }, { "required": ["x"] }] } },
        "properties": { "a": { "$ref": "#/$defs/A" } }
    });
    let errors = strict(schema.clone()).unwrap_err();
    assert!(
        errors.iter().any(|e| e.starts_with(
            "/outputSchema/$defs/A [unsupported-schema] this schema merges itself in"
        )),
        "{errors:?}"
    );
}

#[test]
fn a_definition_named_like_the_generated_trait_is_renamed() {
    // readthedocs' configuration schema defines `tools`: its type `Tools` beside the trait
    // `Tools` did not compile.
    let (code, warnings) = strict(json!({
        "type": "object",
        "$defs": {
            "tools": { "type": "object", "properties": { "python": { "type": "string" } } },
            "dispatch": { "type": "string", "enum": ["now", "later"] }
        },
        "properties": {
            "tools": { "$ref": "#/$defs/tools" },
            "when": { "$ref": "#/$defs/dispatch" },
            "build": {
                "type": "object",
                "properties": { "tools": { "title": "Tools", "type": "object", "properties": { "go": { "type": "string" } } } }
            }
        }
    }))
    .unwrap();
    assert!(code.contains("pub struct TTools {"), "{code}");
    assert!(code.contains("pub struct TOutputTools {"), "{code}");
    assert!(code.contains("pub enum TDispatch {"), "{code}");
    assert!(!code.contains("pub struct Tools"), "{code}");
    assert_eq!(
        warnings,
        [
            "/outputSchema/properties/build/properties/tools [type-renamed] the title `Tools` names an item of the generated code; this schema becomes the Rust type `TOutputTools`",
            "/outputSchema/$defs/tools [type-renamed] `Tools` names an item of the generated code; this one becomes the Rust type `TTools`",
            "/outputSchema/$defs/dispatch [type-renamed] `Dispatch` names an item of the generated code; this one becomes the Rust type `TDispatch`"
        ]
    );
}

#[test]
fn defaults_in_definitions_outside_defs_are_checked() {
    // bitbucket-pipelines keeps its definitions under `components/schemas`, where a default
    // that its own `enum` refuses went unchecked; typify then refused the whole definition.
    let (code, warnings) = strict(json!({
        "type": "object",
        "components": { "schemas": { "kind": {
            "type": "object",
            "properties": { "t": { "type": "string", "enum": ["a", "b"], "default": "c" } }
        } } },
        "properties": { "k": { "$ref": "#/components/schemas/kind" } }
    }))
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "/outputSchema/components/schemas/kind/properties/t/default [invalid-default]"
        ),
        "{warnings:?}"
    );
    assert!(code.contains("pub struct Kind {"), "{code}");
}

#[test]
fn a_schema_that_merges_a_value_fallback_falls_back_too() {
    // Only `odd` fails in typify, so only `odd` is a `Value`: `Base` keeps `name`, and `Step`,
    // which merges it, keeps both beside its own `when`.
    let (code, warnings) = lenient(json!({
        "type": "object",
        "$defs": {
            "Base": {
                "type": "object",
                "properties": {
                    "name": { "type": "string" },
                    "odd": {
                        "type": "object",
                        "x-rust-type": { "crate": "chrono", "version": "*", "path": "chrono::DateTime", "parameters": [{ "enum": ["a", 1], "minLength": 1 }] }
                    }
                }
            },
            "Step": {
                "allOf": [
                    { "$ref": "#/$defs/Base" },
                    { "type": "object", "properties": { "when": { "type": "string" } } }
                ]
            }
        },
        "properties": { "step": { "$ref": "#/$defs/Step" }, "base": { "$ref": "#/$defs/Base" } }
    }));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "/outputSchema/$defs/Base/properties/odd [fallback-to-value] this part of `Base`"
        ),
        "{warnings:?}"
    );
    for name in ["Base", "Step"] {
        let start = code
            .find(&format!("pub struct {name} {{"))
            .unwrap_or_else(|| panic!("no struct {name}: {code}"));
        let body = &code[start..start + code[start..].find("\n}").unwrap()];
        assert!(
            body.contains("pub name: ::std::option::Option<::std::string::String>,"),
            "{body}"
        );
        assert!(
            body.contains(
                "pub odd: ::std::option::Option<::schemcp_runtime::__private::serde_json::Value>,"
            ),
            "{body}"
        );
        assert_eq!(body.contains("pub when:"), name == "Step", "{body}");
    }
    // A definition made `serde_json::Value` before typify is asked (a reference to another
    // document) is no different.
    let (code, warnings) = lenient(json!({
        "type": "object",
        "$defs": {
            "Remote": { "$ref": "https://example.com/remote.json" },
            "Local": {
                "allOf": [
                    { "$ref": "#/$defs/Remote" },
                    { "type": "object", "properties": { "when": { "type": "string" } } }
                ]
            }
        },
        "properties": { "local": { "$ref": "#/$defs/Local" } }
    }));
    assert!(
        warnings.iter().any(|w| w.starts_with(
            "/outputSchema/$defs/Local [fallback-to-value] `Local` cannot become a Rust type (it merges `Remote`"
        )),
        "{warnings:?}"
    );
    assert!(
        code.contains("pub struct Local(pub ::schemcp_runtime::__private::serde_json::Value);"),
        "{code}"
    );
}

#[test]
fn examples_in_definitions_outside_defs_go_through_their_type() {
    // `b` passes validation but has no field in `A`: the example would come back without it.
    let errors = strict(json!({
        "type": "object",
        "components": { "schemas": { "A": {
            "type": "object",
            "properties": { "a": { "type": "integer" } },
            "examples": [{ "a": 1 }, { "a": 1, "b": 2 }]
        } } },
        "properties": { "x": { "$ref": "#/components/schemas/A" } }
    }))
    .unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("/outputSchema/components/schemas/A/examples/1/b [lossy-example]"),
        "{errors:?}"
    );
}

#[test]
fn a_definition_that_fails_with_its_references_is_the_one_refused() {
    // `a` is typed alone (its references read as `{}`) and fails once they are read; the root,
    // which references it, fails with it, and is not the one named.
    let schema = json!({
        "type": "object",
        "properties": { "p": { "$ref": "#/$defs/a" } },
        "$defs": {
            "a": { "allOf": [{ "$ref": "#/$defs/b" }, { "$ref": "#/$defs/c" }] },
            "b": { "type": "object", "properties": { "x": { "type": "string" } }, "required": ["x"] },
            "c": { "type": "object", "properties": { "x": { "type": "integer" } }, "required": ["x"] }
        }
    });
    let errors = strict(schema.clone()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("/outputSchema/$defs/a [unsupported-schema]"),
        "{errors:?}"
    );
    let (code, warnings) = lenient(schema);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        code.contains("pub struct A(pub ::schemcp_runtime::__private::serde_json::Value);"),
        "{code}"
    );
}

#[test]
fn titles_qualified_apart_from_names_of_places() {
    // Two schemas titled `Value` are qualified by their holder (`TOutputValue`), the name
    // typify gives the member `value` after where it stands: the schema was `Value` before.
    let (code, _) = strict(json!({
        "type": "object",
        "properties": {
            "value": { "type": "object", "properties": { "a": { "type": "integer" } } },
            "p": { "title": "Value", "type": "object", "properties": { "b": { "type": "string" } } },
            "q": { "title": "Value", "type": "string", "enum": ["x"] }
        }
    }))
    .unwrap();
    let body = |name: &str| {
        let start = code.find(&format!("pub struct {name} {{")).expect(name);
        code[start..].split_once('}').unwrap().0.to_string()
    };
    assert!(body("TOutputValue").contains("pub a:"), "{code}");
    assert!(body("TOutputValue2").contains("pub b:"), "{code}");
    assert!(code.contains("pub enum TOutputValue3 {"), "{code}");
}

#[test]
fn a_one_of_that_only_says_which_members_go_together_is_left_to_validation() {
    // MCP's embedded resource as Go's jsonschema writes it: text, a blob, or neither. No branch
    // shapes a member, so the type is the one struct; validation enforces the `oneOf`. Before,
    // the `{}` the last branch is once its `not` is dropped made three identical variants.
    let (code, warnings) = strict(json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "blob": { "type": ["null", "string"] },
            "text": { "type": ["null", "string"] },
            "uri": { "type": "string" }
        },
        "required": ["uri"],
        "oneOf": [
            { "required": ["text"], "not": { "required": ["blob"] } },
            { "required": ["blob"], "not": { "required": ["text"] } },
            { "not": { "anyOf": [{ "required": ["text"] }, { "required": ["blob"] }] } }
        ]
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(code.contains("pub struct TOutput {"), "{code}");
    assert!(!code.contains("pub enum TOutput"), "{code}");
    // `true` and `{}` branches shape nothing either.
    let (code, _) = strict(json!({
        "type": "object",
        "properties": { "a": { "type": "string" }, "b": { "type": "string" } },
        "anyOf": [{ "required": ["a"] }, true, {}]
    }))
    .unwrap();
    assert!(code.contains("pub struct TOutput {"), "{code}");
    assert!(!code.contains("pub enum TOutput"), "{code}");
}

#[test]
fn a_schema_that_only_negates_kinds_is_the_runtime_type_for_the_others() {
    // GitHub's MCP server: "a filter object, or anything but an object".
    let (code, warnings) = strict(json!({
        "type": "object",
        "properties": {
            "filter": { "anyOf": [
                { "type": "object", "properties": { "status": { "type": "string" } } },
                { "not": { "type": "object" }, "description": "validated by the handler" }
            ] },
            "scalar": { "not": { "type": ["object", "array"] } },
            // No runtime type holds every value but integers (`1.5` is one).
            "fraction": { "not": { "type": "integer" } }
        }
    }))
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(
        enum_body(&code, "TOutputFilter").contains("(::schemcp_runtime::other_kinds::NotObject)"),
        "{code}"
    );
    assert!(
        code.contains(
            "pub scalar: ::std::option::Option<::schemcp_runtime::other_kinds::NotObjectOrArray>"
        ),
        "{code}"
    );
    assert!(
        code.contains(
            "pub fraction: ::std::option::Option<::schemcp_runtime::__private::serde_json::Value>"
        ),
        "{code}"
    );
}
