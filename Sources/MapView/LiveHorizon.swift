import ADASISv2
import Foundation
import HorizonPicture

/// The live view's state: the frames received from a CAN interface (or a candump log played
/// back), fed to the reconstructor as a receiving ECU does, and what the page shows of them
/// (`/live.json`). A value type without I/O: the reader passes every frame with its reception
/// time, and the time of each answer, in seconds on the receiver's clock.
public struct LiveHorizon: Sendable {
    /// Where the frames come from, as the page names it (`vcan0`, `log.candump`).
    public let source: String
    /// The reconstructor the frames go through.
    public private(set) var reconstructor = HorizonReconstructor()
    /// The identifiers of the six message types (default: `Docs/adasis-conventions.md`).
    public var identifiers = CANIdentifierAssignment.defaults
    /// Frames received, of any identifier.
    public private(set) var framesReceived = 0
    /// Frames received whose identifier is not one of the six message types' (not fed on).
    public private(set) var framesNotADASIS = 0
    /// Frames the kernel dropped before the reader could take them (its receive queue was full:
    /// the reader is slower than the bus), as the socket counted them.
    public private(set) var framesDropped = 0
    /// The reception time of the last ADASIS v2 frame; `nil` before the first.
    public private(set) var lastFrameTime: Double?
    /// Why no frames can come (interface down or gone, log ended), with its time; `nil` while
    /// the source is fine.
    public private(set) var sourceProblem: (time: Double, reason: String)?
    /// Times the source failed and came back.
    public private(set) var recoveries = 0
    /// The last frames received, newest last (at most `keep`).
    public private(set) var recentFrames: [BusFrame] = []
    private var frameTimes: [Double] = []
    private let keep: Int

    /// One received frame as the panel lists it.
    public struct BusFrame: Codable, Sendable, Equatable {
        /// Reception time, seconds.
        public var time_s: Double
        /// The CAN identifier, `0x361`.
        public var id: String
        /// The message decoded, `POSITION Offset=12 …`, as `adasis decode` prints it.
        public var text: String
    }

    /// A live horizon of frames from `source`, keeping the last `keep` frames for the panel.
    public init(source: String, keep: Int = 12) {
        self.source = source
        self.keep = keep
    }

    /// Takes one received frame: an ADASIS v2 frame (by its identifier) goes to the reconstructor,
    /// any other is counted. Undecodable payloads are counted by the reconstructor.
    public mutating func receive(identifier: UInt32, isExtended: Bool, data: [UInt8], time: Double) {
        framesReceived += 1
        guard let assigned = try? CANIdentifierAssignment.Identifier(identifier, isExtended: isExtended),
            identifiers.messageType(forIdentifier: assigned, payload: data) != nil
        else {
            framesNotADASIS += 1
            return
        }
        if let problem = sourceProblem, Self.isAfter(time, problem: problem.time, lastFrame: lastFrameTime) {
            sourceProblem = nil
            recoveries += 1
        }
        lastFrameTime = time
        frameTimes.append(time)
        frameTimes.removeFirst(frameTimes.prefix { $0 <= time - 1 }.count)
        recentFrames.append(
            BusFrame(
                time_s: (time * 1000).rounded() / 1000, id: String(format: "0x%03X", identifier),
                text: FrameText.describe(data)))
        if recentFrames.count > keep { recentFrames.removeFirst(recentFrames.count - keep) }
        try? reconstructor.apply(payload: data, time: time)
    }

    /// Whether a frame received at `time` came after the problem seen at `problem`, so that the
    /// source is back. A frame received before it (the socket's backlog, read after the interface
    /// went down: a reader slower than the bus) is fed on but does not end the problem. A frame
    /// older than the last one means the receiver's clock stepped back: it cannot be ordered
    /// against the problem, and counts as after it.
    static func isAfter(_ time: Double, problem: Double, lastFrame: Double?) -> Bool {
        time >= problem || time < (lastFrame ?? -.infinity)
    }

    /// Adds `count` frames the kernel dropped on the reader's socket (not received, not fed on).
    public mutating func kernelDropped(_ count: Int) {
        framesDropped += max(0, count)
    }

    /// Records that the source stopped delivering at `time`, and why (shown until a frame
    /// received after `time` comes).
    public mutating func sourceFailed(_ reason: String, time: Double) {
        if sourceProblem == nil { sourceProblem = (time, reason) }
    }

    /// The page's document at `now`: source state, bus, reconstructed tree and its features.
    public func document(at now: Double) throws -> Data {
        let horizon = reconstructor.horizon
        let features = ReconstructedFeatures(horizon)
        let recent = frameTimes.filter { $0 > now - 1 }.count
        var sent: [String: Int] = [:]
        var gaps = 0
        for (type, counter) in horizon.counters {
            sent["\(type)"] = counter.received
            gaps += counter.gaps
        }
        let document = Document(
            mode: "live", source: source, now_s: now, last_frame_s: lastFrameTime,
            silent_s: lastFrameTime.map { max(0, now - $0) },
            problem: sourceProblem.map { Document.Problem(since_s: $0.time, reason: $0.reason) },
            recoveries: recoveries,
            bus: Document.Bus(
                frames: recentFrames, frames_last_second: recent,
                load_percent: (Double(recent) * Self.bitsPerFrame / Self.bitrate * 1000).rounded() / 10, sent: sent,
                received: framesReceived, dropped: framesDropped, not_adasis: framesNotADASIS,
                undecodable: reconstructor.undecodableFrames, counter_gaps: gaps),
            tree: LiveTreeSummary(horizon, unplaced: features.unplaced),
            features: features.collection)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// Bits on the wire of a classic 8-byte CAN frame with an 11-bit identifier, no stuff bits.
    static let bitsPerFrame = 111.0
    /// The bus bitrate the load is given for.
    static let bitrate = 500_000.0

    /// `/live.json`.
    struct Document: Encodable {
        struct Problem: Encodable {
            var since_s: Double
            var reason: String
        }
        struct Bus: Encodable {
            var frames: [BusFrame]
            var frames_last_second: Int
            var load_percent: Double
            var sent: [String: Int]
            var received: Int
            var dropped: Int
            var not_adasis: Int
            var undecodable: Int
            var counter_gaps: Int
        }
        var mode: String
        var source: String
        var now_s: Double
        var last_frame_s: Double?
        var silent_s: Double?
        var problem: Problem?
        var recoveries: Int
        var bus: Bus
        var tree: LiveTreeSummary
        var features: GeoJSONFeatureCollection
    }
}

/// A frame's payload as text.
public enum FrameText {
    /// `TYPE Field=value …`, as `adasis decode` prints a frame (raw field values);
    /// `undecodable` when the payload is not an ADASIS v2 message.
    public static func describe(_ payload: [UInt8]) -> String {
        guard let (type, fields) = try? FieldPacking.unpack(payload) else { return "undecodable" }
        let names = (MessageLayout.fields(of: type) ?? []).filter { !$0.isReserved && $0.name != "MessageType" }
        return (["\(type)"] + names.map { "\($0.name)=\(fields[$0.name, default: 0])" }).joined(separator: " ")
    }
}
