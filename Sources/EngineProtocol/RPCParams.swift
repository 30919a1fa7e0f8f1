/// A request's named params with typed access: each accessor answers `nil` for an absent (or `null`)
/// param, and throws `Invalid params: wrong type for "<name>"` or `missing "<name>"` as the official engine
/// does. Nested objects keep the dotted path in their messages (`poll.endsAt`).
package struct RPCParams: Sendable {
    /// The members.
    package let members: [String: RPCValue]
    /// The dotted prefix of the members' names (`poll.`), empty at the top.
    package let path: String

    /// Params from a request's `params` member.
    /// - Parameters:
    ///   - members: the members.
    ///   - path: the dotted prefix for messages.
    package init(_ members: [String: RPCValue] = [:], path: String = "") {
        self.members = members
        self.path = path
    }

    private func value(_ name: String) -> RPCValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    /// Whether the param is there (and not `null`).
    /// - Parameter name: the param.
    /// - Returns: `true` when it is.
    package func has(_ name: String) -> Bool { value(name) != nil }

    /// The wrong-type error for `name`.
    /// - Parameter name: the param.
    /// - Returns: the error.
    package func wrongType(_ name: String) -> RPCError {
        .invalidParams("wrong type for \"\(path)\(name)\"")
    }

    /// The missing-param error for `name`.
    /// - Parameter name: the param.
    /// - Returns: the error.
    package func missing(_ name: String) -> RPCError {
        .invalidParams("missing \"\(path)\(name)\"")
    }

    /// A string param.
    /// - Parameter name: the param.
    /// - Returns: its value, or `nil` when absent.
    /// - Throws: ``RPCError`` when it is not a string.
    package func string(_ name: String) throws(RPCError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let string) = value else { throw wrongType(name) }
        return string
    }

    /// A required string param.
    /// - Parameter name: the param.
    /// - Returns: its value.
    /// - Throws: ``RPCError`` when it is absent or not a string.
    package func requiredString(_ name: String) throws(RPCError) -> String {
        guard let string = try string(name) else { throw missing(name) }
        return string
    }

    /// An integer param.
    /// - Parameter name: the param.
    /// - Returns: its value, or `nil` when absent.
    /// - Throws: ``RPCError`` when it is not an integer.
    package func int(_ name: String) throws(RPCError) -> Int? {
        guard let value = value(name) else { return nil }
        guard case .int(let int) = value else { throw wrongType(name) }
        return int
    }

    /// A boolean param.
    /// - Parameter name: the param.
    /// - Returns: its value, or `nil` when absent.
    /// - Throws: ``RPCError`` when it is not a boolean.
    package func bool(_ name: String) throws(RPCError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let bool) = value else { throw wrongType(name) }
        return bool
    }

    /// An array-of-strings param.
    /// - Parameter name: the param.
    /// - Returns: its value, or `nil` when absent.
    /// - Throws: ``RPCError`` when it is not an array of strings.
    package func strings(_ name: String) throws(RPCError) -> [String]? {
        guard let value = value(name) else { return nil }
        guard case .array(let elements) = value else { throw wrongType(name) }
        var strings: [String] = []
        for element in elements {
            guard case .string(let string) = element else { throw wrongType(name) }
            strings.append(string)
        }
        return strings
    }

    /// An object param, as params of its own whose messages name `<name>.<member>`.
    /// - Parameter name: the param.
    /// - Returns: its members, or `nil` when absent.
    /// - Throws: ``RPCError`` when it is not an object.
    package func object(_ name: String) throws(RPCError) -> RPCParams? {
        guard let value = value(name) else { return nil }
        guard case .object(let members) = value else { throw wrongType(name) }
        return RPCParams(members, path: "\(path)\(name).")
    }

    /// An object param whose members are all strings (`mentions`).
    /// - Parameter name: the param.
    /// - Returns: its members, or `nil` when absent.
    /// - Throws: ``RPCError`` when it is not such an object.
    package func stringMap(_ name: String) throws(RPCError) -> [String: String]? {
        guard let object = try object(name) else { return nil }
        var map: [String: String] = [:]
        for (key, value) in object.members {
            guard case .string(let string) = value else { throw wrongType(name) }
            map[key] = string
        }
        return map
    }
}
