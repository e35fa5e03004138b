//! What a tool hands back to the runtime before validation and shaping.

use rmcp::model::{ContentBlock, MetaObject};
use serde::Serialize;
use serde_json::Value;

use crate::ToolError;

/// A typed result plus what the type cannot carry: result `_meta` (seen by the application,
/// not the model) and extra content blocks such as images or resource links.
///
/// The value is still serialized, validated against the output schema and shaped exactly as a
/// bare value would be; the extra blocks are appended after the shaped text blocks and the
/// `_meta` is put on the `CallToolResult`.
///
/// ```
/// use rmcp::model::ContentBlock;
/// use schemcp_runtime::Output;
/// use serde_json::json;
///
/// let meta = json!({ "io.example/source": "station-12" });
/// let output = Output::new(17)
///     .with_meta(meta.as_object().unwrap().clone())
///     .with_content(ContentBlock::image("iVBORw0KGgo=", "image/png"));
/// assert_eq!(*output.value(), 17);
/// ```
#[derive(Debug, Clone)]
pub struct Output<T> {
    value: T,
    meta: Option<MetaObject>,
    content: Vec<ContentBlock>,
}

impl<T> Output<T> {
    /// Wraps the typed value, with no `_meta` and no extra blocks yet.
    ///
    /// ```
    /// let output = schemcp_runtime::Output::new("report".to_string());
    /// assert_eq!(output.value(), "report");
    /// ```
    pub fn new(value: T) -> Self {
        Output {
            value,
            meta: None,
            content: Vec::new(),
        }
    }

    /// Merges `meta` into the result's `_meta` (later keys win), taking either a
    /// `serde_json::Map` or an rmcp `MetaObject`.
    ///
    /// ```
    /// use rmcp::model::MetaObject;
    /// let mut meta = MetaObject::new();
    /// meta.0.insert("io.example/cached".into(), true.into());
    /// let output = schemcp_runtime::Output::new(1).with_meta(meta);
    /// assert_eq!(output.meta().unwrap().0["io.example/cached"], true);
    /// ```
    pub fn with_meta(mut self, meta: impl Into<MetaObject>) -> Self {
        let meta = meta.into();
        match &mut self.meta {
            Some(existing) => existing.0.extend(meta.0),
            None => self.meta = Some(meta),
        }
        self
    }

    /// Appends one content block after the blocks shaped from the value.
    ///
    /// ```
    /// use rmcp::model::ContentBlock;
    /// let output = schemcp_runtime::Output::new(1).with_content(ContentBlock::text("see chart"));
    /// assert_eq!(output.content().len(), 1);
    /// ```
    pub fn with_content(mut self, block: ContentBlock) -> Self {
        self.content.push(block);
        self
    }

    /// The typed value.
    ///
    /// ```
    /// assert_eq!(*schemcp_runtime::Output::new(3).value(), 3);
    /// ```
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The `_meta` set so far.
    ///
    /// ```
    /// assert!(schemcp_runtime::Output::new(3).meta().is_none());
    /// ```
    pub fn meta(&self) -> Option<&MetaObject> {
        self.meta.as_ref()
    }

    /// The extra blocks added so far.
    ///
    /// ```
    /// assert!(schemcp_runtime::Output::new(3).content().is_empty());
    /// ```
    pub fn content(&self) -> &[ContentBlock] {
        &self.content
    }

    /// The value, `_meta` and extra blocks, taken apart.
    ///
    /// ```
    /// let (value, meta, blocks) = schemcp_runtime::Output::new(3).into_parts();
    /// assert_eq!((value, meta, blocks.len()), (3, None, 0));
    /// ```
    pub fn into_parts(self) -> (T, Option<MetaObject>, Vec<ContentBlock>) {
        (self.value, self.meta, self.content)
    }
}

