import RecordKit

extension Schema {
    /// The shopping schema of `shop` (`Schemas/shopping.ckdb`): the tests' everyday schema, lists
    /// and their items.
    public static var shopping: Schema {
        get throws(RecordError) {
            try CKDBParser.parse(String(decoding: PackageResources.shopping_ckdb, as: UTF8.self))
        }
    }
}
