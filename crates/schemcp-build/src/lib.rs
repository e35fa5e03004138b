//! Build-time code generation for schemcp: a folder of MCP tool contracts in, Rust out.
//!
//! From a package's `build.rs`:
//!
//! ```no_run
//! fn main() -> Result<(), schemcp_build::Error> {
//!     schemcp_build::compile("schemas")
//! }
//! ```
//!
//! and in the package, where the generated code should live:
//!
//! ```ignore
//! mod tools {
//!     schemcp_runtime::include_tools!();
//! }
//! ```
//!
//! `include_tools!()` expands to `include!(concat!(env!("OUT_DIR"), "/schemcp_tools.rs"))`. The
//! generated file contains:
//!
//! - a type for every tool's input (`{Tool}Input`) and output (the output schema's `title`, or
//!   `{Tool}Output`), and for every `$defs` entry under its own name; one definition used by
//!   several tools is one type. Outputs that are not objects (`integer`, arrays, maps) use Rust's
//!   types (`i64`, `Vec<T>`, `BTreeMap<String, T>`) and get a type alias under the same name;
//! - `pub trait Tools`, one `async` method per tool, named after the tool in snake_case; a tool
//!   without `outputSchema` returns `String`, a tool named in [`Builder::output_wrapper`]
//!   returns `schemcp_runtime::Output<T>`;
//! - `pub const CATALOG: &str`, the `tools.json` written beside it;
//! - `pub struct Dispatch<T>` and `pub fn server<T: Tools>(tools: T)`, which the runtime serves.
//!
//! A copy of both files is kept in `generated/` beside `Cargo.toml` for review (see
//! [`Builder::mirror_dir`]); when the `CI` environment variable is set, a stale copy fails the
//! build instead.
//!
//! A schema that cannot become a Rust type is a build error naming the file, the JSON pointer,
//! the line and the column. Nothing becomes `serde_json::Value` silently; opt in with
//! [`Builder::fallback_to_value`].

#![warn(missing_docs)]

mod branch_kinds;
mod checks;
mod derived_names;
mod doc_text;
mod emit;
mod examples;
mod fields;
mod from_impls;
mod initializers;
mod listed_values;
mod names;
mod never_matching;
mod normalize;
mod openings;
mod optional;
mod order;
mod other_kinds;
mod recursion;
mod refs;
mod rewrite;
mod round_trip;
mod rust_types;
mod schema;
mod types;
mod union_names;
mod unions;
mod variants;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use schemcp_contract::{ContractSet, Severity, parallel};

/// The diagnostics in [`Error::Schemas`], from the contract loader, which renders them.
///
/// ```
/// use schemcp_build::{Diagnostic, Diagnostics};
/// let none = Diagnostics(Vec::<Diagnostic>::new());
/// assert!(!none.has_errors());
/// ```
pub use schemcp_contract::{Diagnostic, Diagnostics};

/// The JSON pointers in `schema` where plain typify, given it as is, merges a reference into
/// itself without end (a stack overflow, which no `catch_unwind` catches). For the fidelity
/// harness's typify baseline; not a stable API.
#[doc(hidden)]
pub fn __typify_unending_merges(schema: &serde_json::Value) -> Vec<String> {
    recursion::unending_in_plain_schema(schema)
}

use crate::emit::{Return, ToolItem};
use crate::types::{Problem, ToolSchemas};

/// Name of the catalog file written beside the generated Rust.
const CATALOG_FILE: &str = "tools.json";

/// Generates the tools of the schemas folder `dir` into `OUT_DIR`, with every default of
/// [`Builder`]. Call it from `build.rs`.
///
/// ```no_run
/// fn main() -> Result<(), schemcp_build::Error> {
///     schemcp_build::compile("schemas")
/// }
/// ```
pub fn compile(dir: impl AsRef<Path>) -> Result<(), Error> {
    Builder::new().schemas_dir(dir).compile()
}

