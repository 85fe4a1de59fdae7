import Testing
@testable import GNSS

@Suite struct GPXTraceTests {
    @Test func validTrackWithExtensionsIsRead() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
              <!-- a drive <trkpt> in a comment is not a point -->
              <trk><name><![CDATA[Helsinki <test>]]></name><trkseg>
                <trkpt lat="60.1700" lon="24.9400"><ele>12.5</ele><time>2024-05-01T12:00:00Z</time>
                  <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>13.9</gpxtpx:speed>
                  <gpxtpx:course>-90</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
                </trkpt>
                <trkpt lon='24.9402' lat='60.1701'>
                  <time>2024-05-01T12:00:01.500Z</time>
                </trkpt>
                <trkpt lat="60.1702" lon="24.9404"><time>2024-05-01T14:00:03+02:00</time><hdop>1.2</hdop></trkpt>
              </trkseg></trk>
            </gpx>
            """
        let fixes = try GPXTrace.parse(text: text)
        #expect(fixes.count == 3)
        #expect(
            fixes[0] == GNSSFix(time: 0, latitude: 60.17, longitude: 24.94, speed: 13.9, heading: 270, altitude: 12.5))
        #expect(fixes[1] == GNSSFix(time: 1.5, latitude: 60.1701, longitude: 24.9402))
        #expect(fixes[2].time == 3)
    }

    @Test func gpx10SpeedAndCourseInsideThePoint() throws {
        let text = """
            <gpx version="1.0"><trk><trkseg>
            <trkpt lat="-33.9" lon="151.2"><time>2023-12-31T23:59:59Z</time><speed>2.5</speed><course>359.5</course></trkpt>
            <trkpt lat="-33.9001" lon="151.2"><time>2024-01-01T00:00:01Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let fixes = try GPXTrace.parse(text: text)
        #expect(fixes.map(\.time) == [0, 2])
        #expect(fixes[0].speed == 2.5 && fixes[0].heading == 359.5)
    }

    @Test func missingLatitudeNamesTheLine() {
        let text =
            "<gpx>\n<trk><trkseg>\n<trkpt lat=\"60\" lon=\"25\"><time>2024-05-01T12:00:00Z</time></trkpt>\n"
            + "<trkpt lon=\"25\"><time>2024-05-01T12:00:01Z</time></trkpt>\n</trkseg></trk></gpx>"
        #expect(throws: GPXTraceError(line: 4, kind: .missingAttribute("lat"))) { try GPXTrace.parse(text: text) }
        #expect(GPXTraceError(line: 4, kind: .missingAttribute("lat")).description.hasPrefix("line 4:"))
    }

    @Test func badValuesAndTimesNameTheLine() {
        func point(_ attributes: String, _ body: String) -> String {
            "<gpx>\n<trk><trkseg>\n<trkpt \(attributes)>\n\(body)\n</trkpt></trkseg></trk></gpx>"
        }
        let time = "<time>2024-05-01T12:00:00Z</time>"
        #expect(throws: GPXTraceError(line: 4, kind: .badTime("yesterday"))) {
            try GPXTrace.parse(text: point("lat=\"60\" lon=\"25\"", "<time>yesterday</time>"))
        }
        #expect(throws: GPXTraceError(line: 4, kind: .badTime("2024-02-30T12:00:00Z"))) {
            try GPXTrace.parse(text: point("lat=\"60\" lon=\"25\"", "<time>2024-02-30T12:00:00Z</time>"))
        }
        #expect(throws: GPXTraceError(line: 3, kind: .badValue(field: "lat", value: "91"))) {
            try GPXTrace.parse(text: point("lat=\"91\" lon=\"25\"", time))
        }
        #expect(throws: GPXTraceError(line: 4, kind: .badValue(field: "speed", value: "-3"))) {
            try GPXTrace.parse(text: point("lat=\"60\" lon=\"25\"", time + "<speed>-3</speed>"))
        }
        #expect(throws: GPXTraceError(line: 3, kind: .missingTime)) {
            try GPXTrace.parse(text: point("lat=\"60\" lon=\"25\"", "<ele>3</ele>"))
        }
    }

    @Test func emptyAndBrokenDocumentsAreErrors() {
        #expect(throws: GPXTraceError(line: 0, kind: .noTrackPoints)) { try GPXTrace.parse(text: "") }
        #expect(throws: GPXTraceError(line: 0, kind: .noTrackPoints)) {
            try GPXTrace.parse(text: "<?xml version=\"1.0\"?>\n<gpx><trk><trkseg></trkseg></trk></gpx>")
        }
        #expect(throws: GPXTraceError(line: 2, kind: .malformed("unterminated <trkpt> tag"))) {
            try GPXTrace.parse(text: "<gpx>\n<trkpt lat=\"60\" lon=\"25\"")
        }
        #expect(throws: GPXTraceError(line: 2, kind: .malformed("the document ends inside a <trkpt>"))) {
            try GPXTrace.parse(text: "<gpx>\n<trkpt lat=\"60\" lon=\"25\"><time>2024-05-01T12:00:00Z</time>")
        }
        #expect(throws: GPXTraceError(line: 1, kind: .malformed("unterminated comment"))) {
            try GPXTrace.parse(text: "<gpx><!-- never closed\n")
        }
    }

    @Test func mangledDocumentsNeverCrash() {
        let valid = Array(
            """
            <?xml version="1.0"?><gpx><!-- c --><trk><trkseg>
            <trkpt lat="60.17" lon="24.94"><ele>1</ele><time>2024-05-01T12:00:00.5+02:00</time>
            <extensions><x:speed>3</x:speed><x:course>10</x:course></extensions></trkpt>
            <trkpt lat='60.18' lon='24.95'><time>2024-05-01T12:00:01Z</time><name><![CDATA[a]]></name></trkpt>
            </trkseg></trk></gpx>
            """.utf8)
        var state: UInt64 = 0x5EED
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var parsed = 0, rejected = 0
        for _ in 0..<3000 {
            var bytes = valid
            switch random(3) {
            case 0: bytes.removeLast(random(bytes.count))
            case 1: for _ in 0..<(1 + random(4)) { bytes[random(bytes.count)] = UInt8(random(256)) }
            default: bytes.insert(contentsOf: bytes[random(bytes.count)...].prefix(random(20)), at: random(bytes.count))
            }
            do {
                _ = try GPXTrace.parse(text: String(decoding: bytes, as: UTF8.self))
                parsed += 1
            } catch {
                #expect(!error.description.isEmpty)
                rejected += 1
            }
        }
        #expect(parsed > 0 && rejected > 0)
    }

    @Test func iso8601Times() {
        #expect(ISO8601Time.seconds("1970-01-01T00:00:00Z") == 0)
        #expect(ISO8601Time.seconds("2000-03-01T00:00:00Z") == 951_868_800)
        #expect(ISO8601Time.seconds("2024-05-01T12:00:00.25Z") == 1_714_564_800.25)
        #expect(ISO8601Time.seconds("2024-05-01T14:00:00+02:00") == 1_714_564_800)
        #expect(ISO8601Time.seconds("2024-05-01T11:30:00-0030") == 1_714_564_800)
        #expect(ISO8601Time.seconds("2024-05-01T12:00:00") == 1_714_564_800)
        for bad in [
            "2024-05-01", "2024-13-01T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:00:00Q",
            "2024-05-01T12:00:00.Z", "2023-02-29T00:00:00Z",
        ] {
            #expect(ISO8601Time.seconds(bad) == nil, "\(bad)")
        }
    }
}
