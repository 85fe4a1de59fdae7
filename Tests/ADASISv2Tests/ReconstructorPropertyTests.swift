import Testing
@testable import ADASISv2
import TestSupport

/// Seeded random streams: the reconstructor never traps or hangs and keeps its tree consistent.
@Suite struct ReconstructorPropertyTests {
    /// A random but plausible message: paths 8…15 (sometimes other indices), offsets near a moving vehicle.
    private func plausibleMessage(vehicle: Int, using random: inout SplitMix64) -> ADASISMessage {
        let path = UInt8.random(in: 6...15, using: &random)
        let offset = PathOffset.wrapped(vehicle + Int.random(in: -600...2500, using: &random))
        let counter = UInt8.random(in: 0...3, using: &random)
        let retransmission = Bool.random(using: &random), update = Int.random(in: 0..<5, using: &random) == 0
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return .stub(
                StubMessage(
                    offset: offset, pathIndex: path, subPathIndex: UInt8.random(in: 4...16, using: &random),
                    cyclicCounter: counter, isRetransmission: retransmission, isUpdate: update))
        case 1:
            return .profileShort(
                ProfileShortMessage(
                    offset: offset, pathIndex: path, profileType: .curvature,
                    value0: UInt16.random(in: 0...1023, using: &random),
                    distance1: UInt16.random(in: 0...1023, using: &random),
                    value1: 511, cyclicCounter: counter,
                    isRetransmission: retransmission, isUpdate: update))
        case 2:
            return .position(
                PositionMessage(
                    offset: PathOffset.wrapped(vehicle),
                    pathIndex: Int.random(in: 0..<20, using: &random) == 0
                        ? path : 8, cyclicCounter: counter))
        default:
            return .segment(
                SegmentMessage(
                    offset: offset, pathIndex: path, cyclicCounter: counter,
                    isRetransmission: retransmission, isUpdate: update,
                    effectiveSpeedLimit: UInt8.random(in: 0...31, using: &random)))
        }
    }

    private func checkConsistency(_ horizon: ReconstructedHorizon, trailing: Int, afterPosition: Bool = true) {
        for (index, path) in horizon.paths {
            #expect(index == path.index && (8...63).contains(index))
            #expect(path.segments.keys.allSatisfy { $0 >= 0 } && path.stubs.keys.allSatisfy { $0 >= 0 })
            #expect((path.parent == nil) == (path.branchOffset == nil))
            // Every parent chain ends at a root without revisiting a path.
            var seen: Set<UInt8> = [index]
            var current = path.parent
            while let parent = current {
                #expect(!seen.contains(parent), "cycle through \(parent)")
                if seen.contains(parent) { break }
                seen.insert(parent)
                current = horizon.paths[parent]?.parent
            }
        }
        if afterPosition, let main = horizon.mainPath, let vehicle = horizon.vehicleOffset {
            #expect(main.parent == nil)
            // At most one segment before the purge line survives (the one in force there).
            #expect(main.segments.keys.filter { $0 < vehicle - trailing }.count <= 1)
        }
    }

    @Test func plausibleRandomStreamsKeepTheTreeConsistent() {
        var random = SplitMix64(seed: 4242)
        for run in 0..<20 {
            var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 300))
            var vehicle = Int.random(in: 0...8000, using: &random)
            for step in 0..<1500 {
                vehicle += Int.random(in: 0...3, using: &random)
                let message = plausibleMessage(vehicle: vehicle, using: &random)
                reconstructor.apply(message, time: Double(step) / 100)
                // The purge runs on POSITION on a regular path: right after one, nothing stale is left behind.
                if case .position(let position) = message, (8...63).contains(position.pathIndex) {
                    checkConsistency(reconstructor.horizon, trailing: 300)
                }
            }
            #expect(reconstructor.horizon.paths.count <= 56, "run \(run)")
        }
    }

    @Test func arbitraryBytesNeverTrap() {
        var random = SplitMix64(seed: 77)
        var reconstructor = HorizonReconstructor()
        for step in 0..<30_000 {
            let bytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? reconstructor.apply(payload: bytes, time: Double(step))
        }
        let decoded = reconstructor.horizon.counters.values.reduce(0) { $0 + $1.received }
        #expect(decoded + reconstructor.undecodableFrames == 30_000)
        checkConsistency(
            reconstructor.horizon, trailing: reconstructor.configuration.trailingLength,
            afterPosition: false)
    }
}