/// Configures code generation; [`Builder::compile`] runs it from `build.rs`, and
/// [`Builder::generate`] returns the files without touching the disk or reading cargo's
/// environment.
///
/// ```no_run
/// fn main() -> Result<(), schemcp_build::Error> {
///     schemcp_build::Builder::new()
///         .schemas_dir("contracts")
///         .derive("PartialEq")
///         .output_wrapper("get_weather")
///         .compile()
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    schemas_dir: PathBuf,
    out_dir: Option<PathBuf>,
    mirror_dir: Option<PathBuf>,
    check_mirror: Option<bool>,
    derives: Vec<String>,
    module_name: String,
    trait_name: String,
    output_wrappers: BTreeSet<String>,
    fallback_to_value: bool,
    extern_crates: BTreeMap<String, String>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            schemas_dir: PathBuf::from("schemas"),
            out_dir: None,
            mirror_dir: Some(PathBuf::from("generated")),
            check_mirror: None,
            derives: Vec::new(),
            module_name: "schemcp_tools".into(),
            trait_name: "Tools".into(),
            output_wrappers: BTreeSet::new(),
            fallback_to_value: false,
            extern_crates: BTreeMap::new(),
        }
    }
}

/// The generated files, by file name: `schemcp_tools.rs` (after [`Builder::module_name`]) and
/// `tools.json`.
///
/// ```no_run
/// let generated = schemcp_build::Builder::new().schemas_dir("schemas").generate()?;
/// for (name, content) in &generated.files {
///     std::fs::write(std::path::Path::new("out").join(name), content)?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Generated {
    /// `(file name, content)`, the Rust file first.
    pub files: Vec<(String, String)>,
    /// Warnings from loading and generating (renamed types, fallbacks), for the user to see;
    /// each points into a contract file like an error does.
    pub warnings: Vec<Diagnostic>,
}

impl Builder {
    /// A builder with the defaults: schemas in `schemas/`, output to `$OUT_DIR`, mirror in
    /// `generated/`, checked when `CI` is set, trait `Tools`, module `schemcp_tools`.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new();
    /// # let _ = builder;
    /// ```
    pub fn new() -> Self {
        Builder::default()
    }

