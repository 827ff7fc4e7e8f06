extension KioskConfig {
    /// Allowed ranges, shared by the file parser and the command-line merge so both refuse the
    /// same values with the same words.
    public func firstProblem() -> (key: String, message: String)? { problems().first }

    /// Every value the schema's checks refuse (a range, or a rule between two options), in the
    /// order of `KioskConfig.schema`.
    public func problems() -> [(key: String, message: String)] {
        Self.schema.compactMap { option in option.check?(self).map { (option.key, $0) } }
    }

    /// Empty strings and "auto" mean "choose for me".
    mutating func normalize() {
        if display.connector == "" || display.connector == "auto" { display.connector = nil }
        if cache.directory == "" { cache.directory = nil }
        if remote.uploadFolder == "" { remote.uploadFolder = nil }
        mqtt.normalize()
        if presence.chip == "" { presence.chip = nil }
        if cec.device == "" { cec.device = nil }
        syncthing.normalize()
    }
}
