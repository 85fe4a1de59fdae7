import RoadMap

/// A configuration problem, naming the file, the key and the line.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The configuration file.
    public var file: String
    /// The dotted key (`can.interface`), when the problem is about one key.
    public var key: String?
    /// 1-based line, when known.
    public var line: Int?
    /// What is wrong and what to write instead.
    public var problem: String

    /// Creates an error.
    public init(file: String, key: String?, line: Int?, problem: String) {
        self.file = file
        self.key = key
        self.line = line
        self.problem = problem
    }

    /// `FILE:LINE: KEY: PROBLEM`.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let key { location += ": \(key)" }
        return "\(location): \(problem)"
    }
}

/// Typed access to a TOML document that remembers which keys were read.
struct ConfigurationReader {
    let document: TOMLDocument
    let file: String
    private var used = Set<String>()

    init(document: TOMLDocument, file: String) {
        self.document = document
        self.file = file
    }

    func error(_ key: String, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: file, key: key, line: document.lines[key], problem: problem)
    }

    mutating func optionalString(_ key: String) throws(ConfigurationError) -> String? {
        used.insert(key)
        switch document.values[key] {
        case nil: return nil
        case .string(let text)?:
            guard !text.isEmpty else { throw error(key, "must not be empty") }
            return text
        case let other?: throw error(key, "expected a string in quotes, found \(other)")
        }
    }

    /// The road object types listed at `key` (comma-separated names, or `all`); every type when absent.
    mutating func roadObjectTypes(_ key: String) throws(ConfigurationError) -> Set<RoadObjectType> {
        guard let text = try optionalString(key) else { return Set(RoadObjectType.allCases) }
        do {
            return try RoadObjectType.parseList(text)
        } catch {
            throw self.error(key, error.description)
        }
    }

    mutating func string(_ key: String, default fallback: String? = nil, allowed: [String]? = nil)
        throws(ConfigurationError) -> String
    {
        guard let value = try optionalString(key) ?? fallback else { throw error(key, "required key is missing") }
        if let allowed, !allowed.contains(value) {
            throw error(key, "'\(value)' is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return value
    }

    /// The choice named by the string at `key` (its raw value), or `fallback` when absent.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, default fallback: Choice)
        throws(ConfigurationError) -> Choice where Choice.RawValue == String
    {
        let allowed = Choice.allCases.map(\.rawValue)
        let name = try string(key, default: fallback.rawValue, allowed: allowed)
        guard let choice = Choice(rawValue: name) else { throw error(key, "'\(name)' is not a choice") }
        return choice
    }

    mutating func optionalInteger(_ key: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        used.insert(key)
        switch document.values[key] {
        case nil: return nil
        case .integer(let value)?:
            guard value >= Int64(range.lowerBound), value <= Int64(range.upperBound) else {
                throw error(key, "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
            }
            return Int(value)
        case let other?: throw error(key, "expected an integer, found \(other)")
        }
    }

    mutating func integer(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws(ConfigurationError)
        -> Int
    {
        try optionalInteger(key, range: range) ?? fallback
    }

    mutating func number(_ key: String, default fallback: Double, range: ClosedRange<Double>) throws(ConfigurationError)
        -> Double
    {
        try optionalNumber(key, range: range) ?? fallback
    }

    /// The number at `key` (an integer or a float) within `range`, or `nil` when the key is absent.
    mutating func optionalNumber(_ key: String, range: ClosedRange<Double>) throws(ConfigurationError) -> Double? {
        used.insert(key)
        let value: Double
        switch document.values[key] {
        case nil: return nil
        case .integer(let integer)?: value = Double(integer)
        case .float(let float)?: value = float
        case let other?: throw error(key, "expected a number, found \(other)")
        }
        guard value.isFinite, range.contains(value) else {
            throw error(key, "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    mutating func optionalBoolean(_ key: String) throws(ConfigurationError) -> Bool? {
        used.insert(key)
        switch document.values[key] {
        case nil: return nil
        case .boolean(let value)?: return value
        case let other?: throw error(key, "expected true or false, found \(other)")
        }
    }

    mutating func boolean(_ key: String, default fallback: Bool) throws(ConfigurationError) -> Bool {
        try optionalBoolean(key) ?? fallback
    }

    func rejectUnknownKeys() throws(ConfigurationError) {
        for key in document.values.keys.sorted() where !used.contains(key) {
            // Keys more than 3 characters longer or shorter are never suggested; ties go to the
            // first key in order, so the advice does not depend on the set's hash order.
            let keyLength = key.count
            let nearest = used.filter { abs($0.count - keyLength) <= 3 }
                .map { (key: $0, distance: editDistance($0, key)) }
                .min { ($0.distance, $0.key) < ($1.distance, $1.key) }
            var problem = "unknown key"
            if let nearest, nearest.distance <= 3 { problem += "; did you mean '\(nearest.key)'?" }
            throw error(key, problem)
        }
    }

    private func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }
}
