import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
import TestSupport
@testable import ADASISProvider

/// What the peers offer, on the sample drives: alternative POSITIONs reach the receiver on paths it
/// holds; zero-probability paths go as STUBs saying "turn not allowed"; the observer API tells what
/// the pipeline returns.
@Suite("peer features on the sample drives", .serialized)
struct PeerFeatureDriveTests {
    /// Replays `drive` through a pipeline and a reconstructor; `inspect` sees both after each tick.
    static func replay(
        _ drive: String, noisy: Bool, horizon: HorizonConfiguration = HorizonConfiguration(),
        provider configuration: ProviderConfiguration = ProviderConfiguration(),
        inspect: (HorizonPipeline, ReconstructedHorizon, [ProviderFrame]) -> Void
    ) throws {
        let map = try SampleDrives.map(for: drive)
        var configuration = configuration
        let deepest = horizon.maximumLevel + (horizon.addsOneLinkLevel ? 1 : 0)
        configuration.sendRadius = (0...deepest).map { horizon.lookAhead(level: $0) }
        let pipeline = try HorizonPipeline(network: map, horizon: horizon, provider: configuration)
        var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 250))
        try pipeline.replay(try SampleDrives.fixes(drive, noisy: noisy)) { frame in
            reconstructor.apply(frame.message, time: frame.time)
            inspect(pipeline, reconstructor.horizon, [frame])
        }
    }

    @Test("alternative POSITIONs (PositionIndex 1…3) sit on side paths the receiver holds, off the main path")
    func alternativePositions() throws {
        var alternatives = 0
        var problems: [String] = []
        for drive in SampleDriveList.names {
            for noisy in [false, true] {
                try Self.replay(drive, noisy: noisy) { _, horizon, frames in
                    guard case .position(let position)? = frames.first?.message, position.positionIndex > 0 else {
                        return
                    }
                    alternatives += 1
                    let index = position.pathIndex
                    guard let path = horizon.paths[index] else {
                        problems.append(
                            "\(drive)\(noisy ? " noisy" : ""), \(frames[0].time) s: alternative on path \(index) the receiver does not hold"
                        )
                        return
                    }
                    if index == horizon.mainPathIndex || path.parent == nil {
                        problems.append("\(drive): alternative on the main path \(index)")
                    }
                    if horizon.positionCandidates[position.positionIndex]?.absoluteOffset == nil {
                        problems.append("\(drive): alternative on path \(index) has no usable offset")
                    }
                    if horizon.positionCandidates[0] == nil {
                        problems.append("\(drive): alternative without the matched position of its cycle")
                    }
                    if !(1...30).contains(position.positionProbability) {
                        problems.append("\(drive): alternative probability code \(position.positionProbability)")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        // Measured: 390 alternative POSITIONs over the 20 traces (mannerheimintie 110).
        #expect(alternatives >= 100, "only \(alternatives) alternative POSITIONs on the drives")

        var single = ProviderConfiguration()
        single.maximumPositionCandidates = 1
        var sent = 0
        try Self.replay("mannerheimintie", noisy: false, provider: single) { _, _, frames in
            if case .position(let position)? = frames.first?.message, position.positionIndex > 0 { sent += 1 }
        }
        #expect(sent == 0)
    }

    @Test("zero-probability paths go as STUBs with RelativeProbability 0 and are rebuilt as sub-paths")
    func zeroProbabilityStubs() throws {
        var horizon = HorizonConfiguration()
        horizon.keepsZeroProbabilityPaths = true
        var forbiddenStubs = 0
        var rebuiltForbidden = Set<UInt8>()
        for drive in SampleDriveList.names where !SampleDriveList.suburbNames.contains(drive) {
            try Self.replay(drive, noisy: false, horizon: horizon) { pipeline, rebuilt, frames in
                guard case .stub(let stub)? = frames.first?.message, stub.relativeProbability == 0 else { return }
                forbiddenStubs += 1
                if let path = rebuilt.paths[stub.subPathIndex], path.announcingStub?.relativeProbability == 0 {
                    rebuiltForbidden.insert(stub.subPathIndex)
                }
            }
        }
        #expect(forbiddenStubs > 0, "the Helsinki drives pass turn restrictions")
        #expect(!rebuiltForbidden.isEmpty)
        // Without the option no STUB says "turn not allowed".
        var plain = 0
        try Self.replay("kamppi", noisy: false) { _, _, frames in
            if case .stub(let stub)? = frames.first?.message, stub.relativeProbability == 0 { plain += 1 }
        }
        #expect(plain == 0)
    }

    @Test(
        "the observer tells the pipeline's events and an MPP whose splits are within 5 %",
        arguments: ["kamppi", "esplanadi", "motorway"])
    func observerOnADrive(drive: String) throws {
        let map = try SampleDrives.map(for: drive)
        let pipeline = try HorizonPipeline(network: map)
        var observed: [[HorizonEvent]] = []
        var mostProbablePaths = 0, splits = 0
        var problems: [String] = []
        pipeline.engine.addObserver { observation in
            switch observation {
            case .treeChanged(let events): observed.append(events)
            case .mostProbablePathChanged(let path?):
                mostProbablePaths += 1
                for split in path.splits {
                    splits += 1
                    for alternative in split.alternatives {
                        if split.taken.probability - alternative.probability > 0.05 + 1e-12 {
                            problems.append("alternative \(alternative.probability) vs \(split.taken.probability)")
                        }
                        if let side = alternative.sidePath,
                            pipeline.engine.tree.paths[side]?.links.first?.link != alternative.link
                        {
                            problems.append("side path \(side) does not start on \(alternative.link)")
                        }
                    }
                }
            default: break
            }
        }
        var returned: [[HorizonEvent]] = []
        for fix in try SampleDrives.fixes(drive, noisy: true) {
            if let (_, events) = try pipeline.process(fix), !events.isEmpty { returned.append(events) }
        }
        #expect(observed == returned)
        #expect(mostProbablePaths > 10)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        // Kamppi passes symmetric junctions; esplanadi's near-ties (the incoming street's name
        // turning off a T against the through road) are decided by the through-road factor.
        if drive == "kamppi" { #expect(splits > 0, "kamppi passes symmetric junctions") }
    }
}
