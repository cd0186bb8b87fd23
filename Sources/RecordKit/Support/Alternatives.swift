extension BidirectionalCollection<String> {
    /// The texts as a message offers them: `A`, `A or B`, `A, B or C`.
    var listedAsAlternatives: String {
        guard let last, count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " or " + last
    }
}
