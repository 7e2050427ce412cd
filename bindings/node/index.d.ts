// Types for the wenc Node.js package: the Encoding Standard's API (§7),
// TextDecoder, TextEncoder, TextDecoderStream and TextEncoderStream, as
// index.js exports them. The stream classes use Node's web streams
// (node:stream/web, typed by @types/node).

import type { ReadableStream, WritableStream } from 'node:stream/web';

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
