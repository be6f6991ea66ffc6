/// The engine's version, kept equal to FATHOM_VERSION_* in include/fathom.h.
public enum FathomVersion {
    public static let major = 0
    public static let minor = 1
    public static let patch = 0
    public static var string: String { "\(major).\(minor).\(patch)" }
}
