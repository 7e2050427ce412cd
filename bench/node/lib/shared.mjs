// What bench.js (Node, through require) and lib/page.mjs (the browser page
// of browser.js) both need: the comparison of outputs, the median, and the
// timing loop. Standard JavaScript only.

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

// rate(fn, inputs, bytesPerPass, roundMs, sink, now) runs fn over inputs
// until now() (milliseconds: CPU time in Node, wall time in a page) has
// advanced by roundMs, adds the outputs' lengths to sink.value, and returns
// bytes per second. newRate() compiles a fresh copy: each implementation in
// each row gets its own, so that its calls of fn are not made megamorphic by
// the other implementations' (V8 shares type feedback between closures of
// one function literal).
const RATE_SOURCE = `
  let passes = 0;
  let total = 0;
  const start = now();
  let used = 0;
  do {
    for (let i = 0; i < inputs.length; i++) total += fn(inputs[i]).length;
    passes++;
    used = now() - start;
  } while (used < roundMs);
  sink.value += total;
  return (bytesPerPass * passes) / (used / 1e3);`;

export const newRate = () => new Function('fn', 'inputs', 'bytesPerPass',
  'roundMs', 'sink', 'now', RATE_SOURCE);
