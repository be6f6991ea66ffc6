import FathomCore

/// REPL functions for depth maps, fits and object lengths.
let depthBuiltins: [String: Builtin] = [
    "depth_formula": Builtin(usage: "depth_formula(k, (w, h), \"formula\")",
                             summary: "w x h depth map (meters) of a formula in u, v (RGB pixel), i, j (sample), rx, ry (ray slopes)") { a in
        try a.expect(3...3)
        let k = try a.camera(0, "k"), size = try a.floats(1, "(w, h)", count: 2)
        let (w, h) = (Int(size[0]), Int(size[1]))
        guard w >= 1, h >= 1, w <= 8192, h <= 8192, Float(w) == size[0], Float(h) == size[1] else {
            throw FathomError(.outOfRange, "(w, h) must be whole numbers in 1...8192, got (\(format(size[0])), \(format(size[1])))")
        }
        let formula = try Formula(a.string(2, "formula"))
        let sx = Double(k.width) / Double(w), sy = Double(k.height) / Double(h)
        var values = [Float](repeating: 0, count: w * h)
        for j in 0..<h {
            for i in 0..<w {
                let u = (Double(i) + 0.5) * sx, v = (Double(j) + 0.5) * sy
                values[j * w + i] = Float(try formula(["u": u, "v": v, "i": Double(i), "j": Double(j),
                                                       "rx": (u - Double(k.cx)) / Double(k.fx), "ry": (v - Double(k.cy)) / Double(k.fy)]))
            }
        }
        return .depth(DepthImage(values: values, width: w, height: h, rgb: k))
    },
    "load_depth": Builtin(usage: "load_depth(\"depth.npy\", k [, scale])",
                          summary: "depth map from a 2D .npy array (float32/16/64 meters, or uint16 times scale, e.g. 0.001)") { a in
        try a.expect(2...3)
        let (values, w, h) = try NumpyFile.read2D(path: a.string(0, "path"))
        let scale = a.count > 2 ? try a.float(2, "scale") : 1
        try Check.positive(scale, "scale")
        return .depth(DepthImage(values: values.map { $0 * scale }, width: w, height: h, rgb: try a.camera(1, "k")))
    },
    "mask_formula": Builtin(usage: "mask_formula(depth, \"formula\")",
                            summary: "mask over the depth grid, inside where the formula (also of d, the depth) is > 0") { a in
        try a.expect(2...2)
        let depth = try a.depth(0, "depth")
        let formula = try Formula(a.string(1, "formula"))
        let k = depth.rgb
        let sx = Double(k.width) / Double(depth.width), sy = Double(k.height) / Double(depth.height)
        var bytes = [UInt8](repeating: 0, count: depth.width * depth.height)
        for j in 0..<depth.height {
            for i in 0..<depth.width {
                let u = (Double(i) + 0.5) * sx, v = (Double(j) + 0.5) * sy
                let value = try formula(["u": u, "v": v, "i": Double(i), "j": Double(j), "d": Double(depth.values[j * depth.width + i]),
                                         "rx": (u - Double(k.cx)) / Double(k.fx), "ry": (v - Double(k.cy)) / Double(k.fy)])
                bytes[j * depth.width + i] = value > 0 ? 1 : 0
            }
        }
        return .mask(MaskImage(bytes: bytes, width: depth.width, height: depth.height))
    },
    "backproject": Builtin(usage: "backproject(depth [, mask])", summary: "the valid samples as a cloud of ARKit camera-frame points") { a in
        try a.expect(1...2)
        let depth = try a.depth(0, "depth")
        let mask = a.count > 1 ? try a.mask(1, "mask") : nil
        let xyz: [Float] = try depth.withFrame { frame in
            try withOptionalMask(mask) { m in
                let selection = DepthSelection(x0: 0, y0: 0, x1: frame.width, y1: frame.height, step: 1, mask: m)
                let count = frame.validCount(selection)
                var xyz = [Float](repeating: 0, count: 3 * count)
                _ = xyz.withUnsafeMutableBufferPointer {
                    frame.backproject(selection, to: .camera, points: $0.baseAddress, pixels: nil, normals: nil, capacity: count)
                }
                return xyz
            }
        }
        guard !xyz.isEmpty else { throw FathomError(.noData, "no valid depth samples\(mask == nil ? "" : " under the mask")") }
        return .cloud(Cloud(xyz: xyz))
    },
    "depth_at": Builtin(usage: "depth_at(depth, (u, v) [, \"nearest\"|\"bilinear\"|\"median\" [, window]])",
                        summary: "depth (meters) at an RGB pixel; median over a window (default 5) skips invalid samples") { a in
        try a.expect(2...4)
        let (pixel, sampling, window) = try samplingArguments(a)
        return .number(Double(try a.depth(0, "depth").withFrame { try $0.sample(u: pixel.x, v: pixel.y, sampling, window: window).depth }))
    },
    "depth_point": Builtin(usage: "depth_point(depth, (u, v) [, method [, window]])",
                           summary: "ARKit camera-frame point of an RGB pixel at its sampled depth") { a in
        try a.expect(2...4)
        let (pixel, sampling, window) = try samplingArguments(a)
        return vector(try a.depth(0, "depth").withFrame { frame in
            let d = try frame.sample(u: pixel.x, v: pixel.y, sampling, window: window).depth
            return frame.convert(frame.opticalPoint(u: pixel.x, v: pixel.y, depth: d), to: .camera)
        })
    },
    "fit_line": Builtin(usage: "fit_line(cloud [, threshold [, iterations [, confidence]]])",
                        summary: "3D line by total least squares (LAPACK), or RANSAC (as fit_plane) with refits when a threshold is given") { a in
        try a.expect(1...4)
        let options = try ransacArguments(a)
        let fit = try withFitPoints(a.cloud(0, "cloud")) { p in try options.map { try LineFit.ransac(p, $0) } ?? LineFit.fit3D(p) }
        return .list([.string("point \(format(components: fit.point.scalars)) direction \(format(components: fit.direction.scalars))"),
                      .string("extent \(format(fit.tMax - fit.tMin)) rms \(format(fit.rms)) max \(format(fit.maxResidual)) of \(fit.used) points")])
    },
    "fit_plane": Builtin(usage: "fit_plane(cloud [, threshold [, iterations [, confidence]]])",
                         summary: "least-squares plane, or RANSAC (seed 0, at most 1000 triples, confidence 0.99) with refits when a threshold is given") { a in
        try a.expect(1...4)
        let options = try ransacArguments(a)
        let fit = try withFitPoints(a.cloud(0, "cloud")) { p in try options.map { try PlaneFit.ransac(p, $0) } ?? PlaneFit.fit(p) }
        return .list([.string("point \(format(components: fit.point.scalars)) normal \(format(components: fit.normal.scalars))"),
                      .string("rms \(format(fit.rms)) max \(format(fit.maxResidual)) of \(fit.used) points")])
    },
    "measure": Builtin(usage: "measure(depth, head, tail [, \"median\"|\"nearest\"|\"plane\" [, mask]])",
                       summary: "length between two RGB keypoints with its 1-sigma error (plane needs the object's mask)") { a in
        try a.expect(3...5)
        let head = try a.floats(1, "head", count: 2), tail = try a.floats(2, "tail", count: 2)
        var options = LengthOptions()
        options.keypointDepth = try a.count > 3 ? keypointDepth(a.string(3, "method")) : .median
        let mask = a.count > 4 ? try a.mask(4, "mask") : nil
        return describe(try a.depth(0, "depth").withFrame { frame in
            try withOptionalMask(mask) { m in
                try frame.measure(head: SIMD2(head[0], head[1]), tail: SIMD2(tail[0], tail[1]), mask: m, options: options)
            }
        })
    },
    "measure_mask": Builtin(usage: "measure_mask(depth, mask [, edge_noise])",
                            summary: "straight length of the masked object: its outline's extent along its axis, on its plane") { a in
        try a.expect(2...3)
        let options = try edgeNoiseOptions(a, 2)
        let mask = try a.mask(1, "mask")
        return describe(try a.depth(0, "depth").withFrame { frame in try mask.withMask { try frame.measure(mask: $0, options: options) } })
    },
    "measure_midline": Builtin(usage: "measure_midline(depth, mask [, edge_noise])",
                               summary: "length along the masked object's midline (a bent fish), with its ends") { a in
        try a.expect(2...3)
        let options = try edgeNoiseOptions(a, 2)
        let mask = try a.mask(1, "mask")
        return describe(try a.depth(0, "depth").withFrame { frame in
            try mask.withMask { try frame.measureMidline(mask: $0, options: options).length }
        })
    },
    "mask_ends": Builtin(usage: "mask_ends(mask)", summary: "head/tail candidates: extreme mask pixels along its principal axis") { a in
        try a.expect(1...1)
        let ends = try a.mask(0, "mask").withMask { try $0.endpoints() }
        return .list([.string("end0 \(format(components: [Double(ends.end0.x), Double(ends.end0.y)]))"),
                      .string("end1 \(format(components: [Double(ends.end1.x), Double(ends.end1.y)]))"),
                      .string("axis \(format(components: [ends.axis.direction.x, ends.axis.direction.y])) (mask pixels)")])
    },
    "measure_ends": Builtin(usage: "measure_ends(depth, mask [, method])",
                            summary: "length between the mask's extreme pixels (scaled to the RGB image), as measure()") { a in
        try a.expect(2...3)
        let depth = try a.depth(0, "depth"), mask = try a.mask(1, "mask")
        var options = LengthOptions()
        options.keypointDepth = try a.count > 2 ? keypointDepth(a.string(2, "method")) : .median
        let ends = try mask.withMask { try $0.endpoints() }
        let scale = SIMD2(Float(depth.rgb.width) / Float(mask.width), Float(depth.rgb.height) / Float(mask.height))
        return describe(try depth.withFrame { frame in
            try mask.withMask { try frame.measure(head: ends.end0 * scale, tail: ends.end1 * scale, mask: $0, options: options) }
        })
    },
]

