#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's math, under names that do not depend on which C module a file imports.

/// `log10(x)`.
@inline(__always) func logBase10(_ x: Double) -> Double { log10(x) }

/// `log2(x)`.
@inline(__always) func logBase2(_ x: Double) -> Double { log2(x) }

/// `10^exponent` (infinity past 10^308).
@inline(__always) func pow10(_ exponent: Int) -> Double { pow(10, Double(exponent)) }

/// `base^exponent`.
@inline(__always) func power(_ base: Double, _ exponent: Int) -> Double { pow(base, Double(exponent)) }

/// `n choose k` as zxcvbn computes it (floating point, 0 when k > n).
func binomial(_ n: Int, _ k: Int) -> Double {
    if k > n { return 0 }
    if k == 0 { return 1 }
    var result = 1.0
    var n = Double(n)
    for d in 1...k {
        result *= n
        result /= Double(d)
        n -= 1
    }
    return result
}

/// `n!` in floating point.
func factorial(_ n: Int) -> Double {
    var result = 1.0
    if n > 1 { for i in 2...n { result *= Double(i) } }
    return result
}
