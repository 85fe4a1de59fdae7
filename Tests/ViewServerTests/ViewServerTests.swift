import Foundation
import MapTiles
import MapView
import RoadMapStore
import TestSupport
import Testing

@testable import ViewServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The view's server on a real socket, on the sample map: tiles and error answers over HTTP, a
/// port in use, a map file replaced while serving.
struct ViewServerTests {
    static let mapPath = Result { try ImportedMap.file("Data/helsinki.osm.pbf") }
    /// A z14 tile over central Helsinki.
    static let tile = try! TileAddress(zoom: 14, x: 9326, y: 4742)

    func site(reader: MapTileReader) throws -> ViewSite {
        ViewSite(
            assets: try ViewPage.assets(), style: Data("{}".utf8),
            timeline: ReplayTimeline(frames: [
                ReplayTimeline.Frame(time: 0, longitude: 24.95, latitude: 60.17, document: Data("{}".utf8))
            ]),
            route: Data(), tiles: { _, address in try reader.tile(address) })
    }

    /// Starts `server` on a free port of the loopback address and returns the port.
    func start(_ server: ViewServer) async throws -> (port: UInt16, task: Task<Void, any Error>) {
        let (ports, continuation) = AsyncStream.makeStream(of: UInt16.self)
        // As long as the client waits: the 30 s default answers 500 when other tests' blocking
        // work starves the server's tasks of threads (seen once beside the QEMU vcan suites).
        let task = Task {
            try await server.serve(address: "127.0.0.1", port: 0, timeout: 600) { continuation.yield($0) }
        }
        for await port in ports { return (port, task) }
        throw CancellationError()
    }

    /// A client that waits up to 10 min for an answer. `URLSession.shared` gives up after 60 s,
    /// which a loaded 2-core CI host can exceed while other tests hold the threads the server's
    /// tasks run on; a server that never answers still fails the test.
    static let client: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        return URLSession(configuration: configuration)
    }()

    func get(_ port: UInt16, _ path: String) async throws -> (status: Int, body: Data) {
        let url = URL(string: "http://127.0.0.1:\(port)\(path)")!
        let (body, response) = try await Self.client.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }

    @Test func servesThePageTilesAndClearErrorsOverHTTP() async throws {
        let path = try Self.mapPath.get()
        let server = ViewServer(site: try site(reader: try MapTileReader(path: path)))
        let (port, task) = try await start(server)
        defer { task.cancel() }
        let page = try await get(port, "/")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("/assets/maplibre-gl.js"))
        let tile = try await get(port, "/tiles/roads/\(Self.tile).pbf")
        #expect(tile.status == 200)
        #expect(Array(tile.body) == (try RoadTileSource(network: MapFile(path: path)).tile(Self.tile)))
        let malformed = try await get(port, "/tiles/roads/14/x/1.pbf")
        #expect(malformed.status == 400)
        #expect(String(decoding: malformed.body, as: UTF8.self).contains("'14/x/1' is not a tile address"))
        let layer = try await get(port, "/tiles/traffic/14/1/1.pbf")
        #expect(layer.status == 404)
        #expect(await server.answered[200] == 2)
    }

    @Test func aPortInUseIsRefusedWithTheReason() async throws {
        let path = try Self.mapPath.get()
        let first = ViewServer(site: try site(reader: try MapTileReader(path: path)))
        let (port, task) = try await start(first)
        defer { task.cancel() }
        let second = ViewServer(site: try site(reader: try MapTileReader(path: path)))
        do {
            try await second.serve(address: "127.0.0.1", port: port) { _ in }
            Issue.record("a second server listened on port \(port)")
        } catch let error as ViewServerError {
            #expect("\(error)".contains("cannot listen on 127.0.0.1 port \(port): the port is in use"))
        }
    }

    @Test func aBadAddressIsRefused() async throws {
        let server = ViewServer(site: try site(reader: try MapTileReader(path: try Self.mapPath.get())))
        await #expect(throws: ViewServerError.self) {
            try await server.serve(address: "localhost-ish", port: 0) { _ in }
        }
    }

    @Test func aReplacedMapFileIsReopenedAndABrokenOneRefusedUntilFixed() throws {
        let original = try Self.mapPath.get()
        let path = original + ".served-\(UUID().uuidString.prefix(6))"
        try FileManager.default.copyItem(atPath: original, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try MapTileReader(path: path)
        let before = try reader.tile(Self.tile)
        #expect(!before.isEmpty)

        // A new map renamed over the served one (as `adasis map import -o` does).
        let copy = path + ".new"
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        #expect(rename(copy, path) == 0)
        #expect(try reader.tile(Self.tile) == before)
        #expect(reader.reopenings == 1)

        // Something that is not a map: a clear error, and no crash.
        try Data("not a map".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try reader.tile(Self.tile)
        } throws: { error in
            "\(error)".contains("the map file \(path) was replaced and cannot be opened")
        }
        try FileManager.default.removeItem(atPath: path)
        #expect { _ = try reader.tile(Self.tile) } throws: { "\($0)".contains("is gone") }

        // A good map again: served again.
        try FileManager.default.copyItem(atPath: original, toPath: path)
        #expect(try reader.tile(Self.tile) == before)
    }
}
