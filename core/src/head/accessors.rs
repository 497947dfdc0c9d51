//! The accessor methods that requests, responses and trailer sections share.

/// The methods that requests, responses and trailer sections share, delegating to their
/// `head: Head<N>` and `line` (their [`StartLine`](super::StartLine)) fields.
macro_rules! field_accessors {
    () => {
        /// Replaces the limits. Call it before a message is parsed (after creating the parser or
        /// after `reset`); a head in progress keeps the byte limit it started with.
        pub fn set_limits(&mut self, limits: &$crate::Limits) {
            self.head.set_limits(&self.line, limits);
        }

        /// The stream ended after [`Status::Partial`](crate::Status::Partial): is what arrived
        /// already invalid?
        ///
        /// Pass the same buffer. Returns the error at the first byte that no continuation could
        /// make valid (such as an invalid byte in the cut-off line), or `Ok` if the bytes are a
        /// valid beginning and the message is merely incomplete. Errors that only a complete line
        /// can show (a Content-Length that is not a number, say) are reported once its CR has
        /// arrived.
        ///
        /// # Errors
        ///
        /// The [`Error`]($crate::Error) at the first byte of `buf` that no continuation could make
        /// valid.
        pub fn check_truncated(&self, buf: &[u8]) -> Result<(), $crate::Error> {
            self.head.check_truncated(buf, &self.line)
        }

        /// Whether the whole head has been parsed.
        pub fn is_complete(&self) -> bool {
            self.head.is_complete()
        }

        /// Where the next `parse` call resumes: the offset of the first line not yet accepted
        /// (0 before any parse, the head's length once it is complete). The bytes before it
        /// have been checked and are never read again.
        pub fn resume_offset(&self) -> usize {
            self.head.resume_offset()
        }

        /// The field lines, in order.
        pub fn fields(&self) -> &[$crate::Field] {
            self.head.fields()
        }

        /// The value of the first field with this known name, in O(1).
        #[inline]
        pub fn value(&self, known: $crate::KnownHeader) -> Option<$crate::Span> {
            self.head.get(known)
        }

        /// The value of the first field named `name`, compared case-insensitively. Known names
        /// are found in O(1); others by a scan of the fields, which needs the parsed buffer
        /// because spans hold no bytes.
        pub fn find(&self, buf: &[u8], name: &[u8]) -> Option<$crate::Span> {
            self.head.find(buf, name)
        }

        /// Which known headers are present: bit `k.slot()` for each
        /// [`KnownHeader`]($crate::KnownHeader) `k`.
        pub fn known_bitmap(&self) -> u64 {
            self.head.known_bitmap()
        }

        /// The index in [`fields`](Self::fields) of the first field with this known name.
        pub fn known_index(&self, known: $crate::KnownHeader) -> Option<usize> {
            self.head.known_index(known)
        }
    };
}
pub(crate) use field_accessors;
