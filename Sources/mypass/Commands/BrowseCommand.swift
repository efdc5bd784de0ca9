import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassViewModels

/// `mypass browse VAULT [--match URL [--json]] [--lock-after SECONDS]`: the app's screens in the
/// terminal, on the app's view models (``VaultListModel``, ``GroupFilterModel``,
/// ``EntryDetailModel``, ``EntryEditorModel``, ``AutoFillListModel``).
enum BrowseCommand {
    static func run(_ parsed: ParsedArguments) throws {
        if let problem = Terminal.check(controllingTerminal: parsed.value("match") != nil) {
            throw CLIError(.usage, "browse runs in a terminal only (\(problem)); use 'mypass ls' or 'mypass show' instead")
        }
        var lockAfter = 300.0
        if let text = parsed.value("lock-after") {
            guard let seconds = Double(text), seconds >= 0 else { throw parsed.usageError("--lock-after takes seconds (0: never)") }
            lockAfter = seconds
        }
        if let service = parsed.value("match") {
            let index = try VaultContext.openIndex(parsed)
            let outcome = try MainActor.assumeIsolated { () throws -> AutoFillCredential? in
                let app = BrowseMatchApp(index: index, service: service)
                return try app.run()
            }
            guard let chosen = outcome else { throw CLIError(.noMatch, "nothing was chosen") }
            try printChoice(chosen, index: index, json: parsed.flag("json"))
            return
        }
        let (context, _) = try VaultContext.open(parsed)
        try MainActor.assumeIsolated {
            let app = BrowseApp(context: context, parsed: parsed, lockAfterSeconds: lockAfter)
            try app.run()
        }
    }

    /// Prints the chosen entry's path (or JSON) and copies its password.
    static func printChoice(_ chosen: AutoFillCredential, index: CredentialIndex, json: Bool) throws {
        guard let credential = index.credentials.first(where: { $0.id == chosen.entryID }) else { return }
        let path = Vault.displayPath(credential.breadcrumb + [credential.title])
        if json {
            Console.line(JSON.object([
                ("uuid", .string(credential.uuid.hexString)), ("title", .string(credential.title)),
                ("username", .string(credential.userName)), ("url", .string(credential.url)), ("path", .string(path)),
            ]).prettyPrinted)
        } else {
            Console.resultLine(path)
        }
        // The terminal's clipboard (OSC 52) goes to the terminal, not to standard output, which
        // may be a pipe taking the path (`$(mypass browse VAULT --match URL)`).
        let clipboard = TerminalClipboard.onControllingTerminal()
        do {
            try clipboard.copy(chosen.password, expirySeconds: ClipboardPolicy.expirySeconds)
            Console.noteLine("Copied the password of '\(path)' to the clipboard; cleared in \(ClipboardPolicy.expirySeconds) s.")
        } catch {
            throw CLIError.failure("could not copy the password: \(error)")
        }
    }
}

/// The keys, for the help line and the `?` screen.
private let keyHelp: [(String, String)] = [
    ("/", "search (Esc leaves it, Esc again clears it)"), ("↑ ↓ j k", "move"), ("Tab", "switch pane (groups, list)"),
    ("Space", "tick or untick a group and its subgroups"), ("Enter", "open the entry (in groups: expand or collapse)"),
    ("x", "clear the group filter"), ("r", "reveal or hide the protected fields"), ("c", "copy the password (cleared after 30 s)"),
    ("u", "copy the user name"), ("t", "copy the TOTP code"), ("a", "add an entry (in the filter's group)"),
    ("e", "edit the entry"), ("Ctrl-N P D", "in the form: add a custom field, protect it, remove it (or an attachment)"),
    ("Ctrl-G R", "in the form: generate a password, reveal protected values"), ("d", "delete the entry to the recycle bin"), ("L", "lock"), ("?", "these keys"),
    ("q", "quit"),
]

