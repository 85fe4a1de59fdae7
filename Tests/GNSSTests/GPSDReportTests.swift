import Foundation
import Testing
@testable import GNSS
import TestSupport

/// Real gpsd 3.22 output: `gpspipe -w` against `gpsfake -1 -c 0.05 Fixtures/berlin-2026.nmea`
/// (empty if the file is missing, which makes the tests that use it fail on their counts).
let gpsdCapture =
    (try? String(
        contentsOf: Repository.url("Tests/GNSSTests/Fixtures/gpsd-3.22-watch.jsonl"), encoding: .utf8)) ?? ""

/// 2026-03-14T10:00:00Z, the first epoch of Fixtures/berlin-2026.nmea, in Unix seconds.
let berlinStart = 1_773_482_400.0

@Suite("gpsd report decoding")
struct GPSDReportTests {
    @Test("a real 3-D TPV line becomes a fix with every member converted")
    func realTPV() throws {
        let line =
            #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-03-14T10:00:10.000Z","ept":0.005,"lat":52.520500000,"lon":13.407500000,"altHAE":74.9000,"altMSL":35.5000,"alt":35.5000,"epx":18.020,"epy":14.111,"epv":29.900,"track":71.3000,"magtrack":75.3598,"magvar":4.1,"speed":20.012,"climb":0.100,"eps":36.04,"epc":59.80,"geoidSep":39.400,"eph":17.100,"sep":30.400}"#
        guard case .position(let position) = try GPSDReport.decode(line) else {
            Issue.record("not a position"); return
        }
        #expect(position.mode == 3)
        #expect(position.eph == 17.1 && position.epx == 18.02 && position.epy == 14.111)
        let fix = try #require(position.fix)
        #expect(fix.time == berlinStart + 10)
        #expect(fix.latitude == 52.5205 && fix.longitude == 13.4075)
        #expect(fix.altitude == 35.5)
        #expect(fix.speed == 20.012 && fix.heading == 71.3)
        #expect(fix.quality == .fix3D)
        #expect(abs(fix.horizontalAccuracy! - 17.1 / 1.96) < 1e-12)
        // eps (95 %) becomes the speed's 1-sigma accuracy; no epd, no course accuracy.
        #expect(fix.speedAccuracy == 36.04 / 1.96 && fix.headingAccuracy == nil)
    }

    @Test("eps and epd, 95 % confidence, become the speed's and the course's 1-sigma accuracy")
    func velocityAccuracy() throws {
        let line =
            #"{"class":"TPV","mode":3,"time":"2026-03-14T10:00:10.000Z","lat":52.5,"lon":13.4,"speed":12.5,"track":80.0,"eps":0.098,"epd":0.98}"#
        guard case .position(let position) = try GPSDReport.decode(line) else {
            Issue.record("not a position"); return
        }
        let fix = try #require(position.fix)
        #expect(abs(fix.speedAccuracy! - 0.05) < 1e-12 && abs(fix.headingAccuracy! - 0.5) < 1e-12)
    }

    @Test("a real 2-D TPV line: no altitude, no error estimate, quality fix2D")
    func realTwoDimensionalTPV() throws {
        let line =
            #"{"class":"TPV","device":"/dev/pts/1","mode":2,"time":"2026-03-14T10:00:09.000Z","ept":0.005,"lat":52.520450000,"lon":13.407250000,"track":71.3000,"magtrack":75.3597,"magvar":4.1,"speed":20.012}"#
        guard case .position(let position) = try GPSDReport.decode(line) else {
            Issue.record("not a position"); return
        }
        let fix = try #require(position.fix)
        #expect(fix.quality == .fix2D)
        #expect(fix.altitude == nil && fix.horizontalAccuracy == nil)
        #expect(fix.time == berlinStart + 9)
    }

    @Test("TPV without time, or with mode 0/1, has no fix")
    func reportsWithoutFix() throws {
        // Real gpsd lines: a fix before the receiver's time is known, and a no-fix report.
        let noTime =
            #"{"class":"TPV","device":"/dev/pts/1","mode":3,"lat":52.520350000,"lon":13.406750000,"altHAE":74.6000,"altMSL":35.2000,"alt":35.2000,"magvar":4.1,"geoidSep":39.400,"eph":17.100}"#
        let noFix = #"{"class":"TPV","device":"/dev/ttyACM0","mode":1}"#
        let unknown = #"{"class":"TPV","device":"/dev/ttyACM0","mode":0,"time":"2026-03-14T10:00:00.000Z"}"#
        for line in [noTime, noFix, unknown] {
            guard case .position(let position) = try GPSDReport.decode(line) else {
                Issue.record("not a position: \(line)"); continue
            }
            #expect(position.fix == nil, "\(line)")
        }
    }

