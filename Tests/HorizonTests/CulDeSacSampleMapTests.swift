@testable import Horizon
import RoadMap
import RoadMapStore
import Testing
import TestSupport

/// The cul-de-sac factor on the sample map (``BranchProbabilityModel/deadEndFactor``): Fabianinkatu
/// goes on from a junction (ways 36729040 … 81152593) for 63 m to its end, beside a 22 m service
/// road that ends too. Without the factor the main path went in, turned round at the end and came back
/// (ullanlinna at 40 s; 182 of that drive's 301 noisy fixes had a main path that turned round).
@Suite("the cul-de-sac factor at Fabianinkatu, sample map")
struct CulDeSacSampleMapTests {
    /// Way 60753083 driven towards the junction where Fabianinkatu (ways 36729040, 81152598, …)
    /// goes on straight ahead and Eteläinen Makasiinikatu (way 36729039) leaves, and the map. The way is two
    /// links there: the junction lies between them.
    static func approach() throws -> (map: MapFile, link: DirectedLink) {
        let map = try MapFile(path: try ImportedMap.file(SampleDriveList.helsinki))
        let corner = GeoPoint(latitude: 60.16467, longitude: 24.94980)
        let near = try map.links(near: corner, radius: 80)
        for link in near where link.wayID == 60_753_083 {
            for direction in [LinkDirection.forward, .backward] {
                let directed = DirectedLink(link.id, direction)
                let onward = try map.successors(of: directed).filter { $0 != directed.reversed }
                let ways = try Set(onward.map { try map.link($0.link).wayID })
                if onward.count >= 2, ways.contains(60_753_083), ways.contains(36_729_039) { return (map, directed) }
            }
        }
        throw CulDeSacSampleMapError.junctionNotFound
    }

    enum CulDeSacSampleMapError: Error { case junctionNotFound }

    /// The first 500 m of the main path from the start of `link`, and whether it drives any link
    /// back the way it came.
    static func mainPath(_ map: MapFile, from link: DirectedLink, model: BranchProbabilityModel) throws -> (
        ways: [Int64], turnsRound: Bool
    ) {
        let engine = try HorizonEngine(network: map, configuration: .init(branchModel: model))
        _ = try engine.update(onRoad(link, 0, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        let ahead = main.links.filter { $0.startOffset < 500 }
        let links = Set(ahead.map(\.link))
        return (ahead.map(\.wayID), links.contains { links.contains($0.reversed) })
    }

    @Test("the map's stored longest way on equals the branch model's search on every directed link")
    func storedWaysOnMatchTheSearch() throws {
        let map = try MapFile(path: try ImportedMap.file(SampleDriveList.helsinki))
        let model = BranchProbabilityModel(deadEndReach: LongestWaysOn.storedLimit)
        let known = BranchProbabilityModel.WaysOn()
        var checked = 0, ending = 0
        for key in try map.tileKeys() {
            for link in try map.tile(key).links {
                for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                    let directed = DirectedLink(link.id, direction)
                    let stored = try #require(try map.longestWayOn(directed))
                    let searched = try model.longestWayOn(directed, known: known, in: map)
                    #expect(stored == searched, "\(directed) (way \(link.wayID))")
                    checked += 1
                    if stored <= 120 { ending += 1 }
                }
            }
        }
        // An overlay (traffic, custom objects) passes the stored length through: no search under it.
        let overlay = FeatureOverlayNetwork(base: map, featuresOfLink: [:])
        let (_, approach) = try Self.approach()
        #expect(try overlay.longestWayOn(approach) == map.longestWayOn(approach))
        #expect(try InMemoryRoadNetwork(links: []).longestWayOn(approach) == nil)
        // The sample's 998 links, and the cul-de-sacs among them (Fabianinkatu's end, service roads, the
        // extract's cut edges).
        #expect(checked > 1500 && ending > 50, "\(checked) directed links, \(ending) ending within 120 m")
    }

    @Test("the map's stored successors equal the in-memory network's on every directed link")
    func storedTurnsMatchTheNetwork() throws {
        let map = try MapFile(path: try ImportedMap.file(SampleDriveList.helsinki))
        var links: [RoadLink] = []
        var restrictions: [TurnRestriction] = []
        for key in try map.tileKeys() {
            let tile = try map.tile(key)
            links += tile.links
            restrictions += tile.restrictions
        }
        let memory = InMemoryRoadNetwork(links: links, restrictions: restrictions)
        var turns = 0
        for link in links {
            for direction in [LinkDirection.forward, .backward] {
                let directed = DirectedLink(link.id, direction)
                let stored = try map.successors(of: directed)
                #expect(stored == (try memory.successors(of: directed)), "\(directed) (way \(link.wayID))")
                turns += stored.count
            }
        }
        #expect(links.count == 998 && turns > 2000, "\(links.count) links, \(turns) turns")
    }

    @Test("the main path passes the dead end by; without the factor it drove in and back")
    func mainPathPassesByTheDeadEnd() throws {
        let (map, link) = try Self.approach()
        let without = try Self.mainPath(map, from: link, model: BranchProbabilityModel(deadEndFactor: 1))
        #expect(without.turnsRound && without.ways.contains(81_152_593), "\(without.ways)")
        let with = try Self.mainPath(map, from: link, model: BranchProbabilityModel())
        #expect(!with.turnsRound && !with.ways.contains(81_152_593), "\(with.ways)")
    }
}
