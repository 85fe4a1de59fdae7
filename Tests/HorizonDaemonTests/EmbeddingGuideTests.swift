import ADASISProvider
import ADASISv2
import Foundation
import GNSS
import Horizon
import HorizonDaemon
import RoadMapStore
import SocketCAN
import Testing
import TestSupport

/// Runs `Docs/embedding.md`'s programs on the sample map and the kamppi drive: the guide's code
/// lines are these tests' lines (``guideCodeIsTested`` checks), so the guide compiles and does what
/// it says.
@Suite("Docs/embedding.md: the engine embedded in another process")
struct EmbeddingGuideTests {
    static func mapPath() throws -> String { try ImportedMap.file(SampleDriveList.helsinki) }
    static let tracePath = Repository.url("Data/drives/kamppi.csv").path

    @Test("the observer is told each fix's position, the tree's changes and every change of the MPP, without polling")
    func observerProgram() throws {
        var positions: [VehiclePosition] = []
        var treeChanges = 0
        var mostProbablePaths: [MostProbablePath?] = []
        let mapPath = try Self.mapPath()
        let tracePath = Self.tracePath
        // The guide's first program from here.
        let map = try MapFile(path: mapPath)
        let matcher = OnlineMapMatcher(network: map)
        let engine = try HorizonEngine(network: map)
        engine.addObserver { observation in
            switch observation {
            case .position(let position):
                // The matched point (nil off road) and the offset on the main path.
                positions.append(position)
            case .treeChanged(let events):
                treeChanges += events.count
            case .mostProbablePathChanged(let path):
                // The links the vehicle most probably drives, and the junctions where another way is
                // within 5 % (path?.splits), where a client may pick another: engine.choose(_:at:).
                mostProbablePaths.append(path)
            }
        }
        for fix in try TraceFile(path: tracePath).fixes {
            let match = try matcher.match(fix)
            _ = try engine.update(match, candidates: matcher.candidatePositions)
        }
        // To here.
        let fixes = try TraceFile(path: tracePath).fixes
        // kamppi stays on its roads: a position on the main path for every fix.
        #expect(positions.count == fixes.count)
        #expect(positions.allSatisfy { $0.matched != nil && $0.mainPath != nil && $0.offset != nil })
        #expect(positions.map(\.time) == fixes.map(\.time))
        #expect(treeChanges > fixes.count, "\(treeChanges) tree changes over \(fixes.count) fixes")
        // Only changes are told, and the last one told is the engine's MPP now.
        #expect(mostProbablePaths.count > 10, "\(mostProbablePaths.count) MPP changes")
        #expect(zip(mostProbablePaths, mostProbablePaths.dropFirst()).allSatisfy { $0 != $1 })
        let last = try #require(mostProbablePaths.last ?? nil)
        #expect(last.links == engine.mostProbablePath?.links)
        #expect(last.links.contains(try #require(positions.last?.matched?.link)))
    }

    /// Frames as the guide's socket takes them: every `refuseEvery`-th one refused (a full TX queue).
    final class FrameSink {
        var sent: [CANFrame] = []
        var refused = 0
        let refuseEvery: Int?
        init(refuseEvery: Int? = nil) { self.refuseEvery = refuseEvery }
        func send(_ frame: CANFrame, retryingWhileFull retries: Int) throws(SocketCANError) -> Bool {
            if let refuseEvery, (sent.count + refused + 1) % refuseEvery == 0 {
                refused += 1
                return false
            }
            sent.append(frame)
            return true
        }
    }

    /// The guide's second program as written, on a CAN interface.
    static func pipelineProgramOnCAN() throws {
        let map = try MapFile(path: try mapPath())
        let pipeline = try HorizonPipeline(network: map)
        let socket = try CANSocket(interface: "vcan0")
        try pipeline.replay(try TraceFile(path: tracePath).fixes) { frame in
            guard let canFrame = frame.canFrame else { return }
            if try !socket.send(canFrame, retryingWhileFull: 0) { pipeline.provider.senderDropped(frame) }
        }
    }

    @Test("on a host without vcan0 the guide's program stops with a typed SocketCAN error")
    func pipelineProgramWithoutCAN() throws {
        do {
            try Self.pipelineProgramOnCAN()
        } catch let error as SocketCANError {
            // This kernel has no CAN (EAFNOSUPPORT), or no vcan0; where vcan0 is up the frames went.
            #expect([.noCANSupport, .noSuchInterface, .networkDown].contains(error.code), "\(error)")
        }
    }

    /// The guide's second program with `socket` in place of its `CANSocket`.
    static func pipelineProgram(socket: FrameSink) throws -> (pipeline: HorizonPipeline, mppChanges: Int) {
        var pipelineChanges = 0
        let map = try MapFile(path: try mapPath())
        // The guide's second program from here, `socket` the sink.
        let pipeline = try HorizonPipeline(network: map)
        pipeline.engine.addObserver { observation in
            if case .mostProbablePathChanged = observation { pipelineChanges += 1 }
        }
        try pipeline.replay(try TraceFile(path: tracePath).fixes) { frame in
            guard let canFrame = frame.canFrame else { return }
            if try !socket.send(canFrame, retryingWhileFull: 0) { pipeline.provider.senderDropped(frame) }
        }
        // To here.
        return (pipeline, pipelineChanges)
    }

    @Test("the pipeline sends ADASIS v2 frames a reconstructor rebuilds, and counts the frames the bus refused")
    func pipelineProgram() throws {
        let socket = FrameSink()
        let (pipeline, changes) = try Self.pipelineProgram(socket: socket)
        #expect(changes > 10)
        #expect(pipeline.provider.counters.framesDroppedBySender.isEmpty)
        var reconstructor = HorizonReconstructor()
        for (k, frame) in socket.sent.enumerated() { try reconstructor.apply(payload: frame.data, time: Double(k)) }
        let rebuilt = reconstructor.horizon
        #expect(reconstructor.undecodableFrames == 0)
        #expect(rebuilt.position != nil, "a POSITION received")
        #expect(rebuilt.mainPath?.isEmpty == false, "a main path rebuilt from \(socket.sent.count) frames")

        let refusing = FrameSink(refuseEvery: 10)
        let (counted, _) = try Self.pipelineProgram(socket: refusing)
        #expect(refusing.refused > 0)
        #expect(counted.provider.counters.framesDroppedBySender.values.reduce(0, +) == refusing.refused)
    }

    @Test("every line of code in Docs/embedding.md is a line of these tests")
    func guideCodeIsTested() throws {
        let guide = try String(contentsOf: Repository.url("Docs/embedding.md"), encoding: .utf8)
        let tests = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let testLines = Set(tests.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var inCode = false
        var checked = 0
        var missing: [String] = []
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inCode = trimmed == "```swift"
                continue
            }
            // The lines the tests put their own in place of: the paths.
            guard inCode, !trimmed.isEmpty, !trimmed.contains("// your paths")
            else { continue }
            if !testLines.contains(trimmed) { missing.append(trimmed) }
            checked += 1
        }
        #expect(missing.isEmpty, "lines of Docs/embedding.md no test runs:\n\(missing.joined(separator: "\n"))")
        #expect(checked >= 25, "\(checked) lines of code in the guide")
    }
}
