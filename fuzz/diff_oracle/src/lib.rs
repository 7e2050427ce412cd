//! encoding_rs behind a C ABI for fuzz/fuzz_diff.c: decodes or encodes one
//! input in one call (last = true, output room that never runs out) and
//! returns the output, the encoding used and, in fatal modes, every error
//! with the place it had in the input and the output. Declared for C in
//! fuzz/diff_oracle.h; the layouts here must match it.

use encoding_rs::{CoderResult, Decoder, DecoderResult, Encoder, EncoderResult, Encoding};
use std::os::raw::c_int;

/// One error, laid out as `struct diff_error` of tests/diff/diff.h so that
/// tests/diff/known_differences.c can correct it in place.
#[repr(C)]
pub struct RsError {
    /// Input offset (bytes, or UTF-16 code units for UTF-16 encoder input)
    /// of the malformed sequence or unmappable code point.
    offset: u64,
    length: u32,
    /// The unmappable code point; 0 for decoding errors.
    code_point: u32,
    /// Output units written before the error.
    output_position: u64,
    /// Input units consumed when encoding_rs reported the error.
    stop: u64,
}

/// What one call returns; free it with `wenc_rs_outcome_free`.
#[repr(C)]
pub struct RsOutcome {
    /// NUL-terminated name of the encoding the decoder ended up using, or of
    /// the encoding the encoder writes.
    encoding: [u8; 32],
    /// Decoded UTF-8 bytes, decoded UTF-16 as little-endian byte pairs, or
    /// encoded bytes.
    output: *mut u8,
    output_len: usize,
    errors: *mut RsError,
    error_count: usize,
}

fn store(
    outcome: &mut RsOutcome,
    encoding: &'static Encoding,
    output: Vec<u8>,
    errors: Vec<RsError>,
) {
    let name = encoding.name().as_bytes();
    outcome.encoding = [0; 32];
    outcome.encoding[..name.len()].copy_from_slice(name);
    let output = output.into_boxed_slice();
    outcome.output_len = output.len();
    outcome.output = Box::into_raw(output) as *mut u8;
    let errors = errors.into_boxed_slice();
    outcome.error_count = errors.len();
    outcome.errors = Box::into_raw(errors) as *mut RsError;
}

unsafe fn bytes<'a>(data: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(data, len)
    }
}

/// Frees what `wenc_rs_decode` or `wenc_rs_encode` stored in `outcome`.
///
/// # Safety
/// `outcome` was filled by one of them and not freed since.
#[no_mangle]
pub unsafe extern "C" fn wenc_rs_outcome_free(outcome: *mut RsOutcome) {
    let outcome = &mut *outcome;
    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
        outcome.output,
        outcome.output_len,
    )));
    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
        outcome.errors,
        outcome.error_count,
    )));
    outcome.output = std::ptr::null_mut();
    outcome.output_len = 0;
    outcome.errors = std::ptr::null_mut();
    outcome.error_count = 0;
}

/// Runs one call that writes into `room` more units at the end of `out` and
/// returns (result, units read, units written); keeps what it wrote.
fn call_with_room<T: Copy + Default, R>(
    out: &mut Vec<T>,
    room: usize,
    call: impl FnOnce(&mut [T]) -> (R, usize, usize),
) -> (R, usize) {
    let start = out.len();
    out.resize(start + room, T::default());
    let (result, read, written) = call(&mut out[start..]);
    out.truncate(start + written);
    (result, read)
}

/// The result of one decoding call that is not "output full".
enum DecodeStop {
    Finished,
    Malformed { bad: usize, after: usize },
}

/// Decodes `src` into `out` (UTF-8 bytes or UTF-16 units), growing it until
/// the decoder stops for another reason than a full output; returns why it
/// stopped and how many bytes it read.
fn decode_until_stop(
    decoder: &mut Decoder,
    src: &[u8],
    fatal: bool,
    out8: &mut Vec<u8>,
    out16: Option<&mut Vec<u16>>,
) -> (DecodeStop, usize) {
    let mut read = 0;
    let mut out16 = out16;
    loop {
        let rest = &src[read..];
        let room = 16
            + match &out16 {
                Some(_) => decoder.max_utf16_buffer_length(rest.len()),
                None if fatal => decoder.max_utf8_buffer_length_without_replacement(rest.len()),
                None => decoder.max_utf8_buffer_length(rest.len()),
            }
            .expect("output length overflows usize");
        let (result, n) = match out16.as_deref_mut() {
            Some(out) => call_with_room(out, room, |dst| {
                if fatal {
                    return decoder.decode_to_utf16_without_replacement(rest, dst, true);
                }
                let (coder, n, written, _) = decoder.decode_to_utf16(rest, dst, true);
                (coder_to_decoder(coder), n, written)
            }),
            None => call_with_room(out8, room, |dst| {
                if fatal {
                    return decoder.decode_to_utf8_without_replacement(rest, dst, true);
                }
                let (coder, n, written, _) = decoder.decode_to_utf8(rest, dst, true);
                (coder_to_decoder(coder), n, written)
            }),
        };
        read += n;
        match result {
            DecoderResult::InputEmpty => return (DecodeStop::Finished, read),
            DecoderResult::OutputFull => continue,
            DecoderResult::Malformed(bad, after) => {
                return (
                    DecodeStop::Malformed {
                        bad: bad as usize,
                        after: after as usize,
                    },
                    read,
                )
            }
        }
    }
}

