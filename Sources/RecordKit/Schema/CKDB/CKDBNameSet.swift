/// The names declared so far in one scope — the roles, the record types, or the fields of one
/// record type — so that a second declaration is refused.
///
/// Names are compared ignoring case: storage is SQLite, whose identifiers are case-insensitive.
struct CKDBNameSet {
    /// What the names name, for messages: `role`, `record type`, `field`.
    let kind: String
    private var declared: [String: (name: String, token: CKDBToken)] = [:]

    init(of kind: String) {
        self.kind = kind
    }

    /// Records `name`, declared at `token`, or throws if it is already declared.
    mutating func insert(_ name: String, at token: CKDBToken, in cursor: CKDBCursor) throws(RecordError) {
        let key = name.lowercased()
        if let previous = declared[key] {
            let line = cursor.location(of: previous.token).line
            let spelling =
                previous.name == name
                ? ""
                : " as '\(previous.name)' (names that differ only in case are the same name)"
            throw cursor.error("duplicate \(kind) '\(name)': already declared on line \(line)\(spelling)", at: token)
        }
        declared[key] = (name, token)
    }

    /// Where `name` (in any case) was declared, if it was.
    func token(of name: String) -> CKDBToken? {
        declared[name.lowercased()]?.token
    }
}
