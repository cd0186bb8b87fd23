import RecordKit
import Testing

@testable import RecordService

@Suite("shop help for the service's commands")
struct ServiceHelpTests {
    /// The service commands' help says "See 'shop help token <subcommand>'": that line works.
    @Test(arguments: [["help", "token", "create"], ["help", "serve"], ["help", "key", "remove"], ["help", "schema", "deploy"]])
    func helpBeforeAServiceCommandShowsItsHelp(arguments: [String]) async {
        #expect(await ServiceCommandLine.run(arguments, newDatabaseSchema: Schema()) == 0)
    }

    @Test func helpBeforeAnotherCommandIsTheREPLs() async {
        #expect(await ServiceCommandLine.run(["help", "schema", "import"], newDatabaseSchema: Schema()) == nil)
        #expect(await ServiceCommandLine.run(["help", "items"], newDatabaseSchema: Schema()) == nil)
    }
}
