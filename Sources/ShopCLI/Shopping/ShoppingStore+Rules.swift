import RecordKit

extension ShoppingStore {
    /// Gives a database made before the shopping schema declared its rules (`NOT EMPTY` names,
    /// `UNIQUE (name)` lists, `UNIQUE (list, name)` items) those rules, through the additive
    /// schema path. Returns `nil` when the database has them now, or the engine's refusal
    /// (naming the records that break a rule) for the caller to show as a warning: the
    /// database then stays usable as it is, and the rules are tried again on the next start.
    static func adoptShoppingRules(in database: RecordDatabase) -> RecordError? {
        do {
            let changes = try database.schema.changes(to: try ShoppingLists.schema).filter { change in
                switch change {
                case .addUniqueConstraint, .addRequired: true
                default: false
                }
            }
            if !changes.isEmpty { try database.applySchemaChanges(changes) }
            return nil
        } catch {
            return error
        }
    }
}
