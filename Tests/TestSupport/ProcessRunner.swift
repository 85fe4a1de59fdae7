import Foundation
import Synchronization

/// Runs `executable` with `arguments` to its end and returns its exit status and output.
///
/// Standard error is read on a thread of its own while standard output is read here, so a child
/// that fills either pipe cannot block. `input` is written to its standard input, which is then
/// closed; without it the child inherits none (an empty pipe).
/// - Parameter directory: the working directory (default: the repository root).
public func runProcess(
    _ executable: URL, _ arguments: [String], input: Data? = nil,
    in directory: URL = Repository.root
) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let stdin = Pipe(), out = Pipe(), err = Pipe()
    process.standardInput = stdin
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errorText = CollectedOutput()
    let errorHandle = err.fileHandleForReading
    let errorRead = DispatchSemaphore(value: 0)
    Thread {
        let data = errorHandle.readDataToEndOfFile()
        errorText.data.withLock { $0 = data }
        errorRead.signal()
    }.start()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errorRead.wait()
    process.waitUntilExit()
    let errData = errorText.data.withLock { $0 }
    return (
        process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
    )
}

/// Output read on another thread.
private final class CollectedOutput: Sendable {
    let data = Mutex(Data())
}
