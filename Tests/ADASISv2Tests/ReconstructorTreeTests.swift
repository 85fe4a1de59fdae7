import Testing
@testable import ADASISv2

/// Scripted message sequences for the path tree: META-DATA, STUBs, re-rooting, discards, counters.
@Suite struct ReconstructorTreeTests {
    private func position(_ offset: UInt16, path: UInt8 = 8, index: UInt8 = 0) -> ADASISMessage {
        .position(PositionMessage(offset: offset, pathIndex: path, positionIndex: index, speed: 214))
    }

    private func stub(
        _ offset: UInt16, parent: UInt8 = 8, child: UInt8, angle: UInt8 = 64,
        probability: UInt8 = 10, last: Bool = true
    ) -> ADASISMessage {
        .stub(
            StubMessage(
                offset: offset, pathIndex: parent, subPathIndex: child, relativeProbability: probability,
                functionalRoadClass: .class4, formOfWay: .singleCarriageway, turnAngle: angle,
                isLastStubAtOffset: last))
    }

    private func segment(_ offset: UInt16, path: UInt8 = 8, limit: UInt8 = 11) -> ADASISMessage {
        .segment(SegmentMessage(offset: offset, pathIndex: path, effectiveSpeedLimit: limit))
    }

    private func run(_ messages: [ADASISMessage], into reconstructor: inout HorizonReconstructor) {
        for (step, message) in messages.enumerated() { reconstructor.apply(message, time: Double(step) * 0.1) }
    }

    @Test func metaDataIsKeptAndDrivesTheSpeedUnits() throws {
        var reconstructor = HorizonReconstructor()
        let metaData = MetaDataMessage(
            countryCode: 826, drivingSide: .left, speedUnits: .milesPerHour,
            mapVersionYear: 25, mapVersionQuarter: 3)
        run([.metaData(metaData), position(0), segment(0, limit: 7)], into: &reconstructor)
        let horizon = reconstructor.horizon
        #expect(horizon.metaData == metaData)
        let units = try #require(horizon.metaData?.speedUnits)
        #expect(horizon.mainPath?.segment(at: 0)?.speedLimitKilometresPerHour(units: units) == 30 * 1.609344)
    }

