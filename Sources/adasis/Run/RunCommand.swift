#if canImport(Glibc)
    import Glibc
#endif
import ArgumentParser
import DaemonConfiguration
import Foundation
import HorizonDaemon
import Logging

/// `adasis run --config /etc/adasis/adasis.toml`: the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the horizon provider: GNSS → map matching → horizon → ADASIS v2 frames on CAN.",
        discussion: """
            Reads fixes from gpsd (or an NMEA serial device or file), matches them to the map, and sends \
            the ADASIS v2 stream on the CAN interface, all as configured in the TOML file (see \
            udev/adasis.toml). Logs go to standard error. Under systemd (Type=notify) it sends READY=1 \
            once the map is open and the CAN socket up, WATCHDOG=1 at half of WatchdogSec and \
            STOPPING=1 on SIGTERM. SIGHUP reloads the configuration (an invalid file is refused and \
            the running one kept). A bad configuration exits with status 78 (EX_CONFIG).
            """)

    @Option(help: "The configuration file.")
    var config: String = "/etc/adasis/adasis.toml"

    /// EX_CONFIG of sysexits.h: the configuration is wrong.
    static let configurationErrorStatus: Int32 = 78

    func run() throws {
        // Block the signals we take with sigtimedwait before any thread starts (threads inherit it).
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(path: config)
        } catch {
            printToStandardError("\(error)")
            throw ExitCode(Self.configurationErrorStatus)
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "adasis")
        logger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? .info
        let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment, processID: getpid())
        let daemon: RunDaemon
        do {
            daemon = try RunDaemon(configuration: configuration, path: config, logger: logger, notifier: notifier)
        } catch let error as ConfigurationError {
            printToStandardError("\(error)")
            throw ExitCode(Self.configurationErrorStatus)
        } catch {
            printToStandardError("adasis run: \(error)")
            throw ExitCode.failure
        }
        let status = daemon.run(signals: signals)
        if status != 0 { throw ExitCode(status) }
    }
}
