// swift-tools-version:6.0
// Fathom: geometry and measurement engine for AR capture data.
// Layers and rules: see README.md and the design notes it links.
import PackageDescription

let package = Package(
    name: "Fathom",
    products: [
        // libfathom.so: the C ABI declared in include/fathom.h.
        .library(name: "fathom", type: .dynamic, targets: ["Fathom"]),
        // The REPL; `make install` installs it as bin/fathom.
        .executable(name: "fathom-cli", targets: ["fathom-cli"]),
        // The engine for Swift users.
        .library(name: "FathomCore", targets: ["FathomCore"]),
    ],
    targets: [
        // The public C header, imported by Swift so C and Swift share one struct layout.
        .systemLibrary(name: "CFathom", path: "include"),
        // LAPACKE + OpenBLAS (Debian: liblapacke-dev, libopenblas-dev).
        .systemLibrary(name: "CLapack", path: "Sources/CLapack",
                       providers: [.apt(["liblapacke-dev", "libopenblas-dev"])]),
        // zlib (Debian: zlib1g-dev), for the scanner file formats.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // ISA-L's igzip (Debian: libisal-dev), the inflater of the scanner file formats.
        .systemLibrary(name: "CIsal", path: "Sources/CIsal", pkgConfig: "libisal",
                       providers: [.apt(["libisal-dev"])]),
        // libspng (Debian: libspng-dev), the PNG codec of Stray Scanner and nerfstudio depth frames.
        .systemLibrary(name: "CSpng", path: "Sources/CSpng", pkgConfig: "spng",
                       providers: [.apt(["libspng-dev"])]),
        // libedit (Debian: libedit-dev), line editing and history for the REPL.
        .systemLibrary(name: "CEdit", path: "Sources/CEdit", pkgConfig: "libedit",
                       providers: [.apt(["libedit-dev"])]),
        // Lane operations in clang's vector extensions (a header only), for what Swift's SIMD types compile badly.
        .systemLibrary(name: "CLanes", path: "Sources/CLanes"),
        // LAPACK: LAPACKE over OpenBLAS on Linux, Accelerate on Apple platforms (not built or tested there).
        .target(name: "FathomCore",
                dependencies: ["CFathom", .target(name: "CLapack", condition: .when(platforms: [.linux])),
                               "CZlib", "CIsal", "CSpng", "CLanes"],
                linkerSettings: [.linkedFramework("Accelerate", .when(platforms: [.macOS, .iOS, .visionOS]))]),
        .target(name: "Fathom", dependencies: ["FathomCore", "CFathom"]),
        // Swift 5 mode: the CLI is single-threaded and uses the C stdio globals (stdin, stdout, stderr).
        .executableTarget(name: "fathom-cli", dependencies: ["FathomCore", "CEdit", "CZlib"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "FathomCoreTests", dependencies: ["FathomCore"]),
    ]
)
