/// Keyboard walks (zxcvbn 4 `spatial_match`): runs of three or more keys, each adjacent to the
/// one before on one of the four keyboards, with their turns and shifted keys.
extension Matcher {
    /// The characters zxcvbn counts as typed with Shift when a walk starts on them.
    private static let shiftedCharacters = Set("~!@#$%^&*()_+QWERTYUIOP{}|ASDFGHJKL:\"ZXCVBNM<>?".unicodeScalars.map(\.value))

    func spatialMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        for graph in KeyboardGraph.all {
            spatialMatches(text, on: graph, into: &out)
        }
    }

    private func spatialMatches(_ text: PasswordText, on graph: KeyboardGraph, into out: inout [StrengthMatch]) {
        let password = text.scalars
        let n = password.count
        let typewriter = graph.layout == .qwerty || graph.layout == .dvorak
        var i = 0
        while i < n - 1 {
            var j = i + 1
            var lastDirection = -1
            var turns = 0
            var shifted = typewriter && Self.shiftedCharacters.contains(password[i]) ? 1 : 0
            while true {
                var found = false
                if j < n, let around = graph.neighbours(of: password[j - 1]) {
                    let current = password[j]
                    for (direction, key) in around.enumerated() {
                        guard let key, let position = key.firstIndex(of: current) else { continue }
                        found = true
                        // Position 1 of a key is its shifted character (`@` of `2@`).
                        if position == 1 { shifted += 1 }
                        // Every walk starts with a turn; each change of direction is another.
                        if direction != lastDirection {
                            turns += 1
                            lastDirection = direction
                        }
                        break
                    }
                }
                if found {
                    j += 1
                    continue
                }
                if j - i > 2 {
                    let pattern = StrengthMatch.Pattern.spatial(layout: graph.layout, turns: turns, shiftedCount: shifted)
                    out.append(match(i..<j, pattern, guesses: Self.spatialGuesses(length: j - i, turns: turns, shifted: shifted, graph: graph), in: text))
                }
                i = j
                break
            }
        }
    }

    /// zxcvbn 4 `spatial_guesses`: the walks of length L or less with `turns` turns or less from any
    /// key (starting positions x average degree^turns, summed), times the ways to shift some keys.
    /// The typewriter layouts use qwerty's figures, the keypads the keypad's.
    static func spatialGuesses(length: Int, turns: Int, shifted: Int, graph: KeyboardGraph) -> Double {
        let reference = KeyboardGraph.graph(graph.layout == .qwerty || graph.layout == .dvorak ? .qwerty : .keypad)
        let s = Double(reference.startingPositions), d = reference.averageDegree
        var guesses = 0.0
        if length >= 2 {
            for i in 2...length {
                let possibleTurns = min(turns, i - 1)
                if possibleTurns >= 1 {
                    for j in 1...possibleTurns {
                        guesses += binomial(i - 1, j - 1) * s * power(d, j)
                    }
                }
            }
        }
        if shifted > 0 {
            let unshifted = length - shifted
            if unshifted == 0 {
                guesses *= 2
            } else {
                var variations = 0.0
                for i in 1...min(shifted, unshifted) { variations += binomial(shifted + unshifted, i) }
                guesses *= variations
            }
        }
        return guesses
    }
}
