import RecordKit
import RecordQL

extension ShoppingStore.ListSummary {
    /// The summaries in a JSON array of `{"name", <countKey>: {"count"}}` objects, as a list
    /// query with an item aggregate returns them.
    static func decode(_ json: String, countKey: String) throws(RecordError) -> [Self] {
        guard case .array(let lists)? = JSONValue(parsing: json) else {
            throw RecordError(.internalError, "the lists could not be read back from their JSON")
        }
        return lists.map { list in
            let name: String = if case .string(let name)? = list["name"] { name } else { "" }
            let items: Int = if case .number(let text)? = list[countKey]?["count"] { Int(text) ?? 0 } else { 0 }
            return Self(name: name, itemCount: items)
        }
    }
}