/// A one-cell glyph for a KeePass icon index.
private func glyph(_ iconID: Int) -> String {
    switch iconID {
    case 1: return "◍"
    case 19: return "✉"
    case 43: return "♻"
    case 48, 49: return "▤"
    default: return "•"
    }
}

/// Text from the vault, safe for the terminal (``Text/oneLine(_:)``).
private func safe(_ text: String) -> String { Text.oneLine(text) }

/// A frame being drawn: `rows` lines of exactly `columns` columns.
private struct Frame {
    let columns: Int, rows: Int
    var lines: [String]

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        lines = Array(repeating: String(repeating: " ", count: columns), count: rows)
    }

    /// Sets row `row` from segments of (text, width, style); the widths add up to the columns.
    mutating func set(_ row: Int, _ segments: [(String, Int, String)]) {
        guard row >= 0 && row < rows else { return }
        var line = ""
        for (text, width, style) in segments {
            let cell = DisplayWidth.padded(text, to: width)
            line += style.isEmpty ? cell : style + cell + "\u{1B}[0m"
        }
        lines[row] = line
    }

    var output: String {
        var out = "\u{1B}[0m"
        for (index, line) in lines.enumerated() { out += "\u{1B}[\(index + 1);1H" + line }
        return out
    }
}

private let reverse = "\u{1B}[7m", bold = "\u{1B}[1m", dim = "\u{1B}[2m"

/// The full-screen browser.
@MainActor
final class BrowseApp {
    enum Pane { case groups, list }
    enum Mode {
        case normal, help
        case confirmDelete(KDBXUUID, String)
        case form(BrowseForm)
        case locked(password: String)
    }

    private var context: VaultContext?
    private let path: String
    private let keyFilePath: String?
    private let usesAgent: Bool
    private let lockAfterSeconds: Double
    private let list = VaultListModel()
    private let groups = GroupFilterModel()
    private var detail: EntryDetailModel?
    private var focus = Pane.list
    private var searching = false
    private var groupCursor = 0
    private var listTop = 0
    private var message = ""
    private var mode = Mode.normal
    private var running = true
    private var lastActivity = ContinuousClock.now
    private let clock = SystemClock()
    private var terminal: Terminal?

    init(context: VaultContext, parsed: ParsedArguments, lockAfterSeconds: Double) {
        self.context = context
        path = context.path
        keyFilePath = parsed.value("keyfile")
        usesAgent = AgentClient.isEnabled(parsed)
        self.lockAfterSeconds = lockAfterSeconds
        load()
    }

    private func load() {
        guard let vault = context?.vault else { return }
        list.load(vault)
        groups.load(vault)
        list.filter = groups.filter
        if list.selection == nil { list.moveSelection(by: 0) }
    }

    func run() throws {
        let terminal = try Terminal()
        self.terminal = terminal
        defer { terminal.restore() }
        render()
        while running {
            let key = terminal.readKey(timeoutMilliseconds: 1000)
            if let key {
                lastActivity = .now
                handle(key)
            } else if context != nil, lockAfterSeconds > 0, ContinuousClock.now - lastActivity >= .seconds(lockAfterSeconds) {
                lock(reason: "Locked after \(Int(lockAfterSeconds)) s without use.")
            }
            _ = terminal.takeResize()
            render()
        }
    }

    // MARK: Keys

    func handle(_ key: Key) {
        if key == .control(3) { running = false; return }  // Ctrl-C
        switch mode {
        case .help: mode = .normal
        case .confirmDelete(let uuid, _):
            mode = .normal
            if key == .character("y") || key == .character("Y") { delete(uuid) } else { message = "Not deleted." }
        case .form(let form): handleForm(key, form)
        case .locked(let password): handleLocked(key, password)
        case .normal:
            if searching { handleSearch(key) } else { handleNormal(key) }
        }
    }