    @Test("status maps to differential, RTK and dead-reckoning quality")
    func statusQuality() {
        func quality(_ status: Int?) -> FixQuality? {
            GPSDReport.Position(time: 1, latitude: 1, longitude: 1, mode: 3, status: status).fix?.quality
        }
        #expect(quality(nil) == .fix3D && quality(1) == .fix3D)
        #expect(quality(2) == .differential)
        #expect(quality(3) == .rtk && quality(4) == .rtk)
        #expect(quality(5) == .deadReckoning && quality(6) == .deadReckoning)
    }

    @Test("horizontal accuracy prefers eph, else combines epx and epy, all 95 % → 1 sigma")
    func accuracy() {
        let both = GPSDReport.Position(mode: 3, eph: 9.8, epx: 3, epy: 4)
        #expect(abs(both.horizontalAccuracy! - 5) < 1e-12)
        let axes = GPSDReport.Position(mode: 3, epx: 3 * 1.96, epy: 4 * 1.96)
        #expect(abs(axes.horizontalAccuracy! - 5) < 1e-12)
        #expect(GPSDReport.Position(mode: 3, epx: 3).horizontalAccuracy == nil)
    }

    @Test("altMSL wins over the older alt member; alt alone is used when altMSL is absent")
    func altitudeMembers() throws {
        let old = #"{"class":"TPV","mode":3,"time":"2026-03-14T10:00:00Z","lat":1,"lon":2,"alt":12.5}"#
        guard case .position(let position) = try GPSDReport.decode(old) else { Issue.record("no position"); return }
        #expect(position.altitude == 12.5)
        #expect(position.fix?.time == berlinStart)
    }

    @Test("other classes of the real capture are ignored by name")
    func otherClasses() throws {
        let lines = gpsdCapture.split(whereSeparator: \.isNewline).filter { !$0.contains(#""class":"TPV""#) }
        var names: [String: Int] = [:]
        for line in lines {
            guard case .ignored(let name) = try GPSDReport.decode(line) else {
                Issue.record("decoded as position: \(line)"); continue
            }
            names[name, default: 0] += 1
        }
        #expect(names == ["VERSION": 1, "DEVICES": 1, "WATCH": 1, "DEVICE": 2, "SKY": 12, "GST": 12])
    }

    @Test(
        "malformed lines throw typed errors naming the problem",
        arguments: [
            ("not json at all", GPSDReportError.Kind.notAReport),
            (#"{"class":"TPV","mode":3,"time":"2026-03-14T10:00:0"#, .notAReport),
            (#"{"mode":3}"#, .notAReport),
            (#"[1,2,3]"#, .notAReport),
            (#"{"class":"TPV","mode":"3"}"#, .badMember("mode")),
            (#"{"class":"TPV","mode":3,"lat":"52.5"}"#, .badMember("lat")),
            (#"{"class":"TPV","mode":3,"lat":95.0,"lon":13}"#, .badMember("lat")),
            (#"{"class":"TPV","mode":3,"lat":52,"lon":-181}"#, .badMember("lon")),
            (#"{"class":"TPV","mode":3,"time":"yesterday"}"#, .badMember("time")),
            (#"{"class":"TPV","mode":3,"time":"2026-13-14T10:00:00.000Z"}"#, .badMember("time")),
            (#"{"class":"TPV","mode":3,"time":"2026-03-14T10:00:00.000+01:00"}"#, .badMember("time")),
            (#"{"class":"TPV","mode":3,"lat":52,"lon":13,"eps":-0.1}"#, .badMember("eps")),
            (#"{"class":"TPV","mode":3,"lat":52,"lon":13,"epd":"big"}"#, .badMember("epd")),
        ])
    func malformed(line: String, kind: GPSDReportError.Kind) {
        do {
            _ = try GPSDReport.decode(line)
            Issue.record("decoded: \(line)")
        } catch {
            #expect(error.kind == kind, "\(line)")
            #expect(error.description.contains("skipped"))
        }
    }

    @Test(
        "ISO 8601 times with and without fractions",
        arguments: [
            ("2026-03-14T10:00:00Z", 1_773_482_400.0),
            ("2026-03-14T10:00:05.250Z", 1_773_482_405.25),
            ("1970-01-01T00:00:00.000Z", 0),
            ("2028-02-29T23:59:59.5Z", 1_835_481_599.5),
        ])
    func isoTimes(text: String, seconds: Double) {
        #expect(GPSDReport.unixSeconds(iso8601: text) == seconds)
    }
}
