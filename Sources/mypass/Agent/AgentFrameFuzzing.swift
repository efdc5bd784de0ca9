import MyPassBytes
import MyPassKDBX

/// The agent protocol's fuzz harness (`Fuzz/run.sh agent-frame`, `FuzzCorpusTests`): one frame
/// as `AgentSocket.receive()` reads it (length check, then ``AgentMessage/init(body:)``), then read
/// as the agent reads a request (path, timeout) and as a client reads a `get` answer (composite
/// key, KDF dictionary). It lives here because ``AgentMessage`` is internal to `mypass`; the fuzz
/// binary compiles this file with `AgentMessage.swift` alone.
package enum AgentFrameFuzzing {
    /// How one frame ended, as a corpus manifest line: `accepted`, `rejected AgentError` or
    /// `violated ...` (a bug: a decoded message that does not encode back to its body).
    package static func run(_ frame: [UInt8]) -> String {
        guard frame.count >= 4 else { return "rejected short" }
        let length = Int(frame[0]) | Int(frame[1]) << 8 | Int(frame[2]) << 16 | Int(frame[3]) << 24
        guard length >= 1 && length <= AgentMessage.maxBodyBytes, frame.count - 4 >= length else {
            return "rejected AgentError.length"
        }
        let body = SecureBytes(frame[4..<(4 + length)])
        let message: AgentMessage
        do throws(AgentError) { message = try AgentMessage(body: body) } catch {
            return "rejected AgentError.protocolError"
        }
        guard message.encodedBody() == body else { return "violated the message does not encode back to its body" }
        // The agent's reading of a request, the client's of a `get` answer.
        _ = message.text(0)
        _ = message.uint64(max(0, message.fields.count - 1))
        if message.fields.count == 5 {
            let flags = message.fields[1].count == 1 ? message.fields[1][0] : 0
            _ = try? CompositeKey(rawKey: message.fields[0], hasPassword: flags & 1 != 0, hasKeyFile: flags & 2 != 0)
            _ = try? CompositeKey(fixedComponents: message.fields[0], hasPassword: flags & 1 != 0, hasKeyFile: flags & 2 != 0,
                                  challengeResponse: .unavailable("fuzzing"))
            _ = AgentMessage.isCompositeKeyField(message.fields[0]) && AgentMessage.isTransformedKeyField(message.fields[2])
            if let dictionary = try? VariantDictionary(parsing: message.fields[3].withUnsafeBytes { Array($0) }[...]) {
                _ = try? KDFParameters(dictionary: dictionary)
            }
        }
        return "accepted"
    }
}
