//! Diagnostics for schema authors, rendered like rustc's.

use std::fmt;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};

use crate::locate::{Location, locate, locate_key};

/// How bad a [`Diagnostic`] is.
///
/// ```
/// use schemcp_contract::Severity;
/// assert_eq!(Severity::Error.to_string(), "error");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The contract set cannot be used.
    Error,
    /// Worth fixing; the contract set still loads.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One finding about one place in one contract file.
///
/// ```
/// let err = schemcp_contract::load_sources(
///     std::path::Path::new("schemas"),
///     vec![("t.json".into(), r#"{ "inputSchema": { "type": "array" } }"#.into())],
/// )
/// .unwrap_err();
/// let d = &err.0[0];
/// assert_eq!(d.code, "input-root-not-object");
/// assert_eq!(
///     d.one_line(),
///     "schemas/t.json:1:28: error[input-root-not-object]: `inputSchema` must have `\"type\": \"object\"` at its root, found `\"array\"` (at /inputSchema/type)"
/// );
/// ```
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Stable kebab-case rule id, e.g. `dangling-ref`.
    pub code: &'static str,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The file, as `root.join(relative path)`.
    pub file: PathBuf,
    /// JSON pointer into the file (empty for the whole file).
    pub pointer: String,
    /// 1-based line, when the place could be found in the text.
    pub line: Option<usize>,
    /// 1-based column in characters, when the place could be found in the text.
    pub column: Option<usize>,
    /// How to fix it.
    pub help: Option<String>,
    /// The file's text, shared between the diagnostics of one file, for rendering.
    pub source: Option<Arc<str>>,
    /// Bytes of `source` that the diagnostic is about.
    pub span: Option<Range<usize>>,
    /// Text of the label under the span.
    pub label: Option<String>,
    named: Option<NamedSource<Arc<str>>>,
}

