import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import Observation

/// The unlock screen and the open session: password and/or key file, progress and cancel while
/// the KDF runs, quick reopen through the `CredentialStore` (the app's Face ID / Touch ID
/// item), lock on background and after idle time. After a lock no vault data and no secret is
/// left in this model; ``onVaultChange`` tells the screens' models to load or clear.
@available(iOS 17, macOS 14, *)
@MainActor
@Observable
public final class VaultSessionModel {
    /// Where the session is.
    public enum State: Sendable, Equatable {
        case locked
        /// Deriving the key: the KDF's progress, 0...1.
        case unlocking(progress: Double)
        case unlocked
    }

    /// The state the unlock screen shows.
    public private(set) var state: State = .locked
    /// The last failure (wrong key, unreadable file, save refused), for the view.
    public var failure: ModelError?
    /// Whether to keep the credentials in the store after the next unlock ("Unlock with Face ID").
    public var remembersCredentials = false
    /// The vault as last read or edited (`nil` while locked).
    public private(set) var vault: Vault?
    /// Whether there are edits not saved yet.
    public private(set) var hasUnsavedChanges = false
    /// Called with the vault after an unlock, an edit or a save, and with `nil` after a lock: the
    /// caller loads its list, filter and detail models from it, or clears them.
    @ObservationIgnored public var onVaultChange: (@MainActor (Vault?) -> Void)?

    /// The session (an actor: the KDF runs off the main actor).
    public let session: VaultSession
    @ObservationIgnored private let clock: any SessionClock
    @ObservationIgnored private var unlockTask: Task<Void, Never>?

    /// A model over `session`; `clock` gives the times recorded on edits.
    public init(session: VaultSession, clock: any SessionClock = SystemClock()) {
        self.session = session
        self.clock = clock
    }

    /// Whether the list is locked.
    public var isLocked: Bool { state != .unlocked }

    // MARK: Unlocking

    /// Unlocks with a password and/or key file contents; returns when the unlock ended (see
    /// ``state`` and ``failure``). ``cancelUnlock()`` stops the KDF.
    public func unlock(password: ProtectedString?, keyFileContents: [UInt8]? = nil) async {
        let remember = remembersCredentials
        await run { session, progress throws(CoreError) in
            try await session.unlock(password: password, keyFileContents: keyFileContents, rememberCredentials: remember,
                                     progress: progress)
        }
    }

    /// Unlocks with the credentials in the store (after the system's biometric check, which the
    /// store's Keychain item enforces).
    public func quickUnlock() async {
        await run { session, progress throws(CoreError) in try await session.unlockWithStoredCredentials(progress: progress) }
    }

    /// Stops a running unlock (the KDF checks between its steps).
    public func cancelUnlock() {
        unlockTask?.cancel()
    }

    private func run(_ body: @escaping @Sendable (VaultSession, @escaping @Sendable (Double) -> Void) async throws(CoreError) -> Void) async {
        guard state == .locked else { return }
        failure = nil
        state = .unlocking(progress: 0)
        let session = session
        // The KDF reports from its thread; the newest fraction reaches the main actor.
        let (fractions, continuation) = AsyncStream<Double>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let progressTask = Task { @MainActor [weak self] in
            for await fraction in fractions {
                if case .unlocking = self?.state { self?.state = .unlocking(progress: fraction) }
            }
        }
        let report: @Sendable (Double) -> Void = { continuation.yield($0) }
        let task = Task { @MainActor [weak self] in
            defer { continuation.finish() }
            do throws(CoreError) {
                try await body(session, report)
                await self?.didUnlock()
            } catch {
                self?.state = .locked
                if error.code != .cancelled && error.code != .locked { self?.failure = ModelError(error) }
            }
        }
        unlockTask = task
        await task.value
        await progressTask.value
        unlockTask = nil
    }

    private func didUnlock() async {
        do throws(CoreError) {
            let current = try await session.currentVault()
            vault = current
            state = .unlocked
            hasUnsavedChanges = false
            onVaultChange?(current)
        } catch {
            lock()
        }
    }

