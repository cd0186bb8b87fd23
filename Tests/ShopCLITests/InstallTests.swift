import Foundation
import Testing

@testable import ShopCLI

/// `Scripts/install PREFIX` puts a working `shop` in PREFIX/bin, with its man page and its
/// bash, zsh and fish completions (the test installs the binary it runs against, through
/// `SHOP_BINARY`, instead of building a release one).
@Suite struct InstallTests {
    @Test func installPutsAWorkingShopItsManPageAndCompletionsUnderThePrefix() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        let prefix = sandbox.folder.appendingPathComponent("prefix with space").path
        let install = try ShopBinary.run("/bin/bash", [ShopBinary.file("Scripts/install"), prefix], environment: ["SHOP_BINARY": binary])
        #expect(install.status == 0, "\(install.errors)")
        #expect(install.errors.contains("is not on your PATH"))
        let version = try ShopBinary.run(prefix + "/bin/shop", ["--version"])
        #expect(version.status == 0)
        #expect(version.output == "shop \(ShopVersion.current) (\(ShopVersion.date))\n")
        let manPage = try String(contentsOfFile: prefix + "/share/man/man1/shop.1", encoding: .utf8)
        #expect(manPage == (try String(contentsOfFile: ShopBinary.file("docs/shop.1"), encoding: .utf8)))
        for (file, shell) in [
            ("share/bash-completion/completions/shop", "bash"), ("share/zsh/site-functions/_shop", "zsh"),
            ("share/fish/vendor_completions.d/shop.fish", "fish"),
        ] {
            let script = try String(contentsOfFile: "\(prefix)/\(file)", encoding: .utf8)
            #expect(script.contains("no-pager"), "the \(shell) completion does not offer --no-pager")
        }
    }
}
