//! The write side of a byte-stream session: whole messages queue up and one task writes them.
//!
//! rmcp's transport writes and flushes each message as it sends it: one `write` system call
//! per answer, made from rmcp's service loop. Under pipelined load that call was a quarter of
//! the server's CPU (perf, `examples/weather` under the bench driver). Here a send only
//! appends the finished message to a queue and wakes the writer task; the writer takes
//! everything queued since its last write and writes it in one call. With one call in flight
//! that is the same single write as before; with many, answers that finish together leave
//! together.
//!
//! Messages are appended whole, so the messages of rmcp's writer and of
//! [`OwnAnswers`](crate::cached_list::OwnAnswers) never interleave. The queue is bounded
//! (a send waits while more than [`HIGH_WATER`] bytes are waiting), so a client that stops
//! reading slows the server down instead of growing its memory. [`Outbox::finish`] returns
//! once every queued byte has been written.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// Bytes that may wait for the writer before a send waits too. A message larger than this
/// is still taken when nothing else waits.
const HIGH_WATER: usize = 4 << 20;

/// A writer buffer keeps at most this much capacity between writes, so one large answer
/// (a big `tools/list`) does not pin its size for the rest of the session.
const KEEP_CAPACITY: usize = 1 << 20;

#[derive(Default)]
struct State {
    queued: Vec<u8>,
    closed: bool,
    /// Set once a write failed; every later send fails with this kind.
    failed: Option<io::ErrorKind>,
    /// Senders waiting for the queue to shrink below [`HIGH_WATER`].
    waiting: Vec<Waker>,
}

struct Shared {
    state: Mutex<State>,
    wake_writer: Notify,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // The lock is never held across code that can panic, but a poisoned queue is still a
        // queue: keep serving rather than turning one bug into a dead session.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues `message` whole, or asks to be woken when there is room.
    fn poll_push(&self, cx: &mut Context<'_>, message: &mut Vec<u8>) -> Poll<io::Result<()>> {
        let mut state = self.lock();
        if let Some(kind) = state.failed {
            return Poll::Ready(Err(io::Error::new(kind, "the output stream failed")));
        }
        if state.closed {
            return Poll::Ready(Err(io::ErrorKind::NotConnected.into()));
        }
        if !state.queued.is_empty() && state.queued.len() + message.len() > HIGH_WATER {
            state.waiting.push(cx.waker().clone());
            return Poll::Pending;
        }
        if state.queued.is_empty() && state.queued.capacity() < message.capacity() {
            // Take the message's own buffer instead of copying it.
            std::mem::swap(&mut state.queued, message);
        } else {
            state.queued.append(message);
        }
        drop(state);
        self.wake_writer.notify_one();
        Poll::Ready(Ok(()))
    }
}

/// The queue's sending side; cheap to clone.
#[derive(Clone)]
pub(crate) struct Outbox {
    shared: Arc<Shared>,
}

/// The writer task of an [`Outbox`]; [`Outbox::finish`] waits for it.
pub(crate) struct Writer(JoinHandle<io::Result<()>>);

impl Outbox {
    /// Spawns the task that writes queued messages to `out`.
    pub(crate) fn spawn<W>(out: W) -> (Outbox, Writer)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake_writer: Notify::new(),
        });
        let task = tokio::spawn(write_queued(shared.clone(), out));
        (Outbox { shared }, Writer(task))
    }

    /// Queues one whole message (a line, newline included).
    pub(crate) async fn push(&self, mut message: Vec<u8>) -> io::Result<()> {
        std::future::poll_fn(|cx| self.shared.poll_push(cx, &mut message)).await
    }

    /// The [`AsyncWrite`] rmcp's transport writes through: bytes collect until its flush,
    /// which ends a message and queues it.
    pub(crate) fn writer(&self) -> MessageWriter {
        MessageWriter {
            outbox: self.clone(),
            message: Vec::new(),
        }
    }

    /// Stops taking messages and waits until everything queued has been written.
    pub(crate) async fn finish(self, writer: Writer) -> io::Result<()> {
        self.shared.lock().closed = true;
        self.shared.wake_writer.notify_one();
        match writer.0.await {
            Ok(result) => result,
            Err(join) => Err(io::Error::other(join)),
        }
    }
}

