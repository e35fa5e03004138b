//! Reading, classifying and linting contract files.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::diagnostic::{self, Diagnostic, Diagnostics, Severity};
use crate::json::percent_decode;
use crate::locate::{resolve, split_pointer, within};
use crate::resources::{Landing, ResourceError, Resources, without_fragment};
use crate::schema::{self, Walk};
use crate::{ContractSet, ToolContract, bundle, parallel};

// The dialect every schema is read as; `$schema` may say so but may not say otherwise.
use crate::METASCHEMA as DIALECT;

const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "_meta",
    "icons",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Tool,
    Definitions,
    /// Not usable: invalid JSON, not an object, or neither a tool nor referenced.
    Rejected,
}

pub(crate) struct File {
    /// `/`-separated path relative to the root; the key references resolve to.
    pub key: String,
    /// `root.join(relative path)`, as shown to people.
    pub path: PathBuf,
    pub source: Arc<str>,
    pub value: Option<Value>,
    pub kind: Kind,
}

/// A schema that a `$ref` names: a file and an absolute JSON pointer into it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Target {
    pub file: usize,
    pub pointer: String,
}

/// Why a `$ref` cannot be followed.
pub(crate) struct RefError {
    /// `None`: nothing to report, because the target file is already reported broken, or the
    /// reference names the metaschema, which stays as written (see
    /// [`crate::names_metaschema`]).
    pub code: Option<&'static str>,
    pub message: String,
    pub help: Option<String>,
}

impl RefError {
    /// Not followed, and nothing to say: see [`RefError::code`].
    fn unreported() -> RefError {
        RefError {
            code: None,
            message: String::new(),
            help: None,
        }
    }

    fn new(code: &'static str, message: String, help: Option<&str>) -> RefError {
        RefError {
            code: Some(code),
            message,
            help: help.map(str::to_string),
        }
    }
}

pub(crate) struct Files {
    pub list: Vec<File>,
    by_key: HashMap<String, usize>,
    /// The schemas that name themselves with an absolute `$id` at their root (a tool's
    /// `inputSchema`/`outputSchema`, a definitions file), or as a resource embedded in one, by
    /// that name without a fragment: a `$ref` to the name resolves to the file here, never over
    /// the network.
    by_id: HashMap<String, Target>,
    /// The documents that embed resources (`$id` below their root), by file and the pointer
    /// of the document's root in it.
    resources: HashMap<(usize, String), Resources>,
}

impl Files {
    /// The JSON Schema document a pointer in file `file` belongs to: a tool's two schemas are
    /// served on their own, so `#` inside them means the schema, not the tool file.
    pub fn doc_root(&self, file: usize, pointer: &str) -> String {
        if self.list[file].kind == Kind::Tool {
            for root in ["/inputSchema", "/outputSchema"] {
                if within(pointer, root) {
                    return root.to_string();
                }
            }
        }
        String::new()
    }

