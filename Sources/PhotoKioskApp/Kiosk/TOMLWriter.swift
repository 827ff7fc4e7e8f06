/// Writes a parsed table back as TOML text the kiosk's parser reads: the settings file is TOML
/// like config.toml, so a person can read it, and it is parsed (with line numbers) by the same code.
/// Top-level values first, then one `[table]` per table; arrays of tables are written inline.
enum TOMLWriter {
    static func text(of table: TOMLTable, comment: String) -> String {
        var out = comment.split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 }.joined(separator: "\n") + "\n"
        for entry in table.entries {
            if case .table = entry.value.kind { continue }
            out += "\(bareOrQuoted(entry.key)) = \(inline(entry.value))\n"
        }
        for entry in table.entries {
            guard case .table(let inner) = entry.value.kind else { continue }
            out += "\n[\(bareOrQuoted(entry.key))]\n"
            for e in inner.entries { out += "\(bareOrQuoted(e.key)) = \(inline(e.value))\n" }
        }
        return out
    }

    static func inline(_ value: TOMLValue) -> String {
        switch value.kind {
        case .string(let s): JSONValue.quoted(s)   // TOML basic strings escape as JSON does
        case .integer(let i): String(i)
        case .float(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) + ".0" : "\(d)"
        case .boolean(let b): b ? "true" : "false"
        case .array(let items): "[" + items.map(inline).joined(separator: ", ") + "]"
        case .table(let t): "{" + t.entries.map { "\(bareOrQuoted($0.key)) = \(inline($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    private static func bareOrQuoted(_ key: String) -> String {
        let bare = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return bare ? key : JSONValue.quoted(key)
    }
}
