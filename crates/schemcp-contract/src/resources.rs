//! The schema resources of one document: what `$id` below its root does to its references.
//!
//! In JSON Schema 2020-12 a subschema with an `$id` starts a resource of its own, and a `$ref`
//! resolves against the base URI of the resource it is written in: inside
//! `{"$id": "http://example.com/node"}`, `"tree"` means `http://example.com/tree`, and
//! `"#/$defs/a"` means that resource's `$defs`, not the document's. Bundlers write such
//! compound documents (every referenced schema embedded under `$defs` with its `$id`).
//! [`Resources`] resolves references as the validator does (the URI resolution of the
//! `jsonschema` crate, with its default base `json-schema:///` for a document with no `$id`),
//! so the loader, the generator and the diff engine agree with it on where each lands.

use std::borrow::Cow;
use std::collections::HashMap;

use referencing::uri;
use serde_json::{Map, Value};

use crate::json::{percent_decode, uri_fragment};
use crate::locate::within;
use crate::schema::{self, Walk};

/// The base URI of a document with no `$id`, as the `jsonschema` crate resolves it.
const DEFAULT_BASE: &str = "json-schema:///";

/// The resources of a document that embeds some (an `$id` below its root).
///
/// ```
/// use schemcp_contract::resources::{Landing, Resources};
/// let document = serde_json::json!({
///     "$id": "http://example.com/tree",
///     "properties": { "nodes": { "items": { "$ref": "node" } } },
///     "$defs": {
///         "node": {
///             "$id": "http://example.com/node",
///             "properties": { "subtree": { "$ref": "tree" } }
///         }
///     }
/// });
/// let resources = Resources::read(&document).unwrap().expect("it embeds a resource");
/// assert_eq!(
///     resources.resolve(&document, "/properties/nodes/items", "node"),
///     Landing::Here("/$defs/node".into())
/// );
/// assert_eq!(
///     resources.resolve(&document, "/$defs/node/properties/subtree", "tree"),
///     Landing::Here(String::new())
/// );
/// assert!(resources.in_embedded("/$defs/node/properties/subtree"));
/// ```
#[derive(Debug, Clone)]
pub struct Resources {
    /// The document's own base URI.
    base: String,
    /// `(pointer, URI)` of every embedded resource's root, parents before children.
    embedded: Vec<(String, String)>,
    /// Every resource's URI (no fragment) and the pointer of its root, the document at `""`.
    by_uri: HashMap<String, String>,
    /// `(resource URI, name)` of every `$anchor` and `$dynamicAnchor` (which a `$ref`
    /// resolves as a plain anchor), to the pointer of the schema that declares it.
    anchors: HashMap<(String, String), String>,
    /// How many schemas declare each `$dynamicAnchor` name.
    dynamic_anchors: HashMap<String, usize>,
}

/// Where a reference lands, from [`Resources::resolve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// At this pointer of the document.
    Here(String),
    /// In a resource of this document, at nothing: a pointer or an anchor it does not have.
    /// The absolute URI the reference resolves to.
    Nowhere(String),
    /// Outside the document, at this URI (the reference as written if it does not parse).
    Outside(String),
}

/// Why a document's resources cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    /// An `$id` that is not a string, or has a non-empty fragment (2020-12 allows neither).
    #[error("`$id` at `{0}` is not a URI without a fragment")]
    Invalid(String),
    /// An `$id` that does not resolve to a URI.
    #[error("`$id` at `{0}` does not resolve to a URI")]
    Unresolvable(String),
    /// Two resources of one URI.
    #[error("`$id` at `{second}` names the same resource, `{uri}`, as the one at `{first}`")]
    Duplicate {
        /// The URI both name.
        uri: String,
        /// The pointer of the first.
        first: String,
        /// The pointer of the second.
        second: String,
    },
}

