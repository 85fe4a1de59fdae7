import RoadMap
import RoadMapStore

/// Options of the road-graph build: which roads, which country, what to assume.
public struct RoadGraphOptions: Sendable {
    /// Highway classes kept as roads.
    public var selection: RoadSelection
    /// The country of links no complete admin boundary of the extract covers (legal default
    /// speeds, driving side, country code per link); `nil` when every link must get its country
    /// from boundaries.
    public var country: Country?
    /// Built-up area assumed where tags do not tell (selects the implicit speed limit).
    public var unknownArea: AreaAssumption
    /// Safety cameras farther than this from every road are skipped, metres.
    public var cameraSnapDistance: Double
    /// Opposite one-ways with the same name or ref closer than this form a dual carriageway, metres.
    public var dualCarriagewayDistance: Double

    /// Creates options; defaults fit a city extract.
    public init(
        selection: RoadSelection = RoadSelection(), country: Country?, unknownArea: AreaAssumption = .urban,
        cameraSnapDistance: Double = 30, dualCarriagewayDistance: Double = 40
    ) {
        self.selection = selection
        self.country = country
        self.unknownArea = unknownArea
        self.cameraSnapDistance = cameraSnapDistance
        self.dualCarriagewayDistance = dualCarriagewayDistance
    }
}

/// Builds the directed road graph from OSM elements: roads split at junctions, attributes per
/// direction, dual carriageways, turn restrictions, cameras and traffic signals.
///
/// Feed it every element of an extract with ``add(_:)`` (any order), then call ``build()``.
/// Coordinates are kept at the map's 1e-7° resolution so that a built link equals the link read
/// back from a map file.
public struct RoadGraphBuilder {
    struct RoadWay {
        var id: Int64
        var nodeIDs: [Int64]
        /// The tags the build reads (``WayAttributes/tagKeys``), not all of the way's.
        var tags: [String: String]
        var highway: HighwayClass
    }

    let options: RoadGraphOptions
    let legalDefaults: LegalDefaultSpeeds
    var nodes: [Int64: GeoPoint] = [:]
    var pointNodeTags: [Int64: [String: String]] = [:]
    var ways: [RoadWay] = []
    /// The road ways tagged `hazard=*` and their kinds (their tags are not kept: see
    /// ``WayAttributes/tagKeys``).
    var hazardWays: [Int64: HazardKind] = [:]
    var restrictionRelations: [OSMRelation] = []
    var boundaryRelations: [OSMRelation] = []
    var boundaryWays = Set<Int64>()
    var wayNodes: [Int64: [Int64]] = [:]
    /// The nodes the build needs, once ``prepare(_:)`` has run; `nil` keeps every node.
    var neededNodes: Set<Int64>?
    var enforcementRelations: [OSMRelation] = []
    var report = ImportReport()

    /// Creates a builder.
    public init(options: RoadGraphOptions, legalDefaults: LegalDefaultSpeeds) {
        self.options = options
        self.legalDefaults = legalDefaults
    }

    /// First pass (optional): notes the administrative boundaries of the extract so that the
    /// second pass keeps the node lists of their ways. Give it the relations (other elements are
    /// ignored); PBF files list relations last, hence the two passes.
    ///
    /// It also notes which nodes the build needs (those of road ways and the members of enforcement
    /// relations), so that ``add(_:)`` keeps only their coordinates: a large extract's other nodes
    /// (buildings, paths, land use) never take memory. Boundary ways' nodes are added by
    /// ``prepareBoundaryWays(_:)``, a second look at the ways once the boundaries are known.
    public mutating func prepare(_ elements: [OSMElement]) {
        // Taken out of the property, not copied: a copy the property still shared was copied whole
        // at its first insertion, at every block of ways (quadratic in the extract's size).
        var needed = neededNodes.take() ?? []
        for element in elements {
            switch element {
            case .way(let way) where options.selection.highwayClass(for: way.tags) != nil:
                needed.formUnion(way.nodeIDs)
            case .relation(let relation):
                if AdminBoundaries.describe(relation) != nil {
                    boundaryRelations.append(relation)
                    needed.formUnion(AdminBoundaries.memberNodes(relation))
                }
                if relation.tags["type"] == "enforcement" {
                    needed.formUnion(relation.members.filter { $0.type == .node }.map(\.id))
                }
            default:
                break
            }
        }
        neededNodes = needed
        boundaryWays = AdminBoundaries.memberWays(boundaryRelations)
    }

    /// Whether the extract has admin boundaries whose ways' nodes must be noted (see ``prepareBoundaryWays(_:)``).
    public var needsBoundaryWays: Bool { !boundaryWays.isEmpty }

