//! encoding_rs behind a C ABI for bench/peers/peers.c, which loads two
//! builds of this library (Debian's encoding_rs and the newest one with
//! SIMD) in one process. Every call does what a caller of encoding_rs does
//! for one whole input: look the label up, make a new decoder or encoder,
//! convert with `last` set, replacing errors (decoders: U+FFFD; encoders:
//! HTML numeric character references).
//!
//! Each function returns the output length in bytes or UTF-16 units, or
//! usize::MAX when the label is unknown or the output did not fit.

use encoding_rs::{CoderResult, Encoding};
use std::slice;

unsafe fn encoding_of(label: *const u8, label_len: usize) -> Option<&'static Encoding> {
    Encoding::for_label(slice::from_raw_parts(label, label_len))
}

unsafe fn bytes<'a>(p: *const u8, n: usize) -> &'a [u8] {
    if n == 0 { &[] } else { slice::from_raw_parts(p, n) }
}

/// The encoding_rs version this library was built from, NUL-terminated.
#[no_mangle]
pub extern "C" fn ers_version() -> *const u8 {
    concat!(env!("ERS_VERSION"), "\0").as_ptr()
}

/// Decodes src with BOM sniffing (Encoding::new_decoder) into dst, as
/// UTF-8 (utf16 == 0, dst_cap bytes) or UTF-16 (dst_cap units).
#[no_mangle]
pub unsafe extern "C" fn ers_decode(label: *const u8, label_len: usize, src: *const u8,
                                    src_len: usize, dst: *mut u8, dst_cap: usize,
                                    utf16: i32) -> usize {
    let encoding = match encoding_of(label, label_len) {
        Some(e) => e,
        None => return usize::MAX,
    };
    let mut decoder = encoding.new_decoder();
    let input = bytes(src, src_len);
    if utf16 != 0 {
        let out = slice::from_raw_parts_mut(dst as *mut u16, dst_cap);
        let (result, read, written, _) = decoder.decode_to_utf16(input, out, true);
        if result != CoderResult::InputEmpty || read != src_len {
            return usize::MAX;
        }
        written
    } else {
        let out = slice::from_raw_parts_mut(dst, dst_cap);
        let (result, read, written, _) = decoder.decode_to_utf8(input, out, true);
        if result != CoderResult::InputEmpty || read != src_len {
            return usize::MAX;
        }
        written
    }
}

/// Encodes src (UTF-8 bytes, which must be valid, or UTF-16 units when
/// utf16 != 0) into dst_cap bytes of the label's output encoding.
#[no_mangle]
pub unsafe extern "C" fn ers_encode(label: *const u8, label_len: usize, src: *const u8,
                                    src_len: usize, dst: *mut u8, dst_cap: usize,
                                    utf16: i32) -> usize {
    let encoding = match encoding_of(label, label_len) {
        Some(e) => e,
        None => return usize::MAX,
    };
    let mut encoder = encoding.new_encoder();
    let out = slice::from_raw_parts_mut(dst, dst_cap);
    let (result, read, written, _) = if utf16 != 0 {
        let input = if src_len == 0 { &[][..] } else { slice::from_raw_parts(src as *const u16, src_len) };
        encoder.encode_from_utf16(input, out, true)
    } else {
        match std::str::from_utf8(bytes(src, src_len)) {
            Ok(text) => encoder.encode_from_utf8(text, out, true),
            Err(_) => return usize::MAX,
        }
    };
    if result != CoderResult::InputEmpty || read != src_len {
        return usize::MAX;
    }
    written
}
