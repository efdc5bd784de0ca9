import MyPassBytes
import MyPassCrypto

/// The keys derived for one file from the composite key and the header's seeds
/// (KeePassLib `KdbxFile.cs ComputeKeys`).
package struct MasterKeys: Sendable, CustomStringConvertible {
    /// The KDF output (32 bytes); in a KDBX 3.1 vault with a challenge-response component,
    /// SHA-256(response) ‖ KDF output (64 bytes), the part of the final key after the master seed
    /// (see ``transformedKey(compositeKey:version:kdf:masterSeed:limits:progress:transform:)``).
    public let transformedKey: SecureBytes
    /// SHA-256(masterSeed ‖ transformedKey): the payload cipher key (32 bytes).
    public let cipherKey: SecureBytes
    /// SHA-512(masterSeed ‖ transformedKey ‖ 0x01): the HMAC base key of KDBX 4 (64 bytes).
    public let hmacKey: SecureBytes

    /// Runs the KDF (the expensive step) and derives the cipher and HMAC keys, for a composite key
    /// without a challenge-response component (``transformedKey(compositeKey:version:kdf:masterSeed:limits:progress:transform:)``
    /// answers one for a file's header).
    /// - Parameters:
    ///   - compositeKey: the vault's composite key.
    ///   - masterSeed: header field 4 (32 bytes).
    ///   - kdf: the KDF parameters of the header.
    ///   - limits: bounds on the KDF cost a file may ask for.
    ///   - progress: reports the KDF's progress and can stop it (``MyPassCrypto/KDFProgressHandler``).
    /// - Throws: ``KDBXError`` `.limitExceeded` when the cost exceeds `limits`, `.unsupported` for
    ///   parameters the KDF refuses, `.missingKeyComponent` for a key with a challenge-response component.
    /// - Complexity: the KDF's cost: `rounds` AES-256 block pairs, or Argon2's memory and passes.
    public init(compositeKey: CompositeKey, masterSeed: [UInt8], kdf: KDFParameters, limits: KDBXLimits,
                progress: KDFProgressHandler? = nil) throws(KDBXError) {
        let transformed = try Self.transform(compositeKey: compositeKey, kdf: kdf, limits: limits, progress: progress)
        self.init(transformedKey: transformed, masterSeed: masterSeed)
    }

    /// The transformed key of a file for a composite key, with its challenge-response component
    /// answered as the file's version requires (KeePassXC's `Kdbx4Reader`/`Kdbx3Reader`):
    /// - without one: the KDF of ``CompositeKey/rawKey`` (32 bytes);
    /// - KDBX 4: the component is asked for the KDF seed (`kdf.seed`), and its SHA-256 joins the
    ///   composite key as its last component before the KDF (32 bytes);
    /// - KDBX 3.x: the component is asked for `masterSeed`, then the KDF runs on the key without
    ///   it, and the result is SHA-256(response) ‖ KDF output (64 bytes): ``init(transformedKey:masterSeed:)``
    ///   then makes the payload key SHA-256(master seed ‖ SHA-256(response) ‖ KDF output).
    ///
    /// The responder is asked before the KDF runs, so a failing or cancelled one costs no KDF.
    /// - Parameters:
    ///   - transform: the KDF step (``transform(compositeKey:kdf:limits:progress:)`` by default; a
    ///     seam that counts runs or reports progress). It gets a key without a challenge-response
    ///     component.
    /// - Throws: what `transform` throws; from the responder `.missingKeyComponent`, `.cancelled`,
    ///   `.unsupported` (a KDBX 4 KDF seed over 64 bytes, which no hardware key takes).
    /// - Complexity: one KDF run.
    public static func transformedKey(
        compositeKey: CompositeKey, version: KDBXVersion, kdf: KDFParameters, masterSeed: [UInt8], limits: KDBXLimits,
        progress: KDFProgressHandler? = nil,
        transform: (CompositeKey, KDFParameters, KDBXLimits, KDFProgressHandler?) throws(KDBXError) -> SecureBytes
            = { (key, kdf, limits, progress) throws(KDBXError) in
                try MasterKeys.transform(compositeKey: key, kdf: kdf, limits: limits, progress: progress)
            }
    ) throws(KDBXError) -> SecureBytes {
        guard let challengeResponse = compositeKey.challengeResponse else {
            return try transform(compositeKey, kdf, limits, progress)
        }
        if version.isKDBX4 {
            let component = try challengeResponse.component(for: kdf.seed)
            return try transform(compositeKey.answered(with: component), kdf, limits, progress)
        }
        var joined = try challengeResponse.component(for: masterSeed)
        let transformed = try transform(compositeKey.withoutChallengeResponse, kdf, limits, progress)
        transformed.withUnsafeBytes { joined.append(contentsOf: $0) }
        return joined
    }

    /// Derives the cipher and HMAC keys from an already transformed key.
    public init(transformedKey: SecureBytes, masterSeed: [UInt8]) {
        var material = masterSeed
        transformedKey.withUnsafeBytes { material.append(contentsOf: $0) }
        var cipher = SHA256.hash(material)
        material.append(0x01)
        var hmac = SHA512.hash(material)
        self.transformedKey = transformedKey
        cipherKey = SecureBytes(cipher)
        hmacKey = SecureBytes(hmac)
        wipe(&material)
        wipe(&cipher)
        wipe(&hmac)
    }

    /// The KDF step alone: the transformed key (32 bytes) for a composite key without a
    /// challenge-response component (``transformedKey(compositeKey:version:kdf:masterSeed:limits:progress:transform:)``
    /// answers one first).
    /// - Throws: see ``init(compositeKey:masterSeed:kdf:limits:progress:)``; `.cancelled` when
    ///   `progress` returned `false`; `.missingKeyComponent` for a key with a challenge-response
    ///   component (its response depends on the file).
    public static func transform(compositeKey: CompositeKey, kdf: KDFParameters, limits: KDBXLimits,
                                 progress: KDFProgressHandler? = nil) throws(KDBXError) -> SecureBytes {
        guard !compositeKey.hasChallengeResponse else {
            throw KDBXError(.missingKeyComponent, "a challenge-response component is answered for a file's header (MasterKeys.transformedKey)")
        }
        var raw = compositeKey.rawKey.unsafeArray
        defer { wipe(&raw) }
        var output: [UInt8]
        switch kdf.settings {
        case .aes(let rounds):
            guard rounds <= limits.maxAESKDFRounds else {
                throw KDBXError(.limitExceeded, "AES-KDF rounds \(rounds) exceed the limit \(limits.maxAESKDFRounds)",
                                location: "KDF parameter R")
            }
            guard kdf.seed.count == 32 else {
                throw KDBXError(.corruptedFile, "AES-KDF seed must be 32 bytes", location: "KDF parameter S")
            }
            do {
                var transformed = try AESKDF.transformRaw(key: raw, seed: kdf.seed, rounds: rounds, progress: progress)
                output = SHA256.hash(transformed)
                wipe(&transformed)
            } catch where error.code == .cancelled {
                throw KDBXError(.cancelled, "the key derivation was cancelled")
            } catch {
                throw KDBXError(.unsupported, "AES-KDF refused its parameters", location: "KDF parameters")
            }
        case .argon2(let settings):
            guard settings.memoryBytes <= limits.maxArgon2MemoryBytes else {
                throw KDBXError(.limitExceeded, "Argon2 memory \(settings.memoryBytes) bytes exceeds the limit \(limits.maxArgon2MemoryBytes)",
                                location: "KDF parameter M")
            }
            guard settings.iterations <= limits.maxArgon2Iterations else {
                throw KDBXError(.limitExceeded, "Argon2 iterations \(settings.iterations) exceed the limit",
                                location: "KDF parameter I")
            }
            let (work, overflow) = settings.memoryBytes.multipliedReportingOverflow(by: settings.iterations)
            guard !overflow, work <= limits.maxArgon2WorkBytes else {
                throw KDBXError(.limitExceeded, "Argon2 memory x iterations exceeds the work limit \(limits.maxArgon2WorkBytes) bytes",
                                location: "KDF parameters M, I")
            }
            guard settings.parallelism <= limits.maxArgon2Parallelism else {
                throw KDBXError(.limitExceeded, "Argon2 parallelism \(settings.parallelism) exceeds the limit",
                                location: "KDF parameter P")
            }
            do {
                let parameters = try Argon2.Parameters.kdbx(
                    variant: settings.variant == .argon2d ? .argon2d : .argon2id, memoryBytes: settings.memoryBytes,
                    iterations: settings.iterations, parallelism: settings.parallelism, version: settings.version,
                    salt: kdf.seed, secret: kdf.secret, associatedData: kdf.associatedData)
                output = try Argon2.deriveKey(password: raw, parameters: parameters, memoryLimitBytes: limits.maxArgon2MemoryBytes,
                                              progress: progress)
            } catch where error.code == .cancelled {
                throw KDBXError(.cancelled, "the key derivation was cancelled")
            } catch let error where error.code == .memoryLimitExceeded {
                throw KDBXError(.limitExceeded, "Argon2 memory exceeds the limit", location: "KDF parameter M")
            } catch {
                throw KDBXError(.unsupported, "Argon2 refused its parameters (\(error.reason))", location: "KDF parameters")
            }
        }
        defer { wipe(&output) }
        if output.count != 32 {
            var hashed = SHA256.hash(output)
            defer { wipe(&hashed) }
            return SecureBytes(hashed)
        }
        return SecureBytes(output)
    }

    /// Never shows key material.
    public var description: String { "MasterKeys(…)" }
}
