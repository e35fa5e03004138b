//! `tools/list` over byte streams from bytes serialized once, not per request.
//!
//! rmcp's transport serializes every message it sends, so each `tools/list` answer re-encodes
//! the whole catalog: about a millisecond per 600 KiB, most of a large catalog's latency. The
//! catalog never changes while a server runs, so [`CachedList`] serializes each generation's
//! tool array once and, when an answer carries exactly that catalog, writes the envelope rmcp
//! would have written around those bytes. Any other message goes through rmcp unchanged.
//!
//! Both paths write to one stream: [`LineGate`] lets rmcp's writer hold the stream from the
//! first byte of a message to its flush, and the cached path takes the same lock for a whole
//! answer, so two messages never interleave on the wire.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use futures::future::Either;
use rmcp::model::{JsonRpcMessage, ServerResult, Tool};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Mutex, OwnedMutexGuard};

type Acquire<W> = Pin<Box<dyn Future<Output = OwnedMutexGuard<W>> + Send>>;

/// The write half as rmcp's transport sees it: each message is written and flushed while
/// holding the shared stream.
pub(crate) struct LineGate<W> {
    shared: Arc<Mutex<W>>,
    guard: Option<OwnedMutexGuard<W>>,
    acquiring: Option<Acquire<W>>,
}

impl<W: AsyncWrite + Unpin + Send + 'static> LineGate<W> {
    /// The gate and the shared stream the cached path writes to.
    pub(crate) fn new(write: W) -> (LineGate<W>, Arc<Mutex<W>>) {
        let shared = Arc::new(Mutex::new(write));
        let gate = LineGate {
            shared: shared.clone(),
            guard: None,
            acquiring: None,
        };
        (gate, shared)
    }

    fn poll_guard(&mut self, cx: &mut Context<'_>) -> Poll<&mut W> {
        if self.guard.is_none() {
            // Uncontended (the usual case): no allocation.
            if let Ok(guard) = self.shared.clone().try_lock_owned() {
                self.guard = Some(guard);
            } else {
                let shared = &self.shared;
                let acquiring = self
                    .acquiring
                    .get_or_insert_with(|| Box::pin(shared.clone().lock_owned()));
                let guard = ready!(acquiring.as_mut().poll(cx));
                self.acquiring = None;
                self.guard = Some(guard);
            }
        }
        Poll::Ready(self.guard.as_mut().expect("just acquired"))
    }

    /// Runs `op` on the stream, then lets go of it: the end of a message.
    fn poll_and_release(
        &mut self,
        cx: &mut Context<'_>,
        op: impl FnOnce(Pin<&mut W>, &mut Context<'_>) -> Poll<io::Result<()>>,
    ) -> Poll<io::Result<()>> {
        let write = ready!(self.poll_guard(cx));
        let result = ready!(op(Pin::new(write), cx));
        self.guard = None;
        Poll::Ready(result)
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> AsyncWrite for LineGate<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let write = ready!(self.get_mut().poll_guard(cx));
        Pin::new(write).poll_write(cx, buf)
    }

    // rmcp's writer flushes after every message: that is where the message ends.
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut()
            .poll_and_release(cx, |write, cx| write.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut()
            .poll_and_release(cx, |write, cx| write.poll_shutdown(cx))
    }
}

/// One generation's tool list and its JSON array, serialized once.
struct Serialized {
    tools: Arc<[Tool]>,
    json: Arc<[u8]>,
}

/// Wraps rmcp's byte-stream transport; answers carrying one of `lists` are written from the
/// cached bytes.
pub(crate) struct CachedList<T, W> {
    inner: T,
    write: Arc<Mutex<W>>,
    lists: Arc<[Serialized]>,
}

impl<T, W> CachedList<T, W> {
    /// `write` is the stream behind `inner`'s [`LineGate`]; `lists` the catalogs to cache.
    pub(crate) fn new(inner: T, write: Arc<Mutex<W>>, lists: &[Arc<[Tool]>]) -> Self {
        let lists = lists
            .iter()
            .filter_map(|tools| {
                let json = serde_json::to_vec(&**tools).ok()?;
                Some(Serialized {
                    tools: tools.clone(),
                    json: json.into(),
                })
            })
            .collect();
        CachedList {
            inner,
            write,
            lists,
        }
    }
}

