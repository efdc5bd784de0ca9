import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX

// The C ABI of mypass.wasm (Embedded Swift, wasm32): what Web/mypass.js calls. Every function
// takes and returns 32-bit integers (pointers into the module's memory, lengths, handles) or a
// double (times in Unix seconds). Strings are UTF-8 (pointer, length).
//
// Results: a function that produces text or bytes leaves them in the result buffer
// (`mypass_result_pointer`, `mypass_result_length`); the caller copies them out and calls
// `mypass_result_clear`, which zeroes the buffer (it may hold secrets). A negative return value is
// an error code (`WebStatus`), and the result buffer then holds its message (never a secret).
//
// Memory: the caller gets buffers for its input with `mypass_alloc` and gives them back with
// `mypass_dealloc`, which zeroes them first. `mypass_close` frees a vault and then zeroes every
// free byte of the heap (Platform/WASIHeap.swift), so that nothing of the vault stays in memory.

/// The error codes of the C ABI (negative return values), one per class of failure a page shows.
enum WebStatus: Int32 {
    /// Wrong password or key file (or a modified header).
    case wrongKey = -1
    /// A damaged file (hash, HMAC, padding, gzip or XML).
    case corruptedFile = -2
    /// Not a KDBX file, or a version, cipher or KDF MyPass does not read.
    case unsupported = -3
    /// A key file that cannot be read.
    case invalidKeyFile = -4
    /// A size or cost limit (file, block, KDF iterations).
    case limitExceeded = -5
    /// The KDF's memory (or an allocation) does not fit into what wasm memory can grow to.
    case outOfMemory = -6
    /// A bad handle, UUID or argument (not UTF-8, negative length).
    case invalidArgument = -7
    /// No such entry or group.
    case notFound = -8
    /// The vault cannot be saved as it is, or the edit is not allowed.
    case invalidModel = -9
    /// Anything else.
    case failed = -10

    init(_ code: KDBXError.Code) {
        switch code {
        case .wrongKey, .missingKeyComponent: self = .wrongKey
        case .corruptedFile: self = .corruptedFile
        case .unsupported: self = .unsupported
        case .invalidKeyFile: self = .invalidKeyFile
        case .limitExceeded: self = .limitExceeded
        case .invalidModel: self = .invalidModel
        case .io, .cancelled: self = .failed
        }
    }

    init(_ error: CoreError) {
        switch error.code {
        case .notFound, .ambiguous: self = .notFound
        case .invalidOperation, .invalidOTP: self = .invalidModel
        case .wrongKey: self = .wrongKey
        case .limitExceeded: self = .limitExceeded
        default: self = .failed
        }
    }
}

/// An open vault: the model and the composite key a save uses.
struct OpenVault {
    var vault: Vault
    var key: CompositeKey
}

enum WebState {
    nonisolated(unsafe) static var vaults: [Int32: OpenVault] = [:]
    nonisolated(unsafe) static var nextHandle: Int32 = 1
    nonisolated(unsafe) static var result: UnsafeMutableBufferPointer<UInt8>?

    /// Replaces the result buffer (the old one zeroed) with a copy of `bytes`.
    static func setResult(_ bytes: [UInt8]) {
        clearResult()
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        result = UnsafeMutableBufferPointer(rebasing: buffer[0..<bytes.count])
    }

    /// Makes `buffer` the result buffer (taken over, zeroed and freed when cleared).
    static func setResult(taking buffer: UnsafeMutableBufferPointer<UInt8>) {
        clearResult()
        result = buffer
    }

    static func clearResult() {
        guard let old = result else { return }
        // secureZero: a plain store before a free is dead to the optimiser (at -Osize it was gone).
        if let base = old.baseAddress { secureZero(base, count: old.count) }
        old.baseAddress.map { UnsafeMutableRawPointer($0).deallocate() }
        result = nil
    }

    /// Sets the message as the result and returns the code.
    static func fail(_ status: WebStatus, _ message: String) -> Int32 {
        setResult(Array(message.utf8))
        return status.rawValue
    }

    static func fail(_ error: KDBXError) -> Int32 { fail(WebStatus(error.code), error.description) }
    static func fail(_ error: CoreError) -> Int32 { fail(WebStatus(error), error.description) }
}