    private func handleSearch(_ key: Key) {
        switch key {
        case .escape: searching = false
        case .enter: searching = false; openSelected()
        case .backspace: if !list.searchText.isEmpty { list.searchText.removeLast() }
        case .up: list.moveSelection(by: -1)
        case .down: list.moveSelection(by: 1)
        case .character(let character): list.searchText.append(character); list.moveSelection(by: 0)
        default: break
        }
    }

    private func handleNormal(_ key: Key) {
        message = ""
        switch key {
        case .character("q"): running = false
        case .character("/"): searching = true; focus = .list
        case .escape: list.searchText = ""
        case .character("?"): mode = .help
        case .tab, .backTab: focus = focus == .list ? .groups : .list
        case .up, .character("k"): move(-1)
        case .down, .character("j"): move(1)
        case .pageUp: move(-10)
        case .pageDown: move(10)
        case .character(" "):
            if focus == .groups, groupCursor < groups.rows.count { toggleGroup(groups.rows[groupCursor].id) }
        case .enter:
            if focus == .groups, groupCursor < groups.rows.count { groups.toggleExpanded(groups.rows[groupCursor].id) } else { openSelected() }
        case .character("x"): groups.clearFilter(); list.filter = groups.filter; message = "Filter cleared."
        case .character("r"): revealProtected()
        case .character("c"): copy(Entry.StandardField.password, "the password")
        case .character("u"): copy(Entry.StandardField.userName, "the user name")
        case .character("t"): copyTOTP()
        case .character("a"):
            if let vault = context?.vault { mode = .form(BrowseForm(EntryEditorModel(adding: vault, filter: groups.filter))) }
        case .character("e"):
            if let vault = context?.vault, let id = list.selection, let editor = try? EntryEditorModel(editing: id, in: vault) {
                mode = .form(BrowseForm(editor))
            }
        case .character("d"):
            if let id = list.selection, let item = list.entry(id) { mode = .confirmDelete(id, item.entry.title) }
        case .character("L"): lock(reason: "Locked.")
        default: break
        }
    }

    /// Reveals every protected field of the open entry, or hides them again.
    private func revealProtected() {
        guard let detail = ensureDetail() else { return }
        let protected = detail.fields.filter(\.isProtected).map(\.name)
        let show = protected.contains { !detail.revealed.contains($0) }
        for name in protected where detail.revealed.contains(name) != show { detail.toggleReveal(name) }
    }

    private func move(_ offset: Int) {
        if focus == .groups {
            groupCursor = min(max(groupCursor + offset, 0), max(groups.rows.count - 1, 0))
        } else {
            list.moveSelection(by: offset)
        }
    }

    private func toggleGroup(_ id: KDBXUUID) {
        groups.toggle(id)
        list.filter = groups.filter
        list.moveSelection(by: 0)
    }

    private func openSelected() {
        guard let id = list.selection, let item = list.entry(id) else { return }
        let writer: @Sendable (String) -> Void = { text in Console.out(text) }
        detail = EntryDetailModel(entry: item.entry, breadcrumb: item.breadcrumb, clipboard: TerminalClipboard(writeToTerminal: writer),
                                  now: clock.now())
        // As KeePass: the access is recorded, and kept with the next save.
        try? context?.vault.touchEntry(id, now: clock.now())
    }

    private func ensureDetail() -> EntryDetailModel? {
        if detail == nil || detail?.entryID != list.selection { openSelected() }
        return detail
    }

    private func copy(_ field: String, _ what: String) {
        guard let detail = ensureDetail() else { return }
        detail.failure = nil
        detail.copy(field)
        message = detail.failure.map { "Cannot copy: \($0)" }
            ?? "Copied \(what) of '\(safe(detail.title))'; cleared in \(ClipboardPolicy.expirySeconds) s."
    }

    private func copyTOTP() {
        guard let detail = ensureDetail() else { return }
        detail.failure = nil
        detail.copyTOTP(now: clock.now())
        message = detail.failure.map { "Cannot copy: \($0)" }
            ?? "Copied the TOTP code of '\(safe(detail.title))'; cleared in \(ClipboardPolicy.expirySeconds) s."
    }

