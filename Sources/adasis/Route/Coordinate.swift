import ArgumentParser
import RoadMap
import Routing

/// A `LAT,LON` command-line value in decimal degrees.
struct Coordinate: ExpressibleByArgument {
    /// The point.
    var point: GeoPoint

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces)),
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        point = GeoPoint(latitude: latitude, longitude: longitude)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension RouteSessionConfiguration.DeviationReplanning: ExpressibleByArgument {}
