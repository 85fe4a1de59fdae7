import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider

/// META-DATA follows the vehicle across a border: on the synthetic two-country map, the drive
/// west from Austria (AT-5) into Germany (DE-BY) sends a META-DATA with Germany's country and
/// region as soon as the vehicle is on the German link, and the receiver records the change.
@Suite("country information along the path and META-DATA at the border", .serialized)
struct BorderMetaDataTests {
    static let austria = try! Country(alpha2: "AT")
    static let germany = try! Country(alpha2: "DE")

    @Test("the import finds both countries and regions from the boundaries")
    func importedPlaces() throws {
        let map = try BorderDrive.map()
        #expect(map.metadata.countries == ["AT", "DE"])
        #expect(map.metadata.regions == ["AT-5", "DE-BY"])
    }

    @Test("the main path is cut into an Austrian and a German stretch at the border")
    func stretchesAlongThePath() throws {
        let map = try BorderDrive.map()
        let pipeline = try HorizonPipeline(network: map, provider: ProviderConfiguration())
        let fixes = try BorderDrive.fixes()
        let crossing = try #require(BorderDrive.crossingTime(fixes))
        // 40 s before the border (≈ 800 m at 20 m/s): the 2 km horizon reaches into Germany.
        for fix in fixes where fix.time <= crossing - 40 { _ = try pipeline.process(fix) }
        let main = try #require(pipeline.engine.tree.mainPath)
        let stretches = main.countryStretches(PlaceCodes(map: map.metadata))
        #expect(stretches.map { $0.country?.alpha3 } == ["AUT", "DEU"])
        #expect(stretches.map { $0.region?.code } == ["AT-5", "DE-BY"])
        let vehicle = try #require(pipeline.engine.vehicleOffset)
        // The border lies ≈ 800 m ahead of the vehicle (the road is straight along latitude 47.80).
        let ahead = stretches[0].endOffset - vehicle
        #expect(abs(ahead - 800) < 25, "border \(ahead) m ahead")
        #expect(stretches[0].endOffset == stretches[1].startOffset)
    }

    @Test("META-DATA changes to Germany with the vehicle, at once, and the receiver reports it")
    func metaDataAtTheBorder() throws {
        let map = try BorderDrive.map()
        var configuration = ProviderConfiguration()
        configuration.metaData = MetaDataMessage(map: map.metadata)
        configuration.places = PlaceCodes(map: map.metadata)
        let pipeline = try HorizonPipeline(network: map, provider: configuration)
        var reconstructor = HorizonReconstructor()
        let fixes = try BorderDrive.fixes()
        let crossing = try #require(BorderDrive.crossingTime(fixes))
        var next = 0
        var time = fixes[0].time
        var metaData: [(time: Double, message: MetaDataMessage)] = []
        while time <= fixes[fixes.count - 1].time + 1 {
            while next < fixes.count, fixes[next].time <= time + 1e-9 {
                _ = try pipeline.process(fixes[next])
                next += 1
            }
            for frame in pipeline.tick(at: time) {
                reconstructor.apply(frame.message, time: frame.time)
                if case .metaData(let message) = frame.message { metaData.append((frame.time, message)) }
            }
            time += configuration.tickInterval
        }
        let austriaCode = try Region(code: "AT-5").wireCode
        let places = reconstructor.horizon.placeChanges.map { ($0.countryCode, $0.regionCode) }
        // The first fix comes with the first tick: Austria's Land Salzburg from the first
        // META-DATA on (not the map's first country without a region), then Bayern after the border.
        #expect(places.map(\.0) == [40, 276])
        #expect(places.map(\.1) == [austriaCode, try Region(code: "DE-BY").wireCode])
        let change = try #require(reconstructor.horizon.placeChanges.last)
        // Sent within a fix interval of the crossing (the vehicle is placed on the German link at
        // the first fix past the border), not at the next 5 s META-DATA.
        #expect(
            change.time >= crossing - 0.2 && change.time <= crossing + 1.1,
            "crossing \(crossing) s, change \(change.time) s")
        let before = metaData.last { $0.time < change.time }
        #expect(before.map { change.time - $0.time < configuration.metaDataInterval - 0.5 } == true)
        #expect(pipeline.provider.counters.metaDataPlaceChanges == 2)
        #expect(reconstructor.horizon.metaData?.countryCode == Self.germany.numericCode)
    }
}