impl Resources {
    /// The resources of `document`, or `None` when no subschema below its root has an `$id`
    /// (every reference then reads as written against the document).
    ///
    /// # Errors
    ///
    /// [`ResourceError`] where a reader would have to guess what a reference means.
    pub fn read(document: &Value) -> Result<Option<Resources>, ResourceError> {
        if !document.as_object().is_some_and(embeds_resources) {
            return Ok(None);
        }
        Resources::scan(document).map(Some)
    }

    /// The resources of `document`, embedded or not.
    fn scan(document: &Value) -> Result<Resources, ResourceError> {
        let base = match document.get("$id") {
            None => DEFAULT_BASE.to_string(),
            Some(id) => {
                let id = id
                    .as_str()
                    .and_then(without_fragment)
                    .ok_or_else(|| ResourceError::Invalid(String::new()))?;
                uri::from_str(id)
                    .map_err(|_| ResourceError::Unresolvable(String::new()))?
                    .as_str()
                    .to_string()
            }
        };
        let mut resources = Resources {
            base: base.clone(),
            embedded: Vec::new(),
            by_uri: HashMap::from([(base, String::new())]),
            anchors: HashMap::new(),
            dynamic_anchors: HashMap::new(),
        };
        let mut failed = None;
        schema::visit(document, "", Walk::All, &mut |at, schema| {
            if failed.is_some() {
                return;
            }
            if let Err(error) = resources.enter(at, schema) {
                failed = Some(error);
            }
        });
        match failed {
            Some(error) => Err(error),
            None => Ok(resources),
        }
    }

    /// Records the schema at `at` (visited after every schema enclosing it).
    fn enter(&mut self, at: &str, schema: &Map<String, Value>) -> Result<(), ResourceError> {
        let mut base = self.base_at(at).to_string();
        if let (false, Some(id)) = (at.is_empty(), schema.get("$id")) {
            let id = id
                .as_str()
                .and_then(without_fragment)
                .ok_or_else(|| ResourceError::Invalid(at.to_string()))?;
            base = resolve(&base, id).ok_or_else(|| ResourceError::Unresolvable(at.to_string()))?;
            if let Some(first) = self.by_uri.insert(base.clone(), at.to_string()) {
                return Err(ResourceError::Duplicate {
                    uri: base,
                    first,
                    second: at.to_string(),
                });
            }
            self.embedded.push((at.to_string(), base.clone()));
        }
        for keyword in ["$anchor", "$dynamicAnchor"] {
            if let Some(Value::String(name)) = schema.get(keyword) {
                self.anchors
                    .entry((base.clone(), name.clone()))
                    .or_insert_with(|| at.to_string());
            }
        }
        if let Some(Value::String(name)) = schema.get("$dynamicAnchor") {
            *self.dynamic_anchors.entry(name.clone()).or_default() += 1;
        }
        Ok(())
    }

    /// The innermost embedded resource that `pointer` is in (or is the root of).
    fn resource_at(&self, pointer: &str) -> Option<&(String, String)> {
        self.embedded
            .iter()
            .rev()
            .find(|(root, _)| within(pointer, root))
    }

    /// The base URI a reference written in the schema at `pointer` resolves against.
    pub fn base_at(&self, pointer: &str) -> &str {
        self.resource_at(pointer)
            .map_or(self.base.as_str(), |(_, uri)| uri.as_str())
    }

    /// Whether the schema at `pointer` is inside a resource embedded in the document (or is
    /// the root of one).
    pub fn in_embedded(&self, pointer: &str) -> bool {
        self.resource_at(pointer).is_some()
    }

    /// The pointers of the embedded resources' roots, parents before children.
    pub fn embedded_roots(&self) -> impl Iterator<Item = &str> {
        self.embedded.iter().map(|(root, _)| root.as_str())
    }

