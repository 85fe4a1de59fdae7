import Testing
@testable import ADASISv2
import TestSupport

/// Physical value ↔ code helpers of the message fields.
@Suite struct MessageValueTests {
    @Test func speedLimitsInKilometresAndMilesPerHour() {
        #expect(ValueCoding.speedLimitCode(kilometresPerHour: 50, units: .kilometresPerHour) == 11)
        #expect(ValueCoding.speedLimitCode(kilometresPerHour: 30 * 1.609344, units: .milesPerHour) == 7)
        #expect(ValueCoding.speedLimitCode(kilometresPerHour: 70 * 1.609344, units: .milesPerHour) == 15)
        #expect(ValueCoding.speedLimitCode(kilometresPerHour: nil, units: .milesPerHour) == 0)
        #expect(ValueCoding.speedLimitCode(kilometresPerHour: .infinity, units: .milesPerHour) == 30)
        #expect(ValueCoding.speedLimitKilometresPerHour(code: 7, units: .milesPerHour) == 30 * 1.609344)
        #expect(ValueCoding.speedLimitKilometresPerHour(code: 21, units: .kilometresPerHour) == 100)
        #expect(ValueCoding.speedLimitKilometresPerHour(code: 30, units: .milesPerHour) == .infinity)
        #expect(ValueCoding.speedLimitKilometresPerHour(code: 31, units: .kilometresPerHour) == nil)
        for code in UInt8(1)...28 {
            for units in SpeedUnits.allCases {
                let limit = ValueCoding.speedLimitKilometresPerHour(code: code, units: units)
                #expect(ValueCoding.speedLimitCode(kilometresPerHour: limit, units: units) == code, "\(code) \(units)")
            }
        }
        let segment = SegmentMessage(offset: 0, pathIndex: 8, effectiveSpeedLimit: 13)
        #expect(segment.speedLimitKilometresPerHour(units: .kilometresPerHour) == 60)
    }

    @Test func probabilityPositionAgeAndSpeed() {
        #expect(ValueCoding.probabilityCode(percent: 100) == 30)
        #expect(ValueCoding.probabilityCode(percent: 0) == 1)
        #expect(ValueCoding.probabilityCode(percent: 50) == 15)
        #expect(ValueCoding.probabilityCode(percent: .nan) == 31)
        #expect(ValueCoding.probabilityPercent(code: 15) == 50)
        #expect(ValueCoding.probabilityPercent(code: 0) == nil && ValueCoding.probabilityPercent(code: 31) == nil)
        #expect(ValueCoding.positionAgeCode(milliseconds: 0) == 0)
        #expect(ValueCoding.positionAgeCode(milliseconds: 2545) == 509)
        #expect(ValueCoding.positionAgeCode(milliseconds: 2546) == 510)
        #expect(ValueCoding.positionAgeCode(milliseconds: -1) == 511)
        #expect(ValueCoding.positionAgeMilliseconds(code: 509) == 2545)
        #expect(ValueCoding.positionAgeMilliseconds(code: 510) == .infinity)
        #expect(ValueCoding.positionAgeMilliseconds(code: 511) == nil)
        #expect(ValueCoding.speedCode(metresPerSecond: 0) == 64)
        #expect(ValueCoding.speedCode(metresPerSecond: -20) == 0)
        #expect(ValueCoding.speedCode(metresPerSecond: 89.2) == 510)
        #expect(ValueCoding.speedCode(metresPerSecond: 200) == 510)
        #expect(ValueCoding.speedCode(metresPerSecond: .infinity) == 511)
        #expect(ValueCoding.speed(code: 0) == -12.8 && ValueCoding.speed(code: 510) == 89.2)
        #expect(ValueCoding.speed(code: 511) == nil)
        for code in UInt16(0)...510 {
            #expect(ValueCoding.speedCode(metresPerSecond: ValueCoding.speed(code: code)!) == code)
        }
    }

