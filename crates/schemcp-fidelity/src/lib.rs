//! The fidelity harness: schemcp's generator, and plain typify 0.8 as the baseline, measured on
//! the official JSON-Schema-Test-Suite (`tests/draft2020-12`).
//!
//! For every test group (one schema, several instances) it generates Rust types for the schema
//! as a tool's input and as a tool's output (with `Builder::fallback_to_value(true)`, so what
//! cannot be typed is degraded to `serde_json::Value` with a warning naming each pointer), and
//! the plain typify baseline (`add_root_schema`, a root `title` injected, panics caught). It
//! writes all of them into one generated crate, compiles it once (a module that does not compile
//! is recorded as such and left out), and runs every instance through it:
//!
//! - valid instances: the pipeline the runtime ships (validate with `jsonschema::validator_for`,
//!   deserialize into the type, serialize, validate the result again) must accept the instance,
//!   and the result should equal it;
//! - invalid instances: does the type alone reject it (type strictness), and does the full
//!   pipeline (with validation) reject it.
//!
//! [`run`] returns every measurement; [`render`] turns them into `docs/fidelity.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

/// Where things are.
#[derive(Debug, Clone)]
pub struct Options {
    /// The suite's `tests/draft2020-12` folder.
    pub suite: PathBuf,
    /// A scratch folder for the generated crate and its target dir.
    pub work: PathBuf,
    /// The repository root (for `crates/schemcp-runtime` and `Cargo.lock`).
    pub repo: PathBuf,
}

/// One instance of a test group.
#[derive(Debug, Clone)]
pub struct Instance {
    pub description: String,
    pub data: Value,
    pub valid: bool,
}

/// One test group: a schema and its instances.
#[derive(Debug, Clone)]
pub struct Group {
    pub file: String,
    pub index: usize,
    pub description: String,
    pub schema: Value,
    pub tests: Vec<Instance>,
}

/// Which generator, and for which side of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// schemcp, the schema as `inputSchema`.
    Input,
    /// schemcp, the schema as `outputSchema`.
    Output,
    /// plain typify 0.8.
    Baseline,
}

impl Side {
    pub const ALL: [Side; 3] = [Side::Input, Side::Output, Side::Baseline];
    fn tag(self) -> &'static str {
        match self {
            Side::Input => "in",
            Side::Output => "out",
            Side::Baseline => "typify",
        }
    }
}

/// What generation gave for one group and side.
#[derive(Debug, Clone, PartialEq)]
pub enum Generation {
    /// A type, nothing degraded; with the pointers of schemas without `type` typed as an enum
    /// of their kind's value and any other kind of value (`other-kinds` warnings).
    Typed(Vec<String>),
    /// A type with the named pointers as `serde_json::Value` (warnings).
    Degraded(Vec<String>),
    /// No type, with the diagnostics.
    Refused(Vec<String>),
    /// The generator panicked (caught here): must never happen for schemcp.
    Panicked(String),
    /// Baseline only: typify returned no type without an error (no root title).
    NoType,
    /// The generated module failed to compile (first error).
    Uncompilable(String),
}

impl Generation {
    fn has_type(&self) -> bool {
        matches!(self, Generation::Typed(_) | Generation::Degraded(_))
    }
}

/// The outcome of one instance on one side.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The runtime's validator accepts the instance (`None`: the schema does not compile).
    pub validator: Option<bool>,
    /// Deserializing into the type succeeded (`None`: there is no type).
    pub deserialized: Option<bool>,
    /// The re-serialized value, when deserializing succeeded.
    pub reserialized: Option<Value>,
    /// The re-serialized value validates.
    pub revalidated: Option<bool>,
    /// Error text from the driver.
    pub error: Option<String>,
}

/// Measurements for one group.
#[derive(Debug, Clone)]
pub struct GroupResult {
    pub group: Group,
    pub generation: BTreeMap<Side, Generation>,
    /// Baseline without the injected title: did typify return a type at all?
    pub baseline_untitled_typed: bool,
    /// Per side, per instance.
    pub outcomes: BTreeMap<Side, Vec<Outcome>>,
}

/// Reads every `*.json` of the suite folder (not `optional/`), sorted by file name.
pub fn read_suite(dir: &Path) -> Result<Vec<Group>> {
    let groups = read_folder(dir, "")?;
    if groups.is_empty() {
        bail!("no test groups in {}", dir.display());
    }
    Ok(groups)
}

/// Reads the suite's `optional/` folder and its `optional/format/`: groups whose `file` starts
/// with `optional/`. Measured and reported apart from the targets. A corpus without that folder
/// (the union corpus, `unions/`) has none.
pub fn read_optional(dir: &Path) -> Result<Vec<Group>> {
    if !dir.join("optional").exists() {
        return Ok(Vec::new());
    }
    let mut groups = read_folder(&dir.join("optional"), "optional/")?;
    groups.extend(read_folder(
        &dir.join("optional/format"),
        "optional/format/",
    )?);
    Ok(groups)
}

/// Whether a result belongs to the `optional/` folder.
pub fn is_optional(result: &GroupResult) -> bool {
    result.group.file.starts_with("optional/")
}

fn read_folder(dir: &Path, prefix: &str) -> Result<Vec<Group>> {
    let remotes = remotes_folder(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading the suite folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut groups = Vec::new();
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy();
        let file = format!("{prefix}{stem}");
        let text = std::fs::read_to_string(&path)?;
        let list: Vec<Value> =
            serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
        for (index, group) in list.into_iter().enumerate() {
            let tests = group["tests"]
                .as_array()
                .context("a group without tests")?
                .iter()
                .map(|t| Instance {
                    description: t["description"].as_str().unwrap_or_default().to_string(),
                    data: t["data"].clone(),
                    valid: t["valid"].as_bool().unwrap_or(false),
                })
                .collect();
            groups.push(Group {
                file: file.clone(),
                index,
                description: group["description"].as_str().unwrap_or_default().into(),
                schema: match &remotes {
                    Some(remotes) => bundle_remotes(&group["schema"], remotes),
                    None => group["schema"].clone(),
                },
                tests,
            });
        }
    }
    Ok(groups)
}

/// Where the suite's own runner serves the documents of its `remotes` folder.
const REMOTES_URL: &str = "http://localhost:1234/";

/// The suite's `remotes` folder (`json/remotes` beside `json/tests`), for a folder of its tests.
fn remotes_folder(tests: &Path) -> Option<PathBuf> {
    tests
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|name| name == "tests"))
        .and_then(Path::parent)
        .map(|json| json.join("remotes"))
        .filter(|remotes| remotes.is_dir())
}

/// `schema` with every document of the suite's `remotes` folder it reaches embedded in its
/// `$defs`, each under its URL as `$id`, as a bundler writes a compound document.
///
/// The suite's groups in `refRemote` (and some in `dynamicRef`, `vocabulary` and `optional/`)
/// reference documents its runner serves at `http://localhost:1234/`. The runtime and
/// the contract loader never fetch: a user with such references bundles the documents into
/// the schema, or saves them in the schemas folder under their `$id`. Bundled like this, those
/// groups measure the generator and the runtime's validator on what they reference, instead
/// of on a schema that cannot compile. The documents reached are the ones the validator asks
/// for while it compiles the schema, read from the folder; a document whose own `$id` differs
/// from its URL stays under its `$id`, and the URL becomes a `$ref` to it.
pub fn bundle_remotes(schema: &Value, remotes: &Path) -> Value {
    let Value::Object(root) = schema else {
        return schema.clone();
    };
    let reached = std::sync::Arc::new(std::sync::Mutex::new(BTreeMap::new()));
    let retriever = Remotes {
        folder: remotes.to_path_buf(),
        reached: reached.clone(),
    };
    // Only to learn what the validator fetches: the harness takes its verdict on the bundled
    // schema later, as the runtime does.
    let _ = jsonschema::options()
        .with_retriever(retriever)
        .build(schema);
    let reached = std::mem::take(&mut *reached.lock().expect("not poisoned"));
    if reached.is_empty() {
        return schema.clone();
    }
    let mut root = root.clone();
    let defs = root.entry("$defs").or_insert_with(|| json!({}));
    let Some(defs) = defs.as_object_mut() else {
        return schema.clone();
    };
    for (n, (url, mut document)) in reached.into_iter().enumerate() {
        let key = format!("suiteRemote{n}");
        match document.get("$id").and_then(Value::as_str) {
            Some(id) if id != url => {
                defs.insert(format!("{key}Url"), json!({ "$id": url, "$ref": id }));
            }
            _ => {
                if let Value::Object(document) = &mut document {
                    document.insert("$id".into(), json!(url));
                }
            }
        }
        defs.insert(key, document);
    }
    Value::Object(root)
}

