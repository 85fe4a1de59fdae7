import Testing
import RoadMap
@testable import Horizon
import TestSupport

@Suite struct PathTreeAttributesTests {
    private func road(direction: LinkDirection, at startOffset: Double = 1000) -> PathLink {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0); graph.node(1, 100, 0)
        graph.road(7, 0, 1, highway: .primary, oneway: .no) { link in
            link.length = 100
            link.forward = DirectionalAttributes(
                speedLimit: SpeedLimit(value: .kilometresPerHour(50), kind: .explicit), lanes: 2)
            link.backward = DirectionalAttributes(
                speedLimit: SpeedLimit(value: .kilometresPerHour(30), kind: .implicit), lanes: 1)
            link.curvature = [
                ProfilePoint(offset: 0, value: 0), ProfilePoint(offset: 40, value: 0.01),
                ProfilePoint(offset: 70, value: 0),
            ]
            link.slope = [ProfilePoint(offset: 0, value: 2), ProfilePoint(offset: 50, value: -3)]
            link.features = [
                PointFeature(kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 30, direction: .forward),
                PointFeature(kind: .safetyCamera(.redLight, speedLimit: nil), offset: 20, direction: nil),
                PointFeature(kind: .trafficSignals, offset: 90, direction: .backward),
            ]
            link.tunnel = true; link.bridge = false; link.builtUpArea = true; link.dividedRoad = nil
            link.countryCode = 246; link.regionCode = 18
        }
        return PathLink(
            road: graph.links[0], direction: direction, startOffset: startOffset, exitBranches: [], routeIndex: nil)
    }

    /// `PathLink` keeps its lists in one shared box: it must still behave as a plain value.
    @Test("a link is a value: a changed copy leaves the original alone; equal links built apart are equal, hash alike")
    func valueSemantics() {
        let original = road(direction: .forward)
        var copy = original
        #expect(copy == original)
        copy.features = []
        copy.exitBranches = [
            JunctionBranch(link: DirectedLink(LinkID(8), .forward), probability: 1, turnAngle: 0, isUTurn: false)
        ]
        #expect(copy != original && original.features.count == 2 && original.exitBranches.isEmpty)
        #expect(copy.curvature == original.curvature && copy.slope == original.slope)
        var again = road(direction: .forward)
        #expect(again == original && again.hashValue == original.hashValue)
        again.slope[0].value = 2.5
        #expect(again != original && original.slope[0].value == 2)
    }

    /// The engine places a link it placed before by shifting a copy placed at offset 0.
    @Test("a link placed at 0 and shifted equals the link placed there, to the bit, both ways")
    func shiftedEqualsPlaced() {
        for direction in [LinkDirection.forward, .backward] {
            for offset in [0, 0.1, 1000, 1234.567_891, 98_765.432_1] {
                let shifted = road(direction: direction, at: 0).shifted(by: offset, routeIndex: 3)
                var placed = road(direction: direction, at: offset)
                placed.routeIndex = 3
                #expect(shifted == placed, "\(direction) at \(offset)")
                #expect(shifted.curvature.map(\.offset.bitPattern) == placed.curvature.map(\.offset.bitPattern))
                #expect(shifted.features.map(\.offset.bitPattern) == placed.features.map(\.offset.bitPattern))
            }
        }
    }

    /// A shifted link keeps its box and moves its lists as they are read; the provider reads
    /// them lazily, everything else as arrays.
    @Test("a moved link's lists read alike as arrays and lazily; a list set on it reads back as set")
    func movedListsReadAlike() {
        for direction in [LinkDirection.forward, .backward] {
            var link = road(direction: direction, at: 0).shifted(by: 1234.5, routeIndex: nil)
            #expect(Array(link.lazyCurvature) == link.curvature && Array(link.lazySlope) == link.slope)
            #expect(Array(link.lazyFeatures) == link.features && link.features.count == 2)
            let features = [PathFeature(offset: 1250.25, kind: .trafficSignals)]
            link.features = features
            #expect(link.features == features && Array(link.lazyFeatures) == features)
            // The lists not set stay where they were.
            #expect(link.curvature == road(direction: direction, at: 1234.5).curvature)
            // Moving the link moves its lists.
            link.startOffset += 10
            #expect(
                link.features.map(\.offset) == [1260.25] && link.slope == road(direction: direction, at: 1244.5).slope)
        }
    }

    @Test func forwardLinkKeepsProfilesAndFeaturesShiftedToPathOffsets() {
        let link = road(direction: .forward)
        #expect(link.attributes.speedLimit == SpeedLimit(value: .kilometresPerHour(50), kind: .explicit))
        #expect(link.attributes.lanes == 2 && link.attributes.oppositeLanes == 1)
        #expect(link.attributes.functionalClass == 3 && link.attributes.formOfWay == .singleCarriageway)
        #expect(
            link.attributes.tunnel == true && link.attributes.bridge == false && link.attributes.builtUpArea == true)
        #expect(
            link.attributes.dividedRoad == nil && link.attributes.countryCode == 246 && link.attributes.regionCode == 18
        )
        #expect(
            link.curvature == [
                .init(offset: 1000, value: 0), .init(offset: 1040, value: 0.01), .init(offset: 1070, value: 0),
            ])
        #expect(link.slope == [.init(offset: 1000, value: 2), .init(offset: 1050, value: -3)])
        #expect(
            link.features == [
                PathFeature(offset: 1020, kind: .safetyCamera(.redLight, speedLimit: nil)),
                PathFeature(offset: 1030, kind: .safetyCamera(.fixedSpeed, speedLimit: 50)),
            ])
        #expect(link.endOffset == 1100 && link.wayID == 70)
    }

    @Test func backwardLinkReversesProfilesFlipsSignsAndFiltersFeatures() {
        let link = road(direction: .backward)
        #expect(link.attributes.speedLimit == SpeedLimit(value: .kilometresPerHour(30), kind: .implicit))
        #expect(link.attributes.lanes == 1 && link.attributes.oppositeLanes == 2)
        // Forward stretches [0,40) 0, [40,70) 0.01, [70,100) 0 → backward [0,30) 0, [30,60) −0.01, [60,100) 0.
        #expect(link.curvature.map(\.offset) == [1000, 1030, 1060])
        #expect(link.curvature.map(\.value) == [0, -0.01, 0])
        // Slope: forward [0,50) +2 %, [50,100) −3 % → backward [0,50) +3 %, [50,100) −2 %.
        #expect(link.slope == [.init(offset: 1000, value: 3), .init(offset: 1050, value: -2)])
        #expect(
            link.features == [
                PathFeature(offset: 1010, kind: .trafficSignals),
                PathFeature(offset: 1080, kind: .safetyCamera(.redLight, speedLimit: nil)),
            ])
    }

    @Test func onewayHasNoOppositeLanes() {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0); graph.node(1, 100, 0)
        graph.road(1, 0, 1, oneway: .forward) { $0.backward.lanes = 2 }
        let link = PathLink(
            road: graph.links[0], direction: .forward, startOffset: 0, exitBranches: [], routeIndex: nil)
        #expect(link.attributes.oppositeLanes == 0)
    }

    @Test func pathSegmentsChangeOnlyWhereAttributesChange() throws {
        var graph = PlaneRoadGraph.street(count: 8, sideEvery: 100)
        for index in graph.links.indices {
            graph.links[index].countryCode = index < 6 ? 246 : 752
            graph.links[index].tunnel = (3...4).contains(index)
        }
        let engine = try HorizonEngine(network: graph.network, configuration: .init(lookAhead: [750]))
        _ = try engine.update(onRoad(fwd(1), 0, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        let segments = main.segments
        #expect(segments.map { Int($0.startOffset.rounded()) } == [0, 300, 500, 600])
        #expect(segments.map(\.attributes.tunnel) == [false, true, false, false])
        #expect(abs(segments.last!.endOffset - main.endOffset) < 1e-9)
        #expect(main.countryChanges.map { Int($0.offset.rounded()) } == [0, 600])
        #expect(main.countryChanges.map(\.countryCode) == [246, 752])
        #expect(main.linkIndex(at: 350) == 3 && main.linkIndex(at: -1) == nil && main.linkIndex(at: 0) == 0)
    }
}