    @Test func stubsBuildPathsAndSubPaths() throws {
        var reconstructor = HorizonReconstructor()
        run(
            [
                position(0), segment(0), stub(300, child: 9, angle: 64, probability: 20, last: false),
                stub(300, child: 5, angle: 191, probability: 1, last: false), stub(300, child: 6, angle: 0),
                segment(0, path: 9, limit: 9), segment(150, path: 9, limit: 7), stub(100, parent: 9, child: 10),
            ],
            into: &reconstructor)
        let horizon = reconstructor.horizon
        #expect(horizon.mainPathIndex == 8)
        #expect(Set(horizon.paths.keys) == [8, 9, 10])
        #expect(horizon.subPaths(of: 8) == [9] && horizon.subPaths(of: 9) == [10])
        let main = try #require(horizon.mainPath)
        #expect(main.stubs[300]?.map(\.subPathIndex) == [9, 5, 6])
        #expect(main.stubs[300]?.last?.isLastStubAtOffset == true)
        let sub = try #require(horizon.paths[9])
        #expect(sub.parent == 8 && sub.branchOffset == 300)
        #expect(sub.announcingStub?.relativeProbability == 20 && sub.announcingStub?.turnAngleDegrees == 64 * 360 / 254)
        #expect(
            sub.announcingStub?.functionalRoadClass == .class4 && sub.announcingStub?.formOfWay == .singleCarriageway)
        #expect(sub.segment(at: 120)?.effectiveSpeedLimit == 9 && sub.segment(at: 151)?.effectiveSpeedLimit == 7)
        #expect(horizon.paths[10]?.parent == 9 && horizon.paths[10]?.branchOffset == 100)
    }

    @Test func contentBeforeItsStubIsAdoptedAndAReusedIndexStartsAfresh() throws {
        var reconstructor = HorizonReconstructor()
        run([position(0), segment(40, path: 9, limit: 13), stub(300, child: 9)], into: &reconstructor)
        #expect(reconstructor.horizon.paths[9]?.segments[40]?.effectiveSpeedLimit == 13)
        #expect(reconstructor.horizon.paths[9]?.branchOffset == 300)
        run([stub(100, parent: 9, child: 11), stub(900, child: 9)], into: &reconstructor)
        let reused = try #require(reconstructor.horizon.paths[9])
        #expect(reused.branchOffset == 900 && reused.segments.isEmpty)
        #expect(reconstructor.horizon.paths[11] == nil)
    }

    @Test func positionOnASubPathReRootsTheTree() throws {
        var reconstructor = HorizonReconstructor()
        run(
            [
                position(250), segment(0), stub(300, child: 9), stub(300, child: 10, angle: 191),
                stub(100, parent: 9, child: 11), segment(0, path: 9, limit: 9), segment(0, path: 10),
            ],
            into: &reconstructor)
        // The vehicle drives past the junction onto path 9: its offset there is counted from the branch.
        run([position(5, path: 9)], into: &reconstructor)
        let horizon = reconstructor.horizon
        #expect(horizon.mainPathIndex == 9 && horizon.reRootCount == 1)
        #expect(Set(horizon.paths.keys) == [9, 11])
        #expect(horizon.mainPath?.parent == nil && horizon.mainPath?.branchOffset == nil)
        #expect(horizon.vehicleOffset == 5 && horizon.position?.absoluteOffset == 5)
        #expect(horizon.mainPath?.segment(at: 5)?.effectiveSpeedLimit == 9)
        #expect(horizon.paths[11]?.parent == 9)
    }

    @Test func aJumpToAnUnknownPathStartsANewTreeAndOffRoadKeepsIt() {
        var reconstructor = HorizonReconstructor()
        run([position(100), segment(0), stub(300, child: 9)], into: &reconstructor)
        run([position(0, path: 2)], into: &reconstructor)
        #expect(reconstructor.horizon.mainPathIndex == 8 && reconstructor.horizon.vehicleOffset == 100)
        #expect(reconstructor.horizon.position?.absoluteOffset == nil && reconstructor.horizon.paths.count == 2)
        run([position(3, path: 20)], into: &reconstructor)
        #expect(reconstructor.horizon.mainPathIndex == 20 && Set(reconstructor.horizon.paths.keys) == [20])
        #expect(reconstructor.horizon.reRootCount == 1)
        // A second candidate position on another path does not move the vehicle.
        run([position(7, path: 21, index: 1)], into: &reconstructor)
        #expect(reconstructor.horizon.mainPathIndex == 20 && reconstructor.horizon.position?.message.offset == 3)
        #expect(reconstructor.horizon.positionCandidates[1]?.message.pathIndex == 21)
    }

    @Test func invalidOffsetsAndPathIndicesAreDiscardedAndCounted() {
        var reconstructor = HorizonReconstructor()
        run(
            [
                position(0), segment(8191), segment(0, path: 7), segment(0, path: 0), stub(10, child: 7),
                stub(10, child: 8), stub(10, parent: 3, child: 9), stub(20, child: 9), stub(30, parent: 9, child: 9),
                stub(40, parent: 9, child: 12), stub(50, parent: 12, child: 9),
                .profileShort(ProfileShortMessage(offset: 8191, pathIndex: 8, profileType: .curvature, value0: 511)),
                .profileLong(ProfileLongMessage(offset: 0, pathIndex: 3, profileType: .latitude, value: 1)),
            ],
            into: &reconstructor)
        let counters = reconstructor.horizon.counters
        #expect(counters[.segment]?.discarded == 3)
        // Sub-path 7, the main path as sub-path, parent 3, a path as its own child, a cycle 9 → 12 → 9.
        #expect(counters[.stub]?.discarded == 5)
        #expect(counters[.profileShort]?.discarded == 1 && counters[.profileLong]?.discarded == 1)
        #expect(Set(reconstructor.horizon.paths.keys) == [8, 9, 12])
        #expect(reconstructor.horizon.paths[12]?.parent == 9)
        // Path index 4: the current link of ADASIS v2 mini.
        run([segment(0, path: 4, limit: 21)], into: &reconstructor)
        #expect(reconstructor.horizon.currentLinkSegment?.effectiveSpeedLimit == 21)
    }

    @Test func cyclicCounterGapsAreCountedPerMessageType() {
        var reconstructor = HorizonReconstructor()
        func segment(counter: UInt8) -> ADASISMessage {
            .segment(SegmentMessage(offset: UInt16(counter) * 10, pathIndex: 8, cyclicCounter: counter))
        }
        func position(counter: UInt8) -> ADASISMessage {
            .position(PositionMessage(offset: 0, pathIndex: 8, cyclicCounter: counter))
        }
        // SEGMENT counters 0 1 3 (one lost) 3 (repeat: 3 lost) 0; POSITION 0 1 2 3 0 1 without gaps.
        run(
            [
                position(counter: 0), segment(counter: 0), position(counter: 1), segment(counter: 1),
                position(counter: 2), segment(counter: 3), position(counter: 3), segment(counter: 3),
                position(counter: 0), segment(counter: 0), position(counter: 1),
            ], into: &reconstructor)
        let counters = reconstructor.horizon.counters
        #expect(counters[.segment]?.received == 5 && counters[.segment]?.gaps == 2)
        #expect(counters[.segment]?.missedMessages == 4 && counters[.segment]?.lastCounter == 0)
        #expect(counters[.position]?.received == 6 && counters[.position]?.gaps == 0)
        #expect(counters[.position]?.lastTime == 1.0)
        #expect(counters[.stub] == nil)
    }

    @Test func payloadsAreDecodedAndUndecodableOnesCountedWithATypedError() throws {
        var reconstructor = HorizonReconstructor()
        try reconstructor.apply(
            payload: try position(100).encode(byteOrder: .littleEndian), byteOrder: .littleEndian,
            time: 0)
        #expect(reconstructor.horizon.vehicleOffset == 100)
        #expect(throws: FieldCodingError.unsupportedMessageType(7)) {
            try reconstructor.apply(payload: [0xE0, 0, 0, 0, 0, 0, 0, 0], time: 1)
        }
        #expect(throws: FieldCodingError.wrongLength(3)) { try reconstructor.apply(payload: [1, 2, 3], time: 2) }
        #expect(reconstructor.undecodableFrames == 2 && reconstructor.horizon.counters[.position]?.received == 1)
    }
}
