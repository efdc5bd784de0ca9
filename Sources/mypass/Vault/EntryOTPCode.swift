import MyPassCore
import MyPassKDBX

extension Entry {
    /// The entry's current TOTP code at `unixTime` without changing anything, or nil when it has
    /// no OTP settings or counter-based (HOTP) ones, whose use must advance the counter.
    ///
    /// - Throws: `CoreError.invalidOTP` naming the unreadable field.
    func timeBasedCode(at unixTime: Int64) throws(CoreError) -> OTPCode? {
        guard let parameters = try otpParameters(), case .totp = parameters.kind else { return nil }
        return TOTPGenerator.code(for: parameters, unixTime: unixTime)
    }
}
