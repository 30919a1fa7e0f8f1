import Foundation

// `bridge-bench [--push | --sync] [--runs N] [--statuses N]`: what the bridge costs, against the fake Mastodon
// server and an in-process node on 127.0.0.1. Without --push or --sync it measures both. Run it in release mode:
//
//     swift build -c release --product bridge-bench && .build/release/bridge-bench

/// The value after `name` on the command line, as a positive integer.
func option(_ name: String) -> Int? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1]), number > 0
    else { return nil }
    return number
}

let arguments = CommandLine.arguments
let onlyPush = arguments.contains("--push")
let onlySync = arguments.contains("--sync")
if !onlySync { try await PushBenchmark.run(runs: option("--runs") ?? 3) }
if !onlyPush { try await SyncBenchmark.run(runs: option("--runs") ?? 20, statusCount: option("--statuses") ?? 100) }
