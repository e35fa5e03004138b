//! Load a folder of MCP tool contract files, lint them, bundle cross-file `$ref`s and report
//! diagnostics that point into the files.
//!
//! A tool is one `*.json` file shaped like an MCP `Tool` object. A JSON file that another file
//! references with `$ref` and that has no `inputSchema` is a definitions file. Every tool's
//! `inputSchema` and `outputSchema` come out self-contained: a reference into another file is
//! replaced by `#/$defs/<Name>` with the target copied into that schema's root `$defs`, and
//! [`ToolContract::origins`] says where each copy came from.
//!
//! ```
//! use std::path::Path;
//! let set = schemcp_contract::load_sources(
//!     Path::new("schemas"),
//!     vec![
//!         ("get_weather.json".into(), r#"{
//!   "description": "Current weather.",
//!   "inputSchema": { "type": "object", "properties": { "at": { "$ref": "common.json#/$defs/Place" } } }
//! }"#.into()),
//!         ("common.json".into(), r#"{ "$defs": { "Place": { "type": "string" } } }"#.into()),
//!     ],
//! )
//! .unwrap();
//! let tool = &set.tools[0];
//! assert_eq!(tool.name, "get_weather");
//! assert_eq!(
//!     tool.input_schema()["properties"]["at"]["$ref"],
//!     "#/$defs/Place"
//! );
//! assert_eq!(tool.origins["/inputSchema/$defs/Place"].pointer, "/$defs/Place");
//! ```

#![warn(missing_docs)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

mod bundle;
mod diagnostic;
pub mod json;
pub mod keywords;
mod load;
mod locate;
mod meta;
#[doc(hidden)]
pub mod parallel;
pub mod resources;
mod schema;

pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use locate::{Location, locate};

/// The JSON Schema 2020-12 metaschema: the dialect every schema is read as, and the one
/// document outside the schemas folder a `$ref` may name, since every validator has it built
/// in (the runtime's never fetches it).
///
/// ```
/// assert!(schemcp_contract::names_metaschema("https://json-schema.org/draft/2020-12/schema#"));
/// assert!(!schemcp_contract::names_metaschema("https://json-schema.org/draft/2020-12/meta/core"));
/// assert_eq!(schemcp_contract::METASCHEMA, "https://json-schema.org/draft/2020-12/schema");
/// ```
pub const METASCHEMA: &str = "https://json-schema.org/draft/2020-12/schema";

/// Whether `reference` names the whole [`METASCHEMA`] (with an empty fragment or none). A
/// fragment into it is refused like any other document outside the folder: its definitions
/// are parts of the metaschema's dynamic scope, not schemas of their own.
///
/// ```
/// assert!(schemcp_contract::names_metaschema("https://json-schema.org/draft/2020-12/schema"));
/// assert!(!schemcp_contract::names_metaschema("https://json-schema.org/draft/2020-12/schema#/$defs/x"));
/// ```
pub fn names_metaschema(reference: &str) -> bool {
    reference.strip_suffix('#').unwrap_or(reference) == METASCHEMA
}

/// Every tool contract in one folder.
///
/// ```
/// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
///     ("b.json".into(), r#"{"inputSchema":{"type":"object"}}"#.into()),
///     ("a.json".into(), r#"{"inputSchema":{"type":"object"}}"#.into()),
/// ]).unwrap();
/// assert_eq!(set.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
/// assert_eq!(set.files_read.len(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct ContractSet {
    /// The folder the files were loaded from.
    pub root: PathBuf,
    /// The tools, sorted by name.
    pub tools: Vec<ToolContract>,
    /// Every file read, definitions files included, as `root.join(relative path)`, sorted; for
    /// `cargo:rerun-if-changed`.
    pub files_read: Vec<PathBuf>,
    /// Warnings; a load with any error fails instead.
    pub warnings: Vec<Diagnostic>,
}

impl ContractSet {
    /// The tool called `name`.
    ///
    /// ```
    /// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
    ///     ("a.json".into(), r#"{"inputSchema":{"type":"object"}}"#.into()),
    /// ]).unwrap();
    /// assert!(set.tool("a").is_some() && set.tool("b").is_none());
    /// ```
    pub fn tool(&self, name: &str) -> Option<&ToolContract> {
        self.tools.iter().find(|t| t.name == name)
    }
}

/// Where a bundled definition was copied from.
///
/// ```
/// use schemcp_contract::Origin;
/// let o = Origin { file: "schemas/common.json".into(), pointer: "/$defs/Address".into() };
/// assert_eq!(o.to_string(), "schemas/common.json#/$defs/Address");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    /// The file, as `root.join(relative path)`.
    pub file: PathBuf,
    /// JSON pointer to the copied schema in that file; empty for the whole file.
    pub pointer: String,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}#{}", self.file.display(), self.pointer)
    }
}

