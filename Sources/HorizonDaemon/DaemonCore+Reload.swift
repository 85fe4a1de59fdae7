import ADASISProvider
import DaemonConfiguration
import GNSSSources
import Horizon
import Logging
import RoadMap
import Routing

extension DaemonCore {
    /// SIGHUP with a valid file: rebuilds the pipeline with the new settings, continuing the
    /// stream, and the running matcher when the map and the matcher's settings stay. `newMap` is
    /// the map the run loop reopened because its path or cache size changed (`nil`: keep the
    /// running one); `customObjects` is the running map with the custom objects read again from
    /// its store (`nil`: keep them); `gnss` is the running source's state. Asks for a new CAN
    /// socket and GNSS source when theirs changed. Settings that do not fit are refused, and the
    /// running configuration kept.
    public mutating func reload(
        _ new: DaemonConfiguration, newMap: (network: any RoadNetwork, metadata: MapMetadata)?,
        customObjects: (any RoadNetwork)? = nil, gnss: FixInbox.SourceState
    ) -> [DaemonEffect] {
        let network = newMap?.network ?? customObjects ?? map
        let metadata = newMap?.metadata ?? mapMetadata
        let fresh: HorizonPipeline
        let matcherContinues: Bool
        do {
            let settings = try PipelineSettings(new, map: metadata, file: configurationPath)
            let freshNetwork = newMap == nil && customObjects == nil ? horizonNetwork : network
            // On the same roads with the same matcher settings the running matcher goes on.
            matcherContinues =
                newMap == nil
                && (pipeline.matcher as? OnlineMapMatcher)?.configuration == settings.matching.sanitised
            fresh = try newPipeline(on: freshNetwork, settings, continuingMatching: matcherContinues)
        } catch {
            return refuseReload("\(error)")
        }
        var effects: [DaemonEffect] = []
        let old = configuration
        configuration = new
        map = network
        mapMetadata = metadata
        if let speeds = traffic.speeds { fresh.provider.setTrafficSpeeds(speeds) }
        fresh.provider.continueStream(from: pipeline.provider)
        retire(pipeline, matcherContinues: matcherContinues)
        pipeline = fresh
        effects.append(.setLogLevel(Logger.Level(rawValue: new.logLevel) ?? .info))
        if new.canInterface != old.canInterface {
            retire(bus)
            bus = CANBusState(interface: new.canInterface)
            effects.append(.switchCANInterface(new.canInterface))
        }
        if new.gnss != old.gnss || new.logLevel != old.logLevel {
            retired.gnssReconnects += gnss.reconnects
            retired.gnssFixesDropped += gnss.fixesDropped
            for (reason, count) in gnss.skipped { retired.gnssRecordsSkipped[reason, default: 0] += count }
            effects.append(.restartGNSS(new.gnss))
        }
        processLastFixAgain()
        // The route: planned again on a new map; on the same map it continues with the new settings.
        if newMap != nil {
            effects += moveRoutes(to: network, time: lastFix?.time ?? 0)
            effects += placeTrafficOnNewMap()
        } else {
            routes.configuration = new.routing
            _ = try? pipeline.engine.setRoute(routes.links)
            // Custom objects read again: the traffic's objects are laid over them anew.
            if customObjects != nil { effects += placeTrafficOnNewMap() }
        }
        if !new.traffic.hasSource { effects += dropTraffic(reason: "[traffic] feed and url removed") }
        reloadsApplied += 1
        effects.append(.log(.notice, "configuration \(configurationPath) reloaded: new pipeline"))
        return effects
    }

    /// SIGHUP with a file that cannot be read or used: counted and logged; the running
    /// configuration stays.
    public mutating func refuseReload(_ problem: String) -> [DaemonEffect] {
        reloadsRejected += 1
        return [.log(.error, "reload refused, keeping the running configuration: \(problem)")]
    }
}
