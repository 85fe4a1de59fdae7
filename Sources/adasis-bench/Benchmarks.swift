import ArgumentParser

/// Benchmarks with recorded commands (see README, "Measured"). Build in release mode:
/// `swift run -c release adasis-bench map`.
@main
struct Benchmarks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adasis-bench",
        abstract: "Measure import, query, per-fix, route-query and vector-tile latencies as p50/p99.",
        subcommands: [MapBenchmark.self, HorizonBenchmark.self, RouteBenchmark.self, TileBenchmark.self])
}
