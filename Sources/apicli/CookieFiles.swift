import APISupport
import APIDiagnostics
import APIEndpoint
import APITransport

/// `--cookie FILE` and `--cookie-jar FILE`: a workspace's jar filled from the file when the
/// workspace is made, and with `--cookie-jar` written back when the command ends (whatever its
/// outcome). The jar is the workspace's (`RunSettings.cookies`); what is kept here is only the
/// executable's list of files to write on its way out (`APICLI.leave`).
enum CookieFiles {
    private static let toWrite = Locked<[(jar: CookieJar, path: String)]>([])
    /// Set before anything is added to `toWrite`, so that a run with no `--cookie-jar` leaves
    /// without making `toWrite` (its generic types are made at run time). Set and read on the way
    /// in and out of the command, never at once.
    nonisolated(unsafe) private static var anyToWrite = false

    static func open(cookie: String?, jar path: String?, into jar: CookieJar) throws(APIError) {
        if let cookie { try CookieJarFile.read(cookie, into: jar, missingIsEmpty: false) }
        guard let path else { return }
        try CookieJarFile.read(path, into: jar, missingIsEmpty: true)
        anyToWrite = true
        toWrite.withLock { $0.append((jar, path)) }
    }

    /// Writes the jars asked for; the first error, if writing failed.
    static func save() -> APIError? {
        guard anyToWrite else { return nil }
        var problem: APIError?
        for (jar, path) in toWrite.withLock({ $0 }) {
            do throws(APIError) { try CookieJarFile.write(jar, to: path) } catch { problem = problem ?? error }
        }
        return problem
    }
}
