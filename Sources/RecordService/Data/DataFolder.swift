public import Foundation
public import RecordKit

/// The folder `shop serve` keeps everything in (the README's service section: the data folder).
///
/// Its `shop.sqlite` is the public database of the `development` environment, the same file the
/// REPL opens by default, so `shop` and `shop serve` see the same lists. Beside it: `accounts.sqlite`
/// (token hashes, users with their password hashes, server-to-server keys), `production.sqlite`
/// (the `production` environment's public database), `private/ENVIRONMENT/USER.sqlite` (each
/// user's private database) and `uploads/` (asset uploads not yet saved in a record).
public struct DataFolder: Sendable, Hashable {
    /// The folder's path.
    public let path: String
    /// The schema a public database of the folder gets when it is new (the `shop` executable
    /// gives the shopping schema, as the REPL's new databases have).
    public let newDatabaseSchema: Schema

    /// The folder at `path`, created when missing.
    public init(path: String, newDatabaseSchema: Schema) throws(RecordError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RecordError(.invalidArguments, "cannot create the data folder \(path): \(error.localizedDescription); pass --data DIR")
        }
        self.path = path
        self.newDatabaseSchema = newDatabaseSchema
    }

    /// The folder of the REPL's default database: `$XDG_DATA_HOME/shop`, else `~/.local/share/shop`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/shop"
    }

    /// The public database of `environment`, created with ``newDatabaseSchema`` when new.
    func openPublicDatabase(_ environment: ServiceEnvironment) throws(RecordError) -> RecordDatabase {
        try RecordDatabase(path: publicDatabasePath(environment), bootstrap: newDatabaseSchema)
    }

    /// The file of the public database of `environment`.
    func publicDatabasePath(_ environment: ServiceEnvironment) -> String {
        switch environment {
        case .development: path + "/shop.sqlite"
        case .production: path + "/production.sqlite"
        }
    }

    /// The folder uploaded asset files wait in until a record takes them (or they expire).
    var uploadsPath: String { path + "/uploads" }

    /// The file of the private database of `user` in `environment`, its folder created when
    /// missing. The name's alphabet (``UserName``) needs no escaping in a file name.
    func privateDatabasePath(_ environment: ServiceEnvironment, user: UserName) throws(RecordError) -> String {
        let directory = path + "/private/" + environment.rawValue
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw RecordError(.internalError, "cannot create the folder of private databases \(directory): \(error.localizedDescription)")
        }
        return directory + "/" + user.text + ".sqlite"
    }

    /// The file of the accounts and token hashes.
    var accountsPath: String { path + "/accounts.sqlite" }
}
