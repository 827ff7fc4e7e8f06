import Glibc
import Graphics
import Imaging
import PhotoKioskApp
@testable import Remote
import RemoteServer
import Testing
import TestSupport

/// docs/remote-api.json (OpenAPI 3) kept true: every operation it lists is served, every other
/// method on its paths is a 405 and other paths are 404s; the answers' JSON has the shapes its
/// schemas say (the schemathesis stage of `make test` then checks them with generated requests).
@Suite(.serialized) struct RemoteOpenAPITests {
    static let specPath = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")).withLeadingSlash + "/docs/remote-api.json"

    func spec() throws -> JSONTestValue {
        let bytes = try #require(readFile(RawPath(Self.specPath)), "\(Self.specPath)")
        return try #require(JSONTestValue.parse(bytes), "the spec is JSON")
    }

    /// (method, path template) of every operation in the spec.
    func operations(_ spec: JSONTestValue) throws -> [(String, String)] {
        guard case .object(let paths)? = spec["paths"] else { Issue.record("no paths"); return [] }
        return paths.flatMap { path, item -> [(String, String)] in
            guard case .object(let methods) = item else { return [] }
            return methods.keys.map { ($0.uppercased(), path) }
        }.sorted { $0.1 + $0.0 < $1.1 + $1.0 }
    }

    static func concrete(_ template: String) -> String { template.replacing("{name}", with: "x.jpg") }

    @Test func everyOperationInTheSpecIsServedAndNothingElse() throws {
        let spec = try spec()
        let listed = try operations(spec)
        #expect(listed.count == 17, "\(listed)")
        let f = try RemoteFixture()
        let methods = ["GET", "POST", "PUT", "DELETE", "PATCH"]
        for path in Set(listed.map(\.1)) {
            for method in methods {
                let inSpec = listed.contains { $0 == (method, path) }
                let type = path == "/login" ? "application/x-www-form-urlencoded" : path == "/api/photos" && method == "POST" ? MultipartBody.contentType.1 : "application/json"
                let reply = try #require(try f.request(method, Self.concrete(path), headers: [("Content-Type", type)]))
                if inSpec {
                    let unrouted = reply.status == 405 || reply.text.contains("no such page or API")
                    #expect(!unrouted, "\(method) \(path) is in the spec but answered \(reply.status): \(reply.text)")
                } else {
                    #expect(reply.status == 405, "\(method) \(path) is not in the spec but answered \(reply.status)")
                }
            }
        }
        for path in ["/api", "/api/", "/api/photo", "/api/statuses", "/api/screen.jpg", "/index.htm", "/favicon.ico", "/api/status/x"] {
            let reply = try #require(try f.request("GET", path))
            #expect(reply.status == 404 && reply.text.contains("no such page or API"), "\(path) is in no spec path but answered \(reply.status)")
        }
    }

