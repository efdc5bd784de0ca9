/// `mypass completion bash|zsh|fish`: prints the completion script made from ``CommandSpecs/all``.
enum CompletionCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let model = CompletionModel()
        switch parsed.required("shell") {
        case "bash": Console.out(BashCompletion.script(model))
        case "zsh": Console.out(ZshCompletion.script(model))
        case "fish": Console.out(FishCompletion.script(model))
        case let other: throw parsed.usageError("The value '\(other)' is invalid for '<shell>': expected bash, zsh or fish")
        }
    }
}
