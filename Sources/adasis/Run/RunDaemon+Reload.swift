import Foundation
import ADASISProvider
import DaemonConfiguration
import Logging
import RoadMap

extension RunDaemon {
    /// SIGHUP: re-reads and checks the configuration file. An invalid file is logged and the
    /// running configuration kept; a valid one rebuilds the pipeline with the new settings (and
    /// reopens the map, the CAN socket and the GNSS source when theirs changed).
    func reload() {
        let new: DaemonConfiguration
        do {
            new = try DaemonConfiguration.load(path: configurationPath)
        } catch {
            return refuse("\(error)")
        }
        var newMap = map
        if new.mapPath != configuration.mapPath || new.mapCacheMegabytes != configuration.mapCacheMegabytes {
            do { newMap = try Self.openMap(new, file: configurationPath) } catch { return refuse("\(error)") }
        }
        let fresh: HorizonPipeline
        do {
            let settings = try PipelineSettings(new, map: newMap.metadata, file: configurationPath)
            fresh = try HorizonPipeline(network: newMap, horizon: settings.horizon, provider: settings.provider)
        } catch {
            return refuse("\(error)")
        }
        let old = configuration
        configuration = new
        map = newMap
        fresh.provider.continueStream(from: pipeline.provider)
        retire(pipeline)
        pipeline = fresh
        logger.logLevel = Logger.Level(rawValue: new.logLevel) ?? .info
        if new.canInterface != old.canInterface {
            transmitter.close()
            retire(transmitter)
            transmitter = CANTransmitter(interface: new.canInterface, logger: logger)
        } else {
            transmitter.logger = logger
        }
        if new.gnss != old.gnss || new.logLevel != old.logLevel {
            inbox.requestStop()
            retired.gnssReconnects += inbox.source.reconnects
            inbox = GNSSReader.start(new.gnss, logger: logger)
        }
        // The new provider has not seen a fix yet: give it the last one so the horizon returns
        // at once instead of with the next fix.
        if let lastFix, !gnssLost { _ = try? pipeline.process(lastFix) }
        reloadsApplied += 1
        logger.notice("configuration \(configurationPath) reloaded: new pipeline")
    }

    private func refuse(_ problem: String) {
        reloadsRejected += 1
        logger.error("reload refused, keeping the running configuration: \(problem)")
    }
}

extension DaemonConfiguration {
    /// Reads and checks the configuration file at `path`.
    /// - Throws: ``ConfigurationError`` naming the file (and line and key) when it cannot be read
    ///   or is invalid.
    static func load(path: String) throws(ConfigurationError) -> DaemonConfiguration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, key: nil, line: nil,
                                     problem: "cannot read the file (missing, unreadable or not UTF-8)")
        }
        return try DaemonConfiguration(toml: text, source: path)
    }
}