    @Test func answersHaveTheShapesTheSpecSays() throws {
        let spec = try spec()
        let f = try RemoteFixture()
        func check(_ method: String, _ path: String, _ template: String, body: [UInt8] = [], headers: [(String, String)] = []) throws {
            let reply = try #require(try f.request(method, path, body: body, headers: headers))
            let response = try #require(spec["paths"]?[template]?[method.lowercased()]?["responses"]?["\(reply.status)"],
                                        "\(method) \(path) answered \(reply.status), which the spec does not list")
            let resolved = resolve(response, in: spec)
            guard let schema = resolved["content"]?["application/json"]?["schema"] else { return }
            let value = try #require(JSONTestValue.parse(reply.body), "\(method) \(path): JSON")
            let problems = validate(value, against: schema, in: spec, at: "$")
            #expect(problems.isEmpty, "\(method) \(path) \(reply.status): \(problems)")
        }
        try check("GET", "/api/status", "/api/status")
        try check("GET", "/api/photos?page=1&per_page=2", "/api/photos")
        try check("GET", "/api/photos?page=0", "/api/photos")
        try check("POST", "/api/next", "/api/next")
        try check("POST", "/api/slideshow", "/api/slideshow", body: Array(#"{"on": true}"#.utf8))
        try check("POST", "/api/next", "/api/next")
        try check("POST", "/api/pause", "/api/pause")
        try check("POST", "/api/resume", "/api/resume")
        try check("POST", "/api/previous", "/api/previous")
        try check("POST", "/api/screen", "/api/screen", body: Array(#"{"on": false}"#.utf8))
        try check("POST", "/api/screen", "/api/screen", body: Array("nonsense".utf8))
        try check("POST", "/api/slideshow", "/api/slideshow", body: Array(#"{"on": true}"#.utf8), headers: [("Origin", "http://evil.example")])
        var form = MultipartBody()
        form.addFile(name: Array("spec.jpg".utf8), data: f.photoBytes)
        form.addFile(name: Array("notes.jpg".utf8), data: Array("text".utf8))
        try check("POST", "/api/photos", "/api/photos", body: form.finished, headers: [MultipartBody.contentType])
        _ = try f.whileServing({ _ in () }, until: { f.app.photos.count == 4 })
        try check("GET", "/api/photos", "/api/photos")
        try check("DELETE", "/api/photos/spec.jpg", "/api/photos/{name}")
        try check("DELETE", "/api/photos/spec.jpg", "/api/photos/{name}")
        try check("DELETE", "/api/photos/a.txt", "/api/photos/{name}")
        let json = [("Content-Type", "application/json")]
        try check("GET", "/api/settings", "/api/settings")
        try check("PUT", "/api/settings", "/api/settings", body: Array(#"{"slideshow": {"interval": 20}, "kiosk": true}"#.utf8), headers: json)
        try check("PUT", "/api/settings", "/api/settings", body: Array(#"{"slideshow": {"interval": 0}}"#.utf8), headers: json)
        try check("PUT", "/api/settings", "/api/settings", body: Array(#"{"kiosk": true}"#.utf8), headers: json + [("Origin", "http://evil.example")])
        try check("DELETE", "/api/settings", "/api/settings", headers: json)
        let unauthorized = try #require(try f.request("GET", "/api/status", authorized: false))
        #expect(unauthorized.status == 401)
    }

    func resolve(_ value: JSONTestValue, in spec: JSONTestValue) -> JSONTestValue {
        guard let reference = value["$ref"]?.string, reference.hasPrefix("#/") else { return value }
        var node: JSONTestValue? = spec
        for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node.map { resolve($0, in: spec) } ?? .null
    }

    /// The OpenAPI 3.0 schema keywords the spec uses: type, nullable, enum, required,
    /// properties, additionalProperties: false, items, minimum, maximum.
    func validate(_ value: JSONTestValue, against raw: JSONTestValue, in spec: JSONTestValue, at where_: String) -> [String] {
        let schema = resolve(raw, in: spec)
        if value == .null { return schema["nullable"]?.bool == true || schema["type"] == nil ? [] : ["\(where_) is null"] }
        if let options = schema["enum"]?.array, !options.contains(value) { return ["\(where_) is not one of \(options)"] }
        var problems: [String] = []
        switch schema["type"]?.string {
        case "object":
            guard case .object(let members) = value else { return ["\(where_) is not an object"] }
            for name in schema["required"]?.array?.compactMap(\.string) ?? [] where members[name] == nil {
                problems.append("\(where_).\(name) is missing")
            }
            let properties: [String: JSONTestValue]
            if case .object(let p)? = schema["properties"] { properties = p } else { properties = [:] }
            for (name, member) in members {
                if let property = properties[name] {
                    problems += validate(member, against: property, in: spec, at: "\(where_).\(name)")
                } else if schema["additionalProperties"]?.bool == false {
                    problems.append("\(where_).\(name) is not in the schema")
                }
            }
        case "array":
            guard let items = value.array else { return ["\(where_) is not an array"] }
            if let itemSchema = schema["items"] {
                for (i, item) in items.enumerated() { problems += validate(item, against: itemSchema, in: spec, at: "\(where_)[\(i)]") }
            }
        case "integer", "number":
            guard case .number(let n) = value else { return ["\(where_) is not a number"] }
            if schema["type"]?.string == "integer", n != n.rounded() { problems.append("\(where_) is not an integer") }
            if case .number(let minimum)? = schema["minimum"], n < minimum { problems.append("\(where_) is below \(minimum)") }
            if case .number(let maximum)? = schema["maximum"], n > maximum { problems.append("\(where_) is above \(maximum)") }
        case "string":
            if value.string == nil { problems.append("\(where_) is not a string") }
        case "boolean":
            if value.bool == nil { problems.append("\(where_) is not a boolean") }
        default:
            break
        }
        return problems
    }
}

extension String {
    var withLeadingSlash: String { hasPrefix("/") ? self : "/" + self }
}