    /// The pointer of the resource's root `uri` (a [`Landing::Nowhere`] URI, fragment and
    /// all) names, `""` for the document's own resource.
    ///
    /// ```
    /// use schemcp_contract::resources::{Landing, Resources};
    /// let document = serde_json::json!({
    ///     "$defs": { "node": { "$id": "node.json", "$defs": { "label": {} } } }
    /// });
    /// let resources = Resources::read(&document).unwrap().unwrap();
    /// let Landing::Nowhere(uri) = resources.resolve(&document, "/$defs/node", "#/$defs/x")
    /// else { unreachable!() };
    /// assert_eq!(resources.root_of(&uri), Some("/$defs/node"));
    /// assert_eq!(Resources::shown(&uri), "node.json#/$defs/x");
    /// ```
    pub fn root_of(&self, uri: &str) -> Option<&str> {
        let resource = uri.split_once('#').map_or(uri, |(resource, _)| resource);
        self.by_uri.get(resource).map(String::as_str)
    }

    /// `uri` as its author wrote it where it was resolved against the default base of a
    /// document without a root `$id` (`node.json`, not `json-schema:///node.json`).
    pub fn shown(uri: &str) -> &str {
        uri.strip_prefix(DEFAULT_BASE).unwrap_or(uri)
    }

    /// `(pointer, URI)` of the embedded resources whose URI names them beyond this document:
    /// not resolved against the default base of a document without a root `$id`, where
    /// `{"$id": "node"}` is only `json-schema:///node`.
    pub fn named(&self) -> impl Iterator<Item = (&str, &str)> {
        self.embedded
            .iter()
            .filter(|(_, uri)| !uri.starts_with(DEFAULT_BASE))
            .map(|(root, uri)| (root.as_str(), uri.as_str()))
    }

    /// Where `reference`, written in the schema at `holder`, lands.
    pub fn resolve(&self, document: &Value, holder: &str, reference: &str) -> Landing {
        let base = self.base_at(holder);
        let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let resource = if path.is_empty() {
            base.to_string()
        } else {
            match resolve(base, path) {
                Some(resolved) => resolved,
                None => return Landing::Outside(reference.to_string()),
            }
        };
        let absolute = match reference.contains('#') {
            true => format!("{resource}#{fragment}"),
            false => resource.clone(),
        };
        let Some(at) = self.by_uri.get(&resource) else {
            return Landing::Outside(absolute);
        };
        let fragment = percent_decode(fragment);
        let pointer = if fragment.is_empty() || fragment.starts_with('/') {
            let pointer = format!("{at}{fragment}");
            document.pointer(&pointer).is_some().then_some(pointer)
        } else {
            self.anchors.get(&(resource, fragment)).cloned()
        };
        match pointer {
            Some(pointer) => Landing::Here(pointer),
            None => Landing::Nowhere(absolute),
        }
    }

    /// Where `reference`, a `$dynamicRef` written in the schema at `holder`, lands whenever
    /// the document is evaluated from its root (as a tool's schema always is); `None` where
    /// that depends on how evaluation got there, or where it lands nowhere.
    ///
    /// It lands where a `$ref` would, unless that place declares a `$dynamicAnchor` of the
    /// reference's fragment: then 2020-12 takes the outermost resource in the dynamic scope
    /// that declares one. The document's own resource is always the outermost, so where it
    /// declares the name, that is the place; where only one schema in the document declares
    /// it, that one is where the reference first landed. Otherwise it depends on the path.
    ///
    /// ```
    /// use schemcp_contract::resources::Resources;
    /// // The suite's "A $dynamicRef resolves to the first $dynamicAnchor still in scope".
    /// let document = serde_json::json!({
    ///     "$id": "https://test.json-schema.org/typical-dynamic-resolution/root",
    ///     "$ref": "list",
    ///     "$defs": {
    ///         "foo": { "$dynamicAnchor": "items", "type": "string" },
    ///         "list": {
    ///             "$id": "list",
    ///             "type": "array",
    ///             "items": { "$dynamicRef": "#items" },
    ///             "$defs": { "items": { "$dynamicAnchor": "items" } }
    ///         }
    ///     }
    /// });
    /// let resources = Resources::read(&document).unwrap().unwrap();
    /// assert_eq!(
    ///     resources.resolve_dynamic(&document, "/$defs/list/items", "#items"),
    ///     Some("/$defs/foo".into())
    /// );
    /// ```
    pub fn resolve_dynamic(
        &self,
        document: &Value,
        holder: &str,
        reference: &str,
    ) -> Option<String> {
        let Landing::Here(first) = self.resolve(document, holder, reference) else {
            return None;
        };
        let name = percent_decode(reference.split_once('#').map_or("", |(_, f)| f));
        let declares = |pointer: &str| {
            document
                .pointer(pointer)
                .and_then(|schema| schema.get("$dynamicAnchor"))
                .is_some_and(|anchor| anchor.as_str() == Some(name.as_str()))
        };
        if !declares(&first) {
            return Some(first);
        }
        let outermost = self.anchors.get(&(self.base.clone(), name.clone()));
        if let Some(at) = outermost.filter(|at| declares(at)) {
            return Some(at.clone());
        }
        (self.dynamic_anchors.get(&name) == Some(&1)).then_some(first)
    }
}

