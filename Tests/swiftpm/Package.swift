// swift-tools-version:6.0
// A Swift package that uses Fathom as a dependency, as an app would: by path here, by URL and version elsewhere.
// `make test-swiftpm` builds and runs it; it must build with nothing but the dependency's own manifest.
import PackageDescription

let package = Package(
    name: "FathomConsumer",
    dependencies: [.package(name: "Fathom", path: "../..")],
    targets: [
        .executableTarget(name: "fathom-consumer", dependencies: [.product(name: "FathomCore", package: "Fathom")]),
    ]
)
