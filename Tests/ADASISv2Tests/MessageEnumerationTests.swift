import Foundation
import Testing
@testable import ADASISv2
import TestSupport

/// Every enumeration covers every code of its field, and every case travels through a frame.
@Suite struct MessageEnumerationTests {
    private func coversWidth<E: CaseIterable & RawRepresentable>(_: E.Type, bits: Int) -> Bool
    where E.RawValue == UInt8 {
        E.allCases.map(\.rawValue).sorted() == Array(0..<UInt8(1 << bits))
    }

    @Test func enumerationsCoverEveryCodeOfTheirField() {
        #expect(coversWidth(YesNo.self, bits: 2))
        #expect(coversWidth(FunctionalRoadClass.self, bits: 3))
        #expect(coversWidth(FormOfWay.self, bits: 4))
        #expect(coversWidth(SpeedLimitType.self, bits: 3))
        #expect(coversWidth(CurrentLane.self, bits: 3))
        #expect(coversWidth(RightOfWay.self, bits: 2))
        #expect(coversWidth(ProfileAccuracy.self, bits: 2))
        #expect(coversWidth(MapProvider.self, bits: 3))
        #expect(coversWidth(DrivingSide.self, bits: 1))
        #expect(coversWidth(SpeedUnits.self, bits: 1))
        #expect(ProfileShortType.allCodes.map(\.rawValue) == Array(0...31))
        #expect(ProfileLongType.allCodes.map(\.rawValue) == Array(0...31))
        #expect(ProfileShortType(rawValue: 32) == nil && ProfileLongType(rawValue: 32) == nil)
        #expect(ProfileShortType(rawValue: 16) == .safetyCamera && ProfileShortType(rawValue: 17) == .trafficSignals)
        #expect(ProfileShortType(rawValue: 9) == .reserved(9) && ProfileLongType(rawValue: 11) == .reserved(11))
        #expect(ProfileLongType(rawValue: 7) == .linkIdentifier && ProfileShortType(rawValue: 8) == .headingChange)
    }

    @Test func everySegmentAndStubEnumerationValueRoundTrips() throws {
        func roundTrip(_ message: ADASISMessage) throws {
            #expect(try ADASISMessage.decode(message.encode()) == message)
        }
        for value in YesNo.allCases {
            try roundTrip(
                .segment(
                    SegmentMessage(
                        offset: 1, pathIndex: 8, tunnel: value, bridge: value, builtUpArea: value,
                        partOfCalculatedRoute: value, complexIntersection: value,
                        dividedRoad: value)))
            try roundTrip(
                .stub(
                    StubMessage(
                        offset: 1, pathIndex: 8, subPathIndex: 9, partOfCalculatedRoute: value,
                        complexIntersection: value)))
        }
        for value in FunctionalRoadClass.allCases {
            try roundTrip(.segment(SegmentMessage(offset: 1, pathIndex: 8, functionalRoadClass: value)))
            try roundTrip(.stub(StubMessage(offset: 1, pathIndex: 8, subPathIndex: 9, functionalRoadClass: value)))
        }
        for value in FormOfWay.allCases {
            try roundTrip(.segment(SegmentMessage(offset: 1, pathIndex: 8, formOfWay: value)))
            try roundTrip(.stub(StubMessage(offset: 1, pathIndex: 8, subPathIndex: 9, formOfWay: value)))
        }
        for value in SpeedLimitType.allCases {
            try roundTrip(.segment(SegmentMessage(offset: 1, pathIndex: 8, effectiveSpeedLimitType: value)))
        }
        for value in RightOfWay.allCases {
            try roundTrip(.stub(StubMessage(offset: 1, pathIndex: 8, subPathIndex: 5, rightOfWay: value)))
        }
        for value in CurrentLane.allCases {
            try roundTrip(.position(PositionMessage(offset: 1, pathIndex: 8, currentLane: value)))
        }
    }

    @Test func everyProfileAndMetaDataEnumerationValueRoundTrips() throws {
        func roundTrip(_ message: ADASISMessage) throws {
            #expect(try ADASISMessage.decode(message.encode()) == message)
        }
        for type in ProfileShortType.allCodes {
            for accuracy in ProfileAccuracy.allCases {
                try roundTrip(
                    .profileShort(
                        ProfileShortMessage(
                            offset: 1, pathIndex: 8, profileType: type, value0: 3,
                            accuracy: accuracy)))
            }
        }
        for type in ProfileLongType.allCodes {
            try roundTrip(.profileLong(ProfileLongMessage(offset: 1, pathIndex: 8, profileType: type, value: 3)))
        }
        for provider in MapProvider.allCases {
            for side in DrivingSide.allCases {
                for units in SpeedUnits.allCases {
                    try roundTrip(
                        .metaData(
                            MetaDataMessage(
                                countryCode: 276, drivingSide: side, speedUnits: units,
                                mapProvider: provider)))
                }
            }
        }
    }
}

