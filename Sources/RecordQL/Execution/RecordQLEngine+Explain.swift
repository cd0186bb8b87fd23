public import GraphQL
public import RecordKit

extension RecordQLEngine {
    /// How a query would run: for each root field, the one SQL statement the engine compiles it
    /// into and SQLite's plan for it. Nothing is executed.
    ///
    /// ```
    /// Items
    ///   SELECT json_group_array(json(o)) FROM (SELECT json_object(…) AS o FROM "Items" AS t0 WHERE …)
    ///   plan:
    ///     CO-ROUTINE (subquery-1)
    ///       SEARCH t0 USING COVERING INDEX _idx(Items:list:name) (list=?)
    ///     SCAN (subquery-1)
    /// ```
    /// An aliased field is headed `alias: field`.
    public func explain(_ document: String, variables: [String: Map] = [:], operationName: String? = nil) async throws(RecordError) -> String {
        do throws(GraphQLFailure) {
            for _ in 0...Self.maximumReplans {
                let context = try await currentContext()
                let prepared = try prepare(document, variables: variables, operationName: operationName, context: context)
                guard case .query(let plan) = prepared.plan else {
                    throw GraphQLFailure(
                        .invalidArguments, "explain shows how a query runs; mutations are not explained", at: [prepared.request.operation]
                    )
                }
                if let explanation = try await explain(plan, at: context.generation) { return explanation }
            }
            throw GraphQLFailure(.internalError, "the schema kept changing while the query was explained; explain it again", stage: .execution)
        } catch {
            throw RecordError(error, document: document)
        }
    }

    /// The explanation of `plan`'s fields, or `nil` when the schema is no longer at `version`.
    private func explain(_ plan: QueryPlan, at version: Int) async throws(GraphQLFailure) -> String? {
        let reads = plan.fields.map { field -> RecordRead? in
            switch field.step {
            case .records(let query, let projection):
                return .explain(query, projection)
            case .aggregate(let query, let aggregation):
                return .explainAggregate(query, aggregation)
            case .page(let query, _, let members):
                let projection = members.lazy.compactMap { member -> Projection? in
                    if case .records(_, let projection) = member { projection } else { nil }
                }.first
                return .explain(query, projection ?? Projection([]))
            case .constant, .introspection, .asset, .changes:
                return nil
            }
        }
        let outcome: StoreOutcome<[Result<RecordReadResult, RecordError>]>
        do throws(RecordError) {
            outcome = try await store.read(reads.compactMap { $0 }, atSchemaVersion: version)
        } catch {
            throw GraphQLFailure(error, at: nil, stage: .execution)
        }
        guard case .completed(var answers) = outcome else { return nil }
        var sections: [String] = []
        for (field, read) in zip(plan.fields, reads) {
            let heading = field.key == field.field.name ? field.key : "\(field.key): \(field.field.name)"
            guard read != nil else {
                if case .asset = field.step {
                    sections.append(heading + "\n  one lookup of the asset by its sha256\n")
                } else if case .changes = field.step {
                    sections.append(heading + "\n  one range of the change log by sequence number, then each record by its recordName\n")
                } else {
                    sections.append(heading + "\n  answered from the schema, without SQL\n")
                }
                continue
            }
            let answer = answers.removeFirst()
            guard case .success(.explanation(let explanation)) = answer else {
                if case .failure(let error) = answer {
                    throw GraphQLFailure(error, at: field.node, path: [.key(field.key)], stage: .execution)
                }
                throw GraphQLFailure(.internalError, "the store answered an explain with another kind of result", stage: .execution)
            }
            let lines = explanation.plan.map { "    " + $0 }.joined(separator: "\n")
            sections.append(heading + "\n  " + explanation.sql + "\n  plan:\n" + lines + "\n")
        }
        return sections.joined(separator: "\n")
    }

    /// The GraphQL schema of the current record types, as SDL.
    public func schemaDefinitionLanguage() async throws(RecordError) -> String {
        let current = try await store.schema()
        return try schemas.context(for: current.schema, version: current.version).generated.sdl
    }
}

extension RecordError {
    /// The first error of a failed request, located in `document`.
    init(_ failure: GraphQLFailure, document: String) {
        let first = failure.errors.first ?? GraphQLResponseError(.internalError, "the request failed")
        let location = first.locations.first.map { location in
            let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
            let text = (1...lines.count).contains(location.line) ? String(lines[location.line - 1]) : ""
            return SourceLocation(line: location.line, column: location.column, lineText: text)
        }
        self.init(first.code, first.message, location: location, reason: first.reason, remedy: first.remedy)
    }
}
