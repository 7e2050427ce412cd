'use strict';
/*
 * tools/chromium.js - drive headless Chromium over the Chrome DevTools
 * Protocol (CDP), with nothing but Node.js (no npm dependencies).
 *
 * Needs a global WebSocket: Node 22+, or Node 20 run with
 * --experimental-websocket (ensureWebSocket() re-executes the current
 * script with that flag when it is missing).
 *
 *   const chromium = require('./tools/chromium.js');
 *
 *   chromium.findChromium() -> path or null
 *       $CHROMIUM, else /usr/bin/chromium, chromium, chromium-browser,
 *       google-chrome on PATH.
 *
 *   chromium.ensureWebSocket() -> boolean
 *       In a script's main module, before launch(): true when there is a
 *       global WebSocket. Otherwise it runs the script again (same
 *       arguments) under node --experimental-websocket, forwarding
 *       SIGINT/SIGTERM/SIGHUP to it, exits with its status when it ends,
 *       and returns false: the caller must then do nothing more.
 *
 *   const browser = await chromium.launch({ executable, args, timeoutMs })
 *       Starts Chromium headless with a fresh temporary profile and
 *       --remote-debugging-port=0, reads "DevTools listening on ws://..."
 *       from its stderr and connects. args are added to DEFAULT_ARGS.
 *       timeoutMs (default 30000) bounds the start.
 *     browser.send(method, params, sessionId) -> Promise<result>
 *       One CDP command (browser-wide, or to a page's session).
 *     browser.on(event, fn) -> off()
 *       fn(params, sessionId) for every CDP event of that name.
 *     browser.newPage() -> Promise<page>
 *       A new tab (Target.createTarget, attached with flatten).
 *         page.send(method, params) -> Promise<result>
 *         page.navigate(url, { timeoutMs }) -> Promise (after "load")
 *         page.evaluate(expression, { timeoutMs }) -> Promise<value>
 *           Runtime.evaluate with awaitPromise and returnByValue; an
 *           exception in the page rejects with its text.
 *     browser.close() -> Promise
 *       Closes Chromium (Browser.close, then SIGKILL if it lingers) and
 *       removes the profile directory. Also done on process exit, so a
 *       crashed or interrupted caller leaves no Chromium behind.
 *
 *   await chromium.evaluateInPage(url, expression, { executable, args,
 *                                 timeoutMs })
 *       launch + newPage + navigate + evaluate + close, for one value.
 *
 *   chromium.DEFAULT_ARGS: --headless --no-sandbox --disable-gpu
 *       --disable-quic --no-first-run --disable-background-networking
 *       --disable-component-update --disable-sync
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const DEFAULT_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function findChromium() {
  if (process.env.CHROMIUM) {
    return fs.existsSync(process.env.CHROMIUM) ? process.env.CHROMIUM : null;
  }
  if (fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (process.env.PATH || '').split(path.delimiter)) {
      const candidate = path.join(dir, name);
      if (dir && fs.existsSync(candidate)) return candidate;
    }
  }
  return null;
}

function ensureWebSocket() {
  if (typeof WebSocket === 'function') return true;
  if (process.execArgv.includes('--experimental-websocket')) {
    throw new Error('this Node.js has no WebSocket, even with ' +
      '--experimental-websocket (Node 20.10+ or 22+ is needed)');
  }
  const child = spawn(process.execPath,
    [...process.execArgv, '--experimental-websocket', ...process.argv.slice(1)],
    { stdio: 'inherit' });
  // Signals sent to this process go to the one doing the work, which
  // cleans up (Chromium, its profile) before it exits.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => {
    console.error(error);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code !== null ? code :
      128 + (os.constants.signals[signal] || 0));
  });
  return false;
}

// Everything launched and not yet closed, cleaned up on process exit.
const live = new Set();
process.on('exit', () => {
  for (const instance of live) instance.killNow();
});

function withTimeout(promise, ms, what, onTimeout) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((resolve, reject) => {
      timer = setTimeout(() => {
        if (onTimeout) onTimeout();
        reject(new Error(`${what} did not finish in ${ms} ms`));
      }, ms);
    }),
  ]);
}

async function launch({ executable = findChromium(), args = [],
  timeoutMs = 30000 } = {}) {
  if (typeof WebSocket !== 'function') {
    throw new Error('no global WebSocket: run node with ' +
      '--experimental-websocket (Node 20) or call ensureWebSocket()');
  }
  if (!executable) throw new Error('no Chromium found (set $CHROMIUM)');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wenc-chromium-'));
  const child = spawn(executable, [
    ...DEFAULT_ARGS,
    ...args,
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });

  let exited = false;
  const exitPromise = new Promise((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
    child.once('error', () => {
      exited = true;
      resolve();
    });
  });
  const instance = {
    killNow() {
      if (!exited) {
        try {
          child.kill('SIGKILL');
        } catch {
          // already gone
        }
      }
      fs.rmSync(profile, { recursive: true, force: true });
      live.delete(instance);
    },
  };
  live.add(instance);

  let stderr = '';
  let socket;
  try {
    const wsUrl = await withTimeout(new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(
        `Chromium exited (${signal || code}) before DevTools listened:\n` +
        stderr.slice(-2000))));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (match) resolve(match[1]);
      });
    }), timeoutMs, 'starting Chromium');
    socket = new WebSocket(wsUrl);
    await withTimeout(new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error',
        () => reject(new Error(`cannot connect to ${wsUrl}`)), { once: true });
    }), timeoutMs, 'connecting to Chromium');
  } catch (error) {
    instance.killNow();
    throw error;
  }
  // Keep reading stderr so Chromium never blocks on a full pipe.
  child.stderr.on('data', () => {});

  let nextId = 1;
  const calls = new Map();
  const listeners = new Map();
  let closedError = null;
  // Rejects when the connection closes, so that no wait outlives Chromium.
  let connectionLost;
  const disconnected = new Promise((resolve, reject) => {
    connectionLost = reject;
  });
  disconnected.catch(() => {});
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.id !== undefined) {
      const call = calls.get(message.id);
      if (!call) return;
      calls.delete(message.id);
      if (message.error) {
        call.reject(new Error(`${call.method}: ${message.error.message}` +
          (message.error.data ? ` (${message.error.data})` : '')));
      } else {
        call.resolve(message.result);
      }
      return;
    }
    for (const fn of listeners.get(message.method) || []) {
      fn(message.params, message.sessionId);
    }
  });
  socket.addEventListener('close', () => {
    closedError = new Error('the DevTools connection closed');
    for (const call of calls.values()) call.reject(closedError);
    calls.clear();
    connectionLost(closedError);
  });

  function send(method, params = {}, sessionId = undefined) {
    if (closedError) return Promise.reject(closedError);
    const id = nextId++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject, method });
      socket.send(JSON.stringify(message));
    });
  }

  function on(event, fn) {
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event).add(fn);
    return () => listeners.get(event).delete(fn);
  }

  async function newPage() {
    const { targetId } = await send('Target.createTarget',
      { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget',
      { targetId, flatten: true });
    const page = {
      targetId,
      sessionId,
      send: (method, params) => send(method, params, sessionId),
      async navigate(url, { timeoutMs: ms = 30000 } = {}) {
        await page.send('Page.enable');
        let off;
        const loaded = new Promise((resolve) => {
          off = on('Page.loadEventFired', (params, session) => {
            if (session === sessionId) resolve();
          });
        });
        try {
          const result = await page.send('Page.navigate', { url });
          if (result.errorText) {
            throw new Error(`navigating to ${url}: ${result.errorText}`);
          }
          await withTimeout(Promise.race([loaded, disconnected]), ms,
            `loading ${url}`);
        } finally {
          off();
        }
      },
      async evaluate(expression, { timeoutMs: ms = 60000 } = {}) {
        const result = await withTimeout(page.send('Runtime.evaluate', {
          expression, awaitPromise: true, returnByValue: true,
        }), ms, 'evaluating in the page');
        if (result.exceptionDetails) {
          const details = result.exceptionDetails;
          const text = (details.exception && details.exception.description) ||
            details.text;
          throw new Error(`the page threw: ${text}`);
        }
        return result.result.value;
      },
    };
    return page;
  }

  async function close() {
    if (!exited) {
      try {
        await withTimeout(send('Browser.close'), 3000, 'Browser.close');
      } catch {
        // it is killed below
      }
      await withTimeout(exitPromise, 3000, 'Chromium exiting')
        .catch(() => {});
    }
    try {
      socket.close();
    } catch {
      // already closed
    }
    instance.killNow();
    await exitPromise;
  }

  return { send, on, newPage, close, process: child, profile };
}

async function evaluateInPage(url, expression, options = {}) {
  const browser = await launch(options);
  try {
    const page = await browser.newPage();
    await page.navigate(url, options);
    return await page.evaluate(expression, options);
  } finally {
    await browser.close();
  }
}

module.exports = {
  DEFAULT_ARGS, findChromium, ensureWebSocket, launch, evaluateInPage,
};
