import Foundation
import Testing
import TestSupport

/// `adasis view --can vcan0` in a real kernel: `adasis replay --can vcan0` sends a drive, the view
/// rebuilds it from the bus as an ECU does, and survives the interface going down and up.
@Suite("adasis view live on vcan0", .serialized)
struct ViewLiveKernelTests {
    /// `/live.json` as the script printed it after `label `.
    static func document(_ label: String, in output: String) throws -> [String: Any] {
        let line = try #require(
            output.split(separator: "\n").first { $0.hasPrefix(label + " ") },
            "no \(label) line in: \(output.prefix(2000))")
        let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst(label.count + 1).utf8))
        return try #require(object as? [String: Any], "\(label) is not a JSON object")
    }

    static func features(_ document: [String: Any], kind: String) -> [[String: Any]] {
        let collection = document["features"] as? [String: Any]
        return (collection?["features"] as? [[String: Any]] ?? []).filter {
            ($0["properties"] as? [String: Any])?["kind"] as? String == kind
        }
    }

    static func coordinates(_ feature: [String: Any]) -> [[Double]] {
        ((feature["geometry"] as? [String: Any])?["coordinates"] as? [[Double]]) ?? []
    }

    @Test(
        "the view rebuilds what adasis replay sends on vcan0, the vehicle moves, and a down interface is shown and recovered"
    )
    func liveFromVcan() throws {
        try requireBuiltAdasis()
        let directory = ScratchDirectory.url("view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let map = directory.appendingPathComponent("helsinki.map").path
        let imported = try runAdasis([
            "map", "import", Repository.url("Data/helsinki.osm.pbf").path, "-o", map, "--country", "FI",
        ])
        try #require(imported.status == 0, "map import failed: \(imported.stderr)")
        let d = directory.path
        let replay =
            ".build/debug/adasis replay --map '\(map)' Data/drives/esplanadi.csv --preset all --can vcan0"
        let script =
            scriptFunctions + """
                .build/debug/adasis view --map '\(map)' --can vcan0 --port 0 > '\(d)/view.out' 2> '\(d)/view.err' &
                viewer=$!
                serving() { grep -q "serving http" '\(d)/view.out'; }
                wait_for 120 "adasis view to listen" serving || { cat '\(d)/view.err' >&2; kill $viewer; exit 1; }
                url=$(grep -o 'http://[^ ]*' '\(d)/view.out' | head -1)
                live() { curl -s --max-time 20 "${url}live.json"; }
                echo "BEFORE $(live)"
                candump -L vcan0 > '\(d)/bus.log' &
                dumper=$!
                sleep 0.5
                \(replay) --speed 4 --duration 60 > /dev/null 2> '\(d)/replay.err' &
                replayer=$!
                placed() { live | grep -q '"kind":"matched"'; }
                wait_for 120 "a POSITION in the live view" placed
                echo "DURING1 $(live)"
                sleep 2
                echo "DURING2 $(live)"
                wait $replayer; echo "replay-exit=$?"
                sleep 1
                kill $dumper
                echo "AFTER $(live)"
                ip link set vcan0 down
                down() { live | grep -q 'vcan0 is down'; }
                wait_for 60 "the view to see vcan0 down" down
                echo "DOWN $(live)"
                ip link set vcan0 up
                \(replay) --duration 5 > /dev/null 2>> '\(d)/replay.err'
                echo "replay2-exit=$?"
                recovered() { live | grep -q '"recoveries":1'; }
                wait_for 60 "the view to recover" recovered
                echo "UP $(live)"
                kill $viewer; wait $viewer 2>/dev/null
                echo "viewer-stderr: $(cat '\(d)/view.err')"
                """
        let result = try runInVcanKernel(script)
        try #require(result.status == 0, "vcan-run: \(result.stderr.suffix(3000))")
        #expect(result.stdout.contains("replay-exit=0") && result.stdout.contains("replay2-exit=0"))

        // Before the replay: no frame, nothing drawn.
        let before = try Self.document("BEFORE", in: result.stdout)
        #expect(before["mode"] as? String == "live" && before["source"] as? String == "vcan0")
        #expect(before["last_frame_s"] == nil && Self.features(before, kind: "main_path").isEmpty)

        // While it plays, the vehicle moves.
        let first = try #require(Self.features(try Self.document("DURING1", in: result.stdout), kind: "matched").first)
        let second = try #require(Self.features(try Self.document("DURING2", in: result.stdout), kind: "matched").first)
        #expect(
            (first["geometry"] as? [String: Any])?["coordinates"] as? [Double]
                != (second["geometry"] as? [String: Any])?["coordinates"] as? [Double])

        // After it: the main path is the one the reconstructor rebuilds from the bus's candump.
        let after = try Self.document("AFTER", in: result.stdout)
        let bus = try #require(after["bus"] as? [String: Any])
        #expect((bus["undecodable"] as? Int) == 0 && (bus["not_adasis"] as? Int) == 0)
        let rebuilt = try runAdasis(["reconstruct", "\(d)/bus.log", "--geojson"])
        try #require(rebuilt.status == 0, "adasis reconstruct: \(rebuilt.stderr)")
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(rebuilt.stdout.utf8)) as? [String: Any])
        let paths = try #require(collection["features"] as? [[String: Any]])
        let main = try #require(paths.first { ($0["properties"] as? [String: Any])?["main"] as? Bool == true })
        var expected = Self.coordinates(main)
        var shown: [[Double]] = []
        for feature in Self.features(after, kind: "trailing") + Self.features(after, kind: "main_path") {
            for point in Self.coordinates(feature) where shown.last.map({ !Self.near($0, point) }) ?? true {
                shown.append(point)
            }
        }
        #expect(shown.count == expected.count || shown.count == expected.count + 1)
        for point in shown where expected.first.map({ Self.near($0, point) }) ?? false { expected.removeFirst() }
        #expect(expected.isEmpty, "shape points of the rebuilt main path not shown: \(expected.prefix(5))")
        #expect(
            Self.features(after, kind: "main_path").allSatisfy {
                ($0["properties"] as? [String: Any])?["way_id"] != nil
            })

        // Down: said so; up again: frames come, the problem goes.
        let down = try Self.document("DOWN", in: result.stdout)
        #expect((down["problem"] as? [String: Any])?["reason"] as? String == "vcan0 is down")
        let up = try Self.document("UP", in: result.stdout)
        #expect(up["problem"] == nil && up["recoveries"] as? Int == 1)
        #expect(((up["bus"] as? [String: Any])?["received"] as? Int ?? 0) > (bus["received"] as? Int ?? 0))
    }

    static func near(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == 2 && b.count == 2 && abs(a[0] - b[0]) <= 2e-7 && abs(a[1] - b[1]) <= 2e-7
    }
}
