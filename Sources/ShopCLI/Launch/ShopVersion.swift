/// The version of `shop`, kept here and only here: `shop --version` prints it with its date,
/// `shop --help` names it, and the man page (`Scripts/man`) is dated with it.
public enum ShopVersion {
    public static let current = "0.9.0"
    /// The day this version was set (the man page's date).
    public static let date = "2026-11-24"
}
