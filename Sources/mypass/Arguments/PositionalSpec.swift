/// A positional argument of a command (`<vault>`, `<entry>`).
struct PositionalSpec: Sendable {
    var name: String
    var help: String
    var isOptional: Bool = false
    /// A flag that makes this positional optional when given (`merge`'s `<other>` with `--conflicts`).
    var optionalWithFlag: String?
    /// The words after `--`, all of them (a command line to run): the command's last positional.
    var isTrailing: Bool = false
}
