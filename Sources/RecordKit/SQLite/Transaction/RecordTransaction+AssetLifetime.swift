internal import GRDB

/// How long asset content is kept: while some record holds it. A write that deletes records or
/// overwrites their asset fields first notes the assets those records held
/// (``noteAssetsHeld(by:where:arguments:)``); when the transaction's work is done, before it
/// commits, the content of each noted asset that no record holds any more is removed
/// (``removeUnheldAssets()``). So the content goes in the same transaction as the write that
/// dropped its last holder, and a write that fails or rolls back removes nothing.
///
/// Holders are found from the records themselves, not counted, so an asset held twice by one
/// record, or by several, or released and taken up again within a batch (a record deleted and
/// another saved naming its content by checksum) is kept exactly while a record holds it.
extension RecordTransaction {
    /// Notes, as candidates for removal, the assets held by the rows of `layout`'s table that
    /// match `condition` (a `WHERE` condition on that table with `arguments`): call it before a
    /// statement deletes those rows or overwrites their asset fields. Costs nothing for a record
    /// type without asset fields.
    func noteAssetsHeld(by layout: TableLayout, where condition: String, arguments: StatementArguments) throws {
        guard let sql = AssetColumns.held(by: layout, where: condition) else { return }
        for sha256 in try String?.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
            if let sha256 { releasedAssets.insert(sha256) }
        }
    }

    /// Removes the content of the noted assets that no record holds any more (whoever may read
    /// it: this is storage, not access), with one statement, and forgets the notes.
    func removeUnheldAssets() throws {
        guard !releasedAssets.isEmpty else { return }
        defer { releasedAssets.removeAll() }
        let heldByNone = snapshot.storedLayouts.compactMap { layout in
            AssetColumns.holding("_assets.sha256", in: layout).map { "NOT EXISTS (SELECT 1 FROM \(layout.table) WHERE \($0))" }
        }
        let sql = (["DELETE FROM _assets WHERE sha256 IN (SELECT value FROM json_each(?))"] + heldByNone).joined(separator: " AND ")
        try db.cachedStatement(sql: sql).execute(arguments: [JSONText.array(releasedAssets)])
    }
}
