import Foundation
import RoadMap

/// A parsed OSM `incline=*` value: a slope in percent along the way's drawing direction.
///
/// Accepts `5%`, `-10 %`, `3°` (converted to percent) and bare numbers (read as percent).
/// `up` / `down` carry no magnitude and are not a slope value; malformed values give `nil`.
public enum InclineValue {
    /// The slope in percent (positive = uphill in the way's direction), or `nil`.
    public static func percent(parsing text: String) -> Double? {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        var isDegrees = false
        if trimmed.hasSuffix("%") {
            trimmed.removeLast()
        } else if trimmed.hasSuffix("°") {
            trimmed.removeLast()
            isDegrees = true
        }
        guard let number = Double(trimmed.trimmingCharacters(in: .whitespaces)), number.isFinite else { return nil }
        if isDegrees {
            guard abs(number) < 90 else { return nil }
            return tan(number * .pi / 180) * 100
        }
        guard abs(number) <= 100 else { return nil }
        return number
    }
}
