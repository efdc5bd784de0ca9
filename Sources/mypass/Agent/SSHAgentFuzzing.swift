import MyPassBytes
import MyPassCrypto

/// The SSH agent protocol's fuzz harness (`Fuzz/run.sh ssh-agent-message`, `FuzzCorpusTests`):
/// one frame as the agent reads it from an SSH client (big-endian length, bounds, then
/// ``SSHAgentMessage/read(_:)``), then a sign request's key blob as a listing describes it; and
/// the same bytes as the body of the agent's `A` request (a key in the add-identity form), read
/// by ``SSHPrivateKey/read(agentIdentity:)``. It lives here because ``SSHAgentMessage`` is internal
/// to `mypass`; the fuzz binary compiles this file with `SSHAgentMessage.swift` and the agent's
/// error type.
package enum SSHAgentFuzzing {
    /// How one input ended, as a corpus manifest line: `accepted`, `rejected REASON` or
    /// `violated ...` (a bug: a request that does not encode back to the body it was read from).
    package static func run(_ input: [UInt8]) -> String {
        let outcome = frame(input)
        // An input that is also a key in the add-identity form says so (a broken frame property wins).
        if !outcome.hasPrefix("violated"), (try? SSHPrivateKey.read(agentIdentity: SecureBytes(input))) != nil {
            return "accepted identity"
        }
        return outcome
    }

    /// The input as one frame from an SSH client.
    static func frame(_ input: [UInt8]) -> String {
        guard input.count >= 4 else { return "rejected short" }
        let length = Int(input[0]) << 24 | Int(input[1]) << 16 | Int(input[2]) << 8 | Int(input[3])
        guard length >= 1, length <= SSHAgentMessage.maxBodyBytes, input.count - 4 >= length else { return "rejected length" }
        let body = SecureBytes(input[4..<(4 + length)])
        let request: SSHAgentMessage.Request
        do throws(AgentError) { request = try SSHAgentMessage.read(body) } catch {
            return "rejected AgentError.protocolError"
        }
        // What was read writes back to the same body.
        var writer = SSHWireWriter()
        switch request {
        case .requestIdentities:
            writer.writeByte(SSHAgentMessage.requestIdentities)
        case .sign(let blob, let data, let flags):
            _ = SSHPrivateKey.describe(publicKeyBlob: blob)
            _ = SSHPrivateKey.fingerprint(ofPublicKeyBlob: blob)
            writer.writeByte(SSHAgentMessage.signRequest)
            writer.writeString(blob)
            writer.writeString(data)
            writer.writeUInt32(flags)
        case .lock(let passphrase), .unlock(let passphrase):
            writer.writeByte(body[0])
            passphrase.withUnsafeBytes { writer.writeString($0) }
        case .refused(let type):
            return type == body[0] ? "accepted refused" : "violated a refused request changed its type"
        }
        guard writer.bytes == body else { return "violated the request does not encode back to its body" }
        return "accepted"
    }
}
