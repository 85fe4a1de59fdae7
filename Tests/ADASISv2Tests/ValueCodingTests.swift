import Testing
@testable import ADASISv2

@Test func curvatureCheckPointsFromTheReference() {
    #expect(ValueCoding.curvatureCode(1.0 / 1000) == 593)
    #expect(ValueCoding.curvatureCode(1.0 / 500) == 641)
    #expect(ValueCoding.curvatureCode(1.0 / 100) == 770)
    #expect(ValueCoding.curvatureCode(0) == 511)
    #expect(ValueCoding.curvatureCode(-1.0 / 100) == 252)
    #expect(ValueCoding.curvatureCode(1) == 1022)
    #expect(ValueCoding.curvatureCode(-1) == 0)
}

@Test func curvatureCodeIsStrictlyIncreasingAndDecodesBackToItself() throws {
    var previous = -Double.infinity
    for code in UInt16(0)...1022 {
        let value = try #require(ValueCoding.curvature(code: code))
        #expect(value > previous, "code \(code)")
        #expect(ValueCoding.curvatureCode(value) == code, "code \(code)")
        previous = value
    }
    #expect(ValueCoding.curvature(code: 1023) == nil)
}

@Test func speedLimitCodesFromTheReferenceTable() {
    let table: [(Double?, UInt8)] = [
        (nil, 0), (5, 1), (7, 2), (10, 3), (50, 11), (60, 13), (80, 17), (100, 21),
        (120, 25), (130, 26), (140, 27), (150, 28), (160, 29), (.infinity, 30), (47, 11),
    ]
    for (limit, code) in table {
        #expect(ValueCoding.speedLimitCode(limit) == code, "\(String(describing: limit))")
    }
    for code in UInt8(1)...28 {
        #expect(ValueCoding.speedLimitCode(ValueCoding.speedLimit(code: code)) == code)
    }
    #expect(ValueCoding.speedLimit(code: 31) == nil)
}