/// Reads the suite's remote documents from its folder, noting each one read by URL.
struct Remotes {
    folder: PathBuf,
    reached: std::sync::Arc<std::sync::Mutex<BTreeMap<String, Value>>>,
}

impl jsonschema::Retrieve for Remotes {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> std::result::Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let url = uri.as_str();
        let path = url
            .strip_prefix(REMOTES_URL)
            .ok_or_else(|| format!("{url} is not one of the suite's remote documents"))?;
        let document: Value =
            serde_json::from_str(&std::fs::read_to_string(self.folder.join(path))?)?;
        self.reached
            .lock()
            .expect("not poisoned")
            .insert(url.to_string(), document.clone());
        Ok(document)
    }
}

/// A generated module: its code and the type to measure.
struct Module {
    id: String,
    code: String,
    catalog: Option<String>,
}

thread_local! {
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    message
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(160)
        .collect()
}

/// schemcp's generator on `schema` as one side of a tool named `t`.
fn generate_ours(schema: &Value, side: Side, id: &str) -> (Generation, Option<Module>) {
    let mut tool = Map::new();
    tool.insert("name".into(), json!("t"));
    match side {
        Side::Input => {
            tool.insert("inputSchema".into(), schema.clone());
        }
        _ => {
            tool.insert("inputSchema".into(), json!({ "type": "object" }));
            tool.insert("outputSchema".into(), schema.clone());
        }
    }
    let builder = schemcp_build::Builder::new().fallback_to_value(true);
    let result = panic::catch_unwind(AssertUnwindSafe(|| builder.generate_unchecked("t", &tool)));
    let (files, warnings) = match result {
        Err(payload) => return (Generation::Panicked(panic_message(&*payload)), None),
        Ok(Err(problems)) => return (Generation::Refused(problems), None),
        Ok(Ok(generated)) => generated,
    };
    let code = &files[0].1;
    let ty = match method_types(code) {
        Ok((input, output)) => match side {
            Side::Input => input,
            _ => output,
        },
        Err(e) => return (Generation::Uncompilable(format!("harness: {e}")), None),
    };
    let with_code = |code: &str| -> Vec<String> {
        warnings
            .iter()
            .filter(|w| w.contains(&format!("[{code}]")))
            .cloned()
            .collect()
    };
    let degraded = with_code("fallback-to-value");
    let generation = if degraded.is_empty() {
        Generation::Typed(with_code("other-kinds"))
    } else {
        Generation::Degraded(degraded)
    };
    let code = format!("{code}\npub type MeasuredType = {ty};\n");
    let module = Module {
        id: id.into(),
        code,
        catalog: Some(files[1].1.clone()),
    };
    (generation, Some(module))
}

/// The input and output types of the generated trait's method `t`.
fn method_types(code: &str) -> Result<(String, String)> {
    use quote::ToTokens;
    let file = syn::parse_file(code)?;
    for item in &file.items {
        let syn::Item::Trait(item) = item else {
            continue;
        };
        for member in &item.items {
            let syn::TraitItem::Fn(f) = member else {
                continue;
            };
            let input = f
                .sig
                .inputs
                .iter()
                .nth(1)
                .and_then(|arg| match arg {
                    syn::FnArg::Typed(t) => Some(t.ty.to_token_stream().to_string()),
                    _ => None,
                })
                .context("no input argument")?;
            let syn::ReturnType::Type(_, ret) = &f.sig.output else {
                bail!("no return type")
            };
            let output = result_ok_type(ret).context("cannot find the output type")?;
            return Ok((input, output));
        }
    }
    bail!("no trait method in the generated code")
}

/// `T` of `impl Future<Output = Result<T, E>>`.
fn result_ok_type(ty: &syn::Type) -> Option<String> {
    use quote::ToTokens;
    let syn::Type::ImplTrait(imp) = ty else {
        return None;
    };
    for bound in &imp.bounds {
        let syn::TypeParamBound::Trait(t) = bound else {
            continue;
        };
        let last = t.path.segments.last()?;
        if last.ident != "Future" {
            continue;
        }
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            continue;
        };
        for arg in &args.args {
            let syn::GenericArgument::AssocType(assoc) = arg else {
                continue;
            };
            let syn::Type::Path(result) = &assoc.ty else {
                continue;
            };
            let seg = result.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(inner) = &seg.arguments else {
                continue;
            };
            if let Some(syn::GenericArgument::Type(ok)) = inner.args.first() {
                return Some(ok.to_token_stream().to_string());
            }
        }
    }
    None
}

/// Plain typify 0.8: the schema as a root schema (with `title: "Root"` injected when the root is
/// an object without one), default settings, panics caught.
fn generate_baseline(schema: &Value, id: &str) -> (Generation, Option<Module>, bool) {
    // typify would recurse until the stack overflows, which aborts the process rather than
    // panicking: recorded as the panic it amounts to, without running it.
    let unending = schemcp_build::__typify_unending_merges(schema);
    if let Some(first) = unending.first() {
        let message = format!("stack overflow: merges the reference at {first} into itself");
        return (Generation::Panicked(message), None, false);
    }
    let untitled = panic::catch_unwind(|| {
        let root: schemars::schema::RootSchema = serde_json::from_value(schema.clone()).ok()?;
        let mut space = typify::TypeSpace::new(&typify::TypeSpaceSettings::default());
        let id = space.add_root_schema(root).ok()?;
        (id.is_some() || space.iter_types().next().is_some()).then_some(())
    })
    .ok()
    .flatten()
    .is_some();
    let mut titled = schema.clone();
    if let Value::Object(o) = &mut titled
        && !o.contains_key("title")
    {
        o.insert("title".into(), json!("Root"));
    }
    let root: schemars::schema::RootSchema = match serde_json::from_value(titled) {
        Ok(root) => root,
        Err(e) => {
            return (
                Generation::Refused(vec![format!("schemars: {e}")]),
                None,
                untitled,
            );
        }
    };
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut space = typify::TypeSpace::new(&typify::TypeSpaceSettings::default());
        let id = space.add_root_schema(root)?;
        let code = space.to_stream();
        let ty = match id {
            Some(id) => Some(space.get_type(&id)?.ident().to_string()),
            None => None,
        };
        Ok::<_, typify::Error>((code.to_string(), ty))
    }));
    match result {
        Err(payload) => (
            Generation::Panicked(panic_message(&*payload)),
            None,
            untitled,
        ),
        Ok(Err(e)) => (
            Generation::Refused(vec![format!("typify: {e}")]),
            None,
            untitled,
        ),
        Ok(Ok((_, None))) => (Generation::NoType, None, untitled),
        Ok(Ok((code, Some(ty)))) => (
            Generation::Typed(Vec::new()),
            Some(Module {
                id: id.into(),
                code: format!("{code}\npub type MeasuredType = {ty};\n"),
                catalog: None,
            }),
            untitled,
        ),
    }
}

fn module_id(g: usize, side: Side) -> String {
    format!("g{g:03}_{}", side.tag())
}

/// [`run`] for the repository at `repo` over the corpus folder `suite`, on a thread with a
/// stack large enough for it: typify recurses deeply on some schemas, and test threads get
/// 2 MiB of stack (`main` 8 MiB).
pub fn run_for_tests(repo: &Path, suite: PathBuf) -> Result<Vec<GroupResult>> {
    let options = Options {
        suite,
        work: default_work_dir(repo),
        repo: repo.to_path_buf(),
    };
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || run(&options))?
        .join()
        .unwrap_or_else(|payload| std::panic::resume_unwind(payload))
}

