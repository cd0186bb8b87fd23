extension BidirectionalCollection<String> {
    /// The texts as a message offers them: `A`, `A or B`, `A, B or C`.
    var listedAsAlternatives: String { listed(joinedBy: "or") }

    /// The texts as a message lists them, the last joined by `conjunction`: `A, B and C`.
    func listed(joinedBy conjunction: String) -> String {
        guard let last, count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