fn coder_to_decoder(result: CoderResult) -> DecoderResult {
    match result {
        CoderResult::InputEmpty => DecoderResult::InputEmpty,
        CoderResult::OutputFull => DecoderResult::OutputFull,
    }
}

/// The encoding a C caller's label names, and its input as a slice.
unsafe fn arguments<'a>(
    label: *const u8,
    label_len: usize,
    input: *const u8,
    input_len: usize,
) -> Option<(&'static Encoding, &'a [u8])> {
    Encoding::for_label(bytes(label, label_len)).map(|encoding| (encoding, bytes(input, input_len)))
}

/// Decodes `input` with `label`'s decoder: `bom` 0 new_decoder (sniff), 1
/// new_decoder_with_bom_removal, 2 new_decoder_without_bom_handling;
/// `fatal`: the `_without_replacement` calls, continuing after each error;
/// `utf16`: decode to UTF-16. Returns 0, or -1 for an unknown label.
///
/// # Safety
/// `label` and `input` point to that many bytes (or are ignored when the
/// length is 0); `outcome` is writable.
#[no_mangle]
pub unsafe extern "C" fn wenc_rs_decode(
    label: *const u8,
    label_len: usize,
    bom: c_int,
    fatal: bool,
    utf16: bool,
    input: *const u8,
    input_len: usize,
    outcome: *mut RsOutcome,
) -> c_int {
    let (encoding, input) = match arguments(label, label_len, input, input_len) {
        Some(found) => found,
        None => return -1,
    };
    let mut decoder = match bom {
        0 => encoding.new_decoder(),
        1 => encoding.new_decoder_with_bom_removal(),
        _ => encoding.new_decoder_without_bom_handling(),
    };
    let mut out8 = Vec::new();
    let mut out16 = Vec::new();
    let mut errors = Vec::new();
    let mut pos = 0;
    loop {
        let (stop, read) = decode_until_stop(
            &mut decoder,
            &input[pos..],
            fatal,
            &mut out8,
            if utf16 { Some(&mut out16) } else { None },
        );
        pos += read;
        match stop {
            DecodeStop::Finished => break,
            DecodeStop::Malformed { bad, after } => errors.push(RsError {
                offset: (pos - after - bad) as u64,
                length: bad as u32,
                code_point: 0,
                output_position: if utf16 { out16.len() } else { out8.len() } as u64,
                stop: pos as u64,
            }),
        }
    }
    if utf16 {
        out8 = out16.iter().flat_map(|unit| unit.to_le_bytes()).collect();
    }
    store(&mut *outcome, decoder.encoding(), out8, errors);
    0
}

/// Output room for encoding `units` more input units in one call: more
/// than any encoder writes for them (an NCR of 10 bytes per code point at
/// most, ISO-2022-JP escapes), so that encoding_rs never stops with
/// OutputFull. encoding_rs 0.8.31's encode_from_utf16 splits a surrogate
/// pair when the output fills in front of it, so the room must never run
/// out; `encode_all` aborts if it does.
fn encode_room(units: usize) -> usize {
    units * 16 + 32
}

/// The encoder's input as text: UTF-8 with each maximal subpart of an
/// ill-formed sequence replaced by U+FFFD (as wenc reads it), or UTF-16 with
/// lone surrogates. `origin[i]` is the caller's input offset (in input
/// units) of the code point whose text starts at i, with one more entry for
/// the end.
enum EncoderText {
    Utf8 { text: String, origin: Vec<usize> },
    Utf16 { units: Vec<u16> },
}