/// [`run_for_tests`] over a corpus committed in this repository, `corpus` relative to its root
/// (`crates/schemcp-fidelity/unions/corpus`).
pub fn run_committed_corpus(corpus: &str) -> Result<Vec<GroupResult>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()?;
    let folder = repo.join(corpus);
    run_for_tests(&repo, folder)
}

/// Runs the whole measurement.
pub fn run(options: &Options) -> Result<Vec<GroupResult>> {
    let mut groups = read_suite(&options.suite)?;
    groups.extend(read_optional(&options.suite)?);
    // typify's panics are measured, not printed.
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut results = Vec::new();
    let mut modules = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let mut generation = BTreeMap::new();
        let mut untitled = false;
        for side in Side::ALL {
            let id = module_id(g, side);
            let (gen_, module) = match side {
                Side::Baseline => {
                    let (gen_, module, typed) = generate_baseline(&group.schema, &id);
                    untitled = typed;
                    (gen_, module)
                }
                _ => generate_ours(&group.schema, side, &id),
            };
            generation.insert(side, gen_);
            modules.extend(module);
        }
        results.push(GroupResult {
            group: group.clone(),
            generation,
            baseline_untitled_typed: untitled,
            outcomes: BTreeMap::new(),
        });
    }
    panic::set_hook(previous);

    let failed = build_crate(options, &modules)?;
    for result in &mut results {
        let g = results_index(&result.group, &groups);
        for side in Side::ALL {
            if let Some(error) = failed.get(&module_id(g, side)) {
                result
                    .generation
                    .insert(side, Generation::Uncompilable(error.clone()));
            }
        }
    }
    let compiled: Vec<String> = modules
        .iter()
        .map(|m| m.id.clone())
        .filter(|id| !failed.contains_key(id))
        .collect();

    // One driver run for every (module, instance).
    let mut jobs = Vec::new();
    let mut job_of = BTreeMap::new();
    for (g, result) in results.iter().enumerate() {
        for side in Side::ALL {
            let id = module_id(g, side);
            if !compiled.contains(&id) {
                continue;
            }
            for (i, test) in result.group.tests.iter().enumerate() {
                job_of.insert((g, side, i), jobs.len());
                jobs.push(json!([id, test.data]));
            }
        }
    }
    let answers = drive(options, &jobs)?;

    for (g, result) in results.iter_mut().enumerate() {
        let validator = jsonschema::validator_for(&result.group.schema).ok();
        for side in Side::ALL {
            let mut outcomes = Vec::new();
            for (i, test) in result.group.tests.iter().enumerate() {
                let mut outcome = Outcome {
                    validator: validator.as_ref().map(|v| v.is_valid(&test.data)),
                    ..Outcome::default()
                };
                if let Some(&job) = job_of.get(&(g, side, i)) {
                    let answer = &answers[job];
                    match answer.get("ok") {
                        Some(value) => {
                            outcome.deserialized = Some(true);
                            outcome.revalidated = validator.as_ref().map(|v| v.is_valid(value));
                            outcome.reserialized = Some(value.clone());
                        }
                        None => {
                            outcome.deserialized = Some(false);
                            outcome.error = answer["err"].as_str().map(str::to_string);
                        }
                    }
                }
                outcomes.push(outcome);
            }
            result.outcomes.insert(side, outcomes);
        }
    }
    Ok(results)
}

fn results_index(group: &Group, groups: &[Group]) -> usize {
    groups
        .iter()
        .position(|g| g.file == group.file && g.index == group.index)
        .expect("a group of the suite")
}

fn cargo_env(options: &Options, command: &mut Command) {
    command
        .env("CARGO_TARGET_DIR", options.work.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_MAKEFLAGS")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER");
}

/// Writes the generated crate and builds it; modules that fail are left out and rebuilt without,
/// up to a few rounds. Returns the failed modules with their first error.
fn build_crate(options: &Options, modules: &[Module]) -> Result<BTreeMap<String, String>> {
    let dir = options.work.join("cases");
    let src = dir.join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src)?;
    }
    std::fs::create_dir_all(src.join("cases"))?;
    let runtime = options.repo.join("crates/schemcp-runtime");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            r#"[package]
name = "fidelity-cases"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
schemcp-runtime = {{ path = {runtime:?} }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = {{ version = "1", features = ["preserve_order"] }}
regress = "0.12"
chrono = {{ version = "0.4", default-features = false, features = ["serde"] }}
uuid = {{ version = "1", default-features = false, features = ["serde"] }}

[profile.dev]
debug = 0
"#,
            runtime = runtime.display().to_string()
        ),
    )?;
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        std::fs::copy(options.repo.join("Cargo.lock"), &lock)?;
    }
    for module in modules {
        let here = src.join("cases").join(&module.id);
        std::fs::create_dir_all(&here)?;
        std::fs::write(here.join("mod.rs"), &module.code)?;
        if let Some(catalog) = &module.catalog {
            std::fs::write(here.join("tools.json"), catalog)?;
        }
    }
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    for _round in 0..6 {
        let included: Vec<&Module> = modules
            .iter()
            .filter(|m| !failed.contains_key(&m.id))
            .collect();
        std::fs::write(src.join("main.rs"), driver_source(&included))?;
        let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        command
            .args(["build", "--message-format=json", "--quiet"])
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cargo_env(options, &mut command);
        let output = command.output().context("running cargo build")?;
        if output.status.success() {
            return Ok(failed);
        }
        let mut new_failures = 0;
        let mut other = Vec::new();
        for line in output.stdout.lines() {
            let line = line?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message["reason"] != "compiler-message" || message["message"]["level"] != "error" {
                continue;
            }
            let text = message["message"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let files: BTreeSet<String> = message["message"]["spans"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s["file_name"].as_str())
                .filter_map(|f| f.strip_prefix("src/cases/"))
                .filter_map(|f| f.split('/').next())
                .map(str::to_string)
                .collect();
            if files.is_empty() {
                other.push(text);
                continue;
            }
            for id in files {
                if let std::collections::btree_map::Entry::Vacant(entry) = failed.entry(id) {
                    entry.insert(text.clone());
                    new_failures += 1;
                }
            }
        }
        if new_failures == 0 {
            bail!(
                "the generated crate in {} does not build, and not because of one module:\n{}\n{}",
                dir.display(),
                other.join("\n"),
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
    bail!("the generated crate still does not build after 6 rounds")
}

fn driver_source(modules: &[&Module]) -> String {
    let mut out =
        String::from("// @generated by schemcp-fidelity\n#![allow(warnings)]\n\nmod cases {\n");
    for m in modules {
        out.push_str(&format!("    pub mod {};\n", m.id));
    }
    out.push_str("}\n\n");
    out.push_str(
        r#"use serde_json::Value;

/// schemcp: deserialized as the runtime decodes arguments (which also takes `1.0` for an integer).
fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> Result<Value, String> {
    let typed: T = schemcp_runtime::__private::decode_arguments(value.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| format!("serialize: {e}"))
}

/// The typify baseline: the type alone, with plain serde_json.
fn round_trip_plain<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> Result<Value, String> {
    let typed: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| format!("serialize: {e}"))
}

static CASES: &[(&str, fn(&Value) -> Result<Value, String>)] = &[
"#,
    );
    for m in modules {
        out.push_str(&format!(
            "    ({:?}, {}::<cases::{}::MeasuredType>),\n",
            m.id,
            if m.id.ends_with(Side::Baseline.tag()) {
                "round_trip_plain"
            } else {
                "round_trip"
            },
            m.id
        ));
    }
    out.push_str(
        r#"];

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let jobs: Vec<(String, Value)> = serde_json::from_reader(std::io::stdin().lock()).expect("jobs");
    let mut out = Vec::new();
    for (id, value) in jobs {
        let f = CASES.iter().find(|(name, _)| *name == id).expect("a compiled case").1;
        let answer = match std::panic::catch_unwind(|| f(&value)) {
            Ok(Ok(v)) => serde_json::json!({ "ok": v }),
            Ok(Err(e)) => serde_json::json!({ "err": e }),
            Err(_) => serde_json::json!({ "err": "panicked" }),
        };
        out.push(answer);
    }
    serde_json::to_writer(std::io::stdout().lock(), &out).expect("stdout");
}
"#,
    );
    out
}

/// Runs the built driver on every job.
fn drive(options: &Options, jobs: &[Value]) -> Result<Vec<Value>> {
    let exe = options.work.join("target/debug/fidelity-cases");
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("running {}", exe.display()))?;
    let input = serde_json::to_vec(jobs)?;
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output()?;
    writer.join().expect("writer thread")?;
    if !output.status.success() {
        bail!("the driver failed: {}", output.status);
    }
    let answers: Vec<Value> = serde_json::from_slice(&output.stdout)?;
    if answers.len() != jobs.len() {
        bail!(
            "the driver answered {} of {} jobs",
            answers.len(),
            jobs.len()
        );
    }
    Ok(answers)
}

/// Equal as JSON Schema defines equality (the generator's own reading of it).
pub use schemcp_contract::json::json_equal;

/// The valid instances of `results` (on the schemcp sides) that do not come back unchanged
/// for a reason other than the two documented ones, each with its group, side, test and
/// [`difference`]: a member with a `default` that the instance left out is filled in, and a
/// member the schema does not declare is dropped (where nothing says what happens to it).
pub fn unexplained_differences(results: &[GroupResult]) -> Vec<String> {
    let mut unexplained = Vec::new();
    for result in results {
        let (declared, defaulted) = declared_and_defaulted(&result.group.schema);
        for side in [Side::Input, Side::Output] {
            let Some(outcomes) = result.outcomes.get(&side) else {
                continue;
            };
            for (test, outcome) in result.group.tests.iter().zip(outcomes) {
                let Some(back) = outcome.reserialized.as_ref() else {
                    continue;
                };
                if !test.valid || json_equal(&test.data, back) {
                    continue;
                }
                let why = difference(&test.data, back);
                let explained = why.split("; ").all(|change| {
                    let member = change.rsplit('/').next().unwrap_or_default();
                    change.starts_with("member dropped at ") && !declared.contains(member)
                        || change.starts_with("member added at ") && defaulted.contains(member)
                });
                if !explained {
                    unexplained.push(format!(
                        "{} ({side:?}) {}: {why}",
                        result.group.description, test.description
                    ));
                }
            }
        }
    }
    unexplained
}

/// The member names `schema` declares (in any `properties`), and those it gives a default: a
/// member's own `default`, or a member an object `default` sets.
fn declared_and_defaulted(schema: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    fn walk(value: &Value, declared: &mut BTreeSet<String>, defaulted: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    match (key.as_str(), child) {
                        ("properties", Value::Object(members)) => {
                            for (name, member) in members {
                                declared.insert(name.clone());
                                if member.get("default").is_some() {
                                    defaulted.insert(name.clone());
                                }
                            }
                        }
                        ("default", Value::Object(set)) => defaulted.extend(set.keys().cloned()),
                        _ => {}
                    }
                    walk(child, declared, defaulted);
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|item| walk(item, declared, defaulted)),
            _ => {}
        }
    }
    let (mut declared, mut defaulted) = (BTreeSet::new(), BTreeSet::new());
    walk(schema, &mut declared, &mut defaulted);
    (declared, defaulted)
}