    private func delete(_ uuid: KDBXUUID) {
        guard context != nil else { return }
        do {
            let outcome = try context!.vault.deleteEntry(uuid, now: clock.now())
            if detail?.entryID == uuid { detail = nil }
            if case .movedToRecycleBin = outcome {
                save(done: "Moved to the recycle bin and saved.")
            } else {
                save(done: "Deleted and saved.")
            }
        } catch {
            message = "Cannot delete: \(error)"
        }
    }

    /// Saves through the document (a change on disk meanwhile is merged), then reloads the models.
    private func save(done: String) {
        do {
            let report = try context!.document.save()
            message = report.merged != nil ? done + " (merged with changes made on disk meanwhile)" : done
            if context!.fromAgent { AgentClient.update(vault: path, cachedKey: context!.document.cachedKey) }
        } catch {
            message = "Cannot save: \(error.description)"
        }
        load()
    }

    // MARK: The form

    private func handleForm(_ key: Key, _ form: BrowseForm) {
        let editor = form.editor
        let row = form.row
        switch key {
        case .escape: mode = .normal; message = "Not saved."; return
        case .tab, .down: form.move(by: 1)
        case .backTab, .up: form.move(by: -1)
        case .control(7):  // Ctrl-G
            do { try editor.generatePassword(); message = "Generated a password of \(editor.generatorOptions.length) characters." } catch {
                message = "Cannot generate: \(error)"
            }
        case .control(18): form.revealed.toggle()  // Ctrl-R
        case .control(14):  // Ctrl-N
            let id = editor.addCustomField()
            form.select(.fieldName(id))
        case .control(16):  // Ctrl-P
            if case .fieldName(let id) = row { form.toggleProtected(id) }
            if case .fieldValue(let id) = row { form.toggleProtected(id) }
        case .control(4):  // Ctrl-D
            switch row {
            case .fieldName(let id), .fieldValue(let id): editor.removeCustomField(id); form.clamp()
            case .attachment(let name): editor.removeAttachment(named: name); form.clamp(); message = "Removed the attachment."
            default: break
            }
        case .left, .right:
            if row == .group, let index = editor.groupChoices.firstIndex(where: { $0.uuid == editor.groupID }) {
                let next = (index + (key == .right ? 1 : -1) + editor.groupChoices.count) % editor.groupChoices.count
                editor.groupID = editor.groupChoices[next].uuid
            }
        case .enter:
            if row == .attach { attach(form) } else { commit(form) }
            return
        case .backspace: form.edit { if !$0.isEmpty { $0.removeLast() } }
        case .character(let character): form.edit { $0.append(character) }
        default: break
        }
        mode = .form(form)
    }

    private func attach(_ form: BrowseForm) {
        let path = form.attachPath.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else { message = "Type the path of a file to attach."; return }
        do {
            let data = try VaultContext.readFile(path, what: "attachment")
            let name = URL(fileURLWithPath: path).lastPathComponent
            form.editor.attach(name: name, data: data)
            form.attachPath = ""
            form.select(.attach)
            message = "Attached '\(safe(name))' (\(Text.byteSize(data.count))); Enter on another field saves."
        } catch {
            message = "Cannot attach: \(error.message)"
        }
    }

    private func commit(_ form: BrowseForm) {
        let editor = form.editor
        guard let vault = context?.vault else { return }
        guard form.applyExpiry() else {
            message = "The expiry '\(safe(form.expiryText))' is not a date: type YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or never."
            return
        }
        guard editor.validate(in: vault) else {
            message = editor.errors.map(Self.describe).joined(separator: "; ")
            return
        }
        do {
            let uuid = try editor.preparedEditor().commit(to: &context!.vault, now: clock.now())
            mode = .normal
            save(done: "Saved '\(safe(editor.title))' in \(safe(editor.groupPath)).")
            list.selection = uuid
            if detail?.entryID == uuid { openSelected() }
        } catch {
            message = "Cannot save: \(error)"
        }
    }

