import Foundation
import Testing

@testable import OrgSocialCLI

/// The README's five-minute tour can be run as written, one command after the other.
@Suite struct ReadmeTourTests {
    /// The tour's commands: the lines of the first `sh` block after "## A five-minute tour", comments cut.
    static func tourCommands() throws -> [[String]] {
        let readme = try String(contentsOfFile: packageRoot.appendingPathComponent("README.md").path, encoding: .utf8)
        let tour = try #require(readme.range(of: "## A five-minute tour"))
        let rest = readme[tour.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return rest[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            let command = line.split(separator: "#", maxSplits: 1).first ?? ""
            return command.split(separator: " ").map(String.init)
        }.filter { !$0.isEmpty }
    }

    /// The port a server command of the tour listens on: its `--port`, else the option's default.
    static func port(of words: [String], options: [OptionDefinition]) -> String? {
        if let index = words.firstIndex(of: "--port"), index + 1 < words.count { return words[index + 1] }
        return options.first { $0.name == "port" }?.defaultValue
    }

    @Test func theNodeAndTheRelayOfTheTourListenOnDifferentPorts() throws {
        let commands = try Self.tourCommands()
        let node = try #require(commands.first { $0.starts(with: ["orgsocial", "serve"]) })
        let relay = try #require(commands.first { $0.starts(with: ["orgsocial", "relay", "serve"]) })
        let nodePort = Self.port(of: node, options: ServeCommand.configuration.options)
        let relayPort = Self.port(of: relay, options: RelayServeCommand.configuration.options)
        #expect(nodePort != nil)
        #expect(nodePort != relayPort, "both listen on \(nodePort ?? "?")")
    }
}
