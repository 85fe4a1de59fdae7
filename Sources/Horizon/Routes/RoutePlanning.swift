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

/// A link of a route as it was listed, with the stretch of it a recorded drive was matched to.
public struct ListedLink: Hashable, Sendable {
    /// The link.
    public var link: DirectedLink
    /// Offsets, metres along the link in its driving direction, of the first and the last fix a
    /// recorded drive (an `adasis match` CSV) was matched to on it; `nil` for a link listed by hand,
    /// which counts as driven whole.
    public var seen: ClosedRange<Double>?

    /// Creates a listed link.
    public init(_ link: DirectedLink, seen: ClosedRange<Double>? = nil) {
        self.link = link
        self.seen = seen
    }
}

/// Turns a list of directed links (typed by a user, or the links a previous drive was matched to)
/// into a connected route the horizon engine can follow.
public enum RoutePlanning {
    /// Parses route text: one directed link per line as `adasis match` prints it (`L123+`,
    /// `L123-`), or a whole `adasis match` CSV (its `link_id` column, with the stretch of each link
    /// its fixes lie on from `offset_m`). Empty lines and `#` comments are skipped; repeated
    /// consecutive links are kept once.
    public static func parse(_ text: String) throws(RouteError) -> [ListedLink] {
        var links: [ListedLink] = []
        var columns: (link: Int, offset: Int?)?
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("time_s,") {
                let header = line.split(separator: ",", omittingEmptySubsequences: false)
                columns = header.firstIndex(of: "link_id").map { ($0, header.firstIndex(of: "offset_m")) }
                continue
            }
            var field = line
            var offset: Double?
            if let columns {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard columns.link < fields.count else { continue }
                field = String(fields[columns.link])
                if field.isEmpty { continue }
                if let column = columns.offset, column < fields.count, !fields[column].isEmpty {
                    guard let value = Double(fields[column]), value.isFinite, value >= 0 else {
                        throw RouteError(
                            message:
                                "line \(index + 1): offset_m '\(fields[column])' is not a distance along the link; write metres, e.g. 12.5, or leave it empty"
                        )
                    }
                    offset = value
                }
            }
            guard let link = directedLink(field) else {
                throw RouteError(
                    message:
                        "line \(index + 1): '\(field)' is not a link; write links as adasis match prints them, e.g. L2321844262062260273+"
                )
            }
            let seen = offset.map { $0...$0 }
            if links.last?.link == link {
                if let seen, let before = links[links.count - 1].seen {
                    links[links.count - 1].seen =
                        min(before.lowerBound, seen.lowerBound)...max(before.upperBound, seen.upperBound)
                }
            } else {
                links.append(ListedLink(link, seen: seen))
            }
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
}
