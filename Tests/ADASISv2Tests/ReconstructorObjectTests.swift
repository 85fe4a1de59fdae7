import Testing
@testable import ADASISv2

/// Road-object profiles (PROFILE SHORT 18, 19, 20) rebuilt into objects: points, zones paired per
/// type code, zones still open, several objects at one offset, and the purge behind the vehicle.
@Suite("reconstructed road objects")
struct ReconstructorObjectTests {
    static func mark(_ type: ProfileShortType, _ offset: UInt16, code: UInt16, value1: UInt16 = 1023) -> ADASISMessage {
        var message = ProfileShortMessage(offset: offset, pathIndex: 8, profileType: type, value0: code)
        message.value1 = value1
        return .profileShort(message)
    }

    static func position(_ offset: UInt16) -> ADASISMessage {
        .position(PositionMessage(offset: offset, pathIndex: 8))
    }

    @Test("points, zones paired per code, an open zone, adjacent zones and a repeated start")
    func pairing() {
        var reconstructor = HorizonReconstructor()
        for message in [
            Self.position(10),
            Self.mark(.roadObject, 50, code: 9),
            Self.mark(.roadObjectZoneStart, 100, code: 4, value1: 80),
            Self.mark(.roadObjectZoneStart, 100, code: 7),  // a tunnel starting where the zone does
            Self.mark(.roadObjectZoneEnd, 200, code: 7),
            Self.mark(.roadObjectZoneStart, 200, code: 7),  // the next tunnel way
            Self.mark(.roadObjectZoneStart, 250, code: 4, value1: 80),  // a repeated start: ignored
            Self.mark(.roadObjectZoneEnd, 300, code: 7),
        ] {
            reconstructor.apply(message, time: 0)
        }
        let objects = reconstructor.horizon.paths[8]?.objects ?? []
        #expect(
            objects == [
                ReconstructedObject(code: 9, start: 50, end: 50, value: 1023, isPoint: true),
                ReconstructedObject(code: 4, start: 100, end: nil, value: 80, isPoint: false),
                ReconstructedObject(code: 7, start: 100, end: 200, value: 1023, isPoint: false),
                ReconstructedObject(code: 7, start: 200, end: 300, value: 1023, isPoint: false),
            ])
        // The zone's end arrives as the horizon grows.
        reconstructor.apply(Self.mark(.roadObjectZoneEnd, 900, code: 4), time: 1)
        #expect(reconstructor.horizon.paths[8]?.objects.first { $0.code == 4 }?.end == 900)
    }

    @Test("objects wholly behind the trailing line are purged; a zone the vehicle is in stays whole")
    func purge() {
        var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 100))
        for message in [
            Self.position(0),
            Self.mark(.roadObject, 50, code: 11),
            Self.mark(.roadObjectZoneStart, 60, code: 8),
            Self.mark(.roadObjectZoneEnd, 120, code: 8),
            Self.mark(.roadObjectZoneStart, 150, code: 4),
            Self.mark(.roadObjectZoneEnd, 900, code: 4),
            Self.position(400),
        ] {
            reconstructor.apply(message, time: 0)
        }
        let objects = reconstructor.horizon.paths[8]?.objects ?? []
        #expect(objects == [ReconstructedObject(code: 4, start: 150, end: 900, value: 1023, isPoint: false)])
    }

    @Test("an Update with Distance1 = 1023 withdraws a mark (an incident gone); a plain retransmission does not")
    func withdrawal() {
        var reconstructor = HorizonReconstructor()
        for message in [
            Self.position(10),
            Self.mark(.roadObjectZoneStart, 100, code: 13),
            Self.mark(.roadObjectZoneEnd, 200, code: 13),
            Self.mark(.roadObjectZoneStart, 400, code: 15, value1: 12),
            Self.mark(.roadObjectZoneEnd, 500, code: 15),
        ] {
            reconstructor.apply(message, time: 0)
        }
        #expect(reconstructor.horizon.paths[8]?.objects.count == 2)
        for offset: UInt16 in [100, 200] {
            guard
                case .profileShort(var withdrawal) = Self.mark(
                    offset == 100 ? .roadObjectZoneStart : .roadObjectZoneEnd, offset, code: 13)
            else { continue }
            withdrawal.distance1 = 1023
            withdrawal.isUpdate = true
            reconstructor.apply(.profileShort(withdrawal), time: 1)
        }
        #expect(
            reconstructor.horizon.paths[8]?.objects == [
                ReconstructedObject(code: 15, start: 400, end: 500, value: 12, isPoint: false)
            ])
        // Distance1 = 1023 without Update (not a withdrawal) stores the mark as before.
        guard case .profileShort(var plain) = Self.mark(.roadObjectZoneStart, 100, code: 13) else { return }
        plain.distance1 = 1023
        reconstructor.apply(.profileShort(plain), time: 2)
        #expect(reconstructor.horizon.paths[8]?.objects.contains { $0.code == 13 } == true)
    }
}
