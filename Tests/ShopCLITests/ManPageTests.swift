import Foundation
import Testing

/// docs/shop.1 is generated from the help texts by Scripts/man (swift-argument-parser's
/// generate-manual, plus `help` and `help graphql`): the committed page is exactly what the
/// script makes from the `shop` under test, so it cannot drift from them.
@Suite struct ManPageTests {
    @Test func theCommittedManPageIsWhatScriptsManGenerates() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        // The first run builds generate-manual (swift-argument-parser alone) in .build-man.
        let check = try ShopBinary.run("/bin/bash", [ShopBinary.file("Scripts/man"), "--check"], environment: ["SHOP_BINARY": binary], timeout: 900)
        #expect(check.status == 0, "\(check.output)\n\(check.errors)")
        let page = try String(contentsOfFile: ShopBinary.file("docs/shop.1"), encoding: .utf8)
        for section in [".Sh SYNOPSIS", ".Sh COMMANDS", #".Sh "QUERY LANGUAGE""#, "Fl -no-pager", "item show <list> <name>"] {
            #expect(page.contains(section), "docs/shop.1 lacks \(section)")
        }
    }
}
