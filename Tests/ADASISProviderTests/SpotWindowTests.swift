import ADASISv2
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider
import TestSupport

/// Three 100 m links east in a row: a curve and a slope on the first, none on the second, and on
/// the third the same curve and slope again, then different values.
private func path() -> HorizonPath {
    var graph = PlaneRoadGraph()
    let curve = 0.004, slope = 3.0
    let profiles: [UInt64: (curvature: [ProfilePoint], slope: [ProfilePoint])] = [
        1: ([ProfilePoint(offset: 10, value: curve)], [ProfilePoint(offset: 10, value: slope)]),
        2: ([], []),
        3: (
            [ProfilePoint(offset: 40, value: curve), ProfilePoint(offset: 70, value: -curve)],
            [ProfilePoint(offset: 40, value: slope), ProfilePoint(offset: 70, value: -slope)]
        ),
    ]
    for id in UInt64(1)...3 {
        let x = Double(id - 1) * 100
        graph.add(id, Int64(id - 1), Int64(id), [(x, 0), (x + 100, 0)]) { link in
            link.curvature = profiles[id]!.curvature
            link.slope = profiles[id]!.slope
        }
    }
    let links = graph.links.enumerated().map { position, road in
        PathLink(
            road: road, direction: .forward, startOffset: road.length * Double(position), exitBranches: [],
            routeIndex: nil)
    }
    return HorizonPath(
        id: PathID(rawValue: 1), parent: nil, branchOffset: nil, level: 0, probability: 1, turnAngle: nil,
        links: links)
}

/// A curvature or slope spot goes where the value changes along the path, whatever window of
/// offsets the provider asks for: a window that starts after a link without points must not
/// repeat the value sent before it (a redundant frame on the bus, and content that depended on
/// when the provider walked the path).
@Suite("profile spots do not depend on the window")
struct SpotWindowTests {
    @Test("a window starting after a link without points sends no spot repeating the value in force")
    func windowAfterPointlessLink() throws {
        let path = path()
        let content = PathContent(
            path: path, pathIndex: 8, sends: ContentSelection(MessageSelection(preset: .all), objectTypes: []),
            units: .kilometresPerHour,
            routeActive: false, objectTypes: [], probability: 1, lookup: NoLinkLookup())
        let length = path.links.map(\.length).reduce(0, +)
        func spots(_ atoms: [ContentAtom]) -> [ContentAtom.Key] {
            atoms.map(\.key).filter { if case .spot = $0.kind { true } else { false } }
        }
        let whole = spots(content.atoms(lower: -.infinity, upper: length))
        // The first link's point and the change on the third link, for each of the two profiles.
        #expect(whole.map(\.offset) == [10, 10, 270, 270])
        for split in stride(from: 5.0, to: length, by: 5) {
            let parts =
                spots(content.atoms(lower: -.infinity, upper: split))
                + spots(content.atoms(lower: split, upper: length))
            #expect(parts.sorted() == whole, "windows split at \(split) m")
        }
    }
}
