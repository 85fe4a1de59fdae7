import RoadMap

/// The length and legal successors of directed links, remembered between fixes so the route
/// search does not ask the network (and allocate) for the same links at every fix.
///
/// It caches derived results, not map reads (those are cached once, by the map itself): the legal
/// successors are computed from the node's adjacency, oneway and turn restrictions, and the route
/// search between two fixes asks for the same few links many times.
///
/// Bounded: when it holds more than `capacity` links it starts over, which keeps memory flat on
/// long drives while the links around the vehicle are re-read only once.
struct LinkTopologyCache {
    /// What the route search needs of a directed link.
    struct Entry {
        /// Length of the link, metres.
        var length: Double
        /// Directed links a vehicle may enter at its exit node.
        var successors: [DirectedLink]
    }

    private var entries: [DirectedLink: Entry] = [:]
    private var lengths: [LinkID: Double] = [:]
    /// Links held before the cache starts over.
    let capacity: Int

    /// Creates an empty cache holding at most `capacity` links.
    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The entry of `link`, read from `network` on a miss.
    mutating func entry(for link: DirectedLink, in network: any RoadNetwork) throws -> Entry {
        if let entry = entries[link] { return entry }
        if entries.count >= capacity {
            entries.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
        }
        let length: Double
        if let known = lengths[link.link] {
            length = known
        } else {
            length = try network.link(link.link).length
            lengths[link.link] = length
        }
        let entry = Entry(length: length, successors: try network.successors(of: link))
        entries[link] = entry
        return entry
    }

    /// Forgets every link.
    mutating func removeAll() {
        entries.removeAll()
        lengths.removeAll()
    }
}
