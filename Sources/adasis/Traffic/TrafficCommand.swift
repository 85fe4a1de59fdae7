import ArgumentParser
import Foundation
import OpenLR
import RoadMap
import RoadMapStore
import Traffic

/// `adasis traffic …`: traffic feeds and OpenLR references on a map.
struct TrafficCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traffic",
        abstract: "Place a traffic feed's records on a map; write OpenLR references for map paths.",
        discussion: """
            The feed formats are in Docs/traffic-feed.md: the JSON feed, or DATEX II situation records
            (XML, v2.3 or v3), told apart by their content.

              adasis traffic show --map helsinki.map feed.json --at 2026-11-25T12:00:00Z
              adasis traffic show --map helsinki.map situations.xml --at 2026-11-25T12:00:00Z
              adasis traffic show --map helsinki.map https://example.org/feed.json --cache ~/.cache/adasis/traffic
              adasis traffic encode --map helsinki.map L12+ L13+
            """,
        subcommands: [TrafficShowCommand.self, TrafficEncodeCommand.self])
}

/// `adasis traffic show --map M FEED`.
struct TrafficShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print what a feed's records decode to: matched, not matched and why, per-link speeds.")

    @Option(help: "The map file.")
    var map: String

    @Argument(
        help:
            "The feed (JSON, or DATEX II situation records as XML; Docs/traffic-feed.md): a file, or an http:// or https:// URL."
    )
    var feed: String

    @OptionGroup var transport: TrafficTransportOptions

    @Option(help: "The time to apply the feed at, ISO 8601 (default: now). Replays of old feeds need it.")
    var at: String?

    @Option(help: "Flow display mode: absolute, relative, relative-delay or reduced-sensitivity.")
    var mode: String = FlowDisplayMode.relative.rawValue

    func run() throws {
        guard let displayMode = FlowDisplayMode(rawValue: mode) else {
            printToStandardError(
                "adasis traffic show: unknown --mode \(mode) (absolute, relative, relative-delay, reduced-sensitivity)")
            throw ExitCode.validationFailure
        }
        var now = Date()
        if let at {
            guard let time = ISO8601DateFormatter().date(from: at) else {
                printToStandardError(
                    "adasis traffic show: --at \(at) is not an ISO 8601 time such as 2026-11-25T12:00:00Z")
                throw ExitCode.validationFailure
            }
            now = time
        }
        if feed.hasPrefix("http://") || feed.hasPrefix("https://") {
            try showFromURL(now: now, mode: displayMode)
            return
        }
        if transport.cache != nil || transport.modelIDURL != nil {
            printToStandardError("adasis traffic show: --cache and --model-id-url need a feed URL, not a file")
            throw ExitCode.validationFailure
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: feed))
            let parsed = try TrafficFeedParser.parse(data, now: now)
            let layer = TrafficLayer(feed: parsed, network: try MapFile(path: map))
            print(TrafficReport(layer: layer, feed: parsed, mode: displayMode).text)
        } catch let error as TrafficFeedError {
            var hint = ""
            if case .expired = error, at == nil { hint = " (replaying a recorded feed? give its time with --at)" }
            printToStandardError("adasis traffic show: \(feed): \(error)\(hint)")
            throw ExitCode.failure
        } catch {
            printToStandardError("adasis traffic show: \(error)")
            throw ExitCode.failure
        }
    }
}

/// `adasis traffic encode --map M LINK…`.
struct TrafficEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write a path of directed links (L12+ = link 12 forward, L13- backward) as OpenLR base64.")

    @Option(help: "The map file.")
    var map: String

    @Option(help: "Metres of the first link not in the location.")
    var startOffset: Double = 0

    @Option(help: "Metres of the last link not in the location.")
    var endOffset: Double = 0

    @Argument(help: "The directed links in driving order.")
    var links: [String]

    func run() throws {
        var path: [DirectedLink] = []
        for text in links {
            guard let link = TrafficFeedParser.directedLink(text) else {
                printToStandardError("adasis traffic encode: \(text) is no directed link (write L12+ or L12-)")
                throw ExitCode.validationFailure
            }
            path.append(link)
        }
        do {
            let reference = try LineLocationEncoder(network: try MapFile(path: map)).encode(
                path, startOffset: startOffset, endOffset: endOffset)
            print(try OpenLRBinary.encode(reference))
        } catch {
            printToStandardError("adasis traffic encode: \(error)")
            throw ExitCode.failure
        }
    }
}
