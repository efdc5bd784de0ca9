import MyPassBytes
import MyPassKDBX

/// What an app implements to answer a vault's challenge with a hardware key: a YubiKey's HMAC-SHA1
/// slot over NFC, Lightning or USB-C (through the platform's smart-card API or the vendor's
/// library), or anything that answers like one. A vault whose key has this component (KeePassXC,
/// KeePassium, Strongbox and KeePassDX write them) opens and saves only with the response.
///
/// The challenge is the file's own random value: the KDF seed in KDBX 4, the master seed in 3.1
/// (32 bytes as every client writes it). Send a YubiKey `YubiKeyChallenge.padded(_:)` (the 64
/// bytes KeePassXC and KeePassium send to a slot configured for variable-length input); the
/// response is the key's 20 bytes. Wrap the responder with `ChallengeResponseKey.init(_:)` into
/// the composite key, or give it to ``VaultSession/unlock(password:keyFileContents:challengeResponder:rememberCredentials:progress:)``.
///
/// When it is called:
/// - on an open, once, unless a ``CachedTransformedKey`` fits the file (the seed is unchanged
///   since it was derived): unlock-once and the AutoFill extension then need no key;
/// - on every save, once, before anything is written: a save draws a new seed, so the key is asked
///   again (a touch). A responder that throws or is cancelled stops the save; the vault file stays
///   as it was.
///
/// It is called on the thread that runs the open or save (``VaultSession`` runs them in a task off
/// its actor and off the main actor), and may block that thread while the user presents the key:
/// an implementation over a completion-handler API waits for the handler there (a semaphore), with
/// its own timeout. It must not wait for the main actor to do work that itself waits for the
/// session.
public protocol ChallengeResponder: Sendable {
    /// The 20-byte HMAC-SHA1 response to `challenge`, in wiping storage.
    /// - Parameter challenge: the file's challenge (32 bytes as MyPass and the other clients write it).
    /// - Throws: `CancellationError` or ``CoreError`` `.cancelled` when the user cancelled; any
    ///   other error when no answer can be had (no key presented, the slot is not programmed). Its
    ///   reason is kept only when it is a ``CoreError`` (whose reasons never hold a secret).
    func response(to challenge: [UInt8]) throws -> SecureBytes
}

extension ChallengeResponseKey {
    /// The composite key's challenge-response component answered by an app's `responder`.
    ///
    /// A `CancellationError` or a ``CoreError`` `.cancelled` becomes `KDBXError.Code.cancelled`
    /// (the open or save reports ``CoreError/Code/cancelled``); any other error, or an answer that
    /// is not 20 bytes, becomes `KDBXError.Code.missingKeyComponent` (the open or save reports
    /// ``CoreError/Code/codec`` with it as the underlying error).
    public init(_ responder: any ChallengeResponder) {
        self.init { (challenge: [UInt8]) throws(KDBXError) -> SecureBytes in
            do {
                return try responder.response(to: challenge)
            } catch is CancellationError {
                throw KDBXError(.cancelled, "the challenge-response was cancelled")
            } catch let error as CoreError {
                if error.code == .cancelled { throw KDBXError(.cancelled, "the challenge-response was cancelled") }
                throw KDBXError(.missingKeyComponent, "the hardware key did not answer: " + (error.reason.isEmpty ? error.description : error.reason))
            } catch {
                throw KDBXError(.missingKeyComponent, "the hardware key did not answer (\(type(of: error)))")
            }
        }
    }
}

/// A software "virtual key": answers from the HMAC-SHA1 secret a YubiKey slot was programmed
/// with, exactly as that key answers (`ChallengeResponseKey.hmacSHA1(secret:)`). For users who
/// hold their key's secret as a backup, and for tests and previews.
public struct SoftwareChallengeResponder: ChallengeResponder {
    private let key: ChallengeResponseKey

    /// A responder for `secret` (20 bytes for a YubiKey slot), kept in wiping storage.
    public init(secret: SecureBytes) {
        key = .hmacSHA1(secret: secret)
    }

    /// HMAC-SHA1(secret, the challenge as a variable-length YubiKey slot hashes it): 20 bytes.
    public func response(to challenge: [UInt8]) throws -> SecureBytes {
        do {
            return try key.response(to: challenge)
        } catch {
            throw CoreError(codecError: error)
        }
    }
}
