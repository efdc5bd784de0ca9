// MyPass in the browser: an ES module over mypass.wasm (Embedded Swift, wasm32, see
// docs/embedding.md#mypass-in-a-web-page). Everything happens inside the page: the vault's bytes
// go into the module's memory, the composite key is derived there (Argon2 and AES-KDF run in
// wasm), and a save gives bytes back for the user to download. No network.
//
//   import { MyPass } from "./mypass.js";
//   const mypass = await MyPass.load(new URL("mypass.wasm", import.meta.url));
//   const vault = mypass.open(fileBytes, "password", keyFileBytesOrNull);   // throws MyPassError
//   vault.list("search text", [groupUUID]); // [{uuid, title, username, url, path, tags}], the app's flat list
//   vault.groups();                     // [{uuid, name, path, entries}], the group tree for a picker
//   vault.entry(uuid, unixSeconds);     // {uuid, path, fields: {name: {value, protected}}, tags, totp}
//   vault.setField(uuid, "UserName", "sam", false); vault.addEntry("Work", "Title");
//   const bytes = vault.save();         // Uint8Array: a KDBX file, fresh seeds and IVs
//   vault.close();                      // the model and its secrets wiped from wasm memory

/** Error codes of the C ABI (negative return values); `MyPassError.code` is the name. */
export const ErrorCodes = Object.freeze({
  "-1": "wrongKey", "-2": "corruptedFile", "-3": "unsupported", "-4": "invalidKeyFile",
  "-5": "limitExceeded", "-6": "outOfMemory", "-7": "invalidArgument", "-8": "notFound",
  "-9": "invalidModel", "-10": "failed",
});

/** An error from the wasm module: `code` (a name of ErrorCodes), `message` (no secrets in it). */
export class MyPassError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "MyPassError";
    this.code = code;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

export class MyPass {
  /** Instantiates the module (fetch or bytes). Each MyPass has its own memory. */
  static async load(source) {
    const bytes = source instanceof Uint8Array || source instanceof ArrayBuffer
      ? source : await (await fetch(source)).arrayBuffer();
    const module = await WebAssembly.compile(bytes);
    return new MyPass(module);
  }

  constructor(module) {
    this.module = module;
    this.instantiate();
  }

  instantiate() {
    const self = this;
    let line = [];
    const imports = {
      wasi_snapshot_preview1: {
        // Standard output and error: what the module prints (fatalError's message) goes to the console.
        fd_write(fd, iovs, count, written) {
          const view = new DataView(self.memory.buffer);
          let total = 0;
          for (let i = 0; i < count; i++) {
            const pointer = view.getUint32(iovs + 8 * i, true), length = view.getUint32(iovs + 8 * i + 4, true);
            line.push(...new Uint8Array(self.memory.buffer, pointer, length));
            total += length;
          }
          const text = new TextDecoder().decode(new Uint8Array(line));
          line = [];
          if (text.trim()) console.log("mypass.wasm: " + text.trimEnd());
          view.setUint32(written, total, true);
          return 0;
        },
        random_get(pointer, length) {
          // getRandomValues takes at most 65536 bytes at a time.
          for (let offset = 0; offset < length; offset += 65536) {
            crypto.getRandomValues(new Uint8Array(self.memory.buffer, pointer + offset, Math.min(65536, length - offset)));
          }
          return 0;
        },
        proc_exit(code) { throw new WebAssembly.RuntimeError("mypass.wasm exited with " + code); },
      },
    };
    this.instance = new WebAssembly.Instance(this.module, imports);
    this.epoch = (this.epoch || 0) + 1;
    this.exports = this.instance.exports;
    this.memory = this.exports.memory;
    this.vaults = new Set();
  }

  /** Calls an export; a trap (out of memory the heap could not report, or a bug) becomes an
   *  `outOfMemory`/`failed` MyPassError and the module is started again (every open vault is gone). */
  call(name, ...args) {
    try {
      return this.exports[name](...args);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      for (const vault of this.vaults) vault.handle = 0;
      this.instantiate();
      throw new MyPassError("failed", "the wasm module stopped (" + error.message + "); it was restarted and every vault closed");
    }
  }

  /** Copies bytes into wasm memory; returns [pointer, length, epoch]. */
  put(bytes) {
    if (bytes === null || bytes === undefined) return [0, 0, this.epoch];
    if (typeof bytes === "string") bytes = encoder.encode(bytes);
    const pointer = this.call("mypass_alloc", bytes.length);
    if (bytes.length > 0 && pointer === 0) throw new MyPassError("outOfMemory", "cannot allocate " + bytes.length + " bytes in wasm memory");
    new Uint8Array(this.memory.buffer, pointer, bytes.length).set(bytes);
    return [pointer, bytes.length, this.epoch];
  }

  /** Wipes and frees what `put` copied in (nothing when the module was restarted since). */
  release([pointer, length, epoch]) {
    if (pointer !== 0 && epoch === this.epoch) this.call("mypass_dealloc", pointer, length);
  }

