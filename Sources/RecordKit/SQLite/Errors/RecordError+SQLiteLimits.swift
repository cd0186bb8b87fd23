internal import GRDB

extension RecordError {
    /// The messages of SQLite refusing to compile a statement because it passes one of SQLite's
    /// own limits: the parser's stack (about 100 levels of nesting), the arguments of one
    /// function (127, so 63 members of one `json_object`), the depth of an expression tree.
    private static let sqliteLimitMessages = [
        "parser stack overflow",
        "too many arguments on function",
        "Expression tree is too large",
        "too many terms in compound SELECT",
        "too many FROM clause terms",
        "too many columns",
        "too many SQL variables",
    ]

    /// `limitExceeded` when `error` is SQLite refusing to compile a query the engine generated
    /// because it nests too deeply or is too large (a predicate of many alternating AND/OR
    /// levels, a selection of records nested in records), else `nil`. Such a query changed
    /// nothing; a simpler one works.
    static func sqliteLimit(_ error: any Error) -> RecordError? {
        guard let error = error as? DatabaseError, error.resultCode == .SQLITE_ERROR, let message = error.message else { return nil }
        if message == "integer overflow" || message == SQLFunctions.overflowMessage {
            return RecordError(
                .limitExceeded,
                "a sum passed the range of its field's type (INT64 holds ±9,223,372,036,854,775,807, DOUBLE ±1.8e308); aggregate fewer records, with a narrower where:",
                underlyingError: error
            )
        }
        guard let limit = sqliteLimitMessages.first(where: { message.contains($0) }) else { return nil }
        return RecordError(
            .limitExceeded,
            "the query is too complex for SQLite to compile (\(limit)); nest fewer AND/OR levels in the predicate, or fewer records in the selection",
            underlyingError: error
        )
    }
}
