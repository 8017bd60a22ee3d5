//! The SSRF guard: which addresses may never be dialled, a resolver that checks every
//! address a host resolves to, and [`check_public_destination`], the same rule for a URL a
//! user gives us to call later (a webhook), checked when it is given.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use super::SsrfPolicy;

/// Whether `url` may be dialled under `policy`, before any name is resolved: only http and
/// https, and under [`SsrfPolicy::Enforce`] no internal IP literal and no `localhost` name
/// (other names are checked by the resolver of [`guarded_client_builder`] when dialled).
/// `Err` says why not.
pub fn check_target(url: &Url, policy: SsrfPolicy) -> Result<(), String> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err("only http and https are allowed".to_owned());
    }
    match policy {
        SsrfPolicy::Enforce => internal_host(url).map_or(Ok(()), Err),
        SsrfPolicy::AllowPrivateTargets => Ok(()),
    }
}

/// A `reqwest` client builder for requests to user-given URLs (webhooks): no proxy, no
/// redirects, and under [`SsrfPolicy::Enforce`] a resolver that refuses a host when any of its
/// addresses is internal. Pair it with [`check_target`] for IP literals, and read a refusal
/// back with [`refusal_of`].
pub fn guarded_client_builder(policy: SsrfPolicy) -> reqwest::ClientBuilder {
    let builder = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).no_proxy();
    match policy {
        SsrfPolicy::Enforce => {
            builder.dns_resolver(Arc::new(GuardedResolver { allowed_host: None }))
        }
        SsrfPolicy::AllowPrivateTargets => builder,
    }
}

/// The guard's reason when `err` (from a client of [`guarded_client_builder`]) is its refusal.
pub fn refusal_of(err: &reqwest::Error) -> Option<String> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = source {
        if let Some(refusal) = e.downcast_ref::<Refusal>() {
            return Some(refusal.to_string());
        }
        source = e.source();
    }
    None
}

use crate::IngestError;

/// How long [`check_public_destination`] waits for a host name to resolve.
pub const RESOLVE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Whether an address is internal: loopback, private, link-local (cloud metadata included),
/// shared/CGNAT, unspecified, broadcast, multicast, documentation, benchmarking or reserved,
/// and the same inside IPv4-mapped / NAT64 IPv6 addresses.
pub fn is_forbidden_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..=127).contains(&b)) // shared address space (CGNAT), 100.100.100.200 metadata
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (18..=19).contains(&b)) // benchmarking
        || a >= 240 // reserved
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let seg = ip.segments();
    // NAT64 well-known prefix 64:ff9b::/96 embeds an IPv4 address.
    if seg[0] == 0x64 && seg[1] == 0xff9b && seg[2..6].iter().all(|s| *s == 0) {
        let [a, b] = seg[6].to_be_bytes();
        let [c, d] = seg[7].to_be_bytes();
        return forbidden_v4(Ipv4Addr::new(a, b, c, d));
    }
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (seg[0] & 0xfe00) == 0xfc00 // unique local, incl. fd00:ec2::254 metadata
        || (seg[0] & 0xffc0) == 0xfe80 // link-local
        || (seg[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (seg[0] == 0x2001 && seg[1] == 0x0db8) // documentation
        || (seg[0..6].iter().all(|s| *s == 0)) // IPv4-compatible ::a.b.c.d
}

/// `localhost` and its subdomains, which always name the loopback interface (RFC 6761).
fn is_loopback_name(name: &str) -> bool {
    let last = name.trim_end_matches('.').rsplit('.').next().unwrap_or_default();
    last.eq_ignore_ascii_case("localhost")
}

/// Why `url`'s host is internal without resolving it (an internal IP literal, a `localhost`
/// name, no host at all); `None` when only resolving can tell.
pub(crate) fn internal_host(url: &Url) -> Option<String> {
    let internal = match url.host() {
        Some(Host::Ipv4(ip)) => is_forbidden_ip(ip.into()),
        Some(Host::Ipv6(ip)) => is_forbidden_ip(ip.into()),
        Some(Host::Domain(name)) => is_loopback_name(name),
        None => return Some("no host".to_owned()),
    };
    internal.then(|| format!("{} is an internal address", url.host_str().unwrap_or_default()))
}

/// Checks a destination a user chose for us to call later (a webhook URL) with the rule the
/// crawler's client applies to every hop: `http` or `https`, a host, no internal IP literal
/// nor `localhost` name, and **every** address the host name resolves to public (waiting at
/// most [`RESOLVE_TIMEOUT`]). A refusal is [`IngestError::Refused`] saying why. The sender
/// must still dial through the guarded resolver: a name may resolve elsewhere later.
pub async fn check_public_destination(url: &Url) -> Result<(), IngestError> {
    let refuse = |reason: String| IngestError::Refused { url: url.to_string(), reason };
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("only http and https are allowed".to_owned()));
    }
    if let Some(reason) = internal_host(url) {
        return Err(refuse(reason));
    }
    let Some(Host::Domain(name)) = url.host() else { return Ok(()) };
    let lookup = tokio::net::lookup_host((name, url.port_or_known_default().unwrap_or(443)));
    let addrs: Vec<SocketAddr> = match tokio::time::timeout(RESOLVE_TIMEOUT, lookup).await {
        Ok(Ok(addrs)) => addrs.collect(),
        Ok(Err(_)) | Err(_) => return Err(refuse(format!("{name} does not resolve"))),
    };
    if addrs.is_empty() {
        return Err(refuse(format!("{name} does not resolve")));
    }
    match addrs.iter().find(|a| is_forbidden_ip(a.ip())) {
        Some(bad) => Err(refuse(format!("{name} resolves to internal address {}", bad.ip()))),
        None => Ok(()),
    }
}

