import Foundation

/// The default transport: `file://` URLs are read from disk, `http://` and `https://` go through URLSession.
struct SchemeModelTransport: ModelTransport {
    /// The transport for `file://`.
    let file: any ModelTransport
    /// The transport for `http(s)://`.
    let network: any ModelTransport

    /// Creates the default transport.
    init(file: any ModelTransport = FileModelTransport(), network: any ModelTransport = URLSessionModelTransport()) {
        self.file = file
        self.network = network
    }

    func fetch(_ url: URL, limit: Int) async throws -> Data {
        try await transport(for: url).fetch(url, limit: limit)
    }

    func download(_ url: URL, from offset: Int64, into destination: PartialModelFile) async throws {
        try await transport(for: url).download(url, from: offset, into: destination)
    }

    private func transport(for url: URL) throws -> any ModelTransport {
        switch url.scheme?.lowercased() {
        case "file": return file
        case "http", "https": return network
        default:
            throw SleepCycleSdkError.resourceDownloadFailed(
                "\(url.absoluteString) is not an http(s):// or file:// URL")
        }
    }
}