/// Why a round trip is not faithful, in a few words.
pub fn difference(original: &Value, back: &Value) -> String {
    fn walk(a: &Value, b: &Value, at: &str, out: &mut Vec<String>) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for k in x.keys().filter(|k| !y.contains_key(*k)) {
                    out.push(format!("member dropped at {at}/{k}"));
                }
                for k in y.keys().filter(|k| !x.contains_key(*k)) {
                    out.push(format!("member added at {at}/{k}"));
                }
                for (k, v) in x {
                    if let Some(w) = y.get(k) {
                        walk(v, w, &format!("{at}/{k}"), out);
                    }
                }
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (v, w)) in x.iter().zip(y).enumerate() {
                    walk(v, w, &format!("{at}/{i}"), out);
                }
            }
            _ if json_equal(a, b) => {}
            _ => out.push(format!("{at}: {a} became {b}")),
        }
    }
    let mut out = Vec::new();
    walk(original, back, "", &mut out);
    if out.is_empty() {
        if original != back {
            return "number written differently (equal value)".into();
        }
        return "equal".into();
    }
    out.join("; ")
}

/// Counts for one row of the table.
#[derive(Debug, Default, Clone)]
pub struct Row {
    pub groups: usize,
    pub typed: [usize; 3],
    pub degraded: [usize; 3],
    /// of the typed, those with a schema without `type` typed as an enum of a value per kind
    /// its keywords are for and any other kind of value (`NotObject`, ...).
    pub other_kinds: [usize; 3],
    pub refused: [usize; 3],
    pub panicked: [usize; 3],
    pub no_type: usize,
    pub uncompilable: [usize; 3],
    pub valid: usize,
    pub valid_remote: usize,
    /// valid instances accepted, per side (ours: full pipeline; baseline: the type alone).
    pub accepted: [usize; 3],
    /// of those, re-serialized equal (JSON Schema equality).
    pub faithful: [usize; 3],
    /// of those, byte-for-byte the same JSON value (numbers written the same way).
    pub exact: [usize; 3],
    pub invalid: usize,
    /// invalid instances the type alone rejects.
    pub strict: [usize; 3],
    /// of those, the ones rejected by a type that holds every valid instance of its group
    /// faithfully (so the rejection is not a side effect of a type narrower than the schema).
    pub strict_sound: [usize; 3],
    /// of the strict, those rejected by a generated type (a group without one not counted).
    pub strict_typed: [usize; 3],
    /// groups typed (nothing degraded) whose type holds every valid instance faithfully.
    pub typed_sound: [usize; 3],
    /// invalid instances the full pipeline rejects (ours only; baseline has no pipeline).
    pub rejected: [usize; 3],
    pub baseline_untitled_typed: usize,
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Input => 0,
        Side::Output => 1,
        Side::Baseline => 2,
    }
}

/// Is the valid instance accepted, and faithfully? (`accepted`, `faithful`, `exact`)
pub fn valid_outcome(side: Side, outcome: &Outcome, data: &Value) -> (bool, bool, bool) {
    let deserialized = outcome.deserialized == Some(true);
    let accepted = match side {
        Side::Baseline => deserialized,
        Side::Input => {
            outcome.validator == Some(true) && deserialized && outcome.revalidated == Some(true)
        }
        Side::Output => deserialized && outcome.revalidated == Some(true),
    };
    let back = outcome.reserialized.as_ref();
    let faithful = accepted && back.is_some_and(|b| json_equal(data, b));
    let exact = accepted && back == Some(data);
    (accepted, faithful, exact)
}

/// Does the full pipeline reject the invalid instance?
///
/// For arguments: they are validated before they are deserialized. For results: a tool returns
/// a typed value, which is serialized and validated before it leaves; the invalid instance
/// reaches a client only if the type can hold it (it deserializes and serializes back to the
/// same JSON) and the validator then accepts it.
pub fn invalid_rejected(side: Side, outcome: &Outcome, data: &Value) -> bool {
    match side {
        Side::Baseline => outcome.deserialized != Some(true),
        Side::Input => outcome.validator != Some(true),
        Side::Output => match (&outcome.deserialized, &outcome.reserialized) {
            (Some(true), Some(back)) if json_equal(back, data) => outcome.revalidated != Some(true),
            (Some(true), _) => true,
            // No type: nothing to return it through.
            _ => true,
        },
    }
}

/// Whether `side` has a type for the group that deserializes every valid instance and
/// re-serializes it as it was (JSON Schema equality): no valid value of the group mistyped.
fn holds_every_valid(result: &GroupResult, side: Side) -> bool {
    result.generation[&side].has_type()
        && result
            .group
            .tests
            .iter()
            .zip(&result.outcomes[&side])
            .filter(|(test, _)| test.valid)
            .all(|(test, outcome)| {
                outcome.deserialized == Some(true)
                    && outcome
                        .reserialized
                        .as_ref()
                        .is_some_and(|back| json_equal(&test.data, back))
            })
}

