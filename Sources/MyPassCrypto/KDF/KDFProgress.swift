/// Called by a long key derivation with the fraction of its work done (0...1), from the thread
/// that started it; returning `false` stops the derivation, which then throws
/// ``CryptoError/Code/cancelled``. AES-KDF calls it every ``AESKDF/progressInterval`` rounds,
/// Argon2 after every slice of every pass (RFC 9106 §3.4: four slices a pass).
public typealias KDFProgressHandler = (Double) -> Bool
