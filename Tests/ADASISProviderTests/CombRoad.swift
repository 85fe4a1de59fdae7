import RoadMap
import TestSupport

/// A main road east with dead ends north, a "comb": more side paths than ADASIS v2 has path
/// indices. Node 1 at x = 0, junction nodes 100 + k at x = 100 + 8k (k < ``teeth``), node 2 at
/// x = 1000; link 1 to the first junction, links 100 + k between junctions, link 2 to the end;
/// dead end 300 + k, 40 m north of junction k.
enum CombRoad {
    /// The dead ends.
    static let teeth = 61

    /// The comb as a graph, for a test to add roads to; `toothClass` gives each dead end's road
    /// class (residential by default).
    static func graph(toothClass: (Int) -> HighwayClass = { _ in .residential }) -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(1, 0, 0)
        for tooth in 0..<teeth {
            let x = 100 + 8 * Double(tooth)
            graph.node(Int64(100 + tooth), x, 0)
            graph.node(Int64(300 + tooth), x, 40)
        }
        graph.node(2, 1000, 0)
        graph.road(1, 1, 100, highway: .secondary, name: "Main")
        for tooth in 0..<(teeth - 1) {
            graph.road(UInt64(100 + tooth), Int64(100 + tooth), Int64(101 + tooth), highway: .secondary, name: "Main")
        }
        graph.road(2, Int64(100 + teeth - 1), 2, highway: .secondary, name: "Main")
        for tooth in 0..<teeth {
            graph.road(
                UInt64(300 + tooth), Int64(100 + tooth), Int64(300 + tooth), highway: toothClass(tooth),
                name: "Side \(tooth)")
        }
        return graph
    }

    /// The main-road link under `x` metres and the offset on it.
    static func place(_ x: Double) -> (DirectedLink, Double) {
        if x < 100 { return (DirectedLink(LinkID(1), .forward), x) }
        let tooth = Int((x - 100) / 8)
        if tooth >= teeth - 1 { return (DirectedLink(LinkID(2), .forward), x - (100 + 8 * Double(teeth - 1))) }
        return (DirectedLink(LinkID(UInt64(100 + tooth)), .forward), x - (100 + 8 * Double(tooth)))
    }
}
