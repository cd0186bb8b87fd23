import Foundation
import TestSupport

/// Python's `graphql-core` (pip package `graphql-core`, module `graphql`), an independent
/// GraphQL implementation the generated SDL and introspection are checked against.
enum GraphQLCore {
    /// Builds a schema from `sdl` with `graphql.build_schema` and validates it; returns the
    /// schema printed back by graphql-core.
    static func buildSchema(_ sdl: String) throws -> String {
        try run(
            """
            import sys, graphql
            schema = graphql.build_schema(sys.stdin.read())
            errors = graphql.validate_schema(schema)
            if errors:
                sys.exit("\\n".join(str(error) for error in errors))
            print(graphql.print_schema(schema))
            """,
            input: sdl
        )
    }

    /// Checks many schemas in one run: the SDL of each name; returns graphql-core's complaint
    /// about each schema it refuses.
    static func buildSchemas(_ sdlByName: [String: String]) throws -> [String: String] {
        let output = try run(
            """
            import sys, json, graphql
            problems = {}
            for name, sdl in json.loads(sys.stdin.read()).items():
                try:
                    errors = graphql.validate_schema(graphql.build_schema(sdl))
                    if errors:
                        problems[name] = "\\n".join(str(error) for error in errors)
                except Exception as error:
                    problems[name] = str(error)
            print(json.dumps(problems))
            """,
            input: String(decoding: try JSONEncoder().encode(sdlByName), as: UTF8.self)
        )
        return try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
    }

    /// Builds a schema from an introspection result (`{"data": …}` JSON) with
    /// `graphql.build_client_schema` and another from `sdl` with `build_schema`, and lists the
    /// types that differ between the two as graphql-core prints them, members in name order
    /// (empty when they agree).
    static func compareIntrospection(_ introspectionJSON: String, with sdl: String) throws -> String {
        try run(
            """
            import sys, json, graphql
            given = json.loads(sys.stdin.read())
            client = graphql.build_client_schema(given["introspection"]["data"])
            errors = graphql.validate_schema(client)
            if errors:
                sys.exit("\\n".join(str(error) for error in errors))
            built = graphql.build_schema(given["sdl"])
            # GraphQLSwift's introspection lists fields in name order; compare in name order.
            client, built = graphql.lexicographic_sort_schema(client), graphql.lexicographic_sort_schema(built)
            names = lambda schema: {name for name in schema.type_map if not name.startswith("__")}
            for name in sorted(names(client) ^ names(built)):
                print("only in one schema:", name)
            for name in sorted(names(client) & names(built)):
                printed = graphql.print_type(client.type_map[name]), graphql.print_type(built.type_map[name])
                if printed[0] != printed[1]:
                    print("introspection:\\n" + printed[0] + "\\nSDL:\\n" + printed[1])
            from graphql.utilities.print_schema import print_directive
            directive = lambda schema: [print_directive(d) for d in schema.directives if d.name == "transaction"]
            if directive(client) != directive(built):
                print("@transaction differs:", directive(client), directive(built))
            """,
            input: "{\"introspection\": \(introspectionJSON), \"sdl\": \(String(decoding: try JSONEncoder().encode(sdl), as: UTF8.self))}"
        )
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` with `input` on stdin and returns what it printed.
    static func run(_ script: String, input: String) throws -> String {
        let run = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script], input: .text(input))
        guard run.status == 0 else {
            if run.errors.contains("No module named 'graphql'") {
                throw Failure(description: "Python's graphql-core is missing: pip install graphql-core (Scripts/test installs it)")
            }
            throw Failure(description: "graphql-core refused it (exit \(run.status)):\n\(run.errors)")
        }
        return run.output
    }
}
