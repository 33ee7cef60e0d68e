/// What apicli knows of HTTP methods, for the target decoder and the request builder alike.
public enum HTTPMethods {
    /// Methods whose `encoding: url` parameters go in the query (Moya's methodDependent).
    public static let query: Set<String> = ["GET", "HEAD", "DELETE"]

    /// Methods that cannot carry an upload or a multipart body (Moya traps on them; here it is a
    /// target-file error).
    public static let bodyless: Set<String> = ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT"]
}