    /// Follows `reference`, written in the schema at `holder` of the document rooted at
    /// `doc_root` of file `from`.
    pub fn resolve_ref(
        &self,
        from: usize,
        doc_root: &str,
        holder: &str,
        reference: &str,
    ) -> Result<Target, RefError> {
        if let Some(landed) = self.resolve_in_document(from, doc_root, holder, reference) {
            return landed;
        }
        let (path, fragment) = match reference.split_once('#') {
            Some((path, fragment)) => (path, fragment),
            None => (reference, ""),
        };
        let (file, doc_root) = if has_scheme(reference) || reference.starts_with("//") {
            if crate::names_metaschema(reference) && !self.by_id.contains_key(path) {
                return Err(RefError::unreported());
            }
            let Some(named) = self.by_id.get(path) else {
                return Err(RefError::new(
                    "network-ref",
                    format!(
                        "`$ref` \"{reference}\" points outside the schemas folder; references are never fetched"
                    ),
                    Some(
                        "copy the schema into a file in the schemas folder and reference it by relative path, e.g. \"common.json#/$defs/Address\", or by the `$id` at its root",
                    ),
                ));
            };
            (named.file, named.pointer.clone())
        } else if path.is_empty() {
            (from, doc_root.to_string())
        } else {
            let Some(key) = normalize_ref_path(&self.list[from].key, &percent_decode(path)) else {
                return Err(RefError::new(
                    "ref-outside-root",
                    format!("`$ref` \"{reference}\" leaves the schemas folder"),
                    Some("reference files inside the schemas folder only, by relative path"),
                ));
            };
            let Some(&file) = self.by_key.get(&key) else {
                // zod, for one, writes references to a registry's schemas by bare name.
                let with_extension = format!("{key}.json");
                let help = self.by_key.contains_key(&with_extension).then(|| {
                    let hint = reference.replacen(path, &format!("{path}.json"), 1);
                    format!("the folder has `{with_extension}`: write the reference as \"{hint}\"")
                });
                return Err(RefError {
                    code: Some("dangling-ref"),
                    message: format!(
                        "`$ref` \"{reference}\" names `{key}`, which is not a JSON file in the schemas folder"
                    ),
                    help,
                });
            };
            (file, String::new())
        };
        let target = &self.list[file];
        let Some(value) = &target.value else {
            return Err(RefError::unreported());
        };
        let fragment = percent_decode(fragment);
        let pointer = if fragment.is_empty() || fragment.starts_with('/') {
            let pointer = format!("{doc_root}{fragment}");
            if split_pointer(&pointer).is_none() || resolve(value, &pointer).is_none() {
                return Err(RefError::new(
                    "dangling-ref",
                    format!(
                        "`$ref` \"{reference}\" names nothing: `{}` has no {}",
                        target.key,
                        missing_place(&fragment)
                    ),
                    None,
                ));
            }
            pointer
        } else {
            let roots: Vec<String> = if target.kind == Kind::Tool && doc_root.is_empty() {
                vec!["/inputSchema".into(), "/outputSchema".into()]
            } else {
                vec![doc_root]
            };
            let found = roots.iter().find_map(|root| {
                resolve(value, root).and_then(|v| schema::find_anchor(v, root, &fragment))
            });
            match found {
                Some(pointer) => pointer,
                None => {
                    return Err(RefError::new(
                        "dangling-ref",
                        format!(
                            "`$ref` \"{reference}\" names nothing: `{}` has no {}",
                            target.key,
                            missing_place(&fragment)
                        ),
                        None,
                    ));
                }
            }
        };
        let in_schema = ["/inputSchema", "/outputSchema"]
            .iter()
            .any(|root| within(&pointer, root));
        if target.kind == Kind::Tool && !in_schema {
            return Err(RefError::new(
                "dangling-ref",
                format!(
                    "`$ref` \"{reference}\" names `{}#{pointer}`, which is part of a tool, not a schema",
                    target.key
                ),
                Some(
                    "point into the tool's `/inputSchema` or `/outputSchema`, or move the schema into a definitions file",
                ),
            ));
        }
        Ok(Target { file, pointer })
    }

    /// The value a resolved target names.
    pub fn value(&self, target: &Target) -> &Value {
        // Targets are only made after `resolve` found the value.
        resolve(
            self.list[target.file]
                .value
                .as_ref()
                .expect("target file parsed"),
            &target.pointer,
        )
        .expect("target resolved")
    }

    fn show(&self, target: &Target) -> String {
        format!("{}#{}", self.list[target.file].key, target.pointer)
    }

    /// Whether the schema at `holder` (in the document rooted at `doc_root` of `file`) is
    /// inside a resource the document embeds.
    pub fn in_embedded(&self, file: usize, doc_root: &str, holder: &str) -> bool {
        self.resources
            .get(&(file, doc_root.to_string()))
            .is_some_and(|r| r.in_embedded(holder.strip_prefix(doc_root).unwrap_or(holder)))
    }

    /// Where `reference` lands when the document embeds resources and the reference names one
    /// of them, or is written inside one (see [`Resources`]); `None` when it reads as in a
    /// document of one resource.
    fn resolve_in_document(
        &self,
        from: usize,
        doc_root: &str,
        holder: &str,
        reference: &str,
    ) -> Option<Result<Target, RefError>> {
        let resources = self.resources.get(&(from, doc_root.to_string()))?;
        let document = resolve(self.list[from].value.as_ref()?, doc_root)?;
        let holder = holder.strip_prefix(doc_root).unwrap_or(holder);
        let inside = resources.in_embedded(holder);
        match resources.resolve(document, holder, reference) {
            Landing::Here(pointer) => Some(Ok(Target {
                file: from,
                pointer: format!("{doc_root}{pointer}"),
            })),
            Landing::Nowhere(uri) => {
                let place =
                    missing_place(&percent_decode(uri.split_once('#').map_or("", |(_, f)| f)));
                let message = match resources.root_of(&uri) {
                    Some(root) if !root.is_empty() => format!(
                        "`$ref` \"{reference}\" names nothing: it resolves into the schema with its own `$id` at `{doc_root}{root}` (`{}`), which has no {place}",
                        Resources::shown(&uri)
                    ),
                    _ => format!(
                        "`$ref` \"{reference}\" names nothing: `{}` has no {place}",
                        self.list[from].key
                    ),
                };
                Some(Err(RefError::new("dangling-ref", message, None)))
            }
            Landing::Outside(uri) if crate::names_metaschema(&uri) => {
                Some(Err(RefError::unreported()))
            }
            Landing::Outside(uri) if inside => Some(Err(RefError::new(
                "ref-leaves-resource",
                format!(
                    "`$ref` \"{reference}\" is written inside a schema with its own `$id` (base `{}`) and resolves to `{}`, which this document does not hold",
                    Resources::shown(resources.base_at(holder)),
                    Resources::shown(&uri)
                ),
                Some(
                    "inside a schema with its own `$id`, reference only schemas of the same document (embed what it names, with its `$id`), or move the reference out of it",
                ),
            ))),
            Landing::Outside(_) => None,
        }
    }