/// The bytes at (pointer, length), copied; nil for a negative length (absent).
func bytesArgument(_ pointer: UnsafePointer<UInt8>?, _ length: Int32) -> [UInt8]? {
    guard length >= 0 else { return nil }
    guard let pointer, length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: Int(length)))
}

/// The UTF-8 text at (pointer, length); nil when it is not valid UTF-8.
func textArgument(_ pointer: UnsafePointer<UInt8>?, _ length: Int32) -> String? {
    guard let bytes = bytesArgument(pointer, length) else { return nil }
    return String(validatingUTF8Bytes: bytes)
}

// MARK: - Memory

/// A buffer of `length` bytes for the caller's input; 0 when `length` is not positive or memory
/// cannot grow that far.
@_expose(wasm, "mypass_alloc")
@_cdecl("mypass_alloc")
func mypassAlloc(_ length: Int32) -> UInt32 {
    guard length > 0, WASIHeap.reserve(UInt(length)) else { return 0 }
    return UInt32(UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: Int(length), alignment: 16)))
}

/// Zeroes and frees a buffer from `mypass_alloc` (`length` as allocated).
@_expose(wasm, "mypass_dealloc")
@_cdecl("mypass_dealloc")
func mypassDealloc(_ pointer: UnsafeMutableRawPointer?, _ length: Int32) {
    guard let pointer else { return }
    if length > 0 { secureZero(pointer, count: Int(length)) }
    pointer.deallocate()
}

@_expose(wasm, "mypass_result_pointer")
@_cdecl("mypass_result_pointer")
func mypassResultPointer() -> UInt32 {
    UInt32(UInt(bitPattern: WebState.result?.baseAddress))
}

@_expose(wasm, "mypass_result_length")
@_cdecl("mypass_result_length")
func mypassResultLength() -> Int32 { Int32(WebState.result?.count ?? 0) }

/// Zeroes and frees the result buffer.
@_expose(wasm, "mypass_result_clear")
@_cdecl("mypass_result_clear")
func mypassResultClear() { WebState.clearResult() }

/// Caps the module's linear memory at `bytes` (rounded down to 64 KiB pages; 0: no cap beyond the
/// 2 GiB it is linked with): a page on a small device can refuse a vault whose Argon2 memory would
/// not fit, with `outOfMemory`, before the browser kills the tab. Memory already grown stays.
@_expose(wasm, "mypass_set_memory_limit")
@_cdecl("mypass_set_memory_limit")
func mypassSetMemoryLimit(_ bytes: UInt32) {
    WASIHeap.limitBytes = bytes == 0 ? WASIHeap.maximumBytes : min(UInt(bytes), WASIHeap.maximumBytes)
}

/// Bytes of heap blocks in use (headers and rounding included).
@_expose(wasm, "mypass_heap_in_use")
@_cdecl("mypass_heap_in_use")
func mypassHeapInUse() -> UInt32 { UInt32(WASIHeap.bytesInUse) }

// MARK: - Open, save, close

/// The working memory an open needs beyond Argon2's matrix (the file, the XML, the model).
let openMarginBytes: UInt64 = 8 << 20

/// Argon2's matrix comes from the heap and goes back through `freeWiped`: the matrix is wiped by
/// Argon2 before it is freed (`CryptoPlatform.FreeLarge`'s contract), so `mypass_close` does not
/// zero those 64 MiB again. Installed before the first open (a later call is ignored).
func installCryptoPlatform() {
    CryptoPlatform.install(CryptoPlatform(largeMemory: (
        allocate: { byteCount in WASIHeap.allocate(byteCount, alignment: 64) },
        free: { pointer, byteCount in WASIHeap.freeWiped(pointer, byteCount) })))
}