impl Diagnostic {
    /// A diagnostic with no position; add one with [`Diagnostic::at_value`] or friends.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let d = Diagnostic::new(Severity::Warning, "unknown-key", "unknown key `x`", "t.json");
    /// assert_eq!(d.one_line(), "t.json: warning[unknown-key]: unknown key `x`");
    /// ```
    pub fn new(
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
        file: impl Into<PathBuf>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            file: file.into(),
            pointer: String::new(),
            line: None,
            column: None,
            help: None,
            source: None,
            span: None,
            label: None,
            named: None,
        }
    }

    /// Sets `pointer` and points the span at the value it names in `source`.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let src: std::sync::Arc<str> = "{\"a\": 1}".into();
    /// let d = Diagnostic::new(Severity::Error, "x", "m", "t.json").at_value(&src, "/a");
    /// assert_eq!((d.line, d.column, d.span), (Some(1), Some(7), Some(6..7)));
    /// ```
    pub fn at_value(self, source: &Arc<str>, pointer: &str) -> Diagnostic {
        let location = locate(source, pointer);
        self.with_location(source, pointer, location)
    }

    /// Like [`Diagnostic::at_value`], but an object member's span is its key.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let src: std::sync::Arc<str> = "{\"a\": 1}".into();
    /// let d = Diagnostic::new(Severity::Error, "x", "m", "t.json").at_key(&src, "/a");
    /// assert_eq!(d.span, Some(1..4));
    /// ```
    pub fn at_key(self, source: &Arc<str>, pointer: &str) -> Diagnostic {
        let location = locate_key(source, pointer);
        self.with_location(source, pointer, location)
    }

    /// Points at the first character of the value `pointer` names: for a missing member, the
    /// opening brace of the object that should have it reads better than the whole object.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let src: std::sync::Arc<str> = "{\"a\": 1}".into();
    /// let d = Diagnostic::new(Severity::Error, "x", "m", "t.json").at_start(&src, "");
    /// assert_eq!(d.span, Some(0..1));
    /// ```
    pub fn at_start(self, source: &Arc<str>, pointer: &str) -> Diagnostic {
        let location = locate(source, pointer).map(|l| {
            let end = source[l.byte_range.start..]
                .chars()
                .next()
                .map_or(l.byte_range.start, |c| l.byte_range.start + c.len_utf8());
            Location {
                byte_range: l.byte_range.start..end,
                ..l
            }
        });
        self.with_location(source, pointer, location)
    }

    /// Sets the pointer and an explicit span (used where the text is not valid JSON).
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let src: std::sync::Arc<str> = "{\n,".into();
    /// let d = Diagnostic::new(Severity::Error, "invalid-json", "m", "t.json").at_span(&src, "", 2..3);
    /// assert_eq!((d.line, d.column), (Some(2), Some(1)));
    /// ```
    pub fn at_span(self, source: &Arc<str>, pointer: &str, span: Range<usize>) -> Diagnostic {
        let location = Some(Location::at(source, span));
        self.with_location(source, pointer, location)
    }

    fn with_location(
        mut self,
        source: &Arc<str>,
        pointer: &str,
        location: Option<Location>,
    ) -> Diagnostic {
        self.pointer = pointer.to_string();
        self.source = Some(source.clone());
        self.named = Some(NamedSource::new(
            self.file.display().to_string(),
            source.clone(),
        ));
        if let Some(location) = location {
            self.line = Some(location.line);
            self.column = Some(location.column);
            self.span = Some(location.byte_range);
        }
        self
    }

    /// Adds a help line.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let d = Diagnostic::new(Severity::Error, "x", "m", "t.json").with_help("do y");
    /// assert_eq!(d.help.as_deref(), Some("do y"));
    /// ```
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Sets the text of the label under the span.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let d = Diagnostic::new(Severity::Error, "x", "m", "t.json").with_label("here");
    /// assert_eq!(d.label.as_deref(), Some("here"));
    /// ```
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    /// True for [`Severity::Error`].
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// assert!(Diagnostic::new(Severity::Error, "x", "m", "t.json").is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: error[code]: message (at /json/pointer)`; the position and the pointer
    /// are left out when unknown or empty.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let src: std::sync::Arc<str> = "{\"a\": 1}".into();
    /// let d = Diagnostic::new(Severity::Error, "x", "bad", "t.json").at_value(&src, "/a");
    /// assert_eq!(d.one_line(), "t.json:1:7: error[x]: bad (at /a)");
    /// ```
    pub fn one_line(&self) -> String {
        let mut out = self.file.display().to_string();
        if let (Some(line), Some(column)) = (self.line, self.column) {
            out.push_str(&format!(":{line}:{column}"));
        }
        out.push_str(&format!(
            ": {}[{}]: {}",
            self.severity, self.code, self.message
        ));
        if !self.pointer.is_empty() {
            out.push_str(&format!(" (at {})", self.pointer));
        }
        out
    }

    /// The rustc-like rendering of this one diagnostic, with or without ANSI colour.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Severity};
    /// let d = Diagnostic::new(Severity::Error, "x", "bad", "t.json");
    /// assert!(d.render(false).contains("bad"));
    /// ```
    pub fn render(&self, color: bool) -> String {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        // A fixed width keeps the output identical on every terminal and in golden files.
        let handler = GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .with_links(false);
        let mut out = String::new();
        // A line too long to show (a schema written on one line) is left out, and the place
        // is said in words: miette would print the whole line, and panics past column 65,535.
        // Without a span (a pointer not found in the file) miette shows no place at all.
        let shown = if self.long_line() || self.span.is_none() {
            let mut bare = self.clone();
            let place = if self.span.is_none() {
                format!("at {}", self.place())
            } else {
                format!("at {} (the line is too long to show)", self.place())
            };
            bare.named = None;
            bare.span = None;
            bare.help = Some(match &self.help {
                Some(help) => format!("{help}\n{place}"),
                None => place,
            });
            std::borrow::Cow::Owned(bare)
        } else {
            std::borrow::Cow::Borrowed(self)
        };
        // Writing into a String cannot fail.
        let _ = handler.render_report(&mut out, shown.as_ref());
        out
    }

    /// Whether the source line the span starts on is longer than [`MAX_SHOWN_LINE`].
    fn long_line(&self) -> bool {
        let (Some(source), Some(span)) = (&self.source, &self.span) else {
            return false;
        };
        let start = span.start.min(source.len());
        let begins = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let ends = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        ends - begins > MAX_SHOWN_LINE
    }

    /// `file:line:col, /pointer`, what is known of them.
    fn place(&self) -> String {
        let mut out = self.file.display().to_string();
        if let (Some(line), Some(column)) = (self.line, self.column) {
            out.push_str(&format!(":{line}:{column}"));
        }
        if !self.pointer.is_empty() {
            out.push_str(&format!(", {}", self.pointer));
        }
        out
    }
}

