import GraphQL
import OrderedCollections

/// A JSON value decoded into GraphQLSwift's ``Map`` as its own `Decodable` conformance decodes
/// it (every number a double, an object's members in the order the decoder lists them), but
/// reading each value once.
///
/// `Map.init(from:)` reads an object twice, once as a whole and once member by member, at
/// every level, so a value nested `n` objects deep is read 2ⁿ times, and it tries the other
/// kinds of value first, each a thrown error: the `variables` of a mutation creating 500
/// records took longer to decode than to write. This tries the scalar kinds first, strings
/// before the rest, so a string (the commonest value) is read without a single error.
struct DecodedMap: Decodable {
    let map: Map

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            map = .null
        } else if let string = try? single.decode(String.self) {
            map = .string(string)
        } else if let bool = try? single.decode(Bool.self) {
            map = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            map = .number(Number(number))
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            var members = OrderedDictionary<String, Map>()
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(DecodedMap.self, forKey: key).map
            }
            map = .dictionary(members)
        } else {
            var array = try decoder.unkeyedContainer()
            var elements: [Map] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd {
                elements.append(try array.decode(DecodedMap.self).map)
            }
            map = .array(elements)
        }
    }
}
