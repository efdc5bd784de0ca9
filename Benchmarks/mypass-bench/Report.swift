import Foundation

/// One measured figure, optionally beside a reference tool's figure for the same work.
struct Measurement {
    var name: String
    /// Our value (throughput or time, per `unit`).
    var value: Double
    var unit: String
    /// Whether a larger value is better (throughput) or smaller (time).
    var higherIsBetter: Bool
    var reference: (tool: String, value: Double)? = nil
    var note: String? = nil

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
                if let reference = row.reference {
                    item["reference"] = ["tool": reference.tool, "value": reference.value]
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
        let header = ["measure", "mypass", "reference", "ratio"]
        var lines: [[String]] = [header]
        for row in rows {
            let ours = format(row.value) + " " + row.unit
            let reference = row.reference.map { format($0.value) + " " + row.unit + " (" + $0.tool + ")" } ?? "-"
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
        Swift.print("  ratio: how many times as good as the reference (>1 = mypass better); medians of several runs")
    }

    func format(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.4f", value)
    }
}
