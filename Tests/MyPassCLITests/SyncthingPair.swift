import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two Syncthing instances on this machine playing two devices that share one folder, started and
/// stopped by the test. Each has its own home (keys, config, database), folder, listen port and API
/// port, all on 127.0.0.1; the configuration is written before the first start, so that no other
/// address is ever contacted: global and local discovery, relays, NAT traversal (and with it STUN),
/// usage reporting, crash reporting and automatic upgrades are off, and each device knows the other
/// only by its static `tcp://127.0.0.1:PORT`. Scripted through the REST API (with each instance's
/// API key, over `curl`), waits are event-driven (`/rest/events` long polls) and bounded in time
/// and count.
final class SyncthingPair: @unchecked Sendable {
    /// One instance.
    struct Device {
        let name: String
        let home: URL
        let folder: URL
        let id: String
        let apiKey: String
        let apiPort: Int
        let listenPort: Int
        var process: Process?
        var lastEventID = 0

        var api: String { "http://127.0.0.1:\(apiPort)" }
    }

    static let folderID = "vault"
    private(set) var devices: [Device]
    private let syncthing: URL
    private let curl: URL
    /// What the test did and saw, for failure messages.
    private(set) var log: [String] = []

    /// The tools, or nil (then a visible skip, or a failure under `MYPASS_REQUIRE_INTEROP=1`).
    static func tools(test: String) -> (syncthing: URL, curl: URL)? {
        for tool in ["syncthing", "curl"] where InteropTools.executable(named: tool) == nil {
            if let message = InteropTools.missing(tool, test: test) { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        return (InteropTools.executable(named: "syncthing")!, InteropTools.executable(named: "curl")!)
    }

    /// Makes both devices below `root` (`a/`, `b/` homes, `a-folder/`, `b-folder/` folders) and
    /// starts them; returns once they are connected. The folders ignore MyPass's temporary files.
    init(root: URL, syncthing: URL, curl: URL) throws {
        self.syncthing = syncthing
        self.curl = curl
        let ports = try Self.freePorts(4)
        var made: [Device] = []
        for (index, name) in ["a", "b"].enumerated() {
            let home = root.appendingPathComponent(name), folder = root.appendingPathComponent("\(name)-folder")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
            // MyPass's temporary files (`.NAME.mypass-HEX.tmp`) are never worth sending.
            try Data("(?d).*.mypass-*.tmp\n".utf8).write(to: folder.appendingPathComponent(".stignore"))
            let generated = try runProcess(syncthing, ["generate", "--home=\(home.path)", "--no-default-folder"])
            guard generated.status == 0 else { throw Failure("syncthing generate: \(generated.stderrText)") }
            let shown = try runProcess(syncthing, ["serve", "--home=\(home.path)", "--device-id"])
            let id = shown.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            guard id.count == 63 else { throw Failure("no device ID: \(shown.stdoutText) \(shown.stderrText)") }
            made.append(Device(name: name, home: home, folder: folder, id: id,
                               apiKey: "mypass-test-" + UUID().uuidString.prefix(8).lowercased(),
                               apiPort: ports[index * 2], listenPort: ports[index * 2 + 1]))
        }
        devices = made
        for index in 0..<2 { try writeConfig(index) }
        do {
            for index in 0..<2 { try start(index) }
            for index in 0..<2 { try waitUntil("the API of \(devices[index].name) answers", seconds: 60) { (try? self.get(index, "/rest/system/ping")) != nil } }
            for index in 0..<2 { devices[index].lastEventID = try latestEventID(index) }
            try waitConnected(true)
            try checkLoopbackOnly()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    // MARK: - Configuration and processes

    private func writeConfig(_ index: Int) throws {
        let me = devices[index], other = devices[1 - index]
        func device(_ device: Device) -> String {
            """
                <device id="\(device.id)" name="\(device.name)" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">
                    <address>tcp://127.0.0.1:\(device.listenPort)</address>
                    <paused>false</paused>
                    <autoAcceptFolders>false</autoAcceptFolders>
                </device>

            """
        }
        let config = """
            <configuration version="36">
                <folder id="\(Self.folderID)" label="vault" path="\(me.folder.path)" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
                    <filesystemType>basic</filesystemType>
                    <device id="\(me.id)" introducedBy=""></device>
                    <device id="\(other.id)" introducedBy=""></device>
                    <minDiskFree unit="%">0</minDiskFree>
                    <versioning></versioning>
                    <maxConflicts>-1</maxConflicts>
                    <markerName>.stfolder</markerName>
                    <paused>false</paused>
                </folder>
            \(device(me))\(device(other))    <gui enabled="true" tls="false" debugging="false">
                    <address>127.0.0.1:\(me.apiPort)</address>
                    <apikey>\(me.apiKey)</apikey>
                    <theme>default</theme>
                </gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(me.listenPort)</listenAddress>
                    <globalAnnounceServer></globalAnnounceServer>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <startBrowser>false</startBrowser>
                    <urAccepted>-1</urAccepted>
                    <urSeen>3</urSeen>
                    <urURL></urURL>
                    <restartOnWakeup>false</restartOnWakeup>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <releasesURL></releasesURL>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <crashReportingURL></crashReportingURL>
                    <stunKeepaliveStartS>0</stunKeepaliveStartS>
                    <stunKeepaliveMinS>0</stunKeepaliveMinS>
                    <stunServer></stunServer>
                    <announceLANAddresses>false</announceLANAddresses>
                    <setLowPriority>false</setLowPriority>
                    <progressUpdateIntervalS>-1</progressUpdateIntervalS>
                </options>
            </configuration>

            """
        try Data(config.utf8).write(to: me.home.appendingPathComponent("config.xml"))
    }

    private func start(_ index: Int) throws {
        let process = Process()
        process.executableURL = syncthing
        process.arguments = ["serve", "--home=\(devices[index].home.path)", "--no-browser", "--no-restart", "--logflags=3",
                             "--logfile=\(devices[index].home.appendingPathComponent("syncthing.log").path)"]
        var environment = ProcessInfo.processInfo.environment
        environment["STMONITORED"] = "1"      // one process, no monitor that restarts it
        environment["STNOUPGRADE"] = "1"
        environment["STNODEFAULTFOLDER"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        devices[index].process = process
    }

    /// Stops both instances: the REST shutdown, then SIGTERM, then SIGKILL, each waited for a
    /// bounded time. Safe to call twice.
    func stop() {
        for index in devices.indices {
            guard let process = devices[index].process else { continue }
            if process.isRunning { _ = try? request(index, "POST", "/rest/system/shutdown", timeout: 5) }
            for signal in [0, SIGTERM, SIGKILL] {
                if signal != 0 && process.isRunning { kill(process.processIdentifier, signal) }
                let deadline = Date().addingTimeInterval(signal == SIGKILL ? 5 : 10)
                while process.isRunning && Date() < deadline { usleep(50_000) }
                if !process.isRunning { break }
            }
            if !process.isRunning { process.waitUntilExit() }
            devices[index].process = nil
        }
    }

    /// `count` TCP ports free on 127.0.0.1 right now (bound to port 0, then released).
    private static func freePorts(_ count: Int) throws -> [Int] {
        var ports: [Int] = []
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        while ports.count < count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure("socket: \(errno)") }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw Failure("bind: \(errno)") }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    // MARK: - REST

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// One REST call with the device's API key; the JSON answer (or `nil` for an empty one).
    @discardableResult
    func request(_ index: Int, _ method: String, _ path: String, body: String? = nil, timeout: Double = 10) throws -> Any? {
        var arguments = ["-sS", "--max-time", String(timeout), "-X", method, "-H", "X-API-Key: \(devices[index].apiKey)",
                         "--fail-with-body"]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        arguments.append(devices[index].api + path)
        let result = try runProcess(curl, arguments)
        guard result.status == 0 else { throw Failure("\(method) \(path) on \(devices[index].name): \(result.stderrText) \(result.stdoutText)") }
        let text = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    func get(_ index: Int, _ path: String, timeout: Double = 10) throws -> [String: Any] {
        guard let object = try request(index, "GET", path, timeout: timeout) as? [String: Any] else {
            throw Failure("GET \(path): not an object")
        }
        return object
    }

    private func latestEventID(_ index: Int) throws -> Int {
        let events = try request(index, "GET", "/rest/events?since=0&limit=1&timeout=1") as? [[String: Any]] ?? []
        return events.last?["id"] as? Int ?? 0
    }

    /// Waits (at most `seconds`) for the next events of either device: a long poll of `/rest/events`.
    private func awaitEvents(seconds: Double) {
        for index in devices.indices {
            let path = "/rest/events?since=\(devices[index].lastEventID)&timeout=\(max(1, Int(seconds / 2)))"
            if let events = try? request(index, "GET", path, timeout: seconds / 2 + 5) as? [[String: Any]],
               let last = events.last?["id"] as? Int {
                devices[index].lastEventID = last
                if !events.isEmpty { return }
            }
        }
    }

    /// Waits until `condition` holds: checked, then again after each batch of events, at most
    /// `seconds` and 400 times.
    func waitUntil(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        for _ in 0..<400 {
            if try condition() { return }
            guard Date() < deadline else { break }
            if devices.allSatisfy({ $0.process?.isRunning == true }) {
                awaitEvents(seconds: min(2, max(0.2, deadline.timeIntervalSinceNow)))
            } else {
                usleep(100_000)
            }
        }
        throw Failure("timed out waiting until \(what) (\(seconds) s); " + log.suffix(8).joined(separator: "; "))
    }

    // MARK: - What the tests do

    /// Rescans the folder on a device now (rather than after the file watcher's delay).
    func scan(_ index: Int) throws {
        try request(index, "POST", "/rest/db/scan?folder=\(Self.folderID)")
    }

    /// Pauses or resumes the link: each device pauses (resumes) the other.
    func setLinkPaused(_ paused: Bool) throws {
        for index in devices.indices {
            try request(index, "PATCH", "/rest/config/devices/\(devices[1 - index].id)", body: "{\"paused\": \(paused)}")
        }
        log.append(paused ? "link paused" : "link resumed")
        try waitConnected(!paused)
    }

    /// Waits until both devices see each other connected (or both not).
    func waitConnected(_ connected: Bool) throws {
        try waitUntil(connected ? "the devices are connected" : "the devices are apart", seconds: 60) {
            try devices.indices.allSatisfy { index in
                let connections = try get(index, "/rest/system/connections")["connections"] as? [String: Any]
                let other = connections?[devices[1 - index].id] as? [String: Any]
                return (other?["connected"] as? Bool) == connected
            }
        }
    }

    /// What each device's folder holds: file name to SHA-256 (Syncthing's and MyPass's temporary
    /// files, `.stfolder` and `.stignore` aside).
    func files(_ index: Int) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: devices[index].folder.path) {
            if name.hasPrefix(".") { continue }
            let data = try Data(contentsOf: devices[index].folder.appendingPathComponent(name))
            out[name] = sha256Hex([UInt8](data))
        }
        return out
    }

    /// Waits until both devices are idle, need nothing, see the other complete, and hold the same
    /// files byte for byte (both folders rescanned first).
    func waitInSync(seconds: Double = 90) throws {
        for index in devices.indices { try scan(index) }
        try waitUntil("both devices hold the same files", seconds: seconds) {
            for index in devices.indices {
                let status = try get(index, "/rest/db/status?folder=\(Self.folderID)")
                guard status["state"] as? String == "idle", status["needTotalItems"] as? Int == 0,
                      status["pullErrors"] as? Int ?? 0 == 0 else { return false }
                let completion = try get(index, "/rest/db/completion?folder=\(Self.folderID)&device=\(devices[1 - index].id)")
                guard (completion["completion"] as? Double ?? 0) >= 100, completion["needItems"] as? Int ?? 1 == 0 else { return false }
            }
            return try files(0) == files(1)
        }
        log.append("in sync: \(try files(0).keys.sorted())")
    }

    /// The status says that nothing but the loopback links is in use: no discovery, no relays, a
    /// listener on 127.0.0.1 only, and the one connection to the other device on 127.0.0.1.
    func checkLoopbackOnly() throws {
        for index in devices.indices {
            let status = try get(index, "/rest/system/status")
            let listeners = (status["connectionServiceStatus"] as? [String: Any])?.keys.sorted() ?? []
            guard listeners == ["tcp://127.0.0.1:\(devices[index].listenPort)"] else { throw Failure("listeners: \(listeners)") }
            if let discovery = status["discoveryEnabled"] as? Bool, discovery { throw Failure("discovery is on") }
            let options = try get(index, "/rest/config/options")
            for (key, expected) in [("globalAnnounceEnabled", false), ("localAnnounceEnabled", false), ("relaysEnabled", false),
                                    ("natEnabled", false), ("crashReportingEnabled", false)] {
                guard options[key] as? Bool == expected else { throw Failure("option \(key) is \(options[key] ?? "missing")") }
            }
            guard options["urAccepted"] as? Int == -1, options["autoUpgradeIntervalH"] as? Int == 0 else {
                throw Failure("usage reporting or upgrades on: \(options)")
            }
            let connections = try get(index, "/rest/system/connections")["connections"] as? [String: Any] ?? [:]
            for (id, value) in connections {
                guard let connection = value as? [String: Any], connection["connected"] as? Bool == true else { continue }
                let address = connection["address"] as? String ?? ""
                guard id == devices[1 - index].id, address.hasPrefix("127.0.0.1:") else {
                    throw Failure("connection to \(id) at \(address)")
                }
            }
        }
    }

    func note(_ line: String) { log.append(line) }
}

/// SHA-256 of `bytes` in hex.
func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(bytes).hexString
}