fn utf8_text(input: &[u8]) -> EncoderText {
    let mut text = String::with_capacity(input.len());
    let mut origin = Vec::with_capacity(input.len() + 1);
    let mut pos = 0;
    while pos < input.len() {
        let (good, bad) = match std::str::from_utf8(&input[pos..]) {
            Ok(_) => (input.len() - pos, 0),
            Err(e) => {
                let good = e.valid_up_to();
                (good, e.error_len().unwrap_or(input.len() - pos - good))
            }
        };
        text.push_str(std::str::from_utf8(&input[pos..pos + good]).expect("valid prefix"));
        origin.extend(pos..pos + good);
        pos += good;
        if bad > 0 {
            text.push('\u{FFFD}');
            origin.extend([pos, pos, pos]);
            pos += bad;
        }
    }
    origin.push(input.len());
    EncoderText::Utf8 { text, origin }
}

/// One encoding call of `text` from unit `at`, into `out` (which has room).
fn encode_call(
    encoder: &mut Encoder,
    text: &EncoderText,
    at: usize,
    fatal: bool,
    out: &mut [u8],
) -> (EncoderResult, usize, usize) {
    match text {
        EncoderText::Utf8 { text, .. } if fatal => {
            encoder.encode_from_utf8_without_replacement(&text[at..], out, true)
        }
        EncoderText::Utf8 { text, .. } => {
            let (result, read, written, _) = encoder.encode_from_utf8(&text[at..], out, true);
            (coder_to_encoder(result), read, written)
        }
        EncoderText::Utf16 { units } if fatal => {
            encoder.encode_from_utf16_without_replacement(&units[at..], out, true)
        }
        EncoderText::Utf16 { units } => {
            let (result, read, written, _) = encoder.encode_from_utf16(&units[at..], out, true);
            (coder_to_encoder(result), read, written)
        }
    }
}

fn coder_to_encoder(result: CoderResult) -> EncoderResult {
    match result {
        CoderResult::InputEmpty => EncoderResult::InputEmpty,
        CoderResult::OutputFull => EncoderResult::OutputFull,
    }
}

fn encode_all(encoder: &mut Encoder, text: &EncoderText, fatal: bool) -> (Vec<u8>, Vec<RsError>) {
    let total = match text {
        EncoderText::Utf8 { text, .. } => text.len(),
        EncoderText::Utf16 { units } => units.len(),
    };
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut at = 0;
    loop {
        let (result, read) = call_with_room(&mut out, encode_room(total - at), |dst| {
            encode_call(encoder, text, at, fatal, dst)
        });
        at += read;
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => {
                panic!("encoding_rs's output filled despite the room given")
            }
            EncoderResult::Unmappable(c) => {
                // The unmappable code point is the last one read, which is
                // not always `c`: ISO-2022-JP reports U+000E, U+000F and
                // U+001B as U+FFFD (§14.2.2), and lone surrogates are U+FFFD.
                let (offset, end) = match text {
                    EncoderText::Utf8 { text, origin } => {
                        let last = text[..at].chars().next_back().map_or(0, char::len_utf8);
                        (origin[at - last], origin[at])
                    }
                    EncoderText::Utf16 { units } => {
                        let pair = at >= 2
                            && (0xD800..0xDC00).contains(&units[at - 2])
                            && (0xDC00..0xE000).contains(&units[at - 1]);
                        (at - if pair { 2 } else { 1 }, at)
                    }
                };
                errors.push(RsError {
                    offset: offset as u64,
                    length: (end - offset) as u32,
                    code_point: c as u32,
                    output_position: out.len() as u64,
                    stop: end as u64,
                });
            }
        }
    }
    (out, errors)
}

/// Encodes `input` with `label`'s encoder: UTF-8 bytes, possibly ill-formed
/// (read as U+FFFD per maximal subpart), or with `utf16` little-endian
/// UTF-16 code units; `fatal`: the `_without_replacement` calls, continuing
/// after each unmappable code point; otherwise the replacing calls, which
/// write HTML numeric character references. Returns 0, or -1 for an
/// unknown label.
///
/// # Safety
/// As for `wenc_rs_decode`.
#[no_mangle]
pub unsafe extern "C" fn wenc_rs_encode(
    label: *const u8,
    label_len: usize,
    fatal: bool,
    utf16: bool,
    input: *const u8,
    input_len: usize,
    outcome: *mut RsOutcome,
) -> c_int {
    let (encoding, input) = match arguments(label, label_len, input, input_len) {
        Some(found) => found,
        None => return -1,
    };
    let text = if utf16 {
        EncoderText::Utf16 {
            units: input
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect(),
        }
    } else {
        utf8_text(input)
    };
    let mut encoder = encoding.new_encoder();
    let (output, errors) = encode_all(&mut encoder, &text, fatal);
    store(&mut *outcome, encoder.encoding(), output, errors);
    0
}
