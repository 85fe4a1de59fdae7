import Foundation

/// Builds a document in the Prometheus text exposition format (version 0.0.4), the format
/// node_exporter's textfile collector reads: per metric a `# HELP` and a `# TYPE` line, then one
/// line per sample, `name{label="value",…} number`.
public struct PrometheusText: Sendable {
    /// The kind of a metric.
    public enum Kind: String, Hashable, Sendable {
        /// A value that only grows (reset on restart).
        case counter
        /// A value that goes up and down.
        case gauge
    }

    /// One sample of a metric: its labels (in the order given) and its value.
    public struct Sample: Sendable {
        /// Label names and values.
        public var labels: [(name: String, value: String)]
        /// The value.
        public var value: Double

        /// A sample with `labels`.
        public init(_ labels: [(name: String, value: String)] = [], _ value: Double) {
            self.labels = labels
            self.value = value
        }

    }

    /// The document so far.
    public private(set) var text = ""

    /// An empty document.
    public init() {}

    /// Appends metric `name` with its help text and samples. A metric without samples is left out.
    public mutating func append(_ name: String, _ kind: Kind, help: String, samples: [Sample]) {
        guard !samples.isEmpty else { return }
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples {
            text += name
            if !sample.labels.isEmpty {
                text +=
                    "{" + sample.labels.map { "\($0.name)=\"\(Self.escapeLabel($0.value))\"" }.joined(separator: ",")
                    + "}"
            }
            text += " \(Self.format(sample.value))\n"
        }
    }

    /// Appends metric `name` with a single unlabelled value.
    public mutating func append(_ name: String, _ kind: Kind, help: String, value: Double) {
        append(name, kind, help: help, samples: [Sample([], value)])
    }

    /// Appends metric `name` with one sample per reason of `counts`, labelled `reason`, in the
    /// reasons' order.
    public mutating func append(_ name: String, _ kind: Kind, help: String, byReason counts: [String: Int]) {
        append(
            name, kind, help: help,
            samples: counts.sorted { $0.key < $1.key }.map { Sample([("reason", $0.key)], Double($0.value)) })
    }

    /// Appends metric `name` with one sample per value of `values` that is present, labelled `label`
    /// with its name, in the order given; left out when none is (a setting that is off).
    public mutating func append(_ name: String, _ kind: Kind, help: String, label: String, values: [(String, Double?)])
    {
        append(
            name, kind, help: help,
            samples: values.compactMap { labelValue, value in value.map { Sample([(label, labelValue)], $0) } })
    }

    /// A number as Prometheus writes it: integers without a fraction, `NaN`, `+Inf`, `-Inf`.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A label value with backslash, double quote and newline escaped.
    public static func escapeLabel(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A help text with backslash and newline escaped.
    public static func escapeHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
