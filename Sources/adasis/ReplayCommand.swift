import ADASISProvider
import ADASISv2
import ArgumentParser
import Foundation
import GNSS
import Horizon
import RoadMap
import SocketCAN

/// `adasis replay --map MAP TRACE --candump FILE | --can IF`.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded drive through the whole pipeline and write the ADASIS v2 frames.",
        discussion: """
            Map matching, the horizon engine and the ADASIS provider run on the drive's own clock \
            (ticks of 100 ms from its first fix), so the same inputs give byte-identical frames every \
            run. Frames go to a candump -L log (timestamps = seconds from the first fix) or to a CAN \
            interface, as fast as possible or at --speed times real time.

              adasis replay --map helsinki.map Data/drives/kamppi.csv --candump kamppi.log
              adasis replay --map helsinki.map Data/drives/kamppi.csv --can vcan0 --speed 1
            """)

    @OptionGroup var drive: DriveOptions

    @Option(help: "Write the frames to this candump -L log (written atomically).")
    var candump: String?

    @Option(name: .customLong("can"), help: "Send the frames to this CAN interface, e.g. vcan0.")
    var interface: String?

    @Option(help: "Pace the frames at this multiple of real time (e.g. 1 or 10); default: as fast as possible.")
    var speed: Double?

    @Option(help: "Message preset: default (POSITION, STUB, SEGMENT, META-DATA), all, or mini.")
    var preset: String = "default"

    @Option(help: "Profile types to send on top of the preset, comma-separated: curvature, slope_linear, slope_step, safety_camera, traffic_signals, longitude, latitude, link_identifier (switches PROFILE SHORT/LONG on as needed, and the others of that message off).")
    var profiles: String?

    @Option(help: "Offsets near 8191 m: wrap (modulo 8191) or new_path (a new main path before the wrap).")
    var offsetPolicy: String = "wrap"

    @Option(help: "Replay only the first this many seconds of the drive.")
    var duration: Double?

    @Option(help: "Interface name written into the candump log.")
    var logInterface: String = "vcan0"

    func validate() throws {
        if (candump == nil) == (interface == nil) { throw ValidationError("give exactly one of --candump FILE or --can INTERFACE") }
        if let speed, !(speed > 0) { throw ValidationError("--speed must be positive, got \(speed)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive, got \(duration)") }
        for name in (profiles ?? "").split(separator: ",") where PipelineSettings.profileShortTypes[String(name)] == nil
            && PipelineSettings.profileLongTypes[String(name)] == nil {
            throw ValidationError("--profiles: '\(name)' is not a profile type; use \((PipelineSettings.profileShortTypes.keys.sorted() + PipelineSettings.profileLongTypes.keys.sorted()).joined(separator: ", "))")
        }
        if ProviderConfiguration.OffsetPolicy(rawValue: offsetPolicy) == nil {
            throw ValidationError("--offset-policy must be wrap or new_path, got '\(offsetPolicy)'")
        }
        for name in (profiles ?? "").split(separator: ",") where PipelineSettings.profileShortTypes[String(name)] == nil
            && PipelineSettings.profileLongTypes[String(name)] == nil {
            throw ValidationError("--profiles: '\(name)' is not a profile type; use \((PipelineSettings.profileShortTypes.keys.sorted() + PipelineSettings.profileLongTypes.keys.sorted()).joined(separator: ", "))")
        }
        if ProviderConfiguration.OffsetPolicy(rawValue: offsetPolicy) == nil {
            throw ValidationError("--offset-policy must be wrap or new_path, got '\(offsetPolicy)'")
        }
        if MessageSelection.Preset(rawValue: preset) == nil { throw ValidationError("--preset must be default, all or mini, got '\(preset)'") }
    }

    func run() throws {
        do {
            let (map, loaded, matcher, _) = try drive.open()
            var trace = loaded
            if let duration { trace.fixes = trace.fixes.filter { $0.time <= duration + 1e-9 } }
            var configuration = ProviderConfiguration()
            configuration.messages = MessageSelection(preset: MessageSelection.Preset(rawValue: preset)!)
            configuration.offsetPolicy = ProviderConfiguration.OffsetPolicy(rawValue: offsetPolicy) ?? .wrap
            if let profiles {
                let names = profiles.split(separator: ",").map(String.init)
                configuration.messages.profileShortTypes = Set(names.compactMap { PipelineSettings.profileShortTypes[$0] })
                configuration.messages.profileLongTypes = Set(names.compactMap { PipelineSettings.profileLongTypes[$0] })
                if !configuration.messages.profileShortTypes.isEmpty { configuration.messages.messageTypes.insert(.profileShort) }
                if !configuration.messages.profileLongTypes.isEmpty { configuration.messages.messageTypes.insert(.profileLong) }
            }
            configuration.metaData = MetaDataMessage(map: map.metadata)
            configuration.digitisedArea = map.metadata.boundingBox.count == 4 ? map.metadata.boundingBox : nil
            let pipeline = try HorizonPipeline(network: map, matcher: matcher, provider: configuration)
            var session = try drive.routeSession(on: map, trace: trace)
            try pipeline.engine.setRoute(session?.links)
            var routeError: (any Error)?
            let follow: (GNSSFix, MatchResult, [HorizonEvent]) -> Void = { _, match, _ in
                guard routeError == nil else { return }
                do { try drive.follow(&session, match: match, engine: pipeline.engine) } catch { routeError = error }
            }
            if let candump {
                var lines = ""
                try pipeline.replay(trace.fixes, onFix: follow) { frame in
                    lines += ReplayCommand.candumpLine(frame, interface: logInterface) + "\n"
                }
                if let routeError { throw routeError }
                try Data(lines.utf8).write(to: URL(fileURLWithPath: candump), options: .atomic)
            } else if let interface {
                try send(pipeline, fixes: trace.fixes, interface: interface, onFix: follow)
                if let routeError { throw routeError }
            }
            printToStandardError(ReplayCommand.summary(pipeline.provider.counters))
        } catch let error as ExitCode {
            throw error
        } catch {
            printToStandardError("adasis replay: \(error)")
            throw ExitCode.failure
        }
    }

    private func send(_ pipeline: HorizonPipeline, fixes: [GNSSFix], interface: String,
                      onFix: (GNSSFix, MatchResult, [HorizonEvent]) -> Void) throws {
        let socket = try CANSocket(interface: interface)
        let start = monotonicNow()
        var transmitQueueFull = false
        try pipeline.replay(fixes, onFix: onFix) { frame in
            if let speed {
                let due = start + frame.time / speed
                let wait = due - monotonicNow()
                if wait > 0 { usleep(UInt32(min(wait, 10) * 1_000_000)) }
            }
            guard let identifier = frame.isExtended ? CANIdentifier(extended: frame.identifier) : CANIdentifier(standard: frame.identifier) else { return }
            do {
                try socket.sendNonBlocking(try CANFrame(identifier: identifier, data: frame.data))
                transmitQueueFull = false
            } catch let error as SocketCANError where error.code == .transmitQueueFull {
                pipeline.provider.senderDropped(frame)
                if !transmitQueueFull { printToStandardError("adasis replay: \(interface) transmit queue full; dropping frames") }
                transmitQueueFull = true
            }
        }
    }

    static func candumpLine(_ frame: ProviderFrame, interface: String) -> String {
        let micros = Int64((frame.time * 1_000_000).rounded())
        let seconds = micros / 1_000_000, fraction = micros % 1_000_000
        let id = frame.isExtended ? hex(frame.identifier, width: 8) : hex(frame.identifier, width: 3)
        return "(\(String(seconds)).\(pad(fraction))) \(interface) \(id)#" + frame.data.map { hex(UInt32($0), width: 2) }.joined()
    }

    static func summary(_ counters: ProviderCounters) -> String {
        let order: [MessageType] = [.position, .metaData, .segment, .stub, .profileShort, .profileLong]
        let sent = order.map { "\($0) \(counters.framesSent[$0] ?? 0)" }.joined(separator: ", ")
        let dropped = counters.framesDroppedByBudget.values.reduce(0, +) + counters.framesDroppedBySender.values.reduce(0, +)
        return "adasis replay: sent \(counters.totalSent) frames (\(sent)); \(dropped) dropped, \(counters.updates) updates, \(counters.newMainPaths) new main paths"
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func pad(_ micros: Int64) -> String {
        let digits = String(micros)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}

/// Monotonic seconds (pacing only).
func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