    private static func describe(_ error: EntryEditorModel.ValidationError) -> String {
        switch error {
        case .emptyTitle: return "the title is empty"
        case .duplicateTitle(let path): return "'\(safe(path))' already exists"
        case .emptyFieldName: return "a field has no name"
        case .duplicateFieldName(let name): return "the field '\(safe(name))' is there twice"
        case .invalidOTP(let reason): return "the TOTP set-up cannot be read (\(safe(reason)))"
        case .missingGroup: return "the group is gone"
        }
    }

    // MARK: Lock

    private func lock(reason: String) {
        context = nil
        detail?.clear()
        detail = nil
        list.clear()
        groups.clear()
        searching = false
        mode = .locked(password: "")
        message = reason
    }

    private func handleLocked(_ key: Key, _ password: String) {
        switch key {
        case .character("q") where password.isEmpty && agentHoldsVault: running = false
        case .escape: running = false
        case .backspace: mode = .locked(password: String(password.dropLast()))
        case .character(let character): mode = .locked(password: password + String(character))
        case .enter: unlock(password)
        default: break
        }
    }

    private var agentHoldsVault: Bool { usesAgent && AgentClient.keys(forVault: path) != nil }

    private func unlock(_ typed: String) {
        mode = .locked(password: "")
        do {
            if usesAgent, let opened = try VaultContext.openWithAgent(path) {
                context = opened
            } else {
                var keyFile = try keyFilePath.map { try VaultContext.readFile($0, what: "key file", maxBytes: KeyFileLimits.maxBytes) }
                defer { if keyFile != nil { wipe(&keyFile!) } }
                let key = try CompositeKey(password: keyFilePath != nil && typed.isEmpty ? nil : ProtectedString(typed),
                                           keyFileContents: keyFile)
                context = VaultContext(path: path, document: try VaultDocument.open(path, key: key))
            }
            mode = .normal
            message = "Unlocked."
            load()
        } catch let error as CoreError {
            message = error.code == .wrongKey ? "Wrong password or key file." : "Cannot unlock: \(error.description)"
        } catch {
            message = "Cannot unlock: \(error)"
        }
    }

    // MARK: Drawing

    private func render() {
        guard let terminal else { return }
        let (columns, rows) = terminal.size
        terminal.write(frame(columns: columns, rows: rows))
    }

    /// What the screen gets for a window of `columns` x `rows`: the escape sequences and text of one frame.
    func frame(columns: Int, rows: Int) -> String {
        var frame = Frame(columns: columns, rows: rows)
        if columns < 80 || rows < 24 {
            frame.set(0, [("Enlarge the window to at least 80x24 (it is \(columns)x\(rows)).", columns, "")])
            return "\u{1B}[2J" + frame.output
        }
        switch mode {
        case .help: drawHelp(&frame)
        case .locked(let password): drawLocked(&frame, password)
        case .form(let form): drawMain(&frame); drawForm(&frame, form)
        default: drawMain(&frame)
        }
        if case .confirmDelete(_, let title) = mode {
            frame.set(rows - 2, [("Delete '\(safe(title))' to the recycle bin? (y/n)", columns, bold)])
        }
        return frame.output
    }

    private func drawHelp(_ frame: inout Frame) {
        frame.set(0, [("mypass browse: keys (any key to go back)", frame.columns, bold)])
        for (index, (keys, what)) in keyHelp.enumerated() {
            frame.set(index + 2, [("  " + keys, 14, bold), (what, frame.columns - 14, "")])
        }
    }