/// Invalid instances that typify's type rejects, where that type holds every valid instance
/// of its group faithfully, and that schemcp's type for `side` does not reject: file, group,
/// instance, what schemcp generated, and why (from [`TYPIFY_ONLY_WHY`], by group).
pub fn typify_only_rejections(results: &[GroupResult], side: Side) -> Vec<[String; 5]> {
    let mut out = Vec::new();
    for result in results {
        if !holds_every_valid(result, Side::Baseline) {
            continue;
        }
        let theirs = &result.outcomes[&Side::Baseline];
        let ours = &result.outcomes[&side];
        for ((test, theirs), ours) in result.group.tests.iter().zip(theirs).zip(ours) {
            if test.valid || theirs.deserialized != Some(false) || ours.deserialized == Some(false)
            {
                continue;
            }
            let generated = match &result.generation[&side] {
                Generation::Typed(_) => "typed".to_string(),
                Generation::Degraded(_) => "degraded".to_string(),
                other => generation_reason(other),
            };
            let why = TYPIFY_ONLY_WHY
                .iter()
                .find(|(group, _)| *group == result.group.description)
                .map_or("not analysed yet", |(_, why)| why);
            out.push([
                result.group.file.clone(),
                result.group.description.clone(),
                test.description.clone(),
                generated,
                why.to_string(),
            ]);
        }
    }
    out
}

/// Why schemcp's type leaves an invalid instance to validation where typify's rejects it, by
/// suite group. Written by hand after reading both generated types; a group missing here is
/// reported as not analysed.
pub const TYPIFY_ONLY_WHY: &[(&str, &str)] = &[
    (
        "oneOf complex types",
        "typify's type is an externally tagged enum (`Bar(i64)` or `Foo(String)`), which takes \
         objects of exactly one member: it also rejects valid values with any other member \
         (`{\"bar\": 2, \"baz\": 0}`), which the group does not test. schemcp's type holds \
         every value of either branch; that a value matches both is only visible to validation",
    ),
    (
        "oneOf with required",
        "typify's type is an untagged enum with one struct per `required` list, so an object \
         with neither list has no variant. schemcp types the declared members once (optional \
         members, no enum per combination) and leaves which of them must be present together \
         to validation, as for every `anyOf`/`oneOf` of `required` lists",
    ),
    (
        "unevaluatedProperties + ref inside allOf / oneOf",
        "typify's type is an untagged enum with a variant per `oneOf` branch, the `allOf`'s \
         members merged into each (one requires `x`, the other `y`), so an object with \
         neither has no variant. schemcp degrades this schema to `serde_json::Value` \
         (`unevaluatedProperties` beside `$ref`s inside a `oneOf`, above)",
    ),
];

/// Table rows per suite file, and the total.
pub fn rows(results: &[GroupResult]) -> (BTreeMap<String, Row>, Row) {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for result in results {
        let row = rows.entry(result.group.file.clone()).or_default();
        row.groups += 1;
        row.baseline_untitled_typed += usize::from(result.baseline_untitled_typed);
        let remote = result.group.file == "refRemote";
        for side in Side::ALL {
            let s = side_index(side);
            match &result.generation[&side] {
                Generation::Typed(splits) => {
                    row.typed[s] += 1;
                    row.other_kinds[s] += usize::from(!splits.is_empty());
                }
                Generation::Degraded(_) => row.degraded[s] += 1,
                Generation::Refused(_) => row.refused[s] += 1,
                Generation::Panicked(_) => row.panicked[s] += 1,
                Generation::NoType => row.no_type += 1,
                Generation::Uncompilable(_) => row.uncompilable[s] += 1,
            }
            let sound = holds_every_valid(result, side);
            row.typed_sound[s] +=
                usize::from(sound && matches!(result.generation[&side], Generation::Typed(_)));
            for (test, outcome) in result.group.tests.iter().zip(&result.outcomes[&side]) {
                if test.valid {
                    let (accepted, faithful, exact) = valid_outcome(side, outcome, &test.data);
                    row.accepted[s] += usize::from(accepted);
                    row.faithful[s] += usize::from(faithful);
                    row.exact[s] += usize::from(exact);
                } else {
                    row.strict[s] += usize::from(
                        outcome.deserialized == Some(false) || !result.generation[&side].has_type(),
                    );
                    row.strict_sound[s] +=
                        usize::from(sound && outcome.deserialized == Some(false));
                    row.strict_typed[s] += usize::from(outcome.deserialized == Some(false));
                    row.rejected[s] += usize::from(invalid_rejected(side, outcome, &test.data));
                }
            }
        }
        for test in &result.group.tests {
            if test.valid {
                row.valid += 1;
                row.valid_remote += usize::from(remote);
            } else {
                row.invalid += 1;
            }
        }
    }
    let mut total = Row::default();
    for row in rows.values() {
        total.groups += row.groups;
        total.no_type += row.no_type;
        total.valid += row.valid;
        total.valid_remote += row.valid_remote;
        total.invalid += row.invalid;
        total.baseline_untitled_typed += row.baseline_untitled_typed;
        for s in 0..3 {
            total.typed[s] += row.typed[s];
            total.degraded[s] += row.degraded[s];
            total.other_kinds[s] += row.other_kinds[s];
            total.refused[s] += row.refused[s];
            total.panicked[s] += row.panicked[s];
            total.uncompilable[s] += row.uncompilable[s];
            total.accepted[s] += row.accepted[s];
            total.faithful[s] += row.faithful[s];
            total.exact[s] += row.exact[s];
            total.strict[s] += row.strict[s];
            total.strict_sound[s] += row.strict_sound[s];
            total.strict_typed[s] += row.strict_typed[s];
            total.typed_sound[s] += row.typed_sound[s];
            total.rejected[s] += row.rejected[s];
        }
    }
    (rows, total)
}

/// Every valid instance a side does not accept or does not round-trip faithfully, and every
/// invalid instance the full pipeline accepts: `(file, group, test, what, why)`.
pub fn exceptions(results: &[GroupResult], side: Side) -> Vec<[String; 5]> {
    let mut out = Vec::new();
    for result in results {
        for (test, outcome) in result.group.tests.iter().zip(&result.outcomes[&side]) {
            let row = |what: &str, why: String| {
                [
                    result.group.file.clone(),
                    result.group.description.clone(),
                    test.description.clone(),
                    what.to_string(),
                    why,
                ]
            };
            if test.valid {
                let (accepted, faithful, _) = valid_outcome(side, outcome, &test.data);
                if !accepted {
                    let why = if outcome.validator.is_none() && side != Side::Baseline {
                        "the schema does not compile in the runtime's validator (network references are never fetched)".to_string()
                    } else if !result.generation[&side].has_type() {
                        generation_reason(&result.generation[&side])
                    } else if outcome.validator == Some(false) && side == Side::Input {
                        "the runtime's validator rejects this valid instance".into()
                    } else if let Some(e) = &outcome.error {
                        format!("the type rejects it: {e}")
                    } else {
                        format!(
                            "re-serialized as {} which does not validate",
                            outcome
                                .reserialized
                                .as_ref()
                                .map(Value::to_string)
                                .unwrap_or_default()
                        )
                    };
                    out.push(row("valid, not accepted", why));
                } else if !faithful {
                    let back = outcome.reserialized.as_ref().unwrap();
                    out.push(row("valid, not faithful", difference(&test.data, back)));
                }
            } else if !invalid_rejected(side, outcome, &test.data) && side != Side::Baseline {
                out.push(row(
                    "invalid, accepted by the full pipeline",
                    "the runtime's validator accepts it".into(),
                ));
            }
        }
    }
    out
}

/// Why generation failed in a way no corpus allows (a panic, code that does not compile, no
/// type and no diagnostic), or `None`.
pub fn generation_failure(generation: &Generation) -> Option<String> {
    match generation {
        Generation::Panicked(_) | Generation::Uncompilable(_) | Generation::NoType => {
            Some(generation_reason(generation))
        }
        _ => None,
    }
}

fn generation_reason(generation: &Generation) -> String {
    match generation {
        Generation::Refused(d) => format!("refused: {}", d.join("; ")),
        Generation::Panicked(p) => format!("generator panicked: {p}"),
        Generation::NoType => "no type".into(),
        Generation::Uncompilable(e) => format!("generated code does not compile: {e}"),
        _ => String::new(),
    }
}

