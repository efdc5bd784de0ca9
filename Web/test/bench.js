// The benchmark of `Web/check.sh --bench`: opens the KeePass-default vault (Argon2d 64 MiB, 2
// iterations, 2 lanes) with the page's ES module and lists it, `runs` times, alternating with
// native `mypass ls` of the same file, which the test server runs when asked (/native). Around
// each open in the page the server reads the browser's CPU time (/cpu: user + system of every
// Chromium process, in ticks and in nanoseconds per thread); then it reads /cpu twice with nothing
// between, RUNS times: what the reading itself costs. Posts the figures to /report; check.sh prints
// medians and ratios.
import { MyPass } from "../mypass.js";

const runs = Number(new URLSearchParams(location.search).get("runs") || 5);
const report = { runs, page: [], native: [] };
const cpu = async () => await (await fetch("/cpu")).json();
try {
  const mypass = await MyPass.load(new URL("../mypass.wasm", import.meta.url));
  const bytes = new Uint8Array(await (await fetch("vaults/argon2d-64mib.kdbx")).arrayBuffer());
  // One open first, outside the figures: the heap grows to the matrix once and V8 tiers up.
  mypass.open(bytes, "demo").close();
  for (let i = 0; i < runs; i++) {
    report.native.push(await (await fetch("/native")).json());
    const cpuBefore = await cpu();
    const started = performance.now();
    const vault = mypass.open(bytes, "demo");
    const count = vault.list().length;
    const wall = (performance.now() - started) / 1000;
    vault.close();
    const cpuAfter = await cpu();
    report.page.push({ wall, cpu: cpuAfter.seconds - cpuBefore.seconds, runtime: cpuAfter.runtime - cpuBefore.runtime,
                       entries: count });
  }
  // What the measurement itself costs: the same two /cpu reads with nothing between them.
  report.idle = [];
  for (let i = 0; i < runs; i++) {
    const before = await cpu(), after = await cpu();
    report.idle.push({ cpu: after.seconds - before.seconds, runtime: after.runtime - before.runtime });
  }
} catch (error) {
  report.failure = String(error && error.stack || error);
}
await fetch("/report", { method: "POST", body: JSON.stringify(report) });
document.body.append("done");
