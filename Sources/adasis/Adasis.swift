import ArgumentParser

@main
struct Adasis: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adasis",
        abstract: "ADASIS v2 horizon provider: OSM map → map matching → horizon → CAN frames.",
        subcommands: [MapCommand.self, MatchCommand.self, HorizonCommand.self, ReplayCommand.self, ReconstructCommand.self,
                      RunCommand.self, SendCommand.self, DumpCommand.self, DecodeCommand.self])
}
