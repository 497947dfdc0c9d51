//! Known headers: the common field names that get an O(1) slot during the parse.

macro_rules! known_headers {
    ($( $(#[$doc:meta])* $name:ident => $text:literal, )*) => {
        /// A common field name, recognised case-insensitively while parsing.
        ///
        /// The first field line with a known name is recorded in a bitmap and an index, so
        /// [`Request::value`](crate::Request::value) finds it in O(1). Later lines with the same name
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

/// How many known headers there are. The head's presence bitmap has a bit for each and one for
/// the unknown names, and asserts that they fit.
pub(crate) const KNOWN_COUNT: usize = KnownHeader::ALL.len();

/// Perfect hash from a name to the one known header it can be: the name's last word (see
/// `end_words`; the compare that follows needs it anyway), case-folded, combined with the length
/// and multiplied, the top `TABLE_BITS` bits of the product being the slot. No two known names
/// of one length end in the same 8 bytes, so the last word is enough, and the first costs
/// nothing to leave out. The multiplier was chosen so that no two known names share a slot (the
/// table is built at compile time and the build fails if they do), so a lookup is one multiply
/// and one slot of the table read and compared, with no probing.
const TABLE_BITS: u32 = 7;
const TABLE_SIZE: usize = 1 << TABLE_BITS;
const HASH_MULTIPLIER: u64 = 0xba36_0c46_ae43_26af;
/// 0x20 in every byte: set, it folds letters to lowercase.
const FOLD: u64 = 0x2020_2020_2020_2020;
/// In the table: no known name hashes here. Also what [`KnownHeader::id_of_name`] returns for an
/// unknown name.
pub(crate) const NOT_KNOWN_ID: u8 = u8::MAX;

/// The slot of a name of `len` bytes whose last word (of [`end_words`]) is `last`. Setting 0x20
/// folds letters (and maps some other bytes onto others, which only costs a compare that fails);
/// it is cheaper than a real lowercase.
#[inline(always)]
const fn bucket(last: u64, len: usize) -> usize {
    let key = (last | FOLD) ^ len as u64;
    (key.wrapping_mul(HASH_MULTIPLIER) >> (64 - TABLE_BITS)) as usize
}

/// One slot of the lookup table: the known name that hashes here, laid out so that a lookup
/// reads one slot (no second table indexed by `id`). A name of up to 16 bytes is all in its two
/// end words; a longer one also compares its middle words, from [`MIDDLE`].
///
/// The words have 0x20 set in every byte, as the input's words get before the compare. Known
/// names are lowercase letters, digits and `-`, which have the bit already, so this folds an
/// input exactly when it is a `tchar` name: the only `tchar`s without the bit are `A`..`Z`
/// (which it lowercases), `^` (which becomes `~`) and `_` (which becomes DEL), and no known name
/// has `~` or DEL. Other bytes can fold onto a known name's (CR onto `-`), so the lookup is for
/// tokens.
struct Slot {
    /// The name's first and last word (see [`end_words`]), with 0x20 set in every byte.
    first: u64,
    last: u64,
    /// The name's length. 0 in an empty slot, whose words are [`FOLD`]: only an empty name can
    /// match it, and finds `id` [`NOT_KNOWN_ID`] there.
    len: u8,
    /// The known header's index in [`KnownHeader::ALL`], or [`NOT_KNOWN_ID`].
    id: u8,
}

const EMPTY_SLOT: Slot = Slot {
    first: FOLD,
    last: FOLD,
    len: 0,
    id: NOT_KNOWN_ID,
};

static TABLE: [Slot; TABLE_SIZE] = {
    let mut table = [EMPTY_SLOT; TABLE_SIZE];
    let mut i = 0;
    while i < KNOWN_COUNT {
        let name = KnownHeader::ALL[i].name().as_bytes();
        let [first, last] = end_words(name);
        let slot = bucket(last, name.len());
        assert!(
            table[slot].id == NOT_KNOWN_ID,
            "two known names share a slot"
        );
        let mut j = 0;
        while j < name.len() {
            let byte = name[j];
            assert!(
                byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-',
                "a known name folds exactly with 0x20 set in every byte"
            );
            j += 1;
        }
        table[slot] = Slot {
            first: first | FOLD,
            last: last | FOLD,
            len: name.len() as u8,
            id: i as u8,
        };
        i += 1;
    }
    table
};

/// The loads [`words`] is made of. One unaligned load each (`first_chunk` is a bounds check and
/// a load); `at + N <= len` holds at every call, so the fallback 0 is never taken.
#[inline(always)]
const fn load8(name: &[u8], at: usize) -> u64 {
    match name.split_at(at).1.first_chunk::<8>() {
        Some(bytes) => u64::from_le_bytes(*bytes),
        None => 0,
    }
}

/// See [`load8`].
#[inline(always)]
const fn load4(name: &[u8], at: usize) -> u64 {
    match name.split_at(at).1.first_chunk::<4>() {
        Some(bytes) => u32::from_le_bytes(*bytes) as u64,
        None => 0,
    }
}

/// See [`load8`].
#[inline(always)]
const fn load2(name: &[u8], at: usize) -> u64 {
    match name.split_at(at).1.first_chunk::<2>() {
        Some(bytes) => u16::from_le_bytes(*bytes) as u64,
        None => 0,
    }
}

/// A name of 1 to 32 bytes as up to four little-endian words, loaded the same way for the
/// input and the known names so that they compare word by word: a name shorter than 8 bytes is
/// one word from two overlapping loads, as the first word and as the last, the middle ones 0; a
/// longer one is the four words at `min(8k, len - 8)`: 0, 8, 16 and the 8 bytes that end it,
/// overlapping.
#[inline(always)]
const fn words(name: &[u8]) -> [u64; 4] {
    let [first, last] = end_words(name);
    let [second, third] = middle_words(name);
    [first, second, third, last]
}

/// Words 0 and 3 of [`words`]: all that the hash reads, and all of a name of up to 16 bytes.
#[inline(always)]
const fn end_words(name: &[u8]) -> [u64; 2] {
    let len = name.len();
    if len >= 8 {
        // The first 8 bytes and the last 8, overlapping (the same word for an 8-byte name).
        [load8(name, 0), load8(name, len - 8)]
    } else {
        // One word from two overlapping loads, which is both the first and the last.
        let word = if len >= 4 {
            load4(name, 0) | load4(name, len - 4) << 32
        } else if len >= 2 {
            load2(name, 0) | load2(name, len - 2) << 16
        } else if len == 1 {
            name[0] as u64
        } else {
            0
        };
        [word, word]
    }
}

/// Words 1 and 2 of [`words`], which only a name longer than 16 bytes needs compared: a lookup
/// loads them after the length matched, not for every name.
#[inline(always)]
const fn middle_words(name: &[u8]) -> [u64; 2] {
    let len = name.len();
    if len < 8 {
        return [0, 0];
    }
    // Word k is at min(8k, len - 8). No branch on the length: every load lies inside the name.
    let last = len - 8;
    [
        load8(name, if last < 8 { last } else { 8 }),
        load8(name, if last < 16 { last } else { 16 }),
    ]
}

/// A lowercase name as words, with the bits to set in an input's words to fold its case: 0x20 in
/// each byte where the name has a letter. Setting 0x20 turns `A`..`Z` into `a`..`z` and no other
/// byte into a letter, and the other bytes are compared exactly, so a match is exactly an ASCII
/// case-insensitive match. Known header names are matched this way, and so are the values the
/// parser looks for (`keep-alive`, `close`, `chunked`).
pub(crate) struct Folded {
    words: [u64; 4],
    fold: [u64; 4],
    len: usize,
}

impl Folded {
    /// `name` (lowercase, at most 32 bytes) as words to compare with.
    pub(crate) const fn of(name: &[u8]) -> Folded {
        assert!(name.len() <= 32, "a folded name fits in four words");
        let mut letters = [0u8; 32];
        let mut j = 0;
        while j < name.len() {
            assert!(!name[j].is_ascii_uppercase(), "folded names are lowercase");
            if name[j].is_ascii_lowercase() {
                letters[j] = 0x20;
            }
            j += 1;
        }
        let (letters, _) = letters.split_at(name.len());
        Folded {
            words: words(name),
            fold: words(letters),
            len: name.len(),
        }
    }

    /// Whether `input` is this name, compared ASCII case-insensitively: the length first, then
    /// only the words that cover it (up to 16 bytes the first and the last, which `words` lays
    /// out so that the middle ones repeat them).
    #[inline(always)]
    pub(crate) fn matches(&self, input: &[u8]) -> bool {
        if input.len() != self.len {
            return false;
        }
        let [first, last] = end_words(input);
        let differ = |input: u64, k: usize| (input | self.fold[k]) ^ self.words[k];
        let mut differ_any = differ(first, 0) | differ(last, 3);
        if input.len() > 16 {
            let [second, third] = middle_words(input);
            differ_any |= differ(second, 1) | differ(third, 2);
        }
        differ_any == 0
    }
}

/// The middle words (see [`middle_words`]) of each known name, by id, with 0x20 in every byte as
/// in [`Slot`]: what a lookup compares after the slot's words for a name of more than 16 bytes.
static MIDDLE: [[u64; 2]; KNOWN_COUNT] = {
    let mut middle = [[0; 2]; KNOWN_COUNT];
    let mut i = 0;
    while i < KNOWN_COUNT {
        let [second, third] = middle_words(KnownHeader::ALL[i].name().as_bytes());
        middle[i] = [second | FOLD, third | FOLD];
        i += 1;
    }
    middle
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
    #[must_use]
    pub fn from_name(name: &[u8]) -> Option<KnownHeader> {
        // Every known name is a token, and so is every name that equals one but for case.
        if !crate::validate::is_token(name) {
            return None;
        }
        KnownHeader::ALL
            .get(Self::id_of_name(name) as usize)
            .copied()
    }

    /// The index in [`KnownHeader::ALL`] of the known header with this name, compared
    /// case-insensitively, or [`NOT_KNOWN_ID`]. `name` is a token (a field name the parser
    /// checked, or one [`from_name`](Self::from_name) did): other bytes can fold onto a known
    /// name's (see [`Slot`]).
    #[inline(always)]
    pub(crate) fn id_of_name(name: &[u8]) -> u8 {
        let len = name.len();
        let [first, last] = end_words(name);
        let slot = &TABLE[bucket(last, len)];
        let mut differ = ((first | FOLD) ^ slot.first)
            | ((last | FOLD) ^ slot.last)
            | (slot.len as usize ^ len) as u64;
        if len > 16 {
            let [second, third] = middle_words(name);
            // An empty slot's `id` has no entry: its length (0) differs anyway.
            differ |= match MIDDLE.get(slot.id as usize) {
                Some(&[s, t]) => ((second | FOLD) ^ s) | ((third | FOLD) ^ t),
                None => 1,
            };
        }
        if differ == 0 {
            slot.id
        } else {
            NOT_KNOWN_ID
        }
    }

    /// The slot of this header in the presence bitmap and the index array.
    #[inline]
    #[must_use]
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
    fn only_letters_fold() {
        // The reference: a plain case-insensitive compare with every known name.
        let plain = |name: &[u8]| {
            KnownHeader::ALL
                .iter()
                .copied()
                .find(|k| k.name().as_bytes().eq_ignore_ascii_case(name))
        };
        // Setting bit 0x20 maps CR to '-' and 0x10..=0x19 to digits: those must not match.
        for name in [
            &b"content\rlength"[..],
            b"x\x12request-id",
            b"cONTENT-TYPE\x00",
            b"te",
        ] {
            assert_eq!(KnownHeader::from_name(name), plain(name), "{name:?}");
        }
        // Every one-byte change of every name, in both cases, agrees with a plain compare.
        // Under Miri, every fifth name at its first byte (see `crate::tests::every_byte`).
        let names = KnownHeader::ALL
            .iter()
            .step_by(if cfg!(miri) { 5 } else { 1 });
        for &known in names {
            let name = known.name().as_bytes();
            let positions = if cfg!(miri) { 1 } else { name.len() };
            for at in 0..positions {
                for byte in crate::tests::every_byte() {
                    let mut changed = name.to_vec();
                    changed[at] = byte;
                    assert_eq!(
                        KnownHeader::from_name(&changed),
                        plain(&changed),
                        "{changed:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn slots_are_dense_and_in_order() {
        for (i, known) in KnownHeader::ALL.iter().enumerate() {
            assert_eq!(known.slot(), i);
        }
    }
}
