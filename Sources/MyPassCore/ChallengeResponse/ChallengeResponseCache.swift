import Foundation
import MyPassBytes
import MyPassKDBX

/// The last challenge a vault's hardware key answered and its response, as the app saw them.
public struct ChallengeResponseRecord: Sendable, Equatable {
    /// The challenge (the file's KDF seed in KDBX 4, its master seed in 3.1).
    public let challenge: [UInt8]
    /// The 20-byte response, in wiping storage.
    public let response: SecureBytes

    /// A record from its parts.
    public init(challenge: [UInt8], response: SecureBytes) {
        self.challenge = challenge
        self.response = response
    }
}

/// Where the app keeps the last challenge and response of each vault for its AutoFill extension,
/// which cannot reach a hardware key (on Apple platforms: a Keychain item of the app group's access
/// group, protected like the stored credentials: this device only, behind Face ID or Touch ID).
/// ``InMemoryChallengeResponseStore`` serves tests and previews.
///
/// The record is a key component: with the password (and key file) it opens the vault, for as
/// long as the file keeps that seed (until the next save by any client). Forget it with the
/// credentials (``delete(forVault:)``).
public protocol ChallengeResponseStore: Sendable {
    /// Keeps `record` for the vault `vaultID`, replacing the one before.
    func save(_ record: ChallengeResponseRecord, forVault vaultID: String) throws(CoreError)
    /// The record kept for `vaultID`, or `nil`.
    func record(forVault vaultID: String) throws(CoreError) -> ChallengeResponseRecord?
    /// Forgets the record of `vaultID` (no error when there is none).
    func delete(forVault vaultID: String) throws(CoreError)
}

/// A challenge-response store in memory, for tests and previews; safe to use from several tasks.
public final class InMemoryChallengeResponseStore: ChallengeResponseStore, @unchecked Sendable {
    private let lock = NSLock()
    private var records: [String: ChallengeResponseRecord] = [:]

    /// An empty store.
    public init() {}

    /// Keeps `record` in memory.
    public func save(_ record: ChallengeResponseRecord, forVault vaultID: String) throws(CoreError) {
        lock.withLock { records[vaultID] = record }
    }

    /// The record in memory, or `nil`.
    public func record(forVault vaultID: String) throws(CoreError) -> ChallengeResponseRecord? {
        lock.withLock { records[vaultID] }
    }

    /// Forgets the record.
    public func delete(forVault vaultID: String) throws(CoreError) {
        _ = lock.withLock { records.removeValue(forKey: vaultID) }
    }
}

/// The app's responder for a vault: asks the hardware key (`base`) and keeps each answer in the
/// store, so that the AutoFill extension can answer the same challenge later
/// (``CachedChallengeResponder``). Opens and saves both record: after a save the record holds
/// the new file's challenge. A failed answer records nothing.
public struct RecordingChallengeResponder: ChallengeResponder {
    /// The hardware key's responder.
    public let base: any ChallengeResponder
    /// Where the records go.
    public let store: any ChallengeResponseStore
    /// The vault's identifier in the store (``VaultSession/vaultID``).
    public let vaultID: String

    /// A responder that asks `base` and records its answers for `vaultID` in `store`.
    public init(base: any ChallengeResponder, store: any ChallengeResponseStore, vaultID: String) {
        self.base = base
        self.store = store
        self.vaultID = vaultID
    }

    /// `base`'s answer, recorded first.
    /// - Throws: what `base` throws; ``CoreError`` when the store cannot keep the record.
    public func response(to challenge: [UInt8]) throws -> SecureBytes {
        let response = try base.response(to: challenge)
        try store.save(ChallengeResponseRecord(challenge: challenge, response: response), forVault: vaultID)
        return response
    }
}

/// The AutoFill extension's responder: answers from the record the app kept
/// (``RecordingChallengeResponder``), and only the challenge of that record, compared in constant
/// time. Any other challenge (the vault was saved since by another client or device, or nothing
/// was recorded) is refused with ``CoreError/Code/noStoredCredential``: the extension then asks the
/// user to open the app with the hardware key once. It never answers a save's new challenge, so an
/// extension cannot re-encrypt the vault without the key.
public struct CachedChallengeResponder: ChallengeResponder {
    /// Where the app keeps the records.
    public let store: any ChallengeResponseStore
    /// The vault's identifier in the store.
    public let vaultID: String

    /// A responder answering from `store`'s record for `vaultID`.
    public init(store: any ChallengeResponseStore, vaultID: String) {
        self.store = store
        self.vaultID = vaultID
    }

    /// The recorded response when `challenge` is the recorded challenge.
    /// - Throws: ``CoreError`` `.noStoredCredential` when there is no record for this challenge;
    ///   what the store throws.
    public func response(to challenge: [UInt8]) throws -> SecureBytes {
        guard let record = try store.record(forVault: vaultID), record.challenge.count == challenge.count,
              constantTimeEquals(record.challenge, challenge)
        else {
            throw CoreError(.noStoredCredential, "no response is kept for this vault's current challenge; open MyPass with the hardware key once")
        }
        return record.response
    }
}
