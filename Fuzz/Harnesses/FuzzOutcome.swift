/// How one fuzz input ended: read, refused with a typed error of the module that read it, or a
/// broken property (a bug: the fuzz binary traps on it, the corpus replay fails on it).
package enum FuzzOutcome: Equatable, Sendable, CustomStringConvertible {
    /// The input was read.
    case accepted
    /// The input was refused; the text names the error type and its code (`KDBXError.corruptedFile`).
    case rejected(String)
    /// A property that must hold for every input did not (the text says which); never expected.
    case violated(String)

    /// `accepted`, `rejected KDBXError.corruptedFile` or `violated ...`: one line of a corpus manifest.
    package var description: String {
        switch self {
        case .accepted: return "accepted"
        case .rejected(let code): return "rejected " + code
        case .violated(let what): return "violated " + what
        }
    }

    /// Whether the outcome is a bug.
    package var isViolation: Bool {
        if case .violated = self { return true }
        return false
    }

    /// The outcome of a typed error: its type name and code, never its reason (which could quote input).
    static func rejection<E: Error>(of error: E, code: some Any) -> FuzzOutcome {
        .rejected("\(E.self).\(code)")
    }
}
