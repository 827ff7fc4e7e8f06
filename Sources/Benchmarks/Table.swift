import Glibc
import SystemAccess
import SystemPackage

/// One line of the results table: a figure, its baseline measured in the same run, and where it
/// stands against the target.
struct Row {
    var figure: String
    var median: String
    var spread: String = ""
    var baseline: String = ""
    var ratio: String = ""
    var target: String = ""
    var status: String = ""
}

/// The table printed by `photokiosk-bench run` (plain text) and written for BENCHMARKS.md.
struct Table {
    private(set) var sections: [(title: String, rows: [Row])] = []

    mutating func section(_ title: String) { sections.append((title, [])) }

    mutating func add(_ row: Row) {
        if sections.isEmpty { section("") }
        sections[sections.count - 1].rows.append(row)
        say("  " + [row.figure, row.median, row.spread, row.baseline, row.ratio, row.status]
            .filter { !$0.isEmpty }.joined(separator: " | "))
    }

    static let headers = ["figure", "median", "spread (p10–p90)", "baseline (same run)", "ratio", "target", "status"]

    private static func cells(_ row: Row) -> [String] {
        [row.figure, row.median, row.spread, row.baseline, row.ratio, row.target, row.status]
    }

    var plainText: String {
        var widths = Self.headers.map(\.count)
        for (_, rows) in sections {
            for row in rows { for (i, c) in Self.cells(row).enumerated() { widths[i] = max(widths[i], c.count) } }
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { padded($0, $1) }.joined(separator: "  ")
        }
        var out = line(Self.headers) + "\n"
        for (title, rows) in sections {
            out += "\n" + title + "\n"
            for row in rows { out += line(Self.cells(row)) + "\n" }
        }
        return out
    }

    var markdown: String {
        var out = ""
        for (title, rows) in sections {
            out += "\n**\(title)**\n\n| " + Self.headers.joined(separator: " | ") + " |\n|"
            out += String(repeating: "---|", count: Self.headers.count) + "\n"
            for row in rows {
                out += "| " + Self.cells(row).map { $0.replacingPipes() }.joined(separator: " | ") + " |\n"
            }
        }
        return out
    }
}

extension String {
    func replacingPipes() -> String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}

/// "met" / "missed" against an upper bound.
func verdict(_ value: Double, atMost limit: Double) -> String {
    guard value.isFinite else { return "—" }
    return value <= limit ? "met" : "missed"
}

/// Prints a line and flushes at once, so `make bench` shows progress through a pipe.
func say(_ text: String) {
    print(text)
    fflush(nil)
}

/// A line on stderr (a failure the figures will miss), after whatever stdout holds so far.
func sayError(_ text: String) {
    fflush(nil)
    try? FileDescriptor.standardError.writeAll(Array((text + "\n").utf8))
}
