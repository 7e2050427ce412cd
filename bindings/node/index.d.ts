// Types for the wenc Node.js package: the Encoding Standard's API (§7),
// TextDecoder, TextEncoder, TextDecoderStream and TextEncoderStream, and the
// wider API for iconv-lite's users (encode, decode, labelToName,
// encodingExists, Encoder, Decoder, the streams), as index.js, native.js and
// wasm.js export them. The stream classes use Node's web streams
// (node:stream/web, typed by @types/node).

import type {
  ReadableStream,
  TransformStream,
  WritableStream,
} from 'node:stream/web';
import type { Transform } from 'node:stream';

/** Bytes to decode (decode(), a TextDecoderStream's chunks). */
export type AllowSharedBufferSource =
  | ArrayBuffer
  | SharedArrayBuffer
  | ArrayBufferView;

/** §7.2 TextDecoderOptions. */
export interface TextDecoderOptions {
  /** Throw a TypeError on the first error instead of writing U+FFFD. */
  fatal?: boolean;
  /** Keep a byte order mark in the output instead of removing it. */
  ignoreBOM?: boolean;
}

/** §7.2 TextDecodeOptions. */
export interface TextDecodeOptions {
  /** More input follows: keep an incomplete sequence for the next call. */
  stream?: boolean;
}

/** §7.3 TextEncoderEncodeIntoResult. */
export interface TextEncoderEncodeIntoResult {
  /** UTF-16 code units of the source that were encoded. */
  read: number;
  /** Bytes written into the destination. */
  written: number;
}

/** §7.2 TextDecoder: bytes in any of the Standard's encodings to a string. */
export class TextDecoder {
  /**
   * @param label one of the Standard's labels (default "utf-8"); throws a
   *   RangeError for an unknown label or "replacement".
   */
  constructor(label?: string, options?: TextDecoderOptions);
  /** The encoding's name, lowercased ("shift_jis", "utf-8", ...). */
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  /** Throws a TypeError when fatal and the input is malformed. */
  decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string;
}

/** §7.3 TextEncoder: strings to UTF-8. */
export class TextEncoder {
  constructor();
  /** Always "utf-8". */
  readonly encoding: 'utf-8';
  /** Lone surrogates become U+FFFD. */
  encode(input?: string): Uint8Array;
  /** Encodes as much of source as fits into destination. */
  encodeInto(
    source: string,
    destination: Uint8Array,
  ): TextEncoderEncodeIntoResult;
}

/** §7.4 TextDecoderStream: chunks of bytes in, strings out. */
export class TextDecoderStream {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  readonly readable: ReadableStream<string>;
  readonly writable: WritableStream<AllowSharedBufferSource>;
}

/** §7.5 TextEncoderStream: strings in, UTF-8 chunks out. */
export class TextEncoderStream {
  constructor();
  readonly encoding: 'utf-8';
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<string>;
}

// ---- The wider API: iconv-lite's calls over the Standard's encodings ----

/** Bytes for decode(), Decoder and the decoding streams: any ArrayBuffer,
 * SharedArrayBuffer or ArrayBufferView (a Buffer included). */
export type Bytes = ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/**
 * What encode() and Encoder do with a code point the encoding cannot
 * represent: "html" writes `&#N;` (N in decimal), as the Standard's encoders
 * and browsers' form submission do; "fatal" throws an {@link EncodeError};
 * "subst" writes `substitute` instead; "skip" writes nothing for it.
 */
export type Unmappable = 'html' | 'fatal' | 'subst' | 'skip';

/** Options of encode(), Encoder and the encoding streams. */
export interface EncodeOptions {
  /** Default "html" (iconv-lite writes "?": use "subst" for that). */
  unmappable?: Unmappable;
  /**
   * The text written for each unmappable code point in "subst" mode
   * (default "?"), in the target encoding. A RangeError when the encoding
   * cannot encode it itself. In ISO-2022-JP it is written in the state the
   * encoder is in (escape sequences as needed).
   */
  substitute?: string;
  /**
   * Write a byte order mark first (default false): EF BB BF for UTF-8, FF FE
   * for UTF-16LE, FE FF for UTF-16BE; ignored for the other encodings.
   */
  bom?: boolean;
}

/**
 * How decode(), Decoder and the decoding streams treat a byte order mark:
 * "sniff" (default) is the Standard's "decode": a UTF-8, UTF-16LE or UTF-16BE
 * BOM at the start wins over the label and is removed; "strip" removes a BOM
 * of the label's own encoding only (UTF-8, UTF-16LE, UTF-16BE), as
 * TextDecoder does; "keep" decodes a BOM as U+FEFF.
 */
export type BomMode = 'sniff' | 'strip' | 'keep';

/** Options of decode(), Decoder and the decoding streams. */
export interface DecodeOptions {
  /** Throw a {@link DecodeError} at malformed input instead of writing
   * U+FFFD (default false). */
  fatal?: boolean;
  /** Default "sniff". */
  bom?: BomMode;
}

