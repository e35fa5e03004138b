//! `tools/call` answers over byte streams, with the text blocks written from the bytes of
//! `structuredContent` instead of from a `String` of their own.
//!
//! A structured result reaches the client twice: as `structuredContent` and as the text the
//! model reads (pretty JSON, one block per item of a list). Built as rmcp's `CallToolResult`
//! wants it, the text is a `String`: the value is printed once for it, and then rmcp prints
//! the value again for `structuredContent` and escapes the text into the answer. Numbers are
//! formatted twice and the text is copied twice; under pipelined load that was more than half
//! of what validation and shaping cost per call (perf on `examples/weather`, see
//! `docs/benchmarks.md`).
//!
//! Over byte streams the runtime writes these answers itself: the handler leaves a
//! placeholder block where the text goes ([`pending`]), and [`written_answer`] prints
//! `structuredContent` once, compact, then writes each text block by re-indenting those
//! bytes straight into the answer, escaped (a string item's text is its printed form as is).
//! The result is byte for byte what rmcp would have written for the result [`content_for`]
//! shapes (tests compare them), including the envelope (id, `resultType`, `isError`,
//! `_meta`), which rmcp still serializes. Over Streamable HTTP rmcp writes every message
//! itself, so the handler shapes the text as before.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem;

use rmcp::model::{Annotations, CallToolResult, ContentBlock, JsonRpcMessage, ServerResult};
use rmcp::service::{RoleServer, TxJsonRpcMessage};
use serde_json::Value;

use crate::server::content_for;

/// The placeholder's `priority`, outside the 0–1 range the protocol allows, so no block a
/// tool returns can be taken for it: the text of the whole `structuredContent`.
const TEXT_OF_VALUE: f32 = -1.0;
/// As [`TEXT_OF_VALUE`], for a value the legacy wrapping put under `result`.
const TEXT_OF_RESULT: f32 = -2.0;

/// The block a handler serving a byte stream puts first in `content` in place of the text
/// blocks of `structuredContent` (of its `result` member when `wrapped`).
pub(crate) fn pending(wrapped: bool) -> ContentBlock {
    let mut annotations = Annotations::default();
    annotations.priority = Some(if wrapped {
        TEXT_OF_RESULT
    } else {
        TEXT_OF_VALUE
    });
    ContentBlock::Text(rmcp::model::TextContent::new(String::new()).with_annotations(annotations))
}

/// Whether `block` is a [`pending`] placeholder, and if so whether it stands for the text of
/// the wrapped value.
fn placeholder(block: &ContentBlock) -> Option<bool> {
    let ContentBlock::Text(text) = block else {
        return None;
    };
    match text.annotations.as_ref()?.priority? {
        TEXT_OF_VALUE => Some(false),
        TEXT_OF_RESULT => Some(true),
        _ => None,
    }
}

/// The value whose text blocks the placeholder stands for.
fn text_source(structured: &Value, wrapped: bool) -> Option<&Value> {
    if wrapped {
        structured.as_object()?.get("result")
    } else {
        Some(structured)
    }
}

/// The whole answer line for `item` when it is a `tools/call` result with a placeholder;
/// `None` for every other message. A placeholder that cannot be written here (no
/// `structuredContent`, an envelope of another shape) is replaced by the text blocks
/// themselves, so rmcp's writer sends the same answer.
pub(crate) fn written_answer(item: &mut TxJsonRpcMessage<RoleServer>) -> Option<Vec<u8>> {
    let wrapped = placeholder(call_result(item)?.content.first()?)?;
    let line = write_line(item, wrapped);
    if line.is_none()
        && let Some(result) = call_result(item)
    {
        fill_in(result, wrapped);
    }
    line
}

/// Replaces the placeholder with the text blocks it stands for.
fn fill_in(result: &mut CallToolResult, wrapped: bool) {
    let blocks = result
        .structured_content
        .as_ref()
        .and_then(|structured| text_source(structured, wrapped))
        .map(content_for)
        .unwrap_or_default();
    result.content.splice(0..1, blocks);
}

fn write_line(item: &mut TxJsonRpcMessage<RoleServer>, wrapped: bool) -> Option<Vec<u8>> {
    let result = call_result(item)?;
    let structured = result.structured_content.take()?;
    let content = std::mem::take(&mut result.content);
    let line = SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let Scratch { envelope, printed } = &mut *scratch;
        envelope.clear();
        printed.clear();
        let line = compose(item, &content, &structured, wrapped, envelope, printed);
        envelope.shrink_to(KEEP_CAPACITY);
        printed.shrink_to(KEEP_CAPACITY);
        line
    });
    if line.is_none()
        && let Some(result) = call_result(item)
    {
        result.content = content;
        result.structured_content = Some(structured);
    }
    line
}

