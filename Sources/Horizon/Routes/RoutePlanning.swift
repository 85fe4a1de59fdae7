import Foundation
import RoadMap

/// Why a route could not be read or connected.
public struct RouteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the line or the links.
    public var message: String

    /// Creates an error.
    public init(message: String) { self.message = message }

    /// One sentence for the user.
    public var description: String { message }
}

/// Turns a list of directed links (typed by a user, or the links a previous drive was matched to)
/// into a connected route the horizon engine can follow.
public enum RoutePlanning {
    /// Parses route text: one directed link per line as `adasis match` prints it (`L123+`,
    /// `L123-`), or a whole `adasis match` CSV (its `link_id` column). Empty lines and `#`
    /// comments are skipped; repeated consecutive links are kept once.
    public static func parse(_ text: String) throws(RouteError) -> [DirectedLink] {
        var links: [DirectedLink] = []
        var column: Int?
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("time_s,") {
                column = line.split(separator: ",", omittingEmptySubsequences: false).firstIndex(of: "link_id")
                continue
            }
            var field = line
            if let column {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard column < fields.count else { continue }
                field = String(fields[column])
                if field.isEmpty { continue }
            }
            guard let link = directedLink(field) else {
                throw RouteError(
                    message:
                        "line \(index + 1): '\(field)' is not a link; write links as adasis match prints them, e.g. L2321844262062260273+"
                )
            }
            if links.last != link { links.append(link) }
        }
        guard !links.isEmpty else { throw RouteError(message: "the route has no links") }
        return links
    }

    /// `L<id>+` / `L<id>-`.
    static func directedLink(_ text: String) -> DirectedLink? {
        guard text.hasPrefix("L"), let sign = text.last, sign == "+" || sign == "-",
            let id = UInt64(text.dropFirst().dropLast())
        else { return nil }
        return DirectedLink(LinkID(id), sign == "+" ? .forward : .backward)
    }

    /// Closes the gaps between consecutive links with the shortest legal connection (at most
    /// `maximumGap` links, breadth first over ``RoadNetwork/successors(of:)``), so a route taken
    /// from a matched drive, which may skip short links between fixes, becomes drivable.
    ///
    /// With `skippingUnreachable`, a link that cannot be reached from the route so far (a wrong
    /// match of a recorded drive) is left out instead of failing, and a route of fewer than three
    /// links that cannot go on is restarted at the unreachable link; `skipped` counts what was left out.
    public static func connect(
        _ links: [DirectedLink], in network: any RoadNetwork, maximumGap: Int = 8,
        skippingUnreachable: Bool = false
    ) throws -> (route: [DirectedLink], skipped: Int) {
        guard var route = links.first.map({ [$0] }) else { throw RouteError(message: "the route has no links") }
        var skipped = 0
        for target in links.dropFirst() {
            if route[route.count - 1] == target { continue }
            // Connect from the route's end, or (leniently) from one of the last links before it when
            // the end itself was a wrong match.
            var connected = false
            for back in 0..<(skippingUnreachable ? min(5, route.count) : 1) {
                let from = route[route.count - 1 - back]
                guard let bridge = try shortestConnection(from: from, to: target, in: network, maximumLinks: maximumGap)
                else { continue }
                skipped += back
                route.removeLast(back)
                route += bridge
                connected = true
                break
            }
            if connected { continue }
            guard skippingUnreachable else {
                throw RouteError(
                    message:
                        "no legal connection of at most \(maximumGap) links from \(route[route.count - 1]) to \(target)"
                )
            }
            // A wrong first match (a drive starting at a junction) would cut off everything after it:
            // restart at the target while the route is still this short.
            skipped += route.count < 3 ? route.count : 1
            if route.count < 3 { route = [target] }
        }
        return (route, skipped)
    }

    /// The links after `from` up to and including `to`, fewest links first; `nil` when none.
    private static func shortestConnection(
        from: DirectedLink, to: DirectedLink, in network: any RoadNetwork,
        maximumLinks: Int
    ) throws -> [DirectedLink]? {
        var previous: [DirectedLink: DirectedLink] = [:]
        var frontier = [from]
        for _ in 0..<maximumLinks {
            var next: [DirectedLink] = []
            for link in frontier {
                for successor in try network.successors(of: link) where previous[successor] == nil && successor != from
                {
                    previous[successor] = link
                    if successor == to {
                        var path = [to]
                        var step = link
                        while step != from {
                            path.append(step)
                            // Every link reached has its predecessor recorded, back to `from`.
                            step = previous[step]!
                        }
                        return path.reversed()
                    }
                    next.append(successor)
                }
            }
            frontier = next
        }
        return nil
    }
}
