import Foundation
import RecordKit
import RecordService
import ShopCLI

// The `shop` executable: the service's commands (`shop serve`, `shop token …`) live in
// RecordService, everything else in ShopCLI, so that both can be tested. A command line that is
// not the service's goes to the REPL without touching the service. The service's new databases
// get the REPL's shopping schema, which the executable hands it.
StandardDescriptors.keepOpen()
let arguments: [String]
do {
    arguments = try ProcessArguments.utf8()
} catch {
    _ = DescriptorWrite.all("error: \(error)\n", to: STDERR_FILENO)
    exit(1)
}
do {
    if let status = await ServiceCommandLine.run(arguments, newDatabaseSchema: try ShoppingLists.schema) {
        exit(status)
    }
} catch {
    _ = DescriptorWrite.all("error: \(error)\n", to: STDERR_FILENO)
    exit(1)
}
exit(await Shop.main(arguments: arguments, handlesSIGINT: true))