    private func drawLocked(_ frame: inout Frame, _ password: String) {
        let name = VaultContext.displayName(path)
        frame.set(0, [(" \(safe(name)): locked", frame.columns, reverse)])
        frame.set(2, [("  " + message, frame.columns, "")])
        if agentHoldsVault {
            frame.set(4, [("  The agent holds this vault: press Enter to unlock, Esc to quit.", frame.columns, "")])
        } else {
            frame.set(4, [("  Password: " + String(repeating: "*", count: password.count), frame.columns, "")])
            frame.set(6, [("  Enter unlocks, Esc quits.", frame.columns, dim)])
        }
    }

    private func drawMain(_ frame: inout Frame) {
        let columns = frame.columns, rows = frame.rows
        let searchStyle = searching ? reverse : ""
        let search = " Search: " + safe(list.searchText) + (searching ? "▏" : "")
        let title = " " + safe(VaultContext.displayName(path)) + " (\(list.rows.count) of \(list.entryCount)) "
        let titleWidth = min(DisplayWidth.of(title), columns / 3)
        frame.set(0, [(search, columns - titleWidth, searchStyle), (title, titleWidth, dim)])
        let sidebar = max(20, columns / 5)
        let detailWidth = (columns - sidebar) * 45 / 100
        let listWidth = columns - sidebar - detailWidth - 2
        let bodyTop = 1, bodyRows = rows - 3
        // Groups.
        groupCursor = min(groupCursor, max(groups.rows.count - 1, 0))
        var groupLines: [(String, String)] = [("Groups" + (groups.filter.isEmpty ? "" : " (filtered)"), bold)]
        let groupTop = max(0, groupCursor - (bodyRows - 2))
        for (index, row) in groups.rows.enumerated().dropFirst(groupTop) {
            let box = row.check == .on ? "[x]" : row.check == .mixed ? "[-]" : "[ ]"
            let disclosure = row.hasChildren ? (row.isExpanded ? "▾" : "▸") : " "
            let text = String(repeating: " ", count: row.depth) + disclosure + box + " " + safe(row.name)
            groupLines.append((text, focus == .groups && index == groupCursor ? reverse : ""))
        }
        // The list.
        let selected = list.selectedOffset
        let visible = bodyRows - 1
        if let selected {
            if selected < listTop { listTop = selected }
            if selected >= listTop + visible { listTop = selected - visible + 1 }
        }
        listTop = min(listTop, max(0, list.rows.count - visible))
        var listLines: [(String, String)] = [(list.rows.isEmpty ? "No entries" : "Entries", bold)]
        let rowsShown = list.rows
        for index in listTop..<min(listTop + visible, rowsShown.count) {
            let row = rowsShown[index]
            let name = glyph(row.iconID) + " " + DisplayWidth.truncated(safe(row.title), to: max(10, listWidth * 3 / 5))
            let crumb = DisplayWidth.middleTruncated(safe(row.subtitle), to: max(0, listWidth - DisplayWidth.of(name) - 2))
            let style = index == selected ? (focus == .list && !searching ? reverse : bold) : ""
            listLines.append((name + "  " + crumb, style))
        }
        // The detail.
        if let detail, detail.entryID != list.selection { self.detail = nil }
        detail?.refreshTOTP(now: clock.now())
        var detailLines: [(String, String)] = []
        if let detail {
            detailLines.append((safe(detail.title), bold))
            detailLines.append((safe(detail.breadcrumb.joined(separator: " > ")), dim))
            for field in detail.fields {
                let value = detail.displayedValue(of: field.name)
                if !field.isStandard && value.isEmpty { continue }
                let label = field.name == "UserName" ? "User name" : field.name
                detailLines.append((label + ": " + safe(value), ""))
            }
            if let code = detail.totp {
                detailLines.append(("TOTP: " + code.value + (code.secondsRemaining.map { " (\($0) s)" } ?? ""), ""))
            }
            if let expiry = detail.expiry { detailLines.append(("Expires: " + expiry.iso8601, "")) }
            if !detail.tags.isEmpty { detailLines.append(("Tags: " + safe(detail.tags.joined(separator: ", ")), "")) }
            for attachment in detail.attachments {
                detailLines.append(("Attachment: " + safe(attachment.name) + " (\(Text.byteSize(attachment.byteCount)))", ""))
            }
            detailLines.append(("Last displayed: " + detail.lastDisplayed.iso8601, dim))
            detailLines.append(("Password changed: " + detail.passwordLastChanged.iso8601, dim))
        } else if let id = list.selection, let item = list.entry(id) {
            detailLines.append((safe(item.entry.title), bold))
            detailLines.append(("Enter shows the entry.", dim))
        }
        for row in 0..<bodyRows {
            let group = row < groupLines.count ? groupLines[row] : ("", "")
            let item = row < listLines.count ? listLines[row] : ("", "")
            let info = row < detailLines.count ? detailLines[row] : ("", "")
            frame.set(bodyTop + row, [(group.0, sidebar, group.1), ("│", 1, dim), (item.0, listWidth, item.1), ("│", 1, dim),
                                      (info.0, detailWidth, info.1)])
        }
        frame.set(rows - 2, [(message, columns, "")])
        let help = "? keys  q quit  / search  Tab pane  Space group  Enter open  c copy  u user  t TOTP  r reveal  a add  e edit  d delete  x clear  L lock"
        frame.set(rows - 1, [(help, columns, reverse)])
    }

