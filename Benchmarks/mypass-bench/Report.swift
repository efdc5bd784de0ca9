import Foundation

/// The lowest and highest of several readings, in a figure's unit.
struct Spread {
    var low: Double
    var high: Double

    /// The range of `values`, or nil when there are fewer than one.
    static func of(_ values: [Double]) -> Spread? {
        guard let low = values.min(), let high = values.max() else { return nil }
        return Spread(low: low, high: high)
    }
}

/// One measured figure, optionally beside a reference tool's figure for the same work.
struct Measurement {
    var name: String
    /// Our value (throughput or time, per `unit`): the median of the runs.
    var value: Double
    var unit: String
    /// Whether a larger value is better (throughput) or smaller (time).
    var higherIsBetter: Bool
    var reference: (tool: String, value: Double)? = nil
    var note: String? = nil
    /// Min and max of our runs (nil: one reading).
    var spread: Spread? = nil
    /// Min and max of the reference's runs.
    var referenceSpread: Spread? = nil

    /// A figure from the readings of every run, already in `unit`: the median, with min and max.
    init(name: String, readings: [Double], unit: String, higherIsBetter: Bool) {
        self.init(name: name, value: Timing.medianOf(readings), unit: unit, higherIsBetter: higherIsBetter)
        spread = Spread.of(readings)
    }

    init(name: String, value: Double, unit: String, higherIsBetter: Bool, spread: Spread? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.higherIsBetter = higherIsBetter
        self.spread = spread
    }

    /// A single reading beside a reference tool's (or another way's) single reading.
    init(name: String, value: Double, unit: String, higherIsBetter: Bool, reference: (String, Double), note: String? = nil) {
        self.init(name: name, value: value, unit: unit, higherIsBetter: higherIsBetter)
        self.reference = (reference.0, reference.1)
        self.note = note
    }

    /// A single reading with a note on what it is.
    init(name: String, value: Double, unit: String, higherIsBetter: Bool, note: String) {
        self.init(name: name, value: value, unit: unit, higherIsBetter: higherIsBetter)
        self.note = note
    }

    /// Sets the reference from its readings (median, min, max).
    mutating func setReference(_ tool: String, readings: [Double]) {
        reference = (tool, Timing.medianOf(readings))
        referenceSpread = Spread.of(readings)
    }

    /// Ours relative to the reference, as "how many times as good" (>1 is better than the reference).
    var ratio: Double? {
        guard let reference, reference.value > 0, value > 0 else { return nil }
        return higherIsBetter ? value / reference.value : reference.value / value
    }
}

/// Prints measurements as a table or JSON.
struct Report {
    var title: String
    var rows: [Measurement] = []
    var extra: [String: String] = [:]
    var missingTools: [String] = []

    func print(json: Bool) {
        if json {
            var object: [String: Any] = ["title": title]
            object["results"] = rows.map { row -> [String: Any] in
                var item: [String: Any] = ["name": row.name, "value": row.value, "unit": row.unit]
                if let spread = row.spread { item["min"] = spread.low; item["max"] = spread.high }
                if let reference = row.reference {
                    var object: [String: Any] = ["tool": reference.tool, "value": reference.value]
                    if let spread = row.referenceSpread { object["min"] = spread.low; object["max"] = spread.high }
                    item["reference"] = object
                }
                if let ratio = row.ratio { item["ratio"] = ratio }
                if let note = row.note { item["note"] = note }
                return item
            }
            if !extra.isEmpty { object["info"] = extra }
            if !missingTools.isEmpty { object["missingTools"] = missingTools }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
            Swift.print(String(decoding: data, as: UTF8.self))
            return
        }
        Swift.print(title)
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) { Swift.print("  \(key): \(value)") }
        let header = ["measure", "mypass: median [min, max]", "reference: median [min, max]", "ratio of medians"]
        var lines: [[String]] = [header]
        for row in rows {
            let ours = format(row.value) + range(row.spread) + " " + row.unit
            let reference = row.reference.map { format($0.value) + range(row.referenceSpread) + " " + row.unit + " (" + $0.tool + ")" } ?? "-"
            let ratio = row.ratio.map { String(format: "%.2fx", $0) } ?? "-"
            lines.append([row.name, ours, reference, ratio + (row.note.map { "  " + $0 } ?? "")])
        }
        let widths = (0..<3).map { column in lines.map { $0[column].count }.max() ?? 0 }
        for line in lines {
            var text = ""
            for column in 0..<3 { text += line[column].padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0) }
            Swift.print(text + line[3])
        }
        for tool in missingTools { Swift.print("  (reference skipped: \(tool))") }
        Swift.print("  ratio: how many times as good as the reference (>1 = mypass better), median against median;")
        Swift.print("  [min, max]: the lowest and highest of the runs")
    }

    /// ` [min, max]`, or nothing for a single reading.
    func range(_ spread: Spread?) -> String {
        guard let spread else { return "" }
        return " [" + format(spread.low) + ", " + format(spread.high) + "]"
    }

    func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.4f", value)
    }
}
