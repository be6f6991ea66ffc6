/// A nerfstudio-style folder read as a scan: `transforms.json` whose frames carry `depth_file_path` (16-bit
/// grayscale PNG depth, relative to the file's folder). Depth is in millimetres unless the file's top level says
/// otherwise: `depth_unit_scale_factor` (nerfstudio) or `integer_depth_scale` (instant-ngp), meters per unit.
/// Poses and intrinsics are read as `TransformsFile` reads them (camera-to-world, ARKit / OpenGL camera axes).
/// The file has no timestamps: frames are taken as 1/30 s apart, which the warnings say. Frames without
/// `depth_file_path`, or whose PNG is missing, cut or of another size, are skipped with a warning.
enum NerfstudioFolder {
    static let fileName = "transforms.json"
    /// The frame rate assumed for files without timestamps, frames per second.
    static let assumedRate = 30

    static func open(_ path: String) throws(FathomError) -> ScanContents {
        let file = try TransformsFile.load(path: path)
        let directory = Scan.directoryName(path)
        var warnings = [String]()
        if file.repaired > 0 { warnings.append("\(file.repaired) camera poses were re-orthonormalized") }
        let withDepth = file.frames.indices.filter { file.frames[$0].depthPath != nil }
        guard !withDepth.isEmpty else {
            throw FathomError(.format, "'\(path)' has no frame with a depth_file_path: a pose file, not a scan with depth (read it as transforms.json)")
        }
        if withDepth.count < file.frames.count {
            warnings.append("\(file.frames.count - withDepth.count) frames without depth_file_path were skipped")
        }
        let paths = withDepth.map { i -> String in
            let p = file.frames[i].depthPath ?? ""
            return p.hasPrefix("/") ? p : "\(directory)/\(p)"
        }
        let usable = PNGFrames.usable(depth: paths, confidence: nil)
        warnings += usable.problems
        guard !usable.frames.isEmpty else {
            throw FathomError(.format, "'\(path)': no frame has a readable depth PNG (\(usable.problems.joined(separator: "; ")))")
        }
        let kept = usable.frames.map { withDepth[$0] }
        let scale = file.depthScale ?? 0.001
        if file.depthScale == nil {
            warnings.append("\(fileName) does not say the depth unit (depth_unit_scale_factor): millimetres assumed")
        }
        warnings.append("\(fileName) has no timestamps: frames are taken as 1/\(assumedRate) s apart, and speeds assume it")
        let timestamps = try TransformsFile.timestamps(count: kept.count, rate: Double(assumedRate))
        let first = file.frames[kept[0]].intrinsics
        let storage = PNGFrames(depthPaths: usable.frames.map { paths[$0] }, confidencePaths: nil,
                                width: usable.width, height: usable.height, depthScale: Float(scale))
        return ScanContents(format: .nerfstudio, scanID: Scan.baseName(directory), directory: directory, metadataPath: path,
                            width: usable.width, height: usable.height, depthFormat: .float32, depthScale: 1,
                            rgbWidth: first.width, rgbHeight: first.height, timestamps: timestamps,
                            poses: kept.map { file.frames[$0].pose }, intrinsics: kept.map { file.frames[$0].intrinsics },
                            frequency: nil, warnings: warnings, storage: .png(storage))
    }
}