/// One tool, ready to serve.
///
/// ```
/// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
///     ("echo.json".into(), r#"{"title":"Echo","description":"d","inputSchema":{"type":"object"}}"#.into()),
/// ]).unwrap();
/// let t = &set.tools[0];
/// assert_eq!(t.tool.keys().next().map(String::as_str), Some("name"));
/// assert_eq!((t.title(), t.description()), (Some("Echo"), Some("d")));
/// assert_eq!(t.output_schema(), None);
/// ```
#[derive(Debug, Clone)]
pub struct ToolContract {
    /// The tool name: the `name` member, or the file stem.
    pub name: String,
    /// The file, as `root.join(relative path)`.
    pub file: PathBuf,
    /// The Tool object as served to a 2026-07-28 client: the file's members in file order,
    /// `name` inserted first when it came from the stem, schemas bundled.
    pub tool: Map<String, Value>,
    /// For every bundled definition, keyed by a JSON pointer into `tool` such as
    /// `/inputSchema/$defs/Address`, where it was copied from.
    pub origins: BTreeMap<String, Origin>,
    source: Arc<str>,
    bundled_under: Vec<String>,
}

impl ToolContract {
    pub(crate) fn new(
        name: String,
        file: PathBuf,
        tool: Map<String, Value>,
        origins: BTreeMap<String, Origin>,
        source: Arc<str>,
    ) -> ToolContract {
        let bundled_under = origins.keys().cloned().collect();
        ToolContract {
            name,
            file,
            tool,
            origins,
            source,
            bundled_under,
        }
    }

    /// The bundled `inputSchema`.
    ///
    /// ```
    /// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
    ///     ("a.json".into(), r#"{"inputSchema":{"type":"object"}}"#.into()),
    /// ]).unwrap();
    /// assert_eq!(set.tools[0].input_schema()["type"], "object");
    /// ```
    pub fn input_schema(&self) -> &Value {
        // Loading guarantees the member exists.
        &self.tool["inputSchema"]
    }

    /// The bundled `outputSchema`, if the tool has one.
    ///
    /// ```
    /// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
    ///     ("a.json".into(), r#"{"inputSchema":{"type":"object"},"outputSchema":{"type":"integer"}}"#.into()),
    /// ]).unwrap();
    /// assert_eq!(set.tools[0].output_schema().unwrap()["type"], "integer");
    /// ```
    pub fn output_schema(&self) -> Option<&Value> {
        self.tool.get("outputSchema")
    }

    /// The `description`, if it is a string.
    ///
    /// ```
    /// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
    ///     ("a.json".into(), r#"{"description":"Does a.","inputSchema":{"type":"object"}}"#.into()),
    /// ]).unwrap();
    /// assert_eq!(set.tools[0].description(), Some("Does a."));
    /// ```
    pub fn description(&self) -> Option<&str> {
        self.tool.get("description").and_then(Value::as_str)
    }

    /// The `title`, if it is a string.
    ///
    /// ```
    /// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
    ///     ("a.json".into(), r#"{"inputSchema":{"type":"object"}}"#.into()),
    /// ]).unwrap();
    /// assert_eq!(set.tools[0].title(), None);
    /// ```
    pub fn title(&self) -> Option<&str> {
        self.tool.get("title").and_then(Value::as_str)
    }

    /// Where the value at `pointer` (a JSON pointer into [`ToolContract::tool`]) is in
    /// [`ToolContract::file`]. `None` for what is not in that file as such: a `name` taken
    /// from the stem, and anything inside a bundled definition (see [`ToolContract::origins`]
    /// for the file it came from).
    ///
    /// ```
    /// let set = schemcp_contract::load_sources(std::path::Path::new("s"), vec![
    ///     ("a.json".into(), "{\n  \"inputSchema\": {\"type\": \"object\"}\n}".into()),
    /// ]).unwrap();
    /// let loc = set.tools[0].locate("/inputSchema/type").unwrap();
    /// assert_eq!((loc.line, loc.column), (2, 27));
    /// assert_eq!(set.tools[0].locate("/name"), None);
    /// ```
    pub fn locate(&self, pointer: &str) -> Option<Location> {
        let inside = |prefix: &String| {
            pointer == prefix
                || pointer
                    .strip_prefix(prefix.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        };
        if self.bundled_under.iter().any(inside) {
            return None;
        }
        locate(&self.source, pointer)
    }
}

/// Loads every `*.json` file under `dir`, recursively.
///
/// ```
/// let err = schemcp_contract::load("/nonexistent/schemcp").unwrap_err();
/// assert_eq!(err.0[0].code, "unreadable");
/// ```
pub fn load(dir: impl AsRef<Path>) -> Result<ContractSet, Diagnostics> {
    load::load(dir.as_ref())
}

/// Loads contract files given in memory, as `(path relative to root, text)`; `root` is only
/// used to name files in diagnostics, [`ContractSet::files_read`] and origins.
///
/// ```
/// let err = schemcp_contract::load_sources(std::path::Path::new(""), vec![
///     ("a.json".into(), r#"{"description":"no schema"}"#.into()),
/// ]).unwrap_err();
/// assert_eq!(err.0[0].one_line(), "a.json:1:1: error[missing-input-schema]: `a.json` has no `inputSchema` and no other file references it, so it is neither a tool nor a definitions file");
/// ```
pub fn load_sources(
    root: &Path,
    files: Vec<(PathBuf, String)>,
) -> Result<ContractSet, Diagnostics> {
    load::load_sources(root, files)
}
