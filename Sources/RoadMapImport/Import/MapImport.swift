import RoadMap
import RoadMapStore

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
    /// Which pass over the PBF is reading (1-based; the last one keeps the road nodes).
    public var pass: Int = 1
    /// Passes over the PBF this import makes (2, or 3 when the extract has admin boundaries;
    /// known after the first pass).
    public var passes: Int = 2

    /// The share of all reading done, 0…1, counting each pass as equal work.
    public var fractionRead: Double {
        guard totalBytes > 0, passes > 0 else { return 0 }
        return (Double(pass - 1) + Double(bytesRead) / Double(totalBytes)) / Double(passes)
    }
}

/// The whole import: OSM PBF → road graph → map file.
public enum MapImport {
    /// Imports `input` into the map file `output` (written atomically) and returns its metadata.
    ///
    /// Throws ``OSMPBFError`` for an unreadable extract (naming the blob) and ``MapFileError``
    /// when the map cannot be written; in both cases nothing is left at `output`.
    /// With `elevation`, links without an OSM `incline` get their slope from terrain heights.
    /// `decodingThreads` inflate and decode the PBF's blobs (the map is the same for any number).
    public static func run(
        input: String, output: String, options: RoadGraphOptions, elevation: ElevationModel? = nil,
        decodingThreads: Int = OSMPBFReader.defaultThreads, progress: (MapImportProgress) -> Void = { _ in }
    ) throws -> MapMetadata {
        var builder = RoadGraphBuilder(options: options, legalDefaults: try LegalDefaultSpeeds.bundled())
        // First pass: which nodes the roads need, and the administrative boundaries (relations
        // come last in a PBF file); second (only with boundaries): their ways' nodes. The last pass
        // then keeps only the coordinates of those nodes, whatever the size of the extract.
        // The preparation passes read no node: their blocks, most of an extract, are not decoded.
        var preparation = try OSMPBFReader(path: input, threads: decodingThreads, kinds: [.ways, .relations])
        var passes = 2
        while let block = try preparation.nextBlock() {
            builder.prepare(block)
            progress(
                MapImportProgress(
                    phase: .reading, objects: 0, bytesRead: preparation.bytesRead, totalBytes: preparation.totalBytes,
                    pass: 1, passes: passes))
        }
        if builder.needsBoundaryWays {
            passes = 3
            var boundaryWays = try OSMPBFReader(path: input, threads: decodingThreads, kinds: .ways)
            while let block = try boundaryWays.nextBlock() {
                builder.prepareBoundaryWays(block)
                progress(
                    MapImportProgress(
                        phase: .reading, objects: 0, bytesRead: boundaryWays.bytesRead,
                        totalBytes: boundaryWays.totalBytes, pass: 2, passes: passes))
            }
        }
        var reader = try OSMPBFReader(path: input, threads: decodingThreads)
        var objects = 0
        while let block = try reader.nextBlock() {
            builder.add(block)
            objects += block.count
            progress(
                MapImportProgress(
                    phase: .reading, objects: objects, bytesRead: reader.bytesRead,
                    totalBytes: reader.totalBytes, pass: passes, passes: passes))
        }
        progress(
            MapImportProgress(
                phase: .building, objects: objects, bytesRead: reader.bytesRead, totalBytes: reader.totalBytes,
                pass: passes, passes: passes))
        // The decoding threads freed their blocks into their own malloc arenas, where the build
        // (on this thread) cannot reuse them: hand those pages back to the system first.
        FreedMemoryRelease.releaseFreedMemory()
        // Consumed: the elements are let go of as their links are built, not kept while writing.
        var graph = (consume builder).build()
        if let missing = graph.report.linksWithoutCountry, missing > 0, options.country == nil {
            throw MapImportError.countryUnknown(links: missing, boundaries: graph.report.adminBoundariesUsed ?? 0)
        }
        if let elevation { graph = try graph.applyingElevationSlope(elevation) }
        progress(
            MapImportProgress(
                phase: .writing, objects: objects, bytesRead: reader.bytesRead, totalBytes: reader.totalBytes,
                pass: passes, passes: passes))
        var south = 90.0, west = 180.0, north = -90.0, east = -180.0
        for link in graph.links {
            for point in link.geometry {
                south = min(south, point.latitude); north = max(north, point.latitude)
                west = min(west, point.longitude); east = max(east, point.longitude)
            }
        }
        let name = input.split(separator: "/").last.map(String.init) ?? input
        let (countryLinks, regionLinks) = linkCounts(graph)
        let metadata = MapMetadata(
            sourceFile: name, sourceTimestamp: reader.header.replicationTimestamp ?? reader.newestElementTimestamp,
            countries: graph.countries, countryLinkCounts: countryLinks,
            regions: graph.regions, regionLinkCounts: regionLinks,
            boundingBox: graph.links.isEmpty ? [] : [south, west, north, east],
            importReport: graph.report)
        try MapFileWriter.write(graph, metadata: metadata, to: output)
        return metadata
    }

    /// Links per country (in the order of `graph.countries`) and per region (of `graph.regions`).
    static func linkCounts(_ graph: RoadGraph) -> (countries: [Int], regions: [Int]) {
        var byCountry: [UInt16: Int] = [:]
        var regions = [Int](repeating: 0, count: graph.regions.count)
        for link in graph.links {
            byCountry[link.countryCode, default: 0] += 1
            if link.regionCode > 0, Int(link.regionCode) <= regions.count { regions[Int(link.regionCode) - 1] += 1 }
        }
        let countries = graph.countries.map { code in
            (try? Country(alpha2: code)).map { byCountry[$0.numericCode] ?? 0 } ?? 0
        }
        return (countries, regions)
    }
}

/// Why an import cannot decide something about the extract.
public enum MapImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Links lie outside every complete country boundary and no `--country` was given.
    case countryUnknown(links: Int, boundaries: Int)

    /// One sentence: what, and what to do.
    public var description: String {
        switch self {
        case .countryUnknown(let links, let boundaries):
            return (links == 1 ? "1 link lies" : "\(links) links lie")
                + " outside every complete country boundary of the extract (\(boundaries) complete ones found); "
                + "pass --country with the ISO 3166-1 code of the extract's country, e.g. --country FI"
        }
    }
}
