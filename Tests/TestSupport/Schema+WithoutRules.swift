import RecordKit

extension Schema {
    /// This schema without its `NOT EMPTY` and `UNIQUE (…)` rules: for tests whose records share
    /// values on purpose (ties in sort order) or lack them.
    public var withoutRules: Schema {
        var schema = self
        for var type in recordTypes {
            type.uniqueConstraints = []
            type.fields = type.fields.map { field in
                var field = field
                field.isRequired = false
                return field
            }
            schema.upsert(type)
        }
        return schema
    }
}
