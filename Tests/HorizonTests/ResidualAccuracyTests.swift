import Testing
@testable import Horizon

@Suite("accuracy estimated from residuals")
struct ResidualAccuracyTests {
    @Test("needs enough fixes, gives √(mean d²/2), clamped to the configured bounds")
    func estimate() {
        let configuration = MatcherConfiguration()
        var estimate = ResidualAccuracy()
        for _ in 0..<9 { estimate.add(10, configuration) }
        #expect(estimate.accuracy(configuration) == nil)
        estimate.add(10, configuration)
        // d = 10 m every time: σ per axis = 10 / √2.
        #expect(abs((estimate.accuracy(configuration) ?? 0) - 10 / 2.0.squareRoot()) < 1e-9)
        var precise = ResidualAccuracy()
        for _ in 0..<50 { precise.add(1, configuration) }
        #expect(precise.accuracy(configuration) == configuration.minimumAccuracy)
        var poor = ResidualAccuracy()
        for _ in 0..<50 { poor.add(100, configuration) }
        #expect(poor.accuracy(configuration) == configuration.maximumEstimatedAccuracy)
        var off = configuration
        off.estimatesAccuracy = false
        var unused = ResidualAccuracy()
        for _ in 0..<50 { unused.add(1, off) }
        #expect(unused.accuracy(off) == nil)
    }
}
