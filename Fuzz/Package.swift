// swift-tools-version: 6.1
// libFuzzer harnesses for shop's parsers. Not part of the shop package: `Scripts/fuzz` builds
// them with `--sanitize=fuzzer` (coverage instrumentation of every module, libFuzzer's main)
// and runs one. See docs/reliability.md.
import PackageDescription

let package = Package(
    name: "shop-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "shop", path: ".."),
    ],
    targets: [
        // What the harnesses share: the database they run inputs against (Fixture/).
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "RecordKit", package: "shop"), .product(name: "RecordQL", package: "shop")]
        ),
        .executableTarget(name: "fuzz-ckdb", dependencies: ["FuzzSupport"], path: "Sources/FuzzCKDB"),
        .executableTarget(name: "fuzz-predicate", dependencies: ["FuzzSupport"], path: "Sources/FuzzPredicate"),
        // The tokenizer and line assembler are internal to ShopCLI (not a product), so their
        // files are compiled into the harness through symbolic links.
        .executableTarget(name: "fuzz-tokenizer", dependencies: ["FuzzSupport"], path: "Sources/FuzzTokenizer"),
        .executableTarget(name: "fuzz-graphql", dependencies: ["FuzzSupport"], path: "Sources/FuzzGraphQL"),
    ],
    swiftLanguageModes: [.v6]
)
