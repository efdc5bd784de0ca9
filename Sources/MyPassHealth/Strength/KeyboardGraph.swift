/// A keyboard as the spatial matcher walks it: for each character, its neighbours in a fixed
/// order of directions, each neighbour a key (its unshifted and shifted characters).
///
/// Built from the layout itself, rows of keys on a grid, as zxcvbn builds its adjacency graphs:
/// a typewriter keyboard is slanted (each key touches two keys of the row above and two of the
/// row below; six directions), a keypad is aligned (eight directions).
package struct KeyboardGraph: Sendable {
    /// A neighbouring key: its characters, unshifted first.
    package typealias Key = [UInt32]

    package let layout: KeyboardLayout
    /// Character to its neighbours (`nil` where a direction has no key), in direction order.
    private let neighbours: [UInt32: [Key?]]
    /// The number of characters on the keyboard (zxcvbn's starting positions).
    package var startingPositions: Int { neighbours.count }
    /// The mean number of neighbours over all characters (zxcvbn's average degree).
    package let averageDegree: Double

    /// The neighbours of `character` in direction order, or nil when it is not on this keyboard.
    package func neighbours(of character: UInt32) -> [Key?]? { neighbours[character] }

    /// The four keyboards, built once.
    package static let all: [KeyboardGraph] = KeyboardLayout.allCases.map(KeyboardGraph.init)

    /// The graph of `layout`.
    package static func graph(_ layout: KeyboardLayout) -> KeyboardGraph {
        all.first { $0.layout == layout }!
    }

    private init(_ layout: KeyboardLayout) {
        self.layout = layout
        let rows: [String], starts: [Int], slanted: Bool
        switch layout {
        case .qwerty:
            rows = [
                "`~ 1! 2@ 3# 4$ 5% 6^ 7& 8* 9( 0) -_ =+",
                "qQ wW eE rR tT yY uU iI oO pP [{ ]} \\|",
                "aA sS dD fF gG hH jJ kK lL ;: '\"",
                "zZ xX cC vV bB nN mM ,< .> /?",
            ]
            starts = [0, 1, 1, 1]
            slanted = true
        case .dvorak:
            rows = [
                "`~ 1! 2@ 3# 4$ 5% 6^ 7& 8* 9( 0) [{ ]}",
                "'\" ,< .> pP yY fF gG cC rR lL /? =+ \\|",
                "aA oO eE uU iI dD hH tT nN sS -_",
                ";: qQ jJ kK xX bB mM wW vV zZ",
            ]
            starts = [0, 1, 1, 1]
            slanted = true
        case .keypad:
            rows = ["_ / * -", "7 8 9 +", "4 5 6", "1 2 3", "_ 0 ."]
            starts = [0, 0, 0, 0, 0]
            slanted = false
        case .macKeypad:
            rows = ["_ = / *", "7 8 9 -", "4 5 6 +", "1 2 3", "_ 0 ."]
            starts = [0, 0, 0, 0, 0]
            slanted = false
        }
        // The grid: (column, row) to key; `_` is a gap.
        var grid: [Int: [Int: Key]] = [:]
        for (y, row) in rows.enumerated() {
            for (index, token) in row.split(separator: " ").enumerated() where token != "_" {
                grid[y, default: [:]][starts[y] + index] = token.unicodeScalars.map(\.value)
            }
        }
        // Directions, clockwise from the left. Slanted: left, upper left, upper right, right,
        // lower right, lower left (a key's upper-left neighbour has its column in the row above).
        let directions: [(Int, Int)] = slanted
            ? [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)]
            : [(-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1)]
        var neighbours: [UInt32: [Key?]] = [:]
        var degreeSum = 0
        for (y, row) in grid {
            for (x, key) in row {
                let around = directions.map { grid[y + $0.1]?[x + $0.0] }
                for character in key {
                    neighbours[character] = around
                    degreeSum += around.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
                }
            }
        }
        self.neighbours = neighbours
        averageDegree = Double(degreeSum) / Double(neighbours.count)
    }
}