    // MARK: Locking

    /// Locks: the session drops its key and model, this model its vault, and ``onVaultChange``
    /// clears the screens' models. A running unlock ends locked.
    /// - Returns: the task that locks the session actor (await it to know the session dropped its key).
    @discardableResult
    public func lock() -> Task<Void, Never> {
        unlockTask?.cancel()
        vault = nil
        hasUnsavedChanges = false
        state = .locked
        let session = session
        let locking = Task { await session.lock() }
        onVaultChange?(nil)
        return locking
    }

    /// The app went to the background (or the extension finished): lock at once.
    @discardableResult
    public func sceneDidEnterBackground() -> Task<Void, Never> { lock() }

    /// Locks when the session's idle timeout has passed (call from a timer and on returning to
    /// the foreground). Returns whether it is locked.
    @discardableResult
    public func lockIfIdle() async -> Bool {
        guard vault != nil else { return true }
        if await session.lockIfIdle() {
            lock()
            return true
        }
        return false
    }

    // MARK: Using the vault

    /// Opens the detail of entry `uuid`, recording the access as KeePass does (last access
    /// time, usage count + 1; kept with the next save, never saved on its own).
    public func openEntry(_ uuid: KDBXUUID, clipboard: any ClipboardWriter) async -> EntryDetailModel? {
        guard let vault, let located = vault.flatEntries.first(where: { $0.id == uuid }) else { return nil }
        let detail = EntryDetailModel(entry: located.entry, breadcrumb: located.breadcrumb, clipboard: clipboard, now: clock.now())
        await edit { vault, now throws(CoreError) in try vault.touchEntry(uuid, now: now) }
        return detail
    }

    /// Applies an edit to the session's vault (all or nothing); `false` when it failed (see ``failure``).
    @discardableResult
    public func edit(_ body: @escaping @Sendable (inout Vault, KDBXTime) throws(CoreError) -> Void) async -> Bool {
        do throws(CoreError) {
            try await session.edit { (vault: inout Vault, now: KDBXTime) throws in try body(&vault, now) }
            try await refresh()
            return true
        } catch {
            failure = ModelError(error)
            return false
        }
    }

    /// Saves through `VaultDocument` (a change made on disk meanwhile is merged); `nil` when it failed.
    @discardableResult
    public func save() async -> VaultDocument.SaveReport? {
        do throws(CoreError) {
            let report = try await session.save()
            try await refresh()
            return report
        } catch {
            failure = ModelError(error)
            return nil
        }
    }

    /// Moves entry `uuid` to the recycle bin (or deletes it for good when it is there or the
    /// vault has no bin, as KeePass), then saves.
    @discardableResult
    public func deleteEntry(_ uuid: KDBXUUID) async -> Bool {
        guard await edit({ vault, now throws(CoreError) in _ = try vault.deleteEntry(uuid, now: now) }) else { return false }
        return await save() != nil
    }

    /// Saves an editor's entry (added or edited) and the vault; returns the entry's UUID, or
    /// `nil` with ``EntryEditorModel/errors`` or ``failure`` set.
    @discardableResult
    public func commit(_ editor: EntryEditorModel) async -> KDBXUUID? {
        guard let vault else { return nil }
        guard editor.validate(in: vault) else { return nil }
        let prepared = editor.preparedEditor()
        let uuid: KDBXUUID
        do throws(CoreError) {
            uuid = try await session.edit { (vault: inout Vault, now: KDBXTime) throws in try prepared.commit(to: &vault, now: now) }
        } catch {
            failure = ModelError(error)
            return nil
        }
        return await save() != nil ? uuid : nil
    }

    private func refresh() async throws(CoreError) {
        let current = try await session.currentVault()
        vault = current
        hasUnsavedChanges = await session.hasUnsavedChanges
        onVaultChange?(current)
    }
}
