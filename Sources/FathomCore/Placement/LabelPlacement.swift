import Glibc

/// Placing a flat label panel next to a tracked image or a parent panel (the AR visualization toolkit).
public enum LabelPlacement {
    public enum Anchor: Int32, CaseIterable, Sendable {
        case auto = 0, center, leading, trailing, top, bottom, cover

        /// The anchor name as the toolkit spells it.
        public var name: String { String(describing: self) }
    }

    public enum Target: Int32, Sendable {
        /// A tracked image, lying in its own x-z plane (+z toward its bottom edge); panels turn -90 deg about x.
        case image = 0
        /// A parent panel: placed in its x-y plane with top = +y; not turned.
        case panel = 1
    }

    /// The order AUTO tries anchor points in; TOP again when all are taken.
    public static let autoOrder: [Anchor] = [.top, .bottom, .leading, .trailing]

    public struct Request: Sendable {
        public var anchor: Anchor
        public var target: Target
        public var targetSize: SIMD2<Float>   // W, H meters
        public var panelSize: SIMD2<Float>    // w, h meters
        public var relativePosition: SIMD3<Float> = .zero
        public var positionOffset: SIMD3<Float> = .zero
        /// Anchors already used by other labels of the same target (for AUTO).
        public var used: Set<Anchor> = []

        public init(anchor: Anchor, target: Target, targetSize: SIMD2<Float>, panelSize: SIMD2<Float>,
                    relativePosition: SIMD3<Float> = .zero, positionOffset: SIMD3<Float> = .zero, used: Set<Anchor> = []) {
            self.anchor = anchor; self.target = target; self.targetSize = targetSize; self.panelSize = panelSize
            self.relativePosition = relativePosition; self.positionOffset = positionOffset; self.used = used
        }
    }

    public struct Placement: Equatable, Sendable {
        public var position: SIMD3<Float>
        public var orientation: Quaternion
        public var anchor: Anchor
    }

    /// Places a label: position = relative_position + position_offset + the anchor's offset.
    public static func place(_ request: Request) throws(FathomError) -> Placement {
        try Check.positive(request.targetSize.x, "target_width")
        try Check.positive(request.targetSize.y, "target_height")
        try Check.positive(request.panelSize.x, "panel_width")
        try Check.positive(request.panelSize.y, "panel_height")
        try Check.finite(request.relativePosition, "relative_position")
        try Check.finite(request.positionOffset, "position_offset")
        var anchor = request.anchor
        if anchor == .auto { anchor = autoOrder.first { !request.used.contains($0) } ?? .top }
        let beside = (request.targetSize.x + request.panelSize.x) / 2
        let above = (request.targetSize.y + request.panelSize.y) / 2
        // Offsets (sideways, toward the top) in the target's plane.
        let inPlane: SIMD2<Float>
        switch anchor {
        case .auto, .center, .cover: inPlane = .zero
        case .leading: inPlane = SIMD2(-beside, 0)
        case .trailing: inPlane = SIMD2(beside, 0)
        case .top: inPlane = SIMD2(0, above)
        case .bottom: inPlane = SIMD2(0, -above)
        }
        let offset: SIMD3<Float>
        let orientation: Quaternion
        switch request.target {
        case .image:  // +z points to the image's bottom edge, so "up" is -z; lie flat: -90 deg about x.
            offset = SIMD3(inPlane.x, 0, -inPlane.y)
            orientation = Quaternion(-sin(Float.pi / 4), 0, 0, cos(Float.pi / 4))
        case .panel:
            offset = SIMD3(inPlane.x, inPlane.y, 0)
            orientation = .identity
        }
        let position = request.relativePosition + request.positionOffset + offset
        try Check.finite(position, "the resulting position")
        return Placement(position: position, orientation: orientation, anchor: anchor)
    }
}