/// The whole answer line for `item`, when it is a `tools/list` answer carrying exactly one of
/// `lists`: the envelope serialized as rmcp would (id, `resultType`, `ttlMs`, ... with an
/// empty `tools`), the cached array spliced in. `tools` is the last field of rmcp's
/// `ListToolsResult`, so the envelope ends with `"tools":[]}}`.
fn cached_answer(lists: &[Serialized], item: &mut TxJsonRpcMessage<RoleServer>) -> Option<Vec<u8>> {
    const EMPTY_TAIL: &[u8] = b"[]}}";
    let JsonRpcMessage::Response(response) = item else {
        return None;
    };
    let ServerResult::ListToolsResult(result) = &mut response.result else {
        return None;
    };
    let list = lists.iter().find(|list| *list.tools == *result.tools)?;
    let tools = std::mem::take(&mut result.tools);
    let envelope = serde_json::to_vec(&*item);
    if let JsonRpcMessage::Response(response) = item
        && let ServerResult::ListToolsResult(result) = &mut response.result
    {
        result.tools = tools;
    }
    let envelope = envelope.ok()?;
    if !envelope.ends_with(br#""tools":[]}}"#) {
        return None;
    }
    let head = &envelope[..envelope.len() - EMPTY_TAIL.len()];
    let mut line = Vec::with_capacity(head.len() + list.json.len() + 3);
    line.extend_from_slice(head);
    line.extend_from_slice(&list.json);
    line.extend_from_slice(b"}}\n");
    Some(line)
}

impl<T, W> Transport<RoleServer> for CachedList<T, W>
where
    T: Transport<RoleServer, Error = io::Error>,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        mut item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        match cached_answer(&self.lists, &mut item) {
            Some(line) => {
                let write = self.write.clone();
                Either::Left(async move {
                    let mut write = write.lock_owned().await;
                    write.write_all(&line).await?;
                    write.flush().await
                })
            }
            None => Either::Right(self.inner.send(item)),
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{ListToolsResult, RequestId, ServerJsonRpcMessage};
    use serde_json::json;

    use super::*;

    fn tools(n: usize) -> Arc<[Tool]> {
        (0..n)
            .map(|i| {
                serde_json::from_value(json!({
                    "name": format!("t{i}"),
                    "description": "line\none \"quoted\"",
                    "inputSchema": { "type": "object", "properties": { "a": { "type": "string" } } }
                }))
                .unwrap()
            })
            .collect()
    }

    fn answer(tools: &[Tool], ttl: Option<u64>) -> ServerJsonRpcMessage {
        let mut result = ListToolsResult::with_all_items(tools.to_vec());
        result.ttl_ms = ttl;
        ServerJsonRpcMessage::response(ServerResult::ListToolsResult(result), RequestId::Number(7))
    }

    #[test]
    fn the_cached_answer_is_byte_for_byte_what_rmcp_writes() {
        let catalog = tools(3);
        let lists = [Serialized {
            tools: catalog.clone(),
            json: serde_json::to_vec(&*catalog).unwrap().into(),
        }];
        for ttl in [None, Some(60_000)] {
            let mut item = answer(&catalog, ttl);
            let mut expected = serde_json::to_vec(&item).unwrap();
            expected.push(b'\n');
            let line = cached_answer(&lists, &mut item).expect("the catalog is cached");
            assert_eq!(
                String::from_utf8(line).unwrap(),
                String::from_utf8(expected).unwrap()
            );
            // The message is left as it was, for a fallback.
            assert_eq!(
                serde_json::to_value(&item).unwrap(),
                serde_json::to_value(answer(&catalog, ttl)).unwrap()
            );
        }
    }

    #[test]
    fn other_lists_and_messages_go_through_rmcp() {
        let catalog = tools(3);
        let lists = [Serialized {
            tools: catalog.clone(),
            json: serde_json::to_vec(&*catalog).unwrap().into(),
        }];
        assert!(cached_answer(&lists, &mut answer(&catalog[..2], None)).is_none());
        assert!(cached_answer(&lists, &mut answer(&tools(4), None)).is_none());
        let mut pong = ServerJsonRpcMessage::response(
            ServerResult::EmptyResult(().into()),
            RequestId::Number(1),
        );
        assert!(cached_answer(&lists, &mut pong).is_none());
    }
}
