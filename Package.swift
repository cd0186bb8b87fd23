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
    ],
    targets: [
        .target(
            name: "RecordKit",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.embedInCode("Resources/shopping.ckdb")],
            swiftSettings: librarySettings
        ),
        .target(name: "TestSupport", dependencies: ["RecordKit"], path: "Tests/TestSupport"),
        .testTarget(name: "RecordKitTests", dependencies: ["RecordKit", "TestSupport"], exclude: ["Fixtures"]),
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
            ],
            swiftSettings: librarySettings
        ),
        .executableTarget(name: "shop", dependencies: ["ShopCLI"]),
        .testTarget(name: "ShopCLITests", dependencies: ["ShopCLI", "shop", "RecordKit", "RecordQL", "TestSupport"], exclude: ["Fixtures"]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "shop-bench",
            dependencies: ["RecordKit", "RecordQL", "CSQLite", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "GraphQL", package: "GraphQL")]
        ),
        .testTarget(name: "ShopBenchTests", dependencies: ["shop-bench", "shop", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
