import ADASISv2
import Foundation
import Testing

@testable import HorizonDaemon

/// A new traffic model while the horizon runs: the running pipeline takes it in place, and the
/// receiver gets only the road objects that changed, not the whole horizon again.
@Suite("daemon core: traffic changes taken in place")
struct DaemonTrafficInPlaceTests {
    static let crash8 = #"[{"id": "crash-8", "iconCategory": 1, "delay": 120, "links": ["L8+"]}]"#
    static let crash12 = #"[{"id": "crash-12", "iconCategory": 1, "delay": 120, "links": ["L12+"]}]"#

    /// The street driven 10 s with model m1 (an incident on link 8) from 2.6 s; at 6.05 s model m2
    /// (the incident moved to link 12) when `change`. Returns the loop, its frames and how many
    /// of them were sent before 6.05 s.
    static func drive(change: Bool) throws -> (loop: SimulatedRunLoop, frames: [ADASISMessage], before: Int) {
        let sink = RecordingFrameSink()
        var loop = try SimulatedRunLoop(
            try daemonConfiguration("[messages]\npreset = \"all\"\n"), opener: ScriptedOpener([.success(sink)]))
        loop.run(from: 0, to: 2.5)
        let first = loop.core.takeTrafficFeed(streetFeed(model: "m1", incidents: crash8), source: "f", at: 2.6)
        #expect(first.outcome == .applied)
        loop.perform(first.effects)
        loop.run(from: 2.6, to: 6)
        let before = sink.accepted.count
        let pipeline = loop.core.pipeline
        let newMainPaths = pipeline.provider.counters.newMainPaths
        if change {
            let second = loop.core.takeTrafficFeed(streetFeed(model: "m2", incidents: crash12), source: "f", at: 6.05)
            #expect(second.outcome == .applied)
            #expect(
                second.effects.contains {
                    if case .log(_, let line) = $0 { line.contains("updated in place") } else { false }
                }, "\(second.effects)")
            loop.perform(second.effects)
        }
        loop.run(from: 6.05, to: 10)
        #expect(loop.core.pipeline === pipeline, "the pipeline was replaced")
        #expect(loop.core.pipeline.provider.counters.newMainPaths == newMainPaths, "a new main path was started")
        let frames = try sink.accepted.map { try ADASISMessage.decode($0.data) }
        return (loop, frames, before)
    }

    /// New (not retransmitted, not updated) SEGMENTs and STUBs among `frames`.
    static func newTopology(_ frames: ArraySlice<ADASISMessage>) -> Int {
        frames.filter {
            switch $0 {
            case .segment(let segment): !segment.isRetransmission && !segment.isUpdate
            case .stub(let stub): !stub.isRetransmission && !stub.isUpdate
            default: false
            }
        }.count
    }

    @Test("the moved incident: only its marks go out (the old one withdrawn), no segment or stub again, same paths")
    func onlyTheChangedObjects() throws {
        let changed = try Self.drive(change: true)
        let control = try Self.drive(change: false)
        #expect(changed.before == control.before)
        // The horizon is not sent again: after the change, as many new segments and stubs as without it.
        let afterChange = changed.frames[changed.before...]
        #expect(Self.newTopology(afterChange) == Self.newTopology(control.frames[control.before...]))
        let incidentMarks = afterChange.compactMap { message -> ProfileShortMessage? in
            guard case .profileShort(let profile) = message, !profile.isRetransmission, profile.value0 == 13,
                [.roadObjectZoneStart, .roadObjectZoneEnd].contains(profile.profileType)
            else { return nil }
            return profile
        }
        let withdrawn = incidentMarks.filter { $0.isUpdate && $0.distance1 == 1023 }
        let added = incidentMarks.filter { !$0.isUpdate }
        #expect(withdrawn.count == 2 && added.count == 2, "\(incidentMarks)")

        // The receiver holds the incident on link 12 (x = 1100…1200 m) only.
        var reconstructor = HorizonReconstructor()
        for frame in changed.frames { reconstructor.apply(frame, time: 0) }
        let main = try #require(reconstructor.horizon.mainPath)
        let incidents = main.objects.filter { $0.code == 13 }
        #expect(incidents.count == 1, "\(main.objects)")
        var controlReceiver = HorizonReconstructor()
        for frame in control.frames { controlReceiver.apply(frame, time: 0) }
        let held = try #require(controlReceiver.horizon.mainPath?.objects.first { $0.code == 13 })
        if let start = incidents.first?.start, let heldStart = held.start {
            #expect(start - heldStart >= 395 && start - heldStart <= 405, "link 12 lies 400 m after link 8")
        }
        #expect(changed.loop.metrics(at: 10).trafficObjects == 1)
    }
}
