/// What apicli knows of HTTP methods, for the target decoder and the request builder alike.
package enum HTTPMethods {
    /// Methods whose `encoding: url` parameters go in the query (Moya's methodDependent).
    package static let query: Set<String> = ["GET", "HEAD", "DELETE"]

    /// Methods that cannot carry an upload or a multipart body (Moya traps on them; here it is a
    /// target-file error).
    package static let bodyless: Set<String> = ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// RFC 9110's methods and PATCH (RFC 5789): what a typo is measured against.
    package static let standard = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// Registered methods in use beyond those (WebDAV RFC 4918/3253/3648/5323, caching proxies, RFC 9110's
    /// QUERY draft): `method: PURGE` is taken as written, with no warning.
    package static let known: Set<String> = [
        "PURGE", "BAN", "QUERY", "LINK", "UNLINK",
        "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "SEARCH",
        "REPORT", "MKACTIVITY", "CHECKOUT", "CHECKIN", "UNCHECKOUT", "MERGE", "MKWORKSPACE", "UPDATE",
        "LABEL", "BASELINE-CONTROL", "VERSION-CONTROL", "ORDERPATCH", "ACL", "BIND", "UNBIND", "REBIND",
        "MKCALENDAR", "MKREDIRECTREF", "UPDATEREDIRECTREF",
    ]
}
