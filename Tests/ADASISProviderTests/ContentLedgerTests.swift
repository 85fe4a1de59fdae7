import ADASISv2
import Testing

@testable import ADASISProvider

/// `ContentLedger`'s revisions: the provider keeps each side path's retransmission messages packed
/// while its revision stays the same, so every change to a path's atoms must change it.
@Suite struct ContentLedgerTests {
    private func key(_ index: UInt8, _ offset: Int, _ kind: ContentAtom.Kind = .segment) -> ContentAtom.Key {
        ContentAtom.Key(pathIndex: index, offset: offset, kind: kind)
    }

    private func segment(_ index: UInt8, _ offset: UInt16) -> ADASISMessage {
        .segment(SegmentMessage(offset: offset, pathIndex: index))
    }

    @Test("every change to a path's atoms changes its revision and no other path's")
    func revisions() {
        var ledger = ContentLedger()
        var seen: Set<Int> = [ledger.revision(9)]
        func changed(_ step: String, _ change: (inout ContentLedger) -> Void) {
            let other = ledger.revision(10)
            change(&ledger)
            #expect(seen.insert(ledger.revision(9)).inserted, "\(step) left path 9's revision as it was")
            #expect(ledger.revision(10) == other, "\(step) changed path 10's revision")
        }
        ledger[key(10, 5)] = segment(10, 5)
        changed("adding an atom") { $0[key(9, 5)] = segment(9, 5) }
        changed("adding a STUB") { $0[key(9, 40, .stub(ordinal: 0))] = segment(9, 40) }
        changed("replacing an atom") { $0[key(9, 5)] = segment(9, 6) }
        changed("removing an atom") { $0[key(9, 5)] = nil }
        changed("removing STUBs") { $0.removeStubs(9, at: 40) }
        changed("adding again") { $0[key(9, 80)] = segment(9, 80) }
        changed("purging") { $0.purge(9, before: 100) }
        changed("adding after the purge") { $0[key(9, 120)] = segment(9, 120) }
        changed("removing the path") { $0.removePath(9) }
        changed("adding to a path given out again") { $0[key(9, 0)] = segment(9, 0) }
        let other = ledger.revision(10)
        ledger.removeAll()
        #expect(seen.insert(ledger.revision(9)).inserted && ledger.revision(10) != other, "removing everything")
        #expect(ledger.atoms(9).isEmpty && ledger.atoms(10).isEmpty)
    }
}
