import Foundation
import RecordKit
import RecordQL
import Testing

@testable import ShopCLI

/// Every input kept from fuzzing goes through its parser again and must keep the properties
/// `Scripts/fuzz` checks (see its harnesses in `Fuzz/Sources`): `Fuzz/Regressions/TARGET` holds
/// the inputs that once crashed a harness (each fixed since), `Fuzz/Seeds/TARGET` the corpus the
/// fuzzer starts from. Add a crash found by the fuzzer to Regressions when fixing it.
@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
    /// One kept input file.
    struct KeptInput: CustomTestStringConvertible, Sendable {
        var path: String
        var testDescription: String { String(path.dropFirst(ShopBinary.packageRoot.path.count + 1)) }
        var text: String {
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
    }

    /// The kept inputs of harness `target`, seeds and regressions.
    static func inputs(_ target: String) -> [KeptInput] {
        ["Seeds", "Regressions"].flatMap { kind in
            let folder = ShopBinary.file("Fuzz/\(kind)/\(target)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { KeptInput(path: folder + "/" + $0) }
        }
    }

    @Test(arguments: inputs("ckdb"))
    func ckdbInputsParseOrFailCleanlyAndPrintBack(_ input: KeptInput) throws {
        guard let schema = try? CKDBParser.parse(input.text) else { return }
        #expect(try CKDBParser.parse(CKDBPrinter.print(schema)) == schema)
    }

    @Test(arguments: inputs("predicate"))
    func predicateInputsParseOrFailCleanlyPrintBackAndRun(_ input: KeptInput) async throws {
        guard let predicate = try? PredicateParser.parse(input.text) else { return }
        do {
            #expect(try PredicateParser.parse(predicate.description) == predicate, "printed as \(predicate.description.debugDescription)")
        } catch {
            // Escapes make the printed form longer than the text: past the limit it cannot read back.
            #expect(error.code == .limitExceeded && predicate.description.unicodeScalars.count > PredicateParser.maximumLength, "\(error)")
        }
        let (database, _) = try await FuzzFixture.make()
        for recordType in ["T", "Items"] {
            do {
                _ = try database.records(matching: Query(recordType, predicate: predicate, limit: 3))
            } catch {
                #expect(error.code != .internalError, "\(error)")
            }
        }
    }

    @Test(arguments: inputs("tokenizer"))
    func tokenizerInputsSplitAndQuoteBack(_ input: KeptInput) throws {
        var assembler = LineAssembler()
        for (index, line) in input.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            _ = try? assembler.feed(String(line), number: index + 1)
            guard let words = try? LineTokenizer.words(String(line)) else { continue }
            #expect(LineTokenizer.scan(String(line)).words.map(\.text) == words)
            for word in words {
                #expect(
                    try LineTokenizer.words(LineTokenizer.quote(word)) == [word],
                    "\(word.debugDescription) quoted as \(LineTokenizer.quote(word).debugDescription)")
            }
        }
        _ = try? assembler.finish()
    }

    @Test(arguments: inputs("graphql"))
    func graphQLInputsGetWellFormedResponses(_ input: KeptInput) async throws {
        let (_, engine) = try await FuzzFixture.make()
        let json = await engine.execute(input.text).json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        if let errors = object["errors"] as? [[String: Any]] {
            for error in errors {
                let code = (error["extensions"] as? [String: Any])?["code"] as? String
                #expect(code != nil && code != RecordError.Code.internalError.rawValue, "\(json)")
            }
        } else {
            #expect(object["data"] != nil, "\(json)")
        }
    }
}

/// The database of `Fuzz/Fixture`: the schema fuzzed inputs run against and its records.
enum FuzzFixture {
    static func make() async throws -> (RecordDatabase, RecordQLEngine) {
        let schema = try String(contentsOfFile: ShopBinary.file("Fuzz/Fixture/schema.ckdb"), encoding: .utf8)
        let records = try String(contentsOfFile: ShopBinary.file("Fuzz/Fixture/records.graphql"), encoding: .utf8)
        let database = try RecordDatabase.inMemory(bootstrap: try CKDBParser.parse(schema))
        let engine = RecordQLEngine(database: database)
        let response = await engine.execute(records)
        try #require(response.isSuccess, "\(response.json)")
        return (database, engine)
    }
}
