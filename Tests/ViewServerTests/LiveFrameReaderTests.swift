import Foundation
import MapView
import SocketCAN
import TestSupport
import Testing

@testable import ViewServer

/// The live reader's candump playback (the CAN path runs in a kernel: adasisTests/ViewLiveKernelTests).
struct LiveFrameReaderTests {
    @Test func aLogIsPlayedAtItsPaceThroughTheReconstructorAndItsEndIsShown() throws {
        let text = try String(contentsOf: Repository.url("Tools/sample-frames.log"), encoding: .utf8)
        let records = CandumpLog.parse(text: text + "(0.060000) vcan0 123#0102\n").records
        try #require(records.count == 7)
        let reader = LiveFrameReader(source: .log(name: "sample-frames.log", records: records, pace: 1))
        let started = Date()
        reader.play(records, name: "sample-frames.log", pace: 1)
        // 60 ms of log at its own pace: not all at once.
        #expect(Date().timeIntervalSince(started) >= 0.055)
        let live = reader.current
        #expect(live.framesReceived == 7 && live.framesNotADASIS == 1)
        #expect(live.reconstructor.horizon.counters.values.reduce(0) { $0 + $1.received } == 6)
        #expect(live.recentFrames.map(\.id) == ["0x362", "0x250", "0x255", "0x251", "0x250", "0x361"])
        #expect(live.sourceProblem?.reason == "the log sample-frames.log ended (7 frames played)")
        let document = try JSONSerialization.jsonObject(with: try reader.document()) as? [String: Any]
        #expect(document?["source"] as? String == "sample-frames.log")
    }
}