/// An expression evaluated many times with different variables (one per depth sample).
struct Formula {
    let expr: Expr
    let interpreter = Interpreter()

    init(_ text: String) throws {
        guard case .expression(let expr)? = try Parser.parse(text) else {
            throw FathomError(.outOfRange, "the formula must be an expression, got \"\(text)\"")
        }
        self.expr = expr
    }

    func callAsFunction(_ bindings: [String: Double]) throws -> Double {
        let value: Value
        do { value = try interpreter.evaluate(expr, with: bindings.mapValues { .number($0) }) } catch {
            throw FathomError(.outOfRange, "in the formula: \(error.message)")
        }
        guard case .number(let x) = value else { throw FathomError(.outOfRange, "the formula must give a number, got \(value.typeName)") }
        return x
    }
}

private func samplingArguments(_ a: Arguments) throws -> (SIMD2<Float>, DepthSampling, Int) {
    let pixel = try a.floats(1, "(u, v)", count: 2)
    let name = a.count > 2 ? try a.string(2, "method") : "nearest"
    guard let sampling = ["nearest": DepthSampling.nearest, "bilinear": .bilinear, "median": .median][name] else {
        throw FathomError(.outOfRange, "method must be \"nearest\", \"bilinear\" or \"median\", got \"\(name)\"")
    }
    let window = a.count > 3 ? try a.integer(3, "window") : (sampling == .median ? 5 : 1)
    return (SIMD2(pixel[0], pixel[1]), sampling, window)
}