    /// The schemas folder; relative paths are relative to the package root (where `build.rs`
    /// runs).
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().schemas_dir("contracts");
    /// # let _ = builder;
    /// ```
    pub fn schemas_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.schemas_dir = dir.as_ref().to_path_buf();
        self
    }

    /// Where [`Builder::compile`] writes the files; defaults to `$OUT_DIR`, which
    /// `schemcp_runtime::include_tools!()` reads.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().out_dir("target/tools");
    /// # let _ = builder;
    /// ```
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The checked-in copy of the generated files, relative to the package root; `None` keeps
    /// none. Defaults to `Some("generated")`.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().mirror_dir(None::<&str>);
    /// # let _ = builder;
    /// ```
    pub fn mirror_dir(mut self, dir: Option<impl AsRef<Path>>) -> Self {
        self.mirror_dir = dir.map(|d| d.as_ref().to_path_buf());
        self
    }

    /// With `true`, [`Builder::compile`] fails when the mirror differs from what it would write,
    /// instead of writing it. Defaults to whether the `CI` environment variable is set (and not
    /// empty, `0` or `false`).
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().check_mirror(true);
    /// # let _ = builder;
    /// ```
    pub fn check_mirror(mut self, check: bool) -> Self {
        self.check_mirror = Some(check);
        self
    }

    /// Adds a derive to every generated type, e.g. `"PartialEq"` (typify already derives
    /// `Clone`, `Debug`, `Serialize` and `Deserialize`). The derive must be in scope where the
    /// file is included, or be a full path.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().derive("PartialEq");
    /// # let _ = builder;
    /// ```
    pub fn derive(mut self, derive: impl Into<String>) -> Self {
        let derive = derive.into();
        if !self.derives.contains(&derive) {
            self.derives.push(derive);
        }
        self
    }

    /// The generated Rust file's name without `.rs`; defaults to `schemcp_tools`, which is the
    /// name `schemcp_runtime::include_tools!()` includes.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().module_name("weather_tools");
    /// # let _ = builder;
    /// ```
    pub fn module_name(mut self, name: impl Into<String>) -> Self {
        self.module_name = name.into();
        self
    }

    /// The generated trait's name; defaults to `Tools`.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().trait_name("WeatherTools");
    /// # let _ = builder;
    /// ```
    pub fn trait_name(mut self, name: impl Into<String>) -> Self {
        self.trait_name = name.into();
        self
    }

    /// The named tool's method returns `schemcp_runtime::Output<T>` instead of `T` (`T` is
    /// `String` for a text-only tool), to attach `_meta` or extra content blocks.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().output_wrapper("get_weather");
    /// # let _ = builder;
    /// ```
    pub fn output_wrapper(mut self, tool: impl Into<String>) -> Self {
        self.output_wrappers.insert(tool.into());
        self
    }

    /// With `true`, a schema typify cannot convert becomes `serde_json::Value` (with a
    /// `cargo:warning` naming it) instead of failing the build. Off by default.
    ///
    /// ```
    /// let builder = schemcp_build::Builder::new().fallback_to_value(true);
    /// # let _ = builder;
    /// ```
    pub fn fallback_to_value(mut self, fallback: bool) -> Self {
        self.fallback_to_value = fallback;
        self
    }

    /// Registers a crate whose types schemas may name with typify's `x-rust-type` extension,
    /// at the version the package depends on (`"0.4.38"`), or `"*"` for any version (`"!"`
    /// never uses the crate's types, and silences the warning below). A schema
    /// such as `{"type": "string", "format": "date", "x-rust-type": {"crate": "chrono",
    /// "version": "^0.4", "path": "chrono::NaiveDate"}}` then becomes `chrono::NaiveDate`
    /// instead of a generated type, where the extension's requirement accepts that version;
    /// validation against the schema still runs on every call. An `x-rust-type` that names a
    /// crate not registered, or a version the requirement does not accept, is a warning at its
    /// pointer, and the type is generated from the schema.
    ///
    /// ```no_run
    /// fn main() -> Result<(), schemcp_build::Error> {
    ///     schemcp_build::Builder::new().extern_crate("chrono", "0.4.38").compile()
    /// }
    /// ```
    pub fn extern_crate(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.extern_crates.insert(name.into(), version.into());
        self
    }

    /// Loads the schemas folder and returns the generated files; reads no environment and
    /// writes nothing (this is `schemcp generate`).
    ///
    /// ```no_run
    /// let generated = schemcp_build::Builder::new().schemas_dir("schemas").generate()?;
    /// assert_eq!(generated.files[1].0, "tools.json");
    /// # Ok::<(), schemcp_build::Error>(())
    /// ```
    pub fn generate(&self) -> Result<Generated, Error> {
        let set = schemcp_contract::load(&self.schemas_dir).map_err(Error::Schemas)?;
        self.generate_from(&set)
    }

    /// Like [`Builder::generate`], for a contract set already loaded, e.g. from memory with
    /// [`schemcp_contract::load_sources`] (how `schemcp serve`'s `check_tools` checks inline
    /// files).
    ///
    /// ```
    /// use std::path::{Path, PathBuf};
    /// let tool = r#"{"name": "ping", "inputSchema": {"type": "object"}}"#;
    /// let set = schemcp_contract::load_sources(Path::new(""), vec![(PathBuf::from("ping.json"), tool.to_string())])?;
    /// let generated = schemcp_build::Builder::new().generate_from(&set)?;
    /// assert!(generated.files[0].1.contains("fn ping"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate_from(&self, set: &ContractSet) -> Result<Generated, Error> {
        let views: Vec<ToolView<'_>> = set
            .tools
            .iter()
            .map(|tool| ToolView {
                name: &tool.name,
                tool: &tool.tool,
                origins: tool
                    .origins
                    .iter()
                    .map(|(pointer, origin)| (pointer.clone(), origin.to_string()))
                    .collect(),
            })
            .collect();
        match self.generate_views(&views) {
            Ok((files, problems)) => {
                let mut warnings = set.warnings.clone();
                warnings.extend(diagnostics(set, &problems, Severity::Warning));
                Ok(Generated { files, warnings })
            }
            Err(Failure::Config(message)) => Err(Error::Config(message)),
            Err(Failure::Problems(problems)) => {
                Err(Error::Schemas(diagnostics(set, &problems, Severity::Error)))
            }
        }
    }

    /// The generator on one tool object given in memory, without the contract loader's lints
    /// (object input roots, no `$id`, the dialect): for measuring the generator itself on
    /// arbitrary schemas (the fidelity harness, `crates/schemcp-fidelity`). Returns the files and
    /// the warnings, or the problems, each as `pointer [code] message`. Not a stable API.
    #[doc(hidden)]
    pub fn generate_unchecked(
        &self,
        name: &str,
        tool: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<(Files, Vec<String>), Vec<String>> {
        let views = [ToolView {
            name,
            tool,
            origins: BTreeMap::new(),
        }];
        let show = |p: &Problem| format!("{} [{}] {}", p.pointer, p.code, p.message);
        match self.generate_views(&views) {
            Ok((files, warnings)) => Ok((files, warnings.iter().map(show).collect())),
            Err(Failure::Config(message)) => Err(vec![format!(" [config] {message}")]),
            Err(Failure::Problems(problems)) => Err(problems.iter().map(show).collect()),
        }
    }

    /// The generator proper, on tools sorted by name: the files, and warnings.
    fn generate_views(&self, views: &[ToolView<'_>]) -> Result<(Files, Vec<Problem>), Failure> {
        for (what, name) in [
            ("trait_name", &self.trait_name),
            ("module_name", &self.module_name),
        ] {
            if syn::parse_str::<syn::Ident>(name).is_err() {
                return Err(Failure::Config(format!(
                    "{what} `{name}` is not a Rust identifier"
                )));
            }
        }
        if let Some(wrapped) = self
            .output_wrappers
            .iter()
            .find(|w| !views.iter().any(|t| t.name == *w))
        {
            return Err(Failure::Config(format!(
                "output_wrapper(\"{wrapped}\"): there is no tool named `{wrapped}`"
            )));
        }

        // Read once, for the `x-rust-type` check and for typify's settings alike.
        let mut extern_crates = BTreeMap::new();
        for (name, version) in &self.extern_crates {
            let Some(parsed) = typify::CrateVers::parse(version) else {
                return Err(Failure::Config(format!(
                    "extern_crate(\"{name}\", \"{version}\"): the version must be the one in \
                     use, such as \"0.4.38\", \"*\" for any, or \"!\" for none"
                )));
            };
            extern_crates.insert(name.clone(), parsed);
        }

        let mut problems = Vec::new();
        let mut methods: BTreeMap<String, usize> = BTreeMap::new();
        let mut method_names = Vec::new();
        for (t, tool) in views.iter().enumerate() {
            let method = names::snake(tool.name).unwrap_or_default();
            if method.is_empty() {
                problems.push(Problem {
                    tool: Some(t),
                    pointer: "/name".into(),
                    code: "method-name",
                    message: format!("no Rust method name can be made from `{}`", tool.name),
                    help: Some("use letters, digits and `_` in tool names".into()),
                });
            } else if let Some(&other) = methods.get(&method) {
                problems.push(Problem {
                    tool: Some(t),
                    pointer: "/name".into(),
                    code: "method-name-collision",
                    message: format!(
                        "tools `{}` and `{}` would both become the method `{method}`",
                        views[other].name, tool.name
                    ),
                    help: Some("rename one of the tools".into()),
                });
            } else {
                methods.insert(method.clone(), t);
            }
            method_names.push(method);
        }
        if !problems.is_empty() {
            return Err(Failure::Problems(problems));
        }

        let null = serde_json::Value::Null;
        let schemas: Vec<ToolSchemas<'_>> = views
            .iter()
            .map(|tool| ToolSchemas {
                name: tool.name,
                input: tool.tool.get("inputSchema").unwrap_or(&null),
                output: tool.output(),
                origins: tool.origins.clone(),
            })
            .collect();
        let options = types::Options {
            derives: self.derives.clone(),
            fallback_to_value: self.fallback_to_value,
            extern_crates,
            // typify's code names `String`, `Ok` and `Err` without a path (`TryFrom<String>`,
            // `Ok(Self(value))`): a type of one of those names took their place, and the
            // code did not compile.
            reserved: [&self.trait_name, "Dispatch", "String", "Ok", "Err"]
                .map(String::from)
                .into(),
        };
        let named = rust_types::check(&schemas, &options.extern_crates);
        if !named.errors.is_empty() {
            return Err(Failure::Problems(named.errors));
        }
        let checked = examples::check(&schemas);
        if !checked.errors.is_empty() {
            return Err(Failure::Problems(checked.errors));
        }
        // A `default` that does not validate is left out of the types (never filled in); the
        // catalog still serves the schema as written. So is one typify cannot hold: the
        // conversion is redone without the defaults of each schema it refused for that.
        let mut ignored = checked.ignored_defaults;
        let unreachable = checked.unreachable_values;
        let mut warnings = named.warnings;
        warnings.extend(checked.warnings);
        let mut types = loop {
            let without = edited(&schemas, &ignored, &unreachable);
            let schemas: Vec<ToolSchemas<'_>> = schemas
                .iter()
                .zip(&without)
                .map(|(tool, [input, output])| ToolSchemas {
                    input: input.as_ref().unwrap_or(tool.input),
                    output: output.as_ref().or(tool.output),
                    origins: tool.origins.clone(),
                    ..*tool
                })
                .collect();
            let result = types::generate(&schemas, &options);
            let failed = match &result {
                Ok(types) => &types.warnings,
                Err(problems) => problems,
            };
            let (more, found) = examples::untypable_defaults(&schemas, failed);
            if more.is_empty() {
                break result.map_err(Failure::Problems)?;
            }
            ignored.extend(more);
            warnings.extend(found);
        };
        types.warnings.splice(0..0, warnings);

        let internal = |message: String| Failure::Config(format!("schemcp-build bug: {message}"));
        let mut tools = Vec::new();
        for (t, tool) in views.iter().enumerate() {
            let input = emit::rewrite_type(types.inputs[t].clone()).map_err(internal)?;
            let wrapped = self.output_wrappers.contains(tool.name);
            let output = match &types.outputs[t] {
                None if wrapped => Return::WrappedText,
                None => Return::Text,
                Some(ty) => {
                    let ty = emit::rewrite_type(ty.clone()).map_err(internal)?;
                    if wrapped {
                        Return::Wrapped(ty)
                    } else {
                        Return::Structured(ty)
                    }
                }
            };
            tools.push(ToolItem {
                name: tool.name.to_string(),
                examples: Vec::new(),
                method: method_names[t].clone(),
                doc: tool
                    .tool
                    .get("description")
                    .and_then(serde_json::Value::as_str)
                    .map(|d| {
                        let d = doc_text::for_rustdoc(d).unwrap_or_else(|| d.to_string());
                        d.lines().map(|line| format!(" {line}")).collect()
                    })
                    .unwrap_or_default(),
                input,
                output,
            });
        }
        let defs = types.defs;
        let mut items = types.items;
        let source = display_dir(&self.schemas_dir);
        let glue = emit::Glue::new(&source, &self.trait_name, CATALOG_FILE, &tools);
        // The catalog is serialized and the trait and dispatch glue printed on another core,
        // while this one finishes the types, checks the examples and prints both.
        let spent = types.spent;
        let ((catalog, glue), printed) = parallel::both(
            || {
                drop(spent);
                (catalog(views), glue.render())
            },
            || {
                emit::finish_types(&mut items);
                let files: Vec<_> = views.iter().map(|view| view.tool).collect();
                round_trip::add_examples(&items, &mut tools, &files, defs).map_err(internal)?;
                let lossy = round_trip::lossy_examples(&items, &tools);
                if !lossy.is_empty() {
                    return Err(Failure::Problems(lossy));
                }
                let examples = emit::render_examples(&tools).map_err(internal)?;
                Ok((emit::render_types(items), examples))
            },
        );
        let (types_text, examples) = printed?;
        let code = emit::file_text(&source, [&types_text, &glue.map_err(internal)?, &examples]);
        let files = vec![
            (format!("{}.rs", self.module_name), code),
            (CATALOG_FILE.into(), catalog),
        ];
        Ok((files, types.warnings))
    }

    /// Generates into `OUT_DIR` (or [`Builder::out_dir`]) and refreshes or checks the mirror;
    /// prints the `cargo:` lines that rerun it when a schema, the folder or `CI` changes.
    ///
    /// ```no_run
    /// fn main() -> Result<(), schemcp_build::Error> {
    ///     schemcp_build::Builder::new().trait_name("WeatherTools").compile()
    /// }
    /// ```
    pub fn compile(&self) -> Result<(), Error> {
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
        let package_path = |path: &Path| match &manifest_dir {
            Some(root) if path.is_relative() => root.join(path),
            _ => path.to_path_buf(),
        };
        let schemas_dir = package_path(&self.schemas_dir);
        // Printed before loading, so a broken schema is retried when it is fixed.
        println!("cargo:rerun-if-changed={}", schemas_dir.display());
        println!("cargo:rerun-if-env-changed=CI");
        let set = match schemcp_contract::load(&schemas_dir) {
            Ok(set) => set,
            Err(diagnostics) => return Err(Error::Schemas(diagnostics)),
        };
        for file in &set.files_read {
            println!("cargo:rerun-if-changed={}", file.display());
        }
        let generated = self.generate_from(&set)?;
        for warning in &generated.warnings {
            println!("cargo:warning={}", warning.one_line().replace('\n', " "));
        }

        let out_dir = match &self.out_dir {
            Some(dir) => package_path(dir),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::Config(
                        "OUT_DIR is not set: call compile() from build.rs, or set Builder::out_dir"
                            .into(),
                    )
                })?,
        };
        write_files(&out_dir, &generated.files)?;

        if let Some(mirror) = &self.mirror_dir {
            let check = self.check_mirror.unwrap_or_else(ci_is_set);
            let shown = mirror.clone();
            let mirror = package_path(mirror);
            if check {
                check_mirror(&mirror, &shown, &generated.files)?;
            } else {
                write_files(&mirror, &generated.files)?;
            }
        }
        Ok(())
    }
}

