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
    /// `-d` and friends, in order; curl joins them with `&`.
    var data: [String] = []
    /// `--data-binary @file` / `-d @file`: the body is that file.
    var dataFile: String?
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
    var head = false
    var uploadFile: String?
}
