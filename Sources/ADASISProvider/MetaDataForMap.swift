import ADASISv2
import RoadMap

extension MetaDataMessage {
    /// META-DATA describing `map`: its (first) country's numeric code, driving side and speed
    /// unit, and its version year and quarter; unknown parts are sent as unknown / N/A.
    public init(map: MapMetadata) {
        self.init()
        if let code = map.countries.first, let country = try? Country(alpha2: code) {
            countryCode = country.numericCode
            drivingSide = country.drivingSide == .left ? .left : .right
            speedUnits = country.speedUnit == .milesPerHour ? .milesPerHour : .kilometresPerHour
        }
        if let year = map.mapVersionYear, (2000...2062).contains(year) {
            mapVersionYear = UInt8(year - 2000)
            if let quarter = map.mapVersionQuarter, (1...4).contains(quarter) {
                mapVersionQuarter = UInt8(quarter - 1)
            }
        }
    }
}
