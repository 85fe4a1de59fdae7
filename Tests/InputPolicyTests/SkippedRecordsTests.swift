import InputPolicy
import Testing

@Suite("skipped records")
struct SkippedRecordsTests {
    static func record(_ line: Int, _ reason: String) -> SkippedRecord {
        SkippedRecord(line: line, reason: reason, detail: "\(reason) here")
    }

    @Test("every record is counted by reason; only the first few are kept, and the rest are named by count")
    func countsAndExamples() {
        var skipped = SkippedRecords(exampleLimit: 2)
        for line in 1...7 { skipped.add(Self.record(line * 10, line % 3 == 0 ? "bad lat" : "checksum mismatch")) }
        #expect(skipped.count == 7)
        #expect(skipped.countsByReason == ["checksum mismatch": 5, "bad lat": 2])
        #expect(skipped.examples.map(\.line) == [10, 20])
        #expect(
            skipped.description
                == "7 skipped (5 checksum mismatch, 2 bad lat): line 10: checksum mismatch here; "
                + "line 20: checksum mismatch here; … and 5 more")
    }

    @Test("under the strict policy the first bad record is thrown with its line, and nothing is counted")
    func strict() {
        var skipped = SkippedRecords()
        #expect(throws: BadRecordError(record: Self.record(3, "bad lat"))) {
            try skipped.add(Self.record(3, "bad lat"), policy: .strict)
        }
        #expect(skipped.isEmpty)
        #expect(BadRecordError(record: Self.record(3, "bad lat")).description.hasPrefix("line 3: bad lat here"))
    }

    @Test("appending a later part keeps the counts and fills the examples up to the limit")
    func append() {
        var first = SkippedRecords(exampleLimit: 3)
        first.add(Self.record(1, "a"))
        var second = SkippedRecords()
        for line in 2...5 { second.add(Self.record(line, "b")) }
        first.append(second)
        #expect(first.count == 5)
        #expect(first.countsByReason == ["a": 1, "b": 4])
        #expect(first.examples.map(\.line) == [1, 2, 3])
    }
}
