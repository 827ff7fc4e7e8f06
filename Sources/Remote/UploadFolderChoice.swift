import RemoteServer

/// Where uploads go when `[remote] upload_folder` is not set (issue 30 item 5): the first photo
/// folder that can be written; when none can (photos on a read-only USB stick), the folder
/// `uploads` in the state directory, made if missing, which then joins the library's folders so
/// an upload shows like any photo. The status and every upload answer name the folder.
public enum UploadFolderChoice {
    public struct Choice: Equatable, Sendable {
        /// The upload folder (nil: none configured and no folder at all).
        public var uploadFolder: String?
        /// The library's folders, with the fallback appended when it is used.
        public var folders: [String]
    }

    public static func choose(configured: String?, folders: [String], stateDirectory: String,
                              isWritable: (String) -> Bool = { UploadFolder(path: $0).unwritableReason() == nil },
                              make: (String) -> Bool = { UploadFolder(path: $0).makeIfMissing() }) -> Choice {
        if let configured { return Choice(uploadFolder: configured, folders: folders) }
        if let writable = folders.first(where: isWritable) { return Choice(uploadFolder: writable, folders: folders) }
        let fallback = (stateDirectory.hasSuffix("/") ? String(stateDirectory.dropLast()) : stateDirectory) + "/uploads"
        guard make(fallback), isWritable(fallback) else {
            // Nowhere to write: the first folder, whose status says why uploads are refused.
            return Choice(uploadFolder: folders.first, folders: folders)
        }
        return Choice(uploadFolder: fallback, folders: folders.contains(fallback) ? folders : folders + [fallback])
    }
}
