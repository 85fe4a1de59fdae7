/// The last few HMM columns of ``OnlineMapMatcher`` with their Viterbi back-pointers, for
/// fixed-lag smoothing (``FixedLagMatcher``): the state a past fix is given is read off the best
/// path ending at the newest column, so it has seen the fixes after it.
///
/// Empty and free while ``capacity`` is 0 (the online matcher alone keeps no history).
struct SmoothingWindow {
    /// One column: the states of a fix after its Viterbi step.
    struct Column {
        /// Identifies the column across the window's life (increasing).
        var serial: Int
        /// The states.
        var states: [MatchCandidate]
        /// Normalised Viterbi log scores.
        var viterbi: [Double]
        /// Filtered log probabilities.
        var filter: [Double]
        /// Along-track estimates.
        var estimates: [AlongTrackEstimate]
        /// For each state, the index of its best predecessor in the previous column, or −1 when
        /// the column started a new chain (no predecessor).
        var back: [Int]
    }

    /// Columns kept (the newest and the `capacity − 1` before it); 0 keeps none.
    var capacity = 0
    /// The kept columns, oldest first; consecutive ones are linked by ``Column/back``.
    private(set) var columns: [Column] = []
    private var nextSerial = 0

    /// The serial of the newest column, if any.
    var newestSerial: Int? { columns.last?.serial }

    /// Forgets every column (a new chain starts with the next one).
    mutating func removeAll() { columns.removeAll(keepingCapacity: true) }

    /// Appends a column; `back` empty means it starts a new chain.
    mutating func append(
        states: [MatchCandidate], viterbi: [Double], filter: [Double], estimates: [AlongTrackEstimate], back: [Int]
    ) {
        guard capacity > 0 else { return }
        if back.isEmpty { columns.removeAll(keepingCapacity: true) }
        let links = back.isEmpty ? Array(repeating: -1, count: states.count) : back
        columns.append(
            Column(
                serial: nextSerial, states: states, viterbi: viterbi, filter: filter, estimates: estimates,
                back: links))
        nextSerial += 1
        if columns.count > capacity { columns.removeFirst(columns.count - capacity) }
    }

    /// The best path through the kept columns, ending at the newest column's best state: for each
    /// column it reaches (newest first, back to the chain's start or the oldest kept column), its
    /// position in ``columns`` and the state's index.
    func bestPath() -> [(column: Int, state: Int)] {
        guard let newest = columns.last, !newest.viterbi.isEmpty else { return [] }
        var state = 0
        for j in newest.viterbi.indices where newest.viterbi[j] > newest.viterbi[state] { state = j }
        var path: [(column: Int, state: Int)] = []
        var c = columns.count - 1
        while c >= 0, state >= 0, state < columns[c].states.count {
            path.append((c, state))
            state = columns[c].back[state]
            c -= 1
        }
        return path
    }
}
