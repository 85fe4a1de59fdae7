/// A problem in a trace file, with its 1-based line number.
public struct TraceProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// The header lacks a required column.
        case missingColumn(String)
        /// The file has no header line.
        case emptyFile
        /// A row has fewer fields than the header.
        case tooFewFields(expected: Int, found: Int)
        /// A field is not a number or out of range.
        case badValue(column: String, value: String)
    }
    /// The 1-based line number (0 for the file as a whole).
    public var line: Int
    /// The problem.
    public var kind: Kind

    public var description: String {
        switch kind {
        case .missingColumn(let name):
            return "line \(line): the header has no '\(name)' column (required: time_s,lat,lon,speed_mps,heading_deg)"
        case .emptyFile:
            return "the file is empty: expected a header time_s,lat,lon,speed_mps,heading_deg"
        case .tooFewFields(let expected, let found):
            return "line \(line): \(found) fields, the header has \(expected); row skipped"
        case .badValue(let column, let value):
            return "line \(line): '\(value)' is not a valid \(column); row skipped"
        }
    }
}

/// A GNSS trace in CSV with the header `time_s,lat,lon,speed_mps,heading_deg`.
///
/// Columns are found by name, so their order is free and extra columns (ground truth such as
/// `way_id`) are ignored. An optional `accuracy_m` column gives the horizontal accuracy, and
/// optional `speed_accuracy_mps` and `heading_accuracy_deg` columns the accuracy (1 sigma) of the
/// speed and heading. Empty speed, heading or accuracy fields mean unknown.
public enum CSVTrace {
    /// The result of reading a trace: the fixes and the rows that were skipped.
    public struct Contents: Sendable {
        /// Fixes in file order.
        public var fixes: [GNSSFix]
        /// The 1-based line of each fix.
        public var fixLines: [Int]
        /// Skipped rows with the reason.
        public var skipped: [TraceProblem]
    }

    /// Parses CSV text. Throws only when the header is missing or lacks a required column.
    public static func parse(_ text: String) throws(TraceProblem) -> Contents {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).makeIterator()
        var lineNumber = 1
        guard let headerLine = lines.next(), !headerLine.allSatisfy(\.isWhitespace) else {
            throw TraceProblem(line: 0, kind: .emptyFile)
        }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters() }
        func column(_ name: String) throws(TraceProblem) -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw TraceProblem(line: 1, kind: .missingColumn(name))
            }
            return index
        }
        let time = try column("time_s"), lat = try column("lat"), lon = try column("lon")
        let speed = try column("speed_mps"), heading = try column("heading_deg")
        let accuracy = header.firstIndex(of: "accuracy_m")
        let speedAccuracy = header.firstIndex(of: "speed_accuracy_mps")
        let headingAccuracy = header.firstIndex(of: "heading_accuracy_deg")
        let needed = max(time, lat, lon, speed, heading, accuracy ?? 0, speedAccuracy ?? 0, headingAccuracy ?? 0) + 1

        var contents = Contents(fixes: [], fixLines: [], skipped: [])
        while let line = lines.next() {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters() }
            guard fields.count >= needed else {
                contents.skipped.append(
                    TraceProblem(line: lineNumber, kind: .tooFewFields(expected: header.count, found: fields.count)))
                continue
            }
            func value(_ index: Int, _ name: String, range: ClosedRange<Double>, optional: Bool) -> Double?? {
                let text = fields[index]
                if text.isEmpty && optional { return .some(nil) }
                guard let number = Double(text), number.isFinite, range.contains(number) else {
                    contents.skipped.append(TraceProblem(line: lineNumber, kind: .badValue(column: name, value: text)))
                    return nil
                }
                return .some(number)
            }
            guard let t = value(time, "time_s", range: -1e12...1e12, optional: false), let t,
                let la = value(lat, "lat", range: -90...90, optional: false), let la,
                let lo = value(lon, "lon", range: -180...180, optional: false), let lo,
                let sp = value(speed, "speed_mps", range: 0...1000, optional: true),
                let hd = value(heading, "heading_deg", range: -360...720, optional: true),
                let acc = accuracy.map({ value($0, "accuracy_m", range: 0...100_000, optional: true) }) ?? .some(nil),
                let spAcc = speedAccuracy.map({ value($0, "speed_accuracy_mps", range: 0...1000, optional: true) })
                    ?? .some(nil),
                let hdAcc = headingAccuracy.map({ value($0, "heading_accuracy_deg", range: 0...360, optional: true) })
                    ?? .some(nil)
            else { continue }
            let normalisedHeading = hd.map {
                ($0.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            }
            contents.fixes.append(
                GNSSFix(
                    time: t, latitude: la, longitude: lo, horizontalAccuracy: acc,
                    speed: sp, heading: normalisedHeading, speedAccuracy: spAcc, headingAccuracy: hdAcc))
            contents.fixLines.append(lineNumber)
        }
        return contents
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        var s = self
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
