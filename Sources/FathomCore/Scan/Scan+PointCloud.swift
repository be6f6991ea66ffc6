/// A scan's depth as one world point cloud.
extension Scan {
    /// The valid depth samples of every `step`-th frame as world points: samples of confidence >= `minConfidence`
    /// (scans without confidence keep all) and depth <= `maxDepth`; with `voxel`, one point per voxel of that
    /// edge (the mean of its samples, meters), else every sample, frame by frame and row by row. A sample whose
    /// world point is not finite is invalid: every point returned is finite. Throws
    /// `.outOfRange` for step < 1, a voxel outside [1e-4, 10] m or maxDepth <= 0.
    public func pointCloud(minConfidence: UInt8 = 2, maxDepth: Float = .infinity, voxel: Float? = nil,
                           step: Int = 1) throws(FathomError) -> PointCloud {
        guard step >= 1 else { throw FathomError(.outOfRange, "step must be >= 1, got \(step)") }
        guard maxDepth > 0 else { throw FathomError(maxDepth.isNaN ? .notFinite : .outOfRange, "max_depth must be > 0, got \(maxDepth)") }
        if let voxel {
            guard voxel.isFinite, voxel >= 1e-4, voxel <= 10 else { throw FathomError(.outOfRange, "voxel must be in [1e-4, 10] m, got \(voxel)") }
        }
        var grid = voxel.map { VoxelGrid(size: $0) }
        var points = [Float]()
        var scratch = [Float]()
        for i in stride(from: 0, to: count, by: step) {
            let frame = try ScanFrame(self, i)
            try frame.withDepthFrame(minConfidence: minConfidence, maxDepth: maxDepth) { (depth) throws(FathomError) in
                depth.worldPoints(into: &scratch) { p, n in
                    if grid != nil {
                        grid?.insert(p, count: n)
                        return
                    }
                    // A finite depth far beyond any sensor's range, seen through a wide lens, can land beyond the float
                    // range: such a sample is invalid, as the voxel grid treats it, and every cloud returned is finite.
                    for k in 0..<n where p[3 * k].isFinite && p[3 * k + 1].isFinite && p[3 * k + 2].isFinite {
                        points.append(p[3 * k])
                        points.append(p[3 * k + 1])
                        points.append(p[3 * k + 2])
                    }
                }
            }
        }
        return grid?.cloud() ?? PointCloud(unchecked: points)
    }
}
