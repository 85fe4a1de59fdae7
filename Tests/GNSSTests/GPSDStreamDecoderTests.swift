import Testing
@testable import GNSS

@Suite("gpsd stream decoding")
struct GPSDStreamDecoderTests {
    @Test("the real capture gives one fix per epoch, in time order, and counts everything else")
    func realCapture() {
        var decoder = GPSDStreamDecoder()
        let fixes = decoder.feed(Array(gpsdCapture.utf8))
        #expect(fixes.map(\.time) == (9...19).map { berlinStart + Double($0) })
        for fix in fixes {
            let k = fix.time - berlinStart
            #expect(abs(fix.latitude - (52.52 + k * 0.00005)) < 1e-9)
            #expect(abs(fix.longitude - (13.405 + k * 0.00025)) < 1e-9)
            #expect(fix.speed == 20.012 && fix.heading == 71.3)
        }
        #expect(decoder.lines == 42)
        #expect(decoder.fixes == 11)
        #expect(decoder.repeatedEpochs == 2)
        #expect(decoder.malformedLines == 0)
        #expect(decoder.reportsWithoutFix == 0)
        #expect(decoder.ignoredReports == ["VERSION": 1, "DEVICES": 1, "WATCH": 1, "DEVICE": 2, "SKY": 12, "GST": 12])
    }

    @Test("bytes split anywhere give the same fixes as one feed")
    func splitFeeds() {
        let bytes = Array(gpsdCapture.utf8)
        var whole = GPSDStreamDecoder()
        let expected = whole.feed(bytes)
        for chunk in [1, 7, 100, 4096] {
            var decoder = GPSDStreamDecoder()
            var fixes: [GNSSFix] = []
            var start = 0
            while start < bytes.count {
                fixes += decoder.feed(bytes[start..<min(start + chunk, bytes.count)])
                start += chunk
            }
            #expect(fixes == expected, "chunk \(chunk)")
            #expect(decoder.lines == whole.lines)
        }
    }

    @Test("malformed, blank, CRLF and no-fix lines are counted and skipped, never fatal")
    func badLines() {
        var decoder = GPSDStreamDecoder()
        let text = """
            garbage\r
            \r

            {"class":"TPV","mode":1}\r
            {"class":"TPV","mode":3,"lat":"x"}
            {"class":"TPV","mode":3,"time":"2026-03-14T10:00:01.000Z","lat":52.52,"lon":13.4}\r
            {"class":"TPV","mode":3,"time":"2026-03-14T10:00:00.000Z","lat":52.52,"lon":13.4}

            """
        let fixes = decoder.feed(Array(text.utf8))
        #expect(fixes.count == 1)
        #expect(fixes.first?.time == berlinStart + 1)
        #expect(decoder.lines == 7)
        #expect(decoder.malformedLines == 2)
        #expect(decoder.reportsWithoutFix == 1)
        #expect(decoder.lateReports == 1, "an earlier time after a later one is not a new fix")
        #expect(decoder.repeatedEpochs == 0)
        #expect(decoder.lastProblem?.kind == .badMember("lat"))
        #expect(decoder.skipped.countsByReason == ["not a report": 1, "bad lat": 1, "late": 1])
        #expect(decoder.skipped.examples.map(\.line) == [1, 5, 7])
    }

    @Test("a receiver reset (time back by more than 2 s) is kept and counted; the fixes after it go on")
    func receiverReset() {
        var decoder = GPSDStreamDecoder()
        func tpv(_ time: String) -> String {
            "{\"class\":\"TPV\",\"mode\":3,\"time\":\"2026-03-14T\(time)Z\",\"lat\":52.52,\"lon\":13.4}\n"
        }
        let text = tpv("10:00:10") + tpv("10:00:11") + tpv("10:00:00") + tpv("10:00:01") + tpv("10:00:00.5")
        let fixes = decoder.feed(Array(text.utf8))
        #expect(fixes.map { $0.time - berlinStart } == [10, 11, 0, 1])
        #expect(decoder.receiverResets == 1)
        #expect(decoder.lateReports == 1, "half a second back is a late report, not a reset")
        #expect(decoder.skipped.countsByReason == ["late": 1])
    }

    @Test("a TPV report older than the fix before it is skipped as late, with its line; a repeated epoch is not")
    func lateReports() {
        var decoder = GPSDStreamDecoder()
        func tpv(_ time: String) -> String {
            "{\"class\":\"TPV\",\"mode\":3,\"time\":\"2026-03-14T\(time)Z\",\"lat\":52.52,\"lon\":13.4}\n"
        }
        // gpsd repeats 10:00:02 as the cycle fills in (not late); 10:00:01.5 and 10:00:00.2 arrive
        // after 10:00:02 superseded them (late); 10:00:03 goes on.
        let text =
            tpv("10:00:01") + tpv("10:00:02") + tpv("10:00:02") + tpv("10:00:01.5") + tpv("10:00:00.2")
            + tpv("10:00:03")
        let fixes = decoder.feed(Array(text.utf8))
        #expect(fixes.map { $0.time - berlinStart } == [1, 2, 3])
        #expect(decoder.repeatedEpochs == 1)
        #expect(decoder.lateReports == 2)
        #expect(decoder.receiverResets == 0, "1.8 s back is late, not a reset")
        #expect(decoder.skipped.countsByReason == ["late": 2])
        #expect(decoder.skipped.examples.map(\.line) == [4, 5])
        #expect(decoder.skipped.examples.first?.description.contains("0.5 s older than the fix before it") == true)
        #expect(decoder.malformedLines == 0, "a late report is well formed")
    }

    @Test("an over-long line is discarded up to its newline; decoding resumes after it")
    func overlongLine() {
        var decoder = GPSDStreamDecoder()
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: GPSDStreamDecoder.maximumLineLength + 10)
        bytes += Array("\n{\"class\":\"TPV\",\"mode\":2,\"time\":\"2026-03-14T10:00:00Z\",\"lat\":1,\"lon\":2}\n".utf8)
        let fixes = decoder.feed(bytes)
        #expect(fixes.count == 1)
        #expect(decoder.malformedLines == 1)
        #expect(decoder.lastProblem?.kind == .lineTooLong)
        #expect(decoder.lines == 2)
    }

    @Test("a partial line can be discarded after a lost connection")
    func discardPartial() {
        var decoder = GPSDStreamDecoder()
        _ = decoder.feed(Array(#"{"class":"TPV","mode":3,"ti"#.utf8))
        decoder.discardPartialLine()
        let fixes = decoder.feed(
            Array("{\"class\":\"TPV\",\"mode\":2,\"time\":\"2026-03-14T10:00:00Z\",\"lat\":1,\"lon\":2}\n".utf8))
        #expect(fixes.count == 1)
        #expect(decoder.malformedLines == 0)
    }
}
