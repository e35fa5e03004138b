//! Direction-aware breaking-change detection for MCP tool contracts.
//!
//! Clients produce a tool's input and the server consumes it, so narrowing an input breaks
//! clients; the server produces the output and clients consume it, so widening an output breaks
//! clients. Every schema change is classified by its [`Effect`] on the set of accepted values,
//! and the [`Severity`] follows from the effect and the [`Direction`]. Breaking changes carry a
//! counterexample that has been checked against both full schemas.
//!
//! ```
//! use serde_json::json;
//! let old = json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "integer"}});
//! let new = json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "number"}});
//! let report = schemcp_diff::diff_tools(
//!     &[old.as_object().unwrap().clone()],
//!     &[new.as_object().unwrap().clone()],
//! );
//! assert_eq!(report.changes[0].rule, "type-widened");
//! assert_eq!(report.semver, schemcp_diff::Semver::Major);
//! ```

#![warn(missing_docs)]

mod engine;
mod generate;
mod render;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use render::{render_github, render_json, render_junit, render_markdown, render_text};

/// Which side of a tool a schema change is on.
///
/// ```
/// assert_eq!(serde_json::to_string(&schemcp_diff::Direction::Input).unwrap(), "\"input\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    /// The `inputSchema`: produced by clients, consumed by the server.
    Input,
    /// The `outputSchema`: produced by the server, consumed by clients.
    Output,
}

/// What a change does to the set of values a schema accepts.
///
/// ```
/// use schemcp_diff::{Direction, Effect, Severity};
/// assert_eq!(Effect::Narrows.severity(Some(Direction::Input)), Severity::Breaking);
/// assert_eq!(Effect::Narrows.severity(Some(Direction::Output)), Severity::Info);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Effect {
    /// Accepts everything it accepted before, and more.
    Widens,
    /// Accepts a subset of what it accepted before.
    Narrows,
    /// Both: some values are gained and some lost.
    Changes,
    /// No effect on validation (documentation, annotations, tool-level facts).
    None,
}

impl Effect {
    /// The severity of a schema change with this effect on the given side.
    ///
    /// ```
    /// use schemcp_diff::{Direction, Effect, Severity};
    /// assert_eq!(Effect::Widens.severity(Some(Direction::Output)), Severity::Breaking);
    /// assert_eq!(Effect::Changes.severity(Some(Direction::Input)), Severity::Breaking);
    /// ```
    pub fn severity(self, direction: Option<Direction>) -> Severity {
        match (self, direction) {
            (Effect::Changes, _) => Severity::Breaking,
            (Effect::Narrows, Some(Direction::Input)) => Severity::Breaking,
            (Effect::Widens, Some(Direction::Output)) => Severity::Breaking,
            _ => Severity::Info,
        }
    }

    pub(crate) fn flip(self) -> Effect {
        match self {
            Effect::Widens => Effect::Narrows,
            Effect::Narrows => Effect::Widens,
            other => other,
        }
    }

    pub(crate) fn combine(self, other: Effect) -> Effect {
        match (self, other) {
            (Effect::None, e) | (e, Effect::None) => e,
            (a, b) if a == b => a,
            _ => Effect::Changes,
        }
    }
}

/// How bad a change is. Ordered most severe first, which is the report's sort order.
///
/// ```
/// assert!(schemcp_diff::Severity::Breaking < schemcp_diff::Severity::Info);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Severity {
    /// Some existing client or server stops working.
    Breaking,
    /// Behaviour may change; a human should look.
    Warning,
    /// Safe.
    Info,
}

impl Severity {
    /// The lower-case name used in renderings.
    ///
    /// ```
    /// assert_eq!(schemcp_diff::Severity::Warning.as_str(), "warning");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Breaking => "breaking",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// The version bump a contract set change calls for.
///
/// ```
/// assert!(schemcp_diff::Semver::Major > schemcp_diff::Semver::Minor);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Semver {
    /// Nothing changed.
    None,
    /// Documentation-only changes.
    Patch,
    /// Backwards-compatible additions.
    Minor,
    /// Something breaks.
    Major,
}

