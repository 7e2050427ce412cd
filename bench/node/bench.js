'use strict';
// wenc's JavaScript API against what Node users pick instead, in one process
// on the same inputs (README.md here says what is timed and how).
//
//   make node && make wasm                   # wenc's two builds
//   npm ci --prefix bench/node               # the peers, pinned in package-lock.json
//   node bench/node/bench.js [--quick] [--filter WORD]... [--sizes 16,1024,1048576]
//                            [--rounds N] [--round-ms N] [--gc] [--one-process]
//
// Implementations: wenc native (bindings/node/native.js) and wenc wasm
// (bindings/node/wasm.js) through decode(bytes, label) and encode(string,
// label) (lib/wenc.js); iconv-lite, @exodus/bytes, encoding-japanese, Node's
// TextDecoder/TextEncoder and Buffer (lib/peers.js). Rows: lib/inputs.js.
// Each implementation's output is checked against wenc native's before it is
// timed; a row's figure is the median of rounds of CPU time, after a round
// to warm up; the tables are Markdown on standard output (lib/report.js).

const { execFileSync } = require('node:child_process');
const os = require('node:os');
const v8 = require('node:v8');
const vm = require('node:vm');
const { ENCODINGS, Inputs } = require('./lib/inputs.js');
const { loadWenc, wencVersion } = require('./lib/wenc.js');
const { loadPeers } = require('./lib/peers.js');
const report = require('./lib/report.js');
const shared = require('./lib/shared.mjs');

const USAGE = 'usage: node bench/node/bench.js [--quick] [--filter WORD]... ' +
  '[--sizes 16,1024,1048576] [--rounds N] [--round-ms N] [--gc] ' +
  '[--one-process]\n';

// Rows of this many bytes or more run each in a process of its own (this
// script again with --row NAME, which prints the row's results as JSON),
// unless --one-process: what a large row measures depends on the state of
// the heap, which the rows before it leave (see README.md).
const OWN_PROCESS_FROM = 65536;
const CHILD_WARM_MS = 500;

// Takes `flag` (and its value, when withValue) out of argv: the value, true
// for a flag without one, or undefined.
function takeOption(argv, flag, withValue) {
  const at = argv.indexOf(flag);
  if (at < 0) return undefined;
  const value = withValue ? argv[at + 1] : true;
  if (value === undefined) {
    process.stderr.write(`bench: ${flag} needs a value\n${USAGE}`);
    process.exit(2);
  }
  argv.splice(at, withValue ? 2 : 1);
  return value;
}

// glibc's malloc in a row's process keeps the memory it is given back
// (no mmap threshold that moves, no trimming): a 1 MiB output then lands
// on memory an earlier output had, instead of memory the kernel maps anew
// at a page fault a page (several microseconds each on this kind of
// virtual machine, and how many varied tenfold between runs). The same
// for every implementation; a variable already set is left as it is.
const CHILD_MALLOC = {
  MALLOC_MMAP_THRESHOLD_: String(256 << 20),
  MALLOC_TRIM_THRESHOLD_: String(1024 << 20),
  MALLOC_TOP_PAD_: String(64 << 20),
};

// The results of row `name` measured by a child process given argv.
function runRowInChild(argv, name) {
  const output = execFileSync(process.execPath,
    [__filename, ...argv, '--row', name],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20, env: { ...CHILD_MALLOC, ...process.env } });
  return new Map(JSON.parse(output));
}

const sink = { value: 0 };

// --gc: a full garbage collection before each round, outside the timed
// rounds, so each starts from a clean heap and none pays for the garbage
// another left. Then the 1 MiB rows measure a cold heap: every output's
// memory is fresh, and its page faults dominate. Without it a 1 MiB row
// measures whatever state the run has reached (one row of 1 MiB outputs
// was 10 times slower late in a full run than alone).
function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  vm.runInNewContext('gc')();
}

// Milliseconds of CPU time of the whole process (user + system).
function cpuMs() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

// Checks each implementation's output for every input against wenc
// native's (else expected), then times those that ran; resolves to
// Map name → { mbps, status }.
async function runRow(implementations, inputs, expected, bytesPerPass, options) {
  const { checked, warning } = shared.check(implementations, inputs, expected);
  if (warning) console.error(`  WARNING: ${warning}`);
  const timed = checked.filter((c) => c.status !== 'error');
  const loops = timed.map(() => shared.newLoop());
  const medians = await shared.timeRounds(timed.length, options, (i, ms) => {
    if (options.gc) collectGarbage();
    const start = cpuMs();
    const passes = loops[i](timed[i].fn, inputs, ms, sink, cpuMs);
    return (bytesPerPass * passes) / ((cpuMs() - start) / 1e3);
  });
  const results = new Map();
  for (const c of checked) {
    if (c.status === 'error') console.error(`  ${c.name} threw: ${c.error.message}`);
    results.set(c.name, c.status === 'error' ? { mbps: 0, status: 'error' }
      : { mbps: medians[timed.indexOf(c)] / 1e6, status: c.status });
  }
  return results;
}

