package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real WebDAV server of a test's own: a throwaway Apache 2.4 (`mod_dav` + `mod_dav_fs`, HTTP Basic
/// through `mod_auth_basic` and `mod_authn_file`) or nginx (its dav module, `auth_basic`), with its own
/// configuration, password file, logs and served folder in a ``TemporaryFolder``, listening on
/// 127.0.0.1 on a free port.
///
/// The server runs as the current user. As root (CI), Apache refuses to serve as root and nginx's workers
/// would write as root, so both then switch to `nobody` (its own group), and the served folder is given
/// to that user.
///
/// ```swift
/// try await withServer(try WebDAVServer(.nginx)) { dav in
///     var request = HTTPClientRequest(method: .put, url: dav.url("social.org"), body: bytes)
///     request.headers["Authorization"] = dav.authorization
///     …
/// }
/// ```
///
/// Starting and ``terminate()`` block the calling thread (they wait for the server); ``stop()`` does it
/// off the Swift pool.
package final class WebDAVServer: StoppableServer {
    /// Which server.
    package enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Apache 2.4 from Debian's `apache2`.
        case apache
        /// nginx from Debian's `nginx-full` (or any nginx built with `http_dav_module`).
        case nginx

        /// The server binary.
        package var executable: String {
            switch self {
            case .apache: "/usr/sbin/apache2"
            case .nginx: "/usr/sbin/nginx"
            }
        }

        /// The Debian package that provides it.
        package var debianPackage: String {
            switch self {
            case .apache: "apache2"
            case .nginx: "nginx-full"
            }
        }

        /// Whether the binary (and, for Apache, the dav modules) are installed.
        package var isInstalled: Bool {
            guard FileManager.default.isExecutableFile(atPath: executable) else { return false }
            let module = "\(WebDAVServer.apacheModules)/mod_dav_fs.so"
            return self != .apache || FileManager.default.fileExists(atPath: module)
        }

        package var description: String { rawValue }
    }

    /// Where Debian keeps Apache's modules.
    static let apacheModules = "/usr/lib/apache2/modules"

    /// Whether the tests of `kind` run: always under CI (`CI` set), where a missing server then fails the
    /// test that starts it; elsewhere only when it is installed, and when it is not, one line saying so is
    /// printed.
    ///
    /// - Parameters:
    ///   - kind: The server.
    ///   - suite: The suite's name, for the line.
    /// - Returns: Whether to run them.
    package static func testsRun(_ kind: Kind, suite: String) -> Bool {
        if kind.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil { return true }
        print(
            "\(suite): SKIPPED the \(kind) tests: \(kind.executable) is not installed "
                + "(scripts/setup --with-webdav installs \(kind.debianPackage)); CI runs them.")
        return false
    }

    /// The server.
    package let kind: Kind
    /// The port it listens on, on 127.0.0.1.
    package let port: Int
    /// The user name HTTP Basic accepts.
    package let user: String
    /// The password HTTP Basic accepts (random for each server).
    package let password: String
    /// The folder holding the configuration, the password file, the logs and the served folder.
    package let folder: TemporaryFolder
    /// The user the server writes files as, when started by root: `nobody`; `nil` otherwise.
    private let serverUser: (uid: uid_t, gid: gid_t)?
    private let process: Process

    /// The folder the server serves and writes: `<url>/<name>` is `<servedFolder>/<name>`.
    package var servedFolder: String { folder.path("dav") }

    /// `http://127.0.0.1:<port>/`.
    package var baseURL: URL { url("") }

    /// `http://127.0.0.1:<port>/<name>`.
    package func url(_ name: String) -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)/\(name)") else {
            preconditionFailure("Test bug: \(name) does not make a URL.")
        }
        return url
    }

    /// The `Authorization` header for ``user`` and ``password``.
    package var authorization: String { Self.basic(user: user, password: password) }

    /// The `Authorization` header of HTTP Basic for any user and password.
    package static func basic(user: String, password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// What the server wrote to its error log so far.
    package var errorLog: String { (try? folder.text("error.log")) ?? "" }

    /// A server failed to start.
    package struct StartFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Writes the configuration and starts the server; returns once it accepts connections.
    ///
    /// - Parameter kind: The server.
    /// - Throws: ``StartFailure`` with the server's own complaint when it is not installed or does not
    ///   start within 15 seconds (a port taken meanwhile is retried on another).
    package init(_ kind: Kind) throws {
        guard kind.isInstalled else {
            throw StartFailure(
                description: "\(kind.executable) is not installed: scripts/setup installs \(kind.debianPackage) "
                    + "under CI and with --with-webdav")
        }
        self.kind = kind
        let user = "writer"
        let password = UUID().uuidString
        self.user = user
        self.password = password
        let folder = try TemporaryFolder()
        self.folder = folder
        do {
            let owner = try Self.prepare(folder, kind: kind, user: user, password: password)
            serverUser = owner
            var lastFailure = StartFailure(description: "\(kind) did not start")
            for _ in 0..<5 {
                let port = try LoopbackListener.freePort()
                try Data(Self.configuration(kind, folder: folder, port: port, runsAs: owner).utf8)
                    .write(to: folder.url.appendingPathComponent("server.conf"))
                let process = try Self.launch(kind, folder: folder)
                switch Self.waitUntilListening(process, port: port, folder: folder) {
                case .success:
                    self.port = port
                    self.process = process
                    return
                case .failure(let failure):
                    lastFailure = failure
                    guard failure.description.contains("in use") else { throw failure }
                }
            }
            throw lastFailure
        } catch {
            folder.remove()
            throw error
        }
    }

    /// Writes a file of the served folder behind the server's back, as another writer would (atomically,
    /// owned by the server's user), and returns its path.
    ///
    /// - Parameters:
    ///   - name: The file's name in the served folder.
    ///   - bytes: The new content.
    /// - Returns: The file's path.
    /// - Throws: What writing the file throws.
    @discardableResult
    package func replaceFile(_ name: String, with bytes: [UInt8]) throws -> String {
        let path = "\(servedFolder)/\(name)"
        let temporary = "\(servedFolder)/.\(name).\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        if let serverUser { _ = chown(temporary, serverUser.uid, serverUser.gid) }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StartFailure(description: "cannot rename \(temporary) to \(path): \(reason)")
        }
        return path
    }

    /// The bytes of a file of the served folder, or `nil` when it does not exist.
    package func fileBytes(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: "\(servedFolder)/\(name)").map { Array($0) }
    }

    /// Stops the server (SIGTERM to every process of its configuration, then SIGKILL after a second),
    /// waits for it and deletes its folder.
    package func terminate() {
        // Apache's children (run as `nobody` under root) can outlive its parent: signal every process
        // started with this server's configuration, then wait for the one we launched.
        let configuration = folder.path("server.conf")
        let signalAll = { (signal: Int32) -> Bool in
            let pids = Self.processes(mentioning: configuration)
            for pid in pids { kill(pid, signal) }
            return !pids.isEmpty
        }
        if signalAll(SIGTERM) || process.isRunning {
            // A second for a graceful stop (Apache's workers may not finish it), then SIGKILL.
            let deadline = ContinuousClock.now + .seconds(1)
            while !Self.processes(mentioning: configuration).isEmpty, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            _ = signalAll(SIGKILL)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        folder.remove()
    }

    /// The live processes whose command line mentions `text` (from `/proc`), zombies left out.
    static func processes(mentioning text: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                String(decoding: command, as: UTF8.self).contains(text),
                let status = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                !status.contains(") Z ")
            else { return nil }
            return pid
        }
    }

    /// ``terminate()`` off the Swift pool.
    package func stop() async {
        _ = try? await offPool { self.terminate() }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    // MARK: - Set-up

    /// Writes the password file, makes the served and working folders, and gives them to `nobody` when
    /// run as root; returns that user then.
    private static func prepare(_ folder: TemporaryFolder, kind: Kind, user: String, password: String) throws
        -> (uid: uid_t, gid: gid_t)?
    {
        try folder.write(HtpasswdFile.line(user: user, password: password), to: "htpasswd")
        let writable = ["dav", "work"]
        for name in writable {
            try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
        }
        for (path, mode) in [(folder.path, 0o755), (folder.path("htpasswd"), 0o644)] {
            chmod(path, mode_t(mode))
        }
        guard getuid() == 0 else { return nil }
        guard let entry = getpwnam("nobody") else {
            throw StartFailure(description: "running as root, and there is no user nobody to run \(kind) as")
        }
        let owner = (uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
        for name in writable { chown(folder.path(name), owner.uid, owner.gid) }
        return owner
    }

    /// The server's configuration file.
    private static func configuration(
        _ kind: Kind, folder: TemporaryFolder, port: Int, runsAs owner: (uid: uid_t, gid: gid_t)?
    ) -> String {
        let root = folder.path
        switch kind {
        case .apache:
            let modules = [
                "mpm_event", "authz_core", "authz_user", "authn_core", "authn_file", "auth_basic", "dav", "dav_fs",
            ]
            let user = owner.map { "User #\($0.uid)\nGroup #\($0.gid)" } ?? ""
            return """
                ServerRoot "\(root)"
                ServerName 127.0.0.1
                Listen 127.0.0.1:\(port)
                PidFile "\(root)/server.pid"
                DefaultRuntimeDir "\(root)/work"
                ErrorLog "\(root)/error.log"
                LogLevel warn
                LogFormat "%h \\"%r\\" %>s %b" orgsocial
                CustomLog "\(root)/access.log" orgsocial
                StartServers 1
                ServerLimit 1
                ThreadLimit 8
                ThreadsPerChild 8
                MaxRequestWorkers 8
                MinSpareThreads 1
                MaxSpareThreads 8
                \(user)
                \(modules.map { "LoadModule \($0)_module \(apacheModules)/mod_\($0).so" }.joined(separator: "\n"))
                DavLockDB "\(root)/work/DavLock"
                DocumentRoot "\(root)/dav"
                <Directory "\(root)/dav">
                    Dav On
                    AuthType Basic
                    AuthName "orgsocial-test"
                    AuthBasicProvider file
                    AuthUserFile "\(root)/htpasswd"
                    Require valid-user
                </Directory>

                """
        case .nginx:
            let user =
                owner.flatMap { owner in
                    getgrgid(owner.gid).map { "user nobody \(String(cString: $0.pointee.gr_name));" }
                } ?? ""
            let temporaryPaths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map {
                "    \($0)_temp_path \(root)/work/\($0);"
            }
            return """
                daemon off;
                master_process on;
                worker_processes 1;
                \(user)
                pid \(root)/server.pid;
                error_log \(root)/error.log warn;
                events { worker_connections 64; }
                http {
                    access_log \(root)/access.log;
                \(temporaryPaths.joined(separator: "\n"))
                    server {
                        listen 127.0.0.1:\(port);
                        root \(root)/dav;
                        location / {
                            dav_methods PUT DELETE MKCOL COPY MOVE;
                            create_full_put_path on;
                            dav_access user:rw group:r all:r;
                            auth_basic "orgsocial-test";
                            auth_basic_user_file \(root)/htpasswd;
                        }
                    }
                }

                """
        }
    }

    /// Starts the server in the foreground, its standard output and error in `server.out`.
    private static func launch(_ kind: Kind, folder: TemporaryFolder) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: kind.executable)
        let configuration = folder.path("server.conf")
        process.arguments =
            switch kind {
            case .apache: ["-f", configuration, "-DFOREGROUND"]
            case .nginx: ["-p", folder.path, "-c", configuration, "-e", folder.path("error.log")]
            }
        let output = folder.path("server.out")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        handle.seekToEndOfFile()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        return process
    }

    /// Waits until the server accepts connections on `port`, or has exited (its complaint is the
    /// failure), or 15 seconds have passed (it is then killed).
    private static func waitUntilListening(_ process: Process, port: Int, folder: TemporaryFolder)
        -> Result<Void, StartFailure>
    {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                process.waitUntilExit()
                let complaint = ((try? folder.text("server.out")) ?? "") + ((try? folder.text("error.log")) ?? "")
                return .failure(
                    StartFailure(
                        description: "\(process.executableURL?.path ?? "server") exited with status "
                            + "\(process.terminationStatus): \(complaint)"))
            }
            if !RawConnection.isRefused(port: port) { return .success(()) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return .failure(StartFailure(description: "the server did not listen on 127.0.0.1:\(port) within 15 s"))
    }
}
