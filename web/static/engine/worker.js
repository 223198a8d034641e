// The browser's engine in a Web Worker: package engine (the rules, the
// computer players and the proof searches, the server's own Go code)
// compiled to WebAssembly (engine/wasm, docs/engine-worker.md). The page
// talks to it through js/engine.js:
//
//   {type: 'load', url}            load the engine from url (once)
//   {type: 'call', id, op, req}    answer engine.Session's op with req
//   {type: 'book', id, name, bytes}  read a certificate file of the
//                                  server's book (answered as a call)
//
// and hears {type: 'ready', ms} (the engine's load time), {type:
// 'failed', error}, and for each call {type: 'progress', id, kind,
// value} then {type: 'result', id, value} or {type: 'error', id, error},
// the error as the server's API answers one ({error, code, vars}).
// One call runs at a time; the calls queue in order.

/* global Go, magnetonEngine */
importScripts('wasm_exec.js');

let loading = null;
let queue = Promise.resolve();

async function load(url) {
  const t0 = performance.now();
  const ready = new Promise((resolve) => { self.magnetonReady = resolve; });
  const go = new Go();
  let result;
  const res = fetch(url, { credentials: 'same-origin' });
  try {
    result = await WebAssembly.instantiateStreaming(res, go.importObject);
  } catch (e) {
    // A server that does not say application/wasm: read it whole.
    const bytes = await (await fetch(url, { credentials: 'same-origin' })).arrayBuffer();
    result = await WebAssembly.instantiate(bytes, go.importObject);
  }
  go.run(result.instance); // resolves when the program exits: never
  await ready;
  return Math.round(performance.now() - t0);
}

function call(id, op, req) {
  const progress = (kind, json) => self.postMessage({ type: 'progress', id, kind, value: JSON.parse(json) });
  return magnetonEngine.handle(op, JSON.stringify(req), progress).then(
    (json) => self.postMessage({ type: 'result', id, value: JSON.parse(json) }),
    (json) => {
      let error;
      try { error = JSON.parse(json); } catch (e) { error = { error: String(json) }; }
      self.postMessage({ type: 'error', id, error });
    });
}

function addBook(id, name, bytes) {
  return magnetonEngine.addBook(name, new Uint8Array(bytes)).then(
    () => self.postMessage({ type: 'result', id, value: name }),
    (json) => self.postMessage({ type: 'error', id, error: JSON.parse(json) }));
}

self.onmessage = (e) => {
  const m = e.data || {};
  if (m.type === 'load') {
    if (!loading) {
      loading = load(m.url);
      loading.then((ms) => self.postMessage({ type: 'ready', ms }),
        (err) => self.postMessage({ type: 'failed', error: String(err && err.message || err) }));
    }
    return;
  }
  if (m.type === 'call' || m.type === 'book') {
    // In order, each after the engine has loaded and the call before
    // has answered: the engine runs one request at a time.
    queue = queue.then(() => loading).then(() => (m.type === 'book' ? addBook(m.id, m.name, m.bytes) : call(m.id, m.op, m.req)),
      (err) => self.postMessage({ type: 'error', id: m.id, error: { error: String(err && err.message || err), code: 'engine_failed' } }));
  }
};
