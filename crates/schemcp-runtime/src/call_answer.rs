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
//! shapes (tests compare them), envelope included (id, `resultType`, `isError`, `_meta`).
//! Over Streamable HTTP rmcp writes every message itself, so the handler shapes the text as
//! before.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::LazyLock;

use rmcp::model::{
    Annotations, CallToolResult, ContentBlock, JsonRpcMessage, RequestId, ServerResult,
};
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
    // Built once per process: cloning one allocates nothing (its text is empty), where
    // building it with rmcp's `with_annotations` took about 3% of an answer in perf.
    static PENDING: LazyLock<[ContentBlock; 2]> = LazyLock::new(|| {
        [TEXT_OF_VALUE, TEXT_OF_RESULT].map(|priority| {
            let mut annotations = Annotations::default();
            annotations.priority = Some(priority);
            ContentBlock::Text(
                rmcp::model::TextContent::new(String::new()).with_annotations(annotations),
            )
        })
    });
    PENDING[usize::from(wrapped)].clone()
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

fn write_line(item: &TxJsonRpcMessage<RoleServer>, wrapped: bool) -> Option<Vec<u8>> {
    let JsonRpcMessage::Response(response) = item else {
        return None;
    };
    let ServerResult::CallToolResult(result) = &response.result else {
        return None;
    };
    let id = &response.id;
    SCRATCH.with(|printed| {
        let mut printed = printed.borrow_mut();
        printed.clear();
        let line = compose(id, result, wrapped, &mut printed);
        printed.shrink_to(KEEP_CAPACITY);
        line
    })
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

/// A scratch buffer keeps at most this much capacity, so one large answer does not pin its
/// size for the rest of the session.
const KEEP_CAPACITY: usize = 64 << 10;

thread_local! {
    /// The printed `structuredContent`, reused from one answer to the next on a thread, so
    /// writing an answer allocates only the line itself.
    static SCRATCH: RefCell<Vec<u8>> = RefCell::default();
}

/// The answer line for `result` (the placeholder first in its `content`) under `id`.
///
/// The envelope is written here rather than by serde: serializing rmcp's message for it took
/// about a sixth of a `get_weather` answer (perf on the `hot_path` benchmark), more than the
/// text block. It is laid out as rmcp's derived `Serialize` lays it out: the response's
/// `jsonrpc`, `id` and `result`, and the result's members in declaration order, each
/// optional one only when present. Tests compare the two byte for byte, every optional
/// member set and unset; rmcp's version is pinned, so a member a new version adds is met
/// there first.
fn compose(
    id: &RequestId,
    result: &CallToolResult,
    wrapped: bool,
    printed: &mut Vec<u8>,
) -> Option<Vec<u8>> {
    let structured = result.structured_content.as_ref()?;
    let source = text_source(structured, wrapped)?;
    let spans = print_structured(printed, source, wrapped)?;

    let mut line = Vec::with_capacity(printed.len() * 3 + 128);
    line.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    serde_json::to_writer(&mut line, id).ok()?;
    line.extend_from_slice(br#","result":{"#);
    if let Some(result_type) = &result.result_type {
        line.extend_from_slice(br#""resultType":"#);
        serde_json::to_writer(&mut line, result_type).ok()?;
        line.push(b',');
    }
    line.extend_from_slice(br#""content":["#);
    write_text_blocks(&mut line, source, printed, &spans);
    for block in &result.content[1..] {
        separate(&mut line);
        serde_json::to_writer(&mut line, block).ok()?;
    }
    line.extend_from_slice(br#"],"structuredContent":"#);
    line.extend_from_slice(printed);
    match result.is_error {
        Some(true) => line.extend_from_slice(br#","isError":true"#),
        Some(false) => line.extend_from_slice(br#","isError":false"#),
        None => {}
    }
    if let Some(meta) = &result.meta {
        line.extend_from_slice(br#","_meta":"#);
        serde_json::to_writer(&mut line, meta).ok()?;
    }
    line.extend_from_slice(b"}}\n");
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
                    let run = i + quote_or_backslash(&compact[i..]);
                    copy_run(out, compact, i..run);
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
                copy_run(out, compact, i..end);
                i = end;
            }
        }
    }
}

/// Appends `bytes[run]`. Most runs (member names, words, numbers) are short: a copy of a
/// fixed 16 bytes, the excess cut back, is written inline by the compiler, where a copy of
/// the run's own length is a call to `memcpy`.
fn copy_run(out: &mut Vec<u8>, bytes: &[u8], run: Range<usize>) {
    const CHUNK: usize = 16;
    match bytes.get(run.start..run.start + CHUNK) {
        Some(chunk) if run.len() <= CHUNK => {
            let len = out.len() + run.len();
            out.extend_from_slice(chunk);
            out.truncate(len);
        }
        _ => out.extend_from_slice(&bytes[run]),
    }
}

/// The position of the first `"` or `\\` in `bytes` (its length when there is none).
///
/// Most strings in a result are short (member names, words): eight bytes at a time in a
/// register find the end sooner than `memchr2`, whose setup costs more than such a string;
/// past the first 32 bytes `memchr2` takes over. Re-indenting the weather example's result
/// took 64 ns with `memchr2` alone and 46 ns with this and [`copy_run`] (a timing loop in a
/// release build, 2 million calls a round).
fn quote_or_backslash(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    /// The high bit of each byte of `word` equal to `byte` is set, and possibly of bytes
    /// above one that is: the lowest set bit is always a match.
    fn matching(word: u64, byte: u8) -> u64 {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x & HIGHS
    }
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let found = matching(word, b'"') | matching(word, b'\\');
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
        if at == 32 {
            return memchr::memchr2(b'"', b'\\', &bytes[at..]).map_or(bytes.len(), |n| at + n);
        }
    }
    bytes[at..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\')
        .map_or(bytes.len(), |n| at + n)
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
            // Runs longer than the bytes `quote_or_backslash` scans before `memchr2`.
            json!(format!("{}\"{}\\", "x".repeat(32), "y".repeat(40))),
            json!({ "k": format!("{}\"", "z".repeat(31)), "long": "w".repeat(100) }),
            json!({}),
            json!([]),
            json!([[]]),
            json!({ "a": {} , "b": [], "c": [{}], "d": [[], {}] }),
            json!({ "temperature": 16.2, "humidity": 0.83, "conditions": "Overcast" }),
            json!({ "k:{},[]\"": "v:{},[]\"", "\\": { "\n": ["\"", "\\", 1, null] } }),
            json!(["x", 2, { "b": [1, { "c": [true, false, null] }] }, null, [], {}, ""]),
            json!([["nested", ["deeper", [1.5]]]]),
            // Twenty levels deep, indented at each.
            (0..20).fold(json!({ "leaf": [1, "x"] }), |inner, depth| {
                if depth % 2 == 0 {
                    json!([inner, depth])
                } else {
                    json!({ "d": inner })
                }
            }),
        ]
    }

    #[test]
    fn quote_or_backslash_finds_the_first_of_either() {
        let naive = |bytes: &[u8]| {
            bytes
                .iter()
                .position(|&b| b == b'"' || b == b'\\')
                .unwrap_or(bytes.len())
        };
        // Every length around the eight-byte steps and the switch to `memchr2`, with each
        // of the two bytes (and both) at every position, among bytes one off from them and
        // bytes above 0x7f, which the word-at-a-time test must not take for either.
        for len in 0..48 {
            let filler: Vec<u8> = (0..len)
                .map(|i| [b'!', b'#', b'[', b']', 0x80, 0xa2, 0xdc, b'a'][i % 8])
                .collect();
            assert_eq!(quote_or_backslash(&filler), len);
            for at in 0..len {
                for found in [b'"', b'\\'] {
                    let mut bytes = filler.clone();
                    bytes[at] = found;
                    assert_eq!(quote_or_backslash(&bytes), at, "{bytes:?}");
                    for later in at + 1..len {
                        let mut both = bytes.clone();
                        both[later] = b'"' + b'\\' - found;
                        assert_eq!(quote_or_backslash(&both), naive(&both), "{both:?}");
                    }
                }
            }
        }
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
                    for (with_meta, is_error) in [
                        (false, Some(false)),
                        (true, Some(false)),
                        (false, Some(true)),
                        (true, None),
                    ] {
                        for id in ids() {
                            let mut full = result(content_for(&value), structured.clone());
                            full.content.extend(extras.clone());
                            let mut deferred = result(vec![pending(wrapped)], structured.clone());
                            deferred.content.extend(extras.clone());
                            if with_meta {
                                full.meta = Some(meta.clone());
                                deferred.meta = Some(meta.clone());
                            }
                            full.is_error = is_error;
                            deferred.is_error = is_error;
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
