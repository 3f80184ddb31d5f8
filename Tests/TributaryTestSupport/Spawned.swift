public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, its standard input and output as pipes.
///
/// Foundation's `Process` on Linux lists `/proc/self/fd` before it starts a child, and that
/// listing overflows a heap buffer once the parent's descriptor numbers grow long (the address
/// sanitizer stops the suite there); tests start children with this instead. Every descriptor
/// is made close-on-exec first, so a child inherits only its own pipes' ends, duplicated onto
/// 0 and 1.
public final class Spawned: @unchecked Sendable {
    // Written once at start; the handles are used by one test.
    public let pid: pid_t
    public let standardInput: FileHandle
    public let standardOutput: FileHandle

    /// Starts `executable` with `arguments`; its standard error goes nowhere when
    /// `discardingErrors`, else where the test's goes.
    public init(_ executable: URL, arguments: [String], discardingErrors: Bool = false) throws {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw POSIXError(.EMFILE) }
        guard pipe(&output) == 0 else {
            close(input[0])
            close(input[1])
            throw POSIXError(.EMFILE)
        }
        for descriptor in input + output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if discardingErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        Self.closeEveryDescriptorOnExec()
        var child: pid_t = 0
        let started = posix_spawn(&child, executable.path, &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard started == 0 else {
            close(input[1])
            close(output[0])
            throw POSIXError(POSIXErrorCode(rawValue: started) ?? .ENOENT)
        }
        pid = child
        standardInput = FileHandle(fileDescriptor: input[1], closeOnDealloc: true)
        standardOutput = FileHandle(fileDescriptor: output[0], closeOnDealloc: true)
    }

    /// Marks every descriptor of the test process close-on-exec, so that a child holds none of
    /// them — no other test's listening socket, which would keep its port taken — but the
    /// pipes duplicated onto its 0 and 1. Only a child's exec reads the mark.
    private static func closeEveryDescriptorOnExec() {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for name in open {
            guard let descriptor = Int32(name), descriptor > 2 else { continue }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    /// Sends the child `signal`.
    public func signal(_ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// Waits for the child to end: its exit status, or the signal that ended it.
    public func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? .signal(signal) : .exit((status >> 8) & 0xFF)
    }

    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        case exit(Int32)
        case signal(Int32)
    }
}
