@testable import PhotoKioskApp
import Testing

@Suite struct KioskTOMLParserTests {
    func value(_ text: String, _ key: String = "v") throws -> TOMLValue {
        try #require(try TOMLParser.parse(text)[key])
    }

    func string(_ text: String) throws -> String? {
        if case .string(let s) = try value(text).kind { return s }
        return nil
    }

    func integer(_ text: String) throws -> Int64? {
        if case .integer(let i) = try value(text).kind { return i }
        return nil
    }

    func float(_ text: String) throws -> Double? {
        if case .float(let d) = try value(text).kind { return d }
        return nil
    }

    @Test func strings() throws {
        #expect(try string(#"v = "a\"b\\c\n\t\u00e9\U0001F600""#) == "a\"b\\c\n\té😀")
        #expect(try string(#"v = 'C:\no\escapes'"#) == #"C:\no\escapes"#)
        #expect(try string(##"v = "# not a comment" # a comment"##) == "# not a comment")
        #expect(try TOMLParser.parse(#""quoted key" = "x""#)["quoted key"] != nil)
    }

    @Test func numbers() throws {
        #expect(try integer("v = 1_000") == 1000)
        #expect(try integer("v = -42") == -42)
        #expect(try integer("v = +7") == 7)
        #expect(try integer("v = 0xff") == 255)
        #expect(try integer("v = 0") == 0)
        #expect(try float("v = 1.5") == 1.5)
        #expect(try float("v = -2e3") == -2000)
        #expect(try float("v = inf") == .infinity)
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("v = 1__0") }
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("v = .5") }
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("v = 5.") }
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("v = +0x10") }
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("v = 1e") }
    }

    @Test func arraysSpanLinesWithCommentsAndTrailingCommas() throws {
        let v = try value("""
            v = [  # first
              "a",
              # between
              "b",
            ]
            w = 1
            """)
        guard case .array(let items) = v.kind else { Issue.record("not an array"); return }
        #expect(items.count == 2)
        #expect(items.map(\.line) == [2, 4])
        #expect(v.line == 1)
        #expect(try TOMLParser.parse("v = []\nw = 1")["w"]?.line == 2)
    }

    @Test func tablesArraysOfTablesAndLines() throws {
        let root = try TOMLParser.parse("""
            top = 1

            [a]
            x = 1
            [[a.list]]
            y = 2
            [[a.list]]
            y = 3
            [b.c]
            z = true
            """)
        guard case .table(let a)? = root["a"]?.kind, case .array(let list)? = a["list"]?.kind else {
            Issue.record("structure")
            return
        }
        #expect(root["a"]?.line == 3)
        #expect(a["x"]?.line == 4)
        #expect(list.map(\.line) == [5, 7])
        if case .table(let second) = list[1].kind { #expect(second["y"]?.line == 8) }
        guard case .table(let b)? = root["b"]?.kind, case .table(let c)? = b["c"]?.kind else {
            Issue.record("implicit table")
            return
        }
        #expect(c["z"]?.line == 10)
        #expect(root.entries.map(\.key) == ["top", "a", "b"])
    }

    @Test func syntaxErrorPositions() {
        do {
            _ = try TOMLParser.parse("a = 1\nxy   \n")
            Issue.record("accepted a key without a value")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 6)
            #expect(error.message.contains("'='"))
        }
        do {
            _ = try TOMLParser.parse("a = 1\nb = [1, 2\nc = 3")
            Issue.record("accepted an unclosed array")
        } catch {
            #expect(error.line == 3)
        }
        do {
            _ = try TOMLParser.parse("a = 1\r\nb = \"x\r\nc = 3")
            Issue.record("accepted an unclosed string")
        } catch {
            #expect(error.line == 2)
        }
    }

    @Test func windowsLineEndingsAreAccepted() throws {
        let root = try TOMLParser.parse("a = 1\r\n[t]\r\nb = 2\r\n")
        guard case .table(let t)? = root["t"]?.kind else { Issue.record("no table"); return }
        #expect(t["b"]?.line == 3)
    }

    @Test func redefinitionsAreRefused() {
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("a = 1\n[a]") }
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("a = 1\n[[a]]") }
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("[a]\n[[a]]") }
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse("a = {x = 1}\n[a]") }
        #expect(throws: Never.self) { try TOMLParser.parse("[a.b]\n[a]\nx = 1") }
    }

    @Test func byteOrderMarkIsSkippedAndColumnsStayRight() throws {
        let root = try TOMLParser.parse("\u{FEFF}a = 1\nb = 2")
        #expect(root["a"]?.line == 1)
        #expect(root["b"]?.line == 2)
        do {
            _ = try TOMLParser.parse("\u{FEFF}a = yes")
            Issue.record("accepted a bare word")
        } catch {
            #expect(error.column == 5)
        }
    }
}
