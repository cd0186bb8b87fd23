import RecordKit

/// One command's look-ups and write through a server (``RemoteBackend/asOneUnit(_:)``), run
/// first on the records the session remembers (``SeenRecords``) and, when that fails, once more
/// on fresh look-ups.
struct OptimisticUnit {
    /// Whether look-ups may be answered from the remembered records (the first run).
    let mayUseSeen: Bool
    /// The remembered records the run has used: its write is sent with their change tags as a
    /// precondition.
    var assumed: [Record] = []
    /// Whether the run relied on a name being free (no list of the name, no item of the name in
    /// its list) because the remembered records do not hold it: its write then makes a record of
    /// that name, which the schema's `UNIQUE` rule refuses if the name was taken.
    var assumedFreeName = false
    /// Set once the write is sent, and cleared only when the server refuses it: a run that fails
    /// after a write that was applied, or whose answer never came (the connection retried it
    /// with its transaction ID already), is not run again.
    var writeMayHaveApplied = false

    /// Set when a request of the run got no answer: the failure is the connection's (or the
    /// user's Ctrl-C), which running again would only repeat (or ignore).
    var unanswered = false

    /// Whether a run that failed may be run again on fresh look-ups: it used remembered records,
    /// every request of it was answered, and no write of it may have been applied.
    var mayRunAgain: Bool {
        mayUseSeen && (!assumed.isEmpty || assumedFreeName) && !writeMayHaveApplied && !unanswered
    }
}
