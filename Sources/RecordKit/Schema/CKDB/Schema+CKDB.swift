extension Schema {
    /// Reads a schema from CKDB text, the syntax of `cktool export-schema` (see ``CKDBParser``).
    ///
    /// Throws `invalidArguments` located at the offending token when the text is malformed.
    public init(ckdb text: String) throws(RecordError) {
        self = try CKDBParser.parse(text)
    }

    /// The schema as CKDB text in cktool's canonical layout (see ``CKDBPrinter``).
    public var ckdb: String { CKDBPrinter.print(self) }
}
