import Foundation
import Testing
import TestSupport

/// `adasis view --can vcan0` in a real kernel: `adasis replay --can vcan0` sends a drive, the view
/// rebuilds it from the bus as an ECU does, survives the interface going down and up, and counts
/// the frames the kernel drops while it reads slower than the bus (as `adasis dump` does).
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
        "the view rebuilds what adasis replay sends on vcan0, the vehicle moves, a down interface is shown and recovered, frames dropped while it lags are counted"
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
                # settled LOG: neither the view nor the candump log LOG took a frame for 1 s (a
                # reader slower than the bus, as in an emulated kernel, is still reading before).
                tally() { live | grep -o '"received":[0-9]*'; wc -l < "$1"; }
                settled() { local before; before=$(tally "$1"); sleep 1; [ "$before" = "$(tally "$1")" ]; }
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
                wait_for 120 "the view and candump to take the replay's last frames" settled '\(d)/bus.log'
                kill $dumper
                echo "AFTER $(live)"
                # A view slower than the bus: stopped while one more POSITION comes and vcan0 goes
                # down, it reads that frame from its queue after the interface is down.
                kill -STOP $viewer
                cansend vcan0 "$(grep -o ' 361#[0-9A-F]*' '\(d)/bus.log' | tail -1 | tr -d ' ')"
                ip link set vcan0 down
                kill -CONT $viewer
                down() { live | grep -q 'vcan0 is down'; }
                wait_for 60 "the view to see vcan0 down" down
                echo "DOWN $(live)"
                ip link set vcan0 up
                \(replay) --duration 5 > /dev/null 2>> '\(d)/replay.err'
                echo "replay2-exit=$?"
                recovered() { live | grep -q '"recoveries":1'; }
                wait_for 60 "the view to recover" recovered
                echo "UP $(live)"
                # A reader slower than the bus: the view and adasis dump stopped while 30 000
                # frames come (more than a socket's receive queue holds: about 5 500 in UML),
                # then a few more once they run.
                .build/debug/adasis dump vcan0 > '\(d)/dump.log' 2> '\(d)/dump.err' &
                dump=$!
                wait_for 60 "adasis dump to listen" grep -q listening '\(d)/dump.err'
                wait_for 120 "the view to take the frames sent so far" settled '\(d)/dump.log'
                echo "BASE $(live)"
                kill -STOP $viewer $dump
                cangen vcan0 -I 7FF -L 8 -D 0011223344556677 -g 0 -n 30000
                kill -CONT $viewer $dump
                # A socket learns of its drops with the first frame queued after them: one more
                # frame every 0.75 s until both readers have drained their queues and counted,
                # then until neither receives more.
                extra=0
                counted() {
                  cansend vcan0 7FF#8899AABBCCDDEEFF; extra=$((extra + 1)); sleep 0.5
                  grep -q 'in all' '\(d)/dump.err' && live | grep -q '"dropped":[1-9]'
                }
                wait_for 120 "the view and adasis dump to count the dropped frames" counted
                wait_for 120 "the readers to take the last frames" settled '\(d)/dump.log'
                echo "extra=$extra"
                echo "DROPS $(live)"
                kill $dump
                echo "dump-lines=$(wc -l < '\(d)/dump.log')"
                echo "dump-dropped=$(grep -o '[0-9]* in all' '\(d)/dump.err' | tail -1 | cut -d' ' -f1)"
                kill $viewer; wait $viewer 2>/dev/null
                echo "viewer-stderr: $(cat '\(d)/view.err')"
                """
        let result = try runInVcanKernel(script)
        try #require(result.status == 0, "vcan-run: \(result.stderr.suffix(3000))")
        #expect(result.stdout.contains("replay-exit=0") && result.stdout.contains("replay2-exit=0"))
        #expect(!result.stderr.contains("timed out"), "\(result.stderr.suffix(2000))")

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
        // One recovery: the frames read from the socket's backlog after vcan0 went down (a view
        // slower than the bus, as in an emulated kernel) were received before it and are no recovery.
        #expect(
            up["problem"] == nil && up["recoveries"] as? Int == 1,
            "recoveries \(up["recoveries"] ?? "none"); the script's errors: \(result.stderr.suffix(2000))")
        #expect(((up["bus"] as? [String: Any])?["received"] as? Int ?? 0) > (bus["received"] as? Int ?? 0))

        // Frames the kernel dropped while the readers were stopped are counted, apart from those
        // received: together they are the frames sent (30 000 and the few after).
        let sent = 30_000 + (try #require(Self.integer("extra", in: result.stdout)))
        // (From when the view had taken every frame before: a slow view may still be reading
        // the second replay's when it shows the recovery.)
        let base = try #require(try Self.document("BASE", in: result.stdout)["bus"] as? [String: Any])
        let drops = try #require(try Self.document("DROPS", in: result.stdout)["bus"] as? [String: Any])
        let dropped = drops["dropped"] as? Int ?? 0
        let receivedSince = (drops["received"] as? Int ?? 0) - (base["received"] as? Int ?? 0)
        #expect(dropped > 0 && receivedSince + dropped == sent, "received \(receivedSince), dropped \(dropped)")
        #expect((drops["not_adasis"] as? Int ?? 0) - (base["not_adasis"] as? Int ?? 0) == receivedSince)
        let dumpLines = try #require(Self.integer("dump-lines", in: result.stdout))
        let dumpDropped = try #require(Self.integer("dump-dropped", in: result.stdout))
        #expect(
            dumpDropped > 0 && dumpLines + dumpDropped == sent,
            "adasis dump: \(dumpLines) lines, \(dumpDropped) dropped")
    }

    /// The integer the script printed as `name=N` (`wc -l` may pad it with blanks).
    static func integer(_ name: String, in output: String) -> Int? {
        scriptValue(name, in: output).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    static func near(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == 2 && b.count == 2 && abs(a[0] - b[0]) <= 2e-7 && abs(a[1] - b[1]) <= 2e-7
    }
}
