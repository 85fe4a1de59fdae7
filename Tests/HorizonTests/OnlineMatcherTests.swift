import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

@Suite struct OnlineMatcherTests {
    private func run(_ matcher: OnlineMapMatcher, _ fixes: [GNSSFix]) throws -> [MatchResult] {
        try fixes.map { try matcher.match($0) }
    }

    /// A main street along y = 0 from x = 0 to 1000 in five 200 m links (ids 1…5, nodes 0…5), with
    /// two-way cross streets every 200 m (ids 11…14) from y = −150 to 150 through its nodes.
    private func streetGrid() -> PlaneRoadGraph {
        var g = PlaneRoadGraph()
        for k in 0..<5 {
            g.add(UInt64(k + 1), Int64(k), Int64(k + 1), [(Double(k) * 200, 0), (Double(k + 1) * 200, 0)])
        }
        for k in 1...4 {
            let x = Double(k) * 200
            g.add(UInt64(10 + k), Int64(100 + k), Int64(k), [(x, -150), (x, 0)])
            g.add(UInt64(20 + k), Int64(k), Int64(200 + k), [(x, 0), (x, 150)])
        }
        return g
    }

    @Test func straightRoadWithFiveMetreNoiseIsMatchedToTheRightLink() throws {
        let g = streetGrid()
        let matcher = OnlineMapMatcher(network: g.network)
        let drive = SimulatedDrive(path: [(0, 0), (1000, 0)], speed: { _ in 12 }, duration: 80, noise: 5, seed: 7)
        let results = try run(matcher, drive.fixes)
        var correct = 0
        for (result, truth) in zip(results, drive.truth) {
            let expected = DirectedLink(LinkID(UInt64(min(4, Int(truth.x / 200)) + 1)), .forward)
            let nearNode = abs(truth.x - (truth.x / 200).rounded() * 200) < 3
            if result.state.position?.link == expected || nearNode { correct += 1 }
        }
        let share = Double(correct) / Double(results.count)
        #expect(share >= 0.95, "correct link for \(correct) of \(results.count) fixes")
        #expect(results.first?.discontinuity == true)
        #expect(results.dropFirst().allSatisfy { !$0.discontinuity })
    }

