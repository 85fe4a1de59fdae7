import GNSS

/// A fix the matcher cannot use, with what is wrong and where.
public struct MatchingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field of the fix that is wrong.
    public enum Field: String, Hashable, Sendable {
        /// ``GNSSFix/time``.
        case time
        /// ``GNSSFix/latitude``.
        case latitude
        /// ``GNSSFix/longitude``.
        case longitude
        /// ``GNSSFix/horizontalAccuracy``.
        case horizontalAccuracy
        /// ``GNSSFix/speed``.
        case speed
        /// ``GNSSFix/heading``.
        case heading
        /// ``GNSSFix/speedAccuracy``.
        case speedAccuracy
        /// ``GNSSFix/headingAccuracy``.
        case headingAccuracy
    }
    /// The offending field.
    public var field: Field
    /// Its value.
    public var value: Double
    /// The time of the fix (may itself be the bad value).
    public var time: Double

    /// Creates a matching error.
    public init(field: Field, value: Double, time: Double) {
        self.field = field
        self.value = value
        self.time = time
    }

    /// What is wrong with the fix and what to do about it.
    public var description: String {
        "fix at time \(time): \(field.rawValue) \(value) is not valid "
            + "(expected finite values, latitude −90…90, longitude −180…180, accuracy and speed ≥ 0); "
            + "drop or repair this fix before matching"
    }

    /// Checks that every field of `fix` is usable by a matcher.
    static func validate(_ fix: GNSSFix) throws(MatchingError) {
        func check(_ field: Field, _ value: Double?, _ valid: (Double) -> Bool) throws(MatchingError) {
            if let value, !(value.isFinite && valid(value)) {
                throw MatchingError(field: field, value: value, time: fix.time)
            }
        }
        try check(.time, fix.time) { _ in true }
        try check(.latitude, fix.latitude) { (-90...90).contains($0) }
        try check(.longitude, fix.longitude) { (-180...180).contains($0) }
        try check(.horizontalAccuracy, fix.horizontalAccuracy) { $0 >= 0 }
        try check(.speed, fix.speed) { $0 >= 0 }
        try check(.heading, fix.heading) { _ in true }
        try check(.speedAccuracy, fix.speedAccuracy) { $0 >= 0 }
        try check(.headingAccuracy, fix.headingAccuracy) { $0 >= 0 }
    }
}
