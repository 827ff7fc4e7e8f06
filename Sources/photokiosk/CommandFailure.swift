/// A command that could not do its work for a reason other than how it was called (no photos,
/// a port taken, a folder missing). ArgumentParser prints it as "Error: …" without the usage
/// text, which it adds only to `ValidationError`s: usage after such an error misleads.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
