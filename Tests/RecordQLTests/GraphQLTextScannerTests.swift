import RecordQL
import Testing

/// The one scanner of GraphQL text: the REPL's "is the document complete" and the engine's
/// depth and escape checks read the same strings, comments and brackets.
@Suite struct GraphQLTextScannerTests {
    @Test func bracketsInStringsAndCommentsDoNotCount() {
        var scanner = GraphQLTextScanner()
        scanner.scan(#"{ Lists(predicate: "name == '}'") { name # } not a brace"#)
        #expect(scanner.braceDepth == 2 && !scanner.isComplete)
        scanner.scan("\n} }")
        #expect(scanner.isComplete)
    }

    @Test func aBlockStringMaySpanPieces() {
        var scanner = GraphQLTextScanner()
        scanner.scan(#"{ a(text: """ {"#)
        scanner.scan("\n } } \\\"\"\" still inside")
        #expect(!scanner.isComplete)
        scanner.scan("\n\"\"\") }")
        #expect(scanner.isComplete)
    }

    @Test func nestingPastTheLimitIsLocatedWhereItFirstHappens() {
        var scanner = GraphQLTextScanner(depthLimit: 4)
        scanner.scan("{ a(b: [[\n  [1]]]) }")
        #expect(scanner.tooDeep == GraphQLTextScanner.Position(line: 2, column: 3))
        var shallow = GraphQLTextScanner(depthLimit: 4)
        shallow.scan(#"{ a(b: "[[[[") }"#)
        #expect(shallow.tooDeep == nil)
    }

    @Test func aUnicodeEscapeCutShortByTheEndIsNoted() {
        var scanner = GraphQLTextScanner()
        scanner.scan(#"{ a(b: "\u12"#)
        #expect(scanner.unfinishedEscape == GraphQLTextScanner.Position(line: 1, column: 9))
        var whole = GraphQLTextScanner()
        whole.scan(#"{ a(b: "\u1234") }"#)
        #expect(whole.unfinishedEscape == nil)
    }
}
