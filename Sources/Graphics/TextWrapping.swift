extension Font {
    /// `text` broken into lines no wider than `maxWidth`: at spaces, and inside a word (a long
    /// path) after a "/" or, failing that, anywhere, so nothing is ever cut off at the edge.
    public func wrapped(_ text: String, toFit maxWidth: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if width(of: candidate) <= maxWidth {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            var rest = word
            while width(of: rest) > maxWidth {
                let (head, tail) = split(rest, toFit: maxWidth)
                lines.append(head)
                rest = tail
            }
            line = rest
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The longest start of `word` that fits, preferring one that ends just after a "/".
    private func split(_ word: String, toFit maxWidth: Double) -> (String, String) {
        var fitting = word.startIndex, lastSlash: String.Index?
        var used = 0.0
        var index = word.startIndex
        while index < word.endIndex {
            let advance = width(of: String(word[index]))
            if used + advance > maxWidth { break }
            used += advance
            if word[index] == "/" && index > word.startIndex { lastSlash = word.index(after: index) }
            index = word.index(after: index)
            fitting = index
        }
        // At least one character per line, even in an absurdly narrow column.
        if fitting == word.startIndex { fitting = word.index(after: word.startIndex) }
        let cut = lastSlash.map { $0 < fitting ? $0 : fitting } ?? fitting
        return (String(word[..<cut]), String(word[cut...]))
    }
}
