import ADASISv2
import Foundation
import Horizon
import RoadMap
import TestSupport
import Testing
import Traffic
@testable import ADASISProvider

/// The traffic-speed profile (PROFILE SHORT 21) end to end on a real drive: the sample feed
/// (Data/traffic/sample-feed.json) placed on the sample map, the Kamppi drive replayed with it,
/// and at every fix what a receiver rebuilds from the frames equals the layer's speeds along the
/// main path, through a changed feed (Update) and the feed's expiry (no data everywhere).
@Suite("traffic speed along the main path, rebuilt", .serialized)
struct TrafficSpeedRoundTripTests {
    static let feedTime = ISO8601DateFormatter().date(from: "2026-11-25T12:01:00Z")!

    /// The sample feed, and the same feed one update later: every speed 11 km/h higher, the first
    /// record (8 km/h) now closing its road.
    static func feeds() throws -> (TrafficFeed, TrafficFeed) {
        let data = try Data(contentsOf: Repository.url("Data/traffic/sample-feed.json"))
        let first = try TrafficFeedParser.parse(data, now: feedTime)
        var second = first
        second.trafficModelID += "-next"
        for index in second.flow.indices { second.flow[index].currentSpeed += 11 }
        second.flow[0].roadClosure = true
        return (first, second)
    }

    @Test(
        "the rebuilt traffic speed at every main-path link start equals the layer's, through an update and the expiry")
    func roundTrip() throws {
        let map = try SampleDrives.map()
        let (first, second) = try Self.feeds()
        let tables = [first, second].map { feed in
            TrafficSpeedTable(
                TrafficLayer(feed: feed, network: map).linkSpeeds(at: Self.feedTime).mapValues {
                    switch $0 {
                    case .kilometresPerHour(let speed): TrafficSpeed.kilometresPerHour(speed)
                    case .closed: TrafficSpeed.closed
                    }
                })
        }
        // Phases by drive time: the feed, its update, then expired (an empty table).
        let phases: [(from: Double, table: TrafficSpeedTable)] = [
            (0, tables[0]), (110, tables[1]), (190, TrafficSpeedTable()),
        ]
        var configuration = ProviderConfiguration()
        configuration.messages = MessageSelection(preset: .all)
        configuration.maximumQueuedFrames = 100_000
        let pipeline = try HorizonPipeline(network: map, provider: configuration)
        var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 250))
        let fixes = try SampleDrives.fixes("kamppi")
        var phase = 0
        var checked: [Int: [String: Int]] = [:]
        var mismatches: [String] = []
        var updates = 0
        var tick = 0
        var next = 0
        pipeline.provider.setTrafficSpeeds(phases[0].table)
        while let last = fixes.last {
            let time = fixes[0].time + Double(tick) * configuration.tickInterval
            if time > last.time + 1 { break }
            if phase + 1 < phases.count, time >= phases[phase + 1].from {
                phase += 1
                pipeline.provider.setTrafficSpeeds(phases[phase].table)
            }
            while next < fixes.count, fixes[next].time <= time + 1e-9 {
                try pipeline.process(fixes[next])
                next += 1
            }
            for frame in pipeline.tick(at: time) {
                if case .profileShort(let message) = frame.message, message.profileType == .trafficSpeed,
                    message.isUpdate
                {
                    updates += 1
                }
                reconstructor.apply(frame.message, time: frame.time)
            }
            tick += 1
            let nextFixDue = next < fixes.count && fixes[next].time <= time + configuration.tickInterval + 1e-9
            guard nextFixDue, pipeline.provider.queuedFrames == 0 else { continue }
            let provider = pipeline.provider
            guard let main = provider.tree.mainPath, let vehicle = provider.deadReckonedOffset(at: time),
                let index = provider.indexOfPath[main.id], let sent = provider.sentUpTo[main.id],
                let rebuilt = reconstructor.horizon.paths[index]
            else { continue }
            // The last link starting at each whole metre (a shorter one before it shares the spot).
            var expected: [Int: TrafficSpeed] = [:]
            for link in main.links where link.startOffset > vehicle - 150 && link.startOffset <= sent {
                expected[Int(link.startOffset.rounded())] = phases[phase].table.speed(on: link.link)
            }
            for (offset, speed) in expected {
                let held = rebuilt.profiles[.short(.trafficSpeed)]?[offset].map {
                    ValueCoding.trafficSpeed(code: UInt16($0.value))
                }
                // What a receiver can hold: the wire's whole km/h.
                let wire = ValueCoding.trafficSpeed(code: ValueCoding.trafficSpeedCode(speed))
                if held != wire {
                    mismatches.append(
                        String(format: "%.1f s", time)
                            + ": path \(index) at \(offset) m holds \(String(describing: held)), the layer says \(wire)"
                    )
                }
                checked[phase, default: [:]][Self.kind(wire), default: 0] += 1
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
        // The comparison saw speeds and a closure while the feed held, and only "no data" after.
        #expect((checked[0]?["speed"] ?? 0) > 20 && (checked[0]?["closed"] ?? 0) > 5, "\(checked)")
        #expect((checked[1]?["speed"] ?? 0) > 20, "\(checked)")
        #expect(checked[2]?.keys.sorted() == ["no data"] && (checked[2]?["no data"] ?? 0) > 100, "\(checked)")
        #expect(updates > 0, "a changed feed sends the changed spots with Update = 1")
    }

    static func kind(_ speed: TrafficSpeed) -> String {
        switch speed {
        case .kilometresPerHour: "speed"
        case .closed: "closed"
        case .noData: "no data"
        }
    }

    @Test("without traffic speeds the provider sends no traffic-speed spot")
    func silentWithoutTraffic() throws {
        let map = try SampleDrives.map()
        var configuration = ProviderConfiguration()
        configuration.messages = MessageSelection(preset: .all)
        let pipeline = try HorizonPipeline(network: map, provider: configuration)
        let fixes = try SampleDrives.fixes("kamppi").prefix(300)
        var profileShort = 0
        try pipeline.replay(Array(fixes)) { frame in
            guard case .profileShort(let message) = frame.message else { return }
            profileShort += 1
            #expect(message.profileType != .trafficSpeed)
        }
        #expect(profileShort > 50, "the drive's other profiles went out")
    }
}