private func keypointDepth(_ name: String) throws -> KeypointDepth {
    guard let method = ["nearest": KeypointDepth.nearest, "median": .median, "plane": .plane][name] else {
        throw FathomError(.outOfRange, "method must be \"median\", \"nearest\" or \"plane\", got \"\(name)\"")
    }
    return method
}

/// Default length options, with the mask outline's noise (mask pixels) from argument `index` when given.
private func edgeNoiseOptions(_ a: Arguments, _ index: Int) throws -> LengthOptions {
    var options = LengthOptions()
    if a.count > index { options.edgeNoise = try a.number(index, "edge_noise") }
    try options.validate()
    return options
}

private func withOptionalMask<R>(_ mask: MaskImage?, _ body: (Mask?) throws -> R) throws -> R {
    guard let mask else { return try body(nil) }
    return try mask.withMask { try body($0) }
}

/// RANSAC options from the arguments after the cloud (threshold, iterations, confidence; seed 0), nil without a
/// threshold: a least-squares fit.
private func ransacArguments(_ a: Arguments) throws -> RansacOptions? {
    guard a.count > 1 else { return nil }
    let defaults = RansacOptions.defaults
    return try RansacOptions(threshold: a.number(1, "threshold"), iterations: a.count > 2 ? a.integer(2, "iterations") : defaults.iterations,
                             seed: defaults.seed, confidence: a.count > 3 ? a.number(3, "confidence") : defaults.confidence)
}

private func withFitPoints<R>(_ cloud: Cloud, _ body: (FitPoints) throws -> R) throws -> R {
    let values = cloud.xyz.map(Double.init)
    return try values.withUnsafeBufferPointer { try body(FitPoints(base: $0.baseAddress!, count: cloud.count, strideBytes: 24, dimensions: 3)) }
}

private func describe(_ l: ObjectLength) -> Value {
    .list([.string("length \(format(l.length)) m +- \(format(l.sigma)) (1 sigma), \(l.samples) samples, rms \(format(l.rms))"),
           .string("head \(format(components: l.head.scalars)) at pixel \(format(components: [Double(l.headPixel.x), Double(l.headPixel.y)]))"),
           .string("tail \(format(components: l.tail.scalars)) at pixel \(format(components: [Double(l.tailPixel.x), Double(l.tailPixel.y)]))")])
}

private extension SIMD3 where Scalar == Double {
    var scalars: [Double] { [x, y, z] }
}