/// `root` with every `$ref` that reads differently from a pointer from the root (by the root's
/// own `$id` or an embedded resource's, by an anchor, or read inside an embedded resource)
/// written as the `#/<pointer from the root>` reference it amounts to, and then, unless a `$dynamicRef` needs them, the
/// `$id`s below the root dropped: the same schema, as one resource. A reference written inside
/// an embedded resource that lands nowhere in the document becomes the absolute URI it
/// resolves to, so it is not read against the document's root by mistake. This is how the
/// generator and the diff engine read compound documents; the served schema stays as written.
///
/// A `$dynamicRef` that lands in one place whatever the path ([`Resources::resolve_dynamic`])
/// becomes the `$ref` to it. Where one depends on the path, the `$id`s stay (and the generator
/// refuses that reference). A document whose resources cannot be read is returned as is.
///
/// ```
/// let document = serde_json::json!({
///     "properties": { "foo": { "$ref": "inner.json" } },
///     "$defs": {
///         "inner": {
///             "$id": "inner.json",
///             "properties": { "bar": { "$ref": "#/$defs/name" } },
///             "$defs": { "name": { "type": "string" } }
///         }
///     }
/// });
/// let Some(root) = document.as_object() else { unreachable!() };
/// let inlined = schemcp_contract::resources::inline_resources(root);
/// assert_eq!(inlined["properties"]["foo"]["$ref"], "#/$defs/inner");
/// assert_eq!(
///     inlined["$defs"]["inner"]["properties"]["bar"]["$ref"],
///     "#/$defs/inner/$defs/name"
/// );
/// assert!(inlined["$defs"]["inner"].get("$id").is_none());
/// ```
pub fn inline_resources(root: &Map<String, Value>) -> Cow<'_, Map<String, Value>> {
    // Most schemas embed nothing and have no name of their own: seen without copying them.
    let embeds = embeds_resources(root);
    if !embeds && !root.get("$id").is_some_and(Value::is_string) {
        return Cow::Borrowed(root);
    }
    let whole = Value::Object(root.clone());
    let Ok(resources) = Resources::scan(&whole) else {
        return Cow::Borrowed(root);
    };
    let mut rewritten = Vec::new();
    let mut landed = Vec::new();
    // In a document of one resource a `$dynamicRef` is left to the generator, which reads it
    // as the `$ref` it then amounts to.
    let mut dynamic = !embeds;
    for (holder, keyword, reference) in schema::refs(&whole, "", Walk::All) {
        if keyword != "$ref" {
            if embeds {
                match resources.resolve_dynamic(&whole, &holder, &reference) {
                    Some(pointer) => {
                        landed.push((holder, format!("#{}", uri_fragment(&pointer))));
                    }
                    None => dynamic = true,
                }
            }
            continue;
        }
        // A pointer outside any embedded resource reads as written.
        let local = reference == "#" || reference.starts_with("#/");
        if local && !resources.in_embedded(&holder) {
            continue;
        }
        let new = match resources.resolve(&whole, &holder, &reference) {
            Landing::Here(pointer) => format!("#{}", uri_fragment(&pointer)),
            Landing::Outside(uri) | Landing::Nowhere(uri) if resources.in_embedded(&holder) => uri,
            Landing::Outside(_) | Landing::Nowhere(_) => continue,
        };
        if new != reference {
            rewritten.push((holder, new));
        }
    }
    let mut copy = whole;
    for (holder, reference) in rewritten {
        if let Some(Value::Object(schema)) = copy.pointer_mut(&holder) {
            schema.insert("$ref".into(), Value::String(reference));
        }
    }
    for (holder, reference) in landed {
        if let Some(Value::Object(schema)) = copy.pointer_mut(&holder) {
            schema.shift_remove("$dynamicRef");
            add_ref(schema, reference);
        }
    }
    if !dynamic {
        for root in resources.embedded_roots() {
            if let Some(Value::Object(schema)) = copy.pointer_mut(root) {
                schema.shift_remove("$id");
            }
        }
    }
    match copy {
        Value::Object(object) => Cow::Owned(object),
        _ => Cow::Borrowed(root),
    }
}