    @Test func serviceRoadFifteenMetresBesideTheMainRoadIsNotTaken() throws {
        // Main road y = 0 split at x = 100 and 900 (ids 1–3); a service road (ids 4–6) leaves at
        // x = 100, runs along y = 15 and rejoins at x = 900.
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (100, 0)], highway: .primary)
        g.add(2, 1, 2, [(100, 0), (900, 0)], highway: .primary)
        g.add(3, 2, 3, [(900, 0), (1100, 0)], highway: .primary)
        g.add(4, 1, 4, [(100, 0), (120, 15)], highway: .service)
        g.add(5, 4, 5, [(120, 15), (880, 15)], highway: .service)
        g.add(6, 5, 2, [(880, 15), (900, 0)], highway: .service)
        for seed: UInt64 in [1, 2, 3] {
            let matcher = OnlineMapMatcher(network: g.network)
            let drive = SimulatedDrive(
                path: [(0, 0), (1100, 0)], speed: { _ in 15 }, duration: 70, noise: 5, seed: seed)
            let links = try run(matcher, drive.fixes).map { $0.state.position?.link.link }
            let onService = links.filter { [LinkID(4), LinkID(5), LinkID(6)].contains($0) }.count
            #expect(onService == 0, "seed \(seed): \(onService) fixes on the service road")
            #expect(links.allSatisfy { $0 != nil })
        }
    }

    @Test func bridgeOverAMotorwayIsNotConfusedWithIt() throws {
        // Motorway along y = 0 (id 1); a street crosses over it on a bridge (id 2), with no junction.
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(-1000, 0), (1000, 0)], oneway: .forward, highway: .motorway)
        g.add(2, 2, 3, [(0, -500), (0, 500)], highway: .residential)
        // No heading and no speed: only transitions can keep the vehicle on the motorway.
        var drive = SimulatedDrive(path: [(-600, 0), (600, 0)], speed: { _ in 30 }, duration: 38, noise: 5, seed: 11)
        for k in drive.fixes.indices { drive.fixes[k].heading = nil; drive.fixes[k].speed = nil }
        let results = try run(OnlineMapMatcher(network: g.network), drive.fixes)
        #expect(results.allSatisfy { $0.state.position?.link == DirectedLink(LinkID(1), .forward) })
    }

    @Test func aStopAtAJunctionDoesNotDriftOntoTheCrossingRoad() throws {
        // Approach from the west on link 1 (to the junction at x = 0), cross street 2/3 north–south,
        // link 4 continues east. The car stops 8 m before the junction for 30 s, then drives on.
        var g = PlaneRoadGraph()
        g.add(1, 1, 0, [(-300, 0), (0, 0)])
        g.add(2, 0, 2, [(0, 0), (0, 200)])
        g.add(3, 3, 0, [(0, -200), (0, 0)])
        g.add(4, 0, 4, [(0, 0), (300, 0)])
        for seed: UInt64 in [5, 6, 7] {
            let speed: (Double) -> Double = { t in t < 24 ? 12 : (t < 54 ? 0 : 8) }
            let drive = SimulatedDrive(path: [(-296, 0), (300, 0)], speed: speed, duration: 80, noise: 5, seed: seed)
            let results = try run(OnlineMapMatcher(network: g.network), drive.fixes)
            let stopped = results.indices.filter { drive.fixes[$0].speed == 0 }
            #expect(stopped.count == 30)
            let atStop = stopped.map { results[$0].state.position }
            #expect(atStop.allSatisfy { $0?.link == DirectedLink(LinkID(1), .forward) }, "seed \(seed)")
            // Held in place: the matched offset does not wander while stopped.
            let offsets = atStop.compactMap { $0?.offset }
            #expect((offsets.max() ?? 0) - (offsets.min() ?? 0) < 1e-9, "seed \(seed): offsets \(offsets)")
            // Then it goes straight on.
            #expect(results.last?.state.position?.link == DirectedLink(LinkID(4), .forward))
        }
    }

    @Test func aSlowTurnIsFollowedWithoutFlicker() throws {
        // From the west (link 1) a right turn south (link 3, driven backward) at 3 m/s, with a
        // rounded corner; link 2 goes north, link 4 east.
        var g = PlaneRoadGraph()
        g.add(1, 1, 0, [(-200, 0), (0, 0)])
        g.add(2, 0, 2, [(0, 0), (0, 200)])
        g.add(3, 3, 0, [(0, -200), (0, 0)])
        g.add(4, 0, 4, [(0, 0), (200, 0)])
        let path: [(Double, Double)] = [(-120, 0), (-6, 0), (-3, -1), (-1, -3), (0, -6), (0, -120)]
        for seed: UInt64 in [31, 32, 33] {
            let drive = SimulatedDrive(path: path, speed: { _ in 3 }, duration: 75, noise: 5, seed: seed)
            let links = try run(OnlineMapMatcher(network: g.network), drive.fixes).map { $0.state.position?.link }
            let truth = drive.truth.map {
                $0.y < -3 ? DirectedLink(LinkID(3), .backward) : DirectedLink(LinkID(1), .forward)
            }
            let correct = zip(links, truth).filter { $0 == $1 }.count
            #expect(correct * 100 >= links.count * 95, "seed \(seed): \(correct) of \(links.count)")
            let changes = zip(links, links.dropFirst()).filter { $0 != $1 }.count
            #expect(changes <= 2, "seed \(seed): \(links.map { $0?.description ?? "-" })")
        }
    }

    @Test func aJumpOfTwoKilometresIsBelievedAfterThreeFixesAsADiscontinuity() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (500, 0)])
        g.add(2, 2, 3, [(0, 2000), (500, 2000)])
        var fixes = SimulatedDrive(path: [(0, 0), (500, 0)], speed: { _ in 10 }, duration: 10, noise: 3, seed: 3).fixes
        fixes +=
            SimulatedDrive(
                path: [(100, 2000), (500, 2000)], speed: { _ in 10 }, duration: 5, noise: 3, seed: 4,
                startTime: 11
            ).fixes
        let matcher = OnlineMapMatcher(network: g.network)
        let results = try run(matcher, fixes)
        // The first three fixes 2 km away are coasted over as outliers (a reflection would look the
        // same); the fourth is believed, and the match starts over there.
        #expect(
            results.map(\.discontinuity) == [true] + Array(repeating: false, count: 13) + [true]
                + Array(repeating: false, count: 2))
        #expect(matcher.outliers == 3)
        #expect((11...13).allSatisfy { results[$0].state.position?.link.link == LinkID(1) })
        #expect(results[14].state.position?.link.link == LinkID(2))
    }

    @Test func aTimeGapRestartsAndGNSSLossIsUnknown() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (1000, 0)])
        let matcher = OnlineMapMatcher(network: g.network)
        var fixes = SimulatedDrive(path: [(0, 0), (1000, 0)], speed: { _ in 10 }, duration: 40, noise: 2, seed: 9).fixes
        fixes[10].quality = .noFix
        fixes.removeSubrange(20..<30)  // a 10 s gap
        let results = try run(matcher, fixes)
        #expect(results[10].state == .unknown)
        #expect(results[11].discontinuity && results[20].discontinuity)
        #expect(results.indices.filter { results[$0].discontinuity } == [0, 11, 20])
    }

    @Test func goingOffRoadAndBackIsOffRoadThenRecovery() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (1000, 0)])
        // Into a car park 100 m north of the road and back.
        let path: [(Double, Double)] = [(0, 0), (200, 0), (200, 100), (260, 100), (260, 0), (600, 0)]
        let drive = SimulatedDrive(path: path, speed: { _ in 5 }, duration: 120, noise: 3, seed: 12)
        let results = try run(OnlineMapMatcher(network: g.network), drive.fixes)
        let names = results.map(\.state.name)
        let firstOff = try #require(names.firstIndex(of: "off_road"))
        // Away: 3 σ off the road (σ 3 m, the least accuracy: the fused positions lie within a
        // metre or two of the track). A few fixes of evidence (OffMapFilter), or of grace (coasted
        // over as outliers, MatcherConfiguration.maximumOutliersInARow, or the last match held),
        // then off road.
        let away = drive.truth.indices.first { drive.truth[$0].y > 3 * 3 }!
        #expect(firstOff >= away - 3 && firstOff <= away + 5, "off road at fix \(firstOff), left at \(away)")
        // The two fixes before are the grace period: the last match is held.
        #expect(results[firstOff - 2].state.position != nil && results[firstOff - 1].state.position != nil)
        let back = try #require(names[firstOff...].firstIndex(of: "on_road"))
        #expect(results[back].discontinuity)
        #expect(results[back...].allSatisfy { $0.state.position?.link.link == LinkID(1) })
        #expect(results[(back + 1)...].allSatisfy { !$0.discontinuity })
        #expect(
            results[back..<(results.count - 1)].filter { $0.state.position?.link.direction == .forward }.count
                >= (results.count - back) * 9 / 10)
    }

    @Test func candidatesUnreachableFromTheLastMatchAreOffRoadThenARecovery() throws {
        // Two parallel roads 60 m apart with no connection (the car crosses a car park that is
        // not in the map). No speed in the fixes, so 60 m in a second is not a jump.
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (1000, 0)])
        g.add(2, 2, 3, [(0, 60), (1000, 60)])
        let matcher = OnlineMapMatcher(network: g.network)
        var results: [MatchResult] = []
        for t in 0..<10 {
            let p = g.point(Double(t) * 10, t < 5 ? 0 : 60)
            results.append(try matcher.match(GNSSFix(time: Double(t), latitude: p.latitude, longitude: p.longitude)))
        }
        #expect(
            results.map(\.state.name) == Array(repeating: "on_road", count: 5) + ["off_road"]
                + Array(repeating: "on_road", count: 4))
        #expect(results.map(\.discontinuity) == [true, false, false, false, false, false, true, false, false, false])
        #expect(results[6].state.position?.link.link == LinkID(2))
    }

    @Test func resultsAreDeterministicAndResetStartsOver() throws {
        let g = streetGrid()
        let drive = SimulatedDrive(
            path: [(0, 0), (400, 0), (400, 150)], speed: { _ in 10 }, duration: 50,
            noise: 5, seed: 21)
        let matcher = OnlineMapMatcher(network: g.network)
        let first = try run(matcher, drive.fixes)
        matcher.reset()
        let second = try run(matcher, drive.fixes)
        let third = try run(OnlineMapMatcher(network: g.network), drive.fixes)
        #expect(first == second && second == third)
        #expect(
            first.allSatisfy { ($0.state.position?.confidence ?? 0) > 0 && ($0.state.position?.confidence ?? 2) <= 1 })
        // The turn north at x = 400 is followed.
        #expect(first.last?.state.position?.link == DirectedLink(LinkID(22), .forward))
    }

    @Test func aBrokenConfigurationDegradesInsteadOfProducingNaN() throws {
        var configuration = MatcherConfiguration()
        configuration.transitionScale = 0
        configuration.maximumCandidates = -3
        configuration.minimumAccuracy = .nan
        configuration.offRoadAfterMisses = 0
        let matcher = OnlineMapMatcher(network: streetGrid().network, configuration: configuration)
        #expect(matcher.configuration.transitionScale == 0.1 && matcher.configuration.maximumCandidates == 1)
        #expect(matcher.configuration.minimumAccuracy == 0.1 && matcher.configuration.offRoadAfterMisses == 1)
        let drive = SimulatedDrive(path: [(0, 0), (600, 0)], speed: { _ in 10 }, duration: 30, noise: 2, seed: 5)
        for fix in drive.fixes {
            let confidence = try #require(try matcher.match(fix).state.position?.confidence)
            #expect(confidence.isFinite && confidence > 0 && confidence <= 1)
        }
    }

    @Test func invalidFixesAreTypedErrors() {
        let matcher = OnlineMapMatcher(network: streetGrid().network)
        #expect(throws: MatchingError(field: .latitude, value: 95, time: 3)) {
            try matcher.match(GNSSFix(time: 3, latitude: 95, longitude: 24))
        }
        #expect(throws: MatchingError.self) { try matcher.match(GNSSFix(time: .nan, latitude: 60, longitude: 24)) }
        #expect(throws: MatchingError.self) {
            try matcher.match(GNSSFix(time: 1, latitude: 60, longitude: 24, speed: -1))
        }
        #expect(MatchingError(field: .speed, value: -1, time: 1).description.contains("speed -1.0"))
    }
}

