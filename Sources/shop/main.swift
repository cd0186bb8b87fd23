import Foundation
import RecordService
import ShopCLI

// The `shop` executable: the service's commands (`shop serve`, `shop token …`) live in
// RecordService, everything else in ShopCLI, so that both can be tested. A command line that is
// not the service's goes to the REPL without touching the service.
let arguments = Array(CommandLine.arguments.dropFirst())
if let status = await ServiceCommandLine.run(arguments) {
    exit(status)
}
exit(await Shop.main(arguments: arguments, handlesSIGINT: true))
