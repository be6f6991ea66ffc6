import CFathom

/// The engine's version: FATHOM_VERSION_* of include/fathom.h, the project's one statement of it.
public enum FathomVersion {
    public static let major = Int(FATHOM_VERSION_MAJOR)
    public static let minor = Int(FATHOM_VERSION_MINOR)
    public static let patch = Int(FATHOM_VERSION_PATCH)
    /// "MAJOR.MINOR.PATCH".
    public static var string: String { "\(major).\(minor).\(patch)" }
}
