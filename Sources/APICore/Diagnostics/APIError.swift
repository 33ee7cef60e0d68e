/// Every failure the core reports; the executable maps each case to a documented exit code.
public enum APIError: Error, Sendable, Equatable {
    /// Bad target files, unknown targets, unresolved placeholders or variables (exit 2).
    case invalidInput([Diagnostic])
    /// The request did not get a (whole) response: refused, DNS, TLS, reset, … (exit 3).
    case network(NetworkFailure)
    /// No response within the timeout, in seconds (exit 4).
    case timedOut(Double)
    /// A local file could not be written (exit 5).
    case output(String)
    /// A target this one `needs:` was not accepted, a capture found nothing, or no OAuth2 token could
    /// be had (exit 1). The message says which in its own words (`needs: …`, `the oauth2 token …`).
    case dependency(String)
    /// `until:`'s `failIf:` held: polling stopped on a terminal failure (exit 1).
    case stopped(String)

    public static func invalid(_ d: Diagnostic) -> APIError { .invalidInput([d]) }
}
