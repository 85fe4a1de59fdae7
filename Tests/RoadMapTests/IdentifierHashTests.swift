import Testing
@testable import RoadMap

/// Dictionaries index by the low bits of a key's hash: identifiers that differ little (link
/// identifiers of one tile, a link's two directions, path identifiers counting up) must still
/// spread over the buckets as random values would.
@Suite("identifier hash")
struct IdentifierHashTests {
    /// Distinct buckets among `hashes` in a table of 2^bits buckets.
    private func buckets(_ hashes: [Int], bits: Int) -> Int {
        Set(hashes.map { $0 & (1 << bits - 1) }).count
    }

    @Test("4096 consecutive links, their directions and strided identifiers fill buckets as random keys do")
    func spreadsOverBuckets() {
        let seed = 0x5EED
        let links = (0..<4096).map { LinkID(UInt64(1 << 40) + UInt64($0)) }
        let directed = links.prefix(2048).flatMap { [DirectedLink($0, .forward), DirectedLink($0, .backward)] }
        let strided = (0..<4096).map { NodeID(Int64($0) << 20) }
        // 4096 random keys in 4096 buckets fill 1 − 1/e of them: 2589 (standard deviation about 28).
        for hashes in [
            links.map { $0._rawHashValue(seed: seed) }, directed.map { $0._rawHashValue(seed: seed) },
            strided.map { $0._rawHashValue(seed: seed) },
        ] {
            #expect((2450...2730).contains(buckets(hashes, bits: 12)))
        }
    }

    @Test("the table's seed changes every hash, and equal identifiers hash alike")
    func seedAndEquality() {
        let links = (0..<1000).map { LinkID(UInt64($0)) }
        #expect(links.allSatisfy { $0._rawHashValue(seed: 1) != $0._rawHashValue(seed: 2) })
        #expect(links.allSatisfy { $0._rawHashValue(seed: 7) == LinkID($0.rawValue)._rawHashValue(seed: 7) })
        let table = Dictionary(uniqueKeysWithValues: links.map { ($0, $0.rawValue) })
        #expect(links.allSatisfy { table[$0] == $0.rawValue })
    }
}
