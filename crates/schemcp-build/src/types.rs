//! Rust types for every tool's input and output, through one typify `TypeSpace`.
//!
//! typify is driven defensively, because it fails in three ways that must never reach a user as a
//! crash or a wrong type:
//!
//! - it panics on schemas it does not support (`if`/`then`/`else`, references it cannot
//!   resolve); every call runs under [`guarded`], and each schema is first converted on its own
//!   (a *probe*) so a failure is reported against the one file and JSON pointer that caused it;
//! - it keys references by their last pointer segment only, so equal `$defs` names from
//!   different tools would silently become one type; we decide ourselves which definitions are
//!   the same type ([`classes`]) and hand typify unique names;
//! - it silently reuses an existing type when a generated name repeats (an inline enum at
//!   `Root.mode` becomes the `$defs/RootMode` type). We convert the whole set once with every
//!   definition under a *mangled* name that cannot collide, predict the real names from that,
//!   rename definitions until every name is unique, and check afterwards that typify produced
//!   exactly as many types as predicted. The real conversion usually keeps the names it starts
//!   with, so it runs on this thread while the mangled one runs on another, and is redone only
//!   when a name had to change.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schemcp_contract::parallel;
use serde_json::{Value, json};
use typify::{TypeDetails, TypeId, TypeSpace, TypeSpaceSettings};

use crate::branch_kinds::{kind_keywords_into_branches, type_list_as_branches};
use crate::checks::NoValue;
use crate::derived_names::{name_inline_types_apart, place_names};
use crate::listed_values::enum_alone;
use crate::names::pascal;
use crate::never_matching::drop_never_matching_branches;
use crate::normalize::{
    Branches, absent_unmeetable_members, closed_tuples, const_as_enum, declare_required_members,
    distribute_every_one_of, drop_array_narrowing_beside_prefix, drop_narrower_readings,
    drop_narrowing, drop_opaque_nots, drop_repeated_branches, drop_vacuous_ref_siblings,
    finish_tuples, fold_value_branches, inline_open_references, integral_counts,
    keep_counted_members, merging_holder, metaschema_as_runtime_type, name_nullable_root,
    narrow_listed_members, only_narrows_arrays, open_keywords_only, open_pattern_properties,
    open_tuples, prefix_items_refusal, separate_any_of_from_one_of, settle_boolean_branches,
    settle_object_unions, settle_unevaluated, single_branches_as_all_of, split_mixed_enums,
    split_nullable_definition, split_ref_siblings, supersets_first, true_as_empty,
    type_property_names, untag_open_lone_members,
};
use crate::openings::{Evaluates, evaluates_in_place, open_evaluating_branches, open_unevaluated};
use crate::order::DeclaredOrders;
use crate::other_kinds::{self, other_than};
use crate::recursion::{Merge, copied, copies_itself, merges, unending};
use crate::refs::{hoist_refs, static_dynamic_refs};
use crate::schema::{
    NULLABLE_OPTIONAL, RefKinds, canonical, declared_kinds, decode_segment, escape,
    for_each_ref_mut, for_each_subschema, keyword_place, mark_defaults, mark_nullable_optionals,
    marked_branches_stay_structs, may_be_null, members_merges_leave_no_value, mentions,
    open_branch, plain_reference, says_no_value, unescape, untyped_help, untyped_message,
    untyped_subschemas,
};
use schemcp_contract::keywords::ANNOTATIONS;
use schemcp_contract::resources::inline_resources;

/// One tool's schemas, as the generator needs them.
pub(crate) struct ToolSchemas<'a> {
    pub name: &'a str,
    pub input: &'a Value,
    pub output: Option<&'a Value>,
    /// Pointer into the tool object (`/inputSchema/$defs/Address`) -> where it was copied from.
    pub origins: BTreeMap<String, String>,
}

/// Which of a tool's schemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Input,
    Output,
}

impl Kind {
    pub(crate) fn pointer(self) -> &'static str {
        match self {
            Kind::Input => "/inputSchema",
            Kind::Output => "/outputSchema",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Kind::Input => "Input",
            Kind::Output => "Output",
        }
    }
}

/// Something wrong with one place of one tool (or, without a tool, with the set).
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub tool: Option<usize>,
    pub pointer: String,
    pub code: &'static str,
    pub message: String,
    pub help: Option<String>,
}

/// Generation settings that affect types.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    pub derives: Vec<String>,
    pub fallback_to_value: bool,
    /// Crates whose types `x-rust-type` may name, with the version in use, any or none.
    pub extern_crates: BTreeMap<String, typify::CrateVers>,
    /// Names the generated code gives its own items (the trait, `Dispatch`), which no type
    /// may take.
    pub reserved: Vec<String>,
}

/// The converted types.
pub(crate) struct Types {
    /// typify's items plus aliases for roots that are not named types; paths not yet rewritten.
    pub items: syn::File,
    pub inputs: Vec<TokenStream>,
    pub outputs: Vec<Option<TokenStream>>,
    /// Every `$defs` entry as `(tool, pointer, type)`, e.g. `(0, "/inputSchema/$defs/Day", Day)`;
    /// an entry several tools share appears once per tool, with the same type.
    pub defs: Vec<(usize, String, TokenStream)>,
    /// Renames and fallbacks, reported as warnings.
    pub warnings: Vec<Problem>,
    /// What the conversion no longer needs (every member's schema), for the caller to drop on
    /// a core with time to spare: for a thousand tools, freeing it took about 2% of the
    /// generator's time.
    pub spent: Box<dyn Send>,
}

/// A schema typify converts on its own: a tool's root schema or one `$defs` entry.
struct Member {
    tool: usize,
    kind: Kind,
    def_key: Option<String>,
    pointer: String,
    name: String,
    /// Roots lose `$defs`, `$schema`, `$id` and `title` (we name roots ourselves).
    schema: Value,
    /// `$ref` strings in walk order, resolved to members of the same schema.
    refs: Vec<(String, usize)>,
    origin: Option<String>,
    /// Content with references blanked and without `title`, for comparison.
    content: String,
    /// For the non-null part of a nullable definition, made a definition of its own (see
    /// [`split_nullable_definition`]): the definition's pointer.
    split_from: Option<String>,
}

impl Member {
    /// A definition the generator made (`key` in `$defs` of the copy it converts), standing
    /// for the schema at `pointer`.
    fn definition(tool: usize, kind: Kind, key: String, pointer: String, schema: Value) -> Member {
        Member {
            tool,
            kind,
            name: pascal(&key),
            def_key: Some(key),
            pointer,
            schema,
            refs: Vec::new(),
            origin: None,
            content: String::new(),
            split_from: None,
        }
    }
}

/// `stem`, or `stem` numbered from 1, whichever `taken` says is free first.
fn unused_key(stem: &str, taken: impl Fn(&String) -> bool) -> String {
    (0..)
        .map(|n| match n {
            0 => stem.to_string(),
            n => format!("{stem}{n}"),
        })
        .find(|k| !taken(k))
        .expect("an unused name")
}

/// Members that become one Rust type.
struct Class {
    members: Vec<usize>,
    /// Registered through `add_ref_types` (some member is a definition) or, for roots only,
    /// through `add_type_with_name`.
    is_def: bool,
}

impl Class {
    fn first(&self) -> usize {
        self.members[0]
    }
}

const MANGLE_PREFIX: &str = "Zzschemcp";
const MANGLE_SUFFIX: &str = "Zz";

/// A name no schema-derived name can collide with, and that typify's sanitizing leaves alone,
/// so names typify derives from it (`{name}{Property}`) can be mapped back.
fn mangled(class: usize) -> String {
    format!("{MANGLE_PREFIX}{class}{MANGLE_SUFFIX}")
}

/// `(class, rest)` for a name derived from [`mangled`].
fn demangle(name: &str) -> Option<(usize, &str)> {
    let rest = name.strip_prefix(MANGLE_PREFIX)?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let class = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(MANGLE_SUFFIX)?;
    Some((class, rest))
}

