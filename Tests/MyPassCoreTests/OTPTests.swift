import MyPassBytes
import MyPassCore
import MyPassTestSupport
import Foundation
import Testing

/// Reads the pyca `KEY = VALUE` block format into one dictionary per block.
func pycaBlocks(_ path: String) throws -> [[String: String]] {
    var blocks: [[String: String]] = []
    var current: [String: String] = [:]
    for line in try TestVectors.text(path).split(separator: "\n", omittingEmptySubsequences: false) {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.hasPrefix("#") {
            if !current.isEmpty { blocks.append(current); current = [:] }
            continue
        }
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2 { current[parts[0]] = parts[1] }
    }
    if !current.isEmpty { blocks.append(current) }
    return blocks
}

/// Unwraps a test value or fails the test with a thrown error.
func need<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw MissingValue(what: what) }
    return value
}

struct MissingValue: Error { var what: String }

@Suite("OTP: RFC 4226 / RFC 6238 values")
struct OTPVectorTests {
    @Test func rfc4226HOTP() throws {
        let blocks = try pycaBlocks("core/otp/rfc-4226.txt")
        #expect(blocks.count == 10)
        for block in blocks {
            let secret = SecureBytes(Array(try need(block["SECRET"]).utf8))
            let counter = try #require(UInt64(try need(block["COUNTER"])))
            let truncated = try #require(UInt32(try need(block["TRUNCATED"]), radix: 16))
            #expect(TOTPGenerator.truncatedValue(secret: secret, counter: counter, algorithm: .sha1) == truncated)
            #expect(TOTPGenerator.hotp(secret: secret, counter: counter) == block["HOTP"])
        }
    }

    @Test func rfc6238TOTPForAllThreeHashes() throws {
        let blocks = try pycaBlocks("core/otp/rfc-6238.txt")
        #expect(blocks.count == 18)
        var seen: Set<OTPAlgorithm> = []
        for block in blocks {
            let algorithm = try #require(OTPAlgorithm(name: try need(block["MODE"])))
            seen.insert(algorithm)
            let parameters = OTPParameters(
                secret: SecureBytes(Array(try need(block["SECRET"]).utf8)), algorithm: algorithm,
                encoding: .decimal(digits: 8), kind: .totp(periodSeconds: 30), storage: .keePassTimeOtp)
            let time = try #require(Int64(try need(block["TIME"])))
            let code = TOTPGenerator.code(for: parameters, unixTime: time)
            #expect(code.value == block["TOTP"], "\(algorithm) at \(time)")
            #expect(code.secondsRemaining == 30 - Int(time % 30))
        }
        #expect(seen == Set(OTPAlgorithm.allCases))
    }

    /// Botan's table: the RFC values as counters plus 7- and 8-digit truncations.
    @Test func botanHOTPTableWithLongDigits() throws {
        var algorithm = OTPAlgorithm.sha1
        var key: [UInt8] = []
        var digits = 6
        var counter: UInt64 = 0
        var checked = 0
        for line in try TestVectors.text("core/otp/botan-hotp.vec").split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("[") {
                algorithm = try #require(OTPAlgorithm(name: String(text.dropFirst().dropLast())))
                continue
            }
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "Key": key = hexBytes(parts[1])
            case "Digits": digits = try #require(Int(parts[1]))
            case "Counter": counter = try #require(UInt64(parts[1]))
            case "OTP":
                #expect(TOTPGenerator.hotp(secret: SecureBytes(key), counter: counter, algorithm: algorithm,
                                           encoding: .decimal(digits: digits)) == parts[1])
                checked += 1
            default: break
            }
        }
        #expect(checked == 32)
    }
}

@Suite("OTP: reading what clients store")
struct OTPParsingTests {
    func parameters(_ fields: [String: String]) throws -> OTPParameters? {
        try OTPParser.parameters(field: { fields[$0] })
    }