    /// Every reference (`$ref`, `$dynamicRef`) in the schemas of a tool or definitions file:
    /// `(pointer of the keyword, reference)`.
    pub fn sites(&self, file: usize) -> Vec<(String, String)> {
        self.schema_roots(file)
            .into_iter()
            .flat_map(|(root, value)| schema::refs(value, &root, Walk::All))
            .map(|(at, keyword, reference)| (format!("{at}/{keyword}"), reference))
            .collect()
    }

    /// The pointers of every subschema file `file`'s schema roots hold where a schema goes,
    /// which the meta-schema, from the root, already checks.
    fn schema_positions(&self, file: usize) -> BTreeSet<String> {
        let mut positions = BTreeSet::new();
        for (root, value) in self.schema_roots(file) {
            schema::visit(value, &root, Walk::All, &mut |at, _| {
                positions.insert(at.to_string());
            });
        }
        positions
    }

    fn schema_roots(&self, file: usize) -> Vec<(String, &Value)> {
        let f = &self.list[file];
        let Some(value) = &f.value else {
            return Vec::new();
        };
        match f.kind {
            Kind::Tool => ["inputSchema", "outputSchema"]
                .iter()
                .filter_map(|k| value.get(*k).map(|v| (format!("/{k}"), v)))
                .collect(),
            Kind::Definitions => vec![(String::new(), value)],
            Kind::Rejected => Vec::new(),
        }
    }
}

/// The pointer of the schema holding the reference at `site` (`.../$ref`).
fn holder_of(site: &str) -> &str {
    site.rsplit_once('/').map_or("", |(holder, _)| holder)
}

pub(crate) fn has_scheme(reference: &str) -> bool {
    let Some((scheme, _)) = reference.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// How a dangling reference's message names the place its document lacks: a JSON pointer
/// (`""` for the root) or an anchor.
fn missing_place(fragment: &str) -> String {
    if fragment.is_empty() || fragment.starts_with('/') {
        format!("`{fragment}`")
    } else {
        format!("`$anchor` or `$dynamicAnchor` \"{fragment}\"")
    }
}

/// Resolves a reference path against the referring file's folder; `None` if it leaves the root.
fn normalize_ref_path(from_key: &str, path: &str) -> Option<String> {
    if path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = from_key.split('/').collect();
    parts.pop();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The lookup key of a path relative to the root, whatever separators the platform uses.
fn key_of(rel: &Path) -> String {
    rel.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            Component::CurDir => None,
            other => Some(other.as_os_str().to_string_lossy().into_owned()),
        })
        .collect::<Vec<_>>()
        .join("/")
}

pub(crate) fn load(dir: &Path) -> Result<ContractSet, Diagnostics> {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    if let Err(error) = std::fs::read_dir(dir) {
        let message = format!(
            "cannot read the schemas folder `{}`: {error}",
            dir.display()
        );
        return Err(Diagnostics(vec![Diagnostic::new(
            Severity::Error,
            "unreadable",
            message,
            dir,
        )]));
    }
    let mut reading: Vec<PathBuf> = std::fs::canonicalize(dir).into_iter().collect();
    walk(dir, Path::new(""), &mut reading, &mut files, &mut problems);
    load_inner(dir, files, problems)
}

