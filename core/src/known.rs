//! Known headers: the common field names that get an O(1) slot during the parse.

macro_rules! known_headers {
    ($( $(#[$doc:meta])* $name:ident => $text:literal, )*) => {
        /// A common field name, recognised case-insensitively while parsing.
        ///
        /// The first field line with a known name is recorded in a bitmap and an index, so
        /// [`Request::get`](crate::Request::get) finds it in O(1). Later lines with the same name
        /// are still in [`Request::fields`](crate::Request::fields).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[non_exhaustive]
        pub enum KnownHeader {
            $( $(#[$doc])* $name, )*
        }

        impl KnownHeader {
            /// Every known header, in slot order.
            pub const ALL: &'static [KnownHeader] = &[$(KnownHeader::$name,)*];

            /// The canonical lowercase name.
            pub const fn name(self) -> &'static str {
                match self { $(KnownHeader::$name => $text,)* }
            }
        }
    };
}

known_headers! {
    /// `Host`
    Host => "host",
    /// `Content-Length`
    ContentLength => "content-length",
    /// `Transfer-Encoding`
    TransferEncoding => "transfer-encoding",
    /// `Connection`
    Connection => "connection",
    /// `Content-Type`
    ContentType => "content-type",
    /// `User-Agent`
    UserAgent => "user-agent",
    /// `Accept`
    Accept => "accept",
    /// `Accept-Encoding`
    AcceptEncoding => "accept-encoding",
    /// `Accept-Language`
    AcceptLanguage => "accept-language",
    /// `Cookie`
    Cookie => "cookie",
    /// `Authorization`
    Authorization => "authorization",
    /// `Referer`
    Referer => "referer",
    /// `Origin`
    Origin => "origin",
    /// `Cache-Control`
    CacheControl => "cache-control",
    /// `Pragma`
    Pragma => "pragma",
    /// `If-Modified-Since`
    IfModifiedSince => "if-modified-since",
    /// `If-None-Match`
    IfNoneMatch => "if-none-match",
    /// `If-Match`
    IfMatch => "if-match",
    /// `Range`
    Range => "range",
    /// `Upgrade`
    Upgrade => "upgrade",
    /// `Expect`
    Expect => "expect",
    /// `TE`
    Te => "te",
    /// `Trailer`
    Trailer => "trailer",
    /// `X-Forwarded-For`
    XForwardedFor => "x-forwarded-for",
    /// `X-Forwarded-Proto`
    XForwardedProto => "x-forwarded-proto",
    /// `X-Forwarded-Host`
    XForwardedHost => "x-forwarded-host",
    /// `X-Request-Id`
    XRequestId => "x-request-id",
    /// `Forwarded`
    Forwarded => "forwarded",
    /// `Via`
    Via => "via",
    /// `DNT`
    Dnt => "dnt",
    /// `Sec-Fetch-Mode`
    SecFetchMode => "sec-fetch-mode",
    /// `Sec-Fetch-Site`
    SecFetchSite => "sec-fetch-site",
    /// `Sec-Fetch-Dest`
    SecFetchDest => "sec-fetch-dest",
    /// `Upgrade-Insecure-Requests`
    UpgradeInsecureRequests => "upgrade-insecure-requests",
    /// `Traceparent`
    Traceparent => "traceparent",
    /// `Keep-Alive`
    KeepAlive => "keep-alive",
    /// `Proxy-Authorization`
    ProxyAuthorization => "proxy-authorization",
    /// `Sec-WebSocket-Key`
    SecWebSocketKey => "sec-websocket-key",
    /// `Sec-WebSocket-Version`
    SecWebSocketVersion => "sec-websocket-version",
    /// `Sec-WebSocket-Accept`
    SecWebSocketAccept => "sec-websocket-accept",
    /// `Date`
    Date => "date",
    /// `Server`
    Server => "server",
    /// `Location`
    Location => "location",
    /// `Set-Cookie`
    SetCookie => "set-cookie",
    /// `Content-Encoding`
    ContentEncoding => "content-encoding",
    /// `ETag`
    ETag => "etag",
    /// `Last-Modified`
    LastModified => "last-modified",
    /// `Expires`
    Expires => "expires",
    /// `Vary`
    Vary => "vary",
    /// `Age`
    Age => "age",
    /// `Accept-Ranges`
    AcceptRanges => "accept-ranges",
    /// `Content-Range`
    ContentRange => "content-range",
    /// `Access-Control-Allow-Origin`
    AccessControlAllowOrigin => "access-control-allow-origin",
    /// `Strict-Transport-Security`
    StrictTransportSecurity => "strict-transport-security",
    /// `X-Content-Type-Options`
    XContentTypeOptions => "x-content-type-options",
    /// `WWW-Authenticate`
    WwwAuthenticate => "www-authenticate",
}

/// How many known headers there are: the width of the presence bitmap.
pub(crate) const KNOWN_COUNT: usize = KnownHeader::ALL.len();
const _: () = assert!(KNOWN_COUNT <= 64, "the presence bitmap is a u64");

/// Open-addressed table from a cheap key of a name (length, first and last byte, case-folded)
/// to a candidate; built at compile time so that lookup costs one hash and, almost always, one
/// comparison.
const TABLE_BITS: u32 = 7;
const TABLE_SIZE: usize = 1 << TABLE_BITS;
const EMPTY_SLOT: u8 = u8::MAX;

const fn lower(b: u8) -> u8 {
    b | (((b >= b'A') & (b <= b'Z')) as u8) << 5
}

#[inline]
const fn bucket(len: usize, first: u8, last: u8) -> usize {
    let h = (len as u32)
        .wrapping_mul(0x9E37_79B1)
        .wrapping_add((lower(first) as u32).wrapping_mul(0x85EB_CA77))
        .wrapping_add((lower(last) as u32).wrapping_mul(0xC2B2_AE3D));
    (h >> (32 - TABLE_BITS)) as usize
}

static TABLE: [u8; TABLE_SIZE] = {
    let mut table = [EMPTY_SLOT; TABLE_SIZE];
    let mut i = 0;
    while i < KNOWN_COUNT {
        let name = KnownHeader::ALL[i].name().as_bytes();
        let mut slot = bucket(name.len(), name[0], name[name.len() - 1]);
        while table[slot] != EMPTY_SLOT {
            slot = (slot + 1) & (TABLE_SIZE - 1);
        }
        table[slot] = i as u8;
        i += 1;
    }
    table
};

impl KnownHeader {
    /// The known header with this name, compared case-insensitively.
    ///
    /// ```
    /// use httpspan::KnownHeader;
    /// assert_eq!(KnownHeader::from_name(b"content-TYPE"), Some(KnownHeader::ContentType));
    /// assert_eq!(KnownHeader::from_name(b"x-custom"), None);
    /// ```
    #[inline]
    pub fn from_name(name: &[u8]) -> Option<KnownHeader> {
        let (&first, &last) = (name.first()?, name.last()?);
        let mut slot = bucket(name.len(), first, last);
        loop {
            let candidate = TABLE[slot];
            if candidate == EMPTY_SLOT {
                return None;
            }
            let known = KnownHeader::ALL[candidate as usize];
            if known.name().as_bytes().eq_ignore_ascii_case(name) {
                return Some(known);
            }
            slot = (slot + 1) & (TABLE_SIZE - 1);
        }
    }

    /// The slot of this header in the presence bitmap and the index array.
    #[inline]
    pub const fn slot(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_found_in_any_case() {
        for &known in KnownHeader::ALL {
            let name = known.name();
            assert_eq!(KnownHeader::from_name(name.as_bytes()), Some(known));
            let upper: std::vec::Vec<u8> = name.bytes().map(|b| b.to_ascii_uppercase()).collect();
            assert_eq!(KnownHeader::from_name(&upper), Some(known));
        }
    }

    #[test]
    fn near_misses_are_not_found() {
        for name in [
            &b""[..],
            b"hos",
            b"hostt",
            b"content-lengtx",
            b"content_length",
            b"x",
            b"transfer-encodinG ",
        ] {
            assert_eq!(KnownHeader::from_name(name), None, "{name:?}");
        }
    }

    #[test]
    fn slots_are_dense_and_in_order() {
        for (i, known) in KnownHeader::ALL.iter().enumerate() {
            assert_eq!(known.slot(), i);
        }
    }
}
