// swift-tools-version: 6.1
import PackageDescription

/// The library targets let the compiler guard their public surface, as Hummingbird's do: a
/// dependency appears in their API only where a file says `public import` (so GRDB, imported
/// `internal`, can never leak into RecordKit's API), existentials are spelled `any`, and a file
/// sees only the members of the modules it imports itself.
let librarySettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "shop",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RecordKit", targets: ["RecordKit"]),
        .library(name: "RecordQL", targets: ["RecordQL"]),
        .executable(name: "shop", targets: ["shop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/adam-fowler/compress-nio", exact: "1.5.0"),
    ],
    targets: [
        .target(
            name: "RecordKit",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CSQLite",
            ],
            swiftSettings: librarySettings
        ),
        .target(
            name: "TestSupport", dependencies: ["RecordKit", "CSQLite"], path: "Tests/TestSupport",
            resources: [.embedInCode("Resources/shopping.ckdb")]
        ),
        .testTarget(name: "RecordKitTests", dependencies: ["RecordKit", "TestSupport", "CSQLite"], exclude: ["Fixtures"]),
        .target(
            name: "RecordQL",
            dependencies: ["RecordKit", .product(name: "GraphQL", package: "GraphQL")],
            swiftSettings: librarySettings
        ),
        .testTarget(name: "RecordQLTests", dependencies: ["RecordQL", "TestSupport", .product(name: "GraphQL", package: "GraphQL")]),
        .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .target(
            name: "ShopCLI",
            dependencies: [
                "RecordKit", "RecordQL", "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.embedInCode("Resources/shopping.ckdb")],
            swiftSettings: librarySettings
        ),
        .target(
            name: "RecordService",
            dependencies: [
                "RecordKit", "RecordQL",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [.embedInCode("Resources/openapi.yaml")],
            swiftSettings: librarySettings
        ),
        .testTarget(
            name: "RecordServiceTests",
            dependencies: [
                "RecordService", "RecordKit", "RecordQL", "TestSupport",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .executableTarget(
            name: "shop",
            dependencies: ["ShopCLI", "RecordService", "RecordKit"],
            // The release binary carries the Swift runtime and Foundation in itself: a start
            // without resolving their symbols in a dozen shared libraries (a third of the
            // time to a first answer, measured in docs/bench.md).
            // Foundation's static libraries need their own dependencies named, in this order.
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-lCoreFoundation", "-l_FoundationCollections", "-l_FoundationCShims", "-l_FoundationICU"],
                    .when(platforms: [.linux], configuration: .release)
                )
            ]
        ),
        .testTarget(name: "ShopCLITests", dependencies: ["ShopCLI", "shop", "RecordKit", "RecordQL", "TestSupport"], exclude: ["Fixtures"]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "shop-bench",
            dependencies: [
                "RecordKit", "RecordQL", "ShopCLI", "CSQLite", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GraphQL", package: "GraphQL"), .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(name: "ShopBenchTests", dependencies: ["shop-bench", "shop", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
