// swift-tools-version: 6.1

import PackageDescription

/// Applied to every target: the upcoming-feature set the whole package is written against.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let nonApple: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

/// OpenCombine supplies Combine where Apple's is absent.
let openCombine: [Target.Dependency] = [
    .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApple)),
    .product(name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(platforms: nonApple)),
    .product(name: "OpenCombineFoundation", package: "OpenCombine", condition: .when(platforms: nonApple)),
]

let package = Package(
    name: "Tributary",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Tributary", targets: ["Tributary"]),
        .executable(name: "tributary", targets: ["TributaryCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/combine-schedulers.git", from: "1.2.2"),
    ],
    targets: [
        .target(
            name: "Tributary",
            dependencies: openCombine + [.product(name: "DequeModule", package: "swift-collections")]
        ),
        .executableTarget(
            name: "TributaryCLI",
            dependencies: [
                "Tributary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TributaryCLITests",
            dependencies: [
                "TributaryCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TributaryTests",
            dependencies: [
                "Tributary",
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
