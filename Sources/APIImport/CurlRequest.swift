import APITargets
/// What a curl command line asks for, before it is mapped onto a target.
struct CurlRequest {
    struct FormPart {
        var name: String
        var value: String
        var file: String?
        var filename: String?
        var type: String?
    }

    var method: String?
    var url: String?
    var headers: [(name: String, value: String)] = []
    /// One `-d`/`--data*`/`--data-urlencode`/`--json` value; curl joins them with `&`.
    enum Data {
        /// Text sent as it is (already encoded for `--data-urlencode name=value`).
        case text(String)
        /// `-d @file` (CR and LF left out, `binary: false`) or `--data-binary @file` (as it is); an absolute path.
        case file(String, binary: Bool)
        /// `--data-urlencode [name]@file`: the file's bytes percent-encoded, after `name=`.
        case encodedFile(name: String, path: String)
    }

    /// `-d` and friends, in order.
    var data: [Data] = []
    /// Indices in `data` of `--json` pieces: curl joins them to what comes before with nothing.
    var jsonPieces: Set<Int> = []
    /// `--url-query` pieces, appended to the URL's query with `&`.
    var urlQuery: [Data] = []
    /// `--digest`: `-u` is a Digest user, not Basic.
    var digest = false
    /// `-T`'s argument as written: curl appends its file name to a URL without one.
    var uploadName: String?
    /// `--json`: JSON body, JSON content type and accept.
    var json = false
    var form: [FormPart] = []
    var user: String?
    var bearer: String?
    var cacert: String?
    var insecure = false
    var maxTime: String?
    /// `-G`: the data goes into the query.
    var get = false
    /// `-g`: `{}` and `[]` in the URL are not glob patterns.
    var globoff = false
    var head = false
    var uploadFile: String?
}
