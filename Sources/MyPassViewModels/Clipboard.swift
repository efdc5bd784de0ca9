import MyPassBytes
import MyPassCore

/// The clipboard a model copies to: the platform implements it (`UIPasteboard` with
/// `setItems(_:options:)` and `.expirationDate` on iOS, `NSPasteboard` plus a timer on macOS,
/// the CLI's clipboard helper with `mypass unclip` in `mypass browse`).
@available(iOS 17, macOS 14, *)
public protocol ClipboardWriter: Sendable {
    /// Puts `value` on the clipboard, to be cleared after `expirySeconds` unless something else was
    /// copied meanwhile.
    /// - Throws: ``ModelError`` when the clipboard cannot be set.
    func copy(_ value: ProtectedString, expirySeconds: Int) throws(ModelError)
}

/// How long a copied value stays on the clipboard: 30 seconds, as `mypass clip` and KeePassXC.
@available(iOS 17, macOS 14, *)
public enum ClipboardPolicy {
    /// Seconds before a copied value is cleared.
    public static let expirySeconds = 30
}

/// A failure a model reports to its view, as a value (never a secret in it).
@available(iOS 17, macOS 14, *)
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The core error's code, when a core call failed.
    public var code: CoreError.Code?
    /// What to show.
    public var message: String

    /// An error with a message (and a core code).
    public init(_ message: String, code: CoreError.Code? = nil) {
        self.message = message
        self.code = code
    }

    /// The model error for a core error (its description holds no secret).
    public init(_ error: CoreError) {
        self.init(error.description, code: error.code)
    }

    public var description: String { message }
}
