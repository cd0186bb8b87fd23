/// The page `help graphql` prints: the query language in brief.
enum GraphQLHelp {
    static let topic = "graphql"

    static let page = """
        GraphQL at the shop> prompt: a line starting with {, query or mutation is a
        GraphQL document; it may span lines until its braces balance. The schema is
        generated from the record types (schema graphql prints it) and follows them
        as they evolve. Results print as tables, or as one line of JSON with --json.

        QUERIES  For each record type T (Lists, Items, ...):
          T(where:, predicate:, sort:, limit:)        a list of records
          TPage(where:, predicate:, sort:, limit:, after:) { records { ... } cursor }
          Fields: recordName recordType createdAt modifiedAt changeTag, then the
          schema's fields. A REFERENCE field gives the record it points at
          (list { name }); the type it points at gets the records pointing back
          (Lists { Items { name } }), with the same arguments.

        FILTERS  where: {name: {eq: "Milk"}, number: {gte: 2}}  (keys are ANDed)
          eq ne lt lte gt gte in beginsWith contains isNull, caseInsensitive: true;
          AND: [...], OR: [...], NOT: {...}. A reference compares recordNames.

        PREDICATE  predicate: "name BEGINSWITH[c] 'm' AND number >= 2"
          CloudKit's NSPredicate format: == != < <= > >= BEGINSWITH CONTAINS
          IN {...} BETWEEN {a, b} AND OR NOT ( ), [c] ignores case, NIL,
          self CONTAINS 'word' searches SEARCHABLE fields,
          distanceToLocation:fromLocation:(field, lat, lon) < km.

        SORT     sort: [{number: DESC}, {name: ASC}]; ties go by recordName.

        PAGES    ItemsPage(limit: 20) { records { name } cursor } gives a cursor
          (null on the last page); pass it as after: to get the next page.

        MUTATIONS  createT(recordName:, fields:), updateT(recordName:, ifChangeTag:,
          fields:), deleteT(recordName:) { deleted } (every record removed, the
          cascade included); createManyT(records:), updateManyT(records:) and
          deleteManyT(recordNames:) take a batch in one argument. A reference is
          {recordName: "L1", action: DELETE_SELF}.
          All fields of one mutation run in one transaction, all or nothing.
          mutation @transaction(id: "order-42") { ... } runs once: a retry with the
          same ID returns the stored result (see: transactions).

        LIVE     subscription { Items(where: {list: {eq: "L1"}}) { name } } has the
          query fields (one of them) and answers again after each commit that
          changes the result; watch { ... } prints it so until Ctrl-C.

        VALUES   INT64 is a JSON number, TIMESTAMP ISO-8601 text, BYTES base64,
          LOCATION {latitude, longitude, altitude, …}, ASSET {size, sha256}.

        EXAMPLES
          { Lists(sort: [{name: ASC}]) { name Items { name number } } }
          { Items(predicate: "number >= 2", sort: [{number: DESC}]) { name number } }
          { ItemsPage(limit: 2) { records { name } cursor } }
          mutation { createLists(recordName: "L2", fields: {name: "Party"}) { name } }
          mutation { updateItems(recordName: "I1", fields: {number: 3}) { number } }
          explain { Items(where: {name: {beginsWith: "M"}}) { name } }
        """
}
