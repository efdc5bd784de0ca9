/// Maps KeePass's standard icon indices (`IconID` 0-68, KeePass `PwIcon`) to SF Symbol names.
public enum KeePassIconMapper {
    /// The symbol for anything unmapped.
    public static let fallbackSymbol = "key.fill"

    /// One SF Symbol per KeePass standard icon, indexed by `PwIcon` value (the comment names the
    /// KeePass icon).
    public static let symbols: [String] = [
        "key.fill",                         // 0 Key
        "globe",                            // 1 World
        "exclamationmark.triangle.fill",    // 2 Warning
        "server.rack",                      // 3 NetworkServer
        "folder.badge.gearshape",           // 4 MarkedDirectory
        "person.2.fill",                    // 5 UserCommunication
        "puzzlepiece.fill",                 // 6 Parts
        "note.text",                        // 7 Notepad
        "network",                          // 8 WorldSocket
        "person.text.rectangle.fill",       // 9 Identity
        "doc.text.fill",                    // 10 PaperReady
        "camera.fill",                      // 11 Digicam
        "dot.radiowaves.left.and.right",    // 12 IRCommunication
        "key.horizontal.fill",              // 13 MultiKeys
        "bolt.fill",                        // 14 Energy
        "scanner.fill",                     // 15 Scanner
        "star.circle.fill",                 // 16 WorldStar
        "opticaldisc.fill",                 // 17 CDRom
        "display",                          // 18 Monitor
        "envelope.fill",                    // 19 EMail
        "gearshape.fill",                   // 20 Configuration
        "list.clipboard.fill",              // 21 ClipboardReady
        "doc.badge.plus",                   // 22 PaperNew
        "tv.fill",                          // 23 Screen
        "bolt.trianglebadge.exclamationmark.fill", // 24 EnergyCareful
        "tray.full.fill",                   // 25 EMailBox
        "internaldrive.fill",               // 26 Disk
        "externaldrive.fill",               // 27 Drive
        "doc.questionmark.fill",            // 28 PaperQ
        "lock.desktopcomputer",             // 29 TerminalEncrypted
        "terminal.fill",                    // 30 Console
        "printer.fill",                     // 31 Printer
        "square.grid.3x3.fill",             // 32 ProgramIcons
        "play.fill",                        // 33 Run
        "wrench.and.screwdriver.fill",      // 34 Settings
        "desktopcomputer",                  // 35 WorldComputer
        "archivebox.fill",                  // 36 Archive
        "banknote.fill",                    // 37 Homebanking
        "pc",                               // 38 DriveWindows
        "clock.fill",                       // 39 Clock
        "envelope.badge.fill",              // 40 EMailSearch
        "flag.fill",                        // 41 PaperFlag
        "memorychip.fill",                  // 42 Memory
        "trash.fill",                       // 43 TrashBin
        "note",                             // 44 Note
        "xmark.circle.fill",                // 45 Expired
        "info.circle.fill",                 // 46 Info
        "shippingbox.fill",                 // 47 Package
        "folder.fill",                      // 48 Folder
        "folder",                           // 49 FolderOpen
        "doc.zipper",                       // 50 FolderPackage
        "lock.open.fill",                   // 51 LockOpen
        "lock.doc.fill",                    // 52 PaperLocked
        "checkmark.circle.fill",            // 53 Checked
        "pencil",                           // 54 Pen
        "photo.fill",                       // 55 Thumbnail
        "book.fill",                        // 56 Book
        "list.bullet",                      // 57 List
        "person.badge.key.fill",            // 58 UserKey
        "hammer.fill",                      // 59 Tool
        "house.fill",                       // 60 Home
        "star.fill",                        // 61 Star
        "pawprint.fill",                    // 62 Tux
        "leaf.fill",                        // 63 Feather
        "apple.logo",                       // 64 Apple
        "book.closed.fill",                 // 65 Wiki
        "dollarsign.circle.fill",           // 66 Money
        "checkmark.seal.fill",              // 67 Certificate
        "iphone",                           // 68 BlackBerry
    ]

    /// The SF Symbol for KeePass icon `iconID`, or ``fallbackSymbol`` outside 0-68.
    public static func symbolName(forIconID iconID: Int) -> String {
        symbols.indices.contains(iconID) ? symbols[iconID] : fallbackSymbol
    }
}