/** The TypeError of a fatal decode. */
export interface DecodeError extends TypeError {
  /** As Node's own TextDecoder's. */
  code: 'ERR_ENCODING_INVALID_ENCODED_DATA';
  /** The encoding's name, lower case. */
  encoding: string;
  /** Where the malformed sequence starts: bytes from the start of the input
   * (of the stream for Decoder, counting a BOM). */
  offset: number;
}

/** The TypeError of a fatal encode. */
export interface EncodeError extends TypeError {
  code: 'ERR_ENCODING_UNMAPPABLE';
  /** The encoding's name, lower case. */
  encoding: string;
  /** Where the code point is: UTF-16 code units from the start of the
   * string (of the stream for Encoder). */
  offset: number;
  /** The code point the encoding cannot represent. */
  codePoint: number;
}

/**
 * Encodes `string` (converted with String(), as TextEncoder does) into the
 * encoding `label` names. Lone surrogates are read as U+FFFD. UTF-16LE and
 * UTF-16BE labels write UTF-16 (the Standard's encoders would write UTF-8).
 * Throws a RangeError for a string that is not a label and for the
 * replacement encoding's labels (it has no encoder), an
 * {@link EncodeError} in "fatal" mode.
 *
 * Outputs of 65 to 4096 bytes may be views of a shared ArrayBuffer (a pool,
 * as Node's small Buffers are): `output.buffer` is then larger than the
 * output. Use `output.slice()` for an array with a buffer of its own (to
 * transfer it, say). Other outputs have their own buffer.
 */
export function encode(
  string: string,
  label: string,
  options?: EncodeOptions,
): Uint8Array;

/**
 * Decodes `bytes` in the encoding `label` names. The replacement
 * encoding's labels ("iso-2022-kr", "hz-gb-2312", ...) are accepted, as the
 * Standard decodes them: any non-empty input is one U+FFFD (an error in
 * fatal mode), the empty input "". Throws a RangeError for a string that is
 * not a label, a TypeError for bytes of another type, a
 * {@link DecodeError} when fatal.
 */
export function decode(
  bytes: Bytes,
  label: string,
  options?: DecodeOptions,
): string;

/**
 * The name of the encoding `label` names under the Standard's "get an
 * encoding" (ASCII whitespace around it removed, ASCII case ignored), in
 * lower case as TextDecoder's `encoding` gives it ("shift_jis", "utf-8",
 * "windows-1252"; "replacement" for that encoding's labels); null for a
 * string that is not a label.
 */
export function labelToName(label: string): string | null;

/** Whether `label` is one of the Standard's labels (the replacement
 * encoding's included: they decode, but encode() refuses them). */
export function encodingExists(label: string): boolean;

/**
 * A streaming decoder: chunks of bytes in, strings out; a sequence split
 * between chunks is decoded whole. `end()` finishes the stream (a truncated
 * sequence at the end is U+FFFD, or an error when fatal), and the next
 * `write()` starts a new one. After a thrown {@link DecodeError} the decoder
 * too starts a new stream.
 */
export class Decoder {
  /** Throws a RangeError for a string that is not a label. */
  constructor(label: string, options?: DecodeOptions);
  /** The name of the label's encoding, lower case (not changed by a BOM). */
  readonly encoding: string;
  write(bytes: Bytes): string;
  end(bytes?: Bytes): string;
}

/**
 * A streaming encoder: strings in, bytes out; a high surrogate at the end of
 * a chunk waits for the next chunk. `end()` finishes the stream (ISO-2022-JP
 * returns to ASCII; a lone high surrogate at the end is U+FFFD), and the
 * next `write()` starts a new one (with the BOM again, when asked for).
 * After a thrown {@link EncodeError} the encoder too starts a new stream.
 * Its outputs may share a buffer, as encode()'s do.
 */
export class Encoder {
  /** Throws a RangeError for a string that is not a label, and for the
   * replacement encoding's labels. */
  constructor(label: string, options?: EncodeOptions);
  /** The name of the label's encoding, lower case. */
  readonly encoding: string;
  write(string: string): Uint8Array;
  end(string?: string): Uint8Array;
}

/** A web TransformStream: bytes in, strings out (a {@link Decoder}).
 * A fatal error errors the stream. */
export function decoderStream(
  label: string,
  options?: DecodeOptions,
): TransformStream<Bytes, string>;

/** A web TransformStream: strings in (converted with String()), Uint8Arrays
 * out (an {@link Encoder}). A fatal error errors the stream. */
export function encoderStream(
  label: string,
  options?: EncodeOptions,
): TransformStream<string, Uint8Array>;

/**
 * A Node stream.Transform, as iconv-lite's decodeStream: Buffers (or
 * Uint8Arrays) in, strings out (its readable side has encoding "utf8", so
 * 'data' gives strings). A string written is a TypeError; a fatal error is
 * the stream's 'error'.
 */
export function decodeStream(
  label: string,
  options?: DecodeOptions,
): Transform;

/**
 * A Node stream.Transform, as iconv-lite's encodeStream: strings in,
 * Buffers out. Anything but a string written is a TypeError; a fatal error
 * is the stream's 'error'.
 */
export function encodeStream(
  label: string,
  options?: EncodeOptions,
): Transform;

/** Which backend this is: the native addon or the WebAssembly build. */
export const backend: 'native' | 'wasm';