/// Gives `schema` the reference `reference` applies in place: as its `$ref`, or, beside a
/// `$ref` it has, in its `allOf`, where it applies in place just the same. This is how a
/// `$dynamicRef` whose place does not depend on the path becomes the `$ref` to it.
///
/// ```
/// let mut schema = serde_json::json!({ "$ref": "#/$defs/a" });
/// let Some(object) = schema.as_object_mut() else { unreachable!() };
/// schemcp_contract::resources::add_ref(object, "#/$defs/b".into());
/// assert_eq!(schema, serde_json::json!({ "$ref": "#/$defs/a", "allOf": [{ "$ref": "#/$defs/b" }] }));
/// ```
pub fn add_ref(schema: &mut Map<String, Value>, reference: String) {
    if !schema.contains_key("$ref") {
        schema.insert("$ref".into(), Value::String(reference));
    } else if let Value::Array(branches) = schema
        .entry("allOf")
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        branches.push(serde_json::json!({ "$ref": reference }));
    }
}

/// Whether a subschema below `root` has an `$id`.
fn embeds_resources(root: &Map<String, Value>) -> bool {
    let mut embeds = false;
    schema::visit_map(root, Walk::All, &mut |at, schema| {
        embeds |= !at.is_empty() && schema.contains_key("$id");
    });
    embeds
}

/// `id` without an empty fragment; `None` when it has a non-empty one, which 2020-12 does
/// not allow in `$id`.
pub(crate) fn without_fragment(id: &str) -> Option<&str> {
    match id.split_once('#') {
        None => Some(id),
        Some((id, "")) => Some(id),
        Some(_) => None,
    }
}

