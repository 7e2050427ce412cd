//! wenc-oracle: runs a batch of decode/encode cases through encoding_rs and
//! writes its exact results, for tests/diff/diff.c.
//!
//! Usage: wenc-oracle [REQUEST [RESPONSE]]   (default: stdin, stdout)
//!
//! All integers are little-endian.
//!
//! Request:  "WDIFREQ1", then records until the end:
//!   u8 kind (1 decode, 2 encode), u8 flags, u8 name length, name (an
//!   encoding label), u32 input length in bytes, input.
//!   Decode flags: bits 0-1 BOM handling (0 sniff = new_decoder, 1 removal =
//!   new_decoder_with_bom_removal, 2 none = new_decoder_without_bom_handling),
//!   bit 2 fatal (the *_without_replacement calls), bit 3 UTF-16 output.
//!   Encode flags: bit 2 fatal, bit 3 UTF-16 input (input is u16 code units);
//!   otherwise the input is UTF-8 bytes, possibly ill-formed: each maximal
//!   subpart of an ill-formed sequence is fed to the encoder as U+FFFD.
//!
//! Response: "WDIFRSP1", then one record per request record:
//!   u8 name length, name of the encoding the decoder ended up using (after
//!   BOM sniffing) or of the encoding the encoder writes;
//!   u32 output length in bytes, output (UTF-16 output as u16 code units);
//!   u32 error count, then per error (fatal modes only):
//!     u64 input offset of the malformed sequence / unmappable code point
//!         (bytes or UTF-16 code units from the start of the input),
//!     u32 its length in input units,
//!     u32 the unmappable code point (0 for decode errors),
//!     u64 output length (bytes or code units) written before the error,
//!     u32 bytes consumed after the malformed sequence (decode; 0 for encode).
//!   The input is always fed in one piece (with last = true); after a fatal
//!   error the rest of the input is fed again, as the Standard's decoders and
//!   "encode or fail" continue.

use encoding_rs::{CoderResult, Decoder, DecoderResult, Encoder, EncoderResult, Encoding};
use std::io::{Read, Write};

const DECODE: u8 = 1;
const ENCODE: u8 = 2;
const FLAG_FATAL: u8 = 4;
const FLAG_UTF16: u8 = 8;

struct Error {
    offset: u64,
    length: u32,
    code_point: u32,
    output_position: u64,
    consumed_after: u32,
}