/// One classified difference.
///
/// ```
/// # use serde_json::json;
/// let t = |s: serde_json::Value| json!({"name": "t", "inputSchema": s}).as_object().unwrap().clone();
/// let r = schemcp_diff::diff_tools(&[t(json!({"type": "object"}))],
///     &[t(json!({"type": "object", "required": ["a"]}))]);
/// let c = &r.changes[0];
/// assert_eq!((c.rule, c.new_pointer.as_deref()), ("required-added", Some("/inputSchema/required/0")));
/// assert_eq!(c.counterexample, Some(json!({})));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// Stable kebab-case rule id.
    pub rule: &'static str,
    /// The tool's name.
    pub tool: String,
    /// The side; `None` for tool-level changes.
    pub direction: Option<Direction>,
    /// JSON pointer into the old Tool object.
    pub old_pointer: Option<String>,
    /// JSON pointer into the new Tool object.
    pub new_pointer: Option<String>,
    /// What the change does to the accepted values.
    pub effect: Effect,
    /// How bad it is.
    pub severity: Severity,
    /// One line for people.
    pub message: String,
    /// For a breaking schema change: the whole input (accepted before, rejected now) or the
    /// whole output (accepted now, rejected before), checked against both schemas.
    pub counterexample: Option<Value>,
    /// Stable hex hash of rule, tool, direction and pointer; used by [`Ignores`].
    pub fingerprint: String,
    /// Marked by an [`Ignores`] entry: kept in the report, not counted for exit codes.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ignored: bool,
    /// The reason given in the ignore entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_reason: Option<String>,
}

/// The result of comparing two contract sets.
///
/// ```
/// let r = schemcp_diff::diff_tools(&[], &[]);
/// assert!(r.changes.is_empty());
/// assert_eq!((r.semver, r.exit_code(schemcp_diff::Severity::Breaking)), (schemcp_diff::Semver::None, 0));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Sorted by severity, tool, direction, pointer, rule.
    pub changes: Vec<Change>,
    /// The suggested version bump.
    pub semver: Semver,
}

impl Report {
    /// 1 when a change that is not ignored is at least as severe as `fail_on`, else 0.
    ///
    /// ```
    /// # use serde_json::json;
    /// let t = |s: serde_json::Value| json!({"name": "t", "inputSchema": s}).as_object().unwrap().clone();
    /// let r = schemcp_diff::diff_tools(&[t(json!({}))], &[t(json!({"type": "string"}))]);
    /// assert_eq!(r.exit_code(schemcp_diff::Severity::Breaking), 1);
    /// ```
    pub fn exit_code(&self, fail_on: Severity) -> i32 {
        i32::from(
            self.changes
                .iter()
                .any(|c| !c.ignored && c.severity <= fail_on),
        )
    }

    /// How many changes of each severity are not ignored: (breaking, warning, info).
    ///
    /// ```
    /// assert_eq!(schemcp_diff::diff_tools(&[], &[]).counts(), (0, 0, 0));
    /// ```
    pub fn counts(&self) -> (usize, usize, usize) {
        let n = |s| {
            self.changes
                .iter()
                .filter(|c| !c.ignored && c.severity == s)
                .count()
        };
        (
            n(Severity::Breaking),
            n(Severity::Warning),
            n(Severity::Info),
        )
    }

    /// Marks the changes whose fingerprint is in `ignores`.
    ///
    /// ```
    /// # use serde_json::json;
    /// let t = |s: serde_json::Value| json!({"name": "t", "inputSchema": s}).as_object().unwrap().clone();
    /// let mut r = schemcp_diff::diff_tools(&[t(json!({}))], &[t(json!({"type": "string"}))]);
    /// let fp = r.changes[0].fingerprint.clone();
    /// let ig = schemcp_diff::Ignores::parse(&format!(r#"[{{"fingerprint":"{fp}","reason":"agreed"}}]"#)).unwrap();
    /// r.apply_ignores(&ig);
    /// assert!(r.changes[0].ignored);
    /// assert_eq!(r.exit_code(schemcp_diff::Severity::Breaking), 0);
    /// ```
    pub fn apply_ignores(&mut self, ignores: &Ignores) {
        for c in &mut self.changes {
            if let Some(i) = ignores
                .entries
                .iter()
                .find(|i| i.fingerprint == c.fingerprint)
            {
                c.ignored = true;
                c.ignore_reason = Some(i.reason.clone());
            }
        }
    }
}

