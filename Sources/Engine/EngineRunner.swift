import EngineProtocol
import Foundation

/// Runs the engine on standard input and output until the input ends (`orgsocial engine` and the
/// `orgsocial-engine` executable).
package enum EngineRunner {
    /// What `--version` prints.
    package static let versionLine = "orgsocial-engine \(Engine.engineVersion) (protocol \(Engine.protocolVersion))"

    /// Serves the protocol on standard input and output; returns once every request read is answered.
    package static func serveStandardStreams() async {
        let server = RPCServer(handler: Engine())
        await server.serve(
            lines: RPCServer<Engine>.standardInputLines(), output: RPCServer<Engine>.standardOutputWriter())
    }

    /// The executable's entry point: `--version` prints ``versionLine``; no arguments serve the protocol.
    /// - Parameter arguments: the arguments after the program's name.
    /// - Returns: the exit status.
    package static func main(arguments: [String]) async -> Int32 {
        switch arguments.first {
        case nil:
            await serveStandardStreams()
            return 0
        case "--version"?:
            print(versionLine)
            return 0
        case "-h"?, "--help"?:
            print(
                "usage: orgsocial-engine [--version]\nServes the Org Social client-core protocol (JSON-RPC 2.0) on stdin/stdout."
            )
            return 0
        default:
            FileHandle.standardError.write(Data("orgsocial-engine: unknown argument '\(arguments[0])'\n".utf8))
            return 2
        }
    }
}
