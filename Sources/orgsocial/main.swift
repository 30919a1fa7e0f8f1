import Engine
import Foundation
import OrgSocialCLI

// Everything lives in OrgSocialCLI so that tests can run commands in process. Called as
// `orgsocial-engine` (the .deb's link to this binary), it is the engine the official apps run.
if URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent == "orgsocial-engine" {
    exit(await EngineRunner.main(arguments: Array(CommandLine.arguments.dropFirst())))
}
await CLI.main()
