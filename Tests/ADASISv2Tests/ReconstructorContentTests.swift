import Testing
@testable import ADASISv2

/// Scripted message sequences for content: absolute offsets across the 8191 wrap, retransmission,
/// update and the trailing purge.
@Suite struct ReconstructorContentTests {
    private func position(_ offset: UInt16, path: UInt8 = 8) -> ADASISMessage {
        .position(PositionMessage(offset: offset, pathIndex: path))
    }

    private func segment(
        _ offset: UInt16, path: UInt8 = 8, limit: UInt8 = 11, retransmission: Bool = false,
        update: Bool = false
    ) -> ADASISMessage {
        .segment(
            SegmentMessage(
                offset: offset, pathIndex: path, isRetransmission: retransmission, isUpdate: update,
                effectiveSpeedLimit: limit))
    }

    private func curvature(
        _ offset: UInt16, path: UInt8 = 8, _ value0: UInt16, distance: UInt16 = 0, _ value1: UInt16 = 1023,
        retransmission: Bool = false, update: Bool = false
    ) -> ADASISMessage {
        .profileShort(
            ProfileShortMessage(
                offset: offset, pathIndex: path, profileType: .curvature, value0: value0,
                distance1: distance, value1: value1, isRetransmission: retransmission,
                isUpdate: update, accuracy: .medium))
    }

    private func stub(
        _ offset: UInt16, parent: UInt8 = 8, child: UInt8, probability: UInt8 = 10,
        retransmission: Bool = false, update: Bool = false
    ) -> ADASISMessage {
        .stub(
            StubMessage(
                offset: offset, pathIndex: parent, subPathIndex: child, isRetransmission: retransmission,
                isUpdate: update, relativeProbability: probability))
    }

    private func run(_ messages: [ADASISMessage], into reconstructor: inout HorizonReconstructor) {
        for (step, message) in messages.enumerated() { reconstructor.apply(message, time: Double(step) * 0.1) }
    }