    private func drawForm(_ frame: inout Frame, _ form: BrowseForm) {
        let editor = form.editor
        let width = min(frame.columns - 8, 96)
        let top = 2, labelWidth = 16
        let heading: String
        if case .add = editor.mode { heading = "Add an entry" } else { heading = "Edit the entry" }
        frame.set(top, [("", 4, ""), (" " + heading + ": Enter saves, Esc cancels, Tab next field", width, reverse)])
        let rows = form.rows
        let visible = max(3, frame.rows - top - 7)
        if form.index < form.scroll { form.scroll = form.index }
        if form.index >= form.scroll + visible { form.scroll = form.index - visible + 1 }
        var line = top + 1
        for (index, row) in rows.enumerated().dropFirst(form.scroll).prefix(visible) {
            let style = index == form.index ? reverse : ""
            let (label, value) = form.display(row)
            frame.set(line, [("", 4, ""), (" " + label, labelWidth, bold), (safe(value) + (index == form.index ? "▏" : ""), width - labelWidth, style)])
            line += 1
        }
        if rows.count > visible { frame.set(line, [("", 4, ""), ("  (\(rows.count - visible) more: Tab and ↑ ↓ scroll)", width, dim)]); line += 1 }
        frame.set(line, [("", 4, ""), (" " + form.hint, width, dim)])
        frame.set(line + 1, [("", 4, ""), (" " + message, width, "")])
    }
}

/// `browse --match URL`: the AutoFill view (suggestions first, then every entry, search).
@MainActor
final class BrowseMatchApp {
    private let model: AutoFillListModel
    private let service: String
    private var selection = 0
    private var top = 0

    init(index: CredentialIndex, service: String) {
        model = AutoFillListModel(index: index, serviceIdentifiers: [service])
        self.service = service
    }

    private var rows: [AutoFillListModel.Row] { model.suggestions + model.others }

    /// Runs until Enter (the choice) or Esc / Ctrl-C (`nil`).
    func run() throws -> AutoFillCredential? {
        let terminal = try Terminal(controllingTerminal: true)
        defer { terminal.restore() }
        while true {
            render(terminal)
            guard let key = terminal.readKey(timeoutMilliseconds: 1000) else { continue }
            switch key {
            case .escape, .control(3): return nil
            case .up: selection = max(0, selection - 1)
            case .down: selection = min(max(rows.count - 1, 0), selection + 1)
            case .enter:
                guard selection < rows.count else { continue }
                return try? model.select(rows[selection].id)
            case .backspace:
                if !model.searchText.isEmpty { model.searchText.removeLast(); selection = 0 }
            case .character(let character): model.searchText.append(character); selection = 0
            default: break
            }
        }
    }