    func code(_ fields: [String: String], at time: Int64) throws -> OTPCode {
        TOTPGenerator.code(for: try #require(try parameters(fields)), unixTime: time)
    }

    // "JBSWY3DPEHPK3PXP" is base32 of "Hello!\xde\xad\xbe\xef"; values computed with Python's hmac.
    @Test func otpauthURIWithUnpaddedLowercaseSpacedSecret() throws {
        let uri = "otpauth://totp/ACME:alice?secret=jbsw%20y3dp%20ehpk%203pxp&issuer=ACME"
        let p = try #require(try parameters(["otp": uri]))
        #expect(p.secret == SecureBytes(Array("Hello!".utf8) + [0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(p.kind == .totp(periodSeconds: 30))
        #expect(p.storage == .otpauthURI(field: "otp"))
        let c = try code(["otp": uri], at: 1_234_567_890)
        #expect(c.value == "742275")
        #expect(c.secondsRemaining == 30 - 1_234_567_890 % 30)
        // Base32 with padding and upper case gives the same.
        #expect(try code(["otp": "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP===="], at: 1_234_567_890).value == "742275")
    }

    // A long period must be honoured (KeePassXC clamps periods to 60 s, giving wrong codes).
    @Test func longPeriodSHA256EightDigits() throws {
        let uri = "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&algorithm=SHA256&digits=8&period=3600"
        let c = try code(["otp": uri], at: 1_700_000_000)
        #expect(c.value == "93980661")
        #expect(c.secondsRemaining == 2800)
        #expect(c.periodSeconds == 3600)
    }

    // Steam Guard values from KeePassXC's test suite (seed 63BE..., two times).
    @Test func steamEncoderInEveryForm() throws {
        let seed = "63BEDWCQZKTQWPESARIERL5DTTQFCJTK"
        let forms: [[String: String]] = [
            ["otp": "otpauth://totp/Steam:user?secret=\(seed)&issuer=Steam&encoder=steam"],
            ["otp": "otpauth://steam/Steam:user?secret=\(seed)"],
            ["TOTP Seed": seed, "TOTP Settings": "30;S"],
        ]
        for fields in forms {
            #expect(try parameters(fields)?.encoding == .steam)
            #expect(try code(fields, at: 1_511_200_518).value == "FR8RV")
            #expect(try code(fields, at: 1_511_200_714).value == "9P3VP")
        }
    }

    @Test("A bare Base32 secret in otp is TOTP with the defaults, as KeePassXC reads it (RFC 6238 secret, T = 59 s)")
    func bareSecret() throws {
        let fields = ["otp": "GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ"]
        let p = try #require(try parameters(fields))
        #expect(p.storage == .bareSecret(field: "otp"))
        #expect(p.kind == .totp(periodSeconds: 30) && p.encoding == .decimal(digits: 6) && p.algorithm == .sha1)
        // RFC 6238 appendix B, SHA-1, T = 59: 94287082 in 8 digits, so 287082 in 6.
        #expect(try code(fields, at: 59).value == "287082")
        #expect(throws: CoreError(.invalidOTP)) { try parameters(["otp": "notbase32!!"]) }
    }

    @Test func keeOtpForm() throws {
        let fields = ["otp": "key=JBSWY3DPEHPK3PXP&size=8&step=3600&otpHashMode=Sha256"]
        let p = try #require(try parameters(fields))
        #expect(p.storage == .keeOtp(field: "otp"))
        #expect(try code(fields, at: 1_700_000_000).value == "93980661")
    }

    @Test func keePassXCLegacyFields() throws {
        let fields = ["TOTP Seed": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "TOTP Settings": "30;8"]
        // Base32 of "12345678901234567890": the RFC 6238 SHA-1 secret.
        #expect(try code(fields, at: 59).value == "94287082")
        #expect(try code(["TOTP Seed": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"], at: 59).value == "287082")
    }

    @Test func keePassTimeOtpFields() throws {
        let ascii = "12345678901234567890"
        let hex = "3132333435363738393031323334353637383930"
        let forms: [[String: String]] = [
            ["TimeOtp-Secret": ascii],
            ["TimeOtp-Secret-Hex": hex],
            ["TimeOtp-Secret-Base32": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"],
            ["TimeOtp-Secret-Base64": Base64.encode(Array(ascii.utf8))],
        ]
        for var fields in forms {
            fields["TimeOtp-Length"] = "8"
            #expect(try code(fields, at: 1_111_111_109).value == "07081804")
        }
        let sha512 = ["TimeOtp-Secret": ascii + ascii + ascii + "1234", "TimeOtp-Length": "8",
                      "TimeOtp-Algorithm": "HMAC-SHA-512"]
        #expect(try code(sha512, at: 59).value == "90693936")
        let long = ["TimeOtp-Secret": ascii, "TimeOtp-Period": "90", "TimeOtp-Length": "7",
                    "TimeOtp-Algorithm": "HMAC-SHA-512"]
        let c = try code(long, at: 1_700_000_000)
        #expect(c.value == "3834338")
        #expect(c.secondsRemaining == 10)
    }

    @Test func keePassHmacOtpFields() throws {
        let fields = ["HmacOtp-Secret": "12345678901234567890", "HmacOtp-Counter": "4"]
        let p = try #require(try parameters(fields))
        #expect(p.kind == .hotp(counter: 4))
        #expect(p.storage == .keePassHmacOtp)
        #expect(try code(fields, at: 0).value == "338314")
        #expect(try code(["HmacOtp-Secret": "12345678901234567890"], at: 0).value == "755224")
    }

    @Test func otpauthHOTP() throws {
        let fields = ["otp": "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=9"]
        #expect(try code(fields, at: 0).value == "520489")
        #expect(try code(fields, at: 0).secondsRemaining == nil)
    }

    @Test func precedenceFollowsKeePassXC() throws {
        let legacy = ["TOTP Seed": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "TOTP Settings": "30;6"]
        var all = legacy
        all["otp"] = "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP"
        all["TimeOtp-Secret"] = "other"
        #expect(try parameters(all)?.storage == .keePassXCLegacy)
        all["TOTP Settings"] = nil
        all["TOTP Seed"] = nil
        #expect(try parameters(all)?.storage == .otpauthURI(field: "otp"))
        all["otp"] = nil
        #expect(try parameters(all)?.storage == .keePassTimeOtp)
        all["HmacOtp-Secret"] = "x"
        #expect(try parameters(all)?.storage == .keePassTimeOtp)
        all["TimeOtp-Secret"] = nil
        #expect(try parameters(all)?.storage == .keePassHmacOtp)
        #expect(try parameters(["Title": "no otp"]) == nil)
    }

    @Test(arguments: [
        (["otp": "otpauth://totp/x?issuer=y"], "otp"),
        (["otp": "otpauth://totp/x?secret=not*base32"], "otp"),
        (["otp": "otpauth://totp/x?secret=JBSWY3DP&digits=six"], "otp"),
        (["otp": "otpauth://totp/x?secret=JBSWY3DP&period=0"], "otp"),
        (["otp": "otpauth://totp/x?secret=JBSWY3DP&algorithm=MD5"], "otp"),
        (["otp": "otpauth://yotp/x?secret=JBSWY3DP"], "otp"),
        (["otp": "just some text, not base32!"], "otp"),
        (["TOTP Seed": "JBSWY3DP", "TOTP Settings": "thirty"], "TOTP Settings"),
        (["TOTP Seed": "JBSWY3DP", "TOTP Settings": "x;6"], "TOTP Settings"),
        (["TOTP Seed": "!!!", "TOTP Settings": "30;6"], "TOTP Seed"),
        (["TOTP Settings": "30;6"], "TOTP Seed"),
        (["TimeOtp-Secret-Hex": "xyz"], "TimeOtp-Secret-Hex"),
        (["TimeOtp-Secret-Base32": "1111"], "TimeOtp-Secret-Base32"),
        (["TimeOtp-Secret-Base64": "***"], "TimeOtp-Secret-Base64"),
        (["TimeOtp-Secret": "k", "TimeOtp-Period": "-5"], "TimeOtp-Period"),
        (["TimeOtp-Secret": "k", "TimeOtp-Length": "0"], "TimeOtp-Length"),
        (["TimeOtp-Secret": "k", "TimeOtp-Algorithm": "HMAC-MD5"], "TimeOtp-Algorithm"),
        (["HmacOtp-Secret": "k", "HmacOtp-Counter": "-1"], "HmacOtp-Counter"),
    ])
    func unreadableSpecsNameTheField(_ row: ([String: String], String)) {
        do {
            _ = try parameters(row.0)
            Issue.record("expected an error for \(row.0)")
        } catch let error as CoreError {
            #expect(error.code == .invalidOTP)
            #expect(error.location == row.1)
            #expect(error.description.contains(row.1))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func base32() {
        #expect(Base32.decode("MZXW6YTBOI======") == Array("foobar".utf8))
        #expect(Base32.decode("mzxw6ytboi") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW 6YTB OI") == Array("foobar".utf8))
        #expect(Base32.decode("MZ=XW") == nil)
        #expect(Base32.decode("") == nil)
        #expect(Base32.decode("MZXW1") == nil)
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.encode(Array("f".utf8)) == "MY")
    }
}
