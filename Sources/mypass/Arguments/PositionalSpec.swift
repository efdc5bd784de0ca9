/// A positional argument of a command (`<vault>`, `<entry>`).
struct PositionalSpec: Sendable {
    var name: String
    var help: String
    var isOptional: Bool = false
}
