import Foundation

/// A file beside a vault whose name follows a sync engine's pattern for a conflict copy of it: what
/// Syncthing, Dropbox, Nextcloud, OneDrive, iCloud Drive or Resilio leave when two devices changed
/// the vault at once. Finding them costs one listing of the vault's folder: no copy is read, no KDF
/// runs.
///
/// The patterns, for a vault `NAME.kdbx` (`NAME` and the extension exactly as the vault has them;
/// `D` a digit, `H` a hexadecimal digit):
///
/// | engine | name of the copy | only a sync engine makes it |
/// | --- | --- | --- |
/// | Syncthing | `NAME.sync-conflict-DDDDDDDD-DDDDDD-DEVICE.kdbx` (`DEVICE`: 7 letters or digits, the short device ID; older versions leave it out) | yes |
/// | Dropbox | `NAME (conflicted copy).kdbx`, `NAME (conflicted copy DDDD-DD-DD).kdbx`, `NAME (HOST's conflicted copy DDDD-DD-DD).kdbx`, each optionally followed by ` (N)` before the extension | yes |
/// | Nextcloud, ownCloud | `NAME (conflicted copy DDDD-DD-DD DDDDDD).kdbx` | yes |
/// | Resilio Sync | `NAME.Conflict.kdbx`, `NAME.Conflict (N).kdbx` | yes |
/// | MyPass | `NAME.mypass-conflict-DDDDDDDD-DDDDDD-HHHHHHHH.kdbx` (another program's version that a failed save kept) | yes |
/// | OneDrive | `NAME-HOST.kdbx` (`HOST`: letters, digits and hyphens) | no |
/// | iCloud Drive | `NAME N.kdbx` (`N`: a number from 2) | no |
///
/// A name that an ordinary file could have as well (OneDrive's, iCloud's) is never removed and is
/// merged only when named explicitly (``isUnambiguous``).
public struct ConflictCopy: Sendable, Equatable, CustomStringConvertible {
    /// The sync engine whose pattern the name follows.
    public enum Engine: String, Sendable, Equatable, CaseIterable {
        case syncthing = "Syncthing"
        case dropbox = "Dropbox"
        case nextcloud = "Nextcloud/ownCloud"
        case resilio = "Resilio Sync"
        case myPass = "MyPass"
        case oneDrive = "OneDrive"
        case iCloud = "iCloud Drive"

        /// Whether only a sync engine (or MyPass) gives a file such a name.
        public var isUnambiguous: Bool { self != .oneDrive && self != .iCloud }
    }

    /// The copy's absolute path (in the folder of the vault's real file).
    public let path: String
    /// Whose pattern its name follows.
    public let engine: Engine

    /// A copy from its parts.
    public init(path: String, engine: Engine) {
        self.path = path
        self.engine = engine
    }

    /// Whether only a sync engine makes such a name: such a copy is merged by
    /// `mypass merge VAULT --conflicts` and removed once merged. `false` for OneDrive's and
    /// iCloud's patterns, which ordinary files match too.
    public var isUnambiguous: Bool { engine.isUnambiguous }

    /// The file name.
    public var name: String { VaultDocument.lastComponent(path) }

    /// `NAME (engine)`.
    public var description: String { "\(name) (\(engine.rawValue))" }

