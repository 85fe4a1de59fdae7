import ArgumentParser
import Foundation
import MapView
import SocketCAN
import ViewServer

extension ViewCommand {
    /// Live mode: the frames of `--can` or `--candump` through the reconstructor.
    func runLive() throws {
        do {
            var assets = try ViewPage.assets()
            let styleDocument = try style.map(Self.readStyle) ?? assets["style.json"]!
            assets["style.json"] = styleDocument
            let reader: LiveFrameReader
            if let can {
                // A name that is not there at the start is a mistake; one that goes away later is waited for.
                do { _ = try CANInterfaceStatus(interface: can) } catch {
                    throw ValidationError("--can \(can): \(error)")
                }
                reader = LiveFrameReader(source: .interface(can))
            } else {
                reader = LiveFrameReader(source: try Self.readLog(candump!, pace: speed))
            }
            let tiles = try MapTileReader(path: map)
            let site = ViewSite(
                assets: assets, style: styleDocument, liveSource: reader.sourceName, live: { try reader.document() },
                tiles: { _, address in try tiles.tile(address) })
            reader.start()
            try Self.serve(ViewServer(site: site), address: address, port: port, what: "live from \(reader.sourceName)")
        } catch let error as ExitCode {
            throw error
        } catch {
            printToStandardError("adasis view: \(error)")
            throw ExitCode.failure
        }
    }

    /// The records of a candump log; a malformed line stops the command with its line number.
    static func readLog(_ path: String, pace: Double) throws -> LiveFrameReader.Source {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--candump: cannot read \(path)")
        }
        let parsed = CandumpLog.parse(text: String(decoding: data, as: UTF8.self))
        if let error = parsed.errors.first {
            throw ValidationError("--candump: \(path): \(error) (a candump -L log: (SECONDS) IFACE ID#DATA per line)")
        }
        guard !parsed.records.isEmpty else { throw ValidationError("--candump: \(path) holds no frame") }
        return .log(name: (path as NSString).lastPathComponent, records: parsed.records, pace: pace)
    }
}
