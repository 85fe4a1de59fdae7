import RoadMap

/// Why the horizon engine rejected its input.
public enum HorizonError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A configuration value is out of range; the text names it and the allowed range.
    case invalidConfiguration(String)
    /// A matched position has an offset or time that is not a finite number.
    case invalidPosition(link: DirectedLink, offset: Double, time: Double)
    /// A route is empty.
    case emptyRoute
    /// Route links `index` and `index + 1` do not meet at a node.
    case disconnectedRoute(index: Int, from: DirectedLink, to: DirectedLink)
    /// A route link is driven against its oneway direction.
    case routeAgainstOneway(index: Int, link: DirectedLink)
    /// A chosen continuation is not a legal continuation after `incoming`.
    case notAContinuation(incoming: DirectedLink, link: DirectedLink)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .invalidConfiguration(let text):
            return "invalid horizon configuration: \(text)"
        case .invalidPosition(let link, let offset, let time):
            return
                "matched position on \(link) has offset \(offset) m at time \(time) s: both must be finite numbers; check the matcher's output"
        case .emptyRoute:
            return "the route has no links: pass nil to clear the route"
        case .disconnectedRoute(let index, let from, let to):
            return
                "route links \(index) (\(from)) and \(index + 1) (\(to)) do not meet at a node: a route must be a connected sequence of directed links"
        case .routeAgainstOneway(let index, let link):
            return "route link \(index) (\(link)) is driven against its oneway direction: recompute the route"
        case .notAContinuation(let incoming, let link):
            return
                "\(link) is not a legal continuation after \(incoming): choose one of the split's alternatives (HorizonEngine.mostProbablePath)"
        }
    }
}
