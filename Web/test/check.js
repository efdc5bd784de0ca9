// The test driver of Web/check.sh: loads the page (../index.html) in a frame and uses it as a
// person would (picks a vault file, types the password, searches, opens an entry, edits, saves a
// copy, locks), then posts what the page showed to the test server (/report). check.sh compares
// that with `mypass`, KeePass (kporacle) and keepassxc-cli.
const report = { steps: [] };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TIME = 1700000000;

async function until(condition, what, seconds = 180) {
  console.log("check.js: waiting for " + what);
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const value = condition();
    if (value) return value;
    await sleep(20);
  }
  throw new Error("timed out waiting for " + what);
}

let doc = null, win = null;
const $ = (id) => doc.getElementById(id);

async function vaultBytes(name) {
  return new Uint8Array(await (await fetch("vaults/" + name)).arrayBuffer());
}

/** Picks the file and password in the form, clicks Open, waits for the list or an error. */
async function open(name, bytes, password) {
  const transfer = new win.DataTransfer();
  transfer.items.add(new win.File([bytes], name));
  $("file").files = transfer.files;
  $("password").value = password;
  $("error").textContent = "";
  $("vault").hidden = true;
  $("open").click();
  await until(() => !$("vault").hidden || $("error").textContent, "open " + name);
  return { error: $("error").textContent, openMs: Number(doc.body.dataset.openMs || 0) };
}

/** The list as the page shows it. */
function shownList() {
  return [...$("list").children].map((li) => ({
    uuid: li.dataset.uuid,
    title: li.querySelector(".title").textContent,
    username: li.querySelector(".username").textContent.replace(/^ · /, ""),
    path: li.querySelector(".path").textContent.trim(),
  }));
}

/** Picks a group in the group picker by its path (["Work"]; [] for all groups). */
async function pickGroup(path) {
  const wanted = path.join(" › ");
  const option = [...$("group").options].find((o) => (o.value === "" ? "" : o.title) === wanted);
  if (!option) throw new Error("no group " + wanted + " in the picker");
  $("group").value = option.value;
  $("group").dispatchEvent(new win.Event("change"));
  await sleep(0);
  return shownList();
}

async function search(text) {
  $("search").value = text;
  $("search").dispatchEvent(new win.Event("input"));
  await sleep(0);
  return shownList();
}

/** Clicks an entry in the list; reveals every hidden value by clicking it; returns the fields shown. */
async function showEntry(uuid) {
  [...$("list").children].find((li) => li.dataset.uuid === uuid).click();
  await until(() => $("details").dataset.uuid === uuid && !$("details").hidden, "entry details");
  const fields = {};
  for (const dd of $("entry").querySelectorAll("dd")) {
    if (dd.textContent === "••••••") dd.click();
    fields[dd.dataset.field] = dd.textContent;
  }
  return fields;
}

function bytesToBase64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(text);
}