/// `reference` (no fragment) resolved against `base`, as the validator resolves it.
fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = uri::from_str(base).ok()?;
    Some(
        uri::resolve_against(&base.borrow(), reference)
            .ok()?
            .as_str()
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn inlined(schema: Value) -> Value {
        let Value::Object(object) = schema else {
            panic!("an object schema")
        };
        Value::Object(inline_resources(&object).into_owned())
    }

    #[test]
    fn references_between_embedded_resources_become_pointers() {
        let schema = json!({
            "$id": "http://localhost:1234/draft2020-12/tree",
            "type": "object",
            "properties": {
                "nodes": { "type": "array", "items": { "$ref": "node" } }
            },
            "$defs": {
                "node": {
                    "$id": "http://localhost:1234/draft2020-12/node",
                    "type": "object",
                    "properties": { "subtree": { "$ref": "tree" } }
                }
            }
        });
        let out = inlined(schema);
        assert_eq!(out["properties"]["nodes"]["items"]["$ref"], "#/$defs/node");
        assert_eq!(out["$defs"]["node"]["properties"]["subtree"]["$ref"], "#");
        assert!(out["$defs"]["node"].get("$id").is_none(), "{out}");
        assert_eq!(out["$id"], "http://localhost:1234/draft2020-12/tree");
    }

    #[test]
    fn a_local_reference_inside_a_resource_reads_that_resource() {
        let schema = json!({
            "$id": "http://example.com/schema-relative-uri-defs1.json",
            "properties": {
                "foo": {
                    "$id": "schema-relative-uri-defs2.json",
                    "$defs": { "inner": { "properties": { "bar": { "type": "string" } } } },
                    "$ref": "#/$defs/inner"
                }
            },
            "$ref": "schema-relative-uri-defs2.json"
        });
        let out = inlined(schema);
        assert_eq!(
            out["properties"]["foo"]["$ref"],
            "#/properties/foo/$defs/inner"
        );
        assert_eq!(out["$ref"], "#/properties/foo");
    }

    #[test]
    fn anchors_are_read_in_their_own_resource() {
        // The suite's "same $anchor with different base uri".
        let schema = json!({
            "$id": "http://localhost:1234/draft2020-12/foobar",
            "$defs": {
                "A": {
                    "$id": "child1",
                    "allOf": [
                        { "$id": "child2", "$anchor": "my_anchor", "type": "number" },
                        { "$anchor": "my_anchor", "type": "string" }
                    ]
                }
            },
            "$ref": "child1#my_anchor"
        });
        assert_eq!(inlined(schema)["$ref"], "#/$defs/A/allOf/1");
    }

    #[test]
    fn relative_ids_resolve_against_the_default_base() {
        // No root `$id`: `json-schema:///` is the base, as in the validator.
        let schema = json!({
            "properties": { "a": { "$ref": "urn:example:a" }, "b": { "$ref": "item" } },
            "$defs": {
                "a": { "$id": "urn:example:a", "type": "string" },
                "b": { "$id": "item", "type": "integer" }
            }
        });
        let out = inlined(schema);
        assert_eq!(out["properties"]["a"]["$ref"], "#/$defs/a");
        assert_eq!(out["properties"]["b"]["$ref"], "#/$defs/b");
    }

    #[test]
    fn pointers_are_written_escaped() {
        let schema = json!({
            "properties": { "a": { "$ref": "http://x.test/r#/$defs/a%20b~1c" } },
            "$defs": {
                "r": {
                    "$id": "http://x.test/r",
                    "$defs": { "a b/c": { "type": "string" } }
                }
            }
        });
        assert_eq!(
            inlined(schema)["properties"]["a"]["$ref"],
            "#/$defs/r/$defs/a%20b~1c"
        );
    }

    #[test]
    fn an_unresolved_reference_inside_a_resource_keeps_what_it_names() {
        let schema = json!({
            "properties": { "a": { "$ref": "#/$defs/x" } },
            "$defs": {
                "x": { "type": "string" },
                "r": {
                    "$id": "http://x.test/r",
                    "properties": { "b": { "$ref": "#/$defs/x" }, "c": { "$ref": "other.json" } }
                }
            }
        });
        let out = inlined(schema);
        // Written in the document's own resource: as it was.
        assert_eq!(out["properties"]["a"]["$ref"], "#/$defs/x");
        // The resource has no `$defs/x`: it is not the root's.
        assert_eq!(
            out["$defs"]["r"]["properties"]["b"]["$ref"],
            "http://x.test/r#/$defs/x"
        );
        assert_eq!(
            out["$defs"]["r"]["properties"]["c"]["$ref"],
            "http://x.test/other.json"
        );
    }

    #[test]
    fn dynamic_references_that_depend_on_the_path_keep_the_ids() {
        // Two resources declare `item`, the root does not: which one depends on the path.
        let schema = json!({
            "$ref": "list",
            "$defs": {
                "list": {
                    "$id": "list",
                    "items": { "$dynamicRef": "#item" },
                    "$defs": { "item": { "$dynamicAnchor": "item" } }
                },
                "numbers": {
                    "$id": "numbers",
                    "$ref": "list",
                    "$defs": { "item": { "$dynamicAnchor": "item", "type": "number" } }
                }
            }
        });
        let out = inlined(schema);
        assert_eq!(out["$ref"], "#/$defs/list");
        assert_eq!(out["$defs"]["list"]["$id"], "list");
        assert_eq!(out["$defs"]["list"]["items"]["$dynamicRef"], "#item");
    }

    #[test]
    fn dynamic_references_that_land_in_one_place_are_references() {
        let list = |root_item: Option<Value>, beside: Option<&str>| {
            let mut schema = json!({
                "$ref": "list",
                "$defs": {
                    "list": {
                        "$id": "list",
                        "items": { "$dynamicRef": "#item" },
                        "$defs": { "item": { "$dynamicAnchor": "item", "type": "string" } }
                    }
                }
            });
            if let Some(item) = root_item {
                schema["$defs"]["root_item"] = item;
            }
            if let Some(reference) = beside {
                schema["$defs"]["list"]["items"]["$ref"] = reference.into();
            }
            inlined(schema)
        };
        // One schema declares `item`: where it first landed.
        let out = list(None, None);
        assert_eq!(
            out["$defs"]["list"]["items"],
            json!({ "$ref": "#/$defs/list/$defs/item" })
        );
        assert!(out["$defs"]["list"].get("$id").is_none(), "{out}");
        // The root's resource declares it too: the outermost, whatever the path.
        let root_item = json!({ "$dynamicAnchor": "item", "type": "integer" });
        let out = list(Some(root_item.clone()), None);
        assert_eq!(
            out["$defs"]["list"]["items"],
            json!({ "$ref": "#/$defs/root_item" })
        );
        // Beside a `$ref`, it joins the `allOf`.
        let out = list(Some(root_item), Some("#/$defs/item"));
        assert_eq!(
            out["$defs"]["list"]["items"],
            json!({
                "$ref": "#/$defs/list/$defs/item",
                "allOf": [{ "$ref": "#/$defs/root_item" }]
            })
        );
        // A plain `$anchor` at the root is no dynamic anchor: the one place stands.
        let out = list(Some(json!({ "$anchor": "item", "type": "integer" })), None);
        assert_eq!(
            out["$defs"]["list"]["items"],
            json!({ "$ref": "#/$defs/list/$defs/item" })
        );
    }

    #[test]
    fn unclear_schemas_are_left_alone() {
        for schema in [
            // No embedded resource.
            json!({ "$id": "http://x.test/", "$ref": "#/$defs/a", "$defs": { "a": {} } }),
            // A fragment in `$id`.
            json!({ "$defs": { "a": { "$id": "#a" } }, "$ref": "#a" }),
            // Two resources of one URI.
            json!({ "$defs": { "a": { "$id": "http://x.test/a" }, "b": { "$id": "http://x.test/a" } } }),
            // Not a string.
            json!({ "$defs": { "a": { "$id": 1 } }, "$ref": "#/$defs/a" }),
        ] {
            assert_eq!(inlined(schema.clone()), schema);
        }
    }

    #[test]
    fn references_by_the_roots_own_name_become_pointers() {
        let schema = json!({
            "$id": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed",
            "properties": {
                "again": { "$ref": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed" },
                "bar": { "$ref": "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed#/$defs/bar" },
                "local": { "$ref": "#/$defs/bar" }
            },
            "$defs": { "bar": { "type": "string" } }
        });
        let out = inlined(schema);
        assert_eq!(out["properties"]["again"]["$ref"], "#");
        assert_eq!(out["properties"]["bar"]["$ref"], "#/$defs/bar");
        assert_eq!(out["properties"]["local"]["$ref"], "#/$defs/bar");
    }

    #[test]
    fn ids_in_values_are_not_resources() {
        // The suite's "$id inside an enum is not a real identifier".
        let schema = json!({
            "$defs": {
                "id_in_enum": { "enum": [{ "$id": "https://localhost:1234/id/my_identifier.json" }] }
            },
            "anyOf": [{ "$ref": "#/$defs/id_in_enum" }]
        });
        assert_eq!(inlined(schema.clone()), schema);
    }
}