struct Outcome {
    encoding: &'static Encoding,
    output: Vec<u8>,
    errors: Vec<Error>,
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        if self.data.len() - self.pos < n {
            fail("truncated request");
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        s
    }
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }
    fn u32(&mut self) -> u32 {
        let b = self.take(4);
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

fn fail(message: &str) -> ! {
    eprintln!("wenc-oracle: {}", message);
    std::process::exit(2);
}

fn units_to_bytes(units: &[u16], out: &mut Vec<u8>) {
    for u in units {
        out.extend_from_slice(&u.to_le_bytes());
    }
}

fn new_decoder(encoding: &'static Encoding, bom: u8) -> Decoder {
    match bom {
        0 => encoding.new_decoder(),
        1 => encoding.new_decoder_with_bom_removal(),
        2 => encoding.new_decoder_without_bom_handling(),
        _ => fail("bad BOM mode"),
    }
}

/// One decoding call in a loop that grows the output when it is full;
/// returns the DecoderResult that is not OutputFull and the bytes read.
fn decode_utf8_step(
    decoder: &mut Decoder,
    src: &[u8],
    out: &mut Vec<u8>,
    fatal: bool,
) -> (Option<DecoderResult>, usize) {
    let mut read_total = 0;
    loop {
        let need = decoder
            .max_utf8_buffer_length(src.len() - read_total)
            .unwrap_or_else(|| fail("size overflow"))
            + 16;
        let start = out.len();
        out.resize(start + need, 0);
        if fatal {
            let (result, read, written) = decoder.decode_to_utf8_without_replacement(
                &src[read_total..],
                &mut out[start..],
                true,
            );
            out.truncate(start + written);
            read_total += read;
            match result {
                DecoderResult::OutputFull => continue,
                DecoderResult::InputEmpty => return (None, read_total),
                malformed => return (Some(malformed), read_total),
            }
        } else {
            let (result, read, written, _) =
                decoder.decode_to_utf8(&src[read_total..], &mut out[start..], true);
            out.truncate(start + written);
            read_total += read;
            if let CoderResult::InputEmpty = result {
                return (None, read_total);
            }
        }
    }
}

fn decode_utf16_step(
    decoder: &mut Decoder,
    src: &[u8],
    out: &mut Vec<u16>,
    fatal: bool,
) -> (Option<DecoderResult>, usize) {
    let mut read_total = 0;
    loop {
        let need = decoder
            .max_utf16_buffer_length(src.len() - read_total)
            .unwrap_or_else(|| fail("size overflow"))
            + 16;
        let start = out.len();
        out.resize(start + need, 0);
        if fatal {
            let (result, read, written) = decoder.decode_to_utf16_without_replacement(
                &src[read_total..],
                &mut out[start..],
                true,
            );
            out.truncate(start + written);
            read_total += read;
            match result {
                DecoderResult::OutputFull => continue,
                DecoderResult::InputEmpty => return (None, read_total),
                malformed => return (Some(malformed), read_total),
            }
        } else {
            let (result, read, written, _) =
                decoder.decode_to_utf16(&src[read_total..], &mut out[start..], true);
            out.truncate(start + written);
            read_total += read;
            if let CoderResult::InputEmpty = result {
                return (None, read_total);
            }
        }
    }
}

fn decode(encoding: &'static Encoding, flags: u8, input: &[u8]) -> Outcome {
    let mut decoder = new_decoder(encoding, flags & 3);
    let fatal = flags & FLAG_FATAL != 0;
    let utf16 = flags & FLAG_UTF16 != 0;
    let mut out8 = Vec::new();
    let mut out16 = Vec::new();
    let mut errors = Vec::new();
    let mut pos = 0usize;
    loop {
        let (result, read) = if utf16 {
            decode_utf16_step(&mut decoder, &input[pos..], &mut out16, fatal)
        } else {
            decode_utf8_step(&mut decoder, &input[pos..], &mut out8, fatal)
        };
        pos += read;
        match result {
            Some(DecoderResult::Malformed(bad, after)) => errors.push(Error {
                offset: (pos - after as usize - bad as usize) as u64,
                length: u32::from(bad),
                code_point: 0,
                output_position: if utf16 { out16.len() } else { out8.len() } as u64,
                consumed_after: u32::from(after),
            }),
            _ => break,
        }
    }
    if utf16 {
        units_to_bytes(&out16, &mut out8);
    }
    Outcome {
        encoding: decoder.encoding(),
        output: out8,
        errors,
    }
}

/// Output room that always suffices to encode `units` input units in one
/// call (at most one NCR "&#1114111;" of 10 bytes, or 4 bytes plus an
/// ISO-2022-JP escape, per unit, and the final escape), so that the encoder
/// never stops with OutputFull. That matters: encoding_rs 0.8.31 splits a
/// surrogate pair itself when the output fills up in front of it, e.g.
/// windows-1252, encode_from_utf16_without_replacement of
/// [0x41, 0x41, 0x41, 0xD83D, 0xDE00] into 4 bytes reports Unmappable(U+FFFD)
/// after reading 4 units, then U+FFFD again for 0xDE00, instead of U+1F600.
fn encode_room(units: usize) -> usize {
    units * 16 + 16
}

/// A piece of encoder input: a str and where its units start in the
/// caller's input, and how many input units a U+FFFD stood for.
struct Piece<'a> {
    text: &'a str,
    offset: usize,
    replaced_len: usize,
}

/// Splits possibly ill-formed UTF-8 into well-formed runs and one U+FFFD
/// per maximal subpart of each ill-formed sequence.
fn utf8_pieces(input: &[u8]) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut pos = 0;
    while pos < input.len() {
        match std::str::from_utf8(&input[pos..]) {
            Ok(text) => {
                pieces.push(Piece { text, offset: pos, replaced_len: 0 });
                pos = input.len();
            }
            Err(e) => {
                let valid = e.valid_up_to();
                if valid > 0 {
                    let text = std::str::from_utf8(&input[pos..pos + valid]).unwrap();
                    pieces.push(Piece { text, offset: pos, replaced_len: 0 });
                }
                let bad = e.error_len().unwrap_or(input.len() - pos - valid);
                pieces.push(Piece {
                    text: "\u{FFFD}",
                    offset: pos + valid,
                    replaced_len: bad,
                });
                pos += valid + bad;
            }
        }
    }
    pieces
}

/// Encodes `text` (all of it), growing `out` as needed; in fatal mode
/// records each unmappable code point and continues after it.
fn encode_piece(
    encoder: &mut Encoder,
    piece: &Piece<'_>,
    last: bool,
    fatal: bool,
    out: &mut Vec<u8>,
    errors: &mut Vec<Error>,
) {
    let mut read_total = 0;
    loop {
        let rest = &piece.text[read_total..];
        let start = out.len();
        out.resize(start + encode_room(rest.len()), 0);
        if fatal {
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(rest, &mut out[start..], last);
            out.truncate(start + written);
            read_total += read;
            match result {
                EncoderResult::InputEmpty => return,
                EncoderResult::OutputFull => fail("encoder output full despite the room given"),
                EncoderResult::Unmappable(c) => {
                    let (offset, length) = if piece.replaced_len > 0 {
                        (piece.offset, piece.replaced_len)
                    } else {
                        let read_text = &piece.text[..read_total];
                        let last_len = read_text.chars().next_back().map_or(0, char::len_utf8);
                        (piece.offset + read_total - last_len, last_len)
                    };
                    errors.push(Error {
                        offset: offset as u64,
                        length: length as u32,
                        code_point: c as u32,
                        output_position: out.len() as u64,
                        consumed_after: 0,
                    });
                }
            }
        } else {
            let (result, _, written, _) = encoder.encode_from_utf8(rest, &mut out[start..], last);
            out.truncate(start + written);
            match result {
                CoderResult::InputEmpty => return,
                CoderResult::OutputFull => fail("encoder output full despite the room given"),
            }
        }
    }
}

