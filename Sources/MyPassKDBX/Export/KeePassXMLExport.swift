/// KeePass's plain XML export (File > Export > KeePass XML (2.x)).
public enum KeePassXMLExport {
    /// The vault as a KeePass 2.x plain XML document: ISO-8601 times, protected values in clear
    /// (marked `ProtectInMemory="True"`), attachments in `Meta/Binaries` (gzip-compressed when the
    /// vault uses gzip), readable by KeePass's XML import and by ``VaultXMLReader``.
    /// - Returns: the UTF-8 document. It holds every secret in clear.
    public static func export(_ vault: Vault) -> [UInt8] {
        VaultXMLWriter.plainXML(vault)
    }
}