    /// The engine whose conflict pattern `name` follows for a vault named `vaultName`, or `nil`.
    public static func engine(ofCopyNamed name: String, vaultName: String) -> Engine? {
        guard name != vaultName else { return nil }
        let (stem, ext) = split(vaultName)
        guard !stem.isEmpty, name.hasPrefix(stem), name.hasSuffix(ext), name.count > stem.count + ext.count else { return nil }
        let middle = Substring(name.dropFirst(stem.count).dropLast(ext.count))
        if let rest = middle.strippingPrefix(".sync-conflict-") {
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            if (parts.count == 2 || parts.count == 3), parts[0].count == 8, parts[0].allSatisfy(\.isASCIIDigit),
               parts[1].count == 6, parts[1].allSatisfy(\.isASCIIDigit),
               parts.count == 2 || (parts[2].count == 7 && parts[2].allSatisfy { $0.isASCIIDigit || ("A"..."Z").contains($0) }) {
                return .syncthing
            }
            return nil
        }
        if let rest = middle.strippingPrefix(".mypass-conflict-") {
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0].count == 8, parts[0].allSatisfy(\.isASCIIDigit), parts[1].count == 6,
               parts[1].allSatisfy(\.isASCIIDigit), parts[2].count == 8, parts[2].allSatisfy(\.isHexDigit) {
                return .myPass
            }
            return nil
        }
        if let rest = middle.strippingPrefix(".Conflict") {
            return rest.isEmpty || isCounter(rest) ? .resilio : nil
        }
        if let rest = middle.strippingPrefix(" ("), let close = rest.firstIndex(of: ")") {
            let inner = rest[..<close], after = rest[rest.index(after: close)...]
            guard after.isEmpty || isCounter(after) else { return iCloudOrNil(middle) }
            if inner == "conflicted copy" { return .dropbox }
            if let dated = inner.strippingPrefix("conflicted copy ") {
                if dated.count == 17, isDate(dated.prefix(10)), dated.dropFirst(10).first == " ",
                   dated.suffix(6).allSatisfy(\.isASCIIDigit) {
                    return .nextcloud
                }
                return isDate(dated) ? .dropbox : nil
            }
            for apostrophe in ["'s conflicted copy", "\u{2019}s conflicted copy"] {
                if let range = inner.range(of: apostrophe), range.lowerBound > inner.startIndex {
                    let date = inner[range.upperBound...]
                    if date.isEmpty || (date.first == " " && isDate(date.dropFirst())) { return .dropbox }
                }
            }
            return nil
        }
        if let host = middle.strippingPrefix("-"), !host.isEmpty,
           host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            return .oneDrive
        }
        return iCloudOrNil(middle)
    }

    private static func iCloudOrNil(_ middle: Substring) -> Engine? {
        guard let number = middle.strippingPrefix(" "), !number.isEmpty, number.count <= 6, number.allSatisfy(\.isASCIIDigit),
              number.first != "0", let value = Int(number), value >= 2
        else { return nil }
        return .iCloud
    }

    /// ` (N)`, N a positive number.
    private static func isCounter(_ text: Substring) -> Bool {
        guard let inner = text.strippingPrefix(" ("), inner.hasSuffix(")") else { return false }
        let digits = inner.dropLast()
        return !digits.isEmpty && digits.count <= 6 && digits.allSatisfy(\.isASCIIDigit)
    }

    /// `DDDD-DD-DD`.
    private static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts[2].count == 2
            && parts.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
    }

    /// `("NAME", ".kdbx")`; `(name, "")` without an extension.
    private static func split(_ name: String) -> (Substring, Substring) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name[...], "") }
        return (name[..<dot], name[dot...])
    }

    /// The conflict copies of the vault whose real path is `realPath`, among `names` (its folder's
    /// listing), sorted by name.
    static func copies(of realPath: String, among names: [String]) -> [ConflictCopy] {
        let directory = VaultDocument.directoryOf(realPath), vaultName = VaultDocument.lastComponent(realPath)
        return names.sorted().compactMap { name in
            engine(ofCopyNamed: name, vaultName: vaultName).map { ConflictCopy(path: directory + "/" + name, engine: $0) }
        }
    }

    /// The conflict copies beside the vault at `path` (symbolic links followed: a sync engine puts
    /// them beside the real file), sorted by name. One listing of the folder; nothing is read.
    /// - Throws: ``CoreError/Code/io`` when the path cannot be resolved or its folder listed.
    public static func list(of path: String, fileSystem: any VaultFileSystem = SystemFileSystem()) throws(CoreError) -> [ConflictCopy] {
        let realPath = try fileSystem.resolve(VaultDocument.absolutePath(path))
        return copies(of: realPath, among: try fileSystem.contentsOfDirectory(VaultDocument.directoryOf(realPath)))
    }

    /// A new name in MyPass's pattern beside the vault at `realPath`, for another program's version
    /// of it that a save could not merge: `NAME.mypass-conflict-YYYYMMDD-HHMMSS-HEX.kdbx` (UTC).
    static func myPassCopyPath(for realPath: String, now: Date = Date()) -> String {
        let (stem, ext) = split(VaultDocument.lastComponent(realPath))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let stamp = "\(c.year ?? 0)\(two(c.month))\(two(c.day))-\(two(c.hour))\(two(c.minute))\(two(c.second))"
        let random = SecureRandom.bytes(count: 4).hexString
        return VaultDocument.directoryOf(realPath) + "/" + stem + ".mypass-conflict-" + stamp + "-" + random + ext
    }
}

private extension Substring {
    func strippingPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