@Suite struct StationaryStartTests {
    /// A two-way street along y = 0 from x = 0 to 600 in three 200 m links (ids 1…3).
    private func street() -> PlaneRoadGraph {
        var g = PlaneRoadGraph()
        for k in 0..<3 {
            g.add(UInt64(k + 1), Int64(k), Int64(k + 1), [(Double(k) * 200, 0), (Double(k + 1) * 200, 0)])
        }
        return g
    }

    private func fix(_ g: PlaneRoadGraph, _ t: Double, _ x: Double, speed: Double, heading: Double?) -> GNSSFix {
        let p = g.point(x, 2)
        return GNSSFix(time: t, latitude: p.latitude, longitude: p.longitude, speed: speed, heading: heading)
    }

    /// A car parked on a two-way street gives no direction: the first match guesses one. Driving
    /// off east and west from the same spot, one of the two guesses is wrong, and the first moving
    /// fix turns it round with a discontinuity, so the horizon is rebuilt rather than searched for
    /// the new link along a tree grown the wrong way.
    @Test func directionGuessedWhileStoppedIsCorrectedWithADiscontinuity() throws {
        let g = street()
        var corrected = 0
        for (heading, step, direction) in [(90.0, 3.0, LinkDirection.forward), (270, -3, .backward)] {
            let matcher = OnlineMapMatcher(network: g.network)
            var results = [try matcher.match(fix(g, 0, 300, speed: 0, heading: nil))]
            for t in 1...5 {
                results.append(try matcher.match(fix(g, Double(t), 300 + step * Double(t), speed: 3, heading: heading)))
            }
            let first = try #require(results[0].state.position)
            let moving = try #require(results[1].state.position)
            #expect(first.link.link == LinkID(2) && moving.link == DirectedLink(LinkID(2), direction))
            if first.link != moving.link {
                corrected += 1
                #expect(results[1].discontinuity, "heading \(heading): direction turned round without a discontinuity")
            } else {
                #expect(!results[1].discontinuity)
            }
            #expect(
                results.dropFirst(2).allSatisfy { !$0.discontinuity && $0.state.position?.link.direction == direction })
        }
        #expect(corrected == 1)
    }

    /// A receiver at standstill that reports a heading (the way it last moved, or the vehicle's
    /// with dead reckoning) settles the guess: the first match takes that direction, in both
    /// directions of the street, and driving off needs no discontinuity (the horizon built at the
    /// first fix is kept).
    @Test func headingReportedAtStandstillSetsTheFirstDirection() throws {
        let g = street()
        for (heading, step, direction) in [(90.0, 3.0, LinkDirection.forward), (270, -3, .backward)] {
            let matcher = OnlineMapMatcher(network: g.network)
            var results = [try matcher.match(fix(g, 0, 300, speed: 0, heading: heading))]
            for t in 1...5 {
                results.append(try matcher.match(fix(g, Double(t), 300 + step * Double(t), speed: 3, heading: heading)))
            }
            #expect(results[0].state.position?.link == DirectedLink(LinkID(2), direction), "heading \(heading)")
            #expect(results.allSatisfy { $0.state.position?.link.direction == direction })
            #expect(results.dropFirst().allSatisfy { !$0.discontinuity }, "heading \(heading)")
        }
    }

    /// A heading reported at standstill only breaks the tie: when it is wrong (a receiver that
    /// reports noise while stopped), the first moving fix still turns the direction round, with a
    /// discontinuity.
    @Test func wrongHeadingAtStandstillYieldsToTheFirstMovingFix() throws {
        let g = street()
        let matcher = OnlineMapMatcher(network: g.network)
        let first = try matcher.match(fix(g, 0, 300, speed: 0, heading: 270))
        #expect(first.state.position?.link == DirectedLink(LinkID(2), .backward))
        let moving = try matcher.match(fix(g, 1, 303, speed: 3, heading: 90))
        #expect(moving.state.position?.link == DirectedLink(LinkID(2), .forward))
        #expect(moving.discontinuity)
    }
}