/// Collects `*.json` files below `dir` in name order, so every run sees the same order.
/// `reading` holds the real paths of the folders being read, outermost first: a link to one of
/// them, or to a folder holding one, is a cycle, which was read without end (`self -> .` and
/// `up -> ..` together made `schemcp check` hang).
fn walk(
    dir: &Path,
    rel: &Path,
    reading: &mut Vec<PathBuf>,
    files: &mut Vec<(PathBuf, String)>,
    problems: &mut Vec<Diagnostic>,
) {
    let here = dir.join(rel);
    let mut entries = match std::fs::read_dir(&here) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect::<Vec<_>>(),
        Err(error) => {
            let message = format!("cannot read folder `{}`: {error}", here.display());
            problems.push(unreadable(message, here));
            return;
        }
    };
    entries.sort();
    for name in entries {
        let rel = rel.join(&name);
        let path = dir.join(&rel);
        let is_json = path.extension().is_some_and(|e| e == "json");
        // `metadata` follows symlinks, so a linked shared file counts like a copy.
        let meta = match std::fs::metadata(&path) {
            Ok(meta) => meta,
            // A contract file that cannot be read is never skipped without a word (a link to
            // nowhere, a link to itself).
            Err(error) if is_json => {
                problems.push(unreadable(
                    format!("cannot read `{}`: {error}", path.display()),
                    path,
                ));
                continue;
            }
            Err(_) => continue,
        };
        if meta.is_dir() {
            let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            // A link to a folder being read, or to one that holds it, leads back to it.
            if reading.iter().any(|open| open.starts_with(&real)) {
                let message = format!(
                    "`{}` links to `{}`, which holds the folder being read: reading it would \
                     never end",
                    path.display(),
                    real.display()
                );
                problems.push(
                    unreadable(message, path)
                        .with_help("remove the link, or link to a folder outside the schemas"),
                );
                continue;
            }
            reading.push(real);
            walk(dir, &rel, reading, files, problems);
            reading.pop();
        } else if is_json {
            match std::fs::read_to_string(&path) {
                Ok(text) => files.push((rel, text)),
                Err(error) => {
                    let message = format!("cannot read `{}`: {error}", path.display());
                    problems.push(unreadable(message, path));
                }
            }
        }
    }
}

/// The error for a file or folder of the schemas that cannot be read.
fn unreadable(message: String, path: PathBuf) -> Diagnostic {
    Diagnostic::new(Severity::Error, "unreadable", message, path)
}

pub(crate) fn load_sources(
    root: &Path,
    files: Vec<(PathBuf, String)>,
) -> Result<ContractSet, Diagnostics> {
    load_inner(root, files, Vec::new())
}

fn load_inner(
    root: &Path,
    mut sources: Vec<(PathBuf, String)>,
    mut diags: Vec<Diagnostic>,
) -> Result<ContractSet, Diagnostics> {
    sources.sort_by_cached_key(|(rel, _)| key_of(rel));
    let mut files_read: Vec<PathBuf> = diags.iter().map(|d| d.file.clone()).collect();
    let mut list = Vec::new();
    // Each file on its own: a large set is parsed, linted and bundled on every core.
    let parsed = parallel::map(&sources, |(_, text)| serde_json::from_str::<Value>(text));
    for ((rel, text), parsed) in sources.into_iter().zip(parsed) {
        let path = root.join(&rel);
        files_read.push(path.clone());
        let source: Arc<str> = text.into();
        let value = match parsed {
            Ok(value) => Some(value),
            Err(error) => {
                diags.push(invalid_json(&path, &source, &error));
                None
            }
        };
        list.push(File {
            key: key_of(&rel),
            path,
            source,
            value,
            kind: Kind::Rejected,
        });
    }
    files_read.sort();
    files_read.dedup();
    let mut by_key = HashMap::new();
    for (i, f) in list.iter().enumerate() {
        by_key.entry(f.key.clone()).or_insert(i);
    }
    let mut files = Files {
        list,
        by_key,
        by_id: HashMap::new(),
        resources: HashMap::new(),
    };

    classify(&mut files, &mut diags);
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    let mut tools = Vec::new();
    for i in 0..files.list.len() {
        if files.list[i].kind == Kind::Tool {
            let name = lint_tool(&files.list[i], &mut names, i, &files, &mut diags);
            tools.push((i, name));
        }
    }
    let indices: Vec<usize> = (0..files.list.len()).collect();
    let linted = parallel::map(&indices, |&i| {
        let (mut found, mut reached) = (Vec::new(), Vec::new());
        lint_schemas(&files, i, &mut found, &mut reached);
        (found, reached)
    });
    let mut reached = Vec::new();
    for (found, targets) in linted {
        diags.extend(found);
        reached.extend(targets);
    }
    // What references reach is a schema wherever it is kept (`#/components/schemas/Step`),
    // though the meta-schema only looks below keywords that hold schemas: each such target
    // is checked once, on its own.
    reached.sort();
    reached.dedup();
    // Each file's positions are walked once, not once per target in it.
    let mut positions: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for target in &reached {
        let held = positions
            .entry(target.file)
            .or_insert_with(|| files.schema_positions(target.file));
        if held.contains(&target.pointer) {
            continue;
        }
        invalid_schema(
            &files,
            target.file,
            &target.pointer,
            files.value(target),
            &mut diags,
        );
    }
    find_cycles(&files, &mut diags);

    diagnostic::sort(&mut diags);
    if diags.iter().any(Diagnostic::is_error) {
        return Err(Diagnostics(diags));
    }
    let mut contracts: Vec<ToolContract> =
        parallel::map(&tools, |(i, name)| build_tool(&files, *i, name.clone()));
    contracts.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(ContractSet {
        root: root.to_path_buf(),
        tools: contracts,
        files_read,
        warnings: diags,
    })
}

