import MyPassBytes

/// A pull tokenizer for XML 1.0 over UTF-8 bytes that arrive in chunks of any size.
///
/// Feed bytes with `feed(_:)` as they arrive (for KDBX: straight from the decompressor), call
/// `next()` until it returns `nil` (it needs more input), and call `finish()` after the last chunk;
/// then `next()` returns the remaining events and `nil` at the end of the document. A value (text,
/// attribute, comment...) is always handed over whole, however the chunks split it, including
/// splits inside a multi-byte UTF-8 sequence or an entity reference.
///
/// What it checks: well-formedness (XML 1.0 Fifth Edition: tags nest and match, names §2.3,
/// characters §2.2, strict UTF-8, attribute uniqueness §3.1, one root element, the XML declaration
/// §2.8 with encoding UTF-8 only), and the `XMLLimits`. It never processes a DTD: `<!DOCTYPE`
/// throws `.doctypeNotAllowed`, so entity-expansion ("billion laughs") and external-entity (XXE)
/// attacks are impossible by construction. Only the five predefined entities and character
/// references are resolved. Names are reported as written: no namespace processing.
///
/// After an error, every further `next()` throws the same error.
///
/// Memory: the tokenizer keeps only the bytes of the token being read plus the open element
/// names; each is bounded by the limits. The input buffer is a ``MyPassBytes/SecureBytes``: bytes
/// already consumed are zeroed when it compacts, its old storage is zeroed when it grows, and the
/// whole capacity is zeroed when the tokenizer is released, so no decrypted XML outlives it there.
public struct XMLTokenizer: Sendable {
    enum Phase { case byteOrderMark, declaration, prolog, content, epilog }

    /// What one step of the scanner achieved.
    enum Step {
        case event(XMLEvent)
        case needMoreInput
        case skipped
        case endOfDocument
    }

    let limits: XMLLimits
    let skipsWhitespaceText: Bool

    /// Unconsumed input starts at `position`; bytes before it may be dropped on the next `feed`.
    var buffer = SecureBytes()
    /// Address and length of `buffer`'s bytes, taken after every change to it (only `feed` changes
    /// it), so that `next()` reads them without a call into MyPassBytes per event. The address
    /// stays valid while `buffer` is unchanged: this value holds a reference to its storage, and a
    /// copy of the tokenizer that feeds gets storage of its own (copy on write) and its own address.
    /// Kept as a bit pattern, which is `Sendable`.
    var bytesAddress: UInt = 0
    var bytesCount = 0
    var position = 0
    /// Absolute document offset of `buffer[0]`.
    var bufferBase = 0
    var isFinished = false
    var fedBytes = 0
    var phase = Phase.byteOrderMark
    var openElements: [String] = []
    var pendingEndName: String?
    /// Whether the last event was a start tag that is still open (for `skipsWhitespaceText`).
    var lastEventWasStart = false
    var failure: XMLError?

    /// Line number at `position`, and the absolute offset where that line starts.
    var currentLine = 1
    var currentLineStart = 0

    /// Resumable scan state of the incomplete token at `position` (reset whenever a token is consumed):
    /// bytes after `position` already scanned, and for start tags the quote state and counters.
    var scanOffset = 0
    var scanQuote: UInt8 = 0
    var scanAttributes = 0
    var scanRun = 0
    var scanUnquoted = 0

    /// Reused output buffer for values that need rewriting (entities, line ends).
    var scratch: [UInt8] = []
    /// Recently seen names by hash of their bytes, so a document's few element and attribute names
    /// are turned into Strings once (KeePass files repeat about a hundred names).
    var nameCache = [String](repeating: "", count: 512)

    /// 1-based line of the start of the last event returned (or of the error position after a failure).
    public internal(set) var line = 1
    /// 1-based column (UTF-8 bytes) of the start of the last event returned.
    public internal(set) var column = 1

    /// Creates a tokenizer.
    /// - Parameters:
    ///   - limits: resource limits, checked as input arrives.
    ///   - skipsWhitespaceText: when `true`, text consisting only of XML white space (space, tab,
    ///     CR, LF) between markup is not reported: the indentation between elements. White space
    ///     that is the whole content of an element (`<Value>  </Value>`) is still reported, because
    ///     there it is data (a password of spaces).
    public init(limits: XMLLimits = XMLLimits(), skipsWhitespaceText: Bool = false) {
        self.limits = limits
        self.skipsWhitespaceText = skipsWhitespaceText
    }

    /// Adds the next bytes of the document. Chunks may have any size (also empty) and split the
    /// document anywhere. Bytes fed after `finish()` or after an error are ignored. Exceeding
    /// `XMLLimits.maxDocumentBytes` makes the next `next()` throw `.documentTooLarge`.
    public mutating func feed(_ chunk: ArraySlice<UInt8>) {
        guard failure == nil, !isFinished, !chunk.isEmpty else { return }
        fedBytes += chunk.count
        if fedBytes > limits.maxDocumentBytes {
            failure = XMLError(
                .documentTooLarge, line: currentLine, column: bufferBase + position - currentLineStart + 1,
                "document larger than \(limits.maxDocumentBytes) bytes")
            return
        }
        compact()
        buffer.append(contentsOf: chunk)
        (bytesAddress, bytesCount) = buffer.withUnsafeBytes { raw in
            (UInt(bitPattern: raw.baseAddress), raw.count)
        }
    }

    /// Adds the next bytes of the document (see `feed(_: ArraySlice<UInt8>)`).
    public mutating func feed(_ chunk: [UInt8]) {
        feed(chunk[...])
    }

    /// Declares that no more input will come; from now on an incomplete document is an error.
    public mutating func finish() {
        isFinished = true
    }

    /// Returns the next event.
    /// - Returns: the event, or `nil` when more input is needed (before `finish()`) or the document
    ///   ended (after `finish()`).
    /// - Throws: `XMLError` for a well-formedness violation or an exceeded limit, with its line and column.
    public mutating func next() throws(XMLError) -> XMLEvent? {
        if let failure { throw failure }
        if let name = pendingEndName {
            pendingEndName = nil
            return .endElement(name: name)
        }
        // The buffer's bytes as of the last `feed`; nothing writes the buffer during a step.
        let p = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: bytesAddress), count: bytesCount)
        do throws(XMLError) {
            while true {
                switch try step(p) {
                case .event(let event): return event
                case .needMoreInput, .endOfDocument: return nil
                case .skipped: continue
                }
            }
        } catch {
            failure = error
            line = error.line
            column = error.column
            throw error
        }
    }

    /// Drops consumed bytes when that costs no more than what was consumed (amortised linear);
    /// the bytes freed at the end of the buffer are zeroed.
    mutating func compact() {
        guard position > 0 else { return }
        if position >= buffer.count - position {
            buffer.removeFirst(position)
        } else {
            return
        }
        bufferBase += position
        position = 0
    }
}
