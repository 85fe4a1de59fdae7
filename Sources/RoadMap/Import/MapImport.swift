/// Progress of an import, reported between blocks.
public struct MapImportProgress: Sendable {
    /// What the import is doing.
    public enum Phase: String, Sendable {
        /// Reading and decoding the PBF.
        case reading
        /// Building links, attributes and restrictions.
        case building
        /// Writing the map file.
        case writing
    }

    /// The current phase.
    public var phase: Phase
    /// OSM objects read so far.
    public var objects: Int
    /// Bytes of the PBF consumed so far.
    public var bytesRead: Int
    /// Size of the PBF.
    public var totalBytes: Int
}

/// The whole import: OSM PBF → road graph → map file.
public enum MapImport {
    /// Imports `input` into the map file `output` (written atomically) and returns its metadata.
    ///
    /// Throws ``OSMPBFError`` for an unreadable extract (naming the blob) and ``MapFileError``
    /// when the map cannot be written; in both cases nothing is left at `output`.
    /// With `elevation`, links without an OSM `incline` get their slope from terrain heights.
    public static func run(input: String, output: String, options: RoadGraphOptions, elevation: ElevationModel? = nil,
                           progress: (MapImportProgress) -> Void = { _ in }) throws -> MapMetadata {
        var reader = try OSMPBFReader(path: input)
        var builder = RoadGraphBuilder(options: options, legalDefaults: try LegalDefaultSpeeds.bundled())
        var objects = 0
        while let block = try reader.nextBlock() {
            builder.add(block)
            objects += block.count
            progress(MapImportProgress(phase: .reading, objects: objects, bytesRead: reader.bytesRead,
                                       totalBytes: reader.totalBytes))
        }
        progress(MapImportProgress(phase: .building, objects: objects, bytesRead: reader.bytesRead, totalBytes: reader.totalBytes))
        var graph = builder.build()
        if let elevation { graph = try graph.applyingTerrainSlope(elevation) }
        progress(MapImportProgress(phase: .writing, objects: objects, bytesRead: reader.bytesRead, totalBytes: reader.totalBytes))
        var south = 90.0, west = 180.0, north = -90.0, east = -180.0
        for link in graph.links {
            for point in link.geometry {
                south = min(south, point.latitude); north = max(north, point.latitude)
                west = min(west, point.longitude); east = max(east, point.longitude)
            }
        }
        let name = input.split(separator: "/").last.map(String.init) ?? input
        let metadata = MapMetadata(sourceFile: name, sourceTimestamp: reader.header.replicationTimestamp,
                                   countries: [options.country.alpha2],
                                   boundingBox: graph.links.isEmpty ? [] : [south, west, north, east],
                                   importReport: graph.report)
        try MapFileWriter.write(graph, metadata: metadata, to: output)
        return metadata
    }
}
