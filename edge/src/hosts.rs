//! The host names the edge serves (`--hosts`, `EDGE_HOSTS`): a request for any other
//! `Host` is answered 421 (Misdirected Request, RFC 9110 §15.5.20) before it can reach the
//! origin or the cache, so nobody can fill the cache with entries for made-up hosts.
//!
//! Without the flag the edge serves the host of the shop's address (`--site-url`,
//! `SITE_URL`, the origin's setting too) and `localhost` and `127.0.0.1`. `*` serves every
//! host, for running the edge as a general-purpose cache. Names match without their port,
//! a trailing dot or regard to case.

/// Which hosts are served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hosts {
    /// Any host (`*`).
    Any,
    /// Only these names, lower-cased, without ports.
    Only(Box<[Box<str>]>),
}

/// Hosts served when `--hosts` is not given, besides the site URL's.
const LOCAL: [&str; 2] = ["localhost", "127.0.0.1"];

impl Hosts {
    /// From the `--hosts` list (empty: not given) and the site URL, if known.
    pub fn new(listed: &[String], site_url: Option<&str>) -> anyhow::Result<Self> {
        let listed: Vec<&str> = listed
            .iter()
            .map(|h| h.trim())
            .filter(|h| !h.is_empty())
            .collect();
        if listed.contains(&"*") {
            return Ok(Self::Any);
        }
        let mut names: Vec<Box<str>> = Vec::new();
        if listed.is_empty() {
            if let Some(url) = site_url.map(str::trim).filter(|u| !u.is_empty()) {
                let uri: http::Uri = url
                    .parse()
                    .map_err(|e| anyhow::anyhow!("--site-url {url}: {e}"))?;
                let host = uri
                    .host()
                    .ok_or_else(|| anyhow::anyhow!("--site-url {url} names no host"))?;
                names.push(name_of(host).into());
            }
            names.extend(LOCAL.iter().map(|&h| Box::from(h)));
        } else {
            names.extend(listed.iter().map(|h| Box::from(name_of(h))));
        }
        for name in names.iter_mut() {
            name.make_ascii_lowercase();
        }
        Ok(Self::Only(names.into()))
    }

    /// Whether a request with this `Host` (or authority) is served. No allocation.
    pub fn serves(&self, host: &str) -> bool {
        match self {
            Self::Any => true,
            Self::Only(names) => {
                let name = name_of(host);
                !name.is_empty() && names.iter().any(|n| n.eq_ignore_ascii_case(name))
            }
        }
    }
}

/// A `Host` value's name: without surrounding space, its port and a trailing dot; an IPv6
/// literal keeps its brackets.
fn name_of(host: &str) -> &str {
    let host = host.trim();
    let name = if host.starts_with('[') {
        host.find(']').map_or(host, |end| &host[..=end])
    } else {
        host.rsplit_once(':').map_or(host, |(name, _port)| name)
    };
    name.strip_suffix('.').unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(hosts: &[&str]) -> Vec<String> {
        hosts.iter().map(|h| h.to_string()).collect()
    }

    #[test]
    fn the_default_is_the_site_and_loopback() {
        let hosts = Hosts::new(&[], Some("https://Shop.Example:8443/")).unwrap();
        for ok in [
            "shop.example",
            "SHOP.example:443",
            "shop.example.",
            "localhost:8080",
            "127.0.0.1",
        ] {
            assert!(hosts.serves(ok), "{ok}");
        }
        for refused in ["evil.test", "", "shop.example.evil.test", "[::1]:8080"] {
            assert!(!hosts.serves(refused), "{refused}");
        }
        let local = Hosts::new(&[], None).unwrap();
        assert!(local.serves("127.0.0.1:8080") && !local.serves("shop.example"));
        assert!(Hosts::new(&[], Some("not a url")).is_err());
    }

    #[test]
    fn a_list_replaces_the_default_and_star_serves_all() {
        let hosts = Hosts::new(&list(&["shop.example", " [::1] "]), Some("http://x.test")).unwrap();
        assert!(hosts.serves("shop.example:80") && hosts.serves("[::1]:8080"));
        assert!(!hosts.serves("localhost") && !hosts.serves("x.test"));
        assert_eq!(
            Hosts::new(&list(&["a.test", "*"]), None).unwrap(),
            Hosts::Any
        );
        assert!(Hosts::Any.serves("anything.test"));
    }
}
