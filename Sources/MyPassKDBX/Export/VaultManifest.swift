import MyPassBytes
import MyPassCrypto

/// The vault manifest: one canonical JSON description of everything a vault holds
/// (`shared/docs/vault-manifest.md`), as `kporacle dump` prints it for KeePass and
/// `mypass export --format json` prints it for us. Protected values appear in clear.
///
/// Beyond the documented keys it adds `tags` to groups (KDBX 4.1 group tags); comparisons ignore
/// keys the expected manifest lacks.
public enum VaultManifest {
    /// The manifest of `vault` as JSON text (UTF-8, `indent` spaces per level; 0 for one line).
    public static func json(of vault: Vault, indent: Int = 2) -> String {
        value(of: vault).serialized(indent: indent)
    }

    static func value(of vault: Vault) -> JSONValue {
        var groups: [JSONValue] = []
        var entries: [JSONValue] = []
        vault.root.forEachGroup { group, path in
            groups.append(groupValue(group, path: path))
            for entry in group.entries { entries.append(entryValue(entry, path: path, isHistory: false)) }
        }
        return .object([
            ("file", fileValue(vault.format)),
            ("meta", metaValue(vault.meta)),
            ("groups", .array(groups)),
            ("entries", .array(entries)),
            ("deletedObjects", .array(vault.deletedObjects.map {
                .object([("uuid", uuid($0.uuid)), ("deletionTime", time($0.deletionTime))])
            })),
        ])
    }

    static func fileValue(_ format: VaultFormat) -> JSONValue {
        let kdf: JSONValue
        switch format.kdf {
        case .aes(let rounds):
            kdf = .object([("type", .string("aes")), ("rounds", .uint(rounds))])
        case .argon2(let settings):
            kdf = .object([
                ("type", .string(settings.variant.rawValue)), ("memory", .uint(settings.memoryBytes)),
                ("iterations", .uint(settings.iterations)), ("parallelism", .uint(UInt64(settings.parallelism))),
                ("version", .uint(UInt64(settings.version))),
            ])
        }
        return .object([
            ("version", .string(format.version.description)),
            ("cipher", .string(format.cipher.rawValue)),
            ("kdf", kdf),
            ("compression", .string(format.compression == .gzip ? "gzip" : "none")),
        ])
    }

    static func metaValue(_ meta: Meta) -> JSONValue {
        .object([
            ("databaseName", .string(meta.databaseName)),
            ("databaseDescription", .string(meta.databaseDescription)),
            ("defaultUserName", .string(meta.defaultUserName)),
            ("color", color(meta.color)),
            ("recycleBinEnabled", .bool(meta.recycleBinEnabled)),
            ("recycleBinUUID", uuid(meta.recycleBinUUID)),
            ("historyMaxItems", .int(Int64(meta.historyMaxItems))),
            ("historyMaxSize", .int(meta.historyMaxSize)),
            ("maintenanceHistoryDays", .int(Int64(meta.maintenanceHistoryDays))),
            ("customData", map(meta.customData)),
            ("customIcons", .array(meta.customIcons.map {
                .object([("uuid", uuid($0.uuid)), ("sha256", .string(SHA256.hash($0.data).hexString))])
            })),
        ])
    }

    static func groupValue(_ group: Group, path: [String]) -> JSONValue {
        .object([
            ("uuid", uuid(group.uuid)),
            ("name", .string(group.name)),
            ("path", .array(path.map { .string($0) })),
            ("notes", .string(group.notes)),
            ("iconID", .int(Int64(group.iconID))),
            ("customIconUUID", uuid(group.customIconUUID)),
            ("isExpanded", .bool(group.isExpanded)),
            ("defaultAutoTypeSequence", .string(group.defaultAutoTypeSequence)),
            ("enableAutoType", tristate(group.enableAutoType)),
            ("enableSearching", tristate(group.enableSearching)),
            ("lastTopVisibleEntry", uuid(group.lastTopVisibleEntry)),
            ("times", timesValue(group.times)),
            ("customData", map(group.customData)),
            ("tags", .array(group.tags.map { .string($0) })),
        ])
    }

    static func entryValue(_ entry: Entry, path: [String], isHistory: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [("uuid", uuid(entry.uuid))]
        if !isHistory { members.append(("path", .array(path.map { .string($0) }))) }
        members.append(("fields", .object(entry.fields.map {
            ($0.key, .object([("value", .string($0.value)), ("protected", .bool($0.isProtected))]))
        })))
        members.append(("attachments", .object(entry.attachments.map {
            ($0.name, .object([("size", .int(Int64($0.data.count))), ("sha256", .string(SHA256.hash($0.data).hexString))]))
        })))
        members.append(("tags", .array(entry.tags.map { .string($0) })))
        members.append(("iconID", .int(Int64(entry.iconID))))
        members.append(("customIconUUID", uuid(entry.customIconUUID)))
        members.append(("foregroundColor", color(entry.foregroundColor)))
        members.append(("backgroundColor", color(entry.backgroundColor)))
        members.append(("overrideURL", .string(entry.overrideURL)))
        members.append(("times", timesValue(entry.times)))
        members.append(("customData", map(entry.customData)))
        members.append(("autoType", .object([
            ("enabled", .bool(entry.autoType.isEnabled)),
            ("obfuscation", .int(Int64(entry.autoType.obfuscation))),
            ("defaultSequence", .string(entry.autoType.defaultSequence)),
            ("associations", .array(entry.autoType.associations.map {
                .object([("window", .string($0.window)), ("sequence", .string($0.sequence))])
            })),
        ])))
        if !isHistory {
            members.append(("history", .array(entry.history.map { entryValue($0, path: path, isHistory: true) })))
        }
        return .object(members)
    }

    static func timesValue(_ times: Times) -> JSONValue {
        .object([
            ("creation", time(times.creation)),
            ("lastModification", time(times.lastModification)),
            ("lastAccess", time(times.lastAccess)),
            ("expiry", time(times.expiry)),
            ("expires", .bool(times.expires)),
            ("usageCount", .uint(times.usageCount)),
            ("locationChanged", time(times.locationChanged)),
        ])
    }

    static func uuid(_ value: KDBXUUID?) -> JSONValue {
        guard let value, !value.isZero else { return .null }
        return .string(value.hexString)
    }

    static func time(_ value: KDBXTime) -> JSONValue { .string(value.iso8601) }

    static func tristate(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }

    /// `""` or `#RRGGBB` in uppercase hex.
    static func color(_ text: String) -> JSONValue {
        let trimmed = XMLValues.trimmed(text)
        return .string(trimmed.hasPrefix("#") ? trimmed.uppercased() : trimmed)
    }

    static func map(_ items: [CustomDataItem]) -> JSONValue {
        .object(items.map { ($0.key, .string($0.value)) })
    }
}
