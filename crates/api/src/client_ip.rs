//! [`ClientIp`]: who sent a request, for rate limits and logs, and [`TrustedProxies`], whose
//! `X-Forwarded-For` is believed.
//!
//! The server hands every request its socket peer (`ConnectInfo<SocketAddr>`, inserted per
//! connection by [`crate::serve_with`]). The client IP is:
//!
//! - the peer, unless the peer is a trusted proxy (`FREEHIRE_TRUSTED_PROXIES`, a comma-separated
//!   list of IPs and CIDRs: `10.0.0.0/8,::1`; none by default);
//! - else the right-most `X-Forwarded-For` entry that is not itself a trusted proxy: entries
//!   are read from the right (several `X-Forwarded-For` headers count as one list, in order),
//!   skipping trusted proxies, so whatever a client wrote to the left of the address its
//!   first proxy appended is ignored; when every entry is a trusted proxy, the left-most one;
//! - the peer when there is no `X-Forwarded-For`, or when an entry read before the answer is
//!   found is not an IP address (`ip` or `ip:port`, `[ipv6]:port`) or the header is not ASCII.
//!
//! IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`, what a dual-stack socket reports) are taken
//! as their IPv4 address, for the peer, the entries and the trusted list. The RFC 7239
//! `Forwarded` header is not read.

use std::{
    fmt,
    net::{IpAddr, SocketAddr},
    str::FromStr,
    sync::Arc,
};

use axum::{
    extract::{ConnectInfo, FromRef, FromRequestParts},
    http::{Extensions, HeaderMap, HeaderName, request::Parts},
};
use ipnet::IpNet;

use crate::ApiError;

/// `X-Forwarded-For`.
pub const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// The client IP of a request (see the module doc); an extractor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The client IP of a request from `peer` with `headers`.
    pub fn resolve(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> Self {
        let peer = peer.to_canonical();
        if !trusted.contains(peer) {
            return Self(peer);
        }
        let mut hops = Vec::new();
        for value in headers.get_all(X_FORWARDED_FOR) {
            let Ok(value) = value.to_str() else {
                return Self(peer);
            };
            hops.extend(value.split(','));
        }
        let mut client = peer;
        for hop in hops.iter().rev() {
            let Some(ip) = parse_hop(hop) else {
                return Self(peer);
            };
            client = ip;
            if !trusted.contains(ip) {
                break;
            }
        }
        Self(client)
    }

    /// The client IP of a request with these extensions and headers: a 500 when the request
    /// has no peer address (the router was not served by [`crate::serve_with`]).
    pub(crate) fn of(
        extensions: &Extensions,
        headers: &HeaderMap,
        trusted: &TrustedProxies,
    ) -> Result<Self, ApiError> {
        match extensions.get::<ConnectInfo<SocketAddr>>() {
            Some(ConnectInfo(peer)) => Ok(Self::resolve(peer.ip(), headers, trusted)),
            None => Err(ApiError::internal("the request carries no peer address")),
        }
    }
}

/// One `X-Forwarded-For` entry: `ip`, `ip:port` or `[ipv6]:port`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    let ip = match hop.parse::<IpAddr>() {
        Ok(ip) => ip,
        Err(_) => hop.parse::<SocketAddr>().ok()?.ip(),
    };
    Some(ip.to_canonical())
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp
where
    TrustedProxies: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Self::of(&parts.extensions, &parts.headers, &TrustedProxies::from_ref(state))
    }
}

/// The proxies whose `X-Forwarded-For` is believed; cheap to clone. Parses from a
/// comma-separated list of IPs and CIDRs (`10.0.0.0/8, ::1`; empty: none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Arc<[IpNet]>);

impl TrustedProxies {
    /// No trusted proxy: the client IP is always the socket peer.
    pub fn none() -> Self {
        Self::default()
    }

    /// These networks (host bits are cleared).
    pub fn new(nets: impl IntoIterator<Item = IpNet>) -> Self {
        Self(nets.into_iter().map(|net| net.trunc()).collect())
    }

    /// Whether `ip` is a trusted proxy.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromStr for TrustedProxies {
    type Err = TrustedProxiesError;

    fn from_str(s: &str) -> Result<Self, TrustedProxiesError> {
        let mut nets = Vec::new();
        for entry in s.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let net = match entry.parse::<IpAddr>() {
                Ok(ip) => IpNet::from(ip.to_canonical()),
                Err(_) => {
                    entry.parse::<IpNet>().map_err(|_| TrustedProxiesError(entry.to_owned()))?
                }
            };
            nets.push(net);
        }
        Ok(Self::new(nets))
    }
}

impl fmt::Display for TrustedProxies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, net) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{net}")?;
        }
        Ok(())
    }
}

