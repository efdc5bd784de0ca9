import Foundation
import MyPassTestSupport
import Testing

/// The documents a reader meets: README.md as a landing page, the guides it links, and the user
/// guide's command reference, which must be what the built `mypass` prints for its help.
@Suite("Documentation")
struct DocumentationTests {
    static let root = TestVectors.repositoryRoot

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    @Test("the user guide's command reference is exactly `mypass help --markdown` (run Tools/update-user-guide.sh)")
    func commandReferenceIsCurrent() throws {
        let guide = try Self.read("docs/user-guide.md")
        let result = try CLI.run(["help", "--markdown"])
        #expect(result.status == 0)
        let reference = result.stdoutText
        let begin = try #require(reference.split(separator: "\n").first.map(String.init))
        let start = try #require(guide.range(of: begin), "docs/user-guide.md has no reference marker")
        #expect(String(guide[start.lowerBound...]) == reference)
    }

    @Test("every command and option of --help and the manual page is in the user guide's reference")
    func manualPageAndHelpAgreeWithTheGuide() throws {
        let guide = try Self.read("docs/user-guide.md")
        let manual = try CLI.run(["help", "--man"])
        #expect(manual.status == 0)
        // Every command heading of the manual page (`.SS name`) has its section in the guide.
        let commands = manual.stdoutText.split(separator: "\n").filter { $0.hasPrefix(".SS ") }
            .map { $0.dropFirst(4).replacingOccurrences(of: "\\-", with: "-") }
        #expect(commands.count >= 30)
        for command in commands {
            #expect(guide.contains("### `mypass \(command)`"), "no section for \(command)")
            // Its usage line, as --help prints it, is in the guide verbatim.
            let help = try CLI.run(["help"] + command.split(separator: " ").map(String.init))
            let usage = help.stdoutText.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }
            let line = try #require(usage).dropFirst("USAGE: ".count)
            #expect(guide.contains("\n\(line)\n"), "usage of \(command) differs from --help")
        }
    }

    @Test("the audit guide's inventory is what Tools/audit-inventory.sh makes of the source, every unsafe use with a reason")
    func auditInventoryIsCurrent() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.root.appendingPathComponent("Tools/audit-inventory.sh").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message.suffix(2000))")
    }

    @Test("README.md is a landing page: at most 150 lines, the demo and test commands first")
    func readmeIsALandingPage() throws {
        let readme = try Self.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 151)  // 150 lines and the final newline
        let firstBlock = readme.components(separatedBy: "```").dropFirst().first ?? ""
        #expect(firstBlock.contains("swift run -c release mypass ls Vectors/demo/demo.kdbx"))
        #expect(firstBlock.contains("swift test -c release"))
        for guide in ["docs/user-guide.md", "docs/saving-and-syncing.md", "docs/security.md",
                      "docs/performance.md", "docs/embedding.md", "docs/audit.md", "CONTRIBUTING.md",
                      "CHANGELOG.md"] {
            #expect(readme.contains("](\(guide))"), "README does not link \(guide)")
        }
    }

    @Test("every relative link in README.md, CONTRIBUTING.md and docs/ names a file that exists")
    func relativeLinksResolve() throws {
        var documents = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        let docs = Self.root.appendingPathComponent("docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            documents.append("docs/" + name)
        }
        for document in documents {
            let text = try Self.read(document)
            let base = (document as NSString).deletingLastPathComponent
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close]).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    .first.map(String.init) ?? ""
                rest = rest[close...]
                if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") { continue }
                let path = base.isEmpty ? target : base + "/" + target
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                        "\(document) links \(target), which does not exist")
            }
        }
    }
}
