//! Whose `X-Forwarded-For` counts: an edge in front of the origin names the
//! client there, and the limits ([`super::ratelimit::client`]) count by it;
//! anyone else who reaches the origin directly could name any address. So
//! [`only_from_trusted`] drops the field from every request whose peer is not
//! one of the configured proxies (`TRUSTED_PROXIES`), before anything reads it.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::Response;

/// The peers whose forwarding fields are believed.
#[derive(Debug, Clone)]
pub struct Trusted(pub Arc<Vec<IpAddr>>);

impl Trusted {
    fn trusts(&self, peer: IpAddr) -> bool {
        let peer = match peer {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(peer, IpAddr::V4),
            v4 => v4,
        };
        self.0.contains(&peer)
    }
}

/// Drops `X-Forwarded-For` (and `Forwarded`) unless the connection comes
/// from a trusted proxy. Needs the server's connect info; a request without
/// it (none comes over a socket) keeps nothing either.
pub async fn only_from_trusted(
    State(trusted): State<Trusted>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if !peer.is_some_and(|p| trusted.trusts(p)) {
        let headers = request.headers_mut();
        headers.remove("x-forwarded-for");
        headers.remove(axum::http::header::FORWARDED);
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    /// What the handler sees of the client: `ratelimit::client`'s answer.
    async fn seen_from(peer: &str, forwarded: Option<&str>) -> String {
        let trusted = Trusted(Arc::new(vec!["10.0.0.5".parse().unwrap()]));
        let app = Router::new()
            .route(
                "/",
                get(|headers: axum::http::HeaderMap| async move {
                    super::super::ratelimit::client(&headers)
                }),
            )
            .layer(axum::middleware::from_fn_with_state(
                trusted,
                only_from_trusted,
            ))
            // What `into_make_service_with_connect_info` gives each request.
            .layer(axum::Extension(ConnectInfo(
                peer.parse::<SocketAddr>().unwrap(),
            )));
        let mut request = Request::get("/");
        if let Some(value) = forwarded {
            request = request.header("x-forwarded-for", value);
        }
        let response = app
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let body = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .unwrap();
        String::from_utf8(body.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn only_a_trusted_edge_names_the_client() {
        assert_eq!(
            seen_from("10.0.0.5:4000", Some("203.0.113.9")).await,
            "203.0.113.9"
        );
        assert_eq!(
            seen_from("[::ffff:10.0.0.5]:4000", Some("203.0.113.9")).await,
            "203.0.113.9"
        );
        // Straight from anyone else: the field is dropped, whatever it says.
        assert_eq!(
            seen_from("198.51.100.7:4000", Some("203.0.113.9")).await,
            "direct"
        );
        assert_eq!(seen_from("10.0.0.5:4000", None).await, "direct");
    }
}