/// One accepted change.
///
/// ```
/// let e = schemcp_diff::Ignore { fingerprint: "ab".into(), reason: "r".into() };
/// assert_eq!(e.reason, "r");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ignore {
    /// The change's [`Change::fingerprint`].
    pub fingerprint: String,
    /// Why it is acceptable; required so that every exception is explained.
    pub reason: String,
}

/// An ignore list: a JSON array of `{"fingerprint": "...", "reason": "..."}`.
///
/// ```
/// assert!(schemcp_diff::Ignores::parse(r#"[{"fingerprint":"ab"}]"#).is_err());
/// assert_eq!(schemcp_diff::Ignores::parse("[]").unwrap().entries.len(), 0);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ignores {
    /// The entries, in file order.
    pub entries: Vec<Ignore>,
}

/// Why an ignore list was refused.
///
/// ```
/// let e = schemcp_diff::Ignores::parse("{}").unwrap_err();
/// assert!(e.to_string().contains("array"));
/// ```
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IgnoreError {
    /// Not JSON.
    #[error("ignore list is not JSON: {0}")]
    Json(String),
    /// Not an array of objects.
    #[error("ignore list must be a JSON array of {{\"fingerprint\", \"reason\"}} objects")]
    Shape,
    /// An entry without a usable fingerprint.
    #[error("ignore entry {0} has no \"fingerprint\" string")]
    Fingerprint(usize),
    /// An entry without a reason.
    #[error("ignore entry {0} ({1}) has no non-empty \"reason\"")]
    Reason(usize, String),
}

impl Ignores {
    /// Parses an ignore list.
    ///
    /// ```
    /// let i = schemcp_diff::Ignores::parse(r#"[{"fingerprint":"ab","reason":"ok"}]"#).unwrap();
    /// assert_eq!(i.entries[0].fingerprint, "ab");
    /// ```
    pub fn parse(text: &str) -> Result<Ignores, IgnoreError> {
        let v: Value = serde_json::from_str(text).map_err(|e| IgnoreError::Json(e.to_string()))?;
        let arr = v.as_array().ok_or(IgnoreError::Shape)?;
        let mut entries = Vec::new();
        for (i, e) in arr.iter().enumerate() {
            let o = e.as_object().ok_or(IgnoreError::Shape)?;
            let fp = o
                .get("fingerprint")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .ok_or(IgnoreError::Fingerprint(i))?;
            let reason = o
                .get("reason")
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .ok_or_else(|| IgnoreError::Reason(i, fp.to_string()))?;
            entries.push(Ignore {
                fingerprint: fp.into(),
                reason: reason.into(),
            });
        }
        Ok(Ignores { entries })
    }
}

/// Compares two loaded contract sets.
///
/// ```
/// use std::path::Path;
/// let load = |s: &str| schemcp_contract::load_sources(Path::new("s"), vec![("a.json".into(), s.into())]).unwrap();
/// let old = load(r#"{"inputSchema":{"type":"object"}}"#);
/// let new = load(r#"{"inputSchema":{"type":"object","additionalProperties":false}}"#);
/// let r = schemcp_diff::diff(&old, &new);
/// assert_eq!(r.changes[0].rule, "additional-properties-removed");
/// ```
pub fn diff(old: &schemcp_contract::ContractSet, new: &schemcp_contract::ContractSet) -> Report {
    let o: Vec<_> = old.tools.iter().map(|t| t.tool.clone()).collect();
    let n: Vec<_> = new.tools.iter().map(|t| t.tool.clone()).collect();
    diff_tools(&o, &n)
}

