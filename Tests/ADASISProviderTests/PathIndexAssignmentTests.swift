import Horizon
import Testing

@testable import ADASISProvider

@Suite struct PathIndexAssignmentTests {
    private let a = PathID(rawValue: 1), b = PathID(rawValue: 2)

    @Test("an index given, moved and freed is found both ways, and nowhere else")
    func bothWays() {
        var assignment = PathIndexAssignment()
        #expect(assignment[a] == nil && assignment.path(holding: 8) == nil)
        assignment[a] = 8
        assignment[b] = 9
        #expect(assignment[a] == 8 && assignment.path(holding: 8) == a && assignment.path(holding: 9) == b)
        // A path given another index no longer holds its old one.
        assignment[a] = 10
        #expect(assignment.path(holding: 8) == nil && assignment.path(holding: 10) == a)
        assignment[a] = nil
        #expect(assignment[a] == nil && assignment.path(holding: 10) == nil && assignment.indices == [b: 9])
        // Indices past the six bits of the wire are held by nobody.
        #expect(assignment.path(holding: 64) == nil && assignment.path(holding: 255) == nil)
    }

    @Test("an index given to a second path is taken from the first")
    func oneHolderPerIndex() {
        var assignment = PathIndexAssignment()
        assignment[a] = 12
        assignment[b] = 12
        #expect(assignment[a] == nil && assignment[b] == 12 && assignment.path(holding: 12) == b)
        assignment[a] = nil
        #expect(assignment.path(holding: 12) == b)
    }
}
