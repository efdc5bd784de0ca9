/// Incremental parser of a zlib (RFC 1950 §2.2) or gzip member (RFC 1952 §2.3) header, fed one
/// byte at a time so that arbitrarily long gzip names, comments and extra fields never have to
/// be buffered.
struct WrapperHeaderParser {
    enum Stage { case fixed, extraLength, extraData, name, comment, headerCRC, done }

    enum Step {
        case more
        case done
        case failed(CompressionError.Code, String)
    }

    let format: CompressionFormat
    private(set) var stage: Stage = .fixed
    private var fixed: [UInt8] = []
    private var flags: UInt8 = 0
    private var extraRemaining = 0
    private var lengthBytes: [UInt8] = []
    private var crc: UInt32 = 0xFFFF_FFFF  // running CRC-32 register over the header bytes (FHCRC)

    init(format: CompressionFormat) {
        self.format = format
        fixed.reserveCapacity(10)
    }

    static let textFlag: UInt8 = 1, headerCRCFlag: UInt8 = 2, extraFlag: UInt8 = 4, nameFlag: UInt8 = 8,
        commentFlag: UInt8 = 16

    mutating func feed(_ byte: UInt8) -> Step {
        switch format {
        case .raw:
            return .done
        case .zlib:
            fixed.append(byte)
            guard fixed.count == 2 else { return .more }
            let cmf = fixed[0], flg = fixed[1]
            if cmf & 0x0F != 8 { return .failed(.invalidHeader, "zlib compression method \(cmf & 0x0F), expected 8") }
            if cmf >> 4 > 7 { return .failed(.invalidHeader, "zlib window size field \(cmf >> 4) > 7") }
            if (UInt16(cmf) << 8 | UInt16(flg)) % 31 != 0 { return .failed(.invalidHeader, "zlib header check bits (FCHECK) wrong") }
            if flg & 0x20 != 0 { return .failed(.invalidHeader, "zlib preset dictionary (FDICT) not supported") }
            stage = .done
            return .done
        case .gzip:
            return feedGzip(byte)
        }
    }

    private mutating func feedGzip(_ byte: UInt8) -> Step {
        if stage != .headerCRC {
            crc = CRC32.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        switch stage {
        case .fixed:
            fixed.append(byte)
            switch fixed.count {
            case 1: if byte != 0x1F { return .failed(.invalidHeader, "gzip magic byte 1 is not 0x1f") }
            case 2: if byte != 0x8B { return .failed(.invalidHeader, "gzip magic byte 2 is not 0x8b") }
            case 3: if byte != 8 { return .failed(.invalidHeader, "gzip compression method \(byte), expected 8 (deflate)") }
            case 4:
                if byte & 0xE0 != 0 { return .failed(.invalidHeader, "gzip reserved flag bits set") }
                flags = byte
            case 10: return advance(after: .fixed)
            default: break
            }
            return .more
        case .extraLength:
            lengthBytes.append(byte)
            if lengthBytes.count == 2 {
                extraRemaining = Int(lengthBytes[0]) | Int(lengthBytes[1]) << 8
                lengthBytes = []
                if extraRemaining == 0 { return advance(after: .extraData) }
                stage = .extraData
            }
            return .more
        case .extraData:
            extraRemaining -= 1
            return extraRemaining == 0 ? advance(after: .extraData) : .more
        case .name:
            return byte == 0 ? advance(after: .name) : .more
        case .comment:
            return byte == 0 ? advance(after: .comment) : .more
        case .headerCRC:
            lengthBytes.append(byte)
            guard lengthBytes.count == 2 else { return .more }
            let stored = UInt32(lengthBytes[0]) | UInt32(lengthBytes[1]) << 8
            if stored != (~crc) & 0xFFFF { return .failed(.checksumMismatch, "gzip header CRC16 mismatch") }
            stage = .done
            return .done
        case .done:
            return .done
        }
    }

    /// Moves to the next optional field that the flags announce (RFC 1952 §2.3.1 order).
    private mutating func advance(after finished: Stage) -> Step {
        let order: [(Stage, UInt8)] = [(.extraLength, Self.extraFlag), (.name, Self.nameFlag),
                                       (.comment, Self.commentFlag), (.headerCRC, Self.headerCRCFlag)]
        let rank: Int
        switch finished {
        case .fixed: rank = 0
        case .extraLength, .extraData: rank = 1
        case .name: rank = 2
        case .comment: rank = 3
        default: rank = 4
        }
        for (stage, flag) in order[min(rank, order.count)...] where flags & flag != 0 {
            self.stage = stage
            return .more
        }
        stage = .done
        return .done
    }
}
