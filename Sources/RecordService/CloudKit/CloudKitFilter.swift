import RecordKit

/// `filterBy`: CloudKit's filter dictionaries (`comparator`, `fieldName`, `fieldValue`, and
/// `distance` for `NEAR`), ANDed, translated into the engine's typed ``Predicate`` — values are
/// typed by the field and bound by the engine, never spliced into text.
///
/// `fieldName` is a field of the record type or a system field (`___recordID`, whose values
/// are references, `___createTime`, `___modTime`). For full-text comparators it may also be
/// CloudKit's `allTokens`, meaning every SEARCHABLE field.
enum CloudKitFilter {
    /// CloudKit's comparators (`CloudKit.QueryFilterComparator`), every one of them.
    enum Comparator: String, CaseIterable {
        case equals = "EQUALS", notEquals = "NOT_EQUALS"
        case lessThan = "LESS_THAN", lessThanOrEquals = "LESS_THAN_OR_EQUALS"
        case greaterThan = "GREATER_THAN", greaterThanOrEquals = "GREATER_THAN_OR_EQUALS"
        case near = "NEAR"
        case containsAllTokens = "CONTAINS_ALL_TOKENS", containsAnyTokens = "CONTAINS_ANY_TOKENS"
        case `in` = "IN", notIn = "NOT_IN"
        case listContains = "LIST_CONTAINS", notListContains = "NOT_LIST_CONTAINS"
        case listContainsAny = "LIST_CONTAINS_ANY", notListContainsAny = "NOT_LIST_CONTAINS_ANY"
        case listContainsAll = "LIST_CONTAINS_ALL", notListContainsAll = "NOT_LIST_CONTAINS_ALL"
        case beginsWith = "BEGINS_WITH", notBeginsWith = "NOT_BEGINS_WITH"
        case listMemberBeginsWith = "LIST_MEMBER_BEGINS_WITH", notListMemberBeginsWith = "NOT_LIST_MEMBER_BEGINS_WITH"
    }

    /// The predicate of `filterBy` (an array of filter dictionaries) on `type`; with
    /// `numbersAsStrings`, a number's value may be a string of it.
    static func predicate(_ filterBy: JSONValue?, on type: RecordType, numbersAsStrings: Bool = false) throws(CloudKitError) -> Predicate {
        guard let filterBy else { return .all }
        guard case .array(let filters) = filterBy else {
            throw CloudKitError(.badRequest, "query.filterBy must be an array of filter dictionaries, not \(filterBy.kindName)")
        }
        var predicate = Predicate.all
        for (index, filter) in filters.enumerated() {
            predicate = predicate && (try self.filter(filter, on: type, where: "query.filterBy[\(index)]", numbersAsStrings: numbersAsStrings))
        }
        return predicate
    }

    private static func filter(_ filter: JSONValue, on type: RecordType, where path: String, numbersAsStrings: Bool) throws(CloudKitError) -> Predicate {
        guard case .string(let name)? = filter["comparator"] else {
            throw CloudKitError(.badRequest, "\(path) needs a comparator such as \"EQUALS\"")
        }
        guard let comparator = Comparator(rawValue: name) else {
            let known = Comparator.allCases.map(\.rawValue).joined(separator: ", ")
            throw CloudKitError(.badRequest, "\(path): \(name.debugDescription) is not a comparator; use one of \(known)")
        }
        guard case .string(let key)? = filter["fieldName"] ?? filter["systemFieldName"] else {
            throw CloudKitError(.badRequest, "\(path) needs a fieldName")
        }
        guard let fieldValue = filter["fieldValue"] else {
            throw CloudKitError(.badRequest, "\(path) needs a fieldValue such as {\"value\": …}")
        }
        let operand = Operand(key: key, fieldValue: fieldValue, recordType: type, path: path, numbersAsStrings: numbersAsStrings)
        return try operand.predicate(comparator, distance: filter["distance"])
    }

    /// One filter's field and value, typed by the record type.
    private struct Operand {
        var key: String
        var fieldValue: JSONValue
        var recordType: RecordType
        var path: String
        var numbersAsStrings: Bool

        /// The key as the engine names it and the type of its values.
        func resolved() throws(CloudKitError) -> (key: String, type: FieldType) {
            if let system = CloudKitSystemKey.resolve(key) { return system }
            guard let field = recordType.field(named: key), field.systemField == nil else {
                throw CloudKitError(.badRequest, "\(path): \(recordType.name) has no field \(key.debugDescription)", recordType: recordType.name)
            }
            return (key, field.type)
        }

        /// The filter's value as one value of `type`.
        func value(_ type: FieldType) throws(CloudKitError) -> Predicate.Literal {
            .value(try CloudKitFieldValue.decode(fieldValue, as: type, where: "\(path).fieldValue", numbersAsStrings: numbersAsStrings))
        }

