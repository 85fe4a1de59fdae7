import Testing
@testable import ADASISv2
import TestSupport

/// A random typed message with every field drawn over its whole range.
private func randomMessage(using random: inout SplitMix64) -> ADASISMessage {
    func int<T: FixedWidthInteger>(_ bits: Int, _: T.Type = T.self) -> T {
        T(truncatingIfNeeded: UInt64.random(in: 0...((1 << UInt64(bits)) - 1), using: &random))
    }
    func pick<E: CaseIterable>(_: E.Type = E.self) -> E { E.allCases.randomElement(using: &random)! }
    func flag() -> Bool { Bool.random(using: &random) }
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
        return .position(
            PositionMessage(
                offset: int(13), pathIndex: int(6), cyclicCounter: int(2), positionIndex: int(2),
                positionProbability: int(5), positionAge: int(9), positionConfidence: int(3),
                currentLane: pick(), speed: int(9), relativeHeading: int(8)))
    case 1:
        return .segment(
            SegmentMessage(
                offset: int(13), pathIndex: int(6), cyclicCounter: int(2), tunnel: pick(),
                bridge: pick(), builtUpArea: pick(), isRetransmission: flag(), isUpdate: flag(),
                relativeProbability: int(5), functionalRoadClass: pick(),
                partOfCalculatedRoute: pick(), complexIntersection: pick(), formOfWay: pick(),
                effectiveSpeedLimit: int(5), effectiveSpeedLimitType: pick(), dividedRoad: pick(),
                numberOfLanesOppositeDirection: int(2), numberOfLanesDrivingDirection: int(3)))
    case 2:
        return .stub(
            StubMessage(
                offset: int(13), pathIndex: int(6), subPathIndex: int(6), cyclicCounter: int(2),
                isRetransmission: flag(), isUpdate: flag(), relativeProbability: int(5),
                functionalRoadClass: pick(), partOfCalculatedRoute: pick(), complexIntersection: pick(),
                formOfWay: pick(), turnAngle: int(8), isLastStubAtOffset: flag(), rightOfWay: pick(),
                numberOfLanesOppositeDirection: int(2), numberOfLanesDrivingDirection: int(3)))
    case 3:
        return .profileShort(
            ProfileShortMessage(
                offset: int(13), pathIndex: int(6),
                profileType: ProfileShortType(rawValue: int(5))!, value0: int(10),
                distance1: int(10), value1: int(10), cyclicCounter: int(2),
                isControlPoint: flag(), isRetransmission: flag(), isUpdate: flag(),
                accuracy: pick()))
    case 4:
        return .profileLong(
            ProfileLongMessage(
                offset: int(13), pathIndex: int(6),
                profileType: ProfileLongType(rawValue: int(5))!, value: int(32),
                cyclicCounter: int(2), isControlPoint: flag(), isRetransmission: flag(),
                isUpdate: flag()))
    default:
        return .metaData(
            MetaDataMessage(
                countryCode: int(10), drivingSide: pick(), speedUnits: pick(), mapProvider: pick(),
                cyclicCounter: int(2), protocolVersionMajor: int(2), protocolVersionMinor: int(4),
                protocolVersionMinorSub: int(3), hardwareVersion: int(9), regionCode: int(15),
                mapVersionYear: int(6), mapVersionQuarter: int(2)))
    }
}

@Suite struct MessagePropertyTests {
    @Test func randomTypedMessagesRoundTripInBothByteOrders() throws {
        var random = SplitMix64(seed: 0xADA5)
        for _ in 0..<20_000 {
            let message = randomMessage(using: &random)
            let order = ByteOrder.allCases.randomElement(using: &random)!
            let bytes = try message.encode(byteOrder: order)
            #expect(bytes.count == 8)
            #expect(try ADASISMessage.decode(bytes, byteOrder: order) == message)
        }
    }

    @Test func randomBytesDecodeOrThrowATypedErrorAndReencodeWithoutReservedBits() throws {
        var random = SplitMix64(seed: 99)
        var decoded = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...10, using: &random) == 0 ? Int.random(in: 0...12, using: &random) : 8
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            do {
                let message = try ADASISMessage.decode(bytes)
                decoded += 1
                // Re-encoding gives the same bytes except the reserved bits, which are sent as 0.
                let again = try message.encode()
                #expect(try ADASISMessage.decode(again) == message)
                let mask = reservedMask(message.type)
                #expect(zip(bytes, again).enumerated().allSatisfy { index, pair in pair.0 & ~mask[index] == pair.1 })
            } catch {
                switch error {
                case .wrongLength(let length): #expect(length == count && count != 8)
                case .unsupportedMessageType(let type): #expect(type == 0 || type == 7)
                default: Issue.record("unexpected \(error) for \(bytes)")
                }
            }
        }
        #expect(decoded > 10_000)
    }

    /// The reserved bits of a type's layout, as a byte mask (big-endian).
    private func reservedMask(_ type: MessageType) -> [UInt8] {
        var word: UInt64 = 0
        var position = 0
        for field in MessageLayout.fields(of: type) ?? [] {
            if field.isReserved { word |= ((1 << UInt64(field.bits)) - 1) << UInt64(64 - position - field.bits) }
            position += field.bits
        }
        return (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) }
    }
}