    @Test func anglesSlopesCoordinatesAndMapYears() {
        #expect(ValueCoding.angleCode(degrees: 0) == 0)
        #expect(ValueCoding.angleCode(degrees: 180) == 127)
        #expect(ValueCoding.angleCode(degrees: 90) == 64)
        #expect(ValueCoding.angleCode(degrees: -90) == 191)
        #expect(ValueCoding.angleCode(degrees: 359.5) == 0)
        #expect(ValueCoding.angleCode(degrees: .nan) == 254)
        #expect(ValueCoding.angleDegrees(code: 127) == 180)
        #expect(ValueCoding.angleDegrees(code: 254) == nil && ValueCoding.angleDegrees(code: 255) == nil)
        for code in UInt8(0)..<254 {
            #expect(ValueCoding.angleCode(degrees: ValueCoding.angleDegrees(code: code)!) == code)
        }
        #expect(ValueCoding.slopeCode(percent: 0) == 511)
        #expect(ValueCoding.slopeCode(percent: 5.3) == 564)
        // Up to 45° (100 %) a slope beyond the numeric range clamps to the last finite code…
        #expect(ValueCoding.slopeCode(percent: -60) == 1 && ValueCoding.slopeCode(percent: 60) == 1021)
        #expect(ValueCoding.slopeCode(percent: 100) == 1021 && ValueCoding.slopeCode(percent: -100) == 1)
        // …past 45° it is ±∞, on the end codes, and decodes back to ±∞.
        #expect(ValueCoding.slopeCode(percent: 100.1) == 1022 && ValueCoding.slopeCode(percent: -250) == 0)
        #expect(ValueCoding.slopeCode(percent: .infinity) == 1022 && ValueCoding.slopeCode(percent: -.infinity) == 0)
        #expect(ValueCoding.slopePercent(code: 1022) == .infinity && ValueCoding.slopePercent(code: 0) == -.infinity)
        #expect(ValueCoding.slopePercent(code: 1021) == 51 && ValueCoding.slopePercent(code: 1) == -51)
        #expect(ValueCoding.slopeCode(percent: .nan) == 1023)
        #expect(ValueCoding.slopePercent(code: 564) == 5.3 && ValueCoding.slopePercent(code: 1023) == nil)
        #expect(ValueCoding.longitudeCode(degrees: 24.9384) == 2_049_384_000)
        #expect(ValueCoding.latitudeCode(degrees: 60.1699) == 1_501_699_000)
        #expect(ValueCoding.longitudeCode(degrees: 181) == .max && ValueCoding.latitudeCode(degrees: -91) == .max)
        #expect(abs(ValueCoding.longitudeDegrees(code: 2_049_384_000)! - 24.9384) < 1e-9)
        #expect(abs(ValueCoding.latitudeDegrees(code: 1_501_699_000)! - 60.1699) < 1e-9)
        #expect(ValueCoding.longitudeDegrees(code: .max) == nil && ValueCoding.latitudeDegrees(code: .max) == nil)
        #expect(ValueCoding.mapVersionYearCode(year: 2024) == 24 && ValueCoding.mapVersionYearCode(year: 1999) == 63)
        #expect(ValueCoding.mapVersionYear(code: 24) == 2024 && ValueCoding.mapVersionYear(code: 63) == nil)
    }

    @Test func offsetsWrapModulo8191AndUnwrapNearAReference() {
        #expect(PathOffset.wrapped(0) == 0 && PathOffset.wrapped(8190) == 8190)
        #expect(PathOffset.wrapped(8191) == 0 && PathOffset.wrapped(8291) == 100)
        #expect(PathOffset.wrapped(-1) == 8190)
        #expect(PathOffset.unwrapped(100, near: 8000) == 8291)
        #expect(PathOffset.unwrapped(8100, near: 8300) == 8100)
        #expect(PathOffset.unwrapped(50, near: 0) == 50)
        #expect(PathOffset.unwrapped(8191, near: 0) == nil)
        #expect(PathOffset.unwrapped(7000, from: 0) == 7000)
        #expect(PathOffset.unwrapped(100, from: 7500) == 8291)
        #expect(PathOffset.unwrapped(7499, from: 7500) == 7499 + 8191)
        // Extreme references do not overflow.
        #expect(PathOffset.unwrapped(5, near: .max).map { PathOffset.wrapped($0) } == 5)
        #expect(PathOffset.unwrapped(5, from: .min).map { PathOffset.wrapped($0) } == 5)
        var random = SplitMix64(seed: 8191)
        for _ in 0..<2000 {
            let absolute = Int.random(in: 0...100_000, using: &random)
            let reference = absolute + Int.random(in: -4000...4000, using: &random)
            #expect(PathOffset.unwrapped(PathOffset.wrapped(absolute), near: reference) == absolute)
        }
    }
}
