// The threads experiment's page (Web/threads/bench.sh serves it cross-origin isolated and opens
// it in headless Chromium). Checks each build and mode against the known answers in cases.json
// (computed by the reference argon2 CLI), then times the first case (or the one `case` names by index) `runs` times per mode, the
// modes in a rotating order, reading the browser's CPU time around each derivation (/cpu), and
// posts everything to /report. Modes:
//   single:          single.wasm (no threads, as mypass.wasm is built), Argon2.deriveKey with the
//                    lanes one after another, on one worker;
//   threads-2:       threads.wasm (atomics, shared memory), lane 0 on the lead worker and lane 1
//                    on a helper worker, a barrier per slice;
//   threads-serial:  threads.wasm, Argon2.deriveKey on the lead worker alone (what the threads
//                    build costs when it runs one thread).
const params = new URLSearchParams(location.search);
const runs = Number(params.get("runs") || 7);
const report = { runs, isolated: self.crossOriginIsolated, userAgent: navigator.userAgent, checks: [], timings: [] };
const cpu = async () => (await (await fetch("/cpu")).json()).seconds;

function worker() {
  const w = new Worker(new URL("worker.js", import.meta.url));
  w.ask = (message) => new Promise((resolve, reject) => {
    w.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
    w.postMessage(message);
  });
  return w;
}

// Served without the isolation headers (bench.sh --not-isolated): what a page could still do.
async function probeNotIsolated() {
  const probe = { sharedArrayBuffer: typeof SharedArrayBuffer };
  const cases = await (await fetch("cases.json")).json();
  const small = cases[cases.length - 1];
  for (const name of ["single.wasm", "threads.wasm", "threads.wasm, memory made in the worker"]) {
    try {
      const module = await WebAssembly.compileStreaming(fetch(name.split(",")[0]));
      const lead = worker();
      const message = { kind: "lead", module };
      if (name == "threads.wasm") message.memory = new WebAssembly.Memory({ initial: 32, maximum: 32768, shared: true });
      if (name.includes("in the worker")) message.makeSharedMemory = true;
      await lead.ask(message);
      const encode = (text) => new TextEncoder().encode(text);
      const { key } = await lead.ask({ kind: "derive", mode: "serial", password: encode(small.password),
        salt: encode(small.salt), memoryKiB: small.memoryKiB, iterations: small.iterations, lanes: small.lanes,
        variant: small.variant });
      probe[name] = key == small.key ? "derived the known key on one worker" : "wrong key " + key;
    } catch (error) {
      probe[name] = "failed: " + String(error && error.message || error);
    }
  }
  return probe;
}

try {
  if (params.get("probe")) {
    report.probe = await probeNotIsolated();
    throw new Error("probe only");
  }
  if (!self.crossOriginIsolated) throw new Error("the page is not cross-origin isolated: no SharedArrayBuffer");
  const cases = await (await fetch("cases.json")).json();
  const [single, threads] = await Promise.all(["single.wasm", "threads.wasm"].map((name) =>
    WebAssembly.compileStreaming(fetch(name))));
  const singleLead = worker();
  await singleLead.ask({ kind: "lead", module: single });
  // Shared memory as threads.wasm is linked: 2 MiB to start, 2 GiB at most.
  const memory = new WebAssembly.Memory({ initial: 32, maximum: 32768, shared: true });
  const sync = new SharedArrayBuffer(64);
  const threadsLead = worker();
  const { stacks } = await threadsLead.ask({ kind: "lead", module: threads, memory, sync, helpers: 1 });
  const helper = worker();
  await helper.ask({ kind: "helper", module: threads, memory, sync, lane: 1, workers: 2, stackTop: stacks[0] });
  const encode = (text) => new TextEncoder().encode(text);
  const run = (mode, c) => {
    const message = { kind: "derive", password: encode(c.password), salt: encode(c.salt), memoryKiB: c.memoryKiB,
      iterations: c.iterations, lanes: c.lanes, variant: c.variant };
    if (mode == "single") return singleLead.ask({ ...message, mode: "serial" });
    if (mode == "threads-2") return threadsLead.ask({ ...message, mode: "threads" });
    if (mode == "threads-stepwise") return threadsLead.ask({ ...message, mode: "stepwise" });
    return threadsLead.ask({ ...message, mode: "serial" });
  };
  const modes = ["single", "threads-2", "threads-serial"];
  for (const c of cases) {
    for (const mode of [...modes, "threads-stepwise"]) {
      const { key } = await run(mode, c);
      report.checks.push({ case: c.name, mode, key, expected: c.key, pass: key == c.key });
    }
  }
  const bench = cases[Number(params.get("case") || 0)];
  report.benchCase = bench.name;
  for (const mode of modes) await run(mode, bench); // warm-up: memory grown, code tiered up
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(i + k) % modes.length];
      const cpuBefore = await cpu();
      const started = performance.now();
      const result = await run(mode, bench);
      const wall = (performance.now() - started) / 1000;
      report.timings.push({ mode, round: i, wall, inWorker: result.wall, waited: result.waited, cpu: (await cpu()) - cpuBefore,
        pass: result.key == bench.key });
    }
  }
} catch (error) {
  report.failure = String(error && error.stack || error);
}
await fetch("/report", { method: "POST", body: JSON.stringify(report) });
document.body.append("done");
