import APISupport
import APIDiagnostics
import APITransport

/// `--cookie FILE` and `--cookie-jar FILE`: the run's jar filled from the file when the workspace
/// is made, and with `--cookie-jar` written back when the command ends (whatever its outcome).
enum CookieFiles {
    private static let jar = Locked<String?>(nil)

    static func open(cookie: String?, jar path: String?) throws(APIError) {
        if let cookie { try CookieJarFile.read(cookie, into: .run, missingIsEmpty: false) }
        guard let path else { return }
        try CookieJarFile.read(path, into: .run, missingIsEmpty: true)
        jar.withLock { $0 = path }
    }

    /// Writes the jar if one was asked for; the error, if writing failed.
    static func save() -> APIError? {
        guard let path = jar.withLock({ $0 }) else { return nil }
        do throws(APIError) { try CookieJarFile.write(.run, to: path) } catch { return error }
        return nil
    }
}
