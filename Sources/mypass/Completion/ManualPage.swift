/// The manual page `mypass help --man` prints (roff, `man 1 mypass`), made from the same text
/// as `--help`: the top-level overview and every command's abstract, discussion, usage,
/// arguments and options from ``CommandSpecs/all``.
enum ManualPage {
    /// The whole page. Read it with `mypass help --man | man -l -`.
    static func render(_ model: CompletionModel = CompletionModel()) -> String {
        var text = ".TH MYPASS 1 \"\" \"mypass \(CommandLineTool.version)\" \"User Commands\"\n"
        text += ".SH NAME\nmypass \\- a KeePass (KDBX) password manager\n"
        text += ".SH SYNOPSIS\n.B mypass\n\\fI<subcommand>\\fR \\fI<vault>\\fR [\\fI<arguments>\\fR] [\\fI<options>\\fR]\n"
        text += ".SH DESCRIPTION\n"
        // The overview paragraphs of the top-level help, between USAGE and OPTIONS.
        let help = CommandSpecs.topLevelHelp
        if let usage = help.range(of: "USAGE:"), let options = help.range(of: "\nOPTIONS:") {
            let body = help[usage.upperBound..<options.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
                .dropFirst()  // the rest of the USAGE line
            text += paragraphs(body.joined(separator: "\n"))
        }
        text += ".SH COMMANDS\n"
        for command in model.commands {
            let spec = command.spec
            text += ".SS \(escape(spec.name))\n\(escape(spec.abstract))\n"
            if !spec.discussion.isEmpty { text += paragraphs(spec.discussion) }
            text += ".PP\n.B Usage:\n\(escape(spec.usage))\n"
            for positional in spec.positionals {
                text += ".TP\n.I <\(escape(positional.name))>\n\(escape(positional.help))\n"
            }
            for option in command.options {
                var label = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
                label += "\\fB\\-\\-\(escape(option.long))\\fR"
                if let value = option.valueName { label += " \\fI<\(escape(value))>\\fR" }
                text += ".TP\n\(label)\n\(escape(option.help + (option.isRepeatable ? " (repeatable)" : "")))\n"
            }
        }
        text += ".SH SEE ALSO\n.BR keepassxc-cli (1)\n"
        return text
    }

    /// Paragraphs separated by blank lines as `.PP` blocks.
    static func paragraphs(_ text: String) -> String {
        var out = ""
        var current: [String] = []
        func flush() {
            if !current.isEmpty { out += ".PP\n" + escape(current.joined(separator: " ")) + "\n" }
            current = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty { flush() } else { current.append(String(trimmed)) }
        }
        flush()
        return out
    }

    /// Text safe for roff: backslashes as `\e`, dashes as `\-`, a leading `.` or `'` guarded.
    static func escape(_ text: String) -> String {
        var out = text.replacingOccurrences("\\", "\\e").replacingOccurrences("-", "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