/// A `locate` function for [`render_github`]: finds a tool's pointer in the new contract set,
/// else in the old one (for what was removed), as a file path and 1-based line.
///
/// ```
/// use std::path::Path;
/// let load = |s: &str| schemcp_contract::load_sources(Path::new("s"), vec![("a.json".into(), s.into())]).unwrap();
/// let old = load(r#"{"inputSchema": {"type": "object"}}"#);
/// let new = load("{\n  \"inputSchema\": {\n    \"type\": \"object\",\n    \"required\": [\"a\"]\n  }\n}");
/// let at = schemcp_diff::locator(&old, &new);
/// assert_eq!(at("a", "/inputSchema/required"), Some(("s/a.json".into(), 4)));
/// ```
pub fn locator<'a>(
    old: &'a schemcp_contract::ContractSet,
    new: &'a schemcp_contract::ContractSet,
) -> impl Fn(&str, &str) -> Option<(String, usize)> + 'a {
    move |tool, pointer| {
        [new, old].into_iter().find_map(|set| {
            let t = set.tool(tool)?;
            let loc = t.locate(pointer).or_else(|| t.locate(""))?;
            Some((t.file.display().to_string(), loc.line))
        })
    }
}

/// Compares two lists of raw MCP Tool objects (schemas already self-contained).
///
/// ```
/// # use serde_json::json;
/// let t = json!({"name": "a", "inputSchema": {"type": "object"}}).as_object().unwrap().clone();
/// let r = schemcp_diff::diff_tools(&[t], &[]);
/// assert_eq!(r.changes[0].rule, "tool-removed");
/// ```
pub fn diff_tools(old: &[Map<String, Value>], new: &[Map<String, Value>]) -> Report {
    let mut changes = engine::diff_tools(&one_resource(old), &one_resource(new));
    changes.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    changes.dedup_by(|a, b| sort_key(a) == sort_key(b) && a.message == b.message);
    let semver = semver_of(&changes);
    Report { changes, semver }
}

/// `tools` with every schema that embeds resources (`$id` below its root) read as one
/// resource, its references written from the root (see
/// [`inline_resources`](schemcp_contract::resources::inline_resources)): the engine follows
/// local references, which inside an embedded resource read that resource. Nothing moves, so
/// every pointer still names the place in the schema as written.
fn one_resource(tools: &[Map<String, Value>]) -> Vec<Map<String, Value>> {
    tools
        .iter()
        .map(|tool| {
            let mut tool = tool.clone();
            for key in ["inputSchema", "outputSchema"] {
                if let Some(Value::Object(schema)) = tool.get(key) {
                    let read = schemcp_contract::resources::inline_resources(schema);
                    if let std::borrow::Cow::Owned(read) = read {
                        tool.insert(key.into(), Value::Object(read));
                    }
                }
            }
            tool
        })
        .collect()
}

fn sort_key(c: &Change) -> (Severity, &str, Option<Direction>, &str, &str, &str) {
    let p = c
        .new_pointer
        .as_deref()
        .or(c.old_pointer.as_deref())
        .unwrap_or("");
    (
        c.severity,
        &c.tool,
        c.direction,
        p,
        c.rule,
        c.old_pointer.as_deref().unwrap_or(""),
    )
}

fn semver_of(changes: &[Change]) -> Semver {
    let mut s = Semver::None;
    for c in changes {
        let this = match c.severity {
            Severity::Breaking => Semver::Major,
            // A warning is a behaviour change a person must judge; not an addition.
            Severity::Warning => Semver::Patch,
            Severity::Info => {
                let addition = c.rule == "tool-added"
                    || c.rule == "output-schema-added"
                    || (c.direction == Some(Direction::Input) && c.effect == Effect::Widens)
                    || (c.direction == Some(Direction::Output) && c.effect == Effect::Narrows);
                if addition {
                    Semver::Minor
                } else {
                    Semver::Patch
                }
            }
        };
        s = s.max(this);
    }
    s
}

/// A stable 64-bit FNV-1a hash, as 16 hex digits.
pub(crate) fn fingerprint(
    rule: &str,
    tool: &str,
    direction: Option<Direction>,
    pointer: &str,
) -> String {
    let dir = match direction {
        Some(Direction::Input) => "input",
        Some(Direction::Output) => "output",
        None => "tool",
    };
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [rule, tool, dir, pointer] {
        for b in part.bytes().chain(std::iter::once(0u8)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}