  /** The last call's result bytes (copied out), then wiped in wasm memory. */
  takeResult() {
    const pointer = this.call("mypass_result_pointer"), length = this.call("mypass_result_length");
    const bytes = new Uint8Array(this.memory.buffer, pointer, length).slice();
    this.call("mypass_result_clear");
    return bytes;
  }

  /** Throws the MyPassError for a negative status; returns the status otherwise. */
  check(status) {
    if (status >= 0) return status;
    const message = decoder.decode(this.takeResult());
    throw new MyPassError(ErrorCodes[String(status)] || "failed", message);
  }

  takeJSON() { return JSON.parse(decoder.decode(this.takeResult())); }

  /**
   * Opens a vault from its bytes. `password` is a string (or null for none), `keyFile` the key
   * file's bytes or null. The password's copy in wasm memory is wiped before this returns.
   * @throws MyPassError: wrongKey, corruptedFile, unsupported, invalidKeyFile, limitExceeded, outOfMemory.
   */
  open(fileBytes, password, keyFile = null) {
    const file = this.put(fileBytes);
    const secret = this.put(password === null ? null : password);
    const key = this.put(keyFile);
    try {
      const handle = this.check(this.call("mypass_open", file[0], file[1], secret[0], password === null ? -1 : secret[1], key[0], keyFile === null ? -1 : key[1]));
      const vault = new Vault(this, handle);
      this.vaults.add(vault);
      return vault;
    } finally {
      this.release(file); this.release(secret); this.release(key);
    }
  }

  /** Caps the module's memory at `bytes` (0: the 2 GiB it is linked with); a vault whose Argon2
   *  memory does not fit then fails to open with `outOfMemory`, before any KDF work. */
  setMemoryLimit(bytes) {
    this.call("mypass_set_memory_limit", bytes >>> 0);
  }

  /** Bytes the module's heap holds (blocks in use) and the size of its linear memory. */
  heap() {
    return { inUse: this.call("mypass_heap_in_use") >>> 0, memory: this.memory.buffer.byteLength };
  }
}

/** An open vault (a handle into the module). */
export class Vault {
  constructor(mypass, handle) {
    this.mypass = mypass;
    this.handle = handle;
  }

  /** The app's flat list: current entries of searchable groups (not the recycle bin), each with
   *  its breadcrumb; with `search`, those whose title, user name, URL or a tag contains it; with
   *  `groups` (UUIDs from `groups()`), those in one of these groups or their subgroups (the app's
   *  group filter; the recycle bin's entries too when it is chosen).
   *  @throws MyPassError notFound for a group that is not in the vault. */
  list(search = "", groups = []) {
    const m = this.mypass, text = m.put(search), ids = m.put(groups.join(""));
    try {
      m.check(m.call("mypass_list", this.handle, text[0], text[1], ids[0], ids[1]));
      return m.takeJSON();
    } finally { m.release(text); m.release(ids); }
  }

  /** The group tree in pre-order, the root first (path []): [{uuid, name, path, entries}]. */
  groups() {
    const m = this.mypass;
    m.check(m.call("mypass_groups", this.handle));
    return m.takeJSON();
  }

  /** One entry: every field (protected values included: the caller shows or hides them), tags and
   *  the TOTP code at `unixSeconds` (null without an OTP field). */
  entry(uuid, unixSeconds = Date.now() / 1000) {
    const m = this.mypass, id = m.put(uuid);
    try {
      m.check(m.call("mypass_entry", this.handle, id[0], id[1], Math.floor(unixSeconds)));
      return m.takeJSON();
    } finally { m.release(id); }
  }

  /** Sets one field (a standard one: Title, UserName, Password, URL, Notes; or a custom one);
   *  the entry's previous state goes to its history, as KeePass does. */
  setField(uuid, name, value, isProtected = name === "Password") {
    const m = this.mypass, id = m.put(uuid), key = m.put(name), text = m.put(value);
    try {
      m.check(m.call("mypass_set_field", this.handle, id[0], id[1], key[0], key[1], text[0], text[1], isProtected ? 1 : 0, Date.now() / 1000));
    } finally { m.release(id); m.release(key); m.release(text); }
  }

  /** Adds an entry titled `title` to the group at `groupPath` ("Work/Email"; "" for the root);
   *  returns its UUID (32 hex digits). */
  addEntry(groupPath, title) {
    const m = this.mypass, path = m.put(groupPath), name = m.put(title);
    try {
      m.check(m.call("mypass_add_entry", this.handle, path[0], path[1], name[0], name[1], Date.now() / 1000));
      return decoder.decode(m.takeResult());
    } finally { m.release(path); m.release(name); }
  }

  /** The vault as a KDBX file (same version, cipher and KDF; fresh seeds and IVs). */
  save() {
    const m = this.mypass;
    m.check(m.call("mypass_save", this.handle));
    return m.takeResult();
  }

  /** Closes the vault: the model is freed and every free byte of the module's heap is zeroed. */
  close() {
    if (this.handle !== 0) this.mypass.call("mypass_close", this.handle);
    this.mypass.vaults.delete(this);
    this.handle = 0;
  }
}