fn encode_utf8(encoder: &mut Encoder, fatal: bool, input: &[u8]) -> (Vec<u8>, Vec<Error>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for piece in utf8_pieces(input) {
        encode_piece(encoder, &piece, false, fatal, &mut out, &mut errors);
    }
    let end = Piece { text: "", offset: input.len(), replaced_len: 0 };
    encode_piece(encoder, &end, true, fatal, &mut out, &mut errors);
    (out, errors)
}

fn encode_utf16(encoder: &mut Encoder, fatal: bool, units: &[u16]) -> (Vec<u8>, Vec<Error>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut read_total = 0;
    loop {
        let rest = &units[read_total..];
        let start = out.len();
        out.resize(start + encode_room(rest.len()), 0);
        if fatal {
            let (result, read, written) =
                encoder.encode_from_utf16_without_replacement(rest, &mut out[start..], true);
            out.truncate(start + written);
            read_total += read;
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::OutputFull => fail("encoder output full despite the room given"),
                EncoderResult::Unmappable(c) => {
                    let pair = read_total >= 2
                        && (0xDC00..0xE000).contains(&units[read_total - 1])
                        && (0xD800..0xDC00).contains(&units[read_total - 2]);
                    let length = if pair { 2 } else { 1 };
                    errors.push(Error {
                        offset: (read_total - length) as u64,
                        length: length as u32,
                        code_point: c as u32,
                        output_position: out.len() as u64,
                        consumed_after: 0,
                    })
                }
            }
        } else {
            let (result, _, written, _) = encoder.encode_from_utf16(rest, &mut out[start..], true);
            out.truncate(start + written);
            match result {
                CoderResult::InputEmpty => break,
                CoderResult::OutputFull => fail("encoder output full despite the room given"),
            }
        }
    }
    (out, errors)
}

fn encode(encoding: &'static Encoding, flags: u8, input: &[u8]) -> Outcome {
    let mut encoder = encoding.new_encoder();
    let fatal = flags & FLAG_FATAL != 0;
    let (output, errors) = if flags & FLAG_UTF16 != 0 {
        if input.len() % 2 != 0 {
            fail("odd UTF-16 input length");
        }
        let units: Vec<u16> = input
            .chunks_exact(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]))
            .collect();
        encode_utf16(&mut encoder, fatal, &units)
    } else {
        encode_utf8(&mut encoder, fatal, input)
    };
    Outcome {
        encoding: encoder.encoding(),
        output,
        errors,
    }
}

fn write_outcome(out: &mut Vec<u8>, outcome: &Outcome) {
    let name = outcome.encoding.name().as_bytes();
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.extend_from_slice(&(outcome.output.len() as u32).to_le_bytes());
    out.extend_from_slice(&outcome.output);
    out.extend_from_slice(&(outcome.errors.len() as u32).to_le_bytes());
    for e in &outcome.errors {
        out.extend_from_slice(&e.offset.to_le_bytes());
        out.extend_from_slice(&e.length.to_le_bytes());
        out.extend_from_slice(&e.code_point.to_le_bytes());
        out.extend_from_slice(&e.output_position.to_le_bytes());
        out.extend_from_slice(&e.consumed_after.to_le_bytes());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut request = Vec::new();
    let read = match args.get(1).map(String::as_str) {
        Some(path) if path != "-" => std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut request)),
        _ => std::io::stdin().read_to_end(&mut request),
    };
    if let Err(e) = read {
        fail(&format!("cannot read the request: {}", e));
    }
    if !request.starts_with(b"WDIFREQ1") {
        fail("not a request (missing WDIFREQ1)");
    }
    let mut reader = Reader { data: &request, pos: 8 };
    let mut response = Vec::with_capacity(request.len() * 3);
    response.extend_from_slice(b"WDIFRSP1");
    while reader.pos < request.len() {
        let kind = reader.u8();
        let flags = reader.u8();
        let name_len = reader.u8() as usize;
        let name = reader.take(name_len);
        let input_len = reader.u32() as usize;
        let input = reader.take(input_len);
        let encoding = Encoding::for_label(name)
            .unwrap_or_else(|| fail(&format!("unknown label {:?}", String::from_utf8_lossy(name))));
        let outcome = match kind {
            DECODE => decode(encoding, flags, input),
            ENCODE => encode(encoding, flags, input),
            _ => fail("bad record kind"),
        };
        write_outcome(&mut response, &outcome);
    }
    let written = match args.get(2).map(String::as_str) {
        Some(path) if path != "-" => std::fs::write(path, &response),
        _ => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            lock.write_all(&response).and_then(|_| lock.flush())
        }
    };
    if let Err(e) = written {
        fail(&format!("cannot write the response: {}", e));
    }
}
