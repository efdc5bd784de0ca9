import Foundation
import MyPassKDBX

/// The current time as a KDBX time stamp (seconds precision).
func currentTime() -> KDBXTime { KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970)) }
