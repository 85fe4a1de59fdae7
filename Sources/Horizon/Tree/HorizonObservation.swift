import RoadMap

/// What an observer of a ``HorizonEngine`` is told after an ``HorizonEngine/update(_:)``, in this
/// order: the vehicle's position, the tree's changes, the most probable path when it changed.
/// Observers are called synchronously on the updating thread, in registration order, so an
/// embedding reacts to changes without polling the engine; the same fixes give the same
/// observations.
public enum HorizonObservation: Hashable, Sendable {
    /// Where the vehicle is after the update (every update except an `.unknown` match).
    case position(VehiclePosition)
    /// The tree changed: the update's events, as ``HorizonEngine/update(_:)`` returns them.
    case treeChanged([HorizonEvent])
    /// The most probable path ahead changed (other links, another main path, other splits), or is
    /// gone (`nil`: the tree was emptied).
    case mostProbablePathChanged(MostProbablePath?)
}

/// The vehicle's place in the horizon after one update.
public struct VehiclePosition: Hashable, Sendable {
    /// Time of the match, seconds on the trace's time line.
    public var time: Double
    /// The matcher's position; `nil` off road. Where the engine placed the vehicle is `mainPath`
    /// and `offset` (``HorizonEngine/vehiclePosition``): on the main path while the matcher is
    /// unsure at a narrow fork (``UnsureFork``), this one on the side road.
    public var matched: MatchedPosition?
    /// The main path the vehicle is on; `nil` when the tree is empty.
    public var mainPath: PathID?
    /// The vehicle's offset on the main path, metres; `nil` when the tree is empty.
    public var offset: Double?

    /// Creates a vehicle position.
    public init(time: Double, matched: MatchedPosition?, mainPath: PathID?, offset: Double?) {
        self.time = time
        self.matched = matched
        self.mainPath = mainPath
        self.offset = offset
    }
}

/// Identifies a registered observer, to remove it.
public struct HorizonObserverToken: Hashable, Sendable {
    let rawValue: Int
}

extension HorizonEngine {
    /// Registers `handler`; it is called with the observations of every later update.
    @discardableResult
    public func addObserver(_ handler: @escaping (HorizonObservation) -> Void) -> HorizonObserverToken {
        let token = HorizonObserverToken(rawValue: nextObserverToken)
        nextObserverToken += 1
        observers.append((token, handler))
        if observers.count == 1 { deliveredMostProbablePath = mostProbablePath }
        return token
    }

    /// Unregisters the observer of `token`; unknown tokens are ignored.
    public func removeObserver(_ token: HorizonObserverToken) {
        observers.removeAll { $0.token == token }
    }

    /// Tells every observer what the update of `match` changed.
    func notifyObservers(_ match: MatchResult) {
        guard !observers.isEmpty else { return }
        var observations: [HorizonObservation] = [
            .position(
                VehiclePosition(
                    time: match.time, matched: match.state.position, mainPath: tree.mainPathID,
                    offset: vehicleOffset))
        ]
        if !events.isEmpty { observations.append(.treeChanged(events)) }
        let current = mostProbablePath
        if current.map(Self.withoutDistances) != deliveredMostProbablePath.map(Self.withoutDistances) {
            observations.append(.mostProbablePathChanged(current))
        }
        deliveredMostProbablePath = current
        for observation in observations {
            for observer in observers { observer.handler(observation) }
        }
    }

    /// `path` with its splits' distances zeroed: the vehicle moving closer is no change.
    static func withoutDistances(_ path: MostProbablePath) -> MostProbablePath {
        var copy = path
        for index in copy.splits.indices { copy.splits[index].distance = 0 }
        return copy
    }
}
