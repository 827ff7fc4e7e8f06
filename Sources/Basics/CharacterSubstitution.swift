extension String {
    /// The text with each character that `substitutes` names written as its substitute, every
    /// other character as it is: the escapes of HTML ("<" as "&lt;") or of a URL query ("+" as "%2B").
    public func substituting(_ substitutes: [Character: String]) -> String {
        var out = ""
        for character in self {
            if let substitute = substitutes[character] { out += substitute } else { out.append(character) }
        }
        return out
    }
}
