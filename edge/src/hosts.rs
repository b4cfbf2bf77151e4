//! The host names the edge serves (`--hosts`, `EDGE_HOSTS`): a request for any other
//! `Host` is answered 421 (Misdirected Request, RFC 9110 §15.5.20) before it can reach the
//! origin or the cache, so nobody can fill the cache with entries for made-up hosts.
//!
//! Without the flag the edge serves the host of the shop's address (`--site-url`,
//! `SITE_URL`, the origin's setting too) and `localhost` and `127.0.0.1`. `*` serves every
//! host, for running the edge as a general-purpose cache.
//!
//! [`NormalHost`] is the one normal form of a `Host` value: the hosts served, the cache key
//! and staged successors all compare it, so two spellings of one host are one host
//! everywhere, and a value that is no host (`127.0.0.1:evil`) is refused (400) before it
//! can be any of them.

use std::fmt;

/// A `Host` field value (or an HTTP/2 `:authority`) in its normal form (RFC 3986 §6.2.2,
/// §6.2.3; RFC 9110 §4.2.3): the name lower-cased and without a trailing dot, then
/// `:port` unless the port is empty or a default one (80, 443), the port in decimal
/// without leading zeros. `Shop.Example.:080` and `shop.example` are the same host;
/// `shop.example:08080` is `shop.example:8080`. Empty for an empty `Host`.
///
/// Both default ports are dropped whichever listener the request came in on: the plain and
/// the TLS listener share one cache, and a page is the same over both.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NormalHost {
    /// The normal form.
    text: String,
    /// Where the name ends in `text` (the port, if any, follows after a `:`).
    name_len: usize,
}

/// Why a `Host` value is not a host (the proxy answers 400, RFC 9112 §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadHost {
    /// The name has a character no host name or IP literal has, or is empty before a port.
    Name,
    /// What follows the colon is not a port: not only digits, or not 1 to 65535.
    Port,
}

impl fmt::Display for BadHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Name => "the host name is not valid",
            Self::Port => "the port is not a number from 1 to 65535",
        })
    }
}

impl std::error::Error for BadHost {}

impl NormalHost {
    /// The normal form of a `Host` value, or why it is not one. Surrounding space is
    /// ignored. Names are DNS names (letters, digits, `-`, `.`, `_`) or a bracketed IPv6
    /// literal; an empty port (`shop.example:`) is no port (RFC 3986 §6.2.3).
    pub fn parse(raw: &str) -> Result<Self, BadHost> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Ok(Self::default());
        }
        let (name, port) = if raw.starts_with('[') {
            let end = raw.find(']').ok_or(BadHost::Name)?;
            let (literal, rest) = raw.split_at(end + 1);
            let inner = &literal[1..end];
            if inner.is_empty()
                || !inner
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
            {
                return Err(BadHost::Name);
            }
            let port = match rest {
                "" => None,
                rest => Some(rest.strip_prefix(':').ok_or(BadHost::Name)?),
            };
            (literal, port)
        } else {
            let (name, port) = match raw.split_once(':') {
                Some((name, port)) => (name, Some(port)),
                None => (raw, None),
            };
            let name = name.strip_suffix('.').unwrap_or(name);
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
            {
                return Err(BadHost::Name);
            }
            (name, port)
        };
        let port = match port {
            None | Some("") => None,
            Some(digits) => match port_number(digits)? {
                80 | 443 => None,
                n => Some(n),
            },
        };
        let mut text = name.to_ascii_lowercase();
        let name_len = text.len();
        if let Some(port) = port {
            text.push(':');
            text.push_str(&port.to_string());
        }
        Ok(Self { text, name_len })
    }

    /// The normal form, port included (what the cache key holds).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The name alone, without the port (what `--hosts` lists).
    pub fn name(&self) -> &str {
        &self.text[..self.name_len]
    }
}

impl fmt::Display for NormalHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A port: decimal digits only (leading zeros allowed, as RFC 3986's `*DIGIT`), 1 to 65535.
fn port_number(digits: &str) -> Result<u16, BadHost> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(BadHost::Port);
    }
    let mut n: u32 = 0;
    for b in digits.bytes() {
        n = n * 10 + u32::from(b - b'0');
        if n > u32::from(u16::MAX) {
            return Err(BadHost::Port);
        }
    }
    match u16::try_from(n) {
        Ok(0) | Err(_) => Err(BadHost::Port),
        Ok(n) => Ok(n),
    }
}