fn call_result(item: &mut TxJsonRpcMessage<RoleServer>) -> Option<&mut CallToolResult> {
    match item {
        JsonRpcMessage::Response(response) => match &mut response.result {
            ServerResult::CallToolResult(result) => Some(result),
            _ => None,
        },
        _ => None,
    }
}

/// Buffers reused from one answer to the next on a thread, so writing an answer allocates
/// only the line itself.
#[derive(Default)]
struct Scratch {
    envelope: Vec<u8>,
    printed: Vec<u8>,
}

/// A scratch buffer keeps at most this much capacity, so one large answer does not pin its
/// size for the rest of the session.
const KEEP_CAPACITY: usize = 64 << 10;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// The answer line for `item`, whose result has had `content` (the placeholder first) and
/// `structured` taken out.
fn compose(
    item: &TxJsonRpcMessage<RoleServer>,
    content: &[ContentBlock],
    structured: &Value,
    wrapped: bool,
    envelope: &mut Vec<u8>,
    printed: &mut Vec<u8>,
) -> Option<Vec<u8>> {
    const EMPTY_CONTENT: &[u8] = br#""content":[]"#;
    static FIND_CONTENT: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new(EMPTY_CONTENT));
    let source = text_source(structured, wrapped)?;
    // The envelope as rmcp writes it, with neither content nor `structuredContent`: rmcp
    // writes `content` and then `structuredContent`, so both go where `"content":[]` is.
    // A JSON string holds no unescaped `"`, so that text cannot come from inside the id.
    serde_json::to_writer(&mut *envelope, item).ok()?;
    let at = FIND_CONTENT.find(envelope)?;
    let spans = print_structured(printed, source, wrapped)?;

    let mut line = Vec::with_capacity(envelope.len() + printed.len() * 3 + 64);
    line.extend_from_slice(&envelope[..at]);
    line.extend_from_slice(br#""content":["#);
    write_text_blocks(&mut line, source, printed, &spans);
    for block in &content[1..] {
        separate(&mut line);
        serde_json::to_writer(&mut line, block).ok()?;
    }
    line.extend_from_slice(br#"],"structuredContent":"#);
    line.extend_from_slice(printed);
    line.extend_from_slice(&envelope[at + EMPTY_CONTENT.len()..]);
    line.push(b'\n');
    Some(line)
}

/// Where the text source's bytes are in the printed `structuredContent`: the whole source,
/// and each item when it is an array.
struct Spans {
    source: Range<usize>,
    items: Vec<Range<usize>>,
}

/// Prints `structuredContent` compact into `out`, exactly as `serde_json::to_vec` would:
/// `source`, under `{"result": ..}` when `wrapped`, noting where it and its items are.
fn print_structured(out: &mut Vec<u8>, source: &Value, wrapped: bool) -> Option<Spans> {
    if wrapped {
        // serde_json prints a one-member map as `{"key":value}`.
        out.extend_from_slice(br#"{"result":"#);
    }
    let start = out.len();
    let mut items = Vec::new();
    if let Value::Array(values) = source {
        out.push(b'[');
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let item_start = out.len();
            serde_json::to_writer(&mut *out, value).ok()?;
            items.push(item_start..out.len());
        }
        out.push(b']');
    } else {
        serde_json::to_writer(&mut *out, source).ok()?;
    }
    let source_span = start..out.len();
    if wrapped {
        out.push(b'}');
    }
    Some(Spans {
        source: source_span,
        items,
    })
}

/// Writes the text blocks [`content_for`] makes of `source`, each after a comma unless it is
/// the first in `content`.
fn write_text_blocks(out: &mut Vec<u8>, source: &Value, printed: &[u8], spans: &Spans) {
    let block = |out: &mut Vec<u8>, value: &Value, span: Range<usize>| {
        separate(out);
        out.extend_from_slice(br#"{"type":"text","text":"#);
        match value {
            // The text is the string itself, and its printed form is that string in JSON.
            Value::String(_) => out.extend_from_slice(&printed[span]),
            _ => {
                out.push(b'"');
                pretty_escaped(out, &printed[span]);
                out.push(b'"');
            }
        }
        out.push(b'}');
    };
    match source {
        Value::Null => {}
        Value::Array(items) => {
            for (value, span) in items.iter().zip(&spans.items) {
                block(out, value, span.clone());
            }
        }
        value => block(out, value, spans.source.clone()),
    }
}

/// Puts a comma before a block unless it is the first in `content`.
fn separate(line: &mut Vec<u8>) {
    if line.last() != Some(&b'[') {
        line.push(b',');
    }
}

/// Writes compact JSON `compact` re-indented as `serde_json::to_string_pretty` prints it,
/// escaped as the contents of a JSON string.
///
/// `compact` comes from serde_json, so it holds no whitespace and no raw control character:
/// inside its strings only `"` and `\` need escaping again, and the only control character
/// the pretty text adds is the newline, written `\n`.
fn pretty_escaped(out: &mut Vec<u8>, compact: &[u8]) {
    const INDENT: &[u8] = b"  ";
    fn newline(out: &mut Vec<u8>, depth: usize) {
        out.extend_from_slice(b"\\n");
        for _ in 0..depth {
            out.extend_from_slice(INDENT);
        }
    }
    out.reserve(compact.len() * 2);
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = compact.get(i) {
        match byte {
            b'"' => {
                // A string, up to its closing quote: runs copied, `"` and `\` escaped.
                out.extend_from_slice(b"\\\"");
                i += 1;
                loop {
                    let run = memchr::memchr2(b'"', b'\\', &compact[i..])
                        .map_or(compact.len(), |n| i + n);
                    out.extend_from_slice(&compact[i..run]);
                    i = run;
                    match compact.get(i) {
                        Some(b'"') => {
                            out.extend_from_slice(b"\\\"");
                            i += 1;
                            break;
                        }
                        Some(_) => {
                            // An escape: `\` and the character it escapes, both escaped again.
                            out.extend_from_slice(b"\\\\");
                            match compact.get(i + 1) {
                                Some(b'"') => out.extend_from_slice(b"\\\""),
                                Some(b'\\') => out.extend_from_slice(b"\\\\"),
                                Some(&other) => out.push(other),
                                None => {}
                            }
                            i += 2;
                        }
                        None => break,
                    }
                }
            }
            b'{' | b'[' => {
                let close = if byte == b'{' { b'}' } else { b']' };
                out.push(byte);
                if compact.get(i + 1) == Some(&close) {
                    out.push(close);
                    i += 2;
                } else {
                    depth += 1;
                    newline(out, depth);
                    i += 1;
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(out, depth);
                out.push(byte);
                i += 1;
            }
            b',' => {
                out.push(b',');
                newline(out, depth);
                i += 1;
            }
            b':' => {
                out.extend_from_slice(b": ");
                i += 1;
            }
            _ => {
                // A number or a literal, up to the next structural byte.
                let end = compact[i..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']'))
                    .map_or(compact.len(), |n| i + n);
                out.extend_from_slice(&compact[i..end]);
                i = end;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{MetaObject, RequestId, ServerJsonRpcMessage};
    use serde_json::json;

    use super::*;

    fn escaped_pretty(value: &Value) -> String {
        let mut out = Vec::new();
        pretty_escaped(&mut out, &serde_json::to_vec(value).unwrap());
        String::from_utf8(out).unwrap()
    }

    fn values() -> Vec<Value> {
        vec![
            json!(null),
            json!(true),
            json!(17),
            json!(-0.0),
            json!(16.2),
            json!(1e300),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(""),
            json!("plain"),
            json!("quote \" backslash \\ newline \n tab \t nul \u{0} del \u{7f} é 漢 😀 \u{2028}"),
            json!("\\\""),
            json!("ends with a backslash \\"),
            json!({}),
            json!([]),
            json!([[]]),
            json!({ "a": {} , "b": [], "c": [{}], "d": [[], {}] }),
            json!({ "temperature": 16.2, "humidity": 0.83, "conditions": "Overcast" }),
            json!({ "k:{},[]\"": "v:{},[]\"", "\\": { "\n": ["\"", "\\", 1, null] } }),
            json!(["x", 2, { "b": [1, { "c": [true, false, null] }] }, null, [], {}, ""]),
            json!([["nested", ["deeper", [1.5]]]]),
        ]
    }

    #[test]
    fn the_pretty_text_is_serde_jsons_escaped() {
        for value in values() {
            let pretty = serde_json::to_string_pretty(&value).unwrap();
            let expected = serde_json::to_string(&pretty).unwrap();
            assert_eq!(
                format!("\"{}\"", escaped_pretty(&value)),
                expected,
                "{value}"
            );
        }
    }

    /// What rmcp writes for `result` with its text blocks shaped in full.
    fn rmcp_line(id: RequestId, result: CallToolResult) -> String {
        let message = ServerJsonRpcMessage::response(ServerResult::CallToolResult(result), id);
        let mut line = serde_json::to_string(&message).unwrap();
        line.push('\n');
        line
    }

    fn result(content: Vec<ContentBlock>, structured: Value) -> CallToolResult {
        let mut result = CallToolResult::success(content);
        result.structured_content = Some(structured);
        result
    }

    fn ids() -> Vec<RequestId> {
        vec![
            RequestId::Number(7),
            RequestId::String("\"content\":[] and \\ ".into()),
        ]
    }

    #[test]
    fn the_written_answer_is_byte_for_byte_what_rmcp_writes() {
        let extra = ContentBlock::image("aGk=", "image/png");
        let meta: MetaObject = serde_json::from_value(json!({ "trace": "x\"y" })).unwrap();
        for value in values() {
            for wrapped in [false, true] {
                let structured = if wrapped {
                    json!({ "result": value.clone() })
                } else {
                    value.clone()
                };
                for extras in [vec![], vec![extra.clone()]] {
                    for with_meta in [false, true] {
                        for id in ids() {
                            let mut full = result(content_for(&value), structured.clone());
                            full.content.extend(extras.clone());
                            let mut deferred = result(vec![pending(wrapped)], structured.clone());
                            deferred.content.extend(extras.clone());
                            if with_meta {
                                full.meta = Some(meta.clone());
                                deferred.meta = Some(meta.clone());
                            }
                            let expected = rmcp_line(id.clone(), full);
                            let mut item = ServerJsonRpcMessage::response(
                                ServerResult::CallToolResult(deferred),
                                id,
                            );
                            let line = written_answer(&mut item).expect("written here");
                            assert_eq!(String::from_utf8(line).unwrap(), expected);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_result_type_of_a_2026_07_28_answer_is_kept() {
        let value = json!({ "a": 1 });
        let mut full = result(content_for(&value), value.clone());
        let mut deferred = result(vec![pending(false)], value);
        assert!(full.result_type.is_some(), "rmcp's constructors set it");
        let expected = rmcp_line(RequestId::Number(1), full.clone());
        let mut item = ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(deferred.clone()),
            RequestId::Number(1),
        );
        assert_eq!(
            String::from_utf8(written_answer(&mut item).unwrap()).unwrap(),
            expected
        );
        full.result_type = None;
        deferred.result_type = None;
        let expected = rmcp_line(RequestId::Number(1), full);
        let mut item = ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(deferred),
            RequestId::Number(1),
        );
        assert_eq!(
            String::from_utf8(written_answer(&mut item).unwrap()).unwrap(),
            expected
        );
    }

    #[test]
    fn other_answers_are_left_to_rmcp() {
        let plain = result(vec![ContentBlock::text("hi")], json!({ "a": 1 }));
        let mut item = ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(plain.clone()),
            RequestId::Number(1),
        );
        assert!(written_answer(&mut item).is_none());
        let mut annotated = Annotations::default();
        annotated.priority = Some(0.5);
        let mut item = ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(result(
                vec![ContentBlock::Text(
                    rmcp::model::TextContent::new("").with_annotations(annotated),
                )],
                json!(1),
            )),
            RequestId::Number(1),
        );
        assert!(written_answer(&mut item).is_none());
        let mut pong =
            ServerJsonRpcMessage::response(ServerResult::empty(()), RequestId::Number(1));
        assert!(written_answer(&mut pong).is_none());
    }

    #[test]
    fn a_placeholder_that_cannot_be_written_here_is_filled_in_for_rmcp() {
        // The legacy wrapping always puts the value under `result`; were it missing, the
        // answer still carries text, never the placeholder.
        let mut item = ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(result(vec![pending(true)], json!({ "other": 1 }))),
            RequestId::Number(1),
        );
        assert!(written_answer(&mut item).is_none());
        let JsonRpcMessage::Response(response) = &item else {
            unreachable!()
        };
        let ServerResult::CallToolResult(result) = &response.result else {
            unreachable!()
        };
        assert!(result.content.is_empty(), "{:?}", result.content);
        assert_eq!(result.structured_content, Some(json!({ "other": 1 })));
    }
}
