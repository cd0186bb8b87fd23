import Foundation
import ShopCLI

// The `shop` executable: everything it does lives in ShopCLI, so that it can be tested.
exit(await Shop.main(arguments: Array(CommandLine.arguments.dropFirst()), handlesSIGINT: true))
