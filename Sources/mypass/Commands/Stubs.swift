// Temporary: the commands that need the vault model; replaced as the model and core land.
private func notYet(_ parsed: ParsedArguments) throws { throw CLIError.failure("'\(parsed.command.name)' is not implemented yet") }
enum InfoCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum ListCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum GroupsCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum ShowCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum AddCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum EditCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum RemoveCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum MoveCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum MakeGroupCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum RemoveGroupCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum TOTPCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum MatchCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum AttachmentCommand {
    static func export(_ p: ParsedArguments) throws { try notYet(p) }
    static func importFile(_ p: ParsedArguments) throws { try notYet(p) }
    static func remove(_ p: ParsedArguments) throws { try notYet(p) }
}
enum ExportCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
enum GenerateCommand { static func run(_ p: ParsedArguments) throws { try notYet(p) } }
