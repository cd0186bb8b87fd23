/// Closes the private databases left idle longer than the registry's ``DatabaseRegistry/idleTime``,
/// checking every tenth of it (at least a second apart), so an idle server holds no user's file
/// open for long.
struct IdleDatabaseClosing: Chore {
    let databases: DatabaseRegistry

    var interval: Duration { max(databases.idleTime / 10, .seconds(1)) }

    func round() async {
        databases.closeIdle()
    }
}