/// Why generation failed. `Debug` renders like `Display` (the full diagnostics), so
/// `fn main() -> Result<(), schemcp_build::Error>` in `build.rs` prints readable errors.
///
/// ```
/// let error = schemcp_build::Builder::new().schemas_dir("no/such/dir").generate().unwrap_err();
/// assert!(!format!("{error:?}").is_empty());
/// ```
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The schemas do not load, or cannot become Rust; every diagnostic names a file and a
    /// JSON pointer.
    #[error("{}", .0.render(false))]
    Schemas(Diagnostics),
    /// The checked-in mirror differs from what the schemas generate.
    #[error(
        "{file} is out of date with the schemas ({detail}).\nRun `cargo build` without CI set \
         to refresh it, then commit the result."
    )]
    StaleMirror {
        /// The mirror file that differs, relative to the package root.
        file: PathBuf,
        /// Where it first differs.
        detail: String,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The builder's options are inconsistent with each other or the schemas.
    #[error("{0}")]
    Config(String),
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `main` prints errors with Debug; show the rendered diagnostics, not the structure.
        write!(f, "\n{self}")
    }
}

/// Turns generator problems into diagnostics that point into the contract files, following
/// bundled definitions back to the file they were copied from.
fn diagnostics(set: &ContractSet, problems: &[Problem], severity: Severity) -> Diagnostics {
    let mut sources: BTreeMap<PathBuf, Option<Arc<str>>> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for problem in problems {
        let diagnostic = match problem.tool {
            None => Diagnostic::new(severity, problem.code, &problem.message, &set.root),
            Some(t) => {
                let tool = &set.tools[t];
                let (file, pointer) = tool
                    .origins
                    .iter()
                    .filter(|(at, _)| {
                        problem.pointer == **at || problem.pointer.starts_with(&format!("{at}/"))
                    })
                    .max_by_key(|(at, _)| at.len())
                    .map(|(at, origin)| {
                        (
                            origin.file.clone(),
                            format!("{}{}", origin.pointer, &problem.pointer[at.len()..]),
                        )
                    })
                    .unwrap_or_else(|| (tool.file.clone(), problem.pointer.clone()));
                let source = sources
                    .entry(file.clone())
                    .or_insert_with(|| std::fs::read_to_string(&file).ok().map(Arc::from))
                    .clone();
                let diagnostic = Diagnostic::new(severity, problem.code, &problem.message, file);
                match source {
                    Some(source) => at_written_place(diagnostic, &source, &pointer),
                    None => {
                        let mut diagnostic = diagnostic;
                        diagnostic.pointer = pointer;
                        diagnostic
                    }
                }
            }
        };
        // A definition several tools share is checked in each tool's copy: one finding.
        let key = (
            diagnostic.file.clone(),
            diagnostic.pointer.clone(),
            diagnostic.code,
            diagnostic.message.clone(),
        );
        if !seen.insert(key) {
            continue;
        }
        out.push(match &problem.help {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic,
        });
    }
    Diagnostics(out)
}

