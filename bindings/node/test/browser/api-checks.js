/*
 * The wider API (encode, decode, labelToName, encodingExists, Encoder,
 * Decoder, encoderStream, decoderStream) and the Standard's stream classes,
 * checked with exact values. Expected values are worked out by hand from
 * the Standard's index files and algorithms (the comments say how), and the
 * index entries they rest on are checked against the files themselves.
 *
 * A classic script in api.html (self.WencApiChecks) and a CommonJS module:
 *   runChecks(api, data) -> Promise<[{ name, status, message, assertions }]>
 * api is wenc's exports (plus TextDecoderStream and friends); data is
 * { index(name) -> Promise<Map pointer -> code point>, encodings() ->
 * Promise<encodings.json> }, or null when the Standard's data is missing
 * (the checks that need it are then "SKIP").
 */
(function (root) {
  'use strict';

  class CheckFailure extends Error {}

  const hex = (bytes) => Array.from(bytes,
    (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  const show = (value) => (typeof value === 'string' ?
    JSON.stringify(value).replace(/[\u0080-\uFFFF]/g, (c) =>
      `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) :
    String(value));
  const latin1 = (text) => Array.from(text, (c) => c.charCodeAt(0));
  const bytes = (...values) => new Uint8Array(values.flat(Infinity));
  const ESC_ASCII = [0x1B, 0x28, 0x42];   // ESC ( B
  const ESC_ROMAN = [0x1B, 0x28, 0x4A];   // ESC ( J
  const ESC_JIS0208 = [0x1B, 0x24, 0x42]; // ESC $ B

  function makeAsserts() {
    const state = { count: 0 };
    const fail = (what, text) => {
      throw new CheckFailure(`${what}: ${text}`);
    };
    const same = (actual, expected, what) => {
      state.count++;
      if (!Object.is(actual, expected)) {
        fail(what, `expected ${show(expected)}, got ${show(actual)}`);
      }
    };
    const sameBytes = (actual, expected, what) => {
      state.count++;
      if (!(actual instanceof Uint8Array) ||
          Object.getPrototypeOf(actual) !== Uint8Array.prototype) {
        fail(what, `expected a Uint8Array, got ${show(actual)}`);
      }
      if (actual.length !== expected.length ||
          actual.some((b, i) => b !== expected[i])) {
        fail(what, `expected ${hex(expected)}, got ${hex(actual)}`);
      }
    };
    const checkError = (error, type, props, what) => {
      if (!(error instanceof type)) {
        fail(what, `expected a ${type.name}, got ${show(error)}`);
      }
      for (const [key, value] of Object.entries(props)) {
        if (!Object.is(error[key], value)) {
          fail(what, `expected ${key} ${show(value)}, got ${show(error[key])}`);
        }
      }
    };
    const throws = (fn, type, props, what) => {
      state.count++;
      let result;
      try {
        result = fn();
      } catch (error) {
        checkError(error, type, props, what);
        return;
      }
      fail(what, `did not throw (returned ${show(result)})`);
    };
    const rejects = async (promise, type, props, what) => {
      state.count++;
      try {
        await promise;
      } catch (error) {
        checkError(error, type, props, what);
        return;
      }
      fail(what, 'did not reject');
    };
    return { state, same, sameBytes, throws, rejects };
  }

  // Every way of cutting a sequence into chunks that the checks use: whole,
  // one item a time, one item a time between empty chunks, and every cut
  // into three (the middle one possibly empty).
  function splits(items) {
    const result = [[items], items.map((x) => [x]),
      [[], ...items.flatMap((x) => [[x], []])]];
    for (let cut = 0; cut <= items.length; cut++) {
      for (let cut2 = cut; cut2 <= items.length; cut2++) {
        result.push([items.slice(0, cut), items.slice(cut, cut2),
          items.slice(cut2)]);
      }
    }
    return result;
  }

  // The index entries the expected values below rest on: [index, pointer,
  // code point], or [index, null, code point] for "not in the index".
  const INDEX_FACTS = [
    ['jis0208', 3569, 0x65E5], // 日
    ['jis0208', 4007, 0x672C], // 本
    ['jis0208', 107, 0x3013],  // 〓
    ['jis0208', null, 0x00E9],
    ['windows-1251', 0x46, 0x0416], // Ж is byte C6
    ['windows-1251', 0x65, 0x0435], // е is byte E5
    ['windows-1251', 0x6F, 0x043F], // п is byte EF
    ['windows-1251', 0x7E, 0x044E], // ю is byte FE
    ['windows-1251', 0x7F, 0x044F], // я is byte FF
    ['windows-1251', 0x3B, 0x00BB], // » is byte BB
    ['windows-1251', null, 0x00E9],
    ['big5', 5495, 0x4E00],   // 一: (A4 - 81) * 157 + (40 - 40)
    ['gb18030', 6432, 0x20AC],  // €: (A2 - 81) * 190 + (E3 - 41)
    ['gb18030', 16293, 0x4E2D], // 中: (D6 - 81) * 190 + (D0 - 41)
    ['gb18030', 7511, 0x00E9],  // é: (A8 - 81) * 190 + (A6 - 41)
  ];

  function* checks(api, data) {
    // Labels (the Standard's "get an encoding": ASCII whitespace trimmed,
    // ASCII case-insensitive; names as TextDecoder's encoding gives them).
    yield ['labelToName and encodingExists', (a) => {
      for (const [label, name] of [
        ['  SJIS\n', 'shift_jis'], ['\f latin1 \r', 'windows-1252'],
        ['UNICODE-1-1-UTF-8', 'utf-8'], ['hz-gb-2312', 'replacement'],
        ['x-user-defined', 'x-user-defined'], ['ucs-2', 'utf-16le'],
        ['unicodeFFFE', 'utf-16be'], ['x-mac-roman', 'macintosh'],
        ['utf-32', null], ['', null], ['utf-8\v', null],
        ['\u00A0utf-8', null], ['ucs2', null], ['cp932', null]]) {
        a.same(api.labelToName(label), name, `labelToName(${show(label)})`);
        a.same(api.encodingExists(label), name !== null,
          `encodingExists(${show(label)})`);
      }
    }];
    yield ['every label of encodings.json', async (a) => {
      let count = 0;
      for (const group of await data.encodings()) {
        for (const { name, labels } of group.encodings) {
          for (const label of labels) {
            count++;
            for (const variant of [label, label.toUpperCase(),
              `\t\n ${label}\f\r`]) {
              a.same(api.labelToName(variant), name.toLowerCase(),
                `labelToName(${show(variant)})`);
            }
          }
        }
      }
      a.same(count, 228, 'labels in encodings.json');
    }, 'data'];
    yield ['RangeError: unknown labels, and encoding to replacement', (a) => {
      const one = bytes(0x41);
      for (const [what, fn] of [
        ['encode to nope', () => api.encode('a', 'nope')],
        ['encode to utf-32', () => api.encode('a', 'utf-32')],
        ['decode from utf-32', () => api.decode(one, 'utf-32')],
        ['new Encoder(nope)', () => new api.Encoder('nope')],
        ['new Decoder(nope)', () => new api.Decoder('nope')],
        ['encoderStream(nope)', () => api.encoderStream('nope')],
        ['decoderStream(nope)', () => api.decoderStream('nope')],
        ['encode to replacement', () => api.encode('a', 'replacement')],
        ['encode to iso-2022-kr', () => api.encode('a', 'iso-2022-kr')],
        ['new Encoder(hz-gb-2312)', () => new api.Encoder('hz-gb-2312')],
        ['encoderStream(replacement)', () => api.encoderStream('replacement')],
        ['new TextDecoder(replacement)', () => new api.TextDecoder('replacement')],
        ['new TextDecoder(nope)', () => new api.TextDecoder('nope')]]) {
        a.throws(fn, RangeError, {}, what);
      }
      // The replacement decoder: any non-empty input is one U+FFFD.
      a.same(api.decode(bytes(0x41, 0x42), 'replacement'), '\uFFFD',
        'decode 41 42 from replacement');
      a.same(api.decode(bytes(), 'iso-2022-kr'), '', 'decode nothing');
      a.same(new api.Decoder('csiso2022kr').encoding, 'replacement',
        'Decoder(csiso2022kr).encoding');
    }];
    // Shift_JIS: pointer p is lead p / 188 + (0x81, or 0xC1 from 0x1F on)
    // and trail p % 188 + (0x40 below 0x3F, else 0x41). 日 3569: 18 → 0x93,
    // 185 → 0xFA; 本 4007: 21 → 0x96, 59 → 0x7B.
    yield ['Shift_JIS: \u65E5\u672C is 93 FA 96 7B', (a) => {
      const nihon = bytes(0x93, 0xFA, 0x96, 0x7B);
      a.sameBytes(api.encode('\u65E5\u672C', 'shift_jis'), nihon, 'encode');
      a.same(api.decode(nihon, 'sjis'), '\u65E5\u672C', 'decode');
      a.same(new api.TextDecoder('shift_jis').decode(nihon), '\u65E5\u672C',
        'TextDecoder');
    }];
    yield ['windows-1251 has no U+00E9: every unmappable mode', (a) => {
      // Ж is C6, я is FF (pointers 0x46 and 0x7F); é is not in the index.
      const text = '\u0416a\u00E9\u044F';
      a.sameBytes(api.encode(text, 'windows-1251'),
        bytes(0xC6, 0x61, latin1('&#233;'), 0xFF), 'html (default)');
      a.sameBytes(api.encode(text, 'cp1251', { unmappable: 'html' }),
        bytes(0xC6, 0x61, latin1('&#233;'), 0xFF), 'html');
      a.sameBytes(api.encode(text, 'cp1251', { unmappable: 'subst' }),
        bytes(0xC6, 0x61, 0x3F, 0xFF), 'subst');
      a.sameBytes(api.encode(text, 'cp1251',
        { unmappable: 'subst', substitute: '\u0416' }),
      bytes(0xC6, 0x61, 0xC6, 0xFF), 'subst Ж');
      a.sameBytes(api.encode(text, 'cp1251', { unmappable: 'skip' }),
        bytes(0xC6, 0x61, 0xFF), 'skip');
      const error = { code: 'ERR_ENCODING_UNMAPPABLE',
        encoding: 'windows-1251', codePoint: 0xE9, offset: 2 };
      a.throws(() => api.encode(text, 'windows-1251', { unmappable: 'fatal' }),
        TypeError, error, 'fatal');
      const encoder = new api.Encoder('windows-1251', { unmappable: 'fatal' });
      a.sameBytes(encoder.write('\u0416a'), bytes(0xC6, 0x61), 'Encoder');
      a.throws(() => encoder.write('\u00E9'), TypeError, error,
        'Encoder: the offset in the stream');
      a.throws(() => api.encode('a', 'cp1251',
        { unmappable: 'subst', substitute: '\u00E9' }), RangeError, {},
      'a substitute windows-1251 cannot encode');
    }];
    // FF FE 41 00 E5 65: a UTF-16LE BOM, then U+0041 and U+65E5. As
    // windows-1251: я ю A U+0000 е e.
    yield ['decode: a BOM wins over the label under bom sniff', (a) => {
      const input = bytes(0xFF, 0xFE, 0x41, 0x00, 0xE5, 0x65);
      a.same(api.decode(input, 'windows-1251'), 'A\u65E5', 'default');
      a.same(api.decode(input, 'windows-1251', { bom: 'sniff' }), 'A\u65E5',
        'sniff');
      for (const bom of ['strip', 'keep']) {
        a.same(api.decode(input, 'windows-1251', { bom }),
          '\u044F\u044EA\u0000\u0435e', bom);
      }
      a.same(api.decode(bytes(0xFE, 0xFF, 0x00, 0x41), 'utf-8'), 'A',
        'UTF-16BE BOM, label utf-8');
      a.same(api.decode(bytes(0xEF, 0xBB, 0xBF, 0x41), 'utf-16le'), 'A',
        'UTF-8 BOM, label utf-16le');
      a.same(api.decode(bytes(0xFF, 0xFE, 0x41, 0x00), 'utf-16le',
        { bom: 'keep' }), '\uFEFFA', 'keep: U+FEFF');
      // A BOM split in three: nothing is decided before its third byte.
      const decoder = new api.Decoder('windows-1251');
      a.same(decoder.write(bytes(0xEF)), '', 'EF');
      a.same(decoder.write(bytes(0xBB)), '', 'BB');
      a.same(decoder.write(bytes(0xBF, 0x41)), 'A', 'BF 41');
      a.same(decoder.end(), '', 'end');
      // Not a BOM after all: EF BB 41 is п » A.
      a.same(decoder.write(bytes(0xEF)), '', 'EF again');
      a.same(decoder.write(bytes(0xBB)), '', 'BB again');
      a.same(decoder.write(bytes(0x41)), '\u043F\u00BBA', '41');
      a.same(decoder.end(), '', 'end again');
    }];
    // Decoder: [label, bytes, { bom mode: expected }].
    const decoderSamples = [
      // BOM, a, 日 (E6 97 A5), U+1F600, E2 28 (E2 is an error, 28 is "("),
      // F0 9F truncated at the end: one error.
      ['utf-8', [0xEF, 0xBB, 0xBF, 0x61, 0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0x98,
        0x80, 0xE2, 0x28, 0xF0, 0x9F], 'a\u65E5\u{1F600}\uFFFD(\uFFFD', true],
      ['shift_jis', [0x93, 0xFA, 0x96, 0x7B, 0x41, 0x82],
        '\u65E5\u672CA\uFFFD'],
      // 88 62 and 88 64 are Big5's two-code-point pointers 1133 and 1135;
      // A4 40 is 一; A4 at the end is an error.
      ['big5', [0x88, 0x62, 0x41, 0xA4, 0x40, 0x88, 0x64, 0xA4],
        '\u00CA\u0304A\u4E00\u00CA\u030C\uFFFD'],
      // 81 30 81 30 is ranges pointer 0, U+0080; D6 D0 is 中; 81 30 at the
      // end is one error.
      ['gb18030', [0x81, 0x30, 0x81, 0x30, 0xD6, 0xD0, 0x81, 0x30],
        '\u0080\u4E2D\uFFFD'],
      // 日 and 本 in JIS X 0208 (pointer / 94 + 0x21, pointer % 94 + 0x21):
      // 46 7C and 4B 5C; ESC $ at the end: an error, then "$".
      ['iso-2022-jp', [0x61, ...ESC_JIS0208, 0x46, 0x7C, 0x4B, 0x5C,
        ...ESC_ASCII, 0x62, 0x1B, 0x24], 'a\u65E5\u672Cb\uFFFD$'],
      // BOM, A, U+1F600, a lone D800 and an odd byte: one error at the end.
      ['utf-16le', [0xFF, 0xFE, 0x41, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x00,
        0xD8, 0x41], 'A\u{1F600}\uFFFD', true],
    ];
    yield ['Decoder: every split gives the expected string', (a) => {
      for (const [label, input, expected, hasBom] of decoderSamples) {
        for (const bom of ['sniff', 'strip', 'keep']) {
          const want = (hasBom && bom === 'keep' ? '\uFEFF' : '') + expected;
          a.same(api.decode(bytes(input), label, { bom }), want,
            `decode ${label} ${bom}`);
          const decoder = new api.Decoder(label, { bom });
          for (const chunks of splits(input)) {
            let got = '';
            for (const chunk of chunks.slice(0, -1)) {
              got += decoder.write(bytes(chunk));
            }
            got += decoder.end(bytes(chunks[chunks.length - 1]));
            a.same(got, want, `Decoder ${label} ${bom} ${JSON.stringify(
              chunks)}`);
          }
        }
      }
    }];
    // Encoder: [label, options, string, expected bytes].
    const encoderSamples = [
      ['shift_jis', {}, '\u65E5\u672C\u00E9\uD83D\uDE00a',
        [0x93, 0xFA, 0x96, 0x7B, latin1('&#233;&#128512;'), 0x61]],
      ['shift_jis', { unmappable: 'skip' }, '\u65E5\u672C\u00E9\uD83D\uDE00a',
        [0x93, 0xFA, 0x96, 0x7B, 0x61]],
      // A lone D800 at the end is U+FFFD.
      ['utf-16be', {}, '\uD83D\uDE00x\uD800',
        [0xD8, 0x3D, 0xDE, 0x00, 0x00, 0x78, 0xFF, 0xFD]],
      ['utf-8', { bom: true }, 'a\uD83D\uDE00\uDBFF',
        [0xEF, 0xBB, 0xBF, 0x61, 0xF0, 0x9F, 0x98, 0x80, 0xEF, 0xBF, 0xBD]],
      // gb18030: U+1F600 is ranges pointer 0x1F600 - 0x10000 + 189000 =
      // 251976: 81 + 19, 30 + 9, 81 + 123, 30 + 6 (12600, 1260, 10); € and é
      // are two bytes (pointers 6432 and 7511).
      ['gb18030', {}, '\uD83D\uDE00\u20AC\u00E9',
        [0x94, 0x39, 0xFC, 0x36, 0xA2, 0xE3, 0xA8, 0xA6]],
      // ISO-2022-JP: é in the jis0208 state returns to ASCII (ESC ( B) and
      // fails there; 〓 (pointer 107: 22 2E) is written in that state; ¥
      // switches to Roman (ESC ( J 5C), where b is 62; the end returns to
      // ASCII.
      ['iso-2022-jp', { unmappable: 'subst', substitute: '\u3013' },
        'a\u65E5\u00E9\u672C\u00A5b',
        [0x61, ESC_JIS0208, 0x46, 0x7C, ESC_ASCII, ESC_JIS0208, 0x22, 0x2E,
          0x4B, 0x5C, ESC_ROMAN, 0x5C, 0x62, ESC_ASCII]],
    ];
    yield ['Encoder: every split gives the expected bytes', (a) => {
      for (const [label, options, text, expected] of encoderSamples) {
        const want = bytes(expected);
        a.sameBytes(api.encode(text, label, options), want,
          `encode ${label} ${JSON.stringify(options)}`);
        const encoder = new api.Encoder(label, options);
        for (const chunks of splits(text.split(''))) {
          const strings = chunks.map((units) => units.join(''));
          const outputs = strings.slice(0, -1).map((s) => encoder.write(s));
          outputs.push(encoder.end(strings[strings.length - 1]));
          a.sameBytes(bytes(outputs.map((o) => Array.from(o))), want,
            `Encoder ${label} ${JSON.stringify(strings)}`);
        }
      }
    }];
    const source = (chunks) => new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const collect = async (readable) => {
      const chunks = [];
      const reader = readable.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return chunks;
        chunks.push(value);
      }
    };
    const joinBytes = (chunks) => bytes(chunks.map((c) => Array.from(c)));
    yield ['encoderStream and decoderStream', async (a) => {
      const decoded = await collect(source([bytes(0xA4), bytes(0x40, 0x88),
        bytes(), bytes(0x62, 0xA4)]).pipeThrough(api.decoderStream('big5')));
      a.same(decoded.every((c) => typeof c === 'string'), true, 'strings');
      a.same(decoded.join(''), '\u4E00\u00CA\u0304\uFFFD', 'big5');
      const sniffed = await collect(source([bytes(0xFF), bytes(0xFE),
        bytes(0x41, 0)]).pipeThrough(api.decoderStream('shift_jis')));
      a.same(sniffed.join(''), 'A', 'a UTF-16LE BOM split, label shift_jis');
      const jis = await collect(source(['\u65E5', '\u00E9\u672C'])
        .pipeThrough(api.encoderStream('iso-2022-jp',
          { unmappable: 'subst' })));
      a.same(jis.every((c) => c instanceof Uint8Array), true, 'Uint8Arrays');
      a.sameBytes(joinBytes(jis), bytes(ESC_JIS0208, 0x46, 0x7C, ESC_ASCII,
        0x3F, ESC_JIS0208, 0x4B, 0x5C, ESC_ASCII), 'iso-2022-jp');
      const le = await collect(source(['a\uD83D', '\uDE00'])
        .pipeThrough(api.encoderStream('utf-16le', { bom: true })));
      a.sameBytes(joinBytes(le), bytes(0xFF, 0xFE, 0x61, 0x00, 0x3D, 0xD8,
        0x00, 0xDE), 'utf-16le, a pair split');
      await a.rejects(collect(source([bytes(0x41, 0xFF)])
        .pipeThrough(api.decoderStream('utf-8', { fatal: true }))),
      TypeError, { code: 'ERR_ENCODING_INVALID_ENCODED_DATA', offset: 1 },
      'fatal decoderStream');
      await a.rejects(collect(source(['\u0416', '\u00E9'])
        .pipeThrough(api.encoderStream('windows-1251',
          { unmappable: 'fatal' }))), TypeError,
      { code: 'ERR_ENCODING_UNMAPPABLE', codePoint: 0xE9, offset: 1 },
      'fatal encoderStream');
    }];
    yield ['TextDecoderStream: big5 split inside a character', async (a) => {
      const stream = new api.TextDecoderStream('big5');
      a.same(stream.encoding, 'big5', 'encoding');
      const out = await collect(source([bytes(0xA4), bytes(0x40, 0xA4),
        bytes(0x40), bytes(0x88), bytes(0x62)]).pipeThrough(stream));
      a.same(out.join(''), '\u4E00\u4E00\u00CA\u0304', 'output');
      await a.rejects(collect(source([bytes(0x41), bytes(0xA4)])
        .pipeThrough(new api.TextDecoderStream('big5', { fatal: true }))),
      TypeError, {}, 'fatal, A4 at the end');
      const utf8 = await collect(source(['\uD83D', '\uDE00'])
        .pipeThrough(new api.TextEncoderStream()));
      a.sameBytes(joinBytes(utf8), bytes(0xF0, 0x9F, 0x98, 0x80),
        'TextEncoderStream, a pair split');
    }];
    // 日 46 7C, 本 4B 5C, 〓 22 2E: é in jis0208 returns to ASCII first.
    yield ['ISO-2022-JP: a substitute in the middle of Japanese text', (a) => {
      const text = '\u65E5\u00E9\u672C';
      const around = (middle) => bytes(ESC_JIS0208, 0x46, 0x7C, ESC_ASCII,
        middle, ESC_JIS0208, 0x4B, 0x5C, ESC_ASCII);
      const geta = api.encode(text, 'iso-2022-jp',
        { unmappable: 'subst', substitute: '\u3013' });
      a.sameBytes(geta, bytes(ESC_JIS0208, 0x46, 0x7C, ESC_ASCII,
        ESC_JIS0208, 0x22, 0x2E, 0x4B, 0x5C, ESC_ASCII), 'substitute 〓');
      // Decoded back: ESC ( B right before ESC $ B is an escape sequence
      // after an escape sequence, which the Standard's decoder says is an
      // error (its "output" flag): U+FFFD.
      a.same(api.decode(geta, 'iso-2022-jp'), '\u65E5\uFFFD\u3013\u672C',
        'decoded back');
      a.sameBytes(api.encode(text, 'iso-2022-jp', { unmappable: 'subst' }),
        around(0x3F), 'substitute ?');
      a.sameBytes(api.encode(text, 'iso-2022-jp'), around(latin1('&#233;')),
        'html');
      a.sameBytes(api.encode(text, 'iso-2022-jp', { unmappable: 'skip' }),
        bytes(ESC_JIS0208, 0x46, 0x7C, ESC_ASCII, ESC_JIS0208, 0x4B, 0x5C,
          ESC_ASCII), 'skip');
      a.throws(() => api.encode(text, 'iso-2022-jp', { unmappable: 'fatal' }),
        TypeError, { codePoint: 0xE9, offset: 1, encoding: 'iso-2022-jp' },
        'fatal');
    }];
    yield ['SharedArrayBuffer: decode after an empty decode, encodeInto',
      (a) => {
        // 68 C3 A9 is "hé" in UTF-8.
        const shared = new SharedArrayBuffer(8);
        new Uint8Array(shared).set([0x68, 0xC3, 0xA9], 2);
        const view = new Uint8Array(shared, 2, 3);
        const decoder = new api.TextDecoder();
        a.same(decoder.decode(new Uint8Array(0)), '', 'empty');
        a.same(decoder.decode(view), 'h\u00E9', 'TextDecoder, shared');
        a.same(api.decode(new Uint8Array(0), 'utf-8'), '', 'decode() empty');
        a.same(api.decode(view, 'utf-8'), 'h\u00E9', 'decode(), shared');
        const target = new Uint8Array(new SharedArrayBuffer(8), 2, 4);
        const result = new api.TextEncoder().encodeInto('h\u00E9!', target);
        a.same(`${result.read} ${result.written}`, '3 4', 'encodeInto');
        a.sameBytes(new Uint8Array(target.buffer).slice(),
          bytes(0, 0, 0x68, 0xC3, 0xA9, 0x21, 0, 0), 'encodeInto, shared');
      }];
    yield ['index entries the expected values rest on', async (a) => {
      for (const [name, pointer, codePoint] of INDEX_FACTS) {
        const index = await data.index(name);
        if (pointer === null) {
          a.same([...index.values()].includes(codePoint), false,
            `index-${name}.txt has U+${codePoint.toString(16)}`);
        } else {
          a.same(index.get(pointer), codePoint,
            `index-${name}.txt pointer ${pointer}`);
        }
      }
    }, 'data'];
  }

  async function runChecks(api, data) {
    const results = [];
    for (const [name, fn, needs] of checks(api, data)) {
      if (needs === 'data' && !data) {
        results.push({ name, status: 'SKIP', message: 'no Standard data',
          assertions: 0 });
        continue;
      }
      const asserts = makeAsserts();
      try {
        await fn(asserts);
        results.push({ name, status: 'PASS', message: '',
          assertions: asserts.state.count });
      } catch (error) {
        results.push({ name, status: 'FAIL', assertions: asserts.state.count,
          message: error instanceof CheckFailure ? error.message :
            `threw ${error && error.stack || error}` });
      }
    }
    return results;
  }

  // An index file's text as a Map pointer -> code point.
  function parseIndex(text) {
    const index = new Map();
    for (const line of text.split('\n')) {
      const match = /^\s*(\d+)\s+0x([0-9A-F]+)/.exec(line);
      if (match) index.set(Number(match[1]), parseInt(match[2], 16));
    }
    return index;
  }

  const api = { runChecks, parseIndex, splits };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.WencApiChecks = api;
})(typeof self !== 'undefined' ? self : this);