@Suite struct LeapCheckTests {
    /// Three 200 m links along y = 0 (ids 1…3), two-way.
    private let g: PlaneRoadGraph = {
        var g = PlaneRoadGraph()
        for k in 0..<3 {
            g.add(UInt64(k + 1), Int64(k), Int64(k + 1), [(Double(k) * 200, 0), (Double(k + 1) * 200, 0)])
        }
        return g
    }()

    private func at(_ id: UInt64, _ offset: Double, _ direction: LinkDirection = .forward) -> MatchedPosition {
        let x = Double(id - 1) * 200 + (direction == .forward ? offset : 200 - offset)
        return MatchedPosition(
            link: DirectedLink(LinkID(id), direction), offset: offset, point: g.point(x, 0), confidence: 1)
    }

    private func fix(_ t: Double, speed: Double) -> GNSSFix {
        let p = g.point(0, 0)
        return GNSSFix(time: t, latitude: p.latitude, longitude: p.longitude, speed: speed, heading: 90)
    }

    private func leaps(_ a: MatchedPosition, _ b: MatchedPosition) throws -> Bool {
        try JumpDetector(configuration: .init()).isLeap(
            from: a, at: fix(0, speed: 10), to: b, at: fix(1, speed: 10), network: g.network)
    }

    /// At 10 m/s over one second the check allows 2 × 10 + 5 m/s plus 3σ of both 5 m fixes plus
    /// 10 m: 65 m. Crossing a junction within that is driving, jitter back across it is noise;
    /// 350 m ahead, or the same road turned round 160 m away, is a leap.
    @Test func onlyAPositionBeyondReachOfTheRoadIsALeap() throws {
        #expect(try !leaps(at(1, 190), at(2, 20)))
        #expect(try !leaps(at(2, 5), at(1, 195)))
        #expect(try !leaps(at(1, 100), at(1, 150)))
        #expect(try leaps(at(1, 50), at(2, 200)))
        #expect(try leaps(at(1, 50), at(1, 150)))
        #expect(try !leaps(at(2, 100), at(2, 90, .backward)))  // turned round where it was
        #expect(try leaps(at(2, 20), at(2, 20, .backward)))  // 160 m away on the same road
    }
}
