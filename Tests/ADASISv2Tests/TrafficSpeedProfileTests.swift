import Foundation
import TestSupport
import Testing
@testable import ADASISv2

/// The traffic-speed profile (PROFILE SHORT, system-specific 21) of Docs/adasis-conventions.md.
@Suite("traffic-speed profile coding")
struct TrafficSpeedProfileTests {
    @Test("speeds go as whole km/h 0…1020, closed as 1021, no data as 1023")
    func codes() {
        #expect(ValueCoding.trafficSpeedCode(.kilometresPerHour(8.4)) == 8)
        #expect(ValueCoding.trafficSpeedCode(.kilometresPerHour(49.5)) == 50)
        #expect(ValueCoding.trafficSpeedCode(.kilometresPerHour(0)) == 0)
        #expect(ValueCoding.trafficSpeedCode(.kilometresPerHour(-3)) == 0)
        #expect(ValueCoding.trafficSpeedCode(.kilometresPerHour(5000)) == 1020)
        #expect(ValueCoding.trafficSpeedCode(.kilometresPerHour(.nan)) == 1023)
        #expect(ValueCoding.trafficSpeedCode(.kilometresPerHour(.infinity)) == 1023)
        #expect(ValueCoding.trafficSpeedCode(.closed) == 1021)
        #expect(ValueCoding.trafficSpeedCode(.noData) == 1023)
    }

    @Test("every 10-bit code reads back to itself, but the unused 1022 (no data)")
    func everyCode() {
        for code in UInt16(0)...1023 {
            let speed = ValueCoding.trafficSpeed(code: code)
            #expect(ValueCoding.trafficSpeedCode(speed) == (code == 1022 ? 1023 : code), "code \(code)")
        }
        #expect(ValueCoding.trafficSpeed(code: 1021) == .closed)
        #expect(ValueCoding.trafficSpeed(code: 1023) == .noData)
        #expect(ValueCoding.trafficSpeed(code: 130) == .kilometresPerHour(130))
    }

    @Test("type 21 is the traffic_speed profile, selected by the default and all presets")
    func selection() {
        #expect(ProfileShortType(rawValue: 21) == .trafficSpeed)
        #expect(SelectableProfile(rawValue: "traffic_speed")?.shortType == .trafficSpeed)
        #expect(MessageSelection(preset: .all).sends(ProfileShortType.trafficSpeed))
        #expect(!MessageSelection(preset: .default).sends(ProfileShortType.trafficSpeed), "no PROFILE SHORT")
        #expect(MessageSelection(preset: .default).profileShortTypes.contains(.trafficSpeed))
        #expect(!MessageSelection(preset: .mini).sends(ProfileShortType.trafficSpeed))
    }

    @Test("cantools reads our traffic-speed frames through the DBC: the type's name and both spots' codes")
    func cantools() throws {
        var message = ProfileShortMessage(offset: 143, pathIndex: 8, profileType: .trafficSpeed, value0: 1021)
        message.distance1 = 10
        message.value1 = ValueCoding.trafficSpeedCode(.kilometresPerHour(25))
        let hex = try ADASISMessage.profileShort(message).encode(byteOrder: .bigEndian).map {
            String(format: "%02X", $0)
        }.joined()
        let script = """
            import cantools, sys
            db = cantools.database.load_file(sys.argv[1])
            m = db.decode_message(0x255, bytes.fromhex(sys.argv[2]), decode_choices=True, scaling=False)
            print(m['ProfileType'], m['Offset'], m['Value0'], m['Distance1'], m['Value1'])
            print(db.get_message_by_frame_id(0x255).get_signal_by_name('Value0').comment)
            """
        let run = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", script, Repository.url("Tools/adasis-v2.dbc").path, hex])
        #expect(run.status == 0, "\(run.stderr) (pip install cantools if it is missing)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first == "traffic speed 143 1021 10 25", "\(run.stdout)")
        #expect(
            lines.last?.contains("for 21 the traffic speed in km/h 0..1020, 1021 = road closed, 1023 = no data") == true
        )
    }
}
