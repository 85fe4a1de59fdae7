import Foundation
import Testing
import TestSupport

/// The synthetic two-country map through the commands: `adasis map import` finds Austria and
/// Germany from the boundaries, `adasis replay` of the drive across the border puts META-DATA on
/// vcan0 in a real kernel, and `adasis reconstruct` of what candump recorded reports the country
/// and region changing from Salzburg (AT-5) to Bayern (DE-BY).
@Suite("two countries through the commands", .serialized)
struct BorderReplayTests {
    static let mapPath: Result<String, Error> = Result {
        let path = ScratchDirectory.path("border.map")
        let result = try runAdasis(["map", "import", "Data/border/de-at-border.osm.pbf", "-o", path])
        guard result.status == 0 else { throw ImportFailure(message: result.stderr) }
        return path
    }

    struct ImportFailure: Error { var message: String }

    @Test("replay of the border drive to vcan0: the receiver sees Austria, then Germany")
    func replayAcrossTheBorder() throws {
        try requireBuiltAdasis()
        let map = try Self.mapPath.get()
        let info = try runAdasis(["map", "info", map])
        #expect(info.stdout.contains("AT (") && info.stdout.contains("DE ("), "\(info.stdout)")
        let result = try runInVcanKernel(
            """
            set -e
            log=$(mktemp); trap 'rm -f "$log" "$log.err"' EXIT
            candump -L vcan0 > "$log" &
            dumper=$!
            sleep 1
            .build/debug/adasis replay --map '\(map)' Data/border/border-drive.csv --can vcan0 --speed 40 2> "$log.err" || { cat "$log.err" >&2; exit 1; }
            cat "$log.err" >&2
            Tools/candump-wait "$log" --report "$log.err"
            kill $dumper; wait $dumper || true
            cat "$log"
            """)
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)")
        let log = ScratchDirectory.path("border.log")
        defer { unlink(log) }
        try result.stdout.write(toFile: log, atomically: true, encoding: .utf8)
        let rebuilt = try runAdasis(["reconstruct", log])
        try #require(rebuilt.status == 0, "\(rebuilt.stderr)")
        let changes = try #require(
            rebuilt.stdout.split(separator: "\n").first { $0.hasPrefix("country changes: ") },
            "\(rebuilt.stdout.prefix(600))")
        let places = changes.dropFirst("country changes: ".count).components(separatedBy: " → ").map {
            $0.split(separator: " ", maxSplits: 2).dropFirst(2).joined()
        }
        #expect(places.suffix(2) == ["AT/AUT AT-5", "DE/DEU DE-BY"], "\(changes)")
        #expect(rebuilt.stdout.contains("meta-data: country 276"), "\(rebuilt.stdout.prefix(400))")
    }

    @Test("adasis horizon: the German camera ahead is hidden by the shipped table, shown without rules")
    func horizonWithRules() throws {
        try requireBuiltAdasis()
        let map = try Self.mapPath.get()
        let directory = ScratchDirectory.url("rules")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let none = directory.appendingPathComponent("none.toml").path
        let bad = directory.appendingPathComponent("bad.toml").path
        try "# no rows: every safety location is reported\n".write(toFile: none, atomically: true, encoding: .utf8)
        try "[country.DE]\nsafety_locations = false\nsorce = \"StVO\"\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        // 130 s: the vehicle is 390 m before the border, in Austria; the German camera is 1.9 km ahead.
        let arguments = ["horizon", "--map", map, "Data/border/border-drive.csv", "--at", "130"]
        let shipped = try runAdasis(arguments)
        #expect(shipped.status == 0, "\(shipped.stderr)")
        #expect(!shipped.stdout.contains("\"camera\""), "\(shipped.stdout)")
        let open = try runAdasis(arguments + ["--safety-rules", none])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout.contains("\"camera\"") && open.stdout.contains("fixedSpeed"), "\(open.stdout)")
        let refused = try runAdasis(arguments + ["--safety-rules", bad])
        #expect(refused.status != 0 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("\(bad):3: country.DE.sorce: unknown key"), "\(refused.stderr)")
    }
}
