//! No response is lost: 20,000 pipelined calls, then stdin closes, and every call is answered
//! before the process exits.

mod support;

use std::io::Write;

use serde_json::json;
use support::{Generation, StdioSession};

#[test]
fn every_pipelined_call_is_answered_after_stdin_closes() {
    const CALLS: u64 = 20_000;
    let mut session = StdioSession::start(env!("CARGO_BIN_EXE_weather"), &[], Generation::Legacy);
    let mut batch = String::new();
    for id in 0..CALLS {
        let call = json!({
            "jsonrpc": "2.0", "id": 1_000 + id, "method": "tools/call",
            "params": { "name": "get_weather", "arguments": { "city": "London" } }
        });
        batch.push_str(&call.to_string());
        batch.push('\n');
    }
    // One write, then EOF: the server must drain everything it has read.
    session.stdin().write_all(batch.as_bytes()).unwrap();
    let (responses, status) = session.close_and_drain();
    let mut ids: Vec<u64> = responses.iter().filter_map(|r| r["id"].as_u64()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len() as u64, CALLS, "answered {} of {CALLS}", ids.len());
    assert!(
        responses
            .iter()
            .all(|r| r["result"]["structuredContent"]["humidity"] == 0.83)
    );
    assert!(status.success(), "exit status {status}");
}