/// The markdown document.
pub fn render(all: &[GroupResult], suite_label: &str) -> String {
    let (optional, main): (Vec<GroupResult>, Vec<GroupResult>) =
        all.iter().cloned().partition(is_optional);
    let results = &main[..];
    let (rows, total) = rows(results);
    let mut md = String::new();
    md.push_str("# Generator fidelity on the JSON-Schema-Test-Suite\n\n");
    md.push_str(&format!(
        "<!-- @generated by `cargo run -p schemcp-fidelity` (see the README); do not edit by hand. -->\n\n\
         Corpus: {suite_label}, every file of `tests/draft2020-12` (not `optional/`): {} files, {} groups, \
         {} valid and {} invalid instances.\n\n",
        rows.len(),
        total.groups,
        total.valid,
        total.invalid
    ));
    md.push_str(
        "Each group's schema is generated as a tool's **input** (`inputSchema`) and **output** \
         (`outputSchema`) by schemcp-build with `fallback_to_value(true)` (what cannot be typed \
         becomes `serde_json::Value`, with a warning naming each pointer; without that opt-in it \
         is a build error). The contract loader's lints (object input root, the dialect, \
         network references) are bypassed, to measure the generator on every schema. A schema \
         that references the suite's remote documents gets them embedded as resources, as a \
         bundler writes them (see the exceptions below). The **typify** \
         baseline is plain typify 0.8 (`add_root_schema`, default settings, a root `title` \
         injected, panics caught). All generated modules are compiled in one crate.\n\n\
         - *accepted*: for schemcp, the pipeline the runtime ships (validate with \
         `jsonschema::validator_for`, deserialize as the runtime decodes arguments, serialize, \
         validate again) accepts the valid instance; for typify, the type alone deserializes it \
         (plain `serde_json::from_value`).\n\
         - *faithful*: the re-serialized value equals the instance (JSON Schema equality: `1` \
         equals `1.0`); *exact*: the same JSON, numbers written the same way.\n\
         - *strict*: invalid instances the type alone already rejects (no type counts as \
         rejecting); *rejected*: invalid instances the full pipeline rejects (for typify there \
         is no pipeline: the type alone). Arguments are validated before they are \
         deserialized; a result is a typed value, serialized and then validated, so an invalid \
         result reaches a client only if the type can hold it exactly and the validator \
         accepts it.\n\n",
    );
    let pct = |n: usize, d: usize| {
        if d == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * n as f64 / d as f64)
        }
    };
    md.push_str(
        "## Headline\n\n| | schemcp input | schemcp output | typify 0.8 |\n|---|---|---|---|\n",
    );
    let line = |label: &str, f: &dyn Fn(usize) -> String| {
        format!("| {label} | {} | {} | {} |\n", f(0), f(1), f(2))
    };
    md.push_str(&line("groups typed", &|s| total.typed[s].to_string()));
    md.push_str(&line(
        "of those, by a type that holds every valid instance of its group faithfully",
        &|s| total.typed_sound[s].to_string(),
    ));
    md.push_str(&line(
        "of those, with a schema without `type` typed as an enum of a value per kind its \
         keywords are for and any other kind of value (`NotObject`, `NotArray`, `NotString`, \
         `NotNumber`, `NotStringOrNumber`, ...)",
        &|s| {
            if s == 2 {
                "-".into()
            } else {
                total.other_kinds[s].to_string()
            }
        },
    ));
    md.push_str(&line("groups degraded (explicit `Value` parts)", &|s| {
        total.degraded[s].to_string()
    }));
    md.push_str(&line("groups refused with a diagnostic", &|s| {
        total.refused[s].to_string()
    }));
    md.push_str(&line("generator panics", &|s| {
        total.panicked[s].to_string()
    }));
    md.push_str(&line(
        "groups whose generated code does not compile",
        &|s| total.uncompilable[s].to_string(),
    ));
    md.push_str(&format!(
        "| groups typify returns no type for (title injected) | - | - | {} |\n",
        total.no_type
    ));
    md.push_str(&format!(
        "| groups typify types without an injected title | - | - | {} |\n",
        total.baseline_untitled_typed
    ));
    let outside_remote = total.valid - total.valid_remote;
    md.push_str(&line(
        &format!("valid instances accepted (of {})", total.valid),
        &|s| {
            format!(
                "{} ({})",
                total.accepted[s],
                pct(total.accepted[s], total.valid)
            )
        },
    ));
    let remote_accepted = |s: usize| {
        let remote: usize = rows.get("refRemote").map_or(0, |r| r.accepted[s]);
        total.accepted[s] - remote
    };
    md.push_str(&line(
        &format!("valid instances accepted outside `refRemote` (of {outside_remote})"),
        &|s| {
            format!(
                "{} ({})",
                remote_accepted(s),
                pct(remote_accepted(s), outside_remote)
            )
        },
    ));
    md.push_str(&line("faithful round trips (of accepted)", &|s| {
        format!(
            "{} ({})",
            total.faithful[s],
            pct(total.faithful[s], total.accepted[s])
        )
    }));
    md.push_str(&line("exact round trips (of accepted)", &|s| {
        format!(
            "{} ({})",
            total.exact[s],
            pct(total.exact[s], total.accepted[s])
        )
    }));
    md.push_str(&line(
        &format!(
            "invalid instances the type alone rejects (of {})",
            total.invalid
        ),
        &|s| {
            format!(
                "{} ({})",
                total.strict[s],
                pct(total.strict[s], total.invalid)
            )
        },
    ));
    md.push_str(&line(
        &format!(
            "of those, by a generated type (a group without one, after a panic or an error, not \
             counted) (of {})",
            total.invalid
        ),
        &|s| {
            format!(
                "{} ({})",
                total.strict_typed[s],
                pct(total.strict_typed[s], total.invalid)
            )
        },
    ));
    md.push_str(&line(
        &format!(
            "of those, by a type that holds every valid instance of its group faithfully (of {})",
            total.invalid
        ),
        &|s| {
            format!(
                "{} ({})",
                total.strict_sound[s],
                pct(total.strict_sound[s], total.invalid)
            )
        },
    ));
    md.push_str(&line(
        &format!(
            "invalid instances the full pipeline rejects (of {})",
            total.invalid
        ),
        &|s| {
            format!(
                "{} ({})",
                total.rejected[s],
                pct(total.rejected[s], total.invalid)
            )
        },
    ));

    md.push_str(
        "\n## Per keyword file\n\nGeneration is typed / degraded / refused (+ `P` panics, `C` \
         not compiling); for typify, typed / error / no type. Each instance cell is \
         schemcp input · schemcp output · typify.\n\n\
         | file | groups | gen. input | gen. output | typify | valid | accepted | faithful | invalid | strict | rejected |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    md.push_str(&file_rows(&rows));
    md.push_str(&format!(
        "\n## Why the remaining exceptions\n\n\
         Outside `refRemote`, {} (input) and {} (output) of {} valid instances are accepted. \
         The exceptions left are listed at the end, each with its reason. What used to be \
         exceptions and how each is handled now:\n\n\
         - **references to the suite's remote documents** (`refRemote`, and the `dynamicRef` and \
         `vocabulary` groups that reference `tree.json`, \
         `extendible-dynamic-ref.json`, a custom metaschema and the like at \
         `http://localhost:1234/...`, where the suite's own runner serves its `remotes` \
         folder): the runtime never fetches a reference, so these schemas did not compile in its \
         validator. The harness now embeds each document a schema reaches in its `$defs`, under \
         its URL as `$id` (`bundle_remotes`; a document whose own `$id` differs keeps it, and \
         its URL becomes a `$ref` to it), as a user bundles the documents their contracts \
         reference, or saves them in the schemas folder under their `$id`. The generator and \
         the validator then read them as embedded resources, never fetching. A contract with a \
         network `$ref` is still refused by `schemcp check` and `build.rs`. The typify baseline \
         is given the same bundled schemas.\n\
         - **`$id` below the root** (`ref`, `anchor`, `dynamicRef`, `unevaluated*`): a \
         reference into a resource the schema embeds (`\"node\"` beside `{{\"$id\": \
         \"http://localhost:1234/draft2020-12/node\"}}`, `#/$defs/a` read inside that \
         resource) was taken for a reference to another document, and its schema became \
         `serde_json::Value`. The generator now resolves each reference against the resource it \
         is written in, with the validator's URI resolution \
         (`schemcp_contract::resources`), and types the schema. A `$dynamicRef` that lands in \
         one place whatever the path (the document's own resource declares its anchor, or only \
         one schema does) is that `$ref`; otherwise it alone stays `serde_json::Value`, since \
         where it lands depends on how evaluation got there. One valid instance of a group typed \
         this way is not faithful, and is the only one in the suite: in *A $dynamicRef that \
         initially resolves to a schema without a matching $dynamicAnchor*, `{{\"foo\": \
         \"fail\"}}` goes through an object schema without `additionalProperties` that does not \
         declare `foo`, and its struct drops the member (documented: serde's, typify's and \
         pydantic's default).\n\
         - **a `$ref` to the 2020-12 metaschema** (`defs`, `ref`): it was an external \
         reference, and its schema `serde_json::Value`. The validator has the metaschema built \
         in, so the reference stays as written and is never fetched; its type is now the \
         runtime's `JsonSchema`, an object or a boolean, and validation against the metaschema \
         rejects what is no schema.\n\
         - **a `default` that violates its own schema** (`default`): `default` is an \
         annotation, so this is a warning (`invalid-default`, naming file and pointer), and the \
         generated type leaves that default out: a missing member is never filled in with an \
         invalid value. An invalid `examples` entry stays a build error.\n\
         - **`1.0` against `type: integer`, `0.0` against `enum: [0]`**: JSON Schema counts \
         `1.0` as an integer and as equal to `1`. The runtime decodes arguments as sent and, \
         only if that fails, once more with every integral float written as an integer, so \
         `i64` holds `1.0` as `1`: faithful, though not *exact* (it counts in the difference \
         between the two columns).\n\
         - **`not` around keywords typify does not read** (`not` collecting annotations for \
         `unevaluatedProperties`): typify ignored `unevaluatedProperties` there and typed \
         `not: {{anyOf: [true, ...]}}` as a type with no values. The generator now drops every \
         `not` typify cannot read exactly (anything but `true`/`false`/`{{}}` and `enum`/`const` \
         lists) from the schema it types; `not` only ever rejects, so the type accepts more, \
         never less, and validation enforces it.\n\
         - **names typify makes alike** (`properties with escaped characters`, `required with \
         escaped characters`, `enum with escaped characters`): typify gives `foo\\nbar` and \
         `foo\\\"bar` the same field name (the code does not compile) and the same variant name \
         (it panics). The generator numbers the fields (`foo_bar_2`, with a `rename` keeping the \
         member's name) and spells out the variants' characters (`FooNewlineBar`, \
         `FooQuoteBar`).\n\n\
         ## Schemas that leave the kind of value open, and why *strict* is below typify's\n\n\
         Most suite schemas leave the type open: `{{\"minLength\": 2}}` also accepts `12`, \
         `{{\"properties\": ...}}` accepts `\"x\"`. A type inferred from the keywords (what \
         typify does) rejects those valid values. When such a schema's keywords are all of one \
         kind and the typed part holds every value of that kind faithfully, schemcp types it \
         exactly, as an untagged enum of the typed value and the runtime's `NotObject` / \
         `NotArray` / `NotString` / `NotNumber` (any other kind of value; number keywords type \
         their own kind as `serde_json::Number`, which holds every number as it was read), with \
         an `other-kinds` warning that suggests the `type` the author may have meant: an object \
         that breaks `additionalProperties: false` or a string shorter than `minLength` is \
         rejected by the type while `12` still fits. Keywords of several kinds each apply to \
         their own kind only (`{{\"minimum\": 30, \"properties\": ...}}` accepts `\"x\"`, \
         `40` and objects whose members fit), so such a schema is typed the same way when each \
         kind's keywords alone are: a variant per kind, then the runtime's type for every other \
         kind (`NotObjectOrNumber`). These count as *typed* (nothing in them falls back to \
         `serde_json::Value`), and the row below *groups typed* counts them. An `allOf`, `anyOf` \
         or `oneOf` whose branches only declare members is typed with that object; as a branch \
         of any other \
         `allOf` (which typify merges with its siblings into a type that no longer says what a \
         member holds) the same split is *degraded*. Members matching `patternProperties` are \
         kept in a map beside the typed ones, string annotations (`format`, `content*`) leave \
         the typed branch a plain `String`, and `prefixItems` makes it the runtime's `PrefixN` \
         (one `Option` per position, then the rest, so a shorter array fits); beside no \
         in-place applicator, `unevaluatedProperties` and `unevaluatedItems` are read as the \
         `additionalProperties` and `items` they then mean; `const` is read as the one-value \
         `enum` it means, and `allOf`/`anyOf`/`oneOf` of boolean schemas as the `true` or \
         `false` they amount to. Keywords that only ever reject values (`if`/`then`/`else`, \
         `contains`, `dependentRequired`, `dependentSchemas`, an `anyOf` of `required` lists) \
         are left to validation, as `minLength` is; an `unevaluated*` keyword that could see \
         what they evaluate, here or through a `$ref`, then keeps every member or item the \
         declared ones do not name. An `anyOf` with a branch that leaves its kind open is typed as a \
         `oneOf`, a variant per branch. What `allOf` and `anyOf` branches say about members or \
         items they do not declare (`additionalProperties`, `unevaluatedProperties`, \
         `patternProperties`, `prefixItems`, `items`, `unevaluatedItems`) is left to validation \
         where their holder has no `type` or an `unevaluated*` keyword that sees it; the holder \
         then keeps every member or item the declared ones do not name. A `$dynamicRef` in a \
         schema that is one resource is read as the `$ref` it then amounts to. A `$ref` or \
         `oneOf` beside `prefixItems` that only constrains arrays is left to validation too, \
         the holder keeping every item past its positions. Everything else (references to \
         other documents, `unevaluatedProperties` with `$ref`s inside a `oneOf`) stays \
         `serde_json::Value` with a warning (or, without the opt-in, is refused), and \
         validation does the rejecting. Optional members keep what was sent: an empty array \
         or map is `Some` of an empty `Vec` or map (typify's own output skips it), and a \
         member that may be `null` reads an explicit `null` as a value (`Option<Option<T>>`, \
         or `Some(Value::Null)`), never as absent.\n\n\
         *Strict* counts a group without a type (after a panic or an error) as rejecting all \
         of its invalid instances, as for every side. The first row below it counts only the \
         rejections of a generated type: typify {}, schemcp {} (input) and {} (output). The \
         second counts only those of a type that holds every valid instance of its group \
         faithfully, i.e. without mistyping: typify then rejects {} invalid instances, schemcp \
         {} (input) and {} (output); of typify's {}, schemcp's types reject all but {} (input) \
         and {} (output), listed below with the reason. The rest of typify's count comes from types narrower than \
         their schemas (they reject valid instances of the same group), and from the groups it \
         has no type for. So *strict* as a whole cannot be matched honestly: most of typify's \
         lead is types that reject valid values, or no type at all. Of typify's {} typed groups, {} have a type that holds every valid instance of \
         the group faithfully; of schemcp's, {} (input) and {} (output). The suite's \
         `optional/` folder is measured at the end, apart from the targets.\n",
        remote_accepted(0),
        remote_accepted(1),
        outside_remote,
        total.strict_typed[2],
        total.strict_typed[0],
        total.strict_typed[1],
        total.strict_sound[2],
        total.strict_sound[0],
        total.strict_sound[1],
        total.strict_sound[2],
        typify_only_rejections(results, Side::Input).len(),
        typify_only_rejections(results, Side::Output).len(),
        total.typed[2],
        total.typed_sound[2],
        total.typed_sound[0],
        total.typed_sound[1],
    ));

    md.push_str(
        "\n## Invalid instances typify's faithful types reject and schemcp's do not\n\n\
         Where typify's type holds every valid instance of its group faithfully and rejects an \
         invalid one, schemcp's type rejects it too, except here (the full pipeline rejects \
         each of them).\n\n\
         | file | group | instance | side | schemcp | why |\n|---|---|---|---|---|---|\n",
    );
    for side in [Side::Input, Side::Output] {
        for [file, group, instance, generated, why] in typify_only_rejections(results, side) {
            md.push_str(&format!(
                "| {file} | {} | {} | {} | {generated} | {} |\n",
                cell(&group),
                cell(&instance),
                side.tag(),
                cell(&why)
            ));
        }
    }

    // typify's panics and errors, by message.
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for result in results {
        match &result.generation[&Side::Baseline] {
            Generation::Panicked(p) => {
                *reasons.entry(format!("panic: {}", short(p))).or_default() += 1
            }
            Generation::Refused(e) => {
                *reasons
                    .entry(format!("error: {}", short(&e.join("; "))))
                    .or_default() += 1
            }
            Generation::Uncompilable(e) => {
                *reasons
                    .entry(format!("does not compile: {}", short(e)))
                    .or_default() += 1
            }
            _ => {}
        }
    }
    let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    md.push_str("\n## typify 0.8 failures by message\n\n| groups | message |\n|---|---|\n");
    for (reason, n) in reasons {
        md.push_str(&format!("| {n} | {} |\n", cell(&reason)));
    }

    md.push_str("\n## schemcp: degraded and refused schemas\n\n| file | group | side | what |\n|---|---|---|---|\n");
    for result in results {
        for side in [Side::Input, Side::Output] {
            let what = match &result.generation[&side] {
                Generation::Degraded(p) => format!("degraded: {}", p.join("; ")),
                Generation::Typed(_) => continue,
                other => generation_reason(other),
            };
            md.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                result.group.file,
                cell(&result.group.description),
                side.tag(),
                cell(&what)
            ));
        }
    }

    for side in [Side::Input, Side::Output] {
        let list = exceptions(results, side);
        md.push_str(&format!(
            "\n## schemcp {}: every exception ({})\n\nValid instances not accepted or not \
             round-tripped faithfully, and invalid instances the full pipeline accepts.\n\n",
            side.tag(),
            list.len()
        ));
        md.push_str(&exception_table(list));
    }
    md.push_str(&optional_section(&optional));
    md
}