/// The longest source line shown under a diagnostic, in bytes.
const MAX_SHOWN_LINE: usize = 2_000;

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'a>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.named.as_ref().map(|n| n as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.span.clone()?;
        self.named.as_ref()?;
        let label = self
            .label
            .clone()
            .or_else(|| (!self.pointer.is_empty()).then(|| format!("at {}", self.pointer)));
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(label, span),
        )))
    }
}

/// Every diagnostic from one load, errors and warnings, in file order.
///
/// ```
/// let err = schemcp_contract::load_sources(
///     std::path::Path::new(""),
///     vec![("t.json".into(), "{".into())],
/// )
/// .unwrap_err();
/// assert!(err.has_errors());
/// assert!(err.to_string().contains("invalid-json"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// All diagnostics rendered like rustc, one after another.
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Diagnostics, Severity};
    /// let ds = Diagnostics(vec![Diagnostic::new(Severity::Error, "x", "bad", "t.json")]);
    /// assert!(ds.render(false).contains("x"));
    /// ```
    pub fn render(&self, color: bool) -> String {
        self.0
            .iter()
            .map(|d| d.render(color))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// One line per diagnostic, see [`Diagnostic::one_line`].
    ///
    /// ```
    /// use schemcp_contract::{Diagnostic, Diagnostics, Severity};
    /// let ds = Diagnostics(vec![Diagnostic::new(Severity::Error, "x", "bad", "t.json")]);
    /// assert_eq!(ds.one_line(), "t.json: error[x]: bad\n");
    /// ```
    pub fn one_line(&self) -> String {
        self.0.iter().map(|d| d.one_line() + "\n").collect()
    }

    /// True if any diagnostic is an error.
    ///
    /// ```
    /// use schemcp_contract::Diagnostics;
    /// assert!(!Diagnostics::default().has_errors());
    /// ```
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// Iterates over the diagnostics.
    ///
    /// ```
    /// use schemcp_contract::Diagnostics;
    /// assert_eq!(Diagnostics::default().iter().count(), 0);
    /// ```
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostics {}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Orders diagnostics by file, then position, so output does not depend on check order.
pub(crate) fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        let key = |d: &Diagnostic| (d.file.clone(), d.span.as_ref().map(|s| s.start), d.code);
        key(a).cmp(&key(b))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_on_a_line_too_long_to_show_is_said_in_words() {
        // A schema written on one line: miette panicked past column 65,535.
        let padding = "x".repeat(70_000);
        let source: Arc<str> = format!("{{\"pad\": \"{padding}\", \"a\": 1}}").into();
        let d = Diagnostic::new(Severity::Error, "x", "bad", "t.json")
            .with_help("fix it")
            .at_value(&source, "/a");
        let out = d.render(false);
        assert!(out.contains("bad"), "{out}");
        assert!(
            out.contains("at t.json:1:70018, /a (the line is too long to show)"),
            "{out}"
        );
        assert!(out.len() < 1_000, "{out}");
        // A short line is shown as before.
        let source: Arc<str> = "{\"a\": 1}".into();
        let d = Diagnostic::new(Severity::Error, "x", "bad", "t.json").at_value(&source, "/a");
        assert!(d.render(false).contains("{\"a\": 1}"));
    }

    #[test]
    fn a_place_not_found_in_the_file_is_said_in_words() {
        // A pointer into a copy the generator made has no span in the file: the report
        // showed neither the file nor the pointer.
        let source: Arc<str> = "{\"a\": 1}".into();
        let d = Diagnostic::new(Severity::Error, "x", "bad", "t.json")
            .with_help("fix it")
            .at_value(&source, "/b/c");
        let out = d.render(false);
        assert!(
            out.contains("fix it\n") && out.contains("at t.json, /b/c"),
            "{out}"
        );
        let d = Diagnostic::new(Severity::Error, "x", "bad", "schemas");
        assert!(
            d.render(false).contains("at schemas"),
            "{}",
            d.render(false)
        );
    }
}
