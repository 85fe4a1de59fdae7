import OpenLR
import RoadMap

/// Puts a record's location on the map: OpenLR and coordinates through the OpenLR decoder, link
/// lists checked against the map.
struct RecordPlacement {
    let network: any RoadNetwork
    let parameters: DecoderParameters

    func place(_ location: TrafficLocation) -> Result<DecodedLine, SkipReason> {
        let decoder = LineLocationDecoder(network: network, parameters: parameters)
        switch location {
        case .openLR(let text):
            let reference: LineLocationReference
            do { reference = try OpenLRBinary.decode(base64: text) } catch {
                return .failure(.invalidOpenLR("\(error)"))
            }
            do { return .success(try decoder.decode(reference)) } catch { return .failure(.notOnMap("\(error)")) }
        case .coordinates(let points):
            do {
                return .success(try decoder.decode(Self.reference(along: points)))
            } catch {
                return .failure(.notOnMap("\(error)"))
            }
        case .links(let links):
            var length = 0.0
            for (index, directed) in links.enumerated() {
                guard let link = try? network.link(directed.link) else {
                    return .failure(.notOnMap("link \(directed.link) is not in this map"))
                }
                guard link.oneway.allows(directed.direction) else {
                    return .failure(.notOnMap("\(directed) is against the link's one-way direction"))
                }
                if index > 0, (try? network.successors(of: links[index - 1]).contains(directed)) != true {
                    return .failure(.notOnMap("\(directed) does not follow \(links[index - 1])"))
                }
                length += link.length
            }
            return .success(DecodedLine(links: links, startOffset: 0, endOffset: 0, length: length))
        }
    }

    /// A polyline as a two-point line reference: its ends, the bearings of its first and last
    /// 20 m, its length as the distance, any road class and form of way.
    static func reference(along points: [GeoPoint]) -> LineLocationReference {
        let reversed = Array(points.reversed())
        let window = DecoderParameters().bearingDistance
        let startBearing = points[0].bearing(to: points.point(atOffset: window)!.point)
        let endBearing = reversed[0].bearing(to: reversed.point(atOffset: window)!.point)
        let length = points.polylineLength
        return LineLocationReference(points: [
            LocationReferencePoint(
                coordinate: points[0], bearingSector: OpenLRBinary.bearingSector(startBearing), functionalRoadClass: 7,
                formOfWay: .undefined, lowestFRCToNextPoint: 7, distanceToNextPoint: length),
            LocationReferencePoint(
                coordinate: reversed[0], bearingSector: OpenLRBinary.bearingSector(endBearing),
                functionalRoadClass: 7, formOfWay: .undefined, lowestFRCToNextPoint: nil, distanceToNextPoint: 0),
        ])
    }

    /// Metres of each directed link that `line` covers.
    func coveredLengths(_ line: DecodedLine) -> [(DirectedLink, Double)] {
        var result: [(DirectedLink, Double)] = []
        for (index, directed) in line.links.enumerated() {
            guard let link = try? network.link(directed.link) else { continue }
            var covered = link.length
            if index == 0 { covered -= line.startOffset }
            if index == line.links.count - 1 { covered -= line.endOffset }
            result.append((directed, max(0, covered)))
        }
        return result
    }
}