/// The value tables of `Tools/adasis-v2.dbc` name exactly the non-reserved cases of our enumerations.
@Test func dbcValueTablesAgreeWithTheEnumerations() throws {
    let dbc = try String(contentsOf: Repository.url("Tools/adasis-v2.dbc"), encoding: .utf8)
    var tables: [String: Set<UInt8>] = [:]
    for line in dbc.split(separator: "\n") where line.hasPrefix("VAL_ ") {
        let words = line.split(separator: " ")
        guard words.count > 3 else { continue }
        let codes = words.dropFirst(3).compactMap { UInt8($0) }
        tables["\(words[1]) \(words[2])"] = Set(codes)
    }
    func named<E: CaseIterable & RawRepresentable>(_: E.Type, except reserved: Set<UInt8> = []) -> Set<UInt8>
    where E.RawValue == UInt8 { Set(E.allCases.map(\.rawValue)).subtracting(reserved) }
    #expect(tables["865 CurrentLane"] == named(CurrentLane.self, except: [6]))
    #expect(tables["592 FormOfWay"] == named(FormOfWay.self, except: [6, 7]))
    #expect(tables["593 FormOfWay"] == named(FormOfWay.self, except: [6, 7]))
    #expect(tables["592 EffectiveSpeedLimitType"] == named(SpeedLimitType.self))
    #expect(tables["593 RightOfWay"] == named(RightOfWay.self))
    #expect(tables["866 MapProvider"] == named(MapProvider.self))
    for field in [
        "592 Tunnel", "592 Bridge", "592 BuiltUpArea", "592 PartOfCalculatedRoute", "592 DividedRoad",
        "593 ComplexIntersection",
    ] {
        #expect(tables[field] == named(YesNo.self), "\(field)")
    }
    let identifiers = dbc.split(separator: "\n").filter { $0.hasPrefix("BO_ ") }.compactMap {
        UInt32($0.split(separator: " ")[1])
    }
    #expect(Set(identifiers) == Set(CANIdentifierAssignment.defaults.identifiers.map(\.rawValue)))
}

@Suite("name table")
struct NameTableTests {
    @Test("every message type with a layout has exactly one configuration key, and the key names it back")
    func messageKeys() {
        for type in MessageType.allCases {
            let selectable = SelectableMessage(type)
            #expect((selectable == nil) == (type == .systemSpecific || type == .reserved), "\(type)")
            #expect(selectable?.messageType ?? type == type)
        }
        #expect(Set(SelectableMessage.allCases.map(\.messageType)).count == SelectableMessage.allCases.count)
        #expect(
            SelectableMessage.key(of: .profileShort) == "profile_short"
                && SelectableMessage.key(of: .reserved) == "reserved")
    }

    @Test("every profile key names exactly one PROFILE SHORT or PROFILE LONG type, each type once")
    func profileKeys() {
        for profile in SelectableProfile.allCases {
            #expect((profile.shortType == nil) != (profile.longType == nil), "\(profile)")
        }
        let short = SelectableProfile.allCases.compactMap(\.shortType),
            long = SelectableProfile.allCases.compactMap(\.longType)
        #expect(Set(short).count == short.count && Set(long).count == long.count)
    }

    @Test("every profile and message a preset sends has a key")
    func presetsUseKeys() {
        let short = Set(SelectableProfile.allCases.compactMap(\.shortType))
        let long = Set(SelectableProfile.allCases.compactMap(\.longType))
        let messages = Set(SelectableMessage.allCases.map(\.messageType))
        for preset in MessageSelection.Preset.allCases {
            let selection = MessageSelection(preset: preset)
            #expect(selection.profileShortTypes.isSubset(of: short) && selection.profileLongTypes.isSubset(of: long))
            #expect(selection.messageTypes.isSubset(of: messages))
        }
    }

    @Test("switching a key on and off, and sending only some profiles")
    func switches() {
        var selection = MessageSelection(preset: .default)
        selection.set(.profileLong, sent: false)
        selection.set(.slopeStep, sent: true)
        selection.set(.curvature, sent: false)
        #expect(!selection.sends(.profileLong) && selection.profileShortTypes.contains(.slopeStep))
        #expect(!selection.profileShortTypes.contains(.curvature))
        selection.sendOnly([.linkIdentifier])
        #expect(selection.profileShortTypes.isEmpty && selection.profileLongTypes == [.linkIdentifier])
        #expect(selection.sends(.profileLong) && selection.sends(.linkIdentifier) && !selection.sends(.latitude))
    }
}