    /// Second preparation pass: notes the nodes of the boundaries' ways.
    public mutating func prepareBoundaryWays(_ elements: [OSMElement]) {
        var needed = neededNodes.take() ?? []  // taken, not copied (see prepare(_:))
        for case .way(let way) in elements where boundaryWays.contains(way.id) { needed.formUnion(way.nodeIDs) }
        neededNodes = needed
    }

    /// Adds elements of the extract.
    public mutating func add(_ elements: [OSMElement]) {
        for element in elements { add(element) }
    }

    /// Adds one element of the extract.
    public mutating func add(_ element: OSMElement) {
        switch element {
        case .node(let node):
            report.nodesRead += 1
            let highway = node.tags["highway"]
            let isPointFeature =
                highway == "traffic_signals" || SafetyCameraTags.cameraType(for: node.tags) != nil
                || PointFeaturePlacement.roadNodeKind(node.tags) != nil || node.tags["hazard"] != nil
            if let neededNodes, !isPointFeature, !neededNodes.contains(node.id) { return }
            nodes[node.id] = GeoPoint(
                latitude: TileCoordinate.degrees(TileCoordinate.fixedPoint(node.latitude)),
                longitude: TileCoordinate.degrees(TileCoordinate.fixedPoint(node.longitude)))
            if isPointFeature {
                pointNodeTags[node.id] = node.tags
            } else if highway == nil, !node.tags.isEmpty, node.tags["enforcement"] != nil || node.tags["device"] != nil
            {
                pointNodeTags[node.id] = node.tags
            }
        case .way(let way):
            report.waysRead += 1
            if boundaryWays.contains(way.id) { wayNodes[way.id] = way.nodeIDs }
            if let highway = options.selection.highwayClass(for: way.tags) {
                if let hazard = way.tags["hazard"] { hazardWays[way.id] = HazardKind(osm: hazard) }
                ways.append(
                    RoadWay(id: way.id, nodeIDs: way.nodeIDs, tags: WayAttributes.keptTags(way.tags), highway: highway))
            }
        case .relation(let relation):
            report.relationsRead += 1
            switch relation.tags["type"] {
            case "restriction"?: restrictionRelations.append(relation)
            case "enforcement"?: enforcementRelations.append(relation)
            default: break
            }
        }
    }

