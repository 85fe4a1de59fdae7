import ADASISv2
import Horizon
import Testing
@testable import ADASISProvider

/// When the queue cannot hold a new tree's content, what goes first is what lies nearest the
/// vehicle along the tree, whichever path it is on: a receiver needs the junctions just ahead
/// before the main path's far end.
@Suite("back-pressure: near content first")
struct BackPressureOrderTests {
    @Test("a queue of 50 frames: the first frames of a new tree are the nearest, side paths included")
    func nearestFirst() throws {
        let map = try SampleDrives.map(for: "kamppi")
        var configuration = ProviderConfiguration()
        configuration.maximumQueuedFrames = 50
        configuration.framesPerTick = 1000  // everything queued leaves in the tick: the frames show the choice
        let pipeline = try HorizonPipeline(network: map, provider: configuration)
        // The first moving fix: the tree of the drive's start.
        let fixes = try SampleDrives.fixes("kamppi")
        let fix = try #require(fixes.first { ($0.speed ?? 0) > 2 })
        try pipeline.process(fix)
        let frames = pipeline.tick(at: fix.time)
        let provider = pipeline.provider
        let vehicle = try #require(provider.deadReckonedOffset(at: fix.time))

        // Distance along the tree from the vehicle to offset 0 of each path.
        var origin: [PathID: Double] = [:]
        for path in provider.tree.sortedPaths {
            if let parent = path.parent {
                origin[path.id] = origin[parent].map { $0 + (path.branchOffset ?? 0) }
            } else {
                origin[path.id] = -vehicle
            }
        }
        let pathOfIndex = Dictionary(uniqueKeysWithValues: provider.indexOfPath.indices.map { ($0.value, $0.key) })
        var farthestSent = -Double.infinity
        var sidePathFrames = 0
        for frame in frames {
            guard let place = frame.message.pathPlace, let id = pathOfIndex[place.pathIndex],
                let start = origin[id]
            else { continue }
            farthestSent = max(farthestSent, start + Double(place.offset))
            if provider.tree.paths[id]?.level ?? 0 > 0 { sidePathFrames += 1 }
        }
        #expect(sidePathFrames > 0, "no side path content among \(frames.count) frames")
        #expect(farthestSent < 1000, "main path content \(Int(farthestSent)) m ahead went with a 50-frame queue")
        // Whatever waits lies no nearer than what went.
        for path in provider.tree.sortedPaths {
            guard let index = provider.indexOfPath[path.id], let start = origin[path.id] else { continue }
            let radius = configuration.sendRadius(level: path.level)
            let sent = provider.sentUpTo[path.id] ?? path.startOffset
            let frontier =
                path.level == 0
                ? ADASISProvider.mainPathFrontier(path, reach: vehicle + radius, sent: sent)
                : min(radius, path.endOffset - 0.5)
            guard sent < frontier - 1 else { continue }
            #expect(
                start + sent >= farthestSent - 1,
                "path \(index) waits from \(Int(start + sent)) m, nearer than content sent at \(Int(farthestSent)) m")
        }
    }
}
