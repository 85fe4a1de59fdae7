import Foundation
import RoadMap
import Testing

@testable import Traffic

@Suite struct TrafficFeedParserTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-19T08:26:40Z
    static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: now.addingTimeInterval(seconds))
    }

    static func feed(flow: String = "[]", incidents: String = "[]", generated: Double = -30, valid: Double = 300)
        -> Data
    {
        Data(
            """
            {"trafficModelId": "1700000123", "generatedAt": "\(time(generated))", "validUntil": "\(time(valid))",
             "flowSegments": \(flow), "incidents": \(incidents)}
            """.utf8)
    }

    @Test func readsRecordsAndSkipsBadOnesByReasonAndPosition() throws {
        let flow = """
            [{"links": ["L1+", "L2-"], "currentSpeed": 12, "freeFlowSpeed": 50, "confidence": 0.8},
             {"links": ["L1+"], "currentSpeed": -5, "freeFlowSpeed": 50},
             {"openlr": "CwRbWyNG9RpsCQCb/jsbtAT/6/+jK1lE", "freeFlowSpeed": 50},
             {"currentSpeed": 10, "freeFlowSpeed": 50},
             {"links": ["twelve"], "currentSpeed": 10, "freeFlowSpeed": 50},
             {"openlr": "CwRbWyNG9RpsCQCb/jsbtAT/6/+jK1lE", "currentSpeed": 0, "freeFlowSpeed": 50, "roadClosure": true}]
            """
        let incidents = """
            [{"id": "a", "iconCategory": 8, "coordinates": [[24.94, 60.17], [24.95, 60.17]], "delay": 300,
              "startTime": "\(Self.time(-600))", "endTime": "\(Self.time(3600))"},
             {"id": "b", "iconCategory": 6, "links": ["L3+"], "startTime": "\(Self.time(60))", "endTime": "\(Self.time(0))"},
             {"id": "c", "iconCategory": 1, "links": ["L3+"], "endTime": "\(Self.time(-1))"},
             {"id": "d", "iconCategory": 55, "links": ["L3+"]},
             "not an object"]
            """
        let feed = try TrafficFeedParser.parse(Self.feed(flow: flow, incidents: incidents), now: Self.now)
        #expect(feed.trafficModelID == "1700000123")
        #expect(feed.flow.map(\.position) == ["flowSegments[0]", "flowSegments[5]"])
        #expect(
            feed.flow[0].location == .links([DirectedLink(LinkID(1), .forward), DirectedLink(LinkID(2), .backward)]))
        #expect(feed.flow[0].confidence == 0.8 && feed.flow[1].roadClosure)
        #expect(feed.incidents.map(\.id) == ["a"])
        #expect(feed.incidents[0].roadClosed && feed.incidents[0].iconCategory == .roadClosed)
        #expect(
            feed.skipped == [
                SkippedRecord(position: "flowSegments[1]", reason: .invalidValue(field: "currentSpeed")),
                SkippedRecord(position: "flowSegments[2]", reason: .missingField("currentSpeed")),
                SkippedRecord(position: "flowSegments[3]", reason: .missingField("openlr, links or coordinates")),
                SkippedRecord(position: "flowSegments[4]", reason: .invalidValue(field: "links")),
                SkippedRecord(position: "incidents[1]", reason: .endsBeforeStart),
                SkippedRecord(position: "incidents[2]", reason: .ended),
                SkippedRecord(position: "incidents[3]", reason: .invalidValue(field: "iconCategory")),
                SkippedRecord(position: "incidents[4]", reason: .invalidValue(field: "incidents[4]")),
            ])
    }

    @Test func aBadFeedIsRefusedWhole() throws {
        let good = Self.feed(flow: #"[{"links": ["L1+"], "currentSpeed": 12, "freeFlowSpeed": 50}]"#)
        #expect(throws: Never.self) { try TrafficFeedParser.parse(good, now: Self.now) }
        // Truncated: every cut of a good feed is refused, never half read.
        for cut in stride(from: 1, to: good.count - 1, by: 7) {
            #expect(throws: TrafficFeedError.self) { try TrafficFeedParser.parse(good.prefix(cut), now: Self.now) }
        }
        // The provider's clock is an hour ahead of ours.
        #expect(
            throws: TrafficFeedError.generatedInTheFuture(
                generatedAt: Self.now.addingTimeInterval(3600), now: Self.now)
        ) {
            try TrafficFeedParser.parse(Self.feed(generated: 3600, valid: 3900), now: Self.now)
        }
        #expect(throws: TrafficFeedError.validUntilBeforeGeneratedAt) {
            try TrafficFeedParser.parse(Self.feed(generated: -30, valid: -60), now: Self.now)
        }
        #expect(throws: TrafficFeedError.expired(validUntil: Self.now.addingTimeInterval(-10), now: Self.now)) {
            try TrafficFeedParser.parse(Self.feed(generated: -300, valid: -10), now: Self.now)
        }
        #expect(throws: TrafficFeedError.invalidField("trafficModelId")) {
            try TrafficFeedParser.parse(Data(#"{"generatedAt": "x"}"#.utf8), now: Self.now)
        }
    }

    @Test func flowModesArePureFunctionsOfTheSpeeds() {
        func flow(_ current: Double, _ free: Double, closed: Bool = false) -> LinkFlow {
            LinkFlow(
                currentSpeed: current, freeFlowSpeed: free, confidence: 1, coveredLength: 100, delay: 0, closed: closed)
        }
        #expect(FlowDisplayMode.relative.shade(of: flow(45, 50)) == .relative(.free))
        #expect(FlowDisplayMode.relative.shade(of: flow(40, 50)) == .relative(.light))
        #expect(FlowDisplayMode.relative.shade(of: flow(25, 50)) == .relative(.slow))
        #expect(FlowDisplayMode.relative.shade(of: flow(10, 50)) == .relative(.queuing))
        #expect(FlowDisplayMode.relative.shade(of: flow(2, 50)) == .relative(.stationary))
        #expect(FlowDisplayMode.relativeDelay.shade(of: flow(45, 50)) == .hidden)
        #expect(FlowDisplayMode.relativeDelay.shade(of: flow(25, 50)) == .relative(.slow))
        // Reduced sensitivity folds the light band into free flow.
        #expect(FlowDisplayMode.reducedSensitivity.shade(of: flow(40, 50)) == .relative(.free))
        #expect(FlowDisplayMode.reducedSensitivity.shade(of: flow(25, 50)) == .relative(.slow))
        // Absolute: the same relative speed on a motorway and in town shows differently.
        #expect(FlowDisplayMode.absolute.shade(of: flow(90, 100)) == .absolute(fromKilometresPerHour: 80))
        #expect(FlowDisplayMode.absolute.shade(of: flow(27, 30)) == .absolute(fromKilometresPerHour: 20))
        for mode in FlowDisplayMode.allCases { #expect(mode.shade(of: flow(50, 50, closed: true)) == .closed) }
    }
}