    @Test func offsetsAreUnwrappedPast8191AgainstTheVehicle() throws {
        var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 1000))
        run(
            [
                position(7800), position(7900), segment(7600), segment(8100, limit: 13), segment(200, limit: 17),
                curvature(8150, 593, distance: 100, 641),
                .profileLong(
                    ProfileLongMessage(offset: 50, pathIndex: 8, profileType: .linkIdentifier, value: 123_456)),
                stub(300, child: 9),
            ], into: &reconstructor)
        var main = try #require(reconstructor.horizon.mainPath)
        // 200 and 50 lie beyond the wrap: 8191 + 200 = 8391 and 8191 + 50 = 8241.
        #expect(main.segments.keys.sorted() == [7600, 8100, 8391])
        #expect(main.profiles[.short(.curvature)]?.keys.sorted() == [8150, 8250])
        #expect(main.spot(.short(.curvature), at: 8200) == ProfileSpot(value: 593, accuracy: .medium))
        #expect(main.profiles[.long(.linkIdentifier)]?[8241]?.value == 123_456)
        #expect(reconstructor.horizon.paths[9]?.branchOffset == 8491)
        // The vehicle itself crosses the wrap: raw 100 is absolute 8291.
        run([position(100), segment(500, limit: 21), segment(7700, limit: 9)], into: &reconstructor)
        #expect(reconstructor.horizon.vehicleOffset == 8291 && reconstructor.horizon.position?.absoluteOffset == 8291)
        main = try #require(reconstructor.horizon.mainPath)
        #expect(main.segments.keys.sorted() == [7600, 7700, 8100, 8391, 8691])
        #expect(main.segment(at: 8291)?.effectiveSpeedLimit == 13)
        #expect(main.segment(at: 8700)?.effectiveSpeedLimit == 21)
        // Sub-path offsets are counted from the sub-path's start: not unwrapped against the main path.
        run([segment(20, path: 9, limit: 5)], into: &reconstructor)
        #expect(reconstructor.horizon.paths[9]?.segments.keys.sorted() == [20])
        // A retransmitted segment far behind (within the look-behind window) keeps its place.
        run([segment(6500, limit: 3, retransmission: true)], into: &reconstructor)
        #expect(reconstructor.horizon.mainPath?.segments[6500]?.effectiveSpeedLimit == 3)
    }

    @Test func retransmissionsAreIgnoredWhenHeldAndInsertedWhenMissed() throws {
        var reconstructor = HorizonReconstructor()
        run(
            [
                position(0), segment(100, limit: 11), segment(100, limit: 13, retransmission: true),
                segment(200, limit: 17, retransmission: true), curvature(50, 600),
                curvature(50, 700, retransmission: true), curvature(50, 700, distance: 30, 710, retransmission: true),
                stub(300, child: 9, probability: 10), stub(300, child: 9, probability: 25, retransmission: true),
            ],
            into: &reconstructor)
        let main = try #require(reconstructor.horizon.mainPath)
        #expect(main.segments[100]?.effectiveSpeedLimit == 11)
        #expect(main.segments[200]?.effectiveSpeedLimit == 17)
        #expect(main.segments[200]?.isRetransmission == false)
        #expect(
            main.profiles[.short(.curvature)] == [
                50: ProfileSpot(value: 600, accuracy: .medium),
                80: ProfileSpot(value: 710, accuracy: .medium),
            ])
        #expect(main.stubs[300]?.count == 1 && main.stubs[300]?.first?.relativeProbability == 10)
        let counters = reconstructor.horizon.counters
        #expect(counters[.segment]?.retransmissionsIgnored == 1)
        #expect(counters[.profileShort]?.retransmissionsIgnored == 1)
        #expect(counters[.stub]?.retransmissionsIgnored == 1)
    }

    @Test func updatesReplaceWhatIsHeldAtTheSameOffset() throws {
        var reconstructor = HorizonReconstructor()
        run(
            [
                position(0), segment(100, limit: 11), curvature(50, 600), stub(300, child: 9, probability: 10),
                segment(100, limit: 13, update: true), curvature(50, 650, update: true),
                stub(300, child: 9, probability: 25, update: true), segment(0, path: 9),
            ], into: &reconstructor)
        let main = try #require(reconstructor.horizon.mainPath)
        #expect(main.segments[100]?.effectiveSpeedLimit == 13 && main.segments[100]?.isUpdate == false)
        #expect(main.profiles[.short(.curvature)]?[50]?.value == 650)
        #expect(main.stubs[300]?.map(\.relativeProbability) == [25])
        #expect(reconstructor.horizon.paths[9]?.announcingStub?.relativeProbability == 25)
        #expect(reconstructor.horizon.paths[9]?.segments.count == 1)
        // An update flagged as retransmission too still replaces.
        run([segment(100, limit: 17, retransmission: true, update: true)], into: &reconstructor)
        #expect(reconstructor.horizon.mainPath?.segments[100]?.effectiveSpeedLimit == 17)
    }

    @Test func contentFarBehindTheVehicleIsPurgedKeepingWhatIsStillInForce() throws {
        var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 100))
        run(
            [
                position(0), segment(0, limit: 1), segment(50, limit: 2), segment(120, limit: 3),
                segment(300, limit: 4),
                curvature(0, 500), curvature(40, 510, distance: 50, 520), curvature(200, 530),
                stub(60, child: 9), stub(250, child: 10), segment(0, path: 9), segment(0, path: 10),
                stub(30, parent: 9, child: 11),
            ], into: &reconstructor)
        #expect(Set(reconstructor.horizon.paths.keys) == [8, 9, 10, 11])
        run([position(250)], into: &reconstructor)
        let horizon = reconstructor.horizon
        let main = try #require(horizon.mainPath)
        // Purge line 150: the segment at 120 and the spot at 90 are still in force there.
        #expect(main.segments.keys.sorted() == [120, 300])
        #expect(main.profiles[.short(.curvature)]?.keys.sorted() == [90, 200])
        #expect(main.stubs.keys.sorted() == [250])
        #expect(Set(horizon.paths.keys) == [8, 10])
        #expect(main.segment(at: 250)?.effectiveSpeedLimit == 3)
        // Content on the sub-path ahead is untouched; once the vehicle is past, it goes too.
        #expect(horizon.paths[10]?.segments.count == 1)
        run([position(400)], into: &reconstructor)
        #expect(Set(reconstructor.horizon.paths.keys) == [8])
    }

    @Test func purgeOnASubPathTheVehicleHasTurnedOnto() throws {
        var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 50))
        run(
            [
                position(100), stub(120, child: 9), segment(0, path: 9, limit: 1), segment(30, path: 9, limit: 2),
                segment(90, path: 9, limit: 3), stub(20, parent: 9, child: 10), stub(150, parent: 9, child: 11),
            ],
            into: &reconstructor)
        run([position(10, path: 9), position(120, path: 9)], into: &reconstructor)
        let horizon = reconstructor.horizon
        #expect(horizon.mainPathIndex == 9 && horizon.vehicleOffset == 120)
        #expect(horizon.mainPath?.segments.keys.sorted() == [30, 90])
        #expect(Set(horizon.paths.keys) == [9, 11])
    }
}
