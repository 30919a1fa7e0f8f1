// swift-tools-version: 6.0
import PackageDescription

/// A package outside orgsocial that depends on it the way an app would, by path, and imports every
/// library product. `scripts/test` builds and runs it, so a product that stops building for outsiders, or a
/// public API that an embedder needs and lost, fails CI.
let package = Package(
    name: "Consumer",
    dependencies: [
        .package(name: "orgsocial", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "consumer",
            dependencies: [
                .product(name: "OrgSocial", package: "orgsocial"),
                .product(name: "OrgSocialClient", package: "orgsocial"),
                .product(name: "OrgSocialText", package: "orgsocial"),
                .product(name: "OrgSocialHTML", package: "orgsocial"),
                .product(name: "HTTPCore", package: "orgsocial"),
                .product(name: "HTTPClient", package: "orgsocial"),
                .product(name: "HTTPServer", package: "orgsocial"),
                .product(name: "TootClient", package: "orgsocial"),
                .product(name: "Bridge", package: "orgsocial"),
                .product(name: "FeedHosting", package: "orgsocial"),
                .product(name: "Relay", package: "orgsocial"),
            ],
            path: "Sources/Consumer",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ]
)
