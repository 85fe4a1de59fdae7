import ADASISProvider
import Foundation
import Horizon
import Testing
import TestSupport
@testable import adasis

/// `adasis replay --baseline` runs the whole baseline: the nearest-road matcher and the
/// straightest-continuation branch model (the frames carry the branch probabilities in STUBs).
@Suite("adasis replay --baseline", .serialized)
struct ReplayBaselineTests {
    private static func frames(_ pipeline: HorizonPipeline, _ session: DriveSession) throws -> [ProviderFrame] {
        var frames: [ProviderFrame] = []
        try pipeline.replay(session.trace.fixes.filter { $0.time <= 60 }) { frames.append($0) }
        return frames
    }

    @Test("the replay pipeline gets the baseline matcher and branch model, and its frames show it")
    func baselineTakesEffect() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let trace = Repository.root.appendingPathComponent("Data/drives/kamppi.csv").path
        let command = try ReplayCommand.parse(["--map", map, trace, "--baseline", "--candump", "/dev/null"])
        let session = try command.drive.open()
        let pipeline = try command.makePipeline(session)
        #expect(pipeline.matcher is NearestRoadMatcher)
        #expect(pipeline.engine.configuration.branchModel == DriveOptions.baselineBranchModel)
        #expect(DriveOptions.baselineBranchModel != HorizonConfiguration().branchModel)

        // The same matcher with the product's branch model gives other frames: the branch
        // model is not lost on the way to the frames.
        let product = try HorizonPipeline(
            network: session.map, matcher: NearestRoadMatcher(network: session.map),
            provider: pipeline.provider.configuration)
        let baselineFrames = try Self.frames(pipeline, session)
        #expect(!baselineFrames.isEmpty)
        #expect(baselineFrames != (try Self.frames(product, session)))
    }
}