/// What generated dispatch code returns for one call: a structured value (for a tool with an
/// `outputSchema`) or text (for a text-only tool), plus optional `_meta` and extra blocks.
///
/// Generated code builds it with exactly one of the constructors below; the runtime checks it
/// against the tool's declaration, so a mismatch is reported instead of served.
///
/// ```
/// use schemcp_runtime::Returned;
///
/// let structured = Returned::structured(&vec![1, 2, 3]).unwrap();
/// assert_eq!(structured.as_value(), Some(&serde_json::json!([1, 2, 3])));
/// let text = Returned::text("London: 17 degrees".to_string());
/// assert_eq!(text.as_value(), None);
/// ```
#[derive(Debug, Clone)]
pub struct Returned {
    pub(crate) body: Body,
    pub(crate) meta: Option<MetaObject>,
    pub(crate) extra: Vec<ContentBlock>,
}

#[derive(Debug, Clone)]
pub(crate) enum Body {
    Structured(Value),
    Text(String),
}

impl Returned {
    /// A structured result: `value` serialized to JSON, later validated against the output
    /// schema. Fails only if serialization fails (a map with non-string keys, a failing
    /// `Serialize` impl).
    ///
    /// ```
    /// let returned = schemcp_runtime::Returned::structured(&17).unwrap();
    /// assert_eq!(returned.as_value(), Some(&serde_json::json!(17)));
    /// ```
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Result<Returned, ToolError> {
        let value = serde_json::to_value(value).map_err(|error| {
            // Once more, tracking where (on the failure path only), to name the member.
            let detail = match serde_path_to_error::serialize(value, serde_json::value::Serializer)
            {
                Err(located) => crate::located(located.path(), located.inner()),
                Ok(_) => error.to_string(),
            };
            ToolError::invalid_output(format!("could not be serialized to JSON: {detail}"))
        })?;
        Ok(Returned {
            body: Body::Structured(value),
            meta: None,
            extra: Vec::new(),
        })
    }

    /// A text-only result: one text block, no `structuredContent`.
    ///
    /// ```
    /// let returned = schemcp_runtime::Returned::text("sunny".to_string());
    /// assert_eq!(returned.as_text(), Some("sunny"));
    /// ```
    pub fn text(text: impl Into<String>) -> Returned {
        Returned {
            body: Body::Text(text.into()),
            meta: None,
            extra: Vec::new(),
        }
    }

    /// A structured result from an [`Output`], keeping its `_meta` and extra blocks.
    ///
    /// ```
    /// use schemcp_runtime::{Output, Returned};
    /// let returned = Returned::from_output(Output::new(vec!["a"])).unwrap();
    /// assert_eq!(returned.as_value(), Some(&serde_json::json!(["a"])));
    /// ```
    pub fn from_output<T: Serialize>(output: Output<T>) -> Result<Returned, ToolError> {
        let (value, meta, extra) = output.into_parts();
        let mut returned = Returned::structured(&value)?;
        returned.meta = meta;
        returned.extra = extra;
        Ok(returned)
    }

    /// A text-only result from an [`Output<String>`], keeping its `_meta` and extra blocks.
    /// Infallible: there is nothing to serialize.
    ///
    /// ```
    /// use schemcp_runtime::{Output, Returned};
    /// let returned = Returned::from_text_output(Output::new("done".to_string()));
    /// assert_eq!(returned.as_text(), Some("done"));
    /// ```
    pub fn from_text_output(output: Output<String>) -> Returned {
        let (text, meta, extra) = output.into_parts();
        Returned {
            body: Body::Text(text),
            meta,
            extra,
        }
    }

    /// The structured value, if this is a structured result.
    ///
    /// ```
    /// assert!(schemcp_runtime::Returned::text("x").as_value().is_none());
    /// ```
    pub fn as_value(&self) -> Option<&Value> {
        match &self.body {
            Body::Structured(value) => Some(value),
            Body::Text(_) => None,
        }
    }

    /// The text, if this is a text-only result.
    ///
    /// ```
    /// assert_eq!(schemcp_runtime::Returned::text("x").as_text(), Some("x"));
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match &self.body {
            Body::Text(text) => Some(text),
            Body::Structured(_) => None,
        }
    }
}
