import Foundation
import RoadMap

/// Where the matched position of one fix goes, given the HMM column after that fix: the state
/// ending the best path, placed at its along-track estimate (``AlongTrackEstimate``) — on its own
/// link when the estimate lies on it; on the best-scoring legal successor in the column when the
/// estimate lies past the link's exit (the vehicle crossed the junction while the fix lags behind,
/// walking on over links shorter than the distance driven); on the link the best path came from
/// when it lies before the entry (the fix runs ahead).
struct MatchedPositionPlacement {
    /// The states of the column.
    var column: [MatchCandidate]
    /// Their normalised Viterbi log scores.
    var viterbi: [Double]
    /// Their filtered log probabilities (the confidence).
    var filter: [Double]
    /// Their along-track estimates.
    var estimates: [AlongTrackEstimate]
    /// The state to place; `nil` places the one with the best Viterbi score (the end of the best path).
    var state: Int? = nil

    /// The matched position; its confidence is the filtered posterior of the best state.
    func position(routeSearch: inout RouteDistanceSearch, network: any RoadNetwork) throws -> MatchedPosition {
        var best = 0
        if let state { best = state } else { for j in viterbi.indices where viterbi[j] > viterbi[best] { best = j } }
        let candidate = column[best], estimate = estimates[best]
        let confidence = exp(filter[best])
        if estimate.offset > candidate.length {
            // Walk on through the junctions the estimate passed (links can be shorter than the
            // distance driven between two fixes), each time onto the best-scoring legal successor.
            var current = best, remaining = estimate.offset - candidate.length
            for _ in 0..<Self.maximumLinksWalked {
                guard let next = try bestSuccessor(of: current, routeSearch: &routeSearch, network: network) else {
                    break
                }
                current = next
                if remaining <= column[next].length { break }
                remaining -= column[next].length
            }
            if current != best {
                return try Self.position(
                    on: column[current].link, length: column[current].length,
                    offset: remaining, confidence: confidence, network: network)
            }
        } else if estimate.offset < 0 {
            // Walk back through the junctions the fix ran ahead of, onto the best-scoring state
            // whose link leads into the current one.
            var current = best, remaining = estimate.offset
            for _ in 0..<Self.maximumLinksWalked {
                guard let previous = try bestPredecessor(of: current, routeSearch: &routeSearch, network: network)
                else { break }
                current = previous
                remaining += column[previous].length
                if remaining >= 0 { break }
            }
            if current != best {
                return try Self.position(
                    on: column[current].link, length: column[current].length,
                    offset: remaining, confidence: confidence, network: network)
            }
        }
        return try Self.position(
            on: candidate.link, length: candidate.length, offset: estimate.offset,
            confidence: confidence, network: network)
    }

    /// Junctions the along-track estimate may carry the matched position past in one fix.
    private static let maximumLinksWalked = 8

    /// The column state on a legal successor (not the U-turn) of state `index`'s link with the
    /// best Viterbi score, if any.
    private func bestSuccessor(of index: Int, routeSearch: inout RouteDistanceSearch, network: any RoadNetwork) throws
        -> Int?
    {
        let link = column[index].link
        let successors = try routeSearch.successors(of: link, in: network)
        var next: Int?
        for k in column.indices where column[k].link != link.reversed && successors.contains(column[k].link) {
            if next.map({ viterbi[k] > viterbi[$0] }) ?? true { next = k }
        }
        return next
    }

    /// The column state whose link legally leads into state `index`'s link (not its U-turn) with
    /// the best Viterbi score, if any.
    private func bestPredecessor(
        of index: Int, routeSearch: inout RouteDistanceSearch,
        network: any RoadNetwork
    ) throws -> Int? {
        let link = column[index].link
        var previous: Int?
        for k in column.indices where column[k].link != link.reversed && column[k].link != link {
            guard previous.map({ viterbi[k] > viterbi[$0] }) ?? true else { continue }
            if try routeSearch.successors(of: column[k].link, in: network).contains(link) { previous = k }
        }
        return previous
    }

    /// The position `offset` metres into `link` (clamped to the link), with its point on the geometry.
    private static func position(
        on link: DirectedLink, length: Double, offset: Double, confidence: Double,
        network: any RoadNetwork
    ) throws -> MatchedPosition {
        let offset = min(max(offset, 0), length)
        let road = try network.link(link.link)
        let forwardOffset = link.direction == .forward ? offset : length - offset
        let point =
            road.geometry.point(atOffset: forwardOffset)?.point ?? road.geometry.first
            ?? GeoPoint(latitude: 0, longitude: 0)
        return MatchedPosition(link: link, offset: offset, point: point, confidence: confidence)
    }
}