fn invalid_json(path: &Path, source: &Arc<str>, error: &serde_json::Error) -> Diagnostic {
    // serde_json counts lines from 1 and columns from 1 (0 when it stopped at a line end).
    let line_start: usize = source
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let mut start = (line_start + error.column().saturating_sub(1)).min(source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    let end = source[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8());
    let message = format!("not valid JSON: {error}");
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    };
    // Editors on Windows save one; serde_json's "expected value" at 1:1 did not say so.
    let (message, help) = if source.starts_with('\u{feff}') {
        (
            "not valid JSON: the file starts with a byte order mark (U+FEFF)".to_string(),
            "save it as UTF-8 without a byte order mark: TypeScript's and Python's JSON \
             parsers refuse one too",
        )
    } else if message.ends_with("recursion limit exceeded") {
        (
            message,
            "serde_json reads at most 128 nested arrays and objects; move deep parts into \
             `$defs` and refer to them",
        )
    } else {
        (
            message,
            "contract files are strict JSON: no comments, no trailing commas",
        )
    };
    Diagnostic::new(Severity::Error, "invalid-json", message, path)
        .at_span(source, "", start..end)
        .with_help(help)
}

/// Tools have `inputSchema`; files other files reference are definitions; the rest is an error.
fn classify(files: &mut Files, diags: &mut Vec<Diagnostic>) {
    for f in &mut files.list {
        match &f.value {
            Some(Value::Object(map)) if map.contains_key("inputSchema") => f.kind = Kind::Tool,
            Some(Value::Object(_)) => f.kind = Kind::Definitions,
            Some(_) => {
                diags.push(
                    Diagnostic::new(
                        Severity::Error,
                        "root-not-object",
                        "a contract file must hold one JSON object",
                        &f.path,
                    )
                    .at_start(&f.source, ""),
                );
            }
            None => {}
        }
    }
    files.resources = embedded_resources(files, diags);
    files.by_id = named_roots(files, diags);
    // A definitions candidate counts as referenced when any other file points at it.
    let mut referenced = HashSet::new();
    for i in 0..files.list.len() {
        for (_, reference) in files.sites(i) {
            let path = reference.split('#').next().unwrap_or_default();
            if let Some(named) = files.by_id.get(path)
                && named.file != i
            {
                referenced.insert(files.list[named.file].key.clone());
            }
            if path.is_empty() || has_scheme(&reference) {
                continue;
            }
            if let Some(key) = normalize_ref_path(&files.list[i].key, &percent_decode(path))
                && key != files.list[i].key
            {
                referenced.insert(key);
            }
        }
    }
    for f in &mut files.list {
        if f.kind == Kind::Definitions && !referenced.contains(&f.key) {
            f.kind = Kind::Rejected;
            let d = Diagnostic::new(
                    Severity::Error,
                    "missing-input-schema",
                    format!("`{}` has no `inputSchema` and no other file references it, so it is neither a tool nor a definitions file", f.key),
                    &f.path,
                )
                .with_help("a tool needs `\"inputSchema\": { \"type\": \"object\", ... }`; a definitions file must be named by some `$ref`");
            let near_miss = f.value.as_ref().and_then(Value::as_object).and_then(|map| {
                map.keys().find(|k| {
                    k.chars()
                        .filter(|c| c.is_alphanumeric())
                        .collect::<String>()
                        .eq_ignore_ascii_case("inputschema")
                })
            });
            diags.push(match near_miss {
                Some(key) => d
                    .with_label("did you mean `inputSchema`?")
                    .at_key(&f.source, &format!("/{}", crate::locate::escape_token(key))),
                None => d.at_start(&f.source, ""),
            });
        }
    }
}

