internal import GRDB

extension StatementArguments {
    /// Arguments holding `values`. GRDB's generic initializer maps its sequence through a key
    /// path, unspecialized across the module boundary, which cost more than the insert it bound
    /// on the save path; its initializer over existentials does the same work for a fraction.
    init(values: [DatabaseValue]) {
        self.init(values.map { $0 as (any DatabaseValueConvertible)? })
    }
}
