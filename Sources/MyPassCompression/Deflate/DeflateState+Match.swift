extension DeflateState {
    /// zlib's `longest_match`: walks the hash chain from `current` looking for a match longer
    /// than `bestSoFar` at `scanPosition`. Compares 8 bytes at a time.
    /// - Returns: the best length (capped to `lookahead`) and where it starts (unchanged when
    ///   nothing longer than `bestSoFar` was found).
    @inline(__always)
    func longestMatch(
        _ current: Int, scanPosition: Int, bestSoFar: Int, lookahead: Int, matchStart: Int
    ) -> (length: Int, start: Int) {
        var chainLength = config.maxChain
        var bestLength = bestSoFar
        var bestStart = matchStart
        var nice = config.niceLength
        let limit = scanPosition > Self.maxDistance ? scanPosition - Self.maxDistance : 0
        if bestSoFar >= config.goodLength { chainLength &>>= 2 }
        if nice > lookahead { nice = lookahead }
        let scan = window + scanPosition
        let rawScan = UnsafeRawPointer(scan)
        var scanEnd1 = scan[bestLength &- 1]
        var scanEnd = scan[bestLength]
        var cur = current
        let scanStart = rawScan.loadUnaligned(as: UInt16.self)
        repeat {
            let match = window + cur
            if match[bestLength] == scanEnd && match[bestLength &- 1] == scanEnd1
                && UnsafeRawPointer(match).loadUnaligned(as: UInt16.self) == scanStart
            {
                let rawMatch = UnsafeRawPointer(match)
                var length = 2
                while true {
                    let x = rawScan.loadUnaligned(fromByteOffset: length, as: UInt64.self)
                        ^ rawMatch.loadUnaligned(fromByteOffset: length, as: UInt64.self)
                    if x != 0 {
                        length &+= UInt64(littleEndian: x).trailingZeroBitCount &>> 3
                        break
                    }
                    length &+= 8
                    if length >= DeflateTables.maxMatch { break }
                }
                if length > DeflateTables.maxMatch { length = DeflateTables.maxMatch }
                if length > bestLength {
                    bestStart = cur
                    bestLength = length
                    if length >= nice { break }
                    scanEnd1 = scan[bestLength &- 1]
                    scanEnd = scan[bestLength]
                }
            }
            cur = Int(prev[cur & Self.windowMask])
            chainLength &-= 1
        } while cur > limit && chainLength != 0
        return (min(bestLength, lookahead), bestStart)
    }

    /// How many bytes to emit as literals without a match search after `run` literals in a row:
    /// none for the first 256, then one more for every further 128, up to 32 (the search runs at
    /// every 33rd byte of incompressible input). Text and XML find a match long before 256 bytes,
    /// so they compress as zlib compresses them; data with no matches (images, archives,
    /// encrypted files) costs little more than the stored blocks it ends up in. The skipped
    /// bytes are not entered into the hash chains, so a later repeat of them may go unfound.
    @inline(__always)
    static func skipCount(_ run: Int) -> Int {
        run <= 256 ? 0 : min((run &- 256) &>> 7, 32)
    }

    /// Records a literal; returns whether the symbol buffer is full.
    @inline(__always)
    func tallyLiteral(_ byte: UInt8) -> Bool {
        symbolDistance[symbolCount] = 0
        symbolLength[symbolCount] = byte
        symbolCount &+= 1
        litLenFrequency[Int(byte)] &+= 1
        return symbolCount == Self.symbolLimit
    }

    /// Records a match of `length` bytes at `distance` back; returns whether the buffer is full.
    @inline(__always)
    func tallyMatch(distance: Int, length: Int) -> Bool {
        let d = distance &- 1
        let l = length &- DeflateTables.minMatch
        symbolDistance[symbolCount] = UInt16(truncatingIfNeeded: distance)
        symbolLength[symbolCount] = UInt8(truncatingIfNeeded: l)
        symbolCount &+= 1
        litLenFrequency[Int(lengthCode[l]) &+ DeflateTables.literals &+ 1] &+= 1
        let dc = d < 256 ? distanceCode[d] : distanceCode[256 &+ (d &>> 7)]
        distanceFrequency[Int(dc)] &+= 1
        return symbolCount == Self.symbolLimit
    }

    /// Compresses what is in the window, with lazy matching (zlib's `deflate_slow`, levels 4...9).
    /// Stops when fewer than `minLookahead` bytes are left and more input may come.
    /// The match state lives in locals during the loop and goes back to the properties before
    /// a block is flushed and on return.
    /// - Parameter finishing: no more input will come; compress everything.
    func compressLazy(finishing: Bool) {
        let minMatch = DeflateTables.minMatch
        let maxLazy = config.maxLazy
        var strStart = self.strStart
        var lookahead = self.lookahead
        var matchLength = self.matchLength
        var matchStart = self.matchStart
        var prevLength = self.prevLength
        var matchAvailable = self.matchAvailable
        var literalRun = self.literalRun
        var skipRemaining = self.skipRemaining
        @inline(__always)
        func store() {
            self.strStart = strStart
            self.lookahead = lookahead
            self.matchLength = matchLength
            self.matchStart = matchStart
            self.prevLength = prevLength
            self.matchAvailable = matchAvailable
            self.literalRun = literalRun
            self.skipRemaining = skipRemaining
        }
        defer { store() }
        while true {
            if lookahead < Self.minLookahead && !finishing { return }
            if lookahead == 0 { break }
            if skipRemaining > 0 {
                // The pending byte (no match, unsearched) goes out as a literal; the next one
                // becomes pending, neither hashed nor searched. Each skipped byte passes the
                // lookahead check above, as any byte does, so how the input arrives in pieces
                // does not change the output.
                skipRemaining &-= 1
                if tallyLiteral(window[strStart &- 1]) {
                    store()
                    flushBlock(last: false)
                }
                strStart &+= 1
                lookahead &-= 1
                continue
            }
            var hashHead = 0
            if lookahead >= minMatch { hashHead = insertString(strStart) }
            prevLength = matchLength
            let prevMatch = matchStart
            matchLength = minMatch - 1
            if hashHead != 0 && prevLength < maxLazy && strStart &- hashHead <= Self.maxDistance {
                let found = longestMatch(
                    hashHead, scanPosition: strStart, bestSoFar: prevLength, lookahead: lookahead, matchStart: matchStart)
                matchLength = found.length
                matchStart = found.start
                if matchLength == minMatch && strStart &- matchStart > Self.tooFar {
                    matchLength = minMatch - 1
                }
            }
            if prevLength >= minMatch && matchLength <= prevLength {
                let maxInsert = strStart &+ lookahead &- minMatch
                let full = tallyMatch(distance: strStart &- 1 &- prevMatch, length: prevLength)
                lookahead &-= prevLength &- 1
                var remaining = prevLength &- 2
                repeat {
                    strStart &+= 1
                    if strStart <= maxInsert { _ = insertString(strStart) }
                    remaining &-= 1
                } while remaining != 0
                matchAvailable = false
                matchLength = minMatch - 1
                strStart &+= 1
                literalRun = 0
                if full {
                    store()
                    flushBlock(last: false)
                }
            } else if matchAvailable {
                if tallyLiteral(window[strStart &- 1]) {
                    // as zlib: the block ends before strStart (that byte is still pending)
                    store()
                    flushBlock(last: false)
                }
                strStart &+= 1
                lookahead &-= 1
                // Past a long run without a match (incompressible input), the bytes after the
                // pending one go out as literals unsearched (see ``skipCount(_:)``).
                if matchLength < minMatch {
                    literalRun &+= 1
                    skipRemaining = Self.skipCount(literalRun)
                }
            } else {
                matchAvailable = true
                strStart &+= 1
                lookahead &-= 1
            }
        }
        if matchAvailable {
            _ = tallyLiteral(window[strStart &- 1])
            matchAvailable = false
        }
    }

    /// Compresses what is in the window without lazy evaluation (zlib's `deflate_fast`, levels 1...3).
    func compressFast(finishing: Bool) {
        let minMatch = DeflateTables.minMatch
        let maxInsertLength = config.maxLazy
        var strStart = self.strStart
        var lookahead = self.lookahead
        var matchLength = self.matchLength
        var matchStart = self.matchStart
        var literalRun = self.literalRun
        var skipRemaining = self.skipRemaining
        @inline(__always)
        func store() {
            self.strStart = strStart
            self.lookahead = lookahead
            self.matchLength = matchLength
            self.matchStart = matchStart
            self.literalRun = literalRun
            self.skipRemaining = skipRemaining
        }
        defer { store() }
        while true {
            if lookahead < Self.minLookahead && !finishing { return }
            if lookahead == 0 { return }
            if skipRemaining > 0 {
                // A literal neither hashed nor searched (see ``skipCount(_:)``).
                skipRemaining &-= 1
                let full = tallyLiteral(window[strStart])
                lookahead &-= 1
                strStart &+= 1
                if full {
                    store()
                    flushBlock(last: false)
                }
                continue
            }
            var hashHead = 0
            if lookahead >= minMatch { hashHead = insertString(strStart) }
            if hashHead != 0 && strStart &- hashHead <= Self.maxDistance {
                let found = longestMatch(
                    hashHead, scanPosition: strStart, bestSoFar: minMatch - 1, lookahead: lookahead, matchStart: matchStart)
                matchLength = found.length
                matchStart = found.start
            }
            let full: Bool
            if matchLength >= minMatch {
                literalRun = 0
                full = tallyMatch(distance: strStart &- matchStart, length: matchLength)
                lookahead &-= matchLength
                if matchLength <= maxInsertLength && lookahead >= minMatch {
                    matchLength &-= 1
                    repeat {
                        strStart &+= 1
                        _ = insertString(strStart)
                        matchLength &-= 1
                    } while matchLength != 0
                    strStart &+= 1
                } else {
                    strStart &+= matchLength
                    matchLength = 0
                }
            } else {
                full = tallyLiteral(window[strStart])
                lookahead &-= 1
                strStart &+= 1
                literalRun &+= 1
                skipRemaining = Self.skipCount(literalRun)
            }
            if full {
                store()
                flushBlock(last: false)
            }
        }
    }
}
