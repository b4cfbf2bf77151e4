//! Purge broadcast: every purge an operator sends to this edge is pushed to every peer
//! edge's admin listener, in log order, retrying until the peer takes it. A peer that was
//! down gets everything it missed when it is back (as long as the log still holds it).
//!
//! Staged successors (`POST /stage`) reach the peers the same way, each staging call pushed
//! as it came ([`forward_staging`]), retried until the peer takes it or refuses it, for up to
//! [`STAGING_RETRY_FOR`] after its boundary: a peer down across a boundary applies the
//! successor at once when it gets it.

use crate::State;
use async_trait::async_trait;
use pingora::server::ShutdownWatch;
use pingora::services::background::BackgroundService;
use std::sync::LazyLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The header carrying when the first edge took a staging (Unix ms), on pushes to peers.
pub const STAGED_AT_HEADER: &str = "x-edge-staged-at";

/// How long after its boundary a staging is still pushed to a peer that has not taken it.
pub const STAGING_RETRY_FOR: Duration = Duration::from_secs(600);

static STAGING_CLIENT: LazyLock<Option<reqwest::Client>> = LazyLock::new(|| {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .ok()
});

/// Push one staging call's body (as this edge received it at `staged_at_ms`) to every peer,
/// each in its own task, retrying every half second until the peer answers 2xx or 4xx, or
/// until [`STAGING_RETRY_FOR`] after the boundary `at_ms`. The peer leaves out what a purge
/// after `staged_at_ms` covers, whichever of the two reaches it first.
pub fn forward_staging(state: &'static State, body: bytes::Bytes, at_ms: u64, staged_at_ms: u64) {
    let Some(client) = STAGING_CLIENT.as_ref() else {
        tracing::error!("cannot build the peer HTTP client; staging not forwarded");
        return;
    };
    let token = state.settings.purge_token.clone().unwrap_or_default();
    let give_up = UNIX_EPOCH + Duration::from_millis(at_ms) + STAGING_RETRY_FOR;
    for peer in &state.settings.peers {
        let url = format!("{}/stage", peer.trim_end_matches('/'));
        let (client, token, body, peer) =
            (client.clone(), token.clone(), body.clone(), peer.clone());
        tokio::spawn(async move {
            loop {
                let sent = client
                    .post(&url)
                    .bearer_auth(&token)
                    .header("x-edge-peer", "1")
                    .header(STAGED_AT_HEADER, staged_at_ms)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await;
                match sent {
                    Ok(resp) if resp.status().is_success() => return,
                    Ok(resp) if resp.status().is_client_error() => {
                        tracing::warn!(%peer, status = %resp.status(), "peer refused a staging");
                        return;
                    }
                    Ok(resp) => {
                        tracing::debug!(%peer, status = %resp.status(), "peer staging failed, will retry")
                    }
                    Err(e) => tracing::debug!(%peer, cause = %e, "peer unreachable, will retry"),
                }
                if SystemTime::now() > give_up {
                    tracing::warn!(%peer, "staging not delivered before giving up");
                    return;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
    }
}

/// Pushes this edge's operator purges to one peer.
pub struct PeerPusher {
    /// Everything shared.
    pub state: &'static State,
    /// The peer's admin base URL, e.g. `http://127.0.0.1:9081`.
    pub peer: String,
}

impl PeerPusher {
    /// Push everything from `cursor` on; returns the new cursor.
    async fn push(&self, client: &reqwest::Client, mut cursor: u64) -> u64 {
        let token = self.state.settings.purge_token.clone().unwrap_or_default();
        let url = format!("{}/purge", self.peer.trim_end_matches('/'));
        for record in self.state.purges.since(cursor, 100) {
            if record.source != "operator" {
                cursor = record.seq + 1;
                continue;
            }
            let sent = client
                .post(&url)
                .bearer_auth(&token)
                .header("x-edge-peer", "1")
                .json(&record.request)
                .send()
                .await;
            match sent {
                Ok(resp) if resp.status().is_success() => cursor = record.seq + 1,
                Ok(resp) => {
                    tracing::warn!(peer = %self.peer, status = %resp.status(), "peer refused a purge");
                    // A refusal will not get better by retrying the same record forever.
                    if resp.status().is_client_error() {
                        cursor = record.seq + 1;
                    } else {
                        break;
                    }
                }
                Err(e) => {
                    tracing::debug!(peer = %self.peer, cause = %e, "peer unreachable, will retry");
                    break;
                }
            }
        }
        cursor
    }
}

#[async_trait]
impl BackgroundService for PeerPusher {
    async fn start(&self, mut shutdown: ShutdownWatch) {
        let client = match reqwest::Client::builder()
            .timeout(Duration::from_secs(2))
            .build()
        {
            Ok(client) => client,
            Err(e) => {
                tracing::error!(cause = %e, "cannot build the peer HTTP client");
                return;
            }
        };
        let mut cursor = 0;
        loop {
            cursor = self.push(&client, cursor).await;
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(250)) => {}
                _ = shutdown.changed() => return,
            }
        }
    }
}