        /// The filter's value as a list of `element` values (`IN`, `LIST_CONTAINS_ANY`, …).
        func values(_ element: FieldType) throws(CloudKitError) -> [Predicate.Literal] {
            guard
                case .list(let values) = try CloudKitFieldValue.decode(
                    fieldValue.untagged, as: .list(element), where: "\(path).fieldValue", numbersAsStrings: numbersAsStrings)
            else {
                return []
            }
            return values.map { .value($0) }
        }

        /// The filter's value as text (prefixes and tokens).
        func text() throws(CloudKitError) -> String {
            guard case .string(let text)? = fieldValue["value"] else {
                throw CloudKitError(.badRequest, "\(path).fieldValue must hold a string value")
            }
            return text
        }

        func listElement(_ type: FieldType, _ comparator: Comparator) throws(CloudKitError) -> FieldType {
            guard let element = type.elementType else {
                throw CloudKitError(
                    .badRequest, "\(path): \(comparator.rawValue) applies to LIST fields; \(recordType.name).\(key) is \(type)", recordType: recordType.name)
            }
            return element
        }

        func predicate(_ comparator: Comparator, distance: JSONValue?) throws(CloudKitError) -> Predicate {
            if comparator == .containsAllTokens || comparator == .containsAnyTokens {
                return try tokens(comparator)
            }
            let (key, type) = try resolved()
            let field = PredicateField(key)
            switch comparator {
            case .equals: return field == (try value(type))
            case .notEquals: return field != (try value(type))
            case .lessThan: return field < (try value(type))
            case .lessThanOrEquals: return field <= (try value(type))
            case .greaterThan: return field > (try value(type))
            case .greaterThanOrEquals: return field >= (try value(type))
            case .in: return field.isIn(try values(type))
            case .notIn: return !field.isIn(try values(type))
            case .beginsWith: return field.beginsWith(try text())
            case .notBeginsWith: return !field.beginsWith(try text())
            case .listMemberBeginsWith, .notListMemberBeginsWith:
                _ = try listElement(type, comparator)
                let test = field.beginsWith(try text())
                return comparator == .listMemberBeginsWith ? test : !test
            case .listContains, .notListContains:
                let test = field.contains(try value(try listElement(type, comparator)))
                return comparator == .listContains ? test : !test
            case .listContainsAny, .notListContainsAny, .listContainsAll, .notListContainsAll:
                let tests = try values(try listElement(type, comparator)).map { field.contains($0) }
                let any = comparator == .listContainsAny || comparator == .notListContainsAny
                let test: Predicate = any ? tests.reduce(Predicate.or([]), ||) : tests.reduce(Predicate.all, &&)
                return comparator == .listContainsAny || comparator == .listContainsAll ? test : !test
            case .near:
                guard type == .location else {
                    throw CloudKitError(
                        .badRequest, "\(path): NEAR applies to LOCATION fields; \(recordType.name).\(key) is \(type)", recordType: recordType.name)
                }
                guard case .location(let origin) = try CloudKitFieldValue.decode(fieldValue, as: .location, where: "\(path).fieldValue") else {
                    return .all
                }
                guard let metres = distance?.number, metres >= 0 else {
                    throw CloudKitError(.badRequest, "\(path): NEAR needs a distance, the radius in metres")
                }
                return field.within(kilometres: metres / 1000, of: origin)
            case .containsAllTokens, .containsAnyTokens:
                preconditionFailure("handled above")
            }
        }

        /// Full-text comparators: every token (`CONTAINS_ALL_TOKENS`) or any token
        /// (`CONTAINS_ANY_TOKENS`) of the value in the SEARCHABLE fields; a named field must
        /// itself contain the token.
        func tokens(_ comparator: Comparator) throws(CloudKitError) -> Predicate {
            let words = try text().split { !$0.isLetter && !$0.isNumber }.map(String.init)
            guard !words.isEmpty else {
                throw CloudKitError(.badRequest, "\(path): \(comparator.rawValue) needs at least one word to search for")
            }
            let wholeRecord = key == "allTokens" || key == "___allTokens"
            if !wholeRecord {
                guard let field = recordType.field(named: key), field.flags.contains(.searchable) else {
                    throw CloudKitError(
                        .badRequest, "\(path): \(recordType.name).\(key) is not a SEARCHABLE field; mark it SEARCHABLE or search allTokens",
                        recordType: recordType.name)
                }
            }
            let matches = words.map { word -> Predicate in
                let search = Predicate.textSearch(word)
                return wholeRecord ? search : search && PredicateField(key).contains(.string(word), caseInsensitive: true)
            }
            return comparator == .containsAllTokens ? matches.reduce(Predicate.all, &&) : matches.reduce(Predicate.or([]), ||)
        }
    }
}

private extension JSONValue {
    /// The field value dictionary without its type tag: `IN`'s list values are tagged with the
    /// list type (`"INT64_LIST"`) even on a scalar field, as MistKit sends them.
    var untagged: JSONValue {
        guard case .object(var members) = self else { return self }
        members["type"] = nil
        return .object(members)
    }
}
