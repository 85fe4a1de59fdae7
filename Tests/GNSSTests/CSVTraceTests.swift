import Testing
@testable import GNSS

@Test func columnsAreFoundByNameAndExtrasIgnored() throws {
    let text = """
        way_id,heading_deg,time_s,lon,lat,speed_mps,accuracy_m
        4252352,90,0,24.9400,60.1700,13.9,3.5
        4252352,-90,1,24.9402,60.1700,,\r
        """
    let trace = try CSVTrace.parse(text)
    #expect(trace.skipped.isEmpty)
    #expect(trace.fixes.count == 2)
    #expect(
        trace.fixes[0]
            == GNSSFix(
                time: 0, latitude: 60.17, longitude: 24.94, horizontalAccuracy: 3.5,
                speed: 13.9, heading: 90))
    #expect(trace.fixes[1].speed == nil)
    #expect(trace.fixes[1].heading == 270)
}

@Test func missingColumnIsAClearError() {
    #expect(throws: TraceProblem(line: 1, kind: .missingColumn("heading_deg"))) {
        try CSVTrace.parse("time_s,lat,lon,speed_mps\n0,60,24,1\n")
    }
    #expect(throws: TraceProblem(line: 0, kind: .emptyFile)) { try CSVTrace.parse("") }
}

@Test func badRowsAreSkippedWithTheirLineNumbers() throws {
    let text = """
        time_s,lat,lon,speed_mps,heading_deg
        0,60.17,24.94,10,90
        1,91.0,24.94,10,90
        2,60.17
        3,60.17,abc,10,90

        5,60.17,24.95,10,90
        """
    let trace = try CSVTrace.parse(text)
    #expect(trace.fixes.map(\.time) == [0, 5])
    #expect(
        trace.skipped == [
            TraceProblem(line: 3, kind: .badValue(column: "lat", value: "91.0")),
            TraceProblem(line: 4, kind: .tooFewFields(expected: 5, found: 2)),
            TraceProblem(line: 5, kind: .badValue(column: "lon", value: "abc")),
        ])
    #expect(trace.skipped[0].description == "line 3: '91.0' is not a valid lat; row skipped")
}

@Test func velocityAccuraciesAreReadWhenTheirColumnsAreThere() throws {
    let text = """
        time_s,lat,lon,speed_mps,heading_deg,speed_accuracy_mps,heading_accuracy_deg
        0,60.17,24.94,10,90,0.05,0.5
        1,60.17,24.9402,10,90,,
        2,60.17,24.9404,10,90,-0.1,0.5
        3,60.17,24.9406,10,90,0.05,400
        """
    let trace = try CSVTrace.parse(text)
    #expect(trace.fixes.map(\.time) == [0, 1])
    #expect(trace.fixes[0].speedAccuracy == 0.05 && trace.fixes[0].headingAccuracy == 0.5)
    #expect(trace.fixes[1].speedAccuracy == nil && trace.fixes[1].headingAccuracy == nil)
    #expect(
        trace.skipped == [
            TraceProblem(line: 4, kind: .badValue(column: "speed_accuracy_mps", value: "-0.1")),
            TraceProblem(line: 5, kind: .badValue(column: "heading_accuracy_deg", value: "400")),
        ])
}