/// Points `diagnostic` at `pointer` in `source`, or, where the generator found the problem at
/// a place of its own copy that is not written as such (a list of types it reads as a union's
/// branches, `prefixItems` it reads as a tuple's `items`), at the nearest place around it that
/// is: a diagnostic always names a place in the file.
fn at_written_place(diagnostic: Diagnostic, source: &Arc<str>, pointer: &str) -> Diagnostic {
    let mut place = pointer;
    loop {
        let located = diagnostic.clone().at_key(source, place);
        if located.line.is_some() || place.is_empty() {
            return located;
        }
        place = &place[..place.rfind('/').unwrap_or(0)];
    }
}

/// Copies of the schemas to type differently from how they are written: without the
/// defaults to leave out (`(tool, kind, pointer)`), and with only the `enum` values kept of
/// those with unreachable ones (`(tool, kind, pointer, kept)`; nothing kept, the schema
/// matches nothing: `false`, or an empty `enum` where the schema also holds definitions or
/// identifiers others may reference). `None` where a schema is typed as written.
fn edited(
    schemas: &[ToolSchemas<'_>],
    ignored: &[(usize, types::Kind, String)],
    unreachable: &[(usize, types::Kind, String, Vec<serde_json::Value>)],
) -> Vec<[Option<serde_json::Value>; 2]> {
    use serde_json::Value;
    let mut copies: Vec<[Option<Value>; 2]> = schemas.iter().map(|_| [None, None]).collect();
    fn copy<'c>(
        copies: &'c mut [[Option<Value>; 2]],
        schemas: &[ToolSchemas<'_>],
        t: usize,
        kind: types::Kind,
    ) -> &'c mut Value {
        let (slot, original) = match kind {
            types::Kind::Input => (0, Some(schemas[t].input)),
            types::Kind::Output => (1, schemas[t].output),
        };
        copies[t][slot].get_or_insert_with(|| original.cloned().unwrap_or(Value::Null))
    }
    for (t, kind, pointer, kept) in unreachable {
        let Some(place) = copy(&mut copies, schemas, *t, *kind).pointer_mut(pointer) else {
            continue;
        };
        let Value::Object(object) = place else {
            continue;
        };
        object.shift_remove("const");
        let referenced = ["$defs", "definitions", "$id", "$anchor", "$dynamicAnchor"]
            .iter()
            .any(|k| object.contains_key(*k));
        if kept.is_empty() && !referenced {
            *place = Value::Bool(false);
        } else {
            object.insert("enum".into(), Value::Array(kept.clone()));
        }
    }
    for (t, kind, pointer) in ignored {
        if let Some(Value::Object(object)) =
            copy(&mut copies, schemas, *t, *kind).pointer_mut(pointer)
        {
            object.shift_remove("default");
        }
    }
    copies
}

