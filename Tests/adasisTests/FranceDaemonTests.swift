import Foundation
import Testing
import TestSupport

/// `adasis run` on the French variant of the two-country map (Data/border/fr-de-border.osm.pbf),
/// on vcan0 in a real kernel, with the shipped legal table: the vehicle drives west from Germany
/// into France (``BorderDaemonTests/drive()``: the German camera at 12.97 after 8 s, the border
/// after 37 s, the French camera at 12.93 after 67 s). No camera spot (PROFILE SHORT 16) ever goes
/// on the bus; the French camera goes as a danger zone (19/20, Value0 = 6) that the reconstructor
/// rebuilds around it, and META-DATA follows the vehicle from Germany (276) into France (250).
@Suite("adasis run into France", .serialized)
struct FranceDaemonTests {
    @Test("no camera on the bus; the French camera as a danger zone; META-DATA DE → FR")
    func intoFrance() throws {
        let (directory, path, map) = try BorderDaemonTests.prepareRun(extract: "fr-de-border.osm.pbf")
        defer { try? FileManager.default.removeItem(at: directory) }
        try (BorderDaemonTests.nmeaConfiguration(map: map, drive: path("drive.nmea")) + "\n").write(
            toFile: path("adasis.toml"), atomically: true, encoding: .utf8)
        let (log, errors) = (path("can.log"), path("adasis.err"))
        let result = try runInVcanKernel(
            scriptFunctions + """
                candump -L vcan0 > '\(log)' &
                dumper=$!
                .build/debug/adasis run --config '\(path("adasis.toml"))' 2> '\(errors)' &
                daemon=$!
                wait_for 240 "the end of the drive" grep -q 'ended: no more fixes' '\(errors)' && sleep 2
                kill -TERM $daemon
                wait $daemon
                status=$?
                sleep 0.3
                kill $dumper
                echo "adasis-exit=$status"
                """)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        #expect(result.stdout.contains("adasis-exit=0"), "\(result.stdout)\n\(daemonLog)")

        let decoded = try runAdasis(["decode", log])
        #expect(decoded.status == 0, "\(decoded.stderr.prefix(500))")
        let lines = decoded.stdout.split(separator: "\n")
        #expect(!lines.contains { $0.contains("ProfileType=16") }, "no safety-camera spot on the bus")
        #expect(lines.contains { $0.contains("ProfileType=19") && $0.contains("Value0=6(") }, "a danger zone start")
        let countries = lines.filter { $0.contains(" metaData ") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("CountryCode=") }.map {
                String($0.dropFirst("CountryCode=".count).prefix { $0 != "(" })
            }
        }
        let fromGermany = countries.drop { $0 != "276" }
        #expect(fromGermany.first == "276" && fromGermany.last == "250", "\(countries)")

        let rebuilt = try runAdasis(["reconstruct", log])
        try #require(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("  object danger_zone (6): "), "\(rebuilt.stdout)")
        #expect(!rebuilt.stdout.contains("speed_camera") && !rebuilt.stdout.contains("average_speed_zone"))
    }
}
