'use strict';
// Command-line options, the comparison of outputs, and the Markdown tables,
// shared by bench.js and browser.js.

const shared = require('./shared.mjs');

const DEFAULT_SIZES = [16, 1024, 1048576];

// --quick, --filter WORD (repeatable: a row's name "decode shift_jis
// ja.txt 1 KiB" must contain every WORD), --sizes 16,1024,1048576,
// --rounds N, --round-ms N, --gc (bench.js). Each implementation warms up
// for a round, or warmMs when longer.
function parseOptions(argv, usage, warmMs = 0) {
  const options = { quick: false, filters: [], sizes: DEFAULT_SIZES,
    rounds: null, roundMs: null, gc: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--quick') options.quick = true;
    else if (arg === '--filter') options.filters.push(value());
    else if (arg === '--sizes') options.sizes = numbers(value(), arg);
    else if (arg === '--rounds') options.rounds = numbers(value(), arg)[0];
    else if (arg === '--round-ms') options.roundMs = numbers(value(), arg)[0];
    else if (arg === '--gc') options.gc = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(usage);
      process.exit(0);
    } else fail(`unknown option ${arg}`);
  }
  options.rounds ??= options.quick ? 3 : 7;
  options.roundMs ??= options.quick ? 25 : 100;
  options.warmMs = Math.max(options.roundMs, warmMs);
  return options;

  function fail(message) {
    process.stderr.write(`bench: ${message}\n${usage}`);
    process.exit(2);
  }
  function numbers(text, arg) {
    const list = text.split(',').map(Number);
    if (list.some((n) => !Number.isInteger(n) || n <= 0)) {
      fail(`${arg} takes positive integers separated by commas`);
    }
    return list;
  }
}

const sizeName = (size) => (size >= 1048576 && size % 1048576 === 0
  ? `${size / 1048576} MiB` : size >= 1024 && size % 1024 === 0
    ? `${size / 1024} KiB` : `${size} B`);

const rowName = (direction, label, file, size) =>
  `${direction} ${label} ${file} ${sizeName(size)}`;

const wanted = (options, name) => options.filters.every((w) => name.includes(w));

const mbps = (value) => (value >= 100 ? value.toFixed(0)
  : value >= 10 ? value.toFixed(1) : value.toFixed(2));

// A row's ratios: ours over the fastest of the peers whose output was
// right (a peer whose output differs is timed but never the best).
// results: Map name → { mbps, status: 'ok' | 'differs' | 'error' }.
function best(results, names) {
  let top = null;
  for (const name of names) {
    const result = results.get(name);
    if (result && result.status === 'ok' && (!top || result.mbps > top.mbps)) {
      top = { name, mbps: result.mbps };
    }
  }
  return top;
}

function ratio(results, ours, peers) {
  const mine = results.get(ours);
  const top = best(results, peers);
  if (!mine || mine.status !== 'ok' || !top) return null;
  return { value: mine.mbps / top.mbps, peer: top.name };
}

function cell(result) {
  if (!result) return '—';
  if (result.status === 'error') return 'error';
  const text = mbps(result.mbps);
  return result.status === 'differs' ? `${text} ≠` : text;
}

// One Markdown table of rows { label, file, size, results }: a column of
// MB/s for each of columns (implementation names); a column for each of
// ratios ({ title, ours, peers }: ours over the best of peers); a column
// naming the best of each of bests ({ title, peers }).
function table(rows, columns, ratios, bests) {
  const head = ['encoding', 'text', 'size', ...columns.map((c) => `${c} MB/s`),
    ...ratios.map((r) => r.title), ...bests.map((b) => b.title), 'differs'];
  const numeric = (i) => i >= 3 && i < 3 + columns.length + ratios.length;
  const lines = [`| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (numeric(i) ? '---:' : '---')).join('|')}|`];
  for (const row of rows) {
    const notes = [];
    for (const status of ['differs', 'error']) {
      const names = columns.filter((c) => row.results.get(c)?.status === status);
      if (names.length) notes.push(`${status}: ${names.join(', ')}`);
    }
    const cells = [row.label, row.file, sizeName(row.size),
      ...columns.map((c) => cell(row.results.get(c))),
      ...ratios.map((r) => {
        const value = ratio(row.results, r.ours, r.peers);
        return value ? `**${value.value.toFixed(2)}**` : '—';
      }),
      ...bests.map((b) => best(row.results, b.peers)?.name ?? '—'),
      notes.join('; ')];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

// "median 1.23, worst 0.45 (row), 3 of 40 rows below 1" for one ratio.
function summary(rows, get) {
  const values = rows.map((row) => ({ row, r: get(row) })).filter((v) => v.r);
  if (!values.length) return 'no rows';
  const worst = values.reduce((a, b) => (b.r.value < a.r.value ? b : a));
  const behind = values.filter((v) => v.r.value < 1).length;
  return `median ${shared.median(values.map((v) => v.r.value)).toFixed(2)}, worst ` +
    `${worst.r.value.toFixed(2)} (${worst.row.label} ${worst.row.file} ` +
    `${sizeName(worst.row.size)}, against ${worst.r.peer}), ${behind} of ` +
    `${values.length} rows below 1`;
}

module.exports = { parseOptions, sizeName, rowName, wanted, mbps, best,
  ratio, table, summary };