/// Opens a vault from its bytes with a password (length -1: none) and a key file (length -1: none).
/// - Returns: a handle (1 or more), or a negative `WebStatus`: wrongKey, corruptedFile,
///   unsupported, invalidKeyFile, limitExceeded (Argon2 memory over the codec's 1 GiB limit),
///   outOfMemory (checked before the KDF runs: the vault's Argon2 memory and 8 MiB must fit into
///   what wasm memory can grow to, or the cap `mypass_set_memory_limit` set), invalidArgument.
@_expose(wasm, "mypass_open")
@_cdecl("mypass_open")
func mypassOpen(_ file: UnsafePointer<UInt8>?, _ fileLength: Int32, _ password: UnsafePointer<UInt8>?, _ passwordLength: Int32,
                _ keyFile: UnsafePointer<UInt8>?, _ keyFileLength: Int32) -> Int32 {
    guard let bytes = bytesArgument(file, fileLength) else { return WebState.fail(.invalidArgument, "no file") }
    installCryptoPlatform()
    do throws(KDBXError) {
        let (header, _) = try KDBXHeader.read(from: bytes[...])
        let limits = KDBXLimits()
        if case .argon2(let settings) = header.kdf.settings {
            // The codec's limit first (a hostile header must not make memory grow), then room for
            // the matrix and the working memory, grown now if needed.
            guard settings.memoryBytes <= limits.maxArgon2MemoryBytes else {
                return WebState.fail(.limitExceeded,
                                     "Argon2 memory \(settings.memoryBytes) bytes exceeds the limit \(limits.maxArgon2MemoryBytes)")
            }
            // (64 bytes more: the matrix is aligned to 64 bytes, see installCryptoPlatform.)
            guard WASIHeap.reserve(UInt(settings.memoryBytes) + 64, margin: UInt(openMarginBytes)) else {
                return WebState.fail(.outOfMemory,
                                     "the vault's Argon2 memory (\(settings.memoryBytes) bytes) and \(openMarginBytes) bytes to work in do not fit into this page's memory (\(WASIHeap.limitBytes) bytes at most)")
            }
        }
        var keyFileBytes = bytesArgument(keyFile, keyFileLength)
        defer { if keyFileBytes != nil { wipe(&keyFileBytes!) } }
        // An empty password (length 0) is a password; -1 is none.
        let secret = passwordLength >= 0
            ? ProtectedString(utf8Bytes: UnsafeBufferPointer(start: passwordLength > 0 ? password : nil, count: Int(passwordLength))) : nil
        let key = try CompositeKey(password: secret, keyFileContents: keyFileBytes)
        let vault = try KDBXCodec.open(bytes, key: key, limits: limits)
        let handle = WebState.nextHandle
        WebState.nextHandle += 1
        WebState.vaults[handle] = OpenVault(vault: vault, key: key)
        return handle
    } catch {
        return WebState.fail(error)
    }
}

/// Saves the vault into the result buffer (same version, cipher and KDF; fresh seeds and IVs).
/// - Returns: 0, or invalidArgument (handle), invalidModel, limitExceeded.
@_expose(wasm, "mypass_save")
@_cdecl("mypass_save")
func mypassSave(_ handle: Int32) -> Int32 {
    guard let open = WebState.vaults[handle] else { return WebState.fail(.invalidArgument, "no such vault handle") }
    do throws(KDBXError) {
        WebState.setResult(try KDBXCodec.save(open.vault, key: open.key))
        return 0
    } catch {
        return WebState.fail(error)
    }
}

/// Closes a vault: frees its model and key, then zeroes every free byte of the heap.
@_expose(wasm, "mypass_close")
@_cdecl("mypass_close")
func mypassClose(_ handle: Int32) {
    WebState.vaults[handle] = nil
    if WebState.vaults.isEmpty { WebState.vaults = [:] }
    WebState.clearResult()
    WASIHeap.wipeFreeMemory()
}

// MARK: - List and entries