function memoryContains(text) {
  const needle = new TextEncoder().encode(text);
  const haystack = new Uint8Array(win.mypassPage.mypass.memory.buffer);
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (haystack[i] !== needle[0]) continue;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

try {
  const frame = document.createElement("iframe");
  frame.src = "../index.html?time=" + TIME;
  frame.style = "width: 1000px; height: 800px";
  document.body.append(frame);
  await until(() => frame.contentDocument && frame.contentDocument.body && frame.contentDocument.body.dataset.ready === "1", "the page", 30);
  doc = frame.contentDocument;
  win = frame.contentWindow;
  const demo = await vaultBytes("demo.kdbx");
  // The demo vault: list, search, one entry, an edit, a new entry, a saved copy.
  report.demoOpen = await open("demo.kdbx", demo, "demo");
  report.demoList = shownList();
  report.searchExample = await search("example");
  report.searchTag = await search("2FA");
  await search("");
  // The group picker: the vault's groups; one chosen lists it and its subgroups, with search too.
  report.groupPicker = [...$("group").options].filter((o) => o.value !== "").map((o) => ({ uuid: o.value, path: o.title }));
  report.groupsJSON = win.mypassPage.vault.groups();
  report.groupWork = await pickGroup(["Work"]);
  report.groupWorkEmail = await pickGroup(["Work", "Email"]);
  await pickGroup(["Personal"]);
  report.groupPersonalSearch = await search("example");
  await search("");
  report.groupAll = await pickGroup([]);
  const github = report.demoList.find((item) => item.title === "GitHub").uuid;
  report.githubShown = await showEntry(github);
  report.githubEntry = win.mypassPage.vault.entry(github, TIME);
  // Protected values are kept masked: not in clear in wasm memory even while shown. An ordinary
  // value (GitHub's notes) is, which shows that the scan finds what is there.
  report.secretInMemoryWhileOpen = memoryContains("ghp_demoTokenNotReal0000000000000000") || memoryContains("gh-Xq8!vR2#mT5pL");
  report.notesInMemoryWhileOpen = memoryContains("Personal access tokens live in the Tokens field.");
  $("edit-name").value = "UserName";
  $("edit-value").value = "sam-web";
  $("edit-apply").click();
  await until(() => shownList().some((item) => item.username === "sam-web"), "the edit in the list");
  $("add").click();
  await until(() => shownList().some((item) => item.title === "New entry"), "the new entry");
  $("edit-name").value = "Title";
  $("edit-value").value = "Added in the browser";
  $("edit-apply").click();
  await until(() => shownList().some((item) => item.title === "Added in the browser"), "the new title");
  report.editedList = shownList();
  $("save").click();
  await until(() => !$("download").hidden, "the download link");
  const saved = new Uint8Array(await (await fetch($("download").href)).arrayBuffer());
  report.savedBase64 = bytesToBase64(saved);
  report.heapWhileOpen = win.mypassPage.mypass.heap();
  $("lock").click();
  report.lockedStatus = $("status").textContent;
  report.secretInMemoryAfterLock = memoryContains("ghp_demoTokenNotReal0000000000000000")
    || memoryContains("gh-Xq8!vR2#mT5pL") || memoryContains("sam-web")
    || memoryContains("Personal access tokens live in the Tokens field.");
  report.heapAfterLock = win.mypassPage.mypass.heap();

  // The saved copy opens again in the page.
  report.savedReopen = await open("saved.kdbx", saved, "demo");
  report.savedList = shownList();
  $("lock").click();

  // A page on a small device caps memory at 48 MiB: the 64 MiB vault is refused before its KDF.
  win.mypassPage.mypass.setMemoryLimit(48 << 20);
  report.cappedArgon2 = await open("argon2d-64mib.kdbx", await vaultBytes("argon2d-64mib.kdbx"), "demo");
  report.heapCapped = win.mypassPage.mypass.heap();
  win.mypassPage.mypass.setMemoryLimit(0);
  // KeePass-default cost: Argon2d 64 MiB, 2 iterations, 2 lanes.
  report.argon2Open = await open("argon2d-64mib.kdbx", await vaultBytes("argon2d-64mib.kdbx"), "demo");
  report.argon2List = shownList();
  report.heapArgon2 = win.mypassPage.mypass.heap();
  report.argon2Reopen = await open("argon2d-64mib.kdbx", await vaultBytes("argon2d-64mib.kdbx"), "demo");
  report.heapArgon2Again = win.mypassPage.mypass.heap();
  $("lock").click();

  // Errors the page shows.
  report.wrongPassword = await open("demo.kdbx", demo, "Demo");
  const damaged = demo.slice();
  damaged[damaged.length - 40] ^= 1;
  report.damaged = await open("damaged.kdbx", damaged, "demo");
  report.notKdbx = await open("notes.txt", new TextEncoder().encode("not a vault"), "demo");
  // Argon2 memory patched to 3 GiB in the header (its SHA-256 recomputed, so that the header
  // reads): more than wasm32 memory may grow to here. Refused before any KDF work.
  const huge = demo.slice();
  const marker = [0x05, 0x01, 0, 0, 0, 0x4d, 0x08, 0, 0, 0];  // UInt64 "M" in the KDF parameters
  const at = huge.findIndex((_, i) => marker.every((byte, j) => huge[i + j] === byte));
  huge.set([0, 0, 0, 0xc0, 0, 0, 0, 0], at + marker.length);
  // KDBX 4 header fields: id (1 byte), length (4 bytes LE), data, from offset 12 to the end field (id 0).
  let end = 12;
  for (;;) {
    const id = huge[end], length = huge[end + 1] | huge[end + 2] << 8 | huge[end + 3] << 16 | huge[end + 4] << 24;
    end += 5 + length;
    if (id === 0) break;
  }
  huge.set(new Uint8Array(await crypto.subtle.digest("SHA-256", huge.subarray(0, end))), end);
  report.hugeArgon2 = await open("huge.kdbx", huge, "demo");

  // And after all that the module still opens the demo vault.
  report.afterErrors = await open("demo.kdbx", demo, "demo");
  report.afterErrorsCount = shownList().length;
  $("lock").click();
} catch (error) {
  report.failure = String(error && error.stack || error);
  console.log("check.js: " + report.failure);
}
await fetch("/report", { method: "POST", body: JSON.stringify(report) });
document.body.append("done");