    private func render(_ terminal: Terminal) {
        let (columns, rows) = terminal.size
        var frame = Frame(columns: columns, rows: rows)
        guard columns >= 80 && rows >= 24 else {
            frame.set(0, [("Enlarge the window to at least 80x24 (it is \(columns)x\(rows)).", columns, "")])
            terminal.write("\u{1B}[2J" + frame.output)
            return
        }
        frame.set(0, [(" Fill for " + safe(service) + "   Search: " + safe(model.searchText) + "▏", columns, reverse)])
        let all = self.rows
        let visible = rows - 3
        if selection < top { top = selection }
        if selection >= top + visible { top = selection - visible + 1 }
        let suggested = model.suggestions.count
        for (index, row) in all.enumerated().dropFirst(top).prefix(visible) {
            let mark = index < suggested ? "★ " : "  "
            let text = mark + safe(row.title) + "  " + safe(([row.userName] + [row.breadcrumb.joined(separator: " > ")]).filter { !$0.isEmpty }
                .joined(separator: " · "))
            frame.set(1 + index - top, [(text, columns, index == selection ? reverse : "")])
        }
        if all.isEmpty { frame.set(1, [("  No entries", columns, dim)]) }
        frame.set(rows - 1, [("Enter chooses (prints its path, copies its password)  ↑ ↓ move  type to search  Esc cancels", columns, reverse)])
        terminal.write(frame.output)
    }
}

/// `MYPASS_BROWSE_BENCH=1 mypass __browse-bench VAULT [--keys TEXT] [--size COLSxROWS]` (for
/// `mypass-bench browse`): opens the vault as `browse` does (password on standard input), builds
/// the same models and first frame, then types `/` and each character of TEXT, timing each key's
/// model update and frame. Prints one line: the nanoseconds of each key, then `peak` and this
/// process's VmHWM in bytes.
enum BrowseBenchmark {
    static let commandName = "__browse-bench"
    static var isEnabled: Bool { ProcessInfo.processInfo.environment["MYPASS_BROWSE_BENCH"] == "1" }

    static func run(_ arguments: [String]) throws {
        guard let vault = arguments.first else { throw CLIError(.usage, "__browse-bench VAULT [--keys TEXT] [--size COLSxROWS]") }
        var keys = "site 4"
        var size = (120, 40)
        var index = 1
        while index + 1 < arguments.count {
            if arguments[index] == "--keys" { keys = arguments[index + 1] }
            if arguments[index] == "--size" {
                let parts = arguments[index + 1].split(separator: "x").compactMap { Int($0) }
                if parts.count == 2 { size = (parts[0], parts[1]) }
            }
            index += 2
        }
        guard case .run(let parsed) = try ArgumentParser.parse([vault, "--no-agent"], for: CommandSpecs.browse) else {
            throw CLIError(.usage, "__browse-bench VAULT")
        }
        let (context, _) = try VaultContext.open(parsed)
        let line = try MainActor.assumeIsolated { () throws -> String in
            let app = BrowseApp(context: context, parsed: parsed, lockAfterSeconds: 0)
            var written = app.frame(columns: size.0, rows: size.1).utf8.count
            var times: [String] = []
            for key in [Key.character("/")] + keys.map({ Key.character($0) }) {
                let start = ContinuousClock.now
                app.handle(key)
                written &+= app.frame(columns: size.0, rows: size.1).utf8.count
                let elapsed = ContinuousClock.now - start
                times.append(String(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000))
            }
            return times.joined(separator: " ") + " frames \(written)"
        }
        var peak = "0"
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
            for entry in status.split(separator: "\n") where entry.hasPrefix("VmHWM:") {
                peak = String((Int(entry.split(separator: " ")[1]) ?? 0) * 1024)
            }
        }
        Console.line(line + " peak " + peak)
    }
}