/// The `optional/` folder: the same measurement, outside the targets.
fn optional_section(results: &[GroupResult]) -> String {
    if results.is_empty() {
        return String::new();
    }
    let (rows, total) = rows(results);
    let mut md = format!(
        "\n## The `optional/` folder\n\n\
         The suite's `optional/` and `optional/format/` files, measured the same way and kept \
         out of the headline and the targets: they test behaviour a validator may leave out \
         (format assertion, big numbers, ECMAScript regular expressions, unknown keywords). \
         {} files, {} groups, {} valid and {} invalid instances.\n\n\
         | | schemcp input | schemcp output | typify 0.8 |\n|---|---|---|---|\n\
         | generator panics | {} | {} | {} |\n\
         | groups whose generated code does not compile | {} | {} | {} |\n\
         | valid instances accepted | {} | {} | {} |\n\
         | faithful round trips | {} | {} | {} |\n\
         | invalid instances the full pipeline rejects | {} | {} | {} |\n\n\
         | file | groups | gen. input | gen. output | typify | valid | accepted | faithful | invalid | strict | rejected |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
        rows.len(),
        total.groups,
        total.valid,
        total.invalid,
        total.panicked[0],
        total.panicked[1],
        total.panicked[2],
        total.uncompilable[0],
        total.uncompilable[1],
        total.uncompilable[2],
        total.accepted[0],
        total.accepted[1],
        total.accepted[2],
        total.faithful[0],
        total.faithful[1],
        total.faithful[2],
        total.rejected[0],
        total.rejected[1],
        total.rejected[2],
    );
    md.push_str(&file_rows(&rows));
    md.push_str(
        "\nWhat the exceptions below come down to:\n\n\
         - **`format` is an annotation** (`optional/format/*`): the runtime validates with \
         `jsonschema`'s 2020-12 defaults, which do not assert formats, so a badly formed \
         `date` or `email` passes; the schema's `pattern` or `enum` is the way to enforce one.\n\
         - **integers beyond `i64`** (`optional/bignum`, `optional/float-overflow`): typify \
         types `integer` as `i64`.\n\
         - **other documents** (`optional/cross-draft`, `optional/format-assertion`): never \
         fetched, as in the main folder.\n\
         - **an `examples` list that is not examples** (`optional/refOfUnknownKeyword` keeps a \
         schema under `examples`): examples must validate against their schema, so the build \
         refuses it.\n\n\
         `optional/ecmascript-regex` has no exception: typify's string newtypes check their \
         `pattern` with `regress` without the Unicode flag, where `\\p{Letter}` is a plain \
         `p`, so they rejected strings the validator accepts; a pattern with `\\p{..}` or \
         `\\P{..}` is now left out of the type (a `String`) and to validation.\n",
    );
    for side in [Side::Input, Side::Output] {
        let list = exceptions(results, side);
        md.push_str(&format!(
            "\n### `optional/`, schemcp {}: every exception ({})\n\n",
            side.tag(),
            list.len()
        ));
        md.push_str(&exception_table(list));
    }
    md
}

