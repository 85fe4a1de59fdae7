import RoadMap

/// The length and legal successors of directed links, remembered between fixes so the route
/// search does not ask the network (and allocate) for the same links at every fix.
///
/// It caches derived results, not map reads (those are cached once, by the map itself): the legal
/// successors are computed from the node's adjacency, oneway and turn restrictions, and the route
/// search between two fixes asks for the same few links many times.
///
/// Every link it has seen gets a dense slot number, and a loaded link keeps its successors' slots,
/// so a search can keep its per-link state in arrays and walk the graph without hashing.
///
/// Bounded: when it holds more than `capacity` links, ``startOverIfFull()`` (called between
/// searches, never during one, so that slots stay valid) empties it, which keeps memory flat on
/// long drives while the links around the vehicle are re-read only once.
struct LinkTopologyCache {
    /// What the route search needs of a directed link.
    struct Entry {
        /// Length of the link, metres.
        var length: Double
        /// Directed links a vehicle may enter at its exit node.
        var successors: [DirectedLink]
    }

    private var slots: [DirectedLink: Int] = [:]
    /// By slot: the link, and whether its length and successors are read.
    private var links: [DirectedLink] = []
    private var loaded: [Bool] = []
    /// By slot, valid once loaded.
    private var lengths: [Double] = []
    private var successors: [[DirectedLink]] = []
    private var successorSlots: [[Int]] = []
    private var linkLengths: [LinkID: Double] = [:]
    /// Links held before ``startOverIfFull()`` empties the cache.
    let capacity: Int

    /// Creates an empty cache holding at most `capacity` links between searches.
    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The number of slots handed out (slots are `0..<slotCount`).
    var slotCount: Int { links.count }

    /// The slot of `link`, handed out on first sight (its topology is read by ``load(_:in:)``).
    mutating func slot(for link: DirectedLink) -> Int {
        if let slot = slots[link] { return slot }
        let slot = links.count
        slots[link] = slot
        links.append(link)
        loaded.append(false)
        lengths.append(0)
        successors.append([])
        successorSlots.append([])
        return slot
    }

    /// The slot of `link` if it has one.
    func existingSlot(for link: DirectedLink) -> Int? { slots[link] }

    /// Reads the length and successors of the link in `slot` from `network` unless known, handing
    /// out slots to its successors.
    mutating func load(_ slot: Int, in network: any RoadNetwork) throws {
        guard !loaded[slot] else { return }
        let link = links[slot]
        let length: Double
        if let known = linkLengths[link.link] {
            length = known
        } else {
            length = try network.link(link.link).length
            linkLengths[link.link] = length
        }
        let next = try network.successors(of: link)
        lengths[slot] = length
        successors[slot] = next
        successorSlots[slot] = next.map { self.slot(for: $0) }
        loaded[slot] = true
    }

    /// Length of the loaded link in `slot`, metres.
    func length(_ slot: Int) -> Double { lengths[slot] }
    /// Successors of the loaded link in `slot`.
    func successors(_ slot: Int) -> [DirectedLink] { successors[slot] }
    /// Slots of the successors of the loaded link in `slot`, in the order of ``successors(_:)``.
    func successorSlots(_ slot: Int) -> [Int] { successorSlots[slot] }

    /// `body` applied to each successor of the loaded link in `slot` with its slot, in the order of
    /// ``successors(_:)``, read where they are kept (the two lists are not copied out: a search
    /// reads them for every link it settles).
    @inline(__always)
    func forEachSuccessor(of slot: Int, _ body: (DirectedLink, Int) -> Void) {
        for index in successors[slot].indices { body(successors[slot][index], successorSlots[slot][index]) }
    }

    /// The entry of `link`, read from `network` on a miss.
    mutating func entry(for link: DirectedLink, in network: any RoadNetwork) throws -> Entry {
        let slot = slot(for: link)
        try load(slot, in: network)
        return Entry(length: lengths[slot], successors: successors[slot])
    }

    /// Empties the cache when it holds `capacity` links or more (between searches only: slots
    /// are renumbered); whether it did.
    @discardableResult
    mutating func startOverIfFull() -> Bool {
        guard links.count >= capacity else { return false }
        removeAll(keepingCapacity: true)
        return true
    }

    /// Forgets every link.
    mutating func removeAll(keepingCapacity: Bool = false) {
        slots.removeAll(keepingCapacity: keepingCapacity)
        links.removeAll(keepingCapacity: keepingCapacity)
        loaded.removeAll(keepingCapacity: keepingCapacity)
        lengths.removeAll(keepingCapacity: keepingCapacity)
        successors.removeAll(keepingCapacity: keepingCapacity)
        successorSlots.removeAll(keepingCapacity: keepingCapacity)
        linkLengths.removeAll(keepingCapacity: keepingCapacity)
    }
}
