/// The capture formats a `Scan` reads.
public enum ScanFormat: UInt32, CaseIterable, Sendable {
    /// The iOS scanner app's files: `<id>.json`, `<id>.depth.zlib`, `<id>.confidence.zlib`, `<id>.jsonl`.
    case scanner = 0
    /// A Stray Scanner folder: `camera_matrix.csv`, `odometry.csv`, `depth/*.png`, `confidence/*.png`.
    case stray = 1
    /// A nerfstudio-style folder: `transforms.json` whose frames carry `depth_file_path` PNGs.
    case nerfstudio = 2

    public var name: String {
        switch self {
        case .scanner: return "scanner"
        case .stray: return "stray"
        case .nerfstudio: return "nerfstudio"
        }
    }
}