    /// Builds the graph from everything added.
    ///
    /// Consuming, so that it can let go of the elements as soon as their links are built (pass
    /// the builder with `consume` to keep its memory from outliving the step that needs it: the
    /// peak of a large import is here).
    public consuming func build() -> RoadGraph {
        var report = self.report
        var incomplete = 0
        let areas = AdminBoundaries.areas(boundaryRelations, wayNodes: wayNodes, nodes: nodes, incomplete: &incomplete)
        (wayNodes, neededNodes) = ([:], nil)
        if !boundaryRelations.isEmpty {
            report.adminBoundariesUsed = areas.count
            report.incompleteAdminBoundaries = incomplete
        }
        let adminPlacement = AdminPlacement(areas: areas, fallback: options.country)
        var sections: [LinkSection] = []
        var links: [RoadLink] = []
        var places: [AdminPlace] = []
        do {
            var kept: [(way: RoadWay, attributes: WayAttributes, place: AdminPlace)] = []
            var roadWays: [RoadWay] = []
            swap(&roadWays, &ways)
            roadWays.sort { $0.id < $1.id }
            for var way in roadWays {
                var deduplicated: [Int64] = []
                for id in way.nodeIDs where deduplicated.last != id { deduplicated.append(id) }
                let clipped = ClippedWay(nodeIDs: deduplicated) { nodes[$0] != nil }
                guard clipped.nodeIDs.count >= 2 else {
                    report.waysWithoutGeometry += 1
                    continue
                }
                if clipped.wasClipped {
                    report.clippedWays += 1
                    report.droppedNodeReferences += clipped.droppedNodeCount
                }
                way.nodeIDs = clipped.nodeIDs
                // Clipping kept only node references that resolve (the others are counted as dropped),
                // so `nodes` has every node of a kept way, and kept ways have at least two.
                let place = adminPlacement.place(way.nodeIDs.map { nodes[$0]! })
                let attributes = WayAttributes(
                    highway: way.highway, tags: way.tags, country: place.country?.alpha2 ?? "",
                    legalDefaults: legalDefaults, unknownArea: options.unknownArea)
                report.malformedTagValues += attributes.malformedValues
                kept.append((way, attributes, place))
            }
            roadWays = []
            report.roadWays = kept.count

            let divided = DualCarriagewayPairing.dividedWays(
                kept.map { ($0.way.id, $0.way.tags, $0.attributes, $0.way.nodeIDs.map { nodes[$0]! }) },
                maximumDistance: options.dualCarriagewayDistance)
            sections = LinkSections.split(kept.map(\.way), nodes: nodes)
            links.reserveCapacity(sections.count)
            // Sections come way by way in the order of `kept`: walk both together.
            var wayIndex = 0
            for section in sections {
                // A link's country and region are those of its own middle; legal defaults follow the
                // link's country where a way crosses a border.
                let place = adminPlacement.place(section.geometry)
                places.append(place)
                // Sections are split from the kept ways, in their order, so their way is here or ahead.
                while kept[wayIndex].way.id != section.wayID { wayIndex += 1 }
                let (way, wayAttributes, wayPlace) = kept[wayIndex]
                let attributes =
                    place.country == wayPlace.country
                    ? wayAttributes
                    : WayAttributes(
                        highway: way.highway, tags: way.tags, country: place.country?.alpha2 ?? "",
                        legalDefaults: legalDefaults, unknownArea: options.unknownArea)
                let isDivided = divided.contains(section.wayID)
                var formOfWay = attributes.formOfWay
                if isDivided && formOfWay == .singleCarriageway { formOfWay = .multipleCarriageway }
                let slope = attributes.incline.map { [ProfilePoint(offset: 0, value: $0)] } ?? []
                // A section spans at least two nodes (LinkSections splits at positions ≥ 1).
                links.append(
                    RoadLink(
                        id: LinkID(0), wayID: section.wayID, startNode: NodeID(section.nodeIDs.first!),
                        endNode: NodeID(section.nodeIDs.last!), geometry: section.geometry, highway: attributes.highway,
                        formOfWay: formOfWay, name: attributes.name, ref: attributes.ref, oneway: attributes.oneway,
                        forward: attributes.forward, backward: attributes.backward, tunnel: attributes.tunnel,
                        bridge: attributes.bridge, builtUpArea: attributes.builtUpArea,
                        dividedRoad: isDivided || attributes.formOfWay == .multipleCarriageway,
                        countryCode: place.country?.numericCode ?? 0,
                        regionCode: place.region, curvature: CurvatureProfile.points(along: section.geometry),
                        slope: slope))
                if isDivided { report.dualCarriagewayLinks += 1 }
            }
        }

        // Identifiers: the tile of the first point, then the order (way, section) inside the tile.
        var order = Array(links.indices)
        let tiles = links.map { TileKey(containing: $0.geometry[0]) }
        order.sort {
            (tiles[$0], links[$0].wayID, sections[$0].index) < (tiles[$1], links[$1].wayID, sections[$1].index)
        }
        var nextIndex: [TileKey: UInt32] = [:]
        for position in order {
            let tile = tiles[position]
            let index = nextIndex[tile, default: 0]
            nextIndex[tile] = index + 1
            links[position].id = LinkID(tile: tile, index: index)
        }
        // In place: a second array of a country's links would double the build's peak.
        var placed = [Bool](repeating: false, count: order.count)
        Self.permute(&sections, by: order, placed: &placed)
        placed = [Bool](repeating: false, count: order.count)
        Self.permute(&links, by: order, placed: &placed)

        do {
            var placement = PointFeaturePlacement(
                links: links, sections: sections, nodes: nodes,
                queriedNodes: PointFeaturePlacement.queriedNodes(pointNodeTags, enforcement: enforcementRelations))
            // The placement holds the only copies now: it changes its links in place.
            (links, sections, nodes) = ([], [], [:])
            placement.placeTrafficSignals(pointNodeTags, report: &report)
            placement.placeRoadNodeObjects(pointNodeTags)
            placement.placeCameras(
                pointNodeTags, enforcement: enforcementRelations,
                snapDistance: options.cameraSnapDistance, report: &report)
            placement.placeHazards(ways: hazardWays, pointNodeTags, report: &report)
            links = placement.links
        }

        let restrictions = TurnRestrictionResolution.resolve(restrictionRelations, links: links, report: &report)
        report.links = links.count
        report.totalLength = links.reduce(0) { $0 + $1.length }
        let withoutCountry = links.filter { $0.countryCode == 0 }.count
        if options.country == nil || withoutCountry > 0 { report.linksWithoutCountry = withoutCountry }
        var graph = RoadGraph(links: links, restrictions: restrictions, report: report)
        graph.countries = Set(places.compactMap { $0.country?.alpha2 }).sorted()
        graph.regions = adminPlacement.regionCodes
        return graph
    }

    /// Rearranges `array` so that `array[k]` becomes the old `array[order[k]]` (`order` a
    /// permutation of its indices), following each cycle of the permutation instead of making a
    /// second array. `placed` is all false on entry, `array.count` long.
    static func permute<Element>(_ array: inout [Element], by order: [Int], placed: inout [Bool]) {
        for start in order.indices where !placed[start] {
            let first = array[start]
            var position = start
            while true {
                placed[position] = true
                let source = order[position]
                if source == start {
                    array[position] = first
                    break
                }
                array[position] = array[source]
                position = source
            }
        }
    }
}
