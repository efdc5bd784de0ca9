import Foundation
import MyPassCrypto
import Testing

extension ConstantTimeTests {
    @Test("RSA private exponentiation (Montgomery, fixed window): a fixed and random exponents, one modulus and base")
    func rsaExponentiation() {
        // A 1,024-bit odd modulus (the size of an RSA-2048 key's primes) and base below it.
        var modulus = randomBytes(128)
        modulus[0] |= 0x80
        modulus[127] |= 1
        var base = randomBytes(128)
        base[0] &= 0x7F
        let fixedExponent = randomBytes(128)
        let t = TimingLeak.measure(samples: samples(1500), repetitions: 1) { fixed in
            fixed ? fresh(fixedExponent) : randomBytes(128)
        } run: { exponent in
            blackHole(RSA.constantTimePowerForTesting(modulus: modulus, base: base, exponent: exponent))
        }
        report("RSA exponentiation, 1024-bit modulus", t)
        #expect(abs(t) < Self.threshold)
    }

    @Test("RSA exponentiation: the test hook gives known powers (so that the timing test times the real thing)")
    func rsaExponentiationValues() {
        // 3^5 mod 1000003 = 243; 2^(2^16) mod (2^127 - 1) = 2^(65536 mod 127) = 2^4 = 16 (2^127 ≡ 1).
        #expect(RSA.constantTimePowerForTesting(modulus: [0x0F, 0x42, 0x43], base: [3], exponent: [5]) == [0, 0, 243])
        let mersenne: [UInt8] = [0x7F] + [UInt8](repeating: 0xFF, count: 15)
        let power = RSA.constantTimePowerForTesting(modulus: mersenne, base: [2], exponent: [1, 0, 0])
        #expect(power == [UInt8](repeating: 0, count: 15) + [16])
    }
}
