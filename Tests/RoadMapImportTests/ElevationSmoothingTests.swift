import Foundation
import RoadMap
import Testing
@testable import RoadMapImport

/// Slope over rolling terrain: hills of 1.4 km and 5 km wavelength (slopes up to ±5 %) plus seeded
/// ±2 m noise per sample, rounded to whole metres like SRTM. The profile must follow the hills
/// without turning the noise into points.
@Suite("slope smoothing over rolling terrain")
struct ElevationSmoothingTests {
    static let rowSpacing = GeoPoint(latitude: 60, longitude: 24).distance(
        to: GeoPoint(latitude: 60 + 1.0 / 1200, longitude: 24))

    /// The noiseless surface: metres north of 60° and the column's longitude.
    static func surface(north: Double, longitude: Double) -> Double {
        150 + 20 * sin(north / 800) + 8 * sin(north / 230 + (longitude - 24) * 24)
    }

    static func hillyTile() -> Data {
        var state: UInt64 = 42
        var bytes = [UInt8](repeating: 0, count: 1201 * 1201 * 2)
        for row in 0..<1201 {
            let north = Double(1200 - row) * rowSpacing
            for column in 0..<1201 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(state >> 11) / Double(1 << 53) * 4 - 2
                let value = UInt16(
                    bitPattern: Int16((surface(north: north, longitude: 24 + Double(column) / 1200) + noise).rounded()))
                bytes[2 * (row * 1201 + column)] = UInt8(value >> 8)
                bytes[2 * (row * 1201 + column) + 1] = UInt8(value & 0xFF)
            }
        }
        return Data(bytes)
    }

    @Test("an 11 km road: within 0.7 % of the true slope on average, under 12 profile points per km")
    func rollingTerrain() throws {
        let tile = Self.hillyTile()
        var model = ElevationModel { name throws(ElevationError) in name == "N60E024.hgt" ? tile : nil }
        let road = [GeoPoint(latitude: 60.1, longitude: 24.5), GeoPoint(latitude: 60.2, longitude: 24.52)]
        let profile = try #require(
            try ElevationSlope.profile(along: road) { point throws(ElevationError) in try model.elevation(at: point) })
        let length = road.polylineLength
        func trueHeight(_ point: GeoPoint) -> Double {
            Self.surface(
                north: GeoPoint(latitude: 60, longitude: point.longitude).distance(to: point),
                longitude: point.longitude)
        }
        var errors: [Double] = []
        var offset = 15.0
        while offset < length - 15 {
            let a = try #require(road.point(atOffset: offset - 15)?.point),
                b = try #require(road.point(atOffset: offset + 15)?.point)
            let truth = (trueHeight(b) - trueHeight(a)) / 30 * 100
            let given = try #require(profile.last { $0.offset <= offset }).value
            errors.append(abs(given - truth))
            offset += 30
        }
        let meanError = errors.reduce(0, +) / Double(errors.count)
        #expect(meanError < 0.7, "mean error \(meanError) %")
        #expect(errors.max()! < 3)
        #expect(Double(profile.count) / length * 1000 < 12, "\(profile.count) points on \(length) m")
        #expect(profile.contains { $0.value > 4 } && profile.contains { $0.value < -4 })
    }
}
