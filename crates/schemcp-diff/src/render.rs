//! Renderings of a report: pure functions so the command-line tool only picks one and prints it.

use std::fmt::Write as _;

use crate::{Change, Direction, Report, Severity};

fn side(c: &Change) -> &'static str {
    match c.direction {
        Some(Direction::Input) => "input",
        Some(Direction::Output) => "output",
        None => "tool",
    }
}

fn pointer(c: &Change) -> &str {
    c.new_pointer
        .as_deref()
        .or(c.old_pointer.as_deref())
        .unwrap_or("")
}

/// The pointer as shown to people: tool-level changes have none.
fn shown(c: &Change) -> &str {
    match pointer(c) {
        "" => "-",
        p => p,
    }
}

/// A pointer as inline code in Markdown; the tool-level placeholder stays plain.
fn code(p: &str) -> String {
    if p == "-" {
        p.to_string()
    } else {
        format!("`{}`", cell(p))
    }
}

fn headline(r: &Report) -> String {
    let (b, w, i) = r.counts();
    let ignored = r.changes.iter().filter(|c| c.ignored).count();
    let plural = |n: usize, s: &str| {
        if n == 1 {
            format!("{n} {s}")
        } else {
            format!("{n} {s}s")
        }
    };
    let mut s = format!("{} breaking, {}, {} info", b, plural(w, "warning"), i);
    if ignored > 0 {
        let _ = write!(s, ", {ignored} ignored");
    }
    s
}

fn semver_word(r: &Report) -> &'static str {
    match r.semver {
        crate::Semver::Major => "major",
        crate::Semver::Minor => "minor",
        crate::Semver::Patch => "patch",
        crate::Semver::None => "none",
    }
}