/// Which hosts are served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hosts {
    /// Any host (`*`).
    Any,
    /// Only these names, in their normal form ([`NormalHost::name`]): without ports.
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
        let name = |host: &str, what: &str| -> anyhow::Result<Box<str>> {
            let host =
                NormalHost::parse(host).map_err(|e| anyhow::anyhow!("{what} {host}: {e}"))?;
            Ok(host.name().into())
        };
        let mut names: Vec<Box<str>> = Vec::new();
        if listed.is_empty() {
            if let Some(url) = site_url.map(str::trim).filter(|u| !u.is_empty()) {
                let uri: http::Uri = url
                    .parse()
                    .map_err(|e| anyhow::anyhow!("--site-url {url}: {e}"))?;
                let host = uri
                    .host()
                    .ok_or_else(|| anyhow::anyhow!("--site-url {url} names no host"))?;
                names.push(name(host, "--site-url")?);
            }
            names.extend(LOCAL.iter().map(|&h| Box::from(h)));
        } else {
            for host in listed {
                names.push(name(host, "--hosts")?);
            }
        }
        Ok(Self::Only(names.into()))
    }

    /// Whether a request for this host is served. No allocation.
    pub fn serves(&self, host: &NormalHost) -> bool {
        match self {
            Self::Any => true,
            Self::Only(names) => {
                let name = host.name();
                !name.is_empty() && names.iter().any(|n| **n == *name)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(hosts: &[&str]) -> Vec<String> {
        hosts.iter().map(|h| h.to_string()).collect()
    }

    fn normal(raw: &str) -> String {
        NormalHost::parse(raw).unwrap().as_str().to_string()
    }

    fn serves(hosts: &Hosts, raw: &str) -> bool {
        hosts.serves(&NormalHost::parse(raw).unwrap())
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
            assert!(serves(&hosts, ok), "{ok}");
        }
        for refused in ["evil.test", "", "shop.example.evil.test", "[::1]:8080"] {
            assert!(!serves(&hosts, refused), "{refused}");
        }
        let local = Hosts::new(&[], None).unwrap();
        assert!(serves(&local, "127.0.0.1:8080") && !serves(&local, "shop.example"));
        assert!(Hosts::new(&[], Some("not a url")).is_err());
    }

    #[test]
    fn a_list_replaces_the_default_and_star_serves_all() {
        let hosts = Hosts::new(&list(&["shop.example", " [::1] "]), Some("http://x.test")).unwrap();
        assert!(serves(&hosts, "shop.example:80") && serves(&hosts, "[::1]:8080"));
        assert!(!serves(&hosts, "localhost") && !serves(&hosts, "x.test"));
        assert_eq!(
            Hosts::new(&list(&["a.test", "*"]), None).unwrap(),
            Hosts::Any
        );
        assert!(serves(&Hosts::Any, "anything.test"));
        assert!(Hosts::new(&list(&["shop.example:evil"]), None).is_err());
    }

    #[test]
    fn spellings_of_one_host_have_one_normal_form() {
        for same in [
            "localhost:8080",
            "LOCALHOST:8080",
            " LocalHost.:8080 ",
            "localhost:08080",
        ] {
            assert_eq!(normal(same), "localhost:8080", "{same}");
        }
        for same in [
            "shop.example",
            "Shop.Example:80",
            "shop.example:443",
            "shop.example.:",
            "shop.example:0080",
        ] {
            assert_eq!(normal(same), "shop.example", "{same}");
        }
        assert_eq!(normal("[::1]:8080"), "[::1]:8080");
        assert_eq!(normal("[::FFFF:7F00:1]"), "[::ffff:7f00:1]");
        assert_eq!(normal(""), "");
        let host = NormalHost::parse("Shop.Example:8443").unwrap();
        assert_eq!(
            (host.name(), host.as_str()),
            ("shop.example", "shop.example:8443")
        );
        assert_ne!(normal("localhost:8081"), normal("localhost:8080"));
    }

    #[test]
    fn regression_junk_after_the_colon_is_no_port() {
        for bad in [
            "127.0.0.1:evil",
            "localhost:80a",
            "localhost:8080:80",
            "localhost:0",
            "localhost:65536",
            "localhost:99999999999999999999",
            "localhost: 80",
            "localhost:+80",
            "localhost:-1",
            "[::1]:x",
        ] {
            assert_eq!(NormalHost::parse(bad), Err(BadHost::Port), "{bad}");
        }
        assert_eq!(normal("localhost:65535"), "localhost:65535");
        assert_eq!(normal("localhost:1"), "localhost:1");
    }

    #[test]
    fn names_are_host_names_or_ip_literals() {
        for bad in [
            ":8080",
            "user@shop.example",
            "shop example",
            "shop/example",
            "shop.example\\x",
            "[::1",
            "[]",
            "[::1]x",
            "[v1.x]",
            "[::1%25eth0]",
            ".",
            "sh%6Fp.example",
        ] {
            assert_eq!(NormalHost::parse(bad), Err(BadHost::Name), "{bad}");
        }
        assert_eq!(normal("_dmarc.shop-1.example"), "_dmarc.shop-1.example");
    }
}