/// The app's flat list (current entries of searchable groups, in group pre-order) filtered by the
/// group filter and the search text (title, user name, URL, tags; case and Latin diacritics
/// folded), as JSON: an array of {uuid, title, username, url, path, tags} (`mypass ls --json`).
/// The group filter (Core's `GroupFilter`, as the app's) is group UUIDs, 32 hex digits each, one
/// after the other (length 0 or -1: no filter); each selects its group and subgroups, the recycle
/// bin's entries included when it is selected (`mypass ls --group`).
/// - Returns: 0, or invalidArgument (handle, text, UUIDs), notFound (a group not in the vault).
@_expose(wasm, "mypass_list")
@_cdecl("mypass_list")
func mypassList(_ handle: Int32, _ search: UnsafePointer<UInt8>?, _ searchLength: Int32,
                _ groups: UnsafePointer<UInt8>?, _ groupsLength: Int32) -> Int32 {
    guard let open = WebState.vaults[handle] else { return WebState.fail(.invalidArgument, "no such vault handle") }
    guard let text = textArgument(search, max(searchLength, 0)) else { return WebState.fail(.invalidArgument, "search text is not UTF-8") }
    guard let ids = textArgument(groups, max(groupsLength, 0)), ids.utf8.count % 32 == 0 else {
        return WebState.fail(.invalidArgument, "group UUIDs are 32 hex digits each")
    }
    var filter = GroupFilter()
    var rest = Substring(ids)
    while !rest.isEmpty {
        guard let id = KDBXUUID(hex: String(rest.prefix(32))) else {
            return WebState.fail(.invalidArgument, "group UUIDs are 32 hex digits each")
        }
        guard open.vault.root.group(withUUID: id) != nil else { return WebState.fail(.notFound, "no such group") }
        filter.select(id, in: open.vault.root)
        rest = rest.dropFirst(32)
    }
    var json = JSONWriter()
    json.beginArray()
    for item in EntryList.displayedEntries(open.vault.flatEntries, filter: filter, searchText: text) {
        json.beginObject()
        json.key("uuid"); json.string(item.entry.uuid.hexString)
        json.key("title"); json.string(item.entry.title)
        json.key("username"); json.string(item.entry.userName)
        json.key("url"); json.string(item.entry.url)
        json.key("path"); json.strings(item.breadcrumb)
        json.key("tags"); json.strings(item.entry.tags)
        json.endObject()
    }
    json.endArray()
    WebState.setResult(taking: json.take())
    return 0
}

/// The group tree for a group picker, as JSON: an array of {uuid, name, path, entries} in
/// pre-order, the root first with an empty path (`mypass groups --json`).
/// - Returns: 0, or invalidArgument (handle).
@_expose(wasm, "mypass_groups")
@_cdecl("mypass_groups")
func mypassGroups(_ handle: Int32) -> Int32 {
    guard let open = WebState.vaults[handle] else { return WebState.fail(.invalidArgument, "no such vault handle") }
    var json = JSONWriter()
    json.beginArray()
    for located in open.vault.locatedGroups {
        json.beginObject()
        json.key("uuid"); json.string(located.group.uuid.hexString)
        json.key("name"); json.string(located.group.name)
        json.key("path"); json.strings(located.path)
        json.key("entries"); json.number(located.group.entries.count)
        json.endObject()
    }
    json.endArray()
    WebState.setResult(taking: json.take())
    return 0
}

/// One entry as JSON: {uuid, title, username, url, path, tags, fields: {name: {value, protected}},
/// attachments: [names], history (count), totp: {code, secondsLeft} or null} (the shape of
/// `mypass show --json --reveal`), with the TOTP code at `unixSeconds`.
/// - Returns: 0, or invalidArgument (handle, UUID), notFound.
@_expose(wasm, "mypass_entry")
@_cdecl("mypass_entry")
func mypassEntry(_ handle: Int32, _ uuid: UnsafePointer<UInt8>?, _ uuidLength: Int32, _ unixSeconds: Double) -> Int32 {
    guard let open = WebState.vaults[handle] else { return WebState.fail(.invalidArgument, "no such vault handle") }
    guard let text = textArgument(uuid, uuidLength), let id = KDBXUUID(hex: text) else {
        return WebState.fail(.invalidArgument, "an entry UUID is 32 hex digits")
    }
    guard let located = open.vault.locatedEntry(withUUID: id) else { return WebState.fail(.notFound, "no such entry") }
    let entry = located.entry
    var json = JSONWriter()
    json.beginObject()
    json.key("uuid"); json.string(entry.uuid.hexString)
    json.key("title"); json.string(entry.title)
    json.key("username"); json.string(entry.userName)
    json.key("url"); json.string(entry.url)
    json.key("path"); json.strings(located.groupPath)
    json.key("tags"); json.strings(entry.tags)
    json.key("fields")
    json.beginObject()
    for field in entry.fields {
        json.key(field.key)
        json.beginObject()
        json.key("value")
        field.protectedValue.withRevealedBytes { json.stringBytes($0) }
        json.key("protected"); json.bool(field.isProtected)
        json.endObject()
    }
    json.endObject()
    json.key("attachments"); json.strings(entry.attachments.map { $0.name })
    json.key("history"); json.number(entry.history.count)
    json.key("totp")
    do throws(CoreError) {
        if let parameters = try entry.otpParameters(), case .totp = parameters.kind {
            let code = TOTPGenerator.code(for: parameters, unixTime: Int64(unixSeconds))
            json.beginObject()
            json.key("code"); json.string(code.value)
            json.key("secondsLeft"); json.number(code.secondsRemaining ?? 0)
            json.endObject()
        } else {
            json.null()
        }
    } catch {
        json.null()
    }
    json.endObject()
    WebState.setResult(taking: json.take())
    return 0
}

