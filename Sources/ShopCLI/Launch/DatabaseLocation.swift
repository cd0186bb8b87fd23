import Foundation
import RecordKit

/// Where the database is: `--db`, else `$SHOP_DB`, else `$XDG_DATA_HOME/shop/shop.sqlite`, else
/// `~/.local/share/shop/shop.sqlite`. The default folder is created when missing.
enum DatabaseLocation {
    static func path(option: String?, environment: [String: String]) throws(RecordError) -> String {
        if let option { return option }
        if let path = environment["SHOP_DB"], !path.isEmpty { return path }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        let folder = dataHome + "/shop"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RecordError(.invalidArguments, "cannot create \(folder) for the database: \(error.localizedDescription); pass --db PATH")
        }
        return folder + "/shop.sqlite"
    }
}
