import Foundation
import TestSupport

/// The way id column of `adasis match` output, one entry per fix.
func matchedWays(_ output: String) -> [String] {
    output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().filter { !$0.isEmpty }
        .map { String($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
}

/// The true way of each fix of a drive (Data/drives/NAME.csv, last column).
func trueWays(_ name: String) throws -> [String] {
    let text = try String(contentsOf: Repository.url("Data/drives/\(name).csv"), encoding: .utf8)
    return text.split(separator: "\n").dropFirst().map { String($0.split(separator: ",").last ?? "") }
}
