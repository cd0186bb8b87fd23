import Foundation

/// An executable the benchmark runs as a whole process, start to exit: `shop` (built beside
/// shop-bench) or SQLite's `sqlite3` shell.
///
/// Started with `posix_spawn` and reaped with `waitpid`, so a timing is the process's own life
/// (Foundation's `Process` waits by polling a run loop, which would blur figures of a few ms).
struct Program {
    let path: String

    /// `name` in the folder of the running shop-bench, where `swift build` puts every product.
    static func built(_ name: String) throws -> Program {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let path = folder.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("\(path) is missing; build it with: swift build -c release --product \(name) (Scripts/bench does)")
        }
        return Program(path: path)
    }

    /// `name` on the `PATH`, from the Debian package `package`.
    static func installed(_ name: String, package: String) throws -> Program {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = folders.map({ "\($0)/\(name)" }).first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw BenchError("\(name) is not installed; install it with: apt-get install \(package) (Scripts/bench does)")
        }
        return Program(path: path)
    }

    /// Runs the program with `arguments` to its exit: standard input from the file `input`
    /// (else empty), standard output to the file `output` (else discarded), standard error
    /// shared with the benchmark. Throws unless it exits with status 0.
    func run(_ arguments: [String], input: String? = nil, output: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, nil, argv, environment)
        guard started == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(started)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw BenchError("waiting for \(path): \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED and WEXITSTATUS, which Swift does not import: exited normally, with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw BenchError("\(([path] + arguments).joined(separator: " ")) failed (wait status \(status))")
        }
    }

    /// What the program prints on standard output for `arguments`, through a file in `folder`.
    func output(_ arguments: [String], in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("output-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try run(arguments, output: file)
        return try String(contentsOfFile: file, encoding: .utf8)
    }
}
