import Foundation
import MyPassKDBX

extension Attachment {
    /// Writes the attachment's content to the file at `url` (created or replaced, atomically).
    ///
    /// - Throws: ``CoreError/Code/io`` when the file cannot be written.
    public func export(to url: URL) throws(CoreError) {
        do {
            try Data(data).write(to: url, options: .atomic)
        } catch {
            throw CoreError(.io, "cannot write the attachment", location: url.path)
        }
    }
}
