// A Web Worker of the threads experiment (Web/threads/bench.js starts them). One worker, the
// lead, instantiates a module and runs derivations when the page asks (postMessage); with the
// threads build it runs lane 0 of each slice itself and the other lanes on helper workers, which
// instantiate the same module on the same shared memory, each on a stack of its own, and wait for
// each slice's start and report its end through Atomics on a shared Int32Array:
//   [0] generation (bumped per slice), [1] pass, [2] slice, [3] stop, [4] helpers done this slice,
//   [5] the derivation's lane count (a helper with no lane of it only reports done).
const GENERATION = 0, PASS = 1, SLICE = 2, STOP = 3, DONE = 4, LANES = 5;
let helpers = 0;
const stackBytes = 1 << 20;
let exports, memory, sync;

async function instantiate(module, sharedMemory) {
  const imports = { wasi_snapshot_preview1: {
    // Never reached by Argon2; filled through a copy (getRandomValues refuses shared views).
    random_get(pointer, length) {
      const random = new Uint8Array(length);
      crypto.getRandomValues(random);
      new Uint8Array(memory.buffer, pointer, length).set(random);
      return 0;
    },
  } };
  if (sharedMemory) imports.env = { memory: sharedMemory };
  const instance = await WebAssembly.instantiate(module, imports);
  exports = instance.exports;
  memory = sharedMemory || exports.memory;
}

function copyIn(bytes) {
  const pointer = exports.argon2_lanes_alloc(Math.max(bytes.length, 1)) >>> 0;
  new Uint8Array(memory.buffer, pointer, bytes.length).set(bytes);
  return pointer;
}

// mode: "serial" (Argon2.deriveKey, lanes one after another, as the page does today),
// "stepwise" (the same through start/fill_segment/finish on this worker alone),
// "threads" (the lanes dealt round-robin: lane 0 here, lane 1 on the first helper, ...).
function derive({ mode, password, salt, memoryKiB, iterations, lanes, variant }) {
  const started = performance.now();
  let waited = 0;
  const passwordPointer = copyIn(password), saltPointer = copyIn(salt), output = exports.argon2_lanes_alloc(32) >>> 0;
  if (mode == "serial") {
    const status = exports.argon2_lanes_derive_serial(passwordPointer, password.length, saltPointer, salt.length,
      memoryKiB, iterations, lanes, variant, output);
    if (status != 0) throw new Error("derive_serial refused the parameters");
  } else {
    if (exports.argon2_lanes_start(passwordPointer, password.length, saltPointer, salt.length, memoryKiB, iterations,
      lanes, variant) != 0) throw new Error("start refused the parameters");
    for (let pass = 0; pass < iterations; pass++) {
      for (let slice = 0; slice < 4; slice++) {
        if (mode == "threads") {
          Atomics.store(sync, PASS, pass);
          Atomics.store(sync, SLICE, slice);
          Atomics.store(sync, DONE, 0);
          Atomics.store(sync, LANES, lanes);
          Atomics.add(sync, GENERATION, 1);
          Atomics.notify(sync, GENERATION);
          // With W = helpers + 1 workers: lanes 0, W, 2W... here, lanes i + 1, i + 1 + W... on helper i.
          for (let lane = 0; lane < lanes; lane += helpers + 1) exports.argon2_lanes_fill_segment(pass, slice, lane);
          const waitStarted = performance.now();
          for (let done; (done = Atomics.load(sync, DONE)) < helpers;) Atomics.wait(sync, DONE, done);
          waited += performance.now() - waitStarted;
        } else {
          for (let lane = 0; lane < lanes; lane++) exports.argon2_lanes_fill_segment(pass, slice, lane);
        }
      }
    }
    exports.argon2_lanes_finish(output);
  }
  const key = Array.from(new Uint8Array(memory.buffer, output, 32), (b) => b.toString(16).padStart(2, "0")).join("");
  return { key, wall: (performance.now() - started) / 1000, waited: waited / 1000 };
}

// A helper: fills `lane` (and lane + workers, ...) of each slice the lead announces, until [3] is set.
function helperLoop(lane, workers) {
  let seen = Atomics.load(sync, GENERATION);
  for (;;) {
    Atomics.wait(sync, GENERATION, seen);
    if (Atomics.load(sync, STOP)) return;
    const generation = Atomics.load(sync, GENERATION);
    if (generation == seen) continue;
    seen = generation;
    const lanes = Atomics.load(sync, LANES), pass = Atomics.load(sync, PASS), slice = Atomics.load(sync, SLICE);
    for (let own = lane; own < lanes; own += workers) exports.argon2_lanes_fill_segment(pass, slice, own);
    Atomics.add(sync, DONE, 1);
    Atomics.notify(sync, DONE);
  }
}

onmessage = async ({ data }) => {
  try {
    if (data.kind == "lead") {
      // (makeSharedMemory: the probe of a page that is not isolated, which cannot post one.)
      const shared = data.makeSharedMemory ? new WebAssembly.Memory({ initial: 32, maximum: 32768, shared: true }) : data.memory;
      await instantiate(data.module, shared);
      sync = data.sync && new Int32Array(data.sync);
      // Stacks for the helpers: the linker's __stack_pointer is this instance's; theirs come from the heap.
      const stacks = [];
      helpers = data.helpers || 0;
      for (let i = 0; i < helpers; i++) stacks.push((exports.argon2_lanes_alloc(stackBytes) >>> 0) + stackBytes);
      postMessage({ ready: true, stacks });
    } else if (data.kind == "helper") {
      await instantiate(data.module, data.memory);
      exports.__stack_pointer.value = data.stackTop;
      sync = new Int32Array(data.sync);
      postMessage({ ready: true });
      helperLoop(data.lane, data.workers);
      postMessage({ stopped: true });
    } else if (data.kind == "derive") {
      postMessage(derive(data));
    }
  } catch (error) {
    postMessage({ error: String(error && error.stack || error) });
  }
};
