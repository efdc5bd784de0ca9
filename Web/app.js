// The page: open a vault the user picks, the flat list with search, one entry, edits, a saved
// copy to download, lock. All state is in mypass.wasm; this file only shows it.
import { MyPass } from "./mypass.js";

const $ = (id) => document.getElementById(id);
const mypass = await MyPass.load(new URL("mypass.wasm", import.meta.url));
let vault = null, selected = null;

function showError(error) {
  $("error").textContent = error ? (error.code ? `${error.code}: ${error.message}` : String(error)) : "";
}

function renderList() {
  const list = $("list");
  list.replaceChildren();
  const group = $("group").value;
  for (const item of vault.list($("search").value, group ? [group] : [])) {
    const li = document.createElement("li");
    li.dataset.uuid = item.uuid;
    const title = document.createElement("span");
    title.className = "title";
    title.textContent = item.title;
    const path = document.createElement("span");
    path.className = "path";
    path.textContent = item.path.length ? " " + item.path.join(" › ") : "";
    const user = document.createElement("span");
    user.className = "username";
    user.textContent = item.username ? " · " + item.username : "";
    li.append(title, user, path);
    if (item.uuid === selected) li.classList.add("selected");
    li.addEventListener("click", () => showEntry(item.uuid));
    list.append(li);
  }
  $("status").textContent = `${list.children.length} entries`;
}

/** The group picker: every group below the root, indented by depth (the app's group filter with
 *  one group chosen: that group and its subgroups). */
function renderGroups() {
  const picker = $("group");
  const all = document.createElement("option");
  all.value = "";
  all.textContent = "All groups";
  picker.replaceChildren(all);
  for (const group of vault.groups()) {
    if (group.path.length === 0) continue;
    const option = document.createElement("option");
    option.value = group.uuid;
    option.textContent = "\u00a0\u00a0".repeat(group.path.length - 1) + group.name;
    option.title = group.path.join(" › ");
    picker.append(option);
  }
}

function showEntry(uuid) {
  selected = uuid;
  const entry = vault.entry(uuid, Number(new URLSearchParams(location.search).get("time") || Date.now() / 1000));
  $("details").hidden = false;
  $("details").dataset.uuid = uuid;
  $("entry-title").textContent = entry.fields.Title ? entry.fields.Title.value : "";
  const dl = $("entry");
  dl.replaceChildren();
  const row = (name, value, hidden) => {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = name;
    dd.textContent = hidden ? "••••••" : value;
    dd.dataset.field = name;
    if (hidden) dd.addEventListener("click", () => { dd.textContent = value; }, { once: true });
    dl.append(dt, dd);
  };
  row("Path", entry.path.join("/"), false);
  for (const [name, field] of Object.entries(entry.fields)) row(name, field.value, field.protected);
  if (entry.tags.length) row("Tags", entry.tags.join(", "), false);
  if (entry.totp) row("TOTP", entry.totp.code, false);
  for (const li of $("list").children) li.classList.toggle("selected", li.dataset.uuid === uuid);
}

$("unlock").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(null);
  try {
    const file = $("file").files[0];
    if (!file) throw new Error("choose a vault file");
    const key = $("keyfile").files[0];
    const started = performance.now();
    if (vault) vault.close();
    vault = mypass.open(new Uint8Array(await file.arrayBuffer()), $("password").value,
                        key ? new Uint8Array(await key.arrayBuffer()) : null);
    $("password").value = "";
    document.body.dataset.openMs = String(Math.round(performance.now() - started));
    $("vault").hidden = false;
    renderGroups();
    renderList();
  } catch (error) {
    vault = null;
    $("vault").hidden = true;
    showError(error);
  }
});

$("search").addEventListener("input", () => renderList());
$("group").addEventListener("change", () => renderList());

$("edit").addEventListener("submit", (event) => {
  event.preventDefault();
  try {
    vault.setField($("details").dataset.uuid, $("edit-name").value, $("edit-value").value);
    showError(null);
    renderList();
    showEntry($("details").dataset.uuid);
  } catch (error) { showError(error); }
});

$("add").addEventListener("click", () => {
  try {
    const uuid = vault.addEntry("", "New entry");
    $("group").value = "";  // the new entry is in the root: show it
    renderList();
    showEntry(uuid);
  } catch (error) { showError(error); }
});

$("save").addEventListener("click", () => {
  try {
    const bytes = vault.save();
    const link = $("download");
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
    link.hidden = false;
    link.dataset.size = String(bytes.length);
    showError(null);
  } catch (error) { showError(error); }
});

$("lock").addEventListener("click", () => {
  if (vault) vault.close();
  vault = null;
  selected = null;
  $("vault").hidden = true;
  $("details").hidden = true;
  $("list").replaceChildren();
  $("group").replaceChildren();
  $("status").textContent = "locked";
});

document.body.dataset.ready = "1";
window.mypassPage = { get vault() { return vault; }, mypass };