/// The exceptions [`exceptions`] lists, as a table.
fn exception_table(list: Vec<[String; 5]>) -> String {
    let mut md = String::from("| file | group | instance | what | why |\n|---|---|---|---|---|\n");
    for [file, group, test, what, why] in list {
        md.push_str(&format!(
            "| {file} | {} | {} | {what} | {} |\n",
            cell(&group),
            cell(&test),
            cell(&why)
        ));
    }
    md
}

/// The per-file rows of the keyword table.
fn file_rows(rows: &BTreeMap<String, Row>) -> String {
    let mut md = String::new();
    for (file, r) in rows {
        let gen_ = |s: usize| {
            let mut cell = format!("{}/{}/{}", r.typed[s], r.degraded[s], r.refused[s]);
            if r.panicked[s] > 0 {
                cell.push_str(&format!(" +{}P", r.panicked[s]));
            }
            if r.uncompilable[s] > 0 {
                cell.push_str(&format!(" +{}C", r.uncompilable[s]));
            }
            cell
        };
        let typify = {
            let mut cell = format!("{}/{}/{}", r.typed[2], r.refused[2], r.no_type);
            if r.panicked[2] > 0 {
                cell.push_str(&format!(" +{}P", r.panicked[2]));
            }
            if r.uncompilable[2] > 0 {
                cell.push_str(&format!(" +{}C", r.uncompilable[2]));
            }
            cell
        };
        let three = |v: &[usize; 3]| format!("{} · {} · {}", v[0], v[1], v[2]);
        md.push_str(&format!(
            "| {file} | {} | {} | {} | {typify} | {} | {} | {} | {} | {} | {} |\n",
            r.groups,
            gen_(0),
            gen_(1),
            r.valid,
            three(&r.accepted),
            three(&r.faithful),
            r.invalid,
            three(&r.strict),
            three(&r.rejected),
        ));
    }

    md
}

fn short(text: &str) -> String {
    // Drop schema-specific tails so messages group.
    let text = text.split(" at ").next().unwrap_or(text);
    text.chars().take(120).collect()
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// `$CARGO_TARGET_DIR/fidelity` (or `target/fidelity` in the repository): the generated crate
/// and its own target dir, kept between runs so only changed modules recompile.
pub fn default_work_dir(repo: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("target"))
        .join("fidelity")
}

/// How `docs/fidelity.md` names the corpus: `$SCHEMCP_JSON_SCHEMA_SUITE_LABEL`, or the pinned
/// copy `./scripts/test` fetches.
pub fn suite_label() -> String {
    std::env::var("SCHEMCP_JSON_SCHEMA_SUITE_LABEL").unwrap_or_else(|_| {
        "the JSON-Schema-Test-Suite as shipped in the `jsonschema==4.26.0` source distribution \
         (folder `json/tests/draft2020-12`)"
            .into()
    })
}