async function main() {
  const started = process.hrtime.bigint();
  const argv = process.argv.slice(2);
  const onlyRow = takeOption(argv, '--row', true);
  const onePass = takeOption(argv, '--one-process', false) === true;
  // A row in a process of its own warms up for CHILD_WARM_MS: long enough
  // for V8 to have tiered the WebAssembly build's hot functions up from
  // its baseline compiler, as the earlier rows do in one process.
  const options = report.parseOptions(argv, USAGE,
    onlyRow === undefined ? 0 : CHILD_WARM_MS);
  const wenc = await loadWenc();
  const peers = loadPeers();
  const wencs = [wenc.native, wenc.wasm].filter(Boolean);
  const columns = ['wenc native', 'wenc wasm', ...peers.map((p) => p.name)];
  const jsPeers = peers.filter((p) => p.js).map((p) => p.name);
  const allPeers = peers.map((p) => p.name);
  const inputs = new Inputs(wenc.native);

  const header = [
    `Node ${process.version} (V8 ${process.versions.v8}, ICU ${process.versions.icu}), ` +
      `${os.cpus()[0].model}, ${os.cpus().length} CPUs, ${os.platform()} ${os.release()}`,
    `wenc ${wencVersion()}; ${peers.filter((p) => p.js)
      .map((p) => `${p.name} ${p.version}`).join(', ')}`,
    `median of ${options.rounds} rounds of ${options.roundMs} ms of CPU time; ` +
      'MB/s of encoded bytes (decode: input, encode: output) per CPU second',
  ];
  if (onlyRow === undefined) {
    for (const line of [...header, ...wenc.notes]) console.error(line);
  }

  const rows = { decode: [], encode: [] };
  for (const [label, file] of ENCODINGS) {
    for (const size of options.sizes) {
      const names = ['decode', 'encode'].map((d) => report.rowName(d, label, file, size));
      if (!names.some((name) => report.wanted(options, name) &&
        (onlyRow === undefined || name === onlyRow))) continue;
      const { dropped } = inputs.text(label, file);
      const pieces = inputs.pieces(label, file, size);
      const bytes = pieces.reduce((n, p) => n + p.bytes.length, 0);
      const strings = pieces.map((p) => p.string);
      const encoded = pieces.map((p) => p.bytes);
      for (const direction of ['decode', 'encode']) {
        const name = report.rowName(direction, label, file, size);
        if (!report.wanted(options, name)) continue;
        if (onlyRow !== undefined && name !== onlyRow) continue;
        if (onlyRow === undefined && !onePass && size >= OWN_PROCESS_FROM) {
          rows[direction].push({ label, file, size,
            results: runRowInChild(argv, name) });
          continue;
        }
        const make = direction === 'decode' ? 'decoder' : 'encoder';
        const implementations = [...wencs, ...peers].map((impl) =>
          ({ name: impl.name, fn: impl[make](label) }));
        const results = direction === 'decode'
          ? await runRow(implementations, encoded, strings, bytes, options)
          : await runRow(implementations, strings, encoded, bytes, options);
        rows[direction].push({ label, file, size, results });
        const line = columns.filter((c) => results.has(c)).map((c) => {
          const r = results.get(c);
          return `${c} ${r.status === 'error' ? 'error' : report.mbps(r.mbps)}` +
            `${r.status === 'differs' ? ' (differs)' : ''}`;
        }).join(', ');
        console.error(`${name} (${pieces.length} × ${(bytes / pieces.length)
          .toFixed(1)} B${dropped ? `, ${dropped} characters dropped` : ''}): ${line}`);
      }
    }
  }

  if (onlyRow !== undefined) {
    const results = [...rows.decode, ...rows.encode].flatMap((row) =>
      [...row.results]);
    console.log(JSON.stringify(results));
    return;
  }
  const ratios = [
    { title: 'native ÷ best peer', ours: 'wenc native', peers: allPeers },
    { title: 'wasm ÷ best JS peer', ours: 'wenc wasm', peers: jsPeers },
  ];
  const bests = [{ title: 'best peer', peers: allPeers },
    { title: 'best JS peer', peers: jsPeers }];
  const out = [...header.map((line) => `${line}  `), ...wenc.notes.map((n) => `**${n}**  `), ''];
  for (const direction of ['decode', 'encode']) {
    if (!rows[direction].length) continue;
    out.push(`### ${direction}`, '');
    out.push(report.table(rows[direction], columns, ratios, bests), '');
    for (const r of ratios) {
      out.push(`${r.title}: ${report.summary(rows[direction],
        (row) => report.ratio(row.results, r.ours, r.peers))}  `);
    }
    out.push('');
  }
  console.log(out.join('\n'));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.error(`bench: ${seconds.toFixed(0)} s (checksum ${sink.value & 0xff})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
