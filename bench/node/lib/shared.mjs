// What bench.js and browser.js (Node, through require) and lib/page.mjs
// (browser.js's page) need alike: the check of outputs, the timing loop and
// the rounds. Standard JavaScript only.

// Whether an output (string, or bytes as a Uint8Array or array of numbers)
// is the expected one.
export function same(output, expected) {
  if (typeof expected === 'string') return output === expected;
  if (output == null || typeof output.length !== 'number' ||
      output.length !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) {
    if (output[i] !== expected[i]) return false;
  }
  return true;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]
    : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Runs each implementation ({ name, fn }, fn null where it lacks the row)
// over every input and compares its outputs with the first one's that ran
// (or with expected when none ran before it). Returns { checked: [{ name,
// fn, status: 'ok' | 'differs' | 'error', error }], warning } where warning
// says when the first one's outputs are not expected (the row's text or
// bytes).
export function check(implementations, inputs, expected) {
  let want = null;
  let warning = null;
  const checked = [];
  for (const { name, fn } of implementations) {
    if (!fn) continue;
    let outputs;
    try {
      outputs = inputs.map((input) => fn(input));
    } catch (error) {
      checked.push({ name, fn, status: 'error', error });
      continue;
    }
    if (!want) {
      want = outputs;
      if (!outputs.every((output, i) => same(output, expected[i]))) {
        warning = `${name} does not round-trip this row's text`;
      }
    }
    const ok = outputs.every((output, i) => same(output, want[i]));
    checked.push({ name, fn, status: ok ? 'ok' : 'differs' });
  }
  return { checked, warning };
}

// loop(fn, inputs, roundMs, sink, now) runs fn over inputs until now()
// (milliseconds) has advanced by roundMs, adds the outputs' lengths to
// sink.value, and returns how many times it went over them. newLoop()
// compiles a fresh copy: each implementation in each row gets its own, so
// that its calls of fn are not made megamorphic by the other
// implementations' (V8 shares type feedback between closures of one
// function literal).
const LOOP_SOURCE = `
  let passes = 0;
  let total = 0;
  const start = now();
  do {
    for (let i = 0; i < inputs.length; i++) total += fn(inputs[i]).length;
    passes++;
  } while (now() - start < roundMs);
  sink.value += total;
  return passes;`;

export const newLoop = () => new Function('fn', 'inputs', 'roundMs', 'sink',
  'now', LOOP_SOURCE);

// Times count implementations: round(i, ms) runs implementation i for about
// ms and resolves to its speed (bytes per second). A round of warmMs each to
// warm up (not counted), then rounds rounds of roundMs, taking turns in an
// order that rotates by one each round. Resolves to each one's median.
export async function timeRounds(count, { rounds, roundMs, warmMs }, round) {
  const samples = Array.from({ length: count }, () => []);
  for (let r = -1; r < rounds; r++) {
    for (let k = 0; k < count; k++) {
      const i = (k + Math.max(r, 0)) % count;
      const value = await round(i, r < 0 ? warmMs : roundMs);
      if (r >= 0) samples[i].push(value);
    }
  }
  return samples.map(median);
}
