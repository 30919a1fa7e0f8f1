import Engine
import Foundation

// The engine the official apps find through ORG_SOCIAL_ENGINE; `orgsocial engine` runs the same.
exit(await EngineRunner.main(arguments: Array(CommandLine.arguments.dropFirst())))
