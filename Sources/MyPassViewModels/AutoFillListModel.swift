import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import Observation

/// Why the AutoFill extension cannot offer credentials: it shows "Open MyPass" with
/// `deepLink` (`mypass://unlock`), which opens the app to unlock (or to fix the vault).
@available(iOS 17, macOS 14, *)
public struct AutoFillFailure: Error, Sendable, Equatable {
    /// Why.
    public enum Reason: Sendable, Equatable {
        /// No cached key and no stored credentials: the app must unlock first.
        case locked
        /// The vault's KDF or index does not fit the extension's memory budget (the numbers).
        case memoryBudgetExceeded(MemoryBudgetExceeded)
        /// The key no longer opens the vault (the master key changed).
        case wrongKey
        /// The file cannot be read, or is damaged (the core code).
        case vault(CoreError.Code)
    }

    /// Why.
    public let reason: Reason
    /// What to show under "Open MyPass".
    public let message: String

    /// The app's URL that the extension opens.
    public static let deepLink = URL(string: "mypass://unlock")!
    /// The app's URL that the extension opens.
    public var deepLink: URL { Self.deepLink }

    /// The failure for a core error from `CredentialIndex/open(_:key:cachedKey:options:)`.
    public init(_ error: CoreError) {
        switch error.code {
        case .memoryBudgetExceeded:
            if let numbers = error.underlying as? MemoryBudgetExceeded {
                reason = .memoryBudgetExceeded(numbers)
            } else {
                reason = .vault(error.code)
            }
        case .wrongKey: reason = .wrongKey
        case .locked, .noStoredCredential: reason = .locked
        default: reason = .vault(error.code)
        }
        message = error.description
    }
}

/// What a selection fills: the user name and the password.
@available(iOS 17, macOS 14, *)
public struct AutoFillCredential: Sendable {
    /// The entry's UUID (for the system's credential identity store).
    public let entryID: KDBXUUID
    /// `UserName`.
    public let userName: String
    /// `Password`, masked until the extension hands it to the system.
    public let password: ProtectedString
}

/// The AutoFill extension's credential list, given the system's service identifiers:
/// suggestions first (`CredentialMatcher`, best match first), then every other entry, both
/// narrowed by the search text. It works from the `CredentialIndex` (opened inside the
/// extension's 50 MB budget; ``open(_:key:cachedKey:budgetBytes:)``), never from the full model.
@available(iOS 17, macOS 14, *)
@MainActor
@Observable
public final class AutoFillListModel {
    /// One row: what the picker shows.
    public struct Row: Sendable, Identifiable, Equatable {
        public let id: KDBXUUID
        public let title: String
        public let userName: String
        public let breadcrumb: [String]
        public let iconSymbol: String
        /// How it matched the service (`nil` for the other entries).
        public let match: CredentialMatchKind?
    }

    /// The service identifiers the system handed over (URLs or domains).
    public let serviceIdentifiers: [String]
    /// The search text.
    public var searchText = "" {
        didSet { if searchText != oldValue { refresh() } }
    }
    /// The suggestions, best first (narrowed by the search).
    public private(set) var suggestions: [Row] = []
    /// Every other entry, in vault order (narrowed by the search).
    public private(set) var others: [Row] = []

    @ObservationIgnored private var index: CredentialIndex?
    @ObservationIgnored private var matched: [(IndexedCredential, CredentialMatchKind)] = []
    @ObservationIgnored private var rest: [IndexedCredential] = []

    /// The list for `index` and the service identifiers.
    public init(index: CredentialIndex, serviceIdentifiers: [String], matcher: CredentialMatcher = CredentialMatcher()) {
        self.index = index
        self.serviceIdentifiers = serviceIdentifiers
        let matches = matcher.match(serviceIdentifiers: serviceIdentifiers, in: index.credentials)
        matched = Array(zip(matches.suggested, matches.kinds))
        rest = matches.others
        refresh()
    }

    /// Opens the index for the extension: `budgetBytes` (50 MB by default: the extension's
    /// limit) covers the KDF, or none with a fitting cached key, and the index itself.
    /// - Throws: ``AutoFillFailure`` (show "Open MyPass").
    public static func open(_ path: String, key: CompositeKey, cachedKey: CachedTransformedKey?,
                            budgetBytes: UInt64 = 50_000_000) throws(AutoFillFailure) -> CredentialIndex.Opened {
        do throws(CoreError) {
            return try CredentialIndex.open(path, key: key, cachedKey: cachedKey,
                                            options: CredentialIndex.OpenOptions(budgetBytes: budgetBytes, removesStaleTemporaryFiles: false))
        } catch {
            throw AutoFillFailure(error)
        }
    }

    /// The user picked row `id`: what to fill.
    /// - Throws: ``AutoFillFailure`` with `.locked` once ``clear()`` ran, `.vault(.notFound)` for an unknown id.
    public func select(_ id: KDBXUUID) throws(AutoFillFailure) -> AutoFillCredential {
        guard let index else { throw AutoFillFailure(CoreError(.locked)) }
        guard let credential = index.credentials.first(where: { $0.id == id }) else {
            throw AutoFillFailure(CoreError(.notFound, "the entry is not in the vault any more"))
        }
        return AutoFillCredential(entryID: id, userName: credential.userName, password: credential.password)
    }

    /// Forgets the index (the extension is done).
    public func clear() {
        index = nil
        matched = []
        rest = []
        suggestions = []
        others = []
    }

    private func refresh() {
        let needle = SearchFolding.fold(searchText.trimmingCharacters(in: .whitespaces))
        func keep(_ credential: IndexedCredential) -> Bool {
            credential.searchKeys.contains(where: { SearchFolding.contains($0, folded: needle) })
        }
        func row(_ credential: IndexedCredential, _ kind: CredentialMatchKind?) -> Row {
            Row(id: credential.id, title: credential.title, userName: credential.userName, breadcrumb: credential.breadcrumb,
                iconSymbol: KeePassIconMapper.symbolName(forIconID: credential.iconID), match: kind)
        }
        suggestions = matched.filter { keep($0.0) }.map { row($0.0, $0.1) }
        others = rest.filter(keep).map { row($0, nil) }
    }
}
