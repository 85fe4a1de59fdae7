import Foundation
import GRDB
import RoadMap
import Testing
import TestSupport
@testable import RoadMapStore

@Suite("map file: write, read, refuse damage")
struct MapFileTests {
    static func temporaryPath(_ name: String) -> String {
        ScratchDirectory.path("store-\(name)")
    }

    static func writeSample(_ name: String) throws -> (String, RoadGraph) {
        let graph = StoreFixture.graph()
        let path = temporaryPath(name)
        let metadata = MapMetadata(
            sourceFile: "test.osm.pbf", sourceTimestamp: 1_555_840_214, countries: ["FI"],
            boundingBox: [60.168, 24.94, 60.171, 24.943], importReport: graph.report)
        try MapFileWriter.write(graph, metadata: metadata, to: path)
        return (path, graph)
    }

    @Test("every link, restriction and the graph navigation read back equal to what was built")
    func roundTrip() throws {
        let (path, graph) = try Self.writeSample("roundtrip.map")
        defer { unlink(path) }
        let map = try MapFile(path: path)
        #expect(map.metadata.mapVersionYear == 2019 && map.metadata.mapVersionQuarter == 2)
        #expect(map.metadata.importReport == graph.report)
        let memory = InMemoryRoadNetwork(links: graph.links, restrictions: graph.restrictions)
        for link in graph.links {
            #expect(try map.link(link.id) == link)
            for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                let directed = DirectedLink(link.id, direction)
                #expect(try map.successors(of: directed) == memory.successors(of: directed))
            }
            #expect(try map.outgoing(from: link.startNode) == memory.outgoing(from: link.startNode))
            #expect(try map.incoming(to: link.endNode) == memory.incoming(to: link.endNode))
        }
        let centre = GeoPoint(latitude: 60.1700, longitude: 24.9421)
        #expect(try map.links(near: centre, radius: 80).map(\.id) == memory.links(near: centre, radius: 80).map(\.id))
    }

    @Test("a link crossing into another tile is found from that tile")
    func passingLinks() throws {
        let a = GeoPoint(latitude: 60.1695, longitude: 24.9450), b = GeoPoint(latitude: 60.1695, longitude: 24.9650)
        let link = RoadLink(
            id: LinkID(tile: TileKey(containing: a), index: 0), wayID: 5, startNode: NodeID(1),
            endNode: NodeID(2), geometry: [a, b], highway: .primary)
        let path = Self.temporaryPath("passing.map")
        defer { unlink(path) }
        try MapFileWriter.write(
            RoadGraph(links: [link], restrictions: [], report: ImportReport()),
            metadata: MapMetadata(
                sourceFile: "x", sourceTimestamp: nil, countries: ["FI"],
                boundingBox: [], importReport: ImportReport()), to: path)
        let map = try MapFile(path: path)
        let far = GeoPoint(latitude: 60.1696, longitude: 24.9640)
        #expect(TileKey(containing: far) != TileKey(containing: a))
        #expect(try map.links(near: far, radius: 20).map(\.id) == [link.id])
        // The passing link's box is kept with the tile after the first query: a point of that tile
        // 390 m off the link skips it, a point beside it finds it again.
        let off = GeoPoint(latitude: 60.1660, longitude: 24.9640)
        #expect(TileKey(containing: off) == TileKey(containing: far))
        #expect(try map.links(near: off, radius: 20).isEmpty)
        #expect(try map.links(near: far, radius: 20).map(\.id) == [link.id])
        // With a cache too small to keep any tile, the boxes are worked out at every query.
        let uncached = try MapFile(path: path, cacheBytes: 1)
        for _ in 0..<2 {
            #expect(try uncached.links(near: off, radius: 20).isEmpty)
            #expect(try uncached.links(near: far, radius: 20).map(\.id) == [link.id])
        }
    }

    @Test("a file that is not a map, or is missing, gives a clear error")
    func notAMap() throws {
        let path = Self.temporaryPath("text.map")
        defer { unlink(path) }
        try "hello, not a database\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try MapFile(path: path) } throws: { error in
            guard case MapFileError.notAMap = error else { return false }
            return "\(error)".contains("adasis map import")
        }
        #expect(throws: MapFileError.cannotOpen(path: "/nonexistent/x.map", reason: "no such file")) {
            try MapFile(path: "/nonexistent/x.map")
        }
    }

    @Test("a newer format version is refused")
    func newerFormat() throws {
        let (path, _) = try Self.writeSample("newer.map")
        defer { unlink(path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "UPDATE metadata SET value = '99' WHERE key = 'format_version'") }
        try queue.close()
        #expect(throws: MapFileError.newerFormat(path: path, version: 99, supported: MapMetadata.currentFormatVersion))
        {
            try MapFile(path: path)
        }
    }

    @Test("a map of the format before road objects is refused with a re-import hint")
    func olderFormat() throws {
        let (path, _) = try Self.writeSample("older.map")
        defer { unlink(path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "UPDATE metadata SET value = '1' WHERE key = 'format_version'") }
        try queue.close()
        #expect(throws: MapFileError.olderFormat(path: path, version: 1, supported: MapMetadata.currentFormatVersion)) {
            try MapFile(path: path)
        }
        let text = MapFileError.olderFormat(path: path, version: 1, supported: 2).description
        #expect(text.contains("adasis map import") && text.contains(path))
    }

    @Test("a damaged tile is reported naming the tile, not returned")
    func damagedTile() throws {
        let (path, graph) = try Self.writeSample("damaged.map")
        defer { unlink(path) }
        let key = try #require(graph.links.first?.id.tile)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var blob = try #require(
                try Data.fetchOne(db, sql: "SELECT blob FROM tiles WHERE key = ?", arguments: [Int64(key.packed)]))
            blob[blob.count / 2] ^= 0x40
            try db.execute(sql: "UPDATE tiles SET blob = ? WHERE key = ?", arguments: [blob, Int64(key.packed)])
        }
        try queue.close()
        let map = try MapFile(path: path)
        #expect { try map.link(graph.links[0].id) } throws: { error in
            guard case MapFileError.damagedTile(_, .checksumMismatch(let tile, _, _)) = error else { return false }
            return tile == key && "\(error)".contains("Re-import")
        }
    }

    @Test("a failed write leaves no file behind")
    func noPartialFile() throws {
        let graph = StoreFixture.graph()
        let path = "/nonexistent-directory/out.map"
        #expect(throws: MapFileError.self) {
            try MapFileWriter.write(
                graph,
                metadata: MapMetadata(
                    sourceFile: "x", sourceTimestamp: nil, countries: [],
                    boundingBox: [], importReport: graph.report), to: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(
        "under any budget, the cache and its node index stay within it and answers do not change",
        arguments: [1, 1_500, 3_000, 1 << 20])
    func nodeIndexWithinBudget(budget: Int) throws {
        let (path, graph) = try Self.writeSample("node-budget-\(budget).map")
        defer { unlink(path) }
        let map = try MapFile(path: path, cacheBytes: budget)
        let memory = InMemoryRoadNetwork(links: graph.links, restrictions: graph.restrictions)
        for _ in 0..<2 {
            for link in graph.links {
                for node in [link.startNode, link.endNode] {
                    #expect(try map.outgoing(from: node) == memory.outgoing(from: node))
                    #expect(try map.incoming(to: node) == memory.incoming(to: node))
                }
                for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                    let directed = DirectedLink(link.id, direction)
                    #expect(try map.successors(of: directed) == memory.successors(of: directed))
                }
                #expect(map.cache.byteCount <= budget)
                // Every indexed node is charged to a cached tile: the index cannot outgrow the budget.
                #expect(map.cache.nodeCount * MapTileCache.nodeEntryCost <= map.cache.byteCount)
            }
        }
        if budget == 1 { #expect(map.cache.nodeCount == 0 && map.cache.tileCount == 0) }
        if budget == 1 << 20 {
            #expect(map.cache.nodeCount == Set(graph.links.flatMap { [$0.startNode, $0.endNode] }).count)
        }
    }

    @Test("prefetch reads the tiles around a point once; the queries that follow find them cached")
    func prefetch() throws {
        let (path, _) = try Self.writeSample("prefetch.map")
        defer { unlink(path) }
        let map = try MapFile(path: path)
        let centre = GeoPoint(latitude: 60.1700, longitude: 24.9421)
        let covering = TileKey.covering(centre, radius: 300)
        try map.prefetch(around: centre, radius: 300, maximumReads: .max)
        #expect(map.tileReads == covering.count && map.cache.tileCount == covering.count)
        _ = try map.links(near: centre, radius: 250)
        try map.prefetch(around: GeoPoint(latitude: 60.1701, longitude: 24.9422), radius: 300)
        #expect(map.tileReads == covering.count)
        try map.prefetch(around: centre, radius: 600, maximumReads: .max)
        #expect(map.tileReads == TileKey.covering(centre, radius: 600).count)
    }

    @Test("prefetch spreads its reads over calls, the vehicle's own tile first")
    func prefetchSpread() throws {
        let (path, _) = try Self.writeSample("prefetch-spread.map")
        defer { unlink(path) }
        let map = try MapFile(path: path)
        let centre = GeoPoint(latitude: 60.1700, longitude: 24.9421)
        let covering = TileKey.covering(centre, radius: 600)
        try map.prefetch(around: centre, radius: 600, maximumReads: 1)
        #expect(map.tileReads == 1 && map.cache.contains(TileKey(containing: centre)))
        for calls in 2...covering.count {
            try map.prefetch(around: centre, radius: 600, maximumReads: 1)
            #expect(map.tileReads == calls)
        }
        try map.prefetch(around: centre, radius: 600, maximumReads: 1)
        #expect(map.tileReads == covering.count && map.cache.tileCount == covering.count)
    }

    @Test("the tile cache stays within its byte budget")
    func cacheBudget() throws {
        let (path, graph) = try Self.writeSample("budget.map")
        defer { unlink(path) }
        let map = try MapFile(path: path, cacheBytes: 1)
        for link in graph.links { _ = try map.link(link.id) }
        for link in graph.links { _ = try map.link(link.id) }
        #expect(map.tileReads >= 2)  // nothing fits: every access reads again
    }

    @Test("a link identifier beyond its tile's links is an unknown link, whether the tile is cached or not")
    func unknownLinkInTile() throws {
        let (path, graph) = try Self.writeSample("unknown-link.map")
        defer { unlink(path) }
        let first = try #require(graph.links.first)
        let key = try #require(first.id.tile)
        let beyond = LinkID(tile: key, index: UInt32(graph.links.filter { $0.id.tile == key }.count))
        for budget in [1, 1 << 20] {
            let map = try MapFile(path: path, cacheBytes: budget)
            #expect(try map.link(first.id) == first)  // the tile is cached now (unless the budget is 1)
            #expect(map.cache.contains(key) == (budget > 1))
            #expect(throws: MapFileError.unknownLink(beyond)) { try map.link(beyond) }
            #expect(try map.link(first.id) == first)
        }
    }

    @Test("links, successors and adjacency read the same from cached tiles and from the file")
    func cachedAndUncachedAgree() throws {
        let (path, graph) = try Self.writeSample("cached-uncached.map")
        defer { unlink(path) }
        let cached = try MapFile(path: path)
        let uncached = try MapFile(path: path, cacheBytes: 1)  // nothing fits: every read goes to the file
        let memory = InMemoryRoadNetwork(links: graph.links, restrictions: graph.restrictions)
        for link in graph.links {
            for map in [cached, uncached] {
                #expect(try map.link(link.id) == link)
                for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                    let directed = DirectedLink(link.id, direction)
                    #expect(try map.successors(of: directed) == memory.successors(of: directed))
                }
                #expect(try map.outgoing(from: link.endNode) == memory.outgoing(from: link.endNode))
            }
        }
        #expect(uncached.cache.tileCount == 0 && cached.cache.tileCount > 0)
        #expect(!graph.restrictions.isEmpty)  // the successors above went through turn restrictions
    }
}