/// Plain text for a terminal; `color` adds ANSI colours to the severity labels.
///
/// ```
/// # use serde_json::json;
/// let t = |s: serde_json::Value| json!({"name": "t", "inputSchema": s}).as_object().unwrap().clone();
/// let r = schemcp_diff::diff_tools(&[t(json!({}))], &[t(json!({"type": "string"}))]);
/// let text = schemcp_diff::render_text(&r, false);
/// assert!(text.contains("BREAKING  t  input  /inputSchema/type  type-added"));
/// ```
pub fn render_text(r: &Report, color: bool) -> String {
    let mut s = format!(
        "contract diff: {} (suggested version bump: {})\n",
        headline(r),
        semver_word(r)
    );
    if r.changes.is_empty() {
        s.push_str("no changes\n");
        return s;
    }
    for c in &r.changes {
        let label = match c.severity {
            Severity::Breaking => "BREAKING",
            Severity::Warning => "WARNING ",
            Severity::Info => "INFO    ",
        };
        let label = if color && !c.ignored {
            let code = match c.severity {
                Severity::Breaking => "1;31",
                Severity::Warning => "33",
                Severity::Info => "36",
            };
            format!("\x1b[{code}m{label}\x1b[0m")
        } else {
            label.to_string()
        };
        let _ = writeln!(
            s,
            "\n{label}  {}  {}  {}  {}",
            c.tool,
            side(c),
            shown(c),
            c.rule
        );
        let _ = writeln!(s, "  {}", c.message);
        if let Some(x) = &c.counterexample {
            let _ = writeln!(s, "  counterexample: {x}");
        }
        if c.ignored {
            let _ = writeln!(s, "  ignored: {}", c.ignore_reason.as_deref().unwrap_or(""));
        }
        let _ = writeln!(s, "  fingerprint: {}", c.fingerprint);
    }
    s
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

const TABLE_ROWS: usize = 10;

/// Markdown for a pull-request comment: a headline with counts, a table (rows past the first
/// ten collapsed), then every breaking change with its counterexample.
///
/// ```
/// let md = schemcp_diff::render_markdown(&schemcp_diff::diff_tools(&[], &[]));
/// assert!(md.starts_with("## Contract diff: no changes"));
/// ```
pub fn render_markdown(r: &Report) -> String {
    if r.changes.is_empty() {
        return "## Contract diff: no changes\n".into();
    }
    let mut s = format!(
        "## Contract diff: {}\n\nSuggested version bump: **{}**.\n\n",
        headline(r),
        semver_word(r)
    );
    let header = "| Severity | Tool | Side | Rule | Where | Change |\n|---|---|---|---|---|---|\n";
    let row = |c: &Change| {
        let sev = if c.ignored {
            format!("~~{}~~ (ignored)", c.severity.as_str())
        } else {
            format!("**{}**", c.severity.as_str())
        };
        format!(
            "| {sev} | `{}` | {} | `{}` | {} | {} |\n",
            cell(&c.tool),
            side(c),
            c.rule,
            code(shown(c)),
            cell(&c.message)
        )
    };
    s.push_str(header);
    for c in r.changes.iter().take(TABLE_ROWS) {
        s.push_str(&row(c));
    }
    if r.changes.len() > TABLE_ROWS {
        let _ = write!(
            s,
            "\n<details><summary>{} more changes</summary>\n\n{header}",
            r.changes.len() - TABLE_ROWS
        );
        for c in r.changes.iter().skip(TABLE_ROWS) {
            s.push_str(&row(c));
        }
        s.push_str("\n</details>\n");
    }
    let breaking: Vec<&Change> = r
        .changes
        .iter()
        .filter(|c| c.severity == Severity::Breaking && !c.ignored)
        .collect();
    if !breaking.is_empty() {
        s.push_str("\n### Breaking changes\n");
        for c in breaking {
            let _ = write!(
                s,
                "\n#### `{}` {}: `{}` at {}\n\n{}\n",
                c.tool,
                side(c),
                c.rule,
                code(shown(c)),
                c.message
            );
            if let Some(x) = &c.counterexample {
                let who = match c.direction {
                    Some(Direction::Output) => {
                        "accepted by the new schema, rejected by the old (clients)"
                    }
                    _ => "accepted by the old schema, rejected by the new",
                };
                let pretty = serde_json::to_string_pretty(x).unwrap_or_default();
                let _ = write!(s, "\nCounterexample, {who}:\n\n```json\n{pretty}\n```\n");
            }
            let _ = write!(s, "\nFingerprint: `{}`\n", c.fingerprint);
        }
    }
    s
}

/// The report as pretty JSON, in the shape described by `schemas/diff_report.json` (`$defs/DiffReport`) at the repository root.
///
/// ```
/// let j = schemcp_diff::render_json(&schemcp_diff::diff_tools(&[], &[]));
/// assert_eq!(serde_json::from_str::<serde_json::Value>(&j).unwrap()["semver"], "none");
/// ```
pub fn render_json(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
    s.push('\n');
    s
}

fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn gh_prop(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow commands (`::error file=...,line=...::...`), one per change not
/// ignored. `locate(tool, pointer)` gives the file and 1-based line of a pointer.
///
/// ```
/// # use serde_json::json;
/// let t = |s: serde_json::Value| json!({"name": "t", "inputSchema": s}).as_object().unwrap().clone();
/// let r = schemcp_diff::diff_tools(&[t(json!({}))], &[t(json!({"type": "string"}))]);
/// let out = schemcp_diff::render_github(&r, |_, _| Some(("schemas/t.json".into(), 3)));
/// assert!(out.starts_with("::error file=schemas/t.json,line=3,title=type-added::t"));
/// ```
pub fn render_github(r: &Report, locate: impl Fn(&str, &str) -> Option<(String, usize)>) -> String {
    let mut s = String::new();
    for c in r.changes.iter().filter(|c| !c.ignored) {
        let level = match c.severity {
            Severity::Breaking => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = Vec::new();
        if let Some((file, line)) = locate(&c.tool, pointer(c)) {
            props.push(format!("file={}", gh_prop(&file)));
            props.push(format!("line={line}"));
        }
        props.push(format!("title={}", gh_prop(c.rule)));
        let mut msg = format!("{} ({}): {}", c.tool, side(c), c.message);
        if let Some(x) = &c.counterexample {
            let _ = write!(msg, "\ncounterexample: {x}");
        }
        let _ = writeln!(s, "::{level} {}::{}", props.join(","), gh_data(&msg));
    }
    s
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// JUnit XML: one test case per change; breaking changes fail, ignored ones are skipped.
///
/// ```
/// let x = schemcp_diff::render_junit(&schemcp_diff::diff_tools(&[], &[]));
/// assert!(x.contains(r#"<testsuite name="schemcp-diff" tests="0" failures="0""#));
/// ```
pub fn render_junit(r: &Report) -> String {
    let failures = r
        .changes
        .iter()
        .filter(|c| !c.ignored && c.severity == Severity::Breaking)
        .count();
    let skipped = r.changes.iter().filter(|c| c.ignored).count();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuite name=\"schemcp-diff\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        r.changes.len()
    );
    for c in &r.changes {
        let _ = write!(
            s,
            "  <testcase classname=\"{}.{}\" name=\"{} {}\">",
            xml(&c.tool),
            side(c),
            c.rule,
            xml(pointer(c))
        );
        if c.ignored {
            let _ = write!(
                s,
                "<skipped message=\"{}\"/>",
                xml(c.ignore_reason.as_deref().unwrap_or(""))
            );
        } else if c.severity == Severity::Breaking {
            let body = c
                .counterexample
                .as_ref()
                .map(|x| format!("counterexample: {x}"))
                .unwrap_or_default();
            let _ = write!(
                s,
                "<failure message=\"{}\" type=\"{}\">{}</failure>",
                xml(&c.message),
                c.rule,
                xml(&body)
            );
        } else {
            let _ = write!(
                s,
                "<system-out>{}: {}</system-out>",
                c.severity.as_str(),
                xml(&c.message)
            );
        }
        s.push_str("</testcase>\n");
    }
    s.push_str("</testsuite>\n");
    s
}
