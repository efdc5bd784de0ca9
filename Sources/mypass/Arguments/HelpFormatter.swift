/// Two-column rows for help text.
enum HelpFormatter {
    static let labelWidth = 26

    static func row(_ label: String, _ help: String) -> String {
        let indented = "  " + label
        if indented.count + 2 > labelWidth {
            return indented + "\n" + String(repeating: " ", count: labelWidth) + help + "\n"
        }
        return indented + String(repeating: " ", count: labelWidth - indented.count) + help + "\n"
    }
}