/// `tools.json`: every tool object as served, in the (sorted) order of `views`.
fn catalog(views: &[ToolView<'_>]) -> String {
    let catalog = serde_json::json!({ "tools": views.iter().map(|t| t.tool).collect::<Vec<_>>() });
    let mut text = serde_json::to_string_pretty(&catalog).expect("JSON values always serialize");
    text.push('\n');
    text
}

/// `(file name, content)` pairs.
type Files = Vec<(String, String)>;

/// One tool as the generator sees it.
struct ToolView<'a> {
    name: &'a str,
    tool: &'a serde_json::Map<String, serde_json::Value>,
    origins: BTreeMap<String, String>,
}

impl ToolView<'_> {
    fn output(&self) -> Option<&serde_json::Value> {
        self.tool.get("outputSchema")
    }
}

/// Why [`Builder::generate_views`] failed, before it is turned into an [`Error`].
enum Failure {
    Config(String),
    Problems(Vec<Problem>),
}

/// The schemas folder as the header shows it: relative to the package that contains it, so
/// `build.rs` (which runs in the package) and `schemcp generate` (which runs anywhere) write the
/// same header.
fn display_dir(dir: &Path) -> String {
    let absolute = dir
        .canonicalize()
        .ok()
        .or_else(|| dir.is_absolute().then(|| dir.to_path_buf()));
    let relative = match absolute {
        Some(absolute) => absolute
            .ancestors()
            .skip(1)
            .find(|a| a.join("Cargo.toml").is_file())
            .and_then(|root| absolute.strip_prefix(root).ok())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| absolute.file_name().map(PathBuf::from).unwrap_or_default()),
        None => dir.to_path_buf(),
    };
    let parts: Vec<String> = relative
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

