import Testing
@testable import Horizon

@Suite struct RunningMeanTests {
    @Test("the plain mean while 1/n is above the floor weight, then an exponential mean that follows a change")
    func plainThenExponential() {
        var mean = RunningMean()
        for x in [2.0, 4, 6] { mean.add(x, floorWeight: 0.1) }
        #expect(mean.count == 3 && abs(mean.value - 4) < 1e-12)
        // After ten values the eleventh weighs 0.1, not 1/11.
        for _ in 0..<7 { mean.add(4, floorWeight: 0.1) }
        mean.add(14, floorWeight: 0.1)
        #expect(abs(mean.value - 5) < 1e-12)
    }
}