/// A trusted-proxy entry that is neither an IP address nor a CIDR.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid trusted proxy {0:?}: expected an IP address or a CIDR like 10.0.0.0/8")]
pub struct TrustedProxiesError(String);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use axum::http::HeaderValue;

    use super::*;

    fn resolve(peer: &str, xff: &[&str], trusted: &str) -> String {
        let mut headers = HeaderMap::new();
        for value in xff {
            headers.append(X_FORWARDED_FOR, HeaderValue::from_str(value).unwrap());
        }
        let trusted: TrustedProxies = trusted.parse().unwrap();
        ClientIp::resolve(peer.parse().unwrap(), &headers, &trusted).0.to_string()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        assert_eq!(resolve("198.51.100.1", &["203.0.113.9"], ""), "198.51.100.1");
        assert_eq!(resolve("198.51.100.1", &["203.0.113.9"], "10.0.0.0/8"), "198.51.100.1");
        assert_eq!(resolve("198.51.100.1", &[], "10.0.0.0/8"), "198.51.100.1");
    }

    #[test]
    fn a_trusted_peer_forwards_the_right_most_untrusted_entry() {
        let trusted = "10.0.0.0/8, ::1";
        assert_eq!(resolve("10.0.0.2", &["203.0.113.9"], trusted), "203.0.113.9");
        // A spoofed left part is ignored; trusted hops on the right are skipped.
        assert_eq!(
            resolve("10.0.0.2", &["1.2.3.4, 203.0.113.9, 10.1.1.1"], trusted),
            "203.0.113.9"
        );
        // Several headers are one list, in order.
        assert_eq!(resolve("::1", &["1.2.3.4", "203.0.113.9", "10.1.1.1"], trusted), "203.0.113.9");
        // Every entry trusted: the left-most.
        assert_eq!(resolve("10.0.0.2", &["10.9.9.9, 10.1.1.1"], trusted), "10.9.9.9");
        // No header: the peer.
        assert_eq!(resolve("10.0.0.2", &[], trusted), "10.0.0.2");
        // Ports and brackets are accepted; IPv6 clients pass through.
        assert_eq!(resolve("10.0.0.2", &["203.0.113.9:4711"], trusted), "203.0.113.9");
        assert_eq!(resolve("10.0.0.2", &["[2001:db8::7]:443"], trusted), "2001:db8::7");
        assert_eq!(resolve("10.0.0.2", &["2001:db8::7"], trusted), "2001:db8::7");
    }

    #[test]
    fn a_malformed_entry_read_falls_back_to_the_peer() {
        let trusted = "10.0.0.0/8";
        assert_eq!(resolve("10.0.0.2", &["203.0.113.9, unknown"], trusted), "10.0.0.2");
        assert_eq!(resolve("10.0.0.2", &["203.0.113.9,"], trusted), "10.0.0.2");
        assert_eq!(resolve("10.0.0.2", &[""], trusted), "10.0.0.2");
        // Garbage left of the answer is the client's own and ignored.
        assert_eq!(resolve("10.0.0.2", &["garbage, 203.0.113.9"], trusted), "203.0.113.9");
        let mut headers = HeaderMap::new();
        headers.insert(X_FORWARDED_FOR, HeaderValue::from_bytes(b"203.0.113.\xff").unwrap());
        let peer: IpAddr = "10.0.0.2".parse().unwrap();
        let trusted: TrustedProxies = trusted.parse().unwrap();
        assert_eq!(ClientIp::resolve(peer, &headers, &trusted).0, peer);
    }

    #[test]
    fn ipv4_mapped_addresses_are_ipv4() {
        assert_eq!(
            resolve("::ffff:10.0.0.2", &["::ffff:203.0.113.9"], "10.0.0.0/8"),
            "203.0.113.9"
        );
        assert_eq!(resolve("::ffff:198.51.100.1", &[], ""), "198.51.100.1");
    }

    #[test]
    fn the_trusted_list_parses() {
        let list: TrustedProxies = " 10.0.0.1/8 ,::1,192.0.2.7,, ".parse().unwrap();
        assert_eq!(list.to_string(), "10.0.0.0/8,::1/128,192.0.2.7/32");
        assert!(list.contains("10.200.0.1".parse().unwrap()));
        assert!(!list.contains("11.0.0.1".parse().unwrap()));
        assert!("".parse::<TrustedProxies>().unwrap().is_empty());
        let e = "10.0.0.0/8,localhost".parse::<TrustedProxies>().unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"invalid trusted proxy "localhost": expected an IP address or a CIDR like 10.0.0.0/8"#
        );
        assert!("10.0.0.0/33".parse::<TrustedProxies>().is_err());
    }
}
