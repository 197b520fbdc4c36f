/// The release, as `tock --version` prints it. deploy/VERSION names the
/// same release for the package; a test keeps the two equal.
public enum TockVersion {
    public static let string = "0.1.0"
}
