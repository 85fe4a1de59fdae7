import Testing
@testable import GNSS

/// Appends the NMEA checksum to a sentence body written without `$` and `*hh`.
private func sentence(_ body: String) -> Substring {
    var sum: UInt8 = 0
    for byte in body.utf8 { sum ^= byte }
    let hex = String(sum, radix: 16, uppercase: true)
    return Substring("$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n")
}

@Test func realRMCSentenceDecodes() throws {
    // A classic example sentence with its published checksum 6A.
    let line: Substring = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    guard case .success(.rmc(let rmc)) = NMEASentence.parse(line) else { Issue.record("not decoded"); return }
    #expect(rmc.secondsOfDay == 12 * 3600 + 35 * 60 + 19)
    #expect(abs(rmc.latitude! - (48 + 7.038 / 60)) < 1e-9)
    #expect(abs(rmc.longitude! - (11 + 31.0 / 60)) < 1e-9)
    #expect(abs(rmc.speed! - 22.4 * 1852 / 3600) < 1e-9)
    #expect(rmc.course == 84.4)
    #expect(rmc.daysSinceEpoch == NMEASentence.daysFromCivil(year: 1994, month: 3, day: 23))
}

@Test func daysFromCivilMatchesKnownDates() {
    #expect(NMEASentence.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
    #expect(NMEASentence.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
    #expect(NMEASentence.daysFromCivil(year: 2026, month: 11, day: 1) * 86_400 == 1_793_491_200)
}

@Test(arguments: [
    ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B", NMEARejection.checksumMismatch),
    ("GPRMC,123519,A*00", .notASentence),
    ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", .notASentence),
])
func rejectedLines(line: String, reason: NMEARejection) {
    #expect(NMEASentence.parse(Substring(line)) == .failure(reason))
}

@Test func rejectionReasonsForWellFormedButBadContent() {
    #expect(NMEASentence.parse(sentence("GPRMC,123519,A,4807.038,N")) == .failure(.tooFewFields))
    #expect(
        NMEASentence.parse(sentence("GPRMC,12x519,A,4807.038,N,01131.000,E,022.4,084.4,230394,,"))
            == .failure(.badField))
    #expect(
        NMEASentence.parse(sentence("GPRMC,123519,A,9107.038,N,01131.000,E,022.4,084.4,230394,,"))
            == .failure(.positionOutOfRange))
    #expect(NMEASentence.parse(sentence("GPGSV,3,1,11,03,03,111,00")) == .failure(.unsupportedType))
}

/// Found by `Tools/fuzz nmea` (issue 16): a GGA whose satellite count does not fit an Int
/// trapped converting it; it is a bad field like any other.
@Test func ggaWithAnImpossibleSatelliteCountIsABadField() {
    for count in ["1e300", "-3", "1001"] {
        #expect(
            NMEASentence.parse(sentence("GPGGA,100005.00,6010.27001,N,02456.15813,E,1,\(count),1.0,12.0,M,18.5,M,,"))
                == .failure(.badField), "\(count)")
    }
    guard
        case .success(.gga(let gga)) = NMEASentence.parse(
            sentence("GPGGA,100005.00,6010.27001,N,02456.15813,E,1,08,1.0,12.0,M,18.5,M,,"))
    else { Issue.record("a good GGA is not decoded"); return }
    #expect(gga.satellites == 8)
}

@Test func assemblerMergesOneEpochAndCountsBadSentences() throws {
    var assembler = NMEAFixAssembler(userEquivalentRangeError: 5)
    let lines = [
        sentence("GNRMC,101500.00,A,6010.0000,N,02456.4000,E,19.438,90.0,011126,,,A"),
        sentence("GNGGA,101500.00,6010.0000,N,02456.4000,E,1,09,1.2,12.5,M,17.0,M,,"),
        "$GNGGA,garbage*00",
        sentence("GNVTG,90.0,T,,M,19.438,N,36.0,K,A"),
        sentence("GNRMC,101501.00,A,6010.0000,N,02456.4200,E,19.438,90.0,011126,,,A"),
    ]
    var fixes = lines.compactMap { assembler.add(line: $0) }
    if let last = assembler.finish() { fixes.append(last) }
    #expect(fixes.count == 2)
    let first = try #require(fixes.first)
    #expect(first.time == 1_793_491_200 + 10 * 3600 + 15 * 60)
    #expect(abs(first.latitude - (60 + 10.0 / 60)) < 1e-9)
    #expect(abs(first.speed! - 10.0) < 0.001)  // 19.438 kn
    #expect(first.heading == 90)
    #expect(first.altitude == 12.5)
    #expect(first.horizontalAccuracy == 6.0)  // HDOP 1.2 × 5 m
    #expect(first.quality == .fix3D)
    #expect(fixes[1].time == first.time + 1)
    #expect(assembler.rejected[.checksumMismatch] == 1)
}

@Test func ggaOnlyEpochsUseLastDateAndRollOverMidnight() throws {
    var assembler = NMEAFixAssembler()
    // GGA before any date: dropped and counted.
    _ = assembler.add(line: sentence("GPGGA,235958.00,6010.0000,N,02456.4000,E,1,09,1.0,12.5,M,17.0,M,,"))
    _ = assembler.add(line: sentence("GPRMC,235959.00,A,6010.0000,N,02456.4000,E,0.0,0.0,011126,,,A"))
    let emitted = assembler.add(line: sentence("GPGGA,000000.00,6010.0000,N,02456.4000,E,1,09,1.0,12.5,M,17.0,M,,"))
    let last = assembler.finish()
    let beforeMidnight = try #require(emitted)
    let afterMidnight = try #require(last)
    #expect(assembler.epochsWithoutDate == 1)
    #expect(afterMidnight.time - beforeMidnight.time == 1)
}

@Test func voidRMCIsNoFix() throws {
    var assembler = NMEAFixAssembler()
    _ = assembler.add(line: sentence("GPRMC,101500.00,V,6010.0000,N,02456.4000,E,,,011126,,,N"))
    let fix = assembler.finish()
    #expect(try #require(fix).quality == .noFix)
}
