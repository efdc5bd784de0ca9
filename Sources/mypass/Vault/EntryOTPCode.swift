import MyPassCore
import MyPassKDBX

extension Entry {
    /// The entry's current one-time password at `unixTime`, or nil when it stores no OTP settings.
    ///
    /// - Throws: `CoreError.invalidOTP` naming the unreadable field.
    func otpCode(at unixTime: Int64) throws(CoreError) -> OTPCode? {
        let fields = self
        guard let parameters = try OTPParser.parameters(field: { fields.field(named: $0)?.value }) else { return nil }
        return TOTPGenerator.code(for: parameters, unixTime: unixTime)
    }
}
