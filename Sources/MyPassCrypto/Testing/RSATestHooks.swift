/// Entry points into RSA's arithmetic for the test suite (package access: not part of the public
/// API), for the timing tests that run in release builds without `@testable import`.
extension RSA {
    /// `base^exponent mod modulus` through the private key's constant-time exponentiation
    /// (Montgomery, fixed 4-bit window, masked table scans); all three big-endian, the modulus
    /// odd, `base` below it and `exponent` at most as long as it. The result, big-endian, as long
    /// as the modulus.
    package static func constantTimePowerForTesting(modulus: [UInt8], base: [UInt8], exponent: [UInt8]) -> [UInt8] {
        let limbs = (modulus.count + 7) / 8
        let context = MontgomeryModulusLimbs(Limbs(bigEndian: modulus, count: limbs)!)
        let result = context.power(Limbs(bigEndian: base, count: limbs)!, Limbs(bigEndian: exponent, count: limbs)!)
        return result.bigEndianBytes(count: modulus.count)
    }
}
