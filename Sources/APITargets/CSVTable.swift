import APIYAML
import APIDiagnostics

/// An RFC 4180 CSV reader that knows where each record starts: fields split at `,`, records at
/// LF, CR LF or CR; a field in double quotes may hold commas, line breaks and doubled quotes
/// (`""` is one `"`). Spaces are data. A blank line is no record. A UTF-8 byte order mark is
/// dropped. A quoted field that never closes, or text after a closing quote, is an error at its
/// line and column.
///
/// (Not SwiftCSV 0.10.0: it reports no line, pads a short row with empty fields and cuts a long
/// one, drops an empty last field at the end of the file, accepts a quote that never closes,
/// drops the leading spaces of a field, and imports Foundation, which links ICU into apicli: see
/// CHANGELOG, issue 39.)
package enum CSVTable {
    package struct Record: Sendable, Equatable {
        package var fields: [String]
        /// Where the record starts (1-based).
        package var line: Int
    }

    package struct Problem: Error, Sendable, Equatable {
        package var message: String
        package var mark: Mark
    }

    /// The records of `bytes` (UTF-8) in order; `limit`: stop after this many (the caller refuses
    /// the file when there were more: `more` is set to the line of the first one not read).
    package static func records(_ bytes: [UInt8], limit: Int = .max, more: inout Int?) throws(Problem) -> [Record] {
        var records: [Record] = []
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let n = bytes.count
        var line = 1
        var lineStart = i
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        func column(_ at: Int) -> Int {  // code points, as marks count them
            bytes[lineStart..<at].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }
        // One record a pass.
        while i < n {
            let start = line
            var fields: [String] = []
            var quotedAny = false
            while true {
                var field: [UInt8] = []
                if i < n, bytes[i] == quote {
                    quotedAny = true
                    let open = Mark(line: line, column: column(i))
                    i += 1
                    while true {
                        guard i < n else {
                            throw Problem(message: "a quoted field (opened at \(open.line):\(open.column)) is never closed",
                                          mark: open)
                        }
                        let b = bytes[i]
                        if b == quote {
                            if i + 1 < n, bytes[i + 1] == quote {
                                field.append(quote)
                                i += 2
                                continue
                            }
                            i += 1
                            break
                        }
                        if b == lf || b == cr {  // a line break inside quotes: part of the field
                            if b == cr, i + 1 < n, bytes[i + 1] == lf { field.append(cr); i += 1 }
                            field.append(bytes[i])
                            i += 1
                            line += 1
                            lineStart = i
                            continue
                        }
                        field.append(b)
                        i += 1
                    }
                    if i < n, bytes[i] != comma, bytes[i] != lf, bytes[i] != cr {
                        throw Problem(message: "text after the closing quote of a field",
                                      mark: Mark(line: line, column: column(i)))
                    }
                } else {
                    while i < n, bytes[i] != comma, bytes[i] != lf, bytes[i] != cr {
                        field.append(bytes[i])
                        i += 1
                    }
                }
                fields.append(String(decoding: field, as: UTF8.self))
                if i < n, bytes[i] == comma {
                    i += 1
                    continue
                }
                break
            }
            // At a line break or the end.
            if i < n {
                i += bytes[i] == cr && i + 1 < n && bytes[i + 1] == lf ? 2 : 1
                line += 1
                lineStart = i
            }
            if fields.count == 1, fields[0].isEmpty, !quotedAny { continue }  // a blank line
            if records.count == limit {
                more = start
                break
            }
            records.append(Record(fields: fields, line: start))
        }
        return records
    }
}
