import Foundation

/// `shop --server URL -f` on a 1,000-command script (200 with `--quick`), against a release `shop serve` on loopback
/// started on a new data folder each time, beside the same script through `shop --db` on a new
/// file.
extension Bench {
    /// How many commands the script through the server runs: 1,000 (a tenth of the `-f` row's).
    var serverScriptCommands: Int { sizes.scriptCommands / 10 }

    /// Both sides run the same commands and print the same lines; the server's side also pays
    /// HTTP on loopback for each of a command's requests (the look-ups by name and the write,
    /// kept-alive connections, a transaction ID stored with each write). Budget 5x.
    func shopScriptThroughServer() async throws -> Result {
        let shop = try Program.built("shop")
        let script = CommandScript(commands: serverScriptCommands)
        let scriptFile = folder.appendingPathComponent("server-script.shop").path
        try script.shop.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        let localDatabase = folder.appendingPathComponent("server-script-local.sqlite").path
        let data = folder.appendingPathComponent("server-script-data")
        var server: (process: ServerProcess, url: String, token: String)?
        defer { server?.process.stop() }
        let startServer = {
            server?.process.stop()
            try? FileManager.default.removeItem(at: data)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            let token = try shop.output(["token", "create", "--admin", "--data", data.path], in: self.folder)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let process = try ServerProcess(
                "shop serve", program: shop.path, arguments: ["serve", "--data", data.path, "--host", "127.0.0.1", "--port", "0"],
                log: self.folder.appendingPathComponent("server-script-serve.log"), readsOutput: true)
            let line = try process.readLine(timeout: 30)
            let prefix = "shop serve: listening on "
            guard line.hasPrefix(prefix) else { throw BenchError("shop serve printed '\(line)' instead of its address") }
            server = (process, String(line.dropFirst(prefix.count)), token)
        }
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side(prepare: startServer) {
                guard let server else { return }
                try shop.run(["--server", server.url, "--token", server.token, "-f", scriptFile])
            },
            raw: Timing.Side(prepare: { try self.removeDatabase(localDatabase) }) { try shop.run(["--db", localDatabase, "-f", scriptFile]) }
        )
        guard let server else { throw BenchError("shop serve did not start") }
        let counts = try shop.output(["--server", server.url, "--token", server.token, "-e", "count Lists", "-e", "count Items"], in: folder)
        try verify(counts == "\(script.listCount)\n\(script.additions)\n", "the server holds every list and item the script made")
        return Result(
            workload: "a \(serverScriptCommands.formatted())-command script through shop --server on loopback vs shop --db",
            engine: timings.engine, raw: timings.raw, budget: .ratio(5)
        )
    }
}
