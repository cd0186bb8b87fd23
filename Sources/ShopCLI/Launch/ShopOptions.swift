import ArgumentParser

/// The `shop` command line (the README describes it):
/// `shop [--db PATH | --server URL [--token TOKEN] [--database public|private]] [--json] [-e COMMAND]... [-f FILE]... [--keep-going] [-1 | --single-transaction]
/// [--read-only] [--no-pager] [--version]`.
struct ShopOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop",
        abstract: "Shopping lists in a CloudKit-style record database (shop \(ShopVersion.current)).",
        discussion: """
            With no -e or -f, shop reads commands from the terminal (an interactive prompt with \
            line editing, history and tab completion) or, when standard input is not a terminal, \
            from standard input. Type help at the prompt for the commands.

            Examples:
              shop
              shop -e 'list add Groceries' -e 'item add Groceries Milk'
              shop --db /tmp/test.sqlite -f Scripts/examples/groceries.shop
              shop --server http://127.0.0.1:8080 -e lists
              echo lists | shop
            """,
        version: "shop \(ShopVersion.current) (\(ShopVersion.date))"
    )

    @Option(
        help: ArgumentHelp(
            "The database file. Default: $SHOP_DB, else $XDG_DATA_HOME/shop/shop.sqlite (~/.local/share/shop/shop.sqlite).",
            valueName: "path"
        ))
    var db: String?

    @Option(
        help: ArgumentHelp(
            "A running shop serve to work against instead of a file. Default: $SHOP_SERVER (unless --db is given). "
                + "An https:// server's certificate is checked against the system's authorities and those in $SSL_CERT_FILE.",
            valueName: "url"
        ))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "The server's bearer token. Default: $SHOP_TOKEN, else the file $XDG_CONFIG_HOME/shop/token (~/.config/shop/token).",
            valueName: "token"
        ))
    var token: String?

    @Option(help: ArgumentHelp("The server's database: public (the default) or private (the token's user's).", valueName: "public|private"))
    var database: String?

    @Flag(help: "Print what each command shows as one JSON document on one line (a GraphQL response as it is).")
    var json = false

    @Option(name: .customShort("e"), help: ArgumentHelp("Run a command (repeatable; -e and -f run in the order given).", valueName: "command"))
    var commands: [String] = []

    @Option(name: .customShort("f"), help: ArgumentHelp("Run a script file (repeatable).", valueName: "file"))
    var files: [String] = []

    @Flag(help: "Report every failing command and go on; still exit 1 at the end.")
    var keepGoing = false

    @Flag(
        name: [.customShort("1"), .customLong("single-transaction")],
        help:
            "Run all of -e and -f as one transaction of the database file, as psql's -1: when a command fails, or Ctrl-C stops them, nothing is applied. Not through --server, whose transactions never span requests."
    )
    var singleTransaction = false

    @Flag(help: "Open an existing database only to read it, also without write access to the file; commands that write are refused.")
    var readOnly = false

    @Flag(help: "Never page long output (at a terminal it goes through $PAGER, else less -FRX).")
    var noPager = false

    func validate() throws {
        if db?.isEmpty == true {
            throw ValidationError(
                "--db '' names no file; give the database's path, or leave --db out for the default ($SHOP_DB, else ~/.local/share/shop/shop.sqlite)")
        }
        if server != nil, db != nil {
            throw ValidationError("--db and --server both name where the records are; give one")
        }
        if singleTransaction, commands.isEmpty, files.isEmpty {
            throw ValidationError("-1 (--single-transaction) runs the -e commands and -f files as one transaction; give at least one")
        }
    }

    /// One `-e` or `-f`, in command-line order.
    enum Step: Equatable {
        case command(String)
        case file(String)
    }

    /// The `-e` commands and `-f` files in the order `arguments` gives them. swift-argument-parser
    /// keeps each option's values in order but not the interleaving of the two options, so it is
    /// recovered from the arguments it parsed.
    func steps(in arguments: [String]) -> [Step] {
        var commands = self.commands[...]
        var files = self.files[...]
        var steps: [Step] = []
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            let argument = arguments[index]
            let takesNext = ["-e", "-f", "--db", "--server", "--token", "--database"].contains(argument)
            if argument.hasPrefix("-e"), let command = commands.popFirst() {
                steps.append(.command(command))
            } else if argument.hasPrefix("-f"), let file = files.popFirst() {
                steps.append(.file(file))
            }
            index += takesNext ? 2 : 1
        }
        return steps + commands.map(Step.command) + files.map(Step.file)
    }
}