// MARK: - Edits

/// Sets one field of an entry (`protected` 1: a protected value) at `unixSeconds`; the entry's
/// previous state goes to its history and its modification time is set (Core's `editEntry`).
/// - Returns: 0, or invalidArgument, notFound.
@_expose(wasm, "mypass_set_field")
@_cdecl("mypass_set_field")
func mypassSetField(_ handle: Int32, _ uuid: UnsafePointer<UInt8>?, _ uuidLength: Int32,
                    _ name: UnsafePointer<UInt8>?, _ nameLength: Int32,
                    _ value: UnsafePointer<UInt8>?, _ valueLength: Int32, _ isProtected: Int32,
                    _ unixSeconds: Double) -> Int32 {
    guard var open = WebState.vaults[handle] else { return WebState.fail(.invalidArgument, "no such vault handle") }
    guard let text = textArgument(uuid, uuidLength), let id = KDBXUUID(hex: text) else {
        return WebState.fail(.invalidArgument, "an entry UUID is 32 hex digits")
    }
    guard let key = textArgument(name, nameLength), !key.isEmpty else { return WebState.fail(.invalidArgument, "a field name is UTF-8 text") }
    guard var bytes = bytesArgument(value, max(valueLength, 0)), String(validatingUTF8Bytes: bytes) != nil else {
        return WebState.fail(.invalidArgument, "a field value is UTF-8 text")
    }
    let protectedValue = ProtectedString(utf8Bytes: bytes)
    wipe(&bytes)
    WebState.vaults[handle] = nil  // one copy of the model while it changes
    defer { WebState.vaults[handle] = open }
    do throws(CoreError) {
        try open.vault.editEntry(id, now: KDBXTime(unixSeconds: Int64(unixSeconds))) { entry throws(EditFailure) in
            if isProtected != 0 {
                entry.setProtectedValue(protectedValue, for: key)
            } else {
                entry.setValue(protectedValue.revealed, for: key, isProtected: false)
            }
        }
        return 0
    } catch {
        return WebState.fail(error)
    }
}

/// Adds an entry titled `title` to the group at `groupPath` ("Work/Email"; empty: the root) at
/// `unixSeconds`, with the vault's default user name; its UUID (32 hex digits) is the result.
/// - Returns: 0, or invalidArgument, notFound (group).
@_expose(wasm, "mypass_add_entry")
@_cdecl("mypass_add_entry")
func mypassAddEntry(_ handle: Int32, _ groupPath: UnsafePointer<UInt8>?, _ groupPathLength: Int32,
                    _ title: UnsafePointer<UInt8>?, _ titleLength: Int32, _ unixSeconds: Double) -> Int32 {
    guard var open = WebState.vaults[handle] else { return WebState.fail(.invalidArgument, "no such vault handle") }
    guard let path = textArgument(groupPath, max(groupPathLength, 0)), let name = textArgument(title, max(titleLength, 0)) else {
        return WebState.fail(.invalidArgument, "a group path and a title are UTF-8 text")
    }
    WebState.vaults[handle] = nil
    defer { WebState.vaults[handle] = open }
    do throws(CoreError) {
        let group = path.isEmpty ? open.vault.root.uuid : try open.vault.resolveGroup(path: path).group.uuid
        var entry = open.vault.newEntry()
        entry.title = name
        let id = try open.vault.addEntry(entry, to: group, now: KDBXTime(unixSeconds: Int64(unixSeconds)))
        WebState.setResult(Array(id.hexString.utf8))
        return 0
    } catch {
        return WebState.fail(error)
    }
}