/// `message` with each [`mangled`] name written as the class's name in `names`: typify's
/// errors name the types it was converting, and a diagnostic must not show the stand-ins.
fn unmangled(message: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(MANGLE_PREFIX) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match demangle(rest) {
            Some((class, after)) if class < names.len() => {
                out.push_str(&names[class]);
                rest = after;
            }
            _ => {
                out.push_str(MANGLE_PREFIX);
                rest = &rest[MANGLE_PREFIX.len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The member orders of every member's schemas, references followed within the member.
fn member_orders(members: &[Member]) -> DeclaredOrders {
    let mut orders = DeclaredOrders::default();
    for member in members {
        let resolve = |reference: &str| {
            let (_, target) = member.refs.iter().find(|(r, _)| r == reference)?;
            Some(&members[*target].schema)
        };
        orders.read(&member.schema, &resolve);
    }
    orders
}

/// Converts every tool's schemas; `Err` holds every problem found.
pub(crate) fn generate(
    tools: &[ToolSchemas<'_>],
    options: &Options,
) -> Result<Types, Vec<Problem>> {
    let mut moved = Vec::new();
    let result = generate_copies(tools, options, &mut moved);
    let relocate = |problem: &mut Problem| {
        let Some(tool) = problem.tool else { return };
        let found = moved.iter().find(|m| {
            m.tool == tool
                && problem
                    .pointer
                    .strip_prefix(&m.copy)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        });
        if let Some(m) = found {
            problem.pointer = format!("{}{}", m.original, &problem.pointer[m.copy.len()..]);
        }
    };
    match result {
        Ok(mut types) => {
            types.warnings.iter_mut().for_each(relocate);
            // A copy of a definition kept outside `$defs` stands where it is written, so the
            // examples there go through its type; a copy of a place the walk from the root
            // reaches (`#/properties/a`) has its examples followed from there already.
            for (tool, pointer, _) in &mut types.defs {
                let found = moved.iter().find(|m| m.tool == *tool && m.copy == *pointer);
                if let Some(m) = found {
                    let segments: Vec<String> =
                        m.original.split('/').skip(2).map(unescape).collect();
                    if !segments.is_empty() && !keyword_place(&segments) {
                        pointer.clone_from(&m.original);
                    }
                }
            }
            Ok(types)
        }
        Err(mut problems) => {
            problems.iter_mut().for_each(relocate);
            Err(problems)
        }
    }
}

/// A definition [`hoist_refs`] copied into `$defs`: problems found in it are reported at the
/// place it was copied from, which is what the author wrote.
struct Copied {
    tool: usize,
    /// The copy's pointer, `/inputSchema/$defs/<name>`.
    copy: String,
    /// The original's pointer, `/inputSchema/components/schemas/a`.
    original: String,
}

/// [`generate`], noting each copy [`hoist_refs`] makes in `moved`.
fn generate_copies(
    tools: &[ToolSchemas<'_>],
    options: &Options,
    moved: &mut Vec<Copied>,
) -> Result<Types, Vec<Problem>> {
    let tool_pascal: Vec<String> = tools.iter().map(|t| pascal(t.name)).collect();
    let mut warnings = Vec::new();
    let (mut members, slots, placeholders) =
        collect_members(tools, &tool_pascal, options, &mut warnings, moved)?;
    let class_of = classes(&members);
    let class_count = class_of.iter().max().map_or(0, |m| m + 1);
    let mut classes: Vec<Class> = (0..class_count)
        .map(|_| Class {
            members: Vec::new(),
            is_def: false,
        })
        .collect();
    for (m, member) in members.iter().enumerate() {
        let class = &mut classes[class_of[m]];
        class.members.push(m);
        class.is_def |= member.def_key.is_some();
    }
    qualify_titles(&mut members);
    // After every check that reports pointers into the schemas: the marks rename members.
    mark_nullable(&mut members);

    // Classes the schema passes made `serde_json::Value` whole (a reference to another
    // document, a keyword typify cannot read), each with a warning at its pointer.
    let degraded: BTreeSet<usize> = members
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            warnings.iter().any(|w| {
                w.code == "fallback-to-value" && w.tool == Some(m.tool) && w.pointer == m.pointer
            })
        })
        .map(|(i, _)| class_of[i])
        .collect();
    // Three independent reads of the schemas, side by side.
    let ((orders, absent), saying_no_value) = parallel::both(
        || (member_orders(&members), absent_members(&members, &classes)),
        || classes_saying_no_value(&members, &classes),
    );
    let plan = Plan {
        members: &members,
        classes: &classes,
        class_of: &class_of,
        degraded,
        options,
        placeholders,
        orders: Mutex::new(orders),
        says_no_value: saying_no_value,
        absent_members: absent,
        distributed: Mutex::default(),
        parts_as_any: Mutex::default(),
    };
    let mut names = plan.initial_names(&tool_pascal, &mut warnings);

    // The whole set under mangled names: the names typify will derive, without collisions.
    let mangled_names: Vec<String> = (0..classes.len()).map(mangled).collect();
    let first_names = names.clone();
    let mut fallback = BTreeSet::new();
    plan.spread_fallback(&mut fallback, &names, &mut warnings);
    let first_fallback = fallback.clone();
    let first_warnings = warnings.len();
    // The whole set is converted first; only when that fails are the classes probed one by one
    // (a thousand small conversions for a large set), so that a failure names its own file and
    // pointer.
    // The prediction (mangled names) on another thread; the real conversion here, under the
    // names as they stand, which are final unless a predicted name collides.
    // The schemas typify reads under the final names are prepared on every core first: the
    // prediction has time to spare, the conversion here does not.
    let prepared = plan.class_schemas(&names, &first_fallback, true);
    let (prediction, rendered) = parallel::both(
        || plan.predict(&mangled_names, &first_fallback),
        || plan.render(&names, false, prepared),
    );
    let mut whole = prediction.ok();
    let mut speculative = Some((names.clone(), rendered));
    let mut probed = false;
    let (real, file, predicted) = loop {
        if whole.is_none() && !probed {
            probed = true;
            let failed = (0..classes.len())
                .filter_map(|c| {
                    let probe = |plan: &Plan<'_>| plan.probe(c, &mangled_names);
                    plan.or_distributed(c, probe)
                        .err()
                        .map(|message| (c, message))
                })
                .collect();
            plan.set_aside(failed, &names, &mut fallback, &mut warnings)?;
            // Each on its own, the classes saw the definitions they reference as `{}`; typify
            // may still fail to merge them once it reads them. Those that do are distributed
            // first, so that a class referencing one is not blamed for it.
            let mut failing: Vec<usize> = (0..classes.len())
                .filter(|c| !fallback.contains(c))
                .filter(|&c| {
                    let probe =
                        |plan: &Plan<'_>| plan.probe_with_references(c, &mangled_names, &fallback);
                    plan.or_distributed(c, probe).is_err()
                })
                .collect();
            // Those failing are probed again, now that the others are distributed, and what
            // still fails is set aside from the definitions up: a class that only fails for a
            // definition it reaches that fails too waits until that one is `{}`.
            while !failing.is_empty() {
                let failed: Vec<(usize, String)> = failing
                    .iter()
                    .filter(|c| !fallback.contains(c))
                    .filter_map(|&c| {
                        let probe = plan.probe_with_references(c, &mangled_names, &fallback);
                        probe.err().map(|message| (c, message))
                    })
                    .collect();
                failing = failed.iter().map(|(c, _)| *c).collect();
                let reaches_failing = |c: usize| {
                    plan.reached(c)
                        .iter()
                        .any(|r| *r != c && failing.contains(r))
                };
                let deepest: Vec<(usize, String)> = failed
                    .iter()
                    .filter(|(c, _)| !reaches_failing(*c))
                    .cloned()
                    .collect();
                // In a cycle every class reaches another that fails: all are set aside.
                let blamed = if deepest.is_empty() { failed } else { deepest };
                plan.set_aside(blamed, &names, &mut fallback, &mut warnings)?;
            }
            // Rendered before the probes, it may be of schemas they have since distributed.
            speculative = None;
        }
        let predicted = loop {
            let prediction = match whole.take() {
                Some(prediction) => prediction,
                None => plan
                    .predict(&mangled_names, &fallback)
                    .map_err(|message| vec![set_problem(&unmangled(&message, &names))])?,
            };
            let mut trial_names = names.clone();
            let mut trial_warnings = Vec::new();
            match plan.resolve_collisions(
                &prediction,
                &tool_pascal,
                &mut trial_names,
                &mut trial_warnings,
            ) {
                Ok(()) => {
                    names = trial_names;
                    warnings.extend(trial_warnings);
                    break prediction.named;
                }
                // With the opt-in, a schema that cannot get a unique name becomes a Value instead.
                Err((problems, Some(c))) if options.fallback_to_value && !fallback.contains(&c) => {
                    let member = &members[classes[c].first()];
                    fallback.insert(c);
                    warnings.push(fallback_warning(member, &names[c], &problems[0].message));
                    plan.spread_fallback(&mut fallback, &names, &mut warnings);
                }
                Err((problems, _)) => return Err(problems),
            }
        };
        let rendered = match speculative.take() {
            Some((used, rendered)) if used == names && fallback == first_fallback => rendered,
            _ => plan.render(&names, probed, plan.class_schemas(&names, &fallback, true)),
        };
        match rendered {
            Ok((real, file)) => break (real, file, predicted),
            Err(message) if probed => return Err(vec![set_problem(&message)]),
            // Something only rendering shows (a panic in typify's output, two properties that
            // become one field): start over with every class probed on its own.
            Err(_) => {
                names = first_names.clone();
                warnings.truncate(first_warnings);
                fallback = first_fallback.clone();
            }
        }
    };

    let produced = real.named_types();
    let mut seen = BTreeSet::new();
    let duplicate = produced.iter().find(|name| !seen.insert(name.as_str()));
    if duplicate.is_some() || produced.len() != predicted.len() {
        let detail = match duplicate {
            Some(name) => format!("two types are both named `{name}`"),
            None => format!(
                "typify produced {} named types where {} were expected, so two schemas were merged \
                 into one type",
                produced.len(),
                predicted.len()
            ),
        };
        return Err(vec![set_problem(&format!(
            "type names are ambiguous: {detail}"
        ))]);
    }

    let ident = |c: usize| -> Result<TokenStream, Vec<Problem>> {
        let id = real.ids[c].as_ref().expect("every class is converted");
        let ty = real
            .space
            .get_type(id)
            .map_err(|e| vec![set_problem(&e.to_string())])?;
        Ok(ty.ident())
    };
    let mut aliases = Vec::new();
    for (c, class) in classes.iter().enumerate() {
        if class.is_def {
            continue;
        }
        let ty = ident(c)?;
        if ty.to_string() == names[c] {
            continue;
        }
        let first = &members[class.first()];
        let doc = first
            .schema
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| {
                let what = match first.kind {
                    Kind::Input => "arguments",
                    Kind::Output => "result",
                };
                format!("The {what} of the `{}` tool.", tools[first.tool].name)
            });
        let name = format_ident!("{}", names[c]);
        aliases.push(quote! {
            #[doc = #doc]
            pub type #name = #ty;
        });
    }
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for slot in &slots {
        let ty = ident(class_of[slot.root])?;
        match slot.kind {
            Kind::Input => inputs.push(ty),
            Kind::Output => {
                outputs.resize(slot.tool, None);
                outputs.push(Some(ty));
            }
        }
    }
    outputs.resize(tools.len(), None);
    let mut defs = Vec::new();
    for (m, member) in members.iter().enumerate() {
        if member.def_key.is_some() && member.split_from.is_none() {
            defs.push((member.tool, member.pointer.clone(), ident(class_of[m])?));
        }
    }
    let mut items = file;
    items.items.extend(
        parse_file(quote! { #(#aliases)* })
            .map_err(|m| vec![set_problem(&m)])?
            .items,
    );
    drop(plan);
    Ok(Types {
        spent: Box::new(members),
        items,
        inputs,
        outputs,
        defs,
        warnings,
    })
}

fn set_problem(message: &str) -> Problem {
    Problem {
        tool: None,
        pointer: String::new(),
        code: "typify-failed",
        message: format!("converting the schema set to Rust types failed: {message}"),
        help: Some("this is likely a schemcp-build bug; please report it with the schemas".into()),
    }
}

struct Slot {
    tool: usize,
    kind: Kind,
    root: usize,
}

/// Splits every schema into its root and `$defs` entries and resolves each `$ref`. Also says
/// whether some enum's values became placeholders ([`crate::variants::name_variants`]).
///
/// Each schema is prepared on its own, so a large set is prepared on every core; the results
/// are joined in the order of the tools, so the output does not depend on the threads.
fn collect_members(
    tools: &[ToolSchemas<'_>],
    tool_pascal: &[String],
    options: &Options,
    warnings: &mut Vec<Problem>,
    moved: &mut Vec<Copied>,
) -> Result<(Vec<Member>, Vec<Slot>, bool), Vec<Problem>> {
    let schemas: Vec<(usize, Kind, &Value)> = tools
        .iter()
        .enumerate()
        .flat_map(|(t, tool)| {
            [(Kind::Input, Some(tool.input)), (Kind::Output, tool.output)]
                .into_iter()
                .filter_map(move |(kind, schema)| Some((t, kind, schema?)))
        })
        .collect();
    let collected = parallel::map(&schemas, |&(t, kind, schema)| {
        collect_schema(t, kind, schema, &tool_pascal[t], &tools[t], options)
    });
    let mut members = Vec::new();
    let mut slots = Vec::new();
    let mut placeholders = false;
    let mut problems = Vec::new();
    for (&(t, kind, _), collected) in schemas.iter().zip(collected) {
        warnings.extend(collected.warnings);
        problems.extend(collected.problems);
        moved.extend(collected.moved);
        placeholders |= collected.placeholders;
        let Some(mut schema_members) = collected.members else {
            continue;
        };
        let root = members.len();
        for member in &mut schema_members {
            for (_, target) in &mut member.refs {
                *target += root;
            }
        }
        members.extend(schema_members);
        slots.push(Slot {
            tool: t,
            kind,
            root,
        });
    }
    if problems.is_empty() {
        Ok((members, slots, placeholders))
    } else {
        Err(problems)
    }
}

/// What [`collect_schema`] makes of one tool schema. The indices in `members`' `refs` count
/// from the schema's root.
struct Collected {
    /// `None` when the schema is not an object (a problem says so).
    members: Option<Vec<Member>>,
    warnings: Vec<Problem>,
    problems: Vec<Problem>,
    moved: Vec<Copied>,
    placeholders: bool,
}

/// [`collect_members`] for the input or output schema of tool `t`.
fn collect_schema(
    t: usize,
    kind: Kind,
    schema: &Value,
    tool_pascal: &str,
    tool: &ToolSchemas<'_>,
    options: &Options,
) -> Collected {
    let fallback = options.fallback_to_value;
    let mut members = Vec::new();
    let mut warnings = Vec::new();
    let mut problems = Vec::new();
    let mut moved = Vec::new();
    let mut placeholders = false;
    let base = kind.pointer();
    // `true` and `false` are schemas too: the same as `{}` and `{"not": {}}`.
    let boolean;
    let schema = match schema {
        Value::Bool(true) => {
            boolean = json!({});
            &boolean
        }
        Value::Bool(false) => {
            boolean = json!({ "not": {} });
            &boolean
        }
        other => other,
    };
    let Value::Object(object) = schema else {
        problems.push(Problem {
            tool: Some(t),
            pointer: base.into(),
            code: "unsupported-schema",
            message: "a tool schema must be a JSON object".into(),
            help: None,
        });
        return Collected {
            members: None,
            warnings,
            problems,
            moved,
            placeholders,
        };
    };
    let root_name = match (kind, object.get("title").and_then(Value::as_str)) {
        (Kind::Output, Some(title)) => pascal(title),
        _ => format!("{}{}", tool_pascal, kind.label()),
    };
    let (mut hoisted, copies) =
        hoist_refs(&static_dynamic_refs(&inline_resources(object)), &root_name);
    metaschema_as_runtime_type(&mut hoisted);
    moved.extend(copies.into_iter().map(|(name, original)| Copied {
        tool: t,
        copy: format!("{base}/$defs/{}", escape(&name)),
        original: format!("{base}{original}"),
    }));
    let object = &hoisted;
    let mut root_schema = object.clone();
    for keyword in ["$defs", "definitions", "$schema", "$id", "title"] {
        root_schema.shift_remove(keyword);
    }
    members.push(Member {
        tool: t,
        kind,
        def_key: None,
        pointer: base.into(),
        name: root_name,
        schema: Value::Object(root_schema),
        refs: Vec::new(),
        origin: None,
        content: String::new(),
        split_from: None,
    });
    let mut defs = BTreeMap::new();
    for keyword in ["$defs", "definitions"] {
        let Some(Value::Object(entries)) = object.get(keyword) else {
            continue;
        };
        for (key, def) in entries {
            let pointer = format!("{base}/{keyword}/{}", escape(key));
            if defs.contains_key(key) {
                problems.push(Problem {
                    tool: Some(t),
                    pointer,
                    code: "duplicate-definition",
                    message: format!("`{key}` is defined in both `$defs` and `definitions`"),
                    help: None,
                });
                continue;
            }
            defs.insert(key.clone(), members.len());
            let mut schema = def.clone();
            // Simplified first, so a `null` branch these passes (run on every schema below)
            // bring out is seen: `{"oneOf": [X, {"anyOf": [{"type": "null"}]}]}`.
            drop_repeated_branches(&mut schema, Branches::AsWritten);
            settle_boolean_branches(&mut schema, Branches::AsWritten);
            single_branches_as_all_of(&mut schema);
            // typify names the `T` of a nullable definition's `Option<T>` after the
            // definition itself; `T` becomes a definition of its own.
            let value = split_nullable_definition(&mut schema, |suffix| {
                unused_key(&format!("{key}{suffix}"), |k| {
                    defs.contains_key(k)
                        || ["$defs", "definitions"]
                            .iter()
                            .any(|d| object.get(*d).and_then(|e| e.get(k)).is_some())
                })
            });
            members.push(Member {
                tool: t,
                kind,
                def_key: Some(key.clone()),
                origin: tool.origins.get(&pointer).cloned(),
                pointer: pointer.clone(),
                name: pascal(key),
                schema,
                refs: Vec::new(),
                content: String::new(),
                split_from: None,
            });
            if let Some((value_key, value, at)) = value {
                defs.insert(value_key.clone(), members.len());
                let at = format!("{pointer}{at}");
                let mut member = Member::definition(t, kind, value_key, at, value);
                member.split_from = Some(pointer);
                members.push(member);
            }
        }
    }
    // References beside keywords to definitions that leave their kind open, copied in.
    let open_definitions: BTreeMap<usize, Value> = members
        .iter()
        .enumerate()
        .filter(|(_, m)| m.def_key.is_some() && open_keywords_only(&m.schema))
        .map(|(i, m)| (i, m.schema.clone()))
        .collect();
    let open_definition = |reference: &str| {
        resolve(reference, &defs)
            .ok()
            .and_then(|index| open_definitions.get(&index).cloned())
    };
    for member in &mut members {
        inline_open_references(&mut member.schema, &open_definition);
    }
    // Definitions that say their kind; an `allOf` with a `$ref` to one has that kind.
    let typed_defs: BTreeSet<String> = members[1..]
        .iter()
        .filter(|m| {
            ["type", "enum", "const"]
                .iter()
                .any(|k| m.schema.get(k).is_some())
        })
        .filter_map(|m| m.def_key.clone())
        .collect();
    // Annotations from `if`/`then`/`contains`/... decide what `unevaluated*` sees: every
    // `unevaluated*` that could see them, here or through a reference, is opened first,
    // and then they are dropped.
    let evaluating = evaluating_definitions(&members, &defs);
    let reference_evaluates = |reference: &str| {
        resolve(reference, &defs)
            .ok()
            .and_then(|index| evaluating.get(&index).copied())
            .unwrap_or(Evaluates::ALL)
    };
    // Diagnostics name the keywords as written, before the openings rewrite them (only
    // schemas they may rewrite are kept aside).
    const OPENED: [&str; 4] = [
        "allOf",
        "anyOf",
        "unevaluatedProperties",
        "unevaluatedItems",
    ];
    let written: Vec<Option<Value>> = members
        .iter()
        .map(|m| {
            let opened = m.schema.as_object().is_some_and(|o| mentions(o, &OPENED));
            opened.then(|| m.schema.clone())
        })
        .collect();
    // The members each definition declares, for ordering union branches.
    let declared_by: BTreeMap<usize, serde_json::Map<String, Value>> = members
        .iter()
        .enumerate()
        .filter_map(|(i, m)| Some((i, declared_members(&m.schema)?)))
        .collect();
    let declared = |branch: &Value| match branch.get("$ref").and_then(Value::as_str) {
        Some(reference) if branch.as_object().is_some_and(|b| b.len() == 1) => {
            resolve(reference, &defs)
                .ok()
                .and_then(|index| declared_by.get(&index).cloned())
        }
        Some(_) => None,
        None => declared_members(branch),
    };
    // Definitions that only constrain arrays, which may be left to validation beside
    // `prefixItems`.
    let array_only_defs: BTreeSet<usize> = members
        .iter()
        .enumerate()
        .filter(|(_, m)| m.schema.as_object().is_some_and(only_narrows_arrays))
        .map(|(i, _)| i)
        .collect();
    let array_only = |reference: &str| {
        resolve(reference, &defs).is_ok_and(|index| array_only_defs.contains(&index))
    };
    // Definitions that leave their kind open, which typify cannot tell apart in an `anyOf`;
    // nor one that is a reference to another (typify's newtype of it, taken for an object:
    // `anyOf: [<alias of an object>, <null>]` became a struct no `null` fitted).
    let open_defs: BTreeSet<usize> = members
        .iter()
        .enumerate()
        .filter(|(_, m)| open_branch(&m.schema) || plain_reference(&m.schema).is_some())
        .map(|(i, _)| i)
        .collect();
    let open_ref =
        |reference: &str| resolve(reference, &defs).is_ok_and(|index| open_defs.contains(&index));
    for member in &mut members {
        supersets_first(&mut member.schema, &declared);
        open_evaluating_branches(&mut member.schema, &reference_evaluates);
        open_unevaluated(&mut member.schema, &reference_evaluates);
    }
    // The kinds each definition's `type` allows, for what beside a reference to it
    // constrains nothing; a definition that is only a `$ref` allows its target's. Without
    // those, an `anyOf` branch `{"$ref": <alias of an integer>, "properties": ...}` kept its
    // `properties`, and typify made the `anyOf` a struct that refused every integer.
    let own_kinds: BTreeMap<usize, BTreeSet<String>> = members
        .iter()
        .enumerate()
        .filter_map(|(i, m)| Some((i, declared_kinds(m.schema.as_object()?)?)))
        .collect();
    let def_kinds: BTreeMap<usize, BTreeSet<String>> = (0..members.len())
        .filter_map(|i| {
            let mut at = i;
            // At most one step per definition: a cycle of aliases allows no kind.
            for _ in 0..members.len() {
                if let Some(kinds) = own_kinds.get(&at) {
                    return Some((i, kinds.clone()));
                }
                at = resolve(plain_reference(&members[at].schema)?, &defs).ok()?;
            }
            None
        })
        .collect();
    let kinds_of = |reference: &str| {
        resolve(reference, &defs)
            .ok()
            .and_then(|index| def_kinds.get(&index).cloned())
    };
    let typed_ref = |reference: &str| {
        ["#/$defs/", "#/definitions/"]
            .iter()
            .filter_map(|prefix| reference.strip_prefix(prefix))
            .any(|name| typed_defs.contains(&decode_segment(name)))
    };
    for (member, written) in members.iter_mut().zip(&written) {
        retitle_reserved(member, &options.reserved, &mut warnings);
        drop_vacuous_ref_siblings(&mut member.schema, &kinds_of);
        integral_counts(&mut member.schema);
        drop_repeated_branches(&mut member.schema, Branches::AsWritten);
        settle_boolean_branches(&mut member.schema, Branches::AsWritten);
        single_branches_as_all_of(&mut member.schema);
        drop_opaque_nots(&mut member.schema);
        const_as_enum(&mut member.schema);
        enum_alone(&mut member.schema);
        // After `const_as_enum`, so `const` members have kinds; what it leaves `false` goes.
        drop_never_matching_branches(&mut member.schema);
        drop_repeated_branches(&mut member.schema, Branches::Loosened);
        settle_boolean_branches(&mut member.schema, Branches::Loosened);
        single_branches_as_all_of(&mut member.schema);
        crate::rust_types::nullable_named_types(&mut member.schema);
        type_list_as_branches(&mut member.schema);
        kind_keywords_into_branches(&mut member.schema, &kinds_of);
        fold_value_branches(&mut member.schema);
        narrow_listed_members(&mut member.schema);
        absent_unmeetable_members(&mut member.schema);
        type_property_names(&mut member.schema);
        split_mixed_enums(&mut member.schema);
        placeholders |= crate::variants::name_variants(&mut member.schema);
        drop_narrowing(&mut member.schema);
        // Branches left empty (`{"contains": ...}` without its keyword) say nothing.
        settle_boolean_branches(&mut member.schema, Branches::Loosened);
        drop_array_narrowing_beside_prefix(&mut member.schema, &array_only);
        closed_tuples(&mut member.schema);
        if fallback {
            degrade_unsupported(member, &defs, t, &mut warnings);
        }
        untyped(
            member,
            written.as_ref(),
            &RefKinds {
                typed: &typed_ref,
                kinds_of: &kinds_of,
            },
            t,
            fallback,
            &mut warnings,
            &mut problems,
        );
        // After `untyped`, whose diagnostics name the keywords as written.
        settle_unevaluated(&mut member.schema);
        separate_any_of_from_one_of(&mut member.schema);
        settle_object_unions(&mut member.schema, &declared, &open_ref, &kinds_of);
        split_ref_siblings(&mut member.schema);
        open_pattern_properties(&mut member.schema);
        keep_counted_members(&mut member.schema);
        untag_open_lone_members(&mut member.schema);
        open_tuples(&mut member.schema);
        drop_narrower_readings(&mut member.schema);
        true_as_empty(&mut member.schema);
        declare_required_members(&mut member.schema);
        name_inline_types_apart(&mut member.schema);
    }
    hoist_unending_merges(&mut members, &mut defs, t, &mut problems);
    for member in &mut members {
        let mut refs = Vec::new();
        for_each_subschema(
            &member.schema,
            &member.pointer,
            true,
            &mut |object, pointer| {
                if let Some(message) = prefix_items_refusal(object) {
                    problems.push(Problem {
                        tool: Some(t),
                        pointer: format!("{pointer}/prefixItems"),
                        code: "unsupported-schema",
                        message,
                        help: None,
                    });
                }
                for keyword in ["$dynamicRef", "$recursiveRef"] {
                    if object.contains_key(keyword) {
                        problems.push(Problem {
                            tool: Some(t),
                            pointer: format!("{pointer}/{}", escape(keyword)),
                            code: "unsupported-schema",
                            message: format!("the generator does not support `{keyword}`"),
                            help: None,
                        });
                    }
                }
                let Some(reference) = object.get("$ref") else {
                    return;
                };
                let Some(reference) = reference.as_str() else {
                    problems.push(Problem {
                        tool: Some(t),
                        pointer: format!("{pointer}/$ref"),
                        code: "unsupported-ref",
                        message: "`$ref` must be a string".into(),
                        help: None,
                    });
                    return;
                };
                match resolve(reference, &defs) {
                    Ok(target) => refs.push((reference.to_string(), target)),
                    Err((message, help)) => problems.push(Problem {
                        tool: Some(t),
                        pointer: format!("{pointer}/$ref"),
                        code: "unsupported-ref",
                        message,
                        help: Some(help),
                    }),
                }
            },
        );
        let mut content = member.schema.clone();
        if let Value::Object(object) = &mut content {
            object.shift_remove("title");
        }
        for_each_ref_mut(&mut content, true, &mut |r| r.clear());
        member.content = canonical(&content);
        member.refs = refs;
    }
    Collected {
        members: Some(members),
        warnings,
        problems,
        moved,
        placeholders,
    }
}

/// Moves each merge typify would unroll without end (see [`crate::recursion`]) into a
/// definition of its own, named after the schema and member it stood in, leaving a reference
/// with the merge's annotations in its place. A definition that is itself such a merge (only
/// `allOf` and references between it and itself) is refused: no type holds it.
fn hoist_unending_merges(
    members: &mut Vec<Member>,
    defs: &mut BTreeMap<String, usize>,
    t: usize,
    problems: &mut Vec<Problem>,
) {
    // Merges written alike share one definition: a reference to the root (`#`) has the root
    // copied into a definition, with its merges, which are the root's own.
    let mut moved_to: BTreeMap<String, String> = BTreeMap::new();
    // Moving a merge leaves a reference, which ends the copying there; a second round only
    // finds what the first could not move. Should rounds run out with a merge still unending,
    // it is refused rather than handed to typify.
    for round in 0..=ROUNDS {
        let resolved = |reference: &str| resolve(reference, defs).ok();
        let copied_in: Vec<BTreeSet<usize>> = members
            .iter()
            .map(|m| copied(&m.schema, &resolved))
            .collect();
        if !copies_itself(&copied_in) {
            return;
        }
        let set: Vec<Vec<Merge>> = members
            .iter()
            .map(|m| merges(&m.schema, &resolved))
            .collect();
        let found: Vec<(usize, String)> = unending(&set, &copied_in)
            .into_iter()
            .map(|(i, merge)| (i, merge.pointer.clone()))
            .collect();
        let (whole, unending_inner): (Vec<_>, Vec<_>) =
            found.into_iter().partition(|(_, p)| p.is_empty());
        if unending_inner.is_empty() || round == ROUNDS {
            for (i, at) in whole.iter().chain(&unending_inner) {
                problems.push(Problem {
                    tool: Some(t),
                    pointer: format!("{}{at}", members[*i].pointer),
                    code: "unsupported-schema",
                    message: "this schema merges itself in through `$ref` and `allOf`, without \
                              end: no Rust type can hold it"
                        .into(),
                    help: Some("put an object member between the schema and its reference".into()),
                });
            }
            return;
        }
        // A merge written like an unending one moves with it: the root's, where a reference to
        // the root (`#`) copied the root into a definition, merges and all.
        let content_at = |i: usize, pointer: &str| members[i].schema.pointer(pointer).map(content);
        let contents: BTreeSet<String> = unending_inner
            .iter()
            .filter_map(|(i, p)| content_at(*i, p))
            .collect();
        let inner: Vec<(usize, String)> = set
            .iter()
            .enumerate()
            .flat_map(|(i, merges)| merges.iter().map(move |m| (i, m.pointer.clone())))
            .filter(|(i, p)| {
                !p.is_empty()
                    && (unending_inner.contains(&(*i, p.clone()))
                        || content_at(*i, p).is_some_and(|c| contents.contains(&c)))
            })
            .collect();
        // The innermost first, so a merge's pointer still holds when one inside it has moved.
        for (i, pointer) in inner.into_iter().rev() {
            let member = &members[i];
            let (kind, at) = (member.kind, format!("{}{pointer}", member.pointer));
            let stem = format!("{}{}", member.name, pascal(&last_member(&pointer)));
            let Some(Value::Object(site)) = members[i].schema.pointer_mut(&pointer) else {
                continue;
            };
            let mut moved = std::mem::take(site);
            for keyword in ANNOTATIONS {
                if let Some(value) = moved.shift_remove(*keyword) {
                    site.insert(keyword.to_string(), value);
                }
            }
            let moved = Value::Object(moved);
            let content = content(&moved);
            if let Some(key) = moved_to.get(&content) {
                site.insert("$ref".into(), json!(format!("#/$defs/{}", escape(key))));
                continue;
            }
            let key = unused_key(&stem, |k| defs.contains_key(k));
            site.insert("$ref".into(), json!(format!("#/$defs/{}", escape(&key))));
            moved_to.insert(content, key.clone());
            defs.insert(key.clone(), members.len());
            members.push(Member::definition(t, kind, key, at, moved));
        }
    }
}

/// Rounds of [`hoist_unending_merges`]; one is enough for every schema seen so far.
const ROUNDS: usize = 4;

/// Retitles the inline schemas of `member` whose `title` would name their type like an item of
/// the generated code (readthedocs' `build.tools` is titled `Tools`, the trait's name): the
/// type is named after the member that holds it too, `{Member}{Title}`.
fn retitle_reserved(member: &mut Member, reserved: &[String], warnings: &mut Vec<Problem>) {
    let mut found = Vec::new();
    for_each_subschema(&member.schema, "", true, &mut |object, pointer| {
        let title = object.get("title").and_then(Value::as_str);
        if !pointer.is_empty()
            && let Some(title) = title
            && reserved.contains(&pascal(title))
        {
            found.push((pointer.to_string(), title.to_string()));
        }
    });
    for (pointer, title) in found {
        let renamed = format!("{}{}", member.name, pascal(&title));
        if let Some(Value::Object(object)) = member.schema.pointer_mut(&pointer) {
            object.insert("title".into(), Value::String(renamed.clone()));
        }
        warnings.push(Problem {
            tool: Some(member.tool),
            pointer: format!("{}{pointer}", member.pointer),
            code: "type-renamed",
            message: format!(
                "the title `{title}` names an item of the generated code; this schema becomes \
                 the Rust type `{renamed}`"
            ),
            help: Some("change the title to choose the name".into()),
        });
    }
}

/// A merge's schema without its annotations, for comparison.
fn content(merge: &Value) -> String {
    let mut merge = merge.clone();
    if let Value::Object(object) = &mut merge {
        object.retain(|keyword, _| !ANNOTATIONS.contains(&keyword.as_str()));
    }
    canonical(&merge)
}

/// The name of the last member `pointer` goes through (`/properties/child/items`: `child`), or
/// `value`.
fn last_member(pointer: &str) -> String {
    let segments: Vec<&str> = pointer.split('/').collect();
    segments
        .windows(2)
        .rev()
        .find(|pair| pair[0] == "properties")
        .map_or_else(|| "value".to_string(), |pair| unescape(pair[1]))
}

/// The `properties` of an object schema, or `None` if it is not one (no `properties`, or a
/// kind other than object).
fn declared_members(schema: &Value) -> Option<serde_json::Map<String, Value>> {
    let object = schema.as_object()?;
    if object.get("type").is_some_and(|t| t != "object") {
        return None;
    }
    object.get("properties")?.as_object().cloned()
}

/// What each definition among `members` (a schema's root and its definitions) evaluates beyond what it
/// declares, in place, following references in place to other definitions: the fixpoint of
/// [`evaluates_in_place`].
fn evaluating_definitions(
    members: &[Member],
    defs: &BTreeMap<String, usize>,
) -> BTreeMap<usize, Evaluates> {
    let own: Vec<(usize, Evaluates, Vec<usize>)> = members
        .iter()
        .enumerate()
        .filter_map(|(i, member)| {
            let (found, references) = evaluates_in_place(member.schema.as_object()?);
            let mut found = found;
            let targets = references
                .iter()
                .filter_map(|r| match resolve(r, defs) {
                    Ok(index) => Some(index),
                    Err(_) => {
                        found = Evaluates::ALL;
                        None
                    }
                })
                .collect();
            Some((i, found, targets))
        })
        .collect();
    let mut result: BTreeMap<usize, Evaluates> = own.iter().map(|(i, f, _)| (*i, *f)).collect();
    loop {
        let mut changed = false;
        for (index, _, targets) in &own {
            let mut now = result[index];
            for target in targets {
                now = now.or(result.get(target).copied().unwrap_or(Evaluates::ALL));
            }
            if now != result[index] {
                result.insert(*index, now);
                changed = true;
            }
        }
        if !changed {
            return result;
        }
    }
}

/// Keywords the generator cannot turn into a type at all (typify does not know them).
const UNSUPPORTED_KEYWORDS: [&str; 2] = ["$dynamicRef", "$recursiveRef"];

/// Why the subschema `object` cannot become a type before typify is even asked: an unsupported
/// keyword or a `$ref` the generator cannot resolve.
fn unsupported_reason(
    object: &serde_json::Map<String, Value>,
    defs: &BTreeMap<String, usize>,
) -> Option<String> {
    for keyword in UNSUPPORTED_KEYWORDS {
        if object.contains_key(keyword) {
            return Some(format!("the generator does not support `{keyword}`"));
        }
    }
    if let Some(reason) = prefix_items_refusal(object) {
        return Some(reason);
    }
    match object.get("$ref") {
        None => None,
        Some(Value::String(reference)) => {
            resolve(reference, defs).err().map(|(message, _)| message)
        }
        Some(_) => Some("`$ref` must be a string".into()),
    }
}

/// With `fallback_to_value`: replaces every subschema of `member` that cannot become a type
/// (see [`unsupported_reason`]) by `{}`, which typify types as `serde_json::Value`, with a
/// warning naming its pointer. Validation still enforces the original schema at run time.
fn degrade_unsupported(
    member: &mut Member,
    defs: &BTreeMap<String, usize>,
    tool: usize,
    warnings: &mut Vec<Problem>,
) {
    let mut found: Vec<(String, String)> = Vec::new();
    for_each_subschema(
        &member.schema,
        &member.pointer,
        true,
        &mut |object, pointer| {
            let nested = found
                .iter()
                .any(|(at, _)| pointer.starts_with(&format!("{at}/")));
            if !nested && let Some(reason) = unsupported_reason(object, defs) {
                found.push((pointer.to_string(), reason));
            }
        },
    );
    // A branch merged with what stands around it (every `allOf` branch; an `anyOf`/`oneOf`
    // branch beside keywords distributed into it): a `Value` there adds no field, and the
    // struct of the rest would drop every member the branch declares. Its holder (and any
    // holder merging that) is the `Value` instead.
    let mut holders: Vec<(String, String)> = Vec::new();
    for (pointer, _) in &found {
        let mut part = pointer.as_str();
        while let Some(holder) = merging_holder(&member.schema, &member.pointer, part) {
            part = holder;
        }
        if part != pointer && !holders.iter().any(|(h, _)| h == part) {
            holders.push((
                part.to_string(),
                format!(
                    "it merges `{pointer}`, which is serde_json::Value and so would add no field"
                ),
            ));
        }
    }
    found.extend(holders);
    // Outermost first, so a part inside a holder already replaced is left alone.
    found.sort_by_key(|(pointer, _)| pointer.len());
    let mut replaced: Vec<String> = Vec::new();
    for (pointer, reason) in found {
        let relative = &pointer[member.pointer.len()..];
        if replaced
            .iter()
            .any(|r| pointer.starts_with(&format!("{r}/")))
        {
            warnings.push(Problem {
                tool: Some(tool),
                pointer,
                code: "fallback-to-value",
                message: format!(
                    "this schema cannot become a Rust type ({reason}); what merges it is \
                     serde_json::Value, validated against the schema at run time"
                ),
                help: None,
            });
            continue;
        }
        replaced.push(pointer.clone());
        if let Some(target) = member.schema.pointer_mut(relative) {
            // Keep what documents the schema; drop everything typify would read.
            let mut replacement = serde_json::Map::new();
            if let Some(value) = target.get("description") {
                replacement.insert("description".into(), value.clone());
            }
            *target = Value::Object(replacement);
        }
        warnings.push(Problem {
            tool: Some(tool),
            pointer,
            code: "fallback-to-value",
            message: format!(
                "this schema cannot become a Rust type ({reason}); it is serde_json::Value, \
                 validated against the schema at run time"
            ),
            help: None,
        });
    }
}

/// Subschemas whose keywords would make typify pick one kind of value where the schema allows
/// every kind (see [`untyped_subschemas`]). Where the typed part of each kind its keywords
/// are for holds every value of that kind (see [`other_than`]), the subschema becomes an
/// untagged enum of those typed values and the runtime's type for every other kind
/// (`NotObject`, `NotStringOrNumber`, ...; see [`other_kinds::split`]): exact, so generated
/// with a warning that suggests the `type` the author may have meant.
/// Anything else would reject valid values: with `fallback` it is `serde_json::Value` with a
/// warning, otherwise an error.
fn untyped(
    member: &mut Member,
    written: Option<&Value>,
    refs: &RefKinds<'_>,
    tool: usize,
    fallback: bool,
    warnings: &mut Vec<Problem>,
    problems: &mut Vec<Problem>,
) {
    // A tool's input root is an object by the contract rules; definitions start untyped.
    let mut found = untyped_subschemas(&member.schema, &member.pointer, false, true, refs);
    // Name the keyword the author wrote (`unevaluatedProperties`), not the one an opening put
    // in its place (`additionalProperties`).
    for (pointer, message) in &mut found {
        if !message.starts_with("this schema uses") {
            continue;
        }
        if let Some(as_written) = written
            .and_then(|w| w.pointer(&pointer[member.pointer.len()..]))
            .and_then(Value::as_object)
            .and_then(|object| untyped_message(object, refs.kinds_of))
        {
            *message = as_written;
        }
    }
    // A schema whose only object keywords are in its `allOf`/`anyOf`/`oneOf` branches
    // (`{"allOf": [{"properties": ...}, {"properties": ...}]}`) is found through them; where
    // [`other_than`] types it as an object, it is typed whole, with its branches (below).
    let mut holders: Vec<(String, String)> = Vec::new();
    for (pointer, message) in &found {
        let Some((rest, index)) = pointer.rsplit_once('/') else {
            continue;
        };
        let Some((holder, applicator)) = rest.rsplit_once('/') else {
            continue;
        };
        let relative = holder.get(member.pointer.len()..).unwrap_or_default();
        if index.parse::<usize>().is_err()
            || !["allOf", "anyOf", "oneOf"].contains(&applicator)
            || found.iter().chain(&holders).any(|(p, _)| p == holder)
            || member.schema.pointer(relative).and_then(other_than) != Some(vec!["object"])
        {
            continue;
        }
        let message = message
            .replacen(
                "this schema uses",
                &format!("the `{applicator}` branches of this schema use"),
                1,
            )
            .replacen("but has no", "but it has no", 1);
        holders.push((holder.to_string(), message));
    }
    found.extend(holders);
    // Per pointer: the kinds it can be typed as, or `None` for `serde_json::Value`.
    let mut plan: Vec<(String, String, Option<Vec<&'static str>>)> = Vec::new();
    for (pointer, message) in found {
        let relative = &pointer[member.pointer.len()..];
        let kind = member.schema.pointer(relative).and_then(other_than);
        match plan.iter_mut().find(|(p, _, _)| *p == pointer) {
            // A second reason (an open `anyOf`): a plain Value.
            Some(entry) => entry.2 = None,
            None => plan.push((pointer, message, kind)),
        }
    }
    let degraded: Vec<String> = plan
        .iter()
        .filter(|(_, _, kind)| kind.is_none())
        .map(|(p, _, _)| p.clone())
        .collect();
    // The `allOf`/`anyOf`/`oneOf` branches of a schema typed as an object are typed with it.
    let typed_branches: Vec<String> = plan
        .iter()
        .filter(|(_, _, kinds)| kinds.as_ref().is_some_and(|k| k.contains(&"object")))
        .flat_map(|(p, _, _)| ["allOf", "anyOf", "oneOf"].map(|k| format!("{p}/{k}/")))
        .collect();
    plan.retain(|(pointer, _, _)| {
        !typed_branches.iter().any(|b| {
            pointer
                .strip_prefix(b.as_str())
                .is_some_and(|i| i.parse::<usize>().is_ok())
        })
    });
    let inside = |pointer: &str, outer: &str| pointer.starts_with(&format!("{outer}/"));
    plan.retain(|(pointer, _, kind)| {
        kind.is_none() && !degraded.iter().any(|d| inside(pointer, d))
            || kind.is_some() && !degraded.iter().any(|d| d == pointer || inside(pointer, d))
    });
    // Innermost first, so rewriting an outer schema does not move the pointers inside it.
    plan.sort_by_key(|(pointer, _, _)| std::cmp::Reverse(pointer.matches('/').count()));
    for (pointer, message, kinds) in plan {
        // typify merges the branches of an `allOf`: two such enums merge into a type that no
        // longer says what a member holds. Only with the opt-in, as a degraded part.
        let exact = kinds.is_some() && pointer.rsplit('/').nth(1) != Some("allOf");
        let relative = &pointer[member.pointer.len()..];
        if !exact && !fallback {
            // Advice for the schema as the author wrote it, as the message is.
            let help = untyped_help(
                written
                    .and_then(|w| w.pointer(relative))
                    .or_else(|| member.schema.pointer(relative))
                    .and_then(Value::as_object),
                refs.kinds_of,
            );
            problems.push(Problem {
                tool: Some(tool),
                pointer,
                code: "untyped-schema",
                message,
                help: Some(help),
            });
            continue;
        }
        let Some(target) = member.schema.pointer_mut(relative) else {
            continue;
        };
        let Some(kinds) = kinds else {
            // Keep what documents the schema; drop everything typify would read.
            let mut replacement = serde_json::Map::new();
            if let Some(value) = target.get("description") {
                replacement.insert("description".into(), value.clone());
            }
            *target = Value::Object(replacement);
            warnings.push(Problem {
                tool: Some(tool),
                pointer,
                code: "fallback-to-value",
                message: format!("{message}; it is serde_json::Value, validated at run time"),
                help: None,
            });
            continue;
        };
        let Value::Object(schema) = std::mem::take(target) else {
            unreachable!("other_than accepts objects only")
        };
        *target = Value::Object(other_kinds::split(schema, &kinds));
        let (split, help) = other_kinds::described(&kinds);
        warnings.push(if exact {
            Problem {
                tool: Some(tool),
                pointer,
                code: "other-kinds",
                message: format!("{message}; {split}"),
                help: Some(help),
            }
        } else {
            Problem {
                tool: Some(tool),
                pointer,
                code: "fallback-to-value",
                message: format!(
                    "{message}; as a branch of `allOf`, {split}, merged by typify with the \
                     other branches into a type that may hold any value; validated at run time"
                ),
                help: None,
            }
        });
    }
}

/// The member a `$ref` names, or why it cannot be used.
fn resolve(reference: &str, defs: &BTreeMap<String, usize>) -> Result<usize, (String, String)> {
    let within = "the generator resolves `#/$defs/<name>` references only";
    if reference == "#" {
        return Err((
            "a reference to the schema root (`#`) cannot become a Rust type".into(),
            "move the recursive schema into `$defs` and reference `#/$defs/<name>`".into(),
        ));
    }
    if schemcp_contract::names_metaschema(reference) {
        return Err((
            "a `$ref` to the 2020-12 metaschema is `schemcp_runtime::JsonSchema` only where \
             nothing merges it (alone, with annotations or a `type`; not an `allOf` branch, not \
             beside other keywords, not a definition referenced so): merged, it would add no \
             field, and the members the rest declares would be dropped from every value"
                .into(),
            "keep the reference alone and leave the rest to a member of its own, or opt in to \
             `Builder::fallback_to_value(true)` to make this schema `serde_json::Value`"
                .into(),
        ));
    }
    let Some(local) = reference.strip_prefix('#') else {
        return Err((
            format!("`{reference}` is an external reference"),
            "references to other files must be bundled by the contract loader; reference a \
             definitions file in the schemas folder"
                .into(),
        ));
    };
    let key = local
        .strip_prefix("/$defs/")
        .or_else(|| local.strip_prefix("/definitions/"))
        .filter(|key| !key.contains('/'));
    let Some(key) = key else {
        return Err((
            format!("`{reference}` does not point at a `$defs` entry; {within}"),
            "move the referenced schema into `$defs` and reference it there".into(),
        ));
    };
    let key = decode_segment(key);
    defs.get(&key).copied().ok_or_else(|| {
        (
            format!("`{reference}` points at a definition that does not exist"),
            format!("add `{key}` to this schema's `$defs`"),
        )
    })
}

/// Groups members that are the same Rust type: the same origin, or the same name and content,
/// and in both cases references to the same types. Returns each member's class, numbered in
/// member order.
fn classes(members: &[Member]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..members.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first_by_key: HashMap<(bool, String, String), usize> = HashMap::new();
    for (m, member) in members.iter().enumerate() {
        let mut keys = vec![(false, member.name.clone(), member.content.clone())];
        if let Some(origin) = &member.origin {
            keys.push((true, origin.clone(), String::new()));
        }
        for key in keys {
            let first = *first_by_key.entry(key).or_insert(m);
            let (a, b) = (find(&mut parent, first), find(&mut parent, m));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut class: Vec<usize> = (0..members.len()).map(|m| find(&mut parent, m)).collect();
    // Refine until members of a class agree on content and on what they reference.
    let mut count = 0;
    loop {
        let mut ids: HashMap<(usize, &str, Vec<usize>), usize> = HashMap::new();
        let next: Vec<usize> = members
            .iter()
            .enumerate()
            .map(|(m, member)| {
                let signature = (
                    class[m],
                    member.content.as_str(),
                    member.refs.iter().map(|(_, r)| class[*r]).collect(),
                );
                let len = ids.len();
                *ids.entry(signature).or_insert(len)
            })
            .collect();
        class = next;
        if ids.len() == count {
            return class;
        }
        count = ids.len();
    }
}

/// Gives inline schemas that share a title but differ (pydantic titles a discriminated union's
/// tag `Pet Type` in every variant, `{"const": "cat"}` in one and `{"const": "dog"}` in
/// another) names of their own, in the copy typify converts: the title qualified by the type
/// that holds it (`CatPetType`, `DogPetType`), numbered where that is still not enough.
/// typify names an inline type after its title and silently reuses the first type of a name
/// for the next, which would give the second schema the first one's type.
fn qualify_titles(members: &mut [Member]) {
    // Where one content stands: (member, pointer).
    type Places = Vec<(usize, String)>;
    // pascal title -> its distinct contents, each with its places
    let mut by_name: BTreeMap<String, Vec<(String, Places)>> = BTreeMap::new();
    for (m, member) in members.iter().enumerate() {
        for_each_subschema(
            &member.schema,
            &member.pointer,
            true,
            &mut |object, pointer| {
                if pointer == member.pointer {
                    return;
                }
                let Some(title) = object.get("title").and_then(Value::as_str) else {
                    return;
                };
                let content = canonical(&Value::Object(object.clone()));
                let contents = by_name.entry(pascal(title)).or_default();
                match contents.iter_mut().find(|(c, _)| *c == content) {
                    Some((_, places)) => places.push((m, pointer.to_string())),
                    None => contents.push((content, vec![(m, pointer.to_string())])),
                }
            },
        );
    }
    if by_name.values().all(|c| c.len() < 2) {
        return;
    }
    // Nor may a qualified title be a name typify gives a schema after where it stands (a title
    // `Value` in `TInput` qualified as `TInputValue`, beside a member `value`).
    let mut taken: BTreeSet<String> = by_name.keys().cloned().collect();
    for member in members.iter() {
        let places = place_names(&member.schema);
        taken.extend(places.iter().map(|place| format!("{}{place}", member.name)));
    }
    let mut given = BTreeSet::new();
    for (name, contents) in by_name.into_iter().filter(|(_, c)| c.len() > 1) {
        for (_, places) in contents {
            let holder = &members[places[0].0].name;
            let base = format!("{holder}{name}");
            let title = (1..)
                .map(|n| match n {
                    1 => base.clone(),
                    n => format!("{base}{n}"),
                })
                .find(|t| !taken.contains(t) && !given.contains(t))
                .expect("an unused name");
            given.insert(title.clone());
            for (m, pointer) in places {
                let relative = &pointer[members[m].pointer.len()..];
                if let Some(Value::Object(object)) = members[m].schema.pointer_mut(relative) {
                    object.insert("title".into(), Value::String(title.clone()));
                }
            }
        }
    }
}

struct Plan<'a> {
    members: &'a [Member],
    classes: &'a [Class],
    class_of: &'a [usize],
    /// Classes made `serde_json::Value` before typify was asked (see [`Plan::spread_fallback`]).
    degraded: BTreeSet<usize>,
    options: &'a Options,
    /// Whether some enum's values were handed to typify as placeholders.
    placeholders: bool,
    /// The member orders the schemas declare, for the fields typify sorts by name (those of
    /// a distributed class's schema added when it is distributed).
    orders: Mutex<DeclaredOrders>,
    /// Whether each class's schema rejects every value somewhere ([`says_no_value`]): only
    /// then may typify's type for it hold an enum without variants.
    says_no_value: Vec<bool>,
    /// The members some merge in each class's schema leaves no value
    /// ([`members_merges_leave_no_value`]): typify's type for them may be an enum without
    /// variants.
    absent_members: Vec<BTreeSet<String>>,
    /// The schemas of the classes converted with every `oneOf` distributed over what stands
    /// beside it ([`distribute_every_one_of`]), because typify's own merge failed on them. Set
    /// while probing, read by every conversion after it.
    distributed: Mutex<BTreeMap<usize, Value>>,
    /// With `fallback_to_value`, the parts of each class's schema typify fails on, read as
    /// any value ([`Plan::degrade_parts`]) so that the rest of the class is still typed.
    parts_as_any: Mutex<BTreeMap<usize, Vec<PartAsAny>>>,
}

/// A part of a class's schema read as any value ([`Plan::degrade_parts`]).
#[derive(Clone)]
struct PartAsAny {
    /// Where it is, relative to the class's member, as the schema file writes it.
    written: String,
    /// Where it is in the copy typify reads ([`Plan::class_schema`]), which marks some
    /// members' names.
    copied: String,
}

/// What typify reads for each class, in class order, or why it cannot read it
/// ([`Plan::class_schemas`]).
type Prepared = Vec<Result<schemars::schema::Schema, String>>;

/// A converted set: the space and each class's type.
struct Converted {
    space: TypeSpace,
    ids: Vec<Option<TypeId>>,
}

/// What the mangled conversion tells about the real one, as plain data (it is made on another
/// thread, and typify's types cannot cross threads).
struct Prediction {
    /// The named types, under mangled names, sorted.
    named: Vec<String>,
    /// Root classes that are not named types of their own, so they get an alias.
    aliased: Vec<usize>,
}

impl Converted {
    /// Names of the types typify will emit (structs, enums, newtypes), sorted.
    fn named_types(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .space
            .iter_types()
            .filter(|t| {
                matches!(
                    t.details(),
                    TypeDetails::Struct(_) | TypeDetails::Enum(_) | TypeDetails::Newtype(_)
                )
            })
            .map(|t| t.name())
            .collect();
        names.sort();
        names
    }
}

impl Plan<'_> {
    /// Adds to `fallback` every class that merges one in it or one [`Plan::degraded`] (an
    /// `allOf` branch, a `$ref` beside keywords): merged, a `serde_json::Value` adds no field,
    /// so the members it declared would be dropped from every value without a word. Each gets
    /// a warning naming the class it merges.
    fn spread_fallback(
        &self,
        fallback: &mut BTreeSet<usize>,
        names: &[String],
        warnings: &mut Vec<Problem>,
    ) {
        if fallback.is_empty() && self.degraded.is_empty() {
            return;
        }
        loop {
            let mut added = false;
            for (c, class) in self.classes.iter().enumerate() {
                if fallback.contains(&c) || self.degraded.contains(&c) {
                    continue;
                }
                let merged = class.members.iter().find_map(|&m| {
                    let member = &self.members[m];
                    let resolve = |reference: &str| {
                        member
                            .refs
                            .iter()
                            .find(|(r, _)| r == reference)
                            .map(|(_, target)| self.class_of[*target])
                    };
                    copied(&member.schema, &resolve)
                        .into_iter()
                        .find(|other| fallback.contains(other) || self.degraded.contains(other))
                        .map(|other| (member, other))
                });
                if let Some((member, other)) = merged {
                    fallback.insert(c);
                    added = true;
                    let reason = format!(
                        "it merges `{}`, which is serde_json::Value and so would add no field",
                        names[other]
                    );
                    warnings.push(fallback_warning(member, &names[c], &reason));
                }
            }
            if !added {
                return;
            }
        }
    }

    fn settings(&self) -> TypeSpaceSettings {
        let mut settings = TypeSpaceSettings::default();
        // Sorted keys keep structured results stable from call to call.
        settings.with_map_type("::std::collections::BTreeMap");
        // `x-rust-type` names the runtime's `PrefixN` for `prefixItems` of variable length.
        settings.with_crate("schemcp-runtime", typify::CrateVers::Any, None);
        for (name, version) in &self.options.extern_crates {
            let marked = crate::rewrite::extern_marked(name);
            settings.with_crate(name, version.clone(), Some(&marked));
        }
        for derive in &self.options.derives {
            settings.with_derive(derive.clone());
        }
        settings
    }

    /// Class names before typify is consulted: each class takes its first member's name, and
    /// classes that want the same name are all prefixed with their tool's name.
    fn initial_names(&self, tool_pascal: &[String], warnings: &mut Vec<Problem>) -> Vec<String> {
        let mut names: Vec<String> = self
            .classes
            .iter()
            .map(|c| self.members[c.first()].name.clone())
            .collect();
        let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (c, name) in names.iter().enumerate() {
            by_name.entry(name.clone()).or_default().push(c);
        }
        let mut taken: BTreeSet<String> = names.iter().cloned().collect();
        taken.extend(self.options.reserved.iter().cloned());
        for (name, group) in by_name {
            if group.len() < 2 {
                continue;
            }
            for &c in &group {
                let renamed = self.next_name(c, tool_pascal, &taken);
                taken.insert(renamed.clone());
                warnings.push(self.rename_note(
                    c,
                    &renamed,
                    &format!("{} different schemas are named `{name}`", group.len()),
                ));
                names[c] = renamed;
            }
        }
        // readthedocs' schema defines `tools`: a type `Tools` beside the trait did not compile.
        for (c, name) in names.iter_mut().enumerate() {
            if self.options.reserved.contains(name) {
                let renamed = self.next_name(c, tool_pascal, &taken);
                taken.insert(renamed.clone());
                let reason = format!("`{name}` names an item of the generated code");
                warnings.push(self.rename_note(c, &renamed, &reason));
                *name = renamed;
            }
        }
        names
    }

    /// The first free name of `{Tool}{Name}`, `{Tool}{Input|Output}{Name}`, then numbered.
    fn next_name(&self, c: usize, tool_pascal: &[String], taken: &BTreeSet<String>) -> String {
        let member = &self.members[self.classes[c].first()];
        let tool = &tool_pascal[member.tool];
        let base = &member.name;
        let label = member.kind.label();
        [format!("{tool}{base}"), format!("{tool}{label}{base}")]
            .into_iter()
            .chain((2..).map(|n| format!("{tool}{label}{base}{n}")))
            .find(|candidate| !taken.contains(candidate))
            .expect("an unbounded candidate list has a free name")
    }

    fn rename_note(&self, c: usize, renamed: &str, reason: &str) -> Problem {
        let member = &self.members[self.classes[c].first()];
        Problem {
            tool: Some(member.tool),
            pointer: member.pointer.clone(),
            code: "type-renamed",
            message: format!("{reason}; this one becomes the Rust type `{renamed}`"),
            help: Some("rename the definition (or the output `title`) to choose the name".into()),
        }
    }

    /// Renames classes until every type name typify will produce is unique, using the names the
    /// mangled conversion derived.
    fn resolve_collisions(
        &self,
        prediction: &Prediction,
        tool_pascal: &[String],
        names: &mut [String],
        warnings: &mut Vec<Problem>,
    ) -> Result<(), (Vec<Problem>, Option<usize>)> {
        #[derive(Clone, Copy, PartialEq)]
        enum Source {
            /// The class's own type, or its alias.
            Own(usize),
            /// A type typify derived from the class's name (`{Class}{Property}`).
            Inline(usize),
            /// A type named by an inline `title`.
            Titled,
        }
        // Roots that are not named types get an alias under their name, which must be unique too.
        let aliases = &prediction.aliased;
        let mut last_victim = None;
        for _ in 0..1000 {
            let mut by_name: BTreeMap<String, Vec<Source>> = BTreeMap::new();
            for name in &prediction.named {
                let (real, source) = match demangle(name) {
                    Some((c, "")) => (names[c].clone(), Source::Own(c)),
                    Some((c, rest)) => (format!("{}{rest}", names[c]), Source::Inline(c)),
                    None => (name.clone(), Source::Titled),
                };
                by_name.entry(real).or_default().push(source);
            }
            for &c in aliases {
                by_name
                    .entry(names[c].clone())
                    .or_default()
                    .push(Source::Own(c));
            }
            let Some((name, sources)) = by_name.iter().find(|(_, s)| s.len() > 1) else {
                return Ok(());
            };
            let owner = sources.iter().rev().find_map(|s| match s {
                Source::Own(c) => Some(*c),
                _ => None,
            });
            let parents: Vec<usize> = sources
                .iter()
                .filter_map(|s| match s {
                    Source::Inline(c) => Some(*c),
                    _ => None,
                })
                .collect();
            let victim = owner.or_else(|| {
                let last = *parents.last()?;
                (parents.first() != Some(&last)).then_some(last)
            });
            let Some(victim) = victim else {
                let at = parents
                    .first()
                    .map(|&c| &self.members[self.classes[c].first()]);
                return Err((
                    vec![Problem {
                        tool: at.map(|m| m.tool),
                        pointer: at.map(|m| m.pointer.clone()).unwrap_or_default(),
                        code: "type-name-collision",
                        message: format!(
                            "two different schemas here would both become the Rust type `{name}`"
                        ),
                        help: Some(
                            "rename one of the properties or titles involved, or move the schema \
                             into `$defs`"
                                .into(),
                        ),
                    }],
                    parents.first().copied(),
                ));
            };
            let taken: BTreeSet<String> = by_name
                .keys()
                .cloned()
                .chain(names.iter().cloned())
                .collect();
            let renamed = self.next_name(victim, tool_pascal, &taken);
            let why = if sources
                .iter()
                .any(|s| *s == Source::Titled || matches!(s, Source::Inline(c) if *c != victim))
            {
                format!("an inline schema elsewhere also becomes `{name}`")
            } else {
                format!("a schema nested in it also becomes `{name}`")
            };
            warnings.push(self.rename_note(victim, &renamed, &why));
            names[victim] = renamed;
            last_victim = Some(victim);
        }
        // Renaming did not help: typify names something inside the schema after the schema
        // itself (e.g. `{"enum": [6, null]}` is `Option<T>` around a `T` of the same name).
        let Some(victim) = last_victim else {
            return Err((vec![set_problem("could not find unique type names")], None));
        };
        let member = &self.members[self.classes[victim].first()];
        Err((
            vec![Problem {
                tool: Some(member.tool),
                pointer: member.pointer.clone(),
                code: "type-name-collision",
                message: "no unique Rust type name can be found for this schema: typify names a \
                          type inside it after the schema itself"
                    .into(),
                help: Some(
                    "give the schema (or the nested one) a `title`, or opt in to \
                     `Builder::fallback_to_value(true)`"
                        .into(),
                ),
            }],
            Some(victim),
        ))
    }

    /// The member whose schema typify converts for class `c`.
    fn converted_member(&self, c: usize) -> &Member {
        let class = &self.classes[c];
        let m = class
            .members
            .iter()
            .copied()
            .find(|&m| !class.is_def || self.members[m].def_key.is_some())
            .expect("a class has members");
        &self.members[m]
    }

    /// The schema typify converts for class `c`, with references renamed to `names`.
    fn class_schema(&self, c: usize, names: &[String]) -> Value {
        let class = &self.classes[c];
        let member = self.converted_member(c);
        let targets: HashMap<&str, usize> = member
            .refs
            .iter()
            .map(|(r, target)| (r.as_str(), self.class_of[*target]))
            .collect();
        let mut schema = match self.distributed().get(&c) {
            Some(distributed) => distributed.clone(),
            None => member.schema.clone(),
        };
        for_each_ref_mut(&mut schema, member.def_key.is_none(), &mut |reference| {
            if let Some(&target) = targets.get(reference.as_str()) {
                *reference = format!("#/$defs/{}", names[target]);
            }
        });
        if let (false, Value::Object(object)) = (class.is_def, &mut schema) {
            // typify prefers a title to the name it is given.
            object.insert("title".into(), Value::String(names[c].clone()));
            name_nullable_root(object, &names[c]);
        }
        finish_tuples(&mut schema, &names[c]);
        for part in self.parts_as_any().get(&c).into_iter().flatten() {
            if let Some(target) = schema.pointer_mut(&part.copied) {
                // Keep what documents the part; drop everything typify would read.
                let mut any = serde_json::Map::new();
                if let Some(description) = target.get("description") {
                    any.insert("description".into(), description.clone());
                }
                *target = Value::Object(any);
            }
        }
        schema
    }

    fn parts_as_any(&self) -> MutexGuard<'_, BTreeMap<usize, Vec<PartAsAny>>> {
        unpoisoned(&self.parts_as_any)
    }

    /// With `fallback_to_value`, where typify fails on class `c`: reads the part it fails on
    /// ([`Plan::failing_place`]) as any value, and the next, until the class converts on its
    /// own. Returns where the parts are written, or `None` (nothing kept) where no part fails
    /// alone or the class still fails without them: then the whole class is the fallback.
    fn degrade_parts(&self, c: usize, names: &[String]) -> Option<Vec<String>> {
        let before = self.parts_as_any().get(&c).map_or(0, Vec::len);
        let mut written = Vec::new();
        loop {
            let (place, copied) = self.failing_place(c, names);
            // Each part read as any value fails no more, so the loop ends; a part found again
            // was not replaced (a distributed `oneOf` moved it), and the class falls back.
            let parts = self.parts_as_any();
            let again = parts
                .get(&c)
                .is_some_and(|p| p.iter().any(|p| p.copied == copied));
            drop(parts);
            if copied.is_empty() || again {
                break;
            }
            self.parts_as_any().entry(c).or_default().push(PartAsAny {
                written: place.clone(),
                copied,
            });
            written.push(place);
            if self.probe(c, names).is_ok() {
                return Some(written);
            }
        }
        if let Some(parts) = self.parts_as_any().get_mut(&c) {
            parts.truncate(before);
        }
        None
    }

    fn distributed(&self) -> MutexGuard<'_, BTreeMap<usize, Value>> {
        unpoisoned(&self.distributed)
    }

    /// The classes that `failed` (each with typify's message, in mangled names): with the
    /// opt-in, each becomes `serde_json::Value` with a warning, and so does every class that
    /// merges one ([`Plan::spread_fallback`]); without it, each is a problem at its pointer.
    fn set_aside(
        &self,
        failed: Vec<(usize, String)>,
        names: &[String],
        fallback: &mut BTreeSet<usize>,
        warnings: &mut Vec<Problem>,
    ) -> Result<(), Vec<Problem>> {
        let mut problems = Vec::new();
        for (c, message) in failed {
            let message = unmangled(&message, names);
            let member = &self.members[self.classes[c].first()];
            if self.options.fallback_to_value {
                if message.starts_with("typify")
                    && let Some(places) = self.degrade_parts(c, names)
                {
                    for place in places {
                        warnings.push(part_fallback_warning(member, &place, &names[c], &message));
                    }
                    continue;
                }
                // Parts read as any value before, for a failure the class no longer has on
                // its own, go with the class.
                let parts = self.parts_as_any().remove(&c).unwrap_or_default();
                warnings.retain(|w| {
                    w.tool != Some(member.tool)
                        || !parts
                            .iter()
                            .any(|p| w.pointer == format!("{}{}", member.pointer, p.written))
                });
                fallback.insert(c);
                warnings.push(fallback_warning(member, &names[c], &message));
            } else {
                // typify's message names no place; one that is no typify failure (a type no
                // value fits, code that does not parse) is about the whole class.
                let place = if message.starts_with("typify") {
                    self.failing_place(c, names).0
                } else {
                    String::new()
                };
                problems.push(unsupported(member, &place, &message));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        self.spread_fallback(fallback, names, warnings);
        Ok(())
    }

    /// Class `c` and every class it references, at any depth.
    fn reached(&self, c: usize) -> BTreeSet<usize> {
        let mut reached = BTreeSet::from([c]);
        let mut next = vec![c];
        while let Some(class) = next.pop() {
            for &m in &self.classes[class].members {
                for (_, target) in &self.members[m].refs {
                    let target = self.class_of[*target];
                    if reached.insert(target) {
                        next.push(target);
                    }
                }
            }
        }
        reached
    }

    /// Converts class `c` with every definition it references, at any depth (those in
    /// `fallback` as `{}`).
    fn probe_with_references(
        &self,
        c: usize,
        names: &[String],
        fallback: &BTreeSet<usize>,
    ) -> Result<(), String> {
        let reached = self.reached(c);
        let schema_of = |c: usize| match fallback.contains(&c) {
            true => Ok(schemars::schema::Schema::Object(Default::default())),
            false => self.parse(self.class_schema(c, names)),
        };
        let mut defs = Vec::new();
        for &r in &reached {
            if self.classes[r].is_def {
                defs.push((names[r].clone(), schema_of(r)?));
            }
        }
        let mut space = TypeSpace::new(&self.settings());
        guarded(|| space.add_ref_types(defs))?;
        if !self.classes[c].is_def {
            let schema = schema_of(c)?;
            guarded(|| space.add_type_with_name(&schema, Some(names[c].clone())))?;
        }
        let tokens = guarded(|| Ok(space.to_stream()))?;
        let says_no_value = reached.iter().any(|&r| self.says_no_value[r]);
        let absent = reached
            .iter()
            .flat_map(|&r| self.absent_members[r].iter().cloned())
            .collect();
        let no_value = NoValue {
            anywhere: &|_| says_no_value,
            members: &absent,
        };
        self.finish(tokens, &no_value).map(drop)
    }

    /// The classes class `c`'s members reference, besides `c`, each as a definition that
    /// holds any value (`true`): what [`Plan::probe`] and [`Plan::failing_place`] convert a
    /// class beside, so that only the class itself can fail.
    fn references_as_any(
        &self,
        c: usize,
        names: &[String],
    ) -> Vec<(String, schemars::schema::Schema)> {
        let mut refs: BTreeSet<usize> = BTreeSet::new();
        for &m in &self.classes[c].members {
            refs.extend(self.members[m].refs.iter().map(|(_, t)| self.class_of[*t]));
        }
        refs.remove(&c);
        refs.into_iter()
            .map(|r| (names[r].clone(), schemars::schema::Schema::Bool(true)))
            .collect()
    }

    /// Where in class `c`'s schema typify fails, as a pointer relative to it: the deepest
    /// subschema that fails on its own (as a struct's member), descending only into schemas
    /// typify converts as types of their own (members, items, union branches), every reference
    /// read as any value. "" when no part fails alone (typify fails on the whole, or on what a
    /// reference brings in). Only on the way to an error or a fallback: it converts each part
    /// it descends through once more. Also returns where that is in the copy (which marks some
    /// members' names).
    fn failing_place(&self, c: usize, names: &[String]) -> (String, String) {
        let schema = self.class_schema(c, names);
        // A part may reference the class itself too.
        let mut defs = self.references_as_any(c, names);
        defs.push((names[c].clone(), schemars::schema::Schema::Bool(true)));
        // Held by a struct's member, as a part is where it stands: some types fail only where
        // they are named (an `x-rust-type` path is parsed where a field refers to it).
        let fails = |part: &Value| {
            let holder =
                json!({"type": "object", "properties": {"part": part}, "required": ["part"]});
            let Ok(part) = self.parse(holder) else {
                return true;
            };
            let mut space = TypeSpace::new(&self.settings());
            guarded(|| space.add_ref_types(defs.clone())).is_err()
                || guarded(|| space.add_type_with_name(&part, Some(PROBED_PART.into()))).is_err()
                || guarded(|| Ok(space.to_stream())).is_err()
        };
        let (mut place, mut copied) = (String::new(), String::new());
        let mut here = &schema;
        'descend: loop {
            for (segment, copied_segment, part) in typed_parts(here) {
                if fails(part) {
                    place.push_str(&segment);
                    copied.push_str(&copied_segment);
                    here = part;
                    continue 'descend;
                }
            }
            return (place, copied);
        }
    }

    /// `probe`, and where typify fails on class `c`, once more with its `oneOf`s distributed
    /// (kept when that converts); the first failure is the one reported.
    fn or_distributed(
        &self,
        c: usize,
        probe: impl Fn(&Self) -> Result<(), String>,
    ) -> Result<(), String> {
        let first = probe(self);
        if first.is_ok() || self.distributed().contains_key(&c) {
            return first;
        }
        let member = self.converted_member(c);
        let mut distributed = member.schema.clone();
        distribute_every_one_of(&mut distributed);
        if distributed == member.schema {
            return first;
        }
        self.distributed().insert(c, distributed.clone());
        if probe(self).is_err() {
            self.distributed().remove(&c);
            return first;
        }
        let resolve = |reference: &str| {
            let (_, target) = member.refs.iter().find(|(r, _)| r == reference)?;
            Some(&self.members[*target].schema)
        };
        unpoisoned(&self.orders).read(&distributed, &resolve);
        Ok(())
    }

    fn parse(&self, schema: Value) -> Result<schemars::schema::Schema, String> {
        serde_json::from_value(schema)
            .map_err(|e| format!("not a JSON Schema typify can read: {e}"))
    }

    /// Converts every class under `mangled` names and keeps what [`Plan::resolve_collisions`]
    /// needs.
    fn predict(
        &self,
        mangled: &[String],
        fallback: &BTreeSet<usize>,
    ) -> Result<Prediction, String> {
        let converted = self.convert(mangled, self.class_schemas(mangled, fallback, false))?;
        // typify makes some names only when asked (an `x-rust-type`'s path is parsed then),
        // and panics there on one that does not parse.
        guarded(|| {
            let aliased = (0..self.classes.len())
                .filter(|&c| !self.classes[c].is_def)
                .filter(|&c| {
                    converted.ids[c]
                        .as_ref()
                        .and_then(|id| converted.space.get_type(id).ok())
                        .is_some_and(|t| t.name() != mangled[c])
                })
                .collect();
            Ok(Prediction {
                named: converted.named_types(),
                aliased,
            })
        })
    }

    /// Converts every class under its final `names`, from the schemas `prepared` for them, and
    /// parses the code, checking that no two members of a type collide. Before the classes are
    /// probed (`probed` false), an enum without variants passes only if it is named after a
    /// class that says no value.
    fn render(
        &self,
        names: &[String],
        probed: bool,
        prepared: Prepared,
    ) -> Result<(Converted, syn::File), String> {
        let converted = self.convert(names, prepared)?;
        let any = self.says_no_value.iter().any(|&says| says);
        let named_after = |name: &str| {
            (0..self.classes.len()).any(|c| self.says_no_value[c] && name.starts_with(&names[c]))
        };
        let says_no_value = |name: &str| if probed { any } else { named_after(name) };
        let absent = self.absent_members.iter().flatten().cloned().collect();
        let no_value = NoValue {
            anywhere: &says_no_value,
            members: &absent,
        };
        // Only the final conversion is rendered: `to_stream` is the costliest step for a large
        // set.
        let file = self.finish(guarded(|| Ok(converted.space.to_stream()))?, &no_value)?;
        Ok((converted, file))
    }

    /// Converts class `c` alone, under the `mangled` names of every class; the definitions it
    /// references stand in as `{}`.
    fn probe(&self, c: usize, names: &[String]) -> Result<(), String> {
        let schema = self.parse(self.class_schema(c, names))?;
        let class = &self.classes[c];
        let mut defs = self.references_as_any(c, names);
        let mut space = TypeSpace::new(&self.settings());
        if class.is_def {
            defs.push((names[c].clone(), schema));
            guarded(|| space.add_ref_types(defs))?;
        } else {
            guarded(|| space.add_ref_types(defs))?;
            let id = guarded(|| space.add_type_with_name(&schema, Some(names[c].clone())))?;
            // A root that is not a type of its own is named only when asked (an
            // `x-rust-type`'s path is parsed then).
            guarded(|| space.get_type(&id).map(|t| t.ident()))?;
        }
        // Rendering can panic too (typify finalizes lazily in places).
        let tokens = guarded(|| Ok(space.to_stream()))?;
        let no_value = NoValue {
            anywhere: &|_| self.says_no_value[c],
            members: &self.absent_members[c],
        };
        self.finish(tokens, &no_value).map(drop)
    }

    /// Parses typify's output and mends what it gets wrong there: enum values given
    /// placeholders (see [`crate::variants`]) are written back, and fields named alike are
    /// numbered (see [`crate::fields`]).
    /// `no_value` says which enums without variants the schemas account for.
    fn finish(&self, tokens: TokenStream, no_value: &NoValue<'_>) -> Result<syn::File, String> {
        let mut file = parse_file(tokens)?;
        if self.placeholders {
            crate::variants::restore_values(&mut file)?;
        }
        crate::fields::distinct_fields(&mut file);
        unpoisoned(&self.orders).apply(&mut file);
        if let Some(refusal) = crate::checks::refusal(&file, no_value) {
            return Err(refusal);
        }
        Ok(file)
    }

    /// The schema typify reads for each class under `names` ([`Plan::class_schema`]); `{}` for
    /// the classes in `fallback`, which become `serde_json::Value`. With `spread`, prepared on
    /// every core.
    fn class_schemas(
        &self,
        names: &[String],
        fallback: &BTreeSet<usize>,
        spread: bool,
    ) -> Prepared {
        let schema_of = |&c: &usize| -> Result<schemars::schema::Schema, String> {
            if fallback.contains(&c) {
                Ok(schemars::schema::Schema::Object(Default::default()))
            } else {
                self.parse(self.class_schema(c, names))
            }
        };
        let classes: Vec<usize> = (0..self.classes.len()).collect();
        if spread {
            parallel::map(&classes, schema_of)
        } else {
            classes.iter().map(schema_of).collect()
        }
    }

    /// Converts every class in one space under `names`, from their `prepared` schemas (see
    /// [`Plan::class_schemas`]).
    fn convert(&self, names: &[String], prepared: Prepared) -> Result<Converted, String> {
        let mut space = TypeSpace::new(&self.settings());
        let mut ids = vec![None; self.classes.len()];
        let mut defs = Vec::new();
        let mut others = Vec::new();
        for ((c, class), schema) in self.classes.iter().enumerate().zip(prepared) {
            if class.is_def {
                defs.push((names[c].clone(), schema?));
            } else {
                others.push(schema);
            }
        }
        guarded(|| space.add_ref_types(defs))?;
        let mut others = others.into_iter();
        for (c, class) in self.classes.iter().enumerate() {
            let id = if class.is_def {
                let reference = self.parse(json!({ "$ref": format!("#/$defs/{}", names[c]) }))?;
                guarded(|| space.add_type_with_name(&reference, None))?
            } else {
                let schema = others.next().expect("a schema for every class")?;
                guarded(|| space.add_type_with_name(&schema, Some(names[c].clone())))?
            };
            ids[c] = Some(id);
        }
        Ok(Converted { space, ids })
    }
}

/// The value behind `lock`. The plan's locks are held only to insert into a set or read and
/// apply orders, never across typify: a poisoned one still holds whole data.
fn unpoisoned<T>(lock: &Mutex<T>) -> MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// typify's output as a syntax tree; taking the stream by value spares a deep copy of it.
fn parse_file(tokens: TokenStream) -> Result<syn::File, String> {
    syn::parse2(tokens).map_err(|e| format!("typify produced Rust that does not parse: {e}"))
}

/// The name [`Plan::failing_place`] gives the part it converts alone.
const PROBED_PART: &str = "SchemcpProbedPart";

/// The subschemas of `schema` typify converts as types of their own, each with the pointer
/// segments that lead to it as written and here: members, items, the positions of a tuple and
/// union branches (`allOf` branches are merged, not converted, and `not`, `if` and the like
/// never are).
fn typed_parts(schema: &Value) -> Vec<(String, String, &Value)> {
    let Value::Object(object) = schema else {
        return Vec::new();
    };
    let mut parts = Vec::new();
    for (keyword, value) in object {
        match (keyword.as_str(), value) {
            ("properties" | "patternProperties", Value::Object(members)) => {
                // A member's name as written: the copy marks some ([`NULLABLE_OPTIONAL`]).
                parts.extend(members.iter().map(|(name, member)| {
                    let written = name.trim_end_matches(NULLABLE_OPTIONAL);
                    let segment = format!("/{keyword}/{}", escape(written));
                    (segment, format!("/{keyword}/{}", escape(name)), member)
                }));
            }
            ("items" | "prefixItems" | "anyOf" | "oneOf", Value::Array(list)) => {
                parts.extend(list.iter().enumerate().map(|(i, part)| {
                    let segment = format!("/{keyword}/{i}");
                    (segment.clone(), segment, part)
                }));
            }
            (
                "items" | "additionalItems" | "additionalProperties" | "propertyNames",
                Value::Object(_),
            ) => parts.push((format!("/{keyword}"), format!("/{keyword}"), value)),
            _ => {}
        }
    }
    parts
}

/// The error for a schema that cannot be typed, without the fallback opt-in, at `place`
/// within `member` ([`Plan::failing_place`]).
fn unsupported(member: &Member, place: &str, message: &str) -> Problem {
    Problem {
        tool: Some(member.tool),
        pointer: format!("{}{place}", member.pointer),
        code: "unsupported-schema",
        message: format!("this schema cannot become a Rust type: {message}"),
        help: Some(
            "change the schema, or opt in to `Builder::fallback_to_value(true)` to use \
             serde_json::Value for it"
                .into(),
        ),
    }
}

/// For each class, whether one of its members says no value ([`says_no_value`]).
fn classes_saying_no_value(members: &[Member], classes: &[Class]) -> Vec<bool> {
    classes
        .iter()
        .map(|class| {
            class.members.iter().any(|&m| {
                let member = &members[m];
                let kinds_of = |reference: &str| {
                    let (_, target) = member.refs.iter().find(|(r, _)| r == reference)?;
                    declared_kinds(members[*target].schema.as_object()?)
                };
                says_no_value(&member.schema, &kinds_of)
            })
        })
        .collect()
}

/// For each class, the members some merge in its schemas leaves no value
/// ([`members_merges_leave_no_value`]). A reference resolves through any member of the same
/// tool: a member written as a reference alone may name a definition its own schema does not.
fn absent_members(members: &[Member], classes: &[Class]) -> Vec<BTreeSet<String>> {
    let mut by_tool: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for member in members {
        for (reference, target) in &member.refs {
            by_tool.insert((member.tool, reference), *target);
        }
    }
    classes
        .iter()
        .map(|class| {
            let mut absent = BTreeSet::new();
            for &m in &class.members {
                let tool = members[m].tool;
                let target = |reference: &str| {
                    let index = by_tool.get(&(tool, reference))?;
                    Some(&members[*index].schema)
                };
                absent.extend(members_merges_leave_no_value(&members[m].schema, &target));
            }
            absent
        })
        .collect()
}

/// Marks each member's optional members that may be `null` ([`mark_nullable_optionals`]),
/// once, in the schemas typify converts. A `$ref` counts as nullable when its target's schema
/// says so itself.
fn mark_nullable(members: &mut [Member]) {
    let nullable: Vec<Vec<String>> = members
        .iter()
        .map(|member| {
            member
                .refs
                .iter()
                .filter(|(_, target)| may_be_null(&members[*target].schema, &|_| false))
                .map(|(reference, _)| reference.clone())
                .collect()
        })
        .collect();
    let mut marking: Vec<(&mut Member, Vec<String>)> = members.iter_mut().zip(nullable).collect();
    parallel::for_each_mut(&mut marking, |(member, nullable)| {
        mark_nullable_optionals(&mut member.schema, &|reference| {
            nullable.iter().any(|n| n == reference)
        });
        marked_branches_stay_structs(&mut member.schema);
    });
    // Defaults follow: typify checks a `default` against the type, where a marked member is
    // required under its marked name (a default without it was refused as not conforming).
    // Only the members some `$ref` names are looked up.
    let targets: BTreeSet<usize> = members
        .iter()
        .flat_map(|m| m.refs.iter().map(|(_, target)| *target))
        .collect();
    let properties: BTreeMap<usize, serde_json::Map<String, Value>> = targets
        .into_iter()
        .filter_map(|target| {
            let properties = members[target].schema.get("properties")?.as_object()?;
            Some((target, properties.clone()))
        })
        .collect();
    parallel::for_each_mut(members, |member| {
        let targets: BTreeMap<&str, usize> = member
            .refs
            .iter()
            .map(|(reference, target)| (reference.as_str(), *target))
            .collect();
        let resolve = |reference: &str| {
            let target = targets.get(reference)?;
            properties.get(target).cloned()
        };
        mark_defaults(&mut member.schema, &resolve);
    });
}

/// The warning for a schema that becomes `serde_json::Value` under `fallback_to_value`.
/// The warning for a part of `member`'s schema, at `place` within it, read as any value
/// ([`Plan::degrade_parts`]).
fn part_fallback_warning(member: &Member, place: &str, name: &str, reason: &str) -> Problem {
    Problem {
        tool: Some(member.tool),
        pointer: format!("{}{place}", member.pointer),
        code: "fallback-to-value",
        message: format!(
            "this part of `{name}` cannot become a Rust type ({reason}); it is \
             serde_json::Value, validated against the schema at run time"
        ),
        help: None,
    }
}

fn fallback_warning(member: &Member, name: &str, reason: &str) -> Problem {
    Problem {
        tool: Some(member.tool),
        pointer: member.pointer.clone(),
        code: "fallback-to-value",
        message: format!("`{name}` cannot become a Rust type ({reason}); using serde_json::Value"),
        help: None,
    }
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

type Hook = Box<dyn Fn(&panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// The panic hook that keeps [`QUIET`] threads quiet, installed while any thread is in
/// [`guarded`]. The hook it replaced is put back itself when the last one leaves, not wrapped:
/// a wrapper per call would nest one closure deeper on every call (thousands for a large
/// contract set). Counting instead of locking lets two threads run typify at once.
struct QuietHook;

static HOOK: Mutex<(usize, Option<Arc<Hook>>)> = Mutex::new((0, None));

impl QuietHook {
    fn enter() -> QuietHook {
        let mut hook = HOOK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if hook.0 == 0 {
            let previous = Arc::new(panic::take_hook());
            let delegate = Arc::clone(&previous);
            panic::set_hook(Box::new(move |info| {
                if !QUIET.with(Cell::get) {
                    delegate(info);
                }
            }));
            hook.1 = Some(previous);
        }
        hook.0 += 1;
        QuietHook
    }
}

impl Drop for QuietHook {
    fn drop(&mut self) {
        let mut hook = HOOK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        hook.0 -= 1;
        if hook.0 > 0 {
            return;
        }
        drop(panic::take_hook());
        if let Some(previous) = hook.1.take() {
            match Arc::try_unwrap(previous) {
                Ok(previous) => panic::set_hook(previous),
                Err(shared) => panic::set_hook(Box::new(move |info| shared(info))),
            }
        }
    }
}

/// Runs one typify call, turning a panic or an error into a message. The panic hook is silenced
/// for this thread only while the call runs, so typify's panic does not print a backtrace into
/// the build log; other threads' panics still reach the previous hook.
fn guarded<T>(f: impl FnOnce() -> Result<T, typify::Error>) -> Result<T, String> {
    let _hook = QuietHook::enter();
    QUIET.with(|quiet| quiet.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|quiet| quiet.set(false));
    match result {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(format!("typify: {error}")),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            // typify appends the whole offending schema; the diagnostic already points at it.
            let first = message.lines().next().unwrap_or_default();
            let first = first.trim_end_matches(['{', '[', ' ', ':']);
            Err(format!("typify panicked: {first}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangled_names_survive_sanitizing() {
        use heck::ToPascalCase;
        for c in [0, 7, 12, 345] {
            let name = mangled(c);
            assert_eq!(name.to_pascal_case(), name);
            assert_eq!(
                format!("{name}_mode").to_pascal_case(),
                format!("{name}Mode")
            );
            assert_eq!(demangle(&name), Some((c, "")));
            assert_eq!(demangle(&format!("{name}Mode")), Some((c, "Mode")));
        }
        assert_eq!(demangle("Zzschemcp1"), None);
        let names = ["TInput".to_string(), "Day".to_string()];
        assert_eq!(
            unmangled(
                &format!(
                    "invalid schema for {}_v, {}; Zzschemcp9Zz",
                    mangled(0),
                    mangled(1)
                ),
                &names
            ),
            "invalid schema for TInput_v, Day; Zzschemcp9Zz"
        );
        assert_eq!(demangle("RootMode"), None);
    }

    #[test]
    fn guarded_contains_panics_and_keeps_the_hook() {
        let result: Result<(), String> = guarded(|| panic!("boom"));
        assert_eq!(result, Err("typify panicked: boom".to_string()));
        let ok: Result<u8, String> = guarded(|| Ok(1));
        assert_eq!(ok, Ok(1));
    }

    #[test]
    fn guarded_runs_on_two_threads_at_once() {
        let barrier = std::sync::Barrier::new(2);
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    for i in 0..200 {
                        // Both threads are inside `guarded` together here, or this would wait
                        // forever.
                        let _ = guarded(|| {
                            if i == 0 {
                                barrier.wait();
                            }
                            Ok(())
                        });
                        let result: Result<(), String> = guarded(|| panic!("boom {i}"));
                        assert_eq!(result, Err(format!("typify panicked: boom {i}")));
                    }
                });
            }
        });
    }
}
