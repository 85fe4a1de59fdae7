import ArgumentParser

@main
struct Adasis: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adasis",
        abstract: "ADASIS v2 horizon provider: OSM map → map matching → horizon → CAN frames.",
        discussion: """
            A typical session:
              adasis map import Data/helsinki.osm.pbf -o helsinki.map --country FI
              adasis horizon --map helsinki.map Data/drives/kamppi.csv --at 60
              adasis replay --map helsinki.map Data/drives/kamppi.csv --candump kamppi.log
              adasis decode kamppi.log | head
              adasis reconstruct kamppi.log --at 60
            On a head unit the daemon does it live: adasis run --config /etc/adasis/adasis.toml
            """,
        subcommands: [
            MapCommand.self, ObjectsCommand.self, RouteCommand.self, MatchCommand.self, HorizonCommand.self,
            ReplayCommand.self,
            ReconstructCommand.self, TrafficCommand.self,
            RunCommand.self, SendCommand.self, DumpCommand.self, DecodeCommand.self, CANInterfaceCommand.self,
            PictureCommand.self, ViewCommand.self,
        ])
}