/// The documents that embed resources, each read once (see [`Files::resources`]). An `$id`
/// that is not a URI without a fragment is reported by the lints; two resources of one URI
/// are reported here, and leave the document read as one resource.
fn embedded_resources(
    files: &Files,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<(usize, String), Resources> {
    let mut found = HashMap::new();
    for (file, f) in files.list.iter().enumerate() {
        for (root, value) in files.schema_roots(file) {
            match Resources::read(value) {
                Ok(Some(resources)) => {
                    found.insert((file, root), resources);
                }
                Ok(None) | Err(ResourceError::Invalid(_)) => {}
                Err(ResourceError::Unresolvable(at)) => diags.push(
                    Diagnostic::new(
                        Severity::Error,
                        "invalid-id",
                        "`$id` does not resolve to a URI",
                        &f.path,
                    )
                    .at_value(&f.source, &format!("{root}{at}/$id")),
                ),
                Err(ResourceError::Duplicate { uri, first, second }) => diags.push(
                    Diagnostic::new(
                        Severity::Error,
                        "duplicate-id",
                        format!(
                            "`$id` names `{}`, as the `$id` at `{root}{first}` does: a reference to it could mean either",
                            Resources::shown(&uri)
                        ),
                        &f.path,
                    )
                    .at_value(&f.source, &format!("{root}{second}/$id")),
                ),
            }
        }
    }
    found
}

/// The schemas named by an absolute `$id`, at their root or as a resource embedded in one (see
/// [`Files::by_id`]). Two schemas of one name are an error at the second, a reference to it
/// could mean either, unless both are embedded copies of one schema.
fn named_roots(files: &Files, diags: &mut Vec<Diagnostic>) -> HashMap<String, Target> {
    let mut by_id: HashMap<String, Target> = HashMap::new();
    for (file, f) in files.list.iter().enumerate() {
        for (root, value) in files.schema_roots(file) {
            // The root by the name it is given, then the resources it embeds by the absolute
            // names theirs resolve to (and as written, where that is absolute too).
            let mut names: Vec<(String, Vec<String>)> = Vec::new();
            if let Some(name) = value
                .get("$id")
                .and_then(Value::as_str)
                .and_then(without_fragment)
                .filter(|name| has_scheme(name))
            {
                names.push((root.clone(), vec![name.to_string()]));
            }
            if let Some(resources) = files.resources.get(&(file, root.clone())) {
                for (at, uri) in resources.named() {
                    let written = resolve(value, at)
                        .and_then(|schema| schema.get("$id")?.as_str())
                        .and_then(without_fragment)
                        .filter(|id| has_scheme(id) && *id != uri);
                    let keys = std::iter::once(uri).chain(written).map(str::to_string);
                    names.push((format!("{root}{at}"), keys.collect()));
                }
            }
            for (pointer, keys) in names {
                let target = Target { file, pointer };
                if let Some(first) = keys.iter().find_map(|key| by_id.get(key)) {
                    // Bundlers embed a shared schema in every document that needs it: one
                    // schema under one name, whichever copy a reference finds.
                    let embedded = target.pointer != root;
                    if embedded && files.value(first) == files.value(&target) {
                        continue;
                    }
                    diags.push(
                        Diagnostic::new(
                            Severity::Error,
                            "duplicate-id",
                            format!("`$id` \"{}\" also names `{}`", keys[0], files.show(first)),
                            &f.path,
                        )
                        .at_value(&f.source, &format!("{}/$id", target.pointer))
                        .with_help("each schema needs a name of its own"),
                    );
                    continue;
                }
                for key in keys {
                    by_id.insert(key, target.clone());
                }
            }
        }
    }
    by_id
}

fn valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Lints the Tool object around the schemas; returns the tool name.
fn lint_tool(
    f: &File,
    names: &mut BTreeMap<String, usize>,
    index: usize,
    files: &Files,
    diags: &mut Vec<Diagnostic>,
) -> String {
    let map = f
        .value
        .as_ref()
        .and_then(Value::as_object)
        .expect("tools are objects");
    let error = |code, message: String| Diagnostic::new(Severity::Error, code, message, &f.path);
    for key in map.keys() {
        if !TOOL_KEYS.contains(&key.as_str()) {
            diags.push(
                Diagnostic::new(
                    Severity::Warning,
                    "unknown-key",
                    format!("unknown Tool member `{key}`"),
                    &f.path,
                )
                .at_key(&f.source, &format!("/{}", crate::locate::escape_token(key)))
                .with_help(format!(
                    "a Tool has {}; it is served as written",
                    TOOL_KEYS.join(", ")
                )),
            );
        }
    }
    let stem = Path::new(&f.key)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (name, from_stem) = match map.get("name") {
        None => (stem, true),
        Some(Value::String(name)) => (name.clone(), false),
        Some(other) => {
            diags.push(
                error(
                    "invalid-tool-name",
                    format!("`name` must be a string, found `{other}`"),
                )
                .at_value(&f.source, "/name"),
            );
            (stem, true)
        }
    };
    if !valid_tool_name(&name) {
        let d = error(
            "invalid-tool-name",
            format!("tool name \"{name}\" does not match ^[A-Za-z0-9_.-]{{1,128}}$"),
        )
        .with_help("use 1 to 128 ASCII letters, digits, `_`, `.` or `-`, e.g. \"get_weather\"");
        diags.push(if from_stem {
            d.with_label("the file stem is the name")
                .at_start(&f.source, "")
        } else {
            d.at_value(&f.source, "/name")
        });
    }
    match names.get(&name) {
        Some(&first) => {
            let d = error(
                "duplicate-tool-name",
                format!(
                    "tool name \"{name}\" is also used by `{}`",
                    files.list[first].path.display()
                ),
            )
            .with_help("tool names must be unique across the schemas folder");
            diags.push(if from_stem {
                d.at_start(&f.source, "")
            } else {
                d.at_value(&f.source, "/name")
            });
        }
        None => {
            names.insert(name.clone(), index);
        }
    }
    for (key, want) in [
        ("title", "a string"),
        ("description", "a string"),
        ("annotations", "an object"),
        ("_meta", "an object"),
        ("icons", "an array"),
    ] {
        let ok = match map.get(key) {
            None => true,
            Some(v) => match want {
                "a string" => v.is_string(),
                "an object" => v.is_object(),
                _ => v.is_array(),
            },
        };
        if !ok {
            diags.push(
                error("invalid-member", format!("`{key}` must be {want}"))
                    .at_value(&f.source, &format!("/{key}")),
            );
        }
    }
    let input = &map["inputSchema"];
    let root_type = input.get("type");
    if root_type != Some(&Value::String("object".into())) {
        let d = error(
            "input-root-not-object",
            match root_type {
                Some(t) => format!(
                    "`inputSchema` must have `\"type\": \"object\"` at its root, found `{t}`"
                ),
                None => "`inputSchema` must have `\"type\": \"object\"` at its root".to_string(),
            },
        )
        .with_help("MCP passes tool arguments as a JSON object; wrap other values in a property");
        diags.push(match root_type {
            Some(_) => d.at_value(&f.source, "/inputSchema/type"),
            None => d.at_start(&f.source, "/inputSchema"),
        });
    }
    if let Some(output) = map.get("outputSchema")
        && !output.is_object()
        && !output.is_boolean()
    {
        diags.push(
            error(
                "invalid-schema",
                "`outputSchema` must be a JSON Schema (an object or a boolean)".into(),
            )
            .at_value(&f.source, "/outputSchema"),
        );
    }
    name
}

/// The `invalid-schema` errors of `value`, the schema at `root` in file `file` (see
/// [`crate::meta::invalid_keywords`]).
fn invalid_schema(
    files: &Files,
    file: usize,
    root: &str,
    value: &Value,
    diags: &mut Vec<Diagnostic>,
) {
    let f = &files.list[file];
    for (at, message) in crate::meta::invalid_keywords(root, value) {
        diags.push(
            Diagnostic::new(
                Severity::Error,
                "invalid-schema",
                format!("not valid JSON Schema 2020-12: {message}"),
                &f.path,
            )
            .at_value(&f.source, &at)
            .with_help(
                "the runtime compiles this schema to validate every call, and cannot compile it so",
            ),
        );
    }
}

/// Dialect, validity and reference checks over the schemas of a tool or definitions file;
/// where its references land goes to `reached`.
fn lint_schemas(files: &Files, i: usize, diags: &mut Vec<Diagnostic>, reached: &mut Vec<Target>) {
    let f = &files.list[i];
    for (root, value) in files.schema_roots(i) {
        schema::visit(value, &root, Walk::All, &mut |at, schema| {
            if let Some(id) = schema.get("$id") {
                // At a root a `$id` names the schema: references resolve against the folder
                // either way, and a copy bundled into another schema's `$defs` leaves the name
                // behind. Below a root it starts a resource of its own, which references
                // written inside it resolve against (see `resources`).
                match id.as_str() {
                    Some(id) if without_fragment(id).is_some() => {}
                    Some(_) => diags.push(
                        Diagnostic::new(Severity::Error, "invalid-id", format!("`$id` {id} has a fragment"), &f.path)
                            .at_value(&f.source, &format!("{at}/$id"))
                            .with_help("JSON Schema 2020-12 allows no fragment in `$id` (use `$anchor` to name a place in the schema)"),
                    ),
                    None => diags.push(
                        Diagnostic::new(Severity::Error, "invalid-id", format!("`$id` must be a string, found {id}"), &f.path)
                            .at_value(&f.source, &format!("{at}/$id")),
                    ),
                }
            }
            let Some(dialect) = schema.get("$schema") else {
                return;
            };
            let ok = dialect
                .as_str()
                .is_some_and(|d| d.strip_suffix('#').unwrap_or(d) == DIALECT);
            if !ok {
                diags.push(
                    Diagnostic::new(
                        Severity::Error,
                        "unsupported-dialect",
                        format!("unsupported JSON Schema dialect {dialect}"),
                        &f.path,
                    )
                    .at_value(&f.source, &format!("{at}/$schema"))
                    .with_help(format!(
                        "schemas are read as 2020-12: remove `$schema` or set it to \"{DIALECT}\""
                    )),
                );
            }
        });
    }
    for (root, value) in files.schema_roots(i) {
        invalid_schema(files, i, &root, value, diags);
    }
    for (at, reference) in files.sites(i) {
        let doc_root = files.doc_root(i, &at);
        let resolved = files.resolve_ref(i, &doc_root, holder_of(&at), &reference);
        let Err(error) = resolved else {
            reached.extend(resolved.ok());
            continue;
        };
        if let RefError {
            code: Some(code),
            message,
            help,
        } = error
        {
            // The messages name `$ref`, the common case; the keyword is the one written.
            let keyword = at.rsplit('/').next().unwrap_or("$ref");
            let message = message.replacen("`$ref`", &format!("`{keyword}`"), 1);
            let d =
                Diagnostic::new(Severity::Error, code, message, &f.path).at_value(&f.source, &at);
            diags.push(match help {
                Some(help) => d.with_help(help),
                None => d,
            });
        }
    }
}

/// Finds `$ref` cycles that only pass through in-place keywords (see [`Walk::InPlace`]).
fn find_cycles(files: &Files, diags: &mut Vec<Diagnostic>) {
    struct Search<'a> {
        files: &'a Files,
        path: Vec<Target>,
        done: HashSet<Target>,
        seen: BTreeSet<Vec<Target>>,
        diags: &'a mut Vec<Diagnostic>,
    }
    impl Search<'_> {
        fn edges(&self, node: &Target) -> Vec<(String, Target)> {
            let doc_root = self.files.doc_root(node.file, &node.pointer);
            schema::refs(self.files.value(node), &node.pointer, Walk::InPlace)
                .into_iter()
                .filter_map(|(at, keyword, r)| {
                    let target = self.files.resolve_ref(node.file, &doc_root, &at, &r).ok()?;
                    Some((format!("{at}/{keyword}"), target))
                })
                .collect()
        }
        fn dfs(&mut self, node: Target) {
            if self.done.contains(&node) {
                return;
            }
            self.path.push(node.clone());
            for (at, next) in self.edges(&node) {
                if let Some(pos) = self.path.iter().position(|n| *n == next) {
                    let mut members = self.path[pos..].to_vec();
                    members.sort();
                    if self.seen.insert(members) {
                        let chain: Vec<String> = self.path[pos..]
                            .iter()
                            .chain([&next])
                            .map(|t| self.files.show(t))
                            .collect();
                        let f = &self.files.list[node.file];
                        self.diags.push(
                            Diagnostic::new(
                                Severity::Error,
                                "ref-cycle",
                                format!("`$ref` cycle that never passes through `properties`: {}", chain.join(" -> ")),
                                &f.path,
                            )
                            .at_value(&f.source, &at)
                            .with_help("no finite value can match a schema defined only as itself; recurse through `properties` or `items` instead"),
                        );
                    }
                } else {
                    self.dfs(next);
                }
            }
            self.path.pop();
            self.done.insert(node);
        }
    }
    let mut search = Search {
        files,
        path: Vec::new(),
        done: HashSet::new(),
        seen: BTreeSet::new(),
        diags,
    };
    for i in 0..files.list.len() {
        for (at, reference) in files.sites(i) {
            let doc_root = files.doc_root(i, &at);
            if let Ok(target) = files.resolve_ref(i, &doc_root, holder_of(&at), &reference) {
                search.dfs(target);
            }
        }
    }
}

fn build_tool(files: &Files, i: usize, name: String) -> ToolContract {
    let f = &files.list[i];
    let original = f
        .value
        .as_ref()
        .and_then(Value::as_object)
        .expect("tools are objects");
    let mut tool = Map::new();
    if !original.contains_key("name") {
        tool.insert("name".into(), Value::String(name.clone()));
    }
    let mut origins = BTreeMap::new();
    for (key, value) in original {
        let value = if key == "inputSchema" || key == "outputSchema" {
            let (bundled, defs) = bundle::bundle(files, i, key);
            origins.extend(defs);
            bundled
        } else {
            value.clone()
        };
        tool.insert(key.clone(), value);
    }
    ToolContract::new(name, f.path.clone(), tool, origins, f.source.clone())
}