fn ci_is_set() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Writes each file unless it already has this content, so cargo sees no change and does not
/// rebuild.
fn write_files(dir: &Path, files: &[(String, String)]) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.into(),
        source,
    })?;
    for (name, content) in files {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).is_ok_and(|old| old == *content) {
            continue;
        }
        std::fs::write(&path, content).map_err(|source| Error::Io { path, source })?;
    }
    Ok(())
}

/// Fails with the first mirror file that differs from `files`.
fn check_mirror(dir: &Path, shown: &Path, files: &[(String, String)]) -> Result<(), Error> {
    for (name, content) in files {
        let file = shown.join(name);
        let Ok(old) = std::fs::read_to_string(dir.join(name)) else {
            return Err(Error::StaleMirror {
                file,
                detail: "the file is missing".into(),
            });
        };
        if old == *content {
            continue;
        }
        let mut old_lines = old.lines();
        let mut new_lines = content.lines();
        let mut line = 1;
        let detail = loop {
            match (old_lines.next(), new_lines.next()) {
                (Some(a), Some(b)) if a == b => line += 1,
                (Some(a), Some(b)) => {
                    break format!("first difference at line {line}: expected `{b}`, found `{a}`");
                }
                (None, Some(b)) => break format!("it ends at line {line}; expected `{b}` there"),
                (Some(a), None) => {
                    break format!("line {line} should not be there: found `{a}`");
                }
                (None, None) => break "line endings differ".to_string(),
            }
        };
        return Err(Error::StaleMirror { file, detail });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_not_written_as_such_is_shown_at_the_nearest_written_one() {
        let source: Arc<str> =
            "{\n  \"inputSchema\": {\n    \"properties\": { \"p\": { \"type\": [\"object\", \"string\"] } }\n  }\n}"
                .into();
        let diagnostic = || Diagnostic::new(Severity::Error, "unsupported-schema", "m", "t.json");
        let written = at_written_place(diagnostic(), &source, "/inputSchema/properties/p");
        assert_eq!(
            (written.pointer.as_str(), written.line, written.column),
            ("/inputSchema/properties/p", Some(3), Some(21))
        );
        let copied = "/inputSchema/properties/p/oneOf/0/properties/q";
        let shown = at_written_place(diagnostic(), &source, copied);
        assert_eq!(
            (shown.pointer.as_str(), shown.line, shown.column),
            ("/inputSchema/properties/p", Some(3), Some(21))
        );
        let nowhere = at_written_place(diagnostic(), &"[]".into(), "/inputSchema");
        assert_eq!((nowhere.pointer.as_str(), nowhere.line), ("", Some(1)));
    }

    #[test]
    fn display_dir_is_relative_and_slashed() {
        assert_eq!(display_dir(Path::new("schemas")), "schemas");
        assert_eq!(
            display_dir(Path::new("./no/such/schemas")),
            "no/such/schemas"
        );
        // Seen from anywhere, an existing folder is named relative to its package.
        assert_eq!(
            display_dir(Path::new("tests/fixtures/weather")),
            "tests/fixtures/weather"
        );
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        assert_eq!(
            display_dir(&repo.join("crates/schemcp-build/tests/fixtures/weather")),
            "tests/fixtures/weather"
        );
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/weather");
        assert_eq!(display_dir(&here), "tests/fixtures/weather");
    }

    #[test]
    fn mirror_check_names_the_first_difference() {
        let dir = std::env::temp_dir().join(format!("schemcp-build-unit-{}", std::process::id()));
        let files = vec![("a.rs".to_string(), "one\ntwo\n".to_string())];
        write_files(&dir, &files).unwrap();
        check_mirror(&dir, Path::new("generated"), &files).unwrap();
        let changed = vec![("a.rs".to_string(), "one\nthree\n".to_string())];
        let error = check_mirror(&dir, Path::new("generated"), &changed)
            .unwrap_err()
            .to_string();
        assert!(error.contains("generated/a.rs"), "{error}");
        assert!(
            error.contains("line 2: expected `three`, found `two`"),
            "{error}"
        );
        assert!(error.contains("without CI set"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod raw_tests;