/// The refusal a resolution returns; recognised again when mapping reqwest's error.
#[derive(Debug, thiserror::Error)]
#[error("{host} resolves to internal address {addr}")]
pub(crate) struct Refusal {
    pub(crate) host: String,
    pub(crate) addr: IpAddr,
}

/// A host name that did not resolve: what tells a DNS failure apart from a refused connection
/// in a board's health ([`crate::IngestError::class`]).
#[derive(Debug, thiserror::Error)]
#[error("cannot resolve {host}")]
pub(crate) struct Unresolved {
    pub(crate) host: String,
    #[source]
    pub(crate) source: std::io::Error,
}

/// A DNS resolver that refuses a host if **any** of its addresses is internal.
#[derive(Debug, Default)]
pub(crate) struct GuardedResolver {
    /// A host that is always allowed (the replay origin's).
    pub(crate) allowed_host: Option<String>,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        let allowed = self.allowed_host.as_deref() == Some(host.as_str());
        Box::pin(async move {
            let looked_up: std::io::Result<Vec<SocketAddr>> =
                tokio::net::lookup_host((host.as_str(), 0)).await.map(Iterator::collect);
            let addrs = match looked_up {
                Ok(addrs) => addrs,
                Err(source) => {
                    return Err(Box::new(Unresolved { host, source })
                        as Box<dyn std::error::Error + Send + Sync>);
                }
            };
            if !allowed && let Some(bad) = addrs.iter().find(|a| is_forbidden_ip(a.ip())) {
                return Err(Box::new(Refusal { host, addr: bad.ip() })
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses_are_forbidden() {
        for bad in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.100.200",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "fd00:ec2::254",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
        ] {
            assert!(is_forbidden_ip(bad.parse().unwrap()), "{bad}");
        }
        for ok in ["8.8.8.8", "104.18.1.1", "2606:4700::1111", "::ffff:8.8.8.8"] {
            assert!(!is_forbidden_ip(ok.parse().unwrap()), "{ok}");
        }
    }

    #[tokio::test]
    async fn a_user_given_destination_must_be_public() {
        for bad in [
            "http://127.0.0.1/hook",
            "http://10.0.0.1/",
            "http://[::1]/",
            "http://localhost/",
            "https://api.localhost:8443/x",
            "http://169.254.169.254/latest/meta-data",
            "ftp://93.184.216.34/",
            "file:///etc/passwd",
        ] {
            let err = check_public_destination(&Url::parse(bad).unwrap()).await.unwrap_err();
            assert!(matches!(err, IngestError::Refused { .. }), "{bad}: {err:?}");
        }
        for ok in ["https://93.184.216.34/hook", "http://[2606:4700::1111]:8080/x"] {
            check_public_destination(&Url::parse(ok).unwrap()).await.unwrap();
        }
        // A name that does not resolve cannot be called either.
        let err = check_public_destination(&Url::parse("https://no-such-host.invalid/").unwrap())
            .await
            .unwrap_err();
        assert!(
            matches!(&err, IngestError::Refused { reason, .. } if reason.contains("does not resolve")),
            "{err:?}"
        );
    }
}
