import HTTPClient
import HTTPCore

extension TootClient {
    /// Uploads a file (`POST /api/v2/media`, multipart; `/api/v1/media` when v2 is missing) and, when the
    /// server is still processing it (202), checks `GET /api/v1/media/:id` until it answers 200, so the
    /// media can be attached at once (attaching unprocessed media is a 422).
    /// - Parameters:
    ///   - bytes: the file.
    ///   - filename: its name.
    ///   - mimeType: its type, such as `image/png`.
    ///   - description: the alt text.
    ///   - focus: the focal point `"x,y"` in −1…1.
    ///   - checkInterval: the wait between checks; 1 second by default.
    ///   - maximumChecks: checks before giving up; 60 by default.
    /// - Returns: the processed attachment.
    /// - Throws: ``TootClientError/mediaNotProcessed(mediaID:checks:)``, or another ``TootClientError``.
    public func uploadMedia(
        _ bytes: [UInt8], filename: String, mimeType: String, description: String? = nil, focus: String? = nil,
        checkInterval: Duration = .seconds(1), maximumChecks: Int = 60
    ) async throws -> MediaAttachment {
        var form = MultipartFormEncoder()
        form.addFile(name: "file", filename: filename, contentType: mimeType, bytes: bytes)
        if let description { form.addField(name: "description", value: description) }
        if let focus { form.addField(name: "focus", value: focus) }
        let upload: TootResponse<MediaAttachment>
        do {
            upload = try await fetch(TootRequest(method: .post, path: ["api", "v2", "media"], body: .multipart(form)))
        } catch TootClientError.notFound {
            upload = try await fetch(TootRequest(method: .post, path: ["api", "v1", "media"], body: .multipart(form)))
        }
        guard upload.status == 202 || upload.value.url == nil else { return upload.value }
        for _ in 0..<maximumChecks {
            try await pacer.clock.sleep(checkInterval)
            let check: TootResponse<MediaAttachment> = try await fetch(
                TootRequest(method: .get, path: ["api", "v1", "media", upload.value.id]))
            if check.status == 200 { return check.value }
        }
        throw TootClientError.mediaNotProcessed(mediaID: upload.value.id, checks: maximumChecks)
    }

    /// Changes an attachment's alt text before it is attached (`PUT /api/v1/media/:id`).
    /// - Parameters:
    ///   - id: the media ID.
    ///   - description: the alt text.
    /// - Returns: the attachment.
    /// - Throws: ``TootClientError``.
    public func updateMedia(id: String, description: String) async throws -> MediaAttachment {
        try await fetch(
            TootRequest(
                method: .put, path: ["api", "v1", "media", id],
                body: .json(.object([("description", .string(description))])))
        ).value
    }
}
