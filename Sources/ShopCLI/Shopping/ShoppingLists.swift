public import RecordKit

/// The product `shop` is: shopping lists and their items.
public enum ShoppingLists {
    /// The schema of a new database (`Schemas/shopping.ckdb`, embedded here): `Lists` with a
    /// unique, non-empty `name`; `Items` with a `name` unique within its list and a DELETE_SELF
    /// `list` reference. The REPL creates its databases with it, and `shop serve` the public
    /// databases of a new data folder.
    public static var schema: Schema {
        get throws(RecordError) {
            try CKDBParser.parse(String(decoding: PackageResources.shopping_ckdb, as: UTF8.self))
        }
    }
}