async fn write_queued<W: AsyncWrite + Unpin>(shared: Arc<Shared>, mut out: W) -> io::Result<()> {
    let mut batch = Vec::new();
    loop {
        let (closed, waiting) = {
            let mut state = shared.lock();
            std::mem::swap(&mut state.queued, &mut batch);
            (state.closed, std::mem::take(&mut state.waiting))
        };
        waiting.into_iter().for_each(Waker::wake);
        if batch.is_empty() {
            if closed {
                return out.flush().await;
            }
            shared.wake_writer.notified().await;
            continue;
        }
        let written = async {
            out.write_all(&batch).await?;
            out.flush().await
        }
        .await;
        if let Err(error) = written {
            let mut state = shared.lock();
            state.failed = Some(error.kind());
            state.queued = Vec::new();
            std::mem::take(&mut state.waiting)
                .into_iter()
                .for_each(Waker::wake);
            return Err(error);
        }
        batch.clear();
        batch.shrink_to(KEEP_CAPACITY);
    }
}

/// Collects one message's bytes from rmcp's framed writer; its flush queues them.
pub(crate) struct MessageWriter {
    outbox: Outbox,
    message: Vec<u8>,
}

impl AsyncWrite for MessageWriter {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().message.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    // rmcp's writer flushes after every message: that is where the message ends.
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.message.is_empty() {
            return Poll::Ready(Ok(()));
        }
        this.outbox.shared.poll_push(cx, &mut this.message)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_flush(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

    use super::*;

    #[tokio::test]
    async fn messages_arrive_whole_and_in_order_and_finish_drains_them() {
        let (client, server) = tokio::io::duplex(64);
        let (outbox, task) = Outbox::spawn(server);
        let reader = tokio::spawn(async move {
            let mut client = client;
            let mut all = String::new();
            client.read_to_string(&mut all).await.unwrap();
            all
        });
        let mut rmcp_side = outbox.writer();
        for i in 0..200 {
            if i % 3 == 0 {
                outbox
                    .push(format!("cached {i}\n").into_bytes())
                    .await
                    .unwrap();
            } else {
                // rmcp may hand over a message in pieces; only its flush ends it.
                rmcp_side.write_all(b"framed ").await.unwrap();
                rmcp_side
                    .write_all(format!("{i}\n").as_bytes())
                    .await
                    .unwrap();
                rmcp_side.flush().await.unwrap();
            }
        }
        outbox.finish(task).await.unwrap();
        let all = reader.await.unwrap();
        let lines: Vec<&str> = all.lines().collect();
        assert_eq!(lines.len(), 200);
        for (i, line) in lines.iter().enumerate() {
            let kind = if i % 3 == 0 { "cached" } else { "framed" };
            assert_eq!(*line, format!("{kind} {i}"));
        }
    }

    #[tokio::test]
    async fn a_reader_that_stops_reading_holds_senders_back() {
        let (client, server) = tokio::io::duplex(1024);
        let (outbox, task) = Outbox::spawn(server);
        let line = vec![b'x'; HIGH_WATER / 2];
        outbox.push(line.clone()).await.unwrap();
        outbox.push(line.clone()).await.unwrap();
        // The writer holds at most one batch; with nobody reading, the queue fills up.
        let full = tokio::time::timeout(std::time::Duration::from_millis(200), async {
            loop {
                outbox.push(line.clone()).await.unwrap();
            }
        })
        .await;
        assert!(full.is_err(), "a send waits once the queue is full");
        let queued = outbox.shared.lock().queued.len();
        assert!(queued <= HIGH_WATER, "queued {queued} bytes");
        drop(client);
        let error = outbox.finish(task).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }

    #[tokio::test]
    async fn after_a_failed_write_every_send_fails() {
        let (client, server) = tokio::io::duplex(16);
        drop(client);
        let (outbox, task) = Outbox::spawn(server);
        outbox.push(b"lost\n".to_vec()).await.unwrap();
        let error = loop {
            match outbox.push(b"next\n".to_vec()).await {
                Ok(()) => tokio::task::yield_now().await,
                Err(error) => break error,
            }
        };
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        assert!(outbox.finish(task).await.is_err());
    }
}
