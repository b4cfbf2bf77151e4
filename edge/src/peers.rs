//! Purge broadcast: every purge an operator sends to this edge is pushed to every peer
//! edge's admin listener, in log order, retrying until the peer takes it. A peer that was
//! down gets everything it missed when it is back (as long as the log still holds it).

use crate::State;
use async_trait::async_trait;
use pingora::server::ShutdownWatch;
use pingora::services::background::BackgroundService;
use std::time::Duration;

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
