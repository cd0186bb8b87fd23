/// The version of `shop`, kept here and only here: `shop --version` prints it, `shop --help`
/// names it, and the man page (`Scripts/man`) is generated with it.
public enum ShopVersion {
    public static let current = "0.9.0"
}
